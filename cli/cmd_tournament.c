/* yinsh tournament: named participants in a round robin or a gauntlet,
 * each pairing a match run, then a rating list fitted over all the games
 * and the pairwise table (study/plans/tournament.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "base/clock.h"
#include "cli/commands.h"
#include "base/json.h"
#include "engine/notation.h"
#include "plans/tournament.h"

const char USAGE_TOURNAMENT[] =
    "usage: yinsh tournament --p NAME=SPEC --p NAME=SPEC [--p ...] --games N\n"
    "                        [--gauntlet] [--name T] [--seed S] [--variant V]\n"
    "                        [--opening rings|none | --book FILE] [--anchor NAME]\n"
    "                        [--db PATH] [--threads T] [--no-play] [--quiet] [--json]\n"
    "                        [--sims N | --movetime MS | --tc BASE+INC [--tc-margin MS]]\n"
    "                        [--engines FILE] [--engine-logs DIR] [--engine-timeout MS]\n"
    "                        [--agent-streams]\n"
    "  Plays a round robin (every pair of participants) or, with --gauntlet,\n"
    "  the first participant against each of the others: each pairing is a\n"
    "  match of N games in N/2 colour-swapped pairs from shared openings (as\n"
    "  `yinsh match`), stored as the match run T/A-vs-B. Then prints the rating\n"
    "  list, fitted over all the games at once (maximum-likelihood\n"
    "  Bradley-Terry on the Elo scale, a draw half a win and half a loss),\n"
    "  anchored at one participant (0 Elo), with 95% intervals from the\n"
    "  observed Fisher information, and the pairwise table.\n"
    "\n"
    "  The tournament is its runs: the same command again plays what is\n"
    "  missing (a killed tournament finishes with the games of one never\n"
    "  stopped), and once every run is complete it only prints the list.\n"
    "\n"
    "  --p NAME=SPEC   a participant: its display name (letters, digits, '.',\n"
    "                  '_', '+', '-') and agent spec; repeated, in order\n"
    "  --games N       games per pairing, an even number\n"
    "  --gauntlet      the first participant against each of the others only\n"
    "  --name T        the tournament's name, the runs' prefix (default tournament)\n"
    "  --seed S        the tournament seed (default 1): pairing T/A-vs-B has the\n"
    "                  seed mix(S, hash of its run name)\n"
    "  --variant V     standard (default) or blitz\n"
    "  --opening O     rings (default): random ring placements shared by a pair;\n"
    "                  none: the agents place their own rings\n"
    "  --book FILE     openings from a book (docs/tournament.md): pair k plays\n"
    "                  opening k mod (openings in the book)\n"
    "  --anchor NAME   the participant rated 0 (default the first)\n"
    "  --db PATH       the SQLite database (default " RUN_DEFAULT_DB ")\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  --no-play       play nothing: the list from the games stored so far\n"
    "  --quiet         no progress\n"
    "  --json          the result as one JSON document on stdout (docs/json.md)\n"
    CLI_CONTROL_USAGE
    "  Without --sims, --movetime or --tc every participant plays at the limits\n"
    "  of its own spec; a participant may be an external UYI engine\n"
    "  (uyi:name=N;cmd=... or engine:NAME of --engines FILE, docs/uyi.md).\n";

static const char *const STATE_NAME[] = {"missing", "unfinished", "complete"};

typedef struct TourProgress {
    Progress progress;
    char label[96];
} TourProgress;

static void show_progress(void *ctx, const MatchTally *t, uint64_t done)
{
    TourProgress *p = ctx;
    char tail[96];
    snprintf(tail, sizeof tail, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
    progress_update(&p->progress, done, tail);
}

/* Plays or resumes pairing k: 0, or the exit status after printing why
 * (commands.h: `yinsh spsa` plays its iterations so too). */
