#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/number.h"
#include "engine/notation.h"
#include "selfplay/records/record.h"
#include "engine/base/rng.h"

const char *opening_name(int opening)
{
    return opening == OPENING_BOOK     ? "book"
           : opening == OPENING_RINGS  ? "rings"
           : opening == OPENING_RANDOM ? "random"
           : opening == OPENING_PIE    ? "pie"
                                       : "none";
}

bool opening_parse(const char *text, int *opening, int *actions)
{
    *actions = 0;
    if (!strcmp(text, "none")) *opening = OPENING_NONE;
    else if (!strcmp(text, "rings")) *opening = OPENING_RINGS;
    else if (!strncmp(text, "random:", 7)) {
        long k;
        if (!number_long(text + 7, 1, OPENING_RANDOM_MAX, &k)) return false;
        *opening = OPENING_RANDOM;
        *actions = (int)k;
    } else if (!strncmp(text, "pie:", 4)) {
        long k;
        if (!number_long(text + 4, 1, OPENING_RANDOM_MAX, &k)) return false;
        *opening = OPENING_PIE;
        *actions = (int)k;
    } else
        return false;
    return true;
}

char *opening_format(int opening, int actions, char *out, size_t len)
{
    if (opening == OPENING_RANDOM || opening == OPENING_PIE) snprintf(out, len, "%s:%d", opening_name(opening), actions);
    else snprintf(out, len, "%s", opening_name(opening));
    return out;
}

void record_free(GameRecord *rec)
{
    if (!rec) return;
    free(rec->actions);
    rec->actions = NULL;
    rec->nactions = 0;
    free(rec->children);
    rec->children = NULL;
    rec->nchildren = 0;
}

int record_copy(GameRecord *dst, const GameRecord *src)
{
    *dst = *src;
    dst->actions = NULL;
    dst->children = NULL;
    if (src->nactions) {
        dst->actions = malloc((size_t)src->nactions * sizeof *dst->actions);
        if (!dst->actions) goto fail;
        memcpy(dst->actions, src->actions, (size_t)src->nactions * sizeof *dst->actions);
    }
    if (src->nchildren) {
        dst->children = malloc((size_t)src->nchildren * sizeof *dst->children);
        if (!dst->children) goto fail;
        memcpy(dst->children, src->children, (size_t)src->nchildren * sizeof *dst->children);
    }
    return 0;
fail:
    record_free(dst);
    return -1;
}

void record_final_counts(GameRecord *rec, const Position *pos)
{
    for (int side = 0; side < COLOUR_NB; side++) {
        rec->removed[side] = pos->removed[side];
        rec->markers[side] = (uint8_t)bb_popcount(pos->markers[side]);
    }
}

int record_result_check(int result, int reason, int end_result, int end_reason)
{
    bool stopped = reason >= REASON_RESIGN; /* a resignation or a fault: no replay decides it */
    if (stopped ? (result != RESULT_WHITE && result != RESULT_BLACK) || end_result != RESULT_NONE
                : result != RESULT_NONE && (result != end_result || reason != end_reason))
        return RECORD_RESULT_DIFFERS;
    if (result == RESULT_NONE && (reason != REASON_NONE || end_result != RESULT_NONE)) return RECORD_RESULT_ENDED;
    return RECORD_RESULT_OK;
}

uint64_t record_hash_action(uint64_t h, const char *action, uint32_t root_visits, uint32_t chosen_visits)
{
    return rng_mix(rng_hash_text_from(h, action), ((uint64_t)root_visits << 32) | chosen_visits);
}

uint64_t record_hash_game(uint64_t h, uint32_t index) { return rng_mix(h, index); }

uint64_t record_game_hash(const GameRecord *g)
{
    uint64_t h = RNG_HASH_START;
    for (int i = 0; i < g->nactions; i++) {
        const ActionRecord *a = &g->actions[i];
        char text[ACTION_MAX_LEN];
        h = record_hash_action(h, action_format(a->action, text), a->searched ? a->root_visits : 0,
                               a->searched ? a->chosen_visits : 0);
    }
    return record_hash_game(h, g->index);
}

void record_summary_add(RecordSummary *s, const GameRecord *g)
{
    s->hash += record_game_hash(g);
    s->games++;
    if (g->result >= 0 && g->result < RESULT_NB) s->wins[g->result]++;
    if (g->reason >= 0 && g->reason < REASON_NB) s->reasons[g->reason]++;
    record_summary_fault(s, g->result, g->reason, g->swapped, 1);
    s->actions += (uint64_t)g->nactions;
}

void record_summary_fault(RecordSummary *s, int result, int reason, bool swapped, uint64_t count)
{
    if (!REASON_IS_FAULT(reason) || (result != RESULT_WHITE && result != RESULT_BLACK)) return;
    int loser = result == RESULT_WHITE ? BLACK : WHITE; /* the colour at fault */
    s->faults[loser ^ swapped][reason] += count;
}

Interval record_white_score(const RecordSummary *s)
{
    return stats_score(s->wins[RESULT_WHITE], s->wins[RESULT_DRAW], s->wins[RESULT_BLACK]);
}
