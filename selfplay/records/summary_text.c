/* A run's totals as text and as JSON (summary_text.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "selfplay/records/summary_text.h"
#include "engine/base/json.h"
#include "engine/notation.h"

static const char *const SIDES[2] = {"white", "black"};

void record_summary_print(FILE *f, const char *name, const RecordSummary *s)
{
    Interval score = record_white_score(s);
    fprintf(f, "run          %s\n", name);
    fprintf(f, "games        %" PRIu64 "\n", s->games);
    fprintf(f, "white wins   %" PRIu64 "\n", s->wins[RESULT_WHITE]);
    fprintf(f, "black wins   %" PRIu64 "\n", s->wins[RESULT_BLACK]);
    fprintf(f, "draws        %" PRIu64 "\n", s->wins[RESULT_DRAW]);
    fprintf(f, "white score  %.3f (95%% CI %.3f to %.3f)\n", score.mid, score.lo, score.hi);
    fprintf(f, "mean length  %.1f actions\n", s->games ? (double)s->actions / (double)s->games : 0.0);
    fprintf(f, "end reasons ");
    bool any = false;
    for (int r = 0; r < REASON_NB; r++)
        if (s->reasons[r]) {
            fprintf(f, "%s %s %" PRIu64, any ? "," : "", reason_name(r), s->reasons[r]);
            any = true;
        }
    fprintf(f, "%s\n", any ? "" : " -");
    fprintf(f, "hash         %016" PRIx64 " (actions and visit counts of every game)\n", s->hash);
    record_faults_print(f, SIDES, s);
}

void record_summary_json(Json *j, const RecordSummary *s)
{
    json_uint(j, "games", s->games);
    json_open(j, "results", '{', true);
    json_uint(j, "white", s->wins[RESULT_WHITE]);
    json_uint(j, "black", s->wins[RESULT_BLACK]);
    json_uint(j, "draw", s->wins[RESULT_DRAW]);
    json_close(j);
    Interval score = record_white_score(s);
    json_estimate(j, "white_score", score.lo, score.mid, score.hi);
    json_num(j, "mean_length_actions", s->games ? (double)s->actions / (double)s->games : NAN);
    json_open(j, "end_reasons", '{', true);
    for (int r = 0; r < REASON_NB; r++) json_uint(j, reason_name(r), s->reasons[r]);
    json_close(j);
    json_hex(j, "hash", s->hash);
    record_faults_json(j, SIDES, s);
}

void record_faults_print(FILE *f, const char *const labels[2], const RecordSummary *s)
{
    for (int i = 0; i < 2; i++) {
        uint64_t total = 0;
        for (int r = 0; r < REASON_NB; r++) total += s->faults[i][r];
        char label[32];
        snprintf(label, sizeof label, "faults %s", labels[i]);
        fprintf(f, "%-12s %" PRIu64, label, total);
        bool any = false;
        for (int r = 0; r < REASON_NB; r++)
            if (s->faults[i][r]) {
                fprintf(f, "%s%s %" PRIu64, any ? ", " : " (", reason_name(r), s->faults[i][r]);
                any = true;
            }
        fprintf(f, "%s\n", any ? ")" : "");
    }
}

void record_faults_json(Json *j, const char *const labels[2], const RecordSummary *s)
{
    json_object(j, "faults");
    for (int i = 0; i < 2; i++) {
        json_object(j, labels[i]);
        for (int r = 0; r < REASON_NB; r++)
            if (REASON_IS_FAULT(r)) json_uint(j, reason_name(r), s->faults[i][r]);
        json_close(j);
    }
    json_close(j);
}