int tournament_play_pairing(const char *cmd, const Tournament *t, int k, TournamentState state, const CliRun *cr,
                        const char *command)
{
    const TournamentPairing *p = &t->pairings[k];
    MatchPlan mp;
    tournament_pairing_plan(t, k, (int)cr->threads, &mp);
    /* cr->o.db NULL: run_open makes results/ for the default database */
    RunOptions o = {.kind = "match", .db = cr->o.db, .busy_ms = (int)cr->busy, .plan = mp.plan, .have_seed = true,
                    .command = command};
    if (state == TOURNAMENT_UNFINISHED) o.resume = p->run;
    else o.name = p->run;
    Run run;
    char err[ERR_LEN];
    int rc = run_open(&run, &o, err);
    if (rc) {
        bool repeat = rc == ERR_REPEAT;
        rc = cli_error(cmd, "%s", err);
        if (repeat)
            fprintf(stderr, "yinsh %s: a tournament's runs are new games: give it another name, seed or "
                            "database\n", cmd);
        goto done;
    }
    mp.plan = run.plan;
    TourProgress tp;
    snprintf(tp.label, sizeof tp.label, "%s (%d/%d) games", p->run, k + 1, t->npairings);
    progress_start(&tp.progress, tp.label, mp.plan.games, cr->quiet);
    mp.progress = show_progress;
    mp.ctx = &tp;
    mp.interrupt = cli_catch_signals();
    MatchResult res;
    if (match_run(&mp, &run, &res, err)) {
        if (tp.progress.shown) fprintf(stderr, "\n");
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (cli_signal()) {
        if (tp.progress.shown) fprintf(stderr, "\n");
        fprintf(stderr, "yinsh %s: interrupted (%s); the stored games are kept, and the same command finishes "
                        "the tournament\n", cmd, strsignal(cli_signal()));
        rc = 128 + cli_signal();
        goto done;
    }
    char tail[96];
    snprintf(tail, sizeof tail, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, res.tally.wins, res.tally.draws,
             res.tally.losses);
    progress_finish(&tp.progress, 2 * res.tally.pairs, tail);
    if (run_finish(&run, err)) rc = cli_error(cmd, "%s", err);
    else if (!cr->quiet)
        fprintf(stderr, "yinsh %s: run %s complete: hash %016" PRIx64 "\n", cmd, p->run, res.hash);
done:
    run_close(&run);
    return rc;
}

/* Participants by rating, best first (unrated: in order). */
static void rank_order(const Tournament *t, const TournamentResults *r, int *order)
{
    int n = t->nplayers;
    for (int i = 0; i < n; i++) order[i] = i;
    if (!r->rated) return;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && r->elo[order[j]] > r->elo[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
}

/* Points of row player i against column player j, and their games. */
static void pair_points(const Tournament *t, const TournamentResults *r, int i, int j, double *pts, uint64_t *games)
{
    *pts = 0;
    *games = 0;
    for (int k = 0; k < t->npairings; k++) {
        const TournamentPairing *p = &t->pairings[k];
        const MatchTally *m = &r->tally[k];
        uint64_t g = m->wins + m->draws + m->losses;
        double pa = m->wins + 0.5 * m->draws;
        if (p->a == i && p->b == j) *pts += pa, *games += g;
        if (p->a == j && p->b == i) *pts += g - pa, *games += g;
    }
}

static void print_results(const Tournament *t, const TournamentResults *r, const char *db)
{
    int n = t->nplayers, order[TOURNAMENT_MAX_PLAYERS];
    rank_order(t, r, order);
    printf("tournament   %s: %s of %d participants, %d pairings of %u games, seed %" PRIu64 ", %s\n", t->name,
           t->gauntlet ? "gauntlet" : "round robin", n, t->npairings, t->games, t->seed, variant_name(t->variant));
    printf("database     %s\n", db);
    if (r->rated)
        printf("ratings      Elo, anchored at %s = 0; Bradley-Terry over all games (a draw half a win), 95%% "
               "intervals from the observed information\n\n",
               t->players[r->anchor].name);
    else
        printf("ratings      none: %s\n\n", r->why);
    printf("%-4s %-24s %8s %19s %7s %8s %6s  %s\n", "rank", "name", "elo", "95% interval", "se", "games", "score",
           "spec");
    for (int x = 0; x < n; x++) {
        int i = order[x];
        double score = r->games[i] ? r->points[i] / (double)r->games[i] : 0;
        char elo[16] = "-", ci[40] = "-", se[16] = "-";
        if (r->rated) {
            snprintf(elo, sizeof elo, "%+.1f", r->elo[i] + 0.0);
            if (i == r->anchor) {
                snprintf(ci, sizeof ci, "(anchor)");
            } else {
                snprintf(ci, sizeof ci, "%+.0f to %+.0f", r->elo[i] - STATS_Z95 * r->se[i] + 0.0,
                         r->elo[i] + STATS_Z95 * r->se[i] + 0.0);
                snprintf(se, sizeof se, "%.1f", r->se[i]);
            }
        }
        printf("%-4d %-24s %8s %19s %7s %8" PRIu64 " %6.3f  %s\n", x + 1, t->players[i].name, elo, ci, se,
               r->games[i], score, t->players[i].spec);
    }
    printf("\npairwise: the row's points against the column / games\n%-24s", "");
    for (int x = 0; x < n; x++) printf(" %12.12s", t->players[order[x]].name);
    printf("\n");
    for (int x = 0; x < n; x++) {
        int i = order[x];
        printf("%-24s", t->players[i].name);
        for (int y = 0; y < n; y++) {
            int j = order[y];
            double pts;
            uint64_t g;
            char cell[32] = "";
            pair_points(t, r, i, j, &pts, &g);
            if (i != j && g) snprintf(cell, sizeof cell, "%g/%" PRIu64, pts, g);
            printf(" %12s", i == j ? "." : g ? cell : "-");
        }
        printf("\n");
    }
    printf("\npairings (A's results; Elo A - B from the pairs, 95%% interval; the play hash of the games)\n");
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        Interval e = stats_elo_pentanomial(m->penta);
        printf("%-40s W %3" PRIu64 " D %3" PRIu64 " L %3" PRIu64 "  score %.3f", t->pairings[k].run, m->wins,
               m->draws, m->losses, stats_score(m->wins, m->draws, m->losses).mid);
        char elo[48] = "";
        if (m->pairs && isfinite(e.mid) && isfinite(e.lo) && isfinite(e.hi))
            snprintf(elo, sizeof elo, "Elo %+.0f (%+.0f to %+.0f)", e.mid + 0.0, e.lo + 0.0, e.hi + 0.0);
        else if (m->pairs && isfinite(e.mid))
            snprintf(elo, sizeof elo, "Elo %+.0f", e.mid + 0.0);
        printf("  %-26s hash %016" PRIx64 "\n", elo, r->hash[k]);
    }
}

static void json_results(const Tournament *t, const TournamentResults *r, const char *db, int argc, char **argv)
{
    Json j;
    cli_json_begin(&j, "tournament", argc, argv);
    json_str(&j, "name", t->name);
    json_str(&j, "db", db);
    json_str(&j, "format", t->gauntlet ? "gauntlet" : "round robin");
    json_str(&j, "variant", variant_name(t->variant));
    json_str(&j, "opening", opening_name(t->opening));
    if (t->opening == OPENING_BOOK) json_hex(&j, "book_hash", t->book->hash);
    json_u64_text(&j, "seed", t->seed);
    json_uint(&j, "games_per_pairing", t->games);
    json_str(&j, "model", "bradley-terry, draw = half win + half loss");
    json_str(&j, "anchor", t->players[r->anchor].name);
    json_bool(&j, "rated", r->rated);
    json_str(&j, "why_unrated", r->rated ? NULL : r->why);
    json_array(&j, "participants");
    for (int i = 0; i < t->nplayers; i++) {
        json_open(&j, NULL, '{', true);
        json_str(&j, "name", t->players[i].name);
        json_str(&j, "spec", t->players[i].spec);
        if (r->rated) {
            double half = STATS_Z95 * r->se[i];
            cli_json_interval(&j, "elo", (Interval){r->elo[i] - half, r->elo[i], r->elo[i] + half});
            json_num(&j, "se", r->se[i]);
        } else {
            json_null(&j, "elo");
            json_null(&j, "se");
        }
        json_uint(&j, "games", r->games[i]);
        json_num(&j, "points", r->points[i]);
        json_close(&j);
    }
    json_close(&j);
    json_array(&j, "pairings");
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        json_open(&j, NULL, '{', true);
        json_str(&j, "run", t->pairings[k].run);
        json_str(&j, "a", t->players[t->pairings[k].a].name);
        json_str(&j, "b", t->players[t->pairings[k].b].name);
        json_uint(&j, "games", m->wins + m->draws + m->losses);
        json_uint(&j, "wins", m->wins);
        json_uint(&j, "draws", m->draws);
        json_uint(&j, "losses", m->losses);
        json_num(&j, "a_points", m->wins + 0.5 * m->draws);
        json_open(&j, "pentanomial", '[', true);
        for (int x = 0; x < 5; x++) json_uint(&j, NULL, m->penta[x]);
        json_close(&j);
        json_hex(&j, "hash", r->hash[k]);
        json_close(&j);
    }
    json_close(&j);
    json_end(&j);
}

