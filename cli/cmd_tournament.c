/* yinsh tournament: named participants in a round robin or a gauntlet,
 * each pairing a match run, then a rating list fitted over all the games
 * and the pairwise table (study/plans/tournament.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "engine/base/json.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "study/plans/tournament.h"
#include "study/plans/tournament_text.h"

/* The command line, as parsed. */
typedef struct TourArgs {
    CliList plist;
    const char *name, *variant_text, *opening, *book_path, *anchor_name;
    bool json, gauntlet, no_play;
    long games;
    uint64_t seed;
    CliShared sh;
    CliControls ctl;
} TourArgs;

/* The tournament's own options into t: 0, or the exit status. */
static int check_options(const char *cmd, TourArgs *a, Tournament *t)
{
    int rc;
    *t = (Tournament){.variant = VARIANT_STANDARD, .opening = OPENING_RINGS, .gauntlet = a->gauntlet,
                      .seed = a->seed, .games = (uint32_t)a->games};
    if (a->plist.n < 2) return cli_usage_error(cmd, "at least two participants, each --p NAME=SPEC");
    if (a->games % 2) return cli_usage_error(cmd, "--games wants an even number (pairs of games), not %ld", a->games);
    if ((rc = cli_shared_check(cmd, &a->sh))) return rc;
    if (!planned_word(a->name, TOURNAMENT_NAME_LEN))
        return cli_usage_error(cmd, "--name: 1 to %d " PLANNED_WORD, TOURNAMENT_NAME_LEN - 1);
    snprintf(t->name, sizeof t->name, "%s", a->name);
    if (a->variant_text && !variant_parse(a->variant_text, &t->variant))
        return cli_usage_error(cmd, "unknown variant '%s' (" VARIANT_EXPECTED ")", a->variant_text);
    if ((rc = cli_opening(cmd, a->opening, a->book_path, OPENING_RINGS, &t->opening, &t->opening_actions))) return rc;
    return 0;
}

/* The participants, the controls of every pairing (an external
 * participant makes the default log folder next to the database), the
 * anchor and the pairings: 0, or the exit status. */
static int add_players(const char *cmd, TourArgs *a, Tournament *t, int *anchor)
{
    char err[ERR_LEN];
    int rc;
    for (int i = 0; i < a->plist.n; i++) {
        char *eq = strchr(a->plist.items[i], '=');
        if (!eq) return cli_usage_error(cmd, "--p wants NAME=SPEC, not '%s'", a->plist.items[i]);
        *eq = '\0';
        AgentSpec agent;
        char what[64];
        snprintf(what, sizeof what, "participant '%.40s'", a->plist.items[i]);
        if ((rc = cli_agent_in(cmd, what, eq + 1, a->ctl.engines, &agent))) return rc;
        rc = tournament_add(t, a->plist.items[i], eq + 1, &agent, err); /* the tournament's own copy */
        agent_spec_release(&agent);
        if (rc) return cli_usage_error(cmd, "%s", err);
    }
    const AgentSpec *agents[TOURNAMENT_MAX_PLAYERS];
    for (int i = 0; i < t->nplayers; i++) agents[i] = &t->players[i].agent;
    if ((rc = cli_controls_check(cmd, &a->ctl, a->sh.db, agents, t->nplayers, &t->controls))) return rc;
    *anchor = 0;
    if (a->anchor_name) {
        *anchor = -1;
        for (int i = 0; i < t->nplayers; i++)
            if (!strcmp(t->players[i].name, a->anchor_name)) *anchor = i;
        if (*anchor < 0) return cli_usage_error(cmd, "--anchor '%s' is not a participant's name", a->anchor_name);
    }
    if (tournament_pairings(t, err)) return cli_usage_error(cmd, "%s", err);
    return 0;
}

