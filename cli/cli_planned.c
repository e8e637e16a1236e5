/* The command line's side of a planned run (study/plans/planned.h), for
 * `yinsh study`, `tournament`, `rounds` and `spsa`: what is shown while
 * one plays (a self-play run as `yinsh selfplay` shows it, a match as a
 * tournament's pairing), Ctrl-C, and what is said when it stops. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/number.h"
#include "selfplay/play/run.h"

const char CLI_TOURNAMENT_REFUSED[] =
    ": give the participants, games, seed, variant, openings and controls it was started with, or another "
    "tournament name (--name) or database";

typedef struct Show {
    const CliPlay *c;
    bool shard; /* a slice of the run (PlannedOptions' shards): its end is not the run's */
    Progress progress;
    char label[STORE_NAME_LEN + 32];
} Show;

static bool is_match(const Planned *p) { return !strcmp(p->kind, "match"); }

static void match_tail(const MatchTally *t, char *tail, size_t len)
{
    snprintf(tail, len, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
}

static void on_start(void *ctx, const Planned *p, const Run *run)
{
    Show *s = ctx;
    if (is_match(p)) {
        snprintf(s->label, sizeof s->label, "%s (%d/%d) games", p->name, s->c->k + 1, s->c->n);
        progress_start(&s->progress, s->label, run->plan.games, s->c->quiet);
        return;
    }
    if (!s->c->quiet) {
        fprintf(stderr, "yinsh %s: ", s->c->cmd);
        run_describe(stderr, run);
        fputc('\n', stderr);
    }
    progress_start(&s->progress, "games", run->ntodo, s->c->quiet);
}

static void on_progress(void *ctx, const Run *run, const MatchTally *t, uint64_t games)
{
    Show *s = ctx;
    char tail[128];
    if (t) match_tail(t, tail, sizeof tail);
    else run_tally(&run->sum, tail, sizeof tail);
    progress_update(&s->progress, games, tail);
}

static void on_finished(void *ctx, const Planned *p, const Run *run, const PlannedResult *res)
{
    Show *s = ctx;
    const char *cmd = s->c->cmd;
    const RecordSummary *sum = &run->sum;
    char tail[128];
    if (is_match(p)) {
        match_tail(&res->match.tally, tail, sizeof tail);
        progress_finish(&s->progress, 2 * res->match.tally.pairs, tail);
        if (!s->c->quiet) fprintf(stderr, "yinsh %s: %s %s complete: hash %016" PRIx64 "\n", cmd,
                                  s->shard ? "the shard of run" : "run", p->name, res->match.hash);
        return;
    }
    run_tally(sum, tail, sizeof tail);
    progress_finish(&s->progress, res->done, tail);
    if (s->c->summary && !s->c->quiet)
        fprintf(stderr,
                "yinsh %s: %s %s complete: %" PRIu64 " game%s, White %" PRIu64 ", Black %" PRIu64
                ", draws %" PRIu64 ", hash %016" PRIx64 "\n",
                cmd, s->shard ? "the shard of run" : "run", p->name, sum->games, number_plural(sum->games), sum->wins[RESULT_WHITE], sum->wins[RESULT_BLACK],
                sum->wins[RESULT_DRAW],
                sum->hash);
}

int cli_play_planned(const CliPlay *c, const Planned *p, const PlannedOptions *o)
{
    Show s = {.c = c, .shard = o->shards > 0};
    PlannedHooks h = {.start = on_start, .progress = on_progress, .finished = on_finished, .ctx = &s,
                      .interrupt = cli_catch_signals()};
    PlannedResult res;
    char err[ERR_LEN];
    int rc = planned_play(p, o, &h, &res, err);
    if (!rc && !res.stopped) return 0;
    if (s.progress.shown) fprintf(stderr, "\n");
    if (rc) {
        cli_error(c->cmd, "%s", err);
        if (rc == ERR_REPEAT) fprintf(stderr, "yinsh %s: %s\n", c->cmd, c->repeat);
    } else if (is_match(p)) {
        fprintf(stderr, "yinsh %s: interrupted (%s); the stored games are kept, and the same command finishes "
                        "the tournament\n", c->cmd, strsignal(cli_signal()));
    } else {
        fprintf(stderr, "yinsh %s: interrupted (%s)\n", c->cmd, strsignal(cli_signal()));
    }
    if (res.opened && !is_match(p))
        cli_stored_hint(c->cmd, p->name, o->db, res.done, res.sum.games, p->plan.games, o->shard, o->shards);
    return rc ? 1 : 128 + cli_signal();
}