int cmd_tournament(int argc, char **argv)
{
    const char *cmd = "tournament";
    CliList plist = {0};
    const char *name = "tournament", *variant_text = NULL, *opening = NULL, *book_path = NULL, *anchor_name = NULL;
    bool json = false, gauntlet = false, no_play = false, have_seed = false;
    long games = 0;
    uint64_t seed = 1;
    CliRun cr = {.busy = STORE_BUSY_MS};
    CliControls ctl = {0};
    const CliOpt opts[] = {
        {.name = "--p", .kind = CLI_TEXTS, .out = &plist},
        {.name = "--games", .kind = CLI_INT, .out = &games, .min = 2, .max = STORE_MAX_GAMES},
        {.name = "--gauntlet", .kind = CLI_FLAG, .out = &gauntlet},
        {.name = "--name", .kind = CLI_TEXT, .out = &name},
        {.name = "--seed", .kind = CLI_U64, .out = &seed, .seen = &have_seed},
        {.name = "--variant", .kind = CLI_TEXT, .out = &variant_text},
        {.name = "--opening", .kind = CLI_TEXT, .out = &opening},
        {.name = "--book", .kind = CLI_TEXT, .out = &book_path},
        {.name = "--anchor", .kind = CLI_TEXT, .out = &anchor_name},
        {.name = "--db", .kind = CLI_TEXT, .out = &cr.o.db},
        {.name = "--threads", .kind = CLI_INT, .out = &cr.threads, .min = 1, .max = 1024},
        {.name = "--busy-timeout", .kind = CLI_INT, .out = &cr.busy, .min = 0, .max = 3600000},
        {.name = "--no-play", .kind = CLI_FLAG, .out = &no_play},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &cr.quiet},
        {.name = "--json", .kind = CLI_FLAG, .out = &json},
        CLI_CONTROL_OPTIONS(&ctl),
    };
    Tournament t = {0};
    Book book = {0};
    TournamentState *states = NULL;
    TournamentResults res = {0};
    char err[ERR_LEN], *command = NULL;
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;

    /* The whole command line, then the book, then the database, before
     * anything is played. */
    const char *db = cr.o.db ? cr.o.db : RUN_DEFAULT_DB;
    t.variant = VARIANT_STANDARD;
    t.opening = OPENING_RINGS;
    t.gauntlet = gauntlet;
    t.seed = seed;
    if (plist.n < 2) {
        rc = cli_usage_error(cmd, "at least two participants, each --p NAME=SPEC");
        goto done;
    }
    if (!games) {
        rc = cli_usage_error(cmd, "--games N is required (games per pairing)");
        goto done;
    }
    if (games % 2) {
        rc = cli_usage_error(cmd, "--games wants an even number (pairs of games), not %ld", games);
        goto done;
    }
    t.games = (uint32_t)games;
    if (!*db) {
        rc = cli_usage_error(cmd, "--db wants a path");
        goto done;
    }
    if (strlen(name) >= TOURNAMENT_NAME_LEN || !*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                                                     "QRSTUVWXYZ0123456789._+-") != strlen(name)) {
        rc = cli_usage_error(cmd, "--name: 1 to %d letters, digits, '.', '_', '+' or '-'", TOURNAMENT_NAME_LEN - 1);
        goto done;
    }
    snprintf(t.name, sizeof t.name, "%s", name);
    if (variant_text && !variant_parse(variant_text, &t.variant)) {
        rc = cli_usage_error(cmd, "unknown variant '%s' (standard or blitz)", variant_text);
        goto done;
    }
    if (opening && strcmp(opening, "rings") && strcmp(opening, "none")) {
        rc = cli_usage_error(cmd, "unknown opening '%s' (rings or none; or --book FILE)", opening);
        goto done;
    }
    if (opening && book_path) {
        rc = cli_usage_error(cmd, "--opening and --book exclude each other");
        goto done;
    }
    if (opening && !strcmp(opening, "none")) t.opening = OPENING_NONE;
    for (int i = 0; i < plist.n; i++) {
        char *eq = strchr(plist.items[i], '=');
        if (!eq) {
            rc = cli_usage_error(cmd, "--p wants NAME=SPEC, not '%s'", plist.items[i]);
            goto done;
        }
        *eq = '\0';
        AgentSpec agent;
        char what[64];
        snprintf(what, sizeof what, "participant '%.40s'", plist.items[i]);
        if ((rc = cli_agent_in(cmd, what, eq + 1, ctl.engines, &agent))) goto done;
        if (tournament_add(&t, plist.items[i], eq + 1, &agent, err)) {
            rc = cli_usage_error(cmd, "%s", err);
            goto done;
        }
    }
    /* the controls of every pairing (an external participant makes the
     * default log folder next to the database) */
    SelfplayPlan cplan = {.white = t.players[0].agent, .black = t.players[0].agent};
    for (int i = 0; i < t.nplayers; i++)
        if (agent_spec_external(&t.players[i].agent)) cplan.white = t.players[i].agent;
    if ((rc = cli_controls_check(cmd, &ctl, cr.o.db, false, &cplan))) goto done;
    t.controls = cplan.controls;
    int anchor = 0;
    if (anchor_name) {
        anchor = -1;
        for (int i = 0; i < t.nplayers; i++)
            if (!strcmp(t.players[i].name, anchor_name)) anchor = i;
        if (anchor < 0) {
            rc = cli_usage_error(cmd, "--anchor '%s' is not a participant's name", anchor_name);
            goto done;
        }
    }
    if (tournament_pairings(&t, err)) {
        rc = cli_usage_error(cmd, "%s", err);
        goto done;
    }
    if (book_path) {
        if (book_load(&book, book_path, t.variant, err)) {
            rc = cli_error(cmd, "%s (nothing was played)", err);
            goto done;
        }
        t.opening = OPENING_BOOK;
        t.book = &book;
    }
    if (!(states = calloc((size_t)t.npairings, sizeof *states)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (tournament_state(&t, db, states, err)) {
        rc = cli_error(cmd, "%s (nothing was played)", err);
        goto done;
    }

    if (!no_play) {
        int count[3] = {0};
        for (int k = 0; k < t.npairings; k++) count[states[k]]++;
        if (!cr.quiet)
            fprintf(stderr, "yinsh %s: %s: %s of %d participants, %d pairings of %u games into %s: %d complete, "
                            "%d unfinished, %d to play\n", cmd, t.name, t.gauntlet ? "gauntlet" : "round robin",
                    t.nplayers, t.npairings, t.games, db, count[TOURNAMENT_COMPLETE], count[TOURNAMENT_UNFINISHED],
                    count[TOURNAMENT_MISSING]);
        double t0 = clock_now();
        for (int k = 0; k < t.npairings; k++) {
            if (states[k] == TOURNAMENT_COMPLETE) continue;
            if (!cr.quiet && states[k] == TOURNAMENT_UNFINISHED)
                fprintf(stderr, "yinsh %s: run %s is %s: resuming it\n", cmd, t.pairings[k].run,
                        STATE_NAME[states[k]]);
            if ((rc = tournament_play_pairing(cmd, &t, k, states[k], &cr, command))) goto done;
        }
        if (!cr.quiet && count[TOURNAMENT_COMPLETE] < t.npairings)
            fprintf(stderr, "yinsh %s: played in %.1f s\n", cmd, clock_now() - t0);
    }
    if (tournament_results(&t, db, anchor, &res, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (json) json_results(&t, &res, db, argc, argv);
    else print_results(&t, &res, db);

done:
    tournament_results_free(&res);
    free(states);
    free(command);
    book_free(&book);
    tournament_free(&t);
    cli_list_free(&plist);
    return rc;
}
