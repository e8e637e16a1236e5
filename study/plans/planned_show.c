/* What is shown while a planned run plays (planned_show.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/number.h"
#include "selfplay/play/run.h"
#include "study/plans/planned_show.h"

bool planned_is_match(const Planned *p) { return !strcmp(p->kind, "match"); }

static void match_tail(const MatchTally *t, char *tail, size_t len)
{
    snprintf(tail, len, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
}

static void on_start(void *ctx, const Planned *p, const Run *run)
{
    PlannedShow *s = ctx;
    if (planned_is_match(p)) {
        snprintf(s->label, sizeof s->label, "%s (%d/%d) games", p->name, s->k + 1, s->n);
        progress_start(&s->progress, s->label, run->plan.games, s->quiet);
        return;
    }
    if (!s->quiet) {
        fprintf(s->f, "yinsh %s: ", s->cmd);
        run_describe(s->f, run);
        fputc('\n', s->f);
    }
    progress_start(&s->progress, "games", run->ntodo, s->quiet);
}

static void on_progress(void *ctx, const Run *run, const MatchTally *t, uint64_t games)
{
    PlannedShow *s = ctx;
    char tail[128];
    if (t) match_tail(t, tail, sizeof tail);
    else run_tally(&run->sum, tail, sizeof tail);
    progress_update(&s->progress, games, tail);
}

static void on_finished(void *ctx, const Planned *p, const Run *run, const PlannedResult *res)
{
    PlannedShow *s = ctx;
    const RecordSummary *sum = &run->sum;
    const char *what = s->shard ? "the shard of run" : "run";
    char tail[128];
    if (planned_is_match(p)) {
        match_tail(&res->match.tally, tail, sizeof tail);
        progress_finish(&s->progress, 2 * res->match.tally.pairs, tail);
        if (!s->quiet) fprintf(s->f, "yinsh %s: %s %s complete: hash %016" PRIx64 "\n", s->cmd, what, p->name,
                               res->match.hash);
        return;
    }
    run_tally(sum, tail, sizeof tail);
    progress_finish(&s->progress, res->done, tail);
    if (s->summary && !s->quiet)
        fprintf(s->f,
                "yinsh %s: %s %s complete: %" PRIu64 " game%s, White %" PRIu64 ", Black %" PRIu64 ", draws %" PRIu64
                ", hash %016" PRIx64 "\n",
                s->cmd, what, p->name, sum->games, number_plural(sum->games), sum->wins[RESULT_WHITE],
                sum->wins[RESULT_BLACK], sum->wins[RESULT_DRAW], sum->hash);
}

PlannedHooks planned_show_hooks(PlannedShow *s)
{
    return (PlannedHooks){.start = on_start, .progress = on_progress, .finished = on_finished, .ctx = s};
}
