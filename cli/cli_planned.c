/* The command line's side of a planned run (study/plans/planned.h), for
 * `yinsh study`, `tournament`, `rounds` and `spsa`: the hooks that show
 * it (study/plans/planned_show.h), Ctrl-C, and what is said when it
 * stops. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "selfplay/play/run_summary.h"
#include "study/plans/planned_show.h"

const char CLI_TOURNAMENT_REFUSED[] =
    ": give the participants, games, seed, variant, openings and controls it was started with, or another "
    "tournament name (--name) or database";

int cli_play_planned(const CliPlay *c, const Planned *p, const PlannedOptions *o)
{
    PlannedShow s = {.f = stderr, .cmd = c->cmd, .quiet = c->quiet, .k = c->k, .n = c->n, .summary = c->summary,
                     .shard = o->shards > 0};
    PlannedHooks h = planned_show_hooks(&s);
    h.interrupt = interrupt_catch();
    PlannedResult res;
    char err[ERR_LEN];
    int rc = planned_play(p, o, &h, &res, err);
    if (!rc && !res.stopped) return 0;
    if (s.progress.shown) fprintf(stderr, "\n");
    if (rc) {
        cli_error(c->cmd, "%s", err);
        if (rc == ERR_REPEAT) fprintf(stderr, "yinsh %s: %s\n", c->cmd, c->repeat);
    } else if (planned_is_match(p)) {
        fprintf(stderr, "yinsh %s: interrupted (%s); the stored games are kept, and the same command finishes "
                        "the tournament\n", c->cmd, strsignal(interrupt_signal()));
    } else {
        fprintf(stderr, "yinsh %s: interrupted (%s)\n", c->cmd, strsignal(interrupt_signal()));
    }
    if (res.opened && !planned_is_match(p))
        run_stored_hint(stderr, c->cmd, p->name, o->db, res.done, res.sum.games, p->plan.games, o->shard, o->shards);
    return rc ? 1 : 128 + interrupt_signal();
}