/* Plays the pairings not complete yet: 0, or the exit status. */
static int play_pairings(const char *cmd, const Tournament *t, Planned *runs, const CliShared *sh)
{
    int count[PLANNED_STATES] = {0};
    for (int k = 0; k < t->npairings; k++) count[runs[k].state]++;
    if (!sh->quiet)
        fprintf(stderr, "yinsh %s: %s: %s of %d participants, %d pairing%s of %u games into %s: %d complete, "
                        "%d unfinished, %d to play\n", cmd, t->name, t->gauntlet ? "gauntlet" : "round robin",
                t->nplayers, t->npairings, number_plural((uint64_t)t->npairings), t->games, sh->db,
                count[PLANNED_COMPLETE], count[PLANNED_UNFINISHED],
                count[PLANNED_MISSING]);
    PlannedOptions o = cli_planned_options(sh);
    double t0 = clock_now();
    for (int k = 0; k < t->npairings; k++) {
        if (runs[k].state == PLANNED_COMPLETE) continue;
        if (!sh->quiet && runs[k].state == PLANNED_UNFINISHED)
            fprintf(stderr, "yinsh %s: run %s is %s: resuming it\n", cmd, runs[k].name,
                    planned_state_name(runs[k].state));
        CliPlay show = {.cmd = cmd, .quiet = sh->quiet, .k = k, .n = t->npairings,
                        .repeat = "a tournament's runs are new games: give it another name, seed or database"};
        int rc = cli_play_planned(&show, &runs[k], &o);
        if (rc) return rc;
    }
    if (!sh->quiet && count[PLANNED_COMPLETE] < t->npairings)
        fprintf(stderr, "yinsh %s: played in %.1f s\n", cmd, clock_now() - t0);
    return 0;
}

static int parse_args(int argc, char **argv, TourArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--p", .kind = CLI_TEXTS, .out = &a->plist},
        {.name = "--games", .kind = CLI_INT, .out = &a->games, .min = 2, .max = STORE_MAX_GAMES,
         .required = "--games N is required (games per pairing)"},
        {.name = "--gauntlet", .kind = CLI_FLAG, .out = &a->gauntlet},
        {.name = "--name", .kind = CLI_TEXT, .out = &a->name},
        {.name = "--seed", .kind = CLI_U64, .out = &a->seed},
        {.name = "--variant", .kind = CLI_TEXT, .out = &a->variant_text},
        {.name = "--opening", .kind = CLI_TEXT, .out = &a->opening},
        {.name = "--book", .kind = CLI_TEXT, .out = &a->book_path},
        {.name = "--anchor", .kind = CLI_TEXT, .out = &a->anchor_name},
        CLI_DB_OPTION(&a->sh),
        CLI_THREADS_OPTION(&a->sh.threads),
        CLI_BUSY_OPTION(&a->sh),
        {.name = "--no-play", .kind = CLI_FLAG, .out = &a->no_play},
        CLI_QUIET_OPTION(&a->sh),
        {.name = "--json", .kind = CLI_FLAG, .out = &a->json},
        CLI_CONTROL_OPTIONS(&a->ctl),
    };
    int npos;
    return cli_parse("tournament", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

int cmd_tournament(int argc, char **argv)
{
    const char *cmd = "tournament";
    TourArgs a = {.name = "tournament", .seed = 1, .sh = CLI_SHARED_DEFAULTS};
    Tournament t = {0};
    Book book = {0};
    Planned *runs = NULL;
    TournamentResults res = {0};
    char err[ERR_LEN], *command = NULL;
    int anchor;
    int rc = parse_args(argc, argv, &a);
    /* The whole command line, then the book, then the database, before
     * anything is played. */
    if (rc || (rc = check_options(cmd, &a, &t)) || (rc = add_players(cmd, &a, &t, &anchor))) goto done;
    if (a.book_path) {
        if (book_load(&book, a.book_path, t.variant, err)) {
            rc = cli_error(cmd, "%s (nothing was played)", err);
            goto done;
        }
        t.book = &book;
    }
    if (!(runs = calloc((size_t)t.npairings, sizeof *runs)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    PlannedOptions o = cli_planned_options(&a.sh);
    if ((rc = tournament_state(&t, &o, runs, err))) {
        rc = cli_error(cmd, "%s%s (nothing was played)", err, rc == ERR_EXISTS ? CLI_TOURNAMENT_REFUSED : "");
        goto done;
    }
    for (int k = 0; k < t.npairings; k++) runs[k].command = command;
    if (!a.no_play && (rc = play_pairings(cmd, &t, runs, &a.sh))) goto done;
    if (tournament_results(&t, &o, anchor, &res, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (a.json) {
        Json j;
        json_begin_command(&j, stdout, cmd, argc, argv);
        tournament_results_json(&j, &t, &res, a.sh.db);
        json_end(&j);
    } else {
        tournament_results_print(stdout, &t, &res, a.sh.db, anchor);
    }

done:
    tournament_results_free(&res);
    free(runs);
    free(command);
    book_free(&book);
    tournament_free(&t);
    cli_list_free(&a.plist);
    return rc;
}
