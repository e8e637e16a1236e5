/* Resignation in self-play (play/resign.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/base/rng.h"
#include "selfplay/play/resign.h"

/* Salts the game seed of the check's draw, which no stream of the game
 * uses: the draw changes no action. */
#define RESIGN_SALT 0x72657369676e21ULL /* "resign!" */

int resign_parse(const char *text, ResignRule *rule, char *err)
{
    char v[64];
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    double value;
    long n = RESIGN_DEFAULT_DECISIONS;
    if (len >= sizeof v) goto bad;
    memcpy(v, text, len);
    v[len] = '\0';
    if (!number_real(v, 0, 1, &value) || value <= 0 || value >= 1) goto bad;
    if (colon && !number_long(colon + 1, 1, RESIGN_MAX_DECISIONS, &n)) goto bad;
    rule->value = value;
    rule->decisions = (uint32_t)n;
    return 0;
bad:
    return error_code(err, ERR_USAGE,
                      "bad resignation rule '%.64s' (V or V:N: resign when the search's value is below V, a "
                      "number strictly between 0 and 1, at N consecutive own decisions, 1 to %d, default %d)",
                      text, RESIGN_MAX_DECISIONS, RESIGN_DEFAULT_DECISIONS);
}

int resign_parse_check(const char *text, ResignRule *rule, char *err)
{
    if (number_real(text, 0, 1, &rule->check)) return 0;
    return error_code(err, ERR_USAGE,
                      "bad resignation check '%.64s' (the fraction of games played out to check resignations, "
                      "a number from 0 to 1)",
                      text);
}

char *resign_format(const ResignRule *rule, char *out, size_t len)
{
    char v[32], f[32];
    out[0] = '\0';
    if (!(rule->value > 0)) return out;
    number_real_text(rule->value, v);
    number_real_text(rule->check, f);
    snprintf(out, len, "resign=%s:%u,resigncheck=%s", v, (unsigned)rule->decisions, f);
    return out;
}

bool resign_checked(const ResignRule *rule, uint64_t game_seed)
{
    double u = (double)(rng_mix(game_seed, RESIGN_SALT) >> 11) * 0x1p-53; /* [0, 1) */
    return u < rule->check;
}

bool resign_watch(ResignWatch *w, const ResignRule *rule, int actor, bool searched, double root_value)
{
    if (!searched) return false;
    if (root_value >= rule->value) {
        w->low[actor] = 0;
        return false;
    }
    return ++w->low[actor] >= rule->decisions;
}

int resign_scan(const GameRecord *g, const ResignRule *rule, int *actor)
{
    ResignWatch w = {{0, 0}};
    for (int i = 0; i < g->nactions; i++) {
        const ActionRecord *a = &g->actions[i];
        if (resign_watch(&w, rule, a->actor, a->searched, a->root_value)) {
            *actor = a->actor;
            return i;
        }
    }
    return -1;
}

void resign_summary_add(ResignSummary *s, const ResignRule *rule, const GameRecord *g)
{
    if (g->reason == REASON_RESIGN) s->resigned++;
    if (!(rule->value > 0) || !resign_checked(rule, g->seed)) return;
    s->checked++;
    int actor, ply = resign_scan(g, rule, &actor);
    if (ply < 0) return;
    s->fired++;
    s->left += (uint64_t)(g->nactions - ply);
    int won = actor == WHITE ? RESULT_WHITE : RESULT_BLACK;
    if (g->result == won || g->result == RESULT_DRAW) s->wrong++;
    if (g->result == RESULT_DRAW) s->wrong_draw++;
}

Interval resign_false_rate(const ResignSummary *s) { return stats_clopper_pearson(s->wrong, s->fired, 0.05); }

double resign_saved_actions(const ResignSummary *s)
{
    return s->fired ? (double)s->resigned * (double)s->left / (double)s->fired : 0;
}
