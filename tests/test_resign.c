#define _GNU_SOURCE /* nftw, strndup, in test_proc.h */
/* Resignation in self-play (issue 34, item 2; play/resign.h): the rule
 * fires after exactly N low values of one player's searched decisions;
 * a resigned game is the played-out game cut where the rule fired, lost
 * by the resigner, and replays; the checked games are played out and
 * counted; a run without the rule, or with every game checked, plays the
 * games it always played; bad rules are refused with a clear message. */
#include <inttypes.h>
#include <math.h>
#include "engine/base/error.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/play/resign.h"
#include "selfplay/play/scheduler.h"
#include "tests/test_proc.h"

/* ---- the rule, by hand ------------------------------------------------ */

Test(resign, fires_after_exactly_n_low_decisions)
{
    ResignRule rule = {.value = 0.2, .decisions = 3};
    ResignWatch w = {{0, 0}};
    /* White low, Black low in between (its own streak), an unsearched
     * decision (forced, or an opening's) in between: neither counts */
    cr_assert(!resign_watch(&w, &rule, WHITE, true, 0.1));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.05));
    cr_assert(!resign_watch(&w, &rule, WHITE, false, 0.0));
    cr_assert(!resign_watch(&w, &rule, WHITE, true, 0.19));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.9)); /* Black's streak ends */
    cr_assert(resign_watch(&w, &rule, WHITE, true, 0.0), "White's third low decision fires the rule");

    /* a value at V ends the streak: three more are needed */
    w = (ResignWatch){{0, 0}};
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.1));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.1));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.2));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.1));
    cr_assert(!resign_watch(&w, &rule, BLACK, true, 0.1));
    cr_assert(resign_watch(&w, &rule, BLACK, true, 0.1));

    /* N = 1: the first low decision */
    rule.decisions = 1;
    w = (ResignWatch){{0, 0}};
    cr_assert(!resign_watch(&w, &rule, WHITE, true, 0.5));
    cr_assert(resign_watch(&w, &rule, WHITE, true, 0.15));
}

Test(resign, scan_finds_the_decision_in_a_record)
{
    /* actors and values of a made-up game: W W B W B W, searched except ply 2 */
    ActionRecord a[6];
    const int actor[6] = {WHITE, WHITE, BLACK, WHITE, BLACK, WHITE};
    const double value[6] = {0.5, 0.1, 0.01, 0.12, 0.02, 0.3};
    for (int i = 0; i < 6; i++)
        a[i] = (ActionRecord){.actor = (uint8_t)actor[i], .searched = i != 2, .root_value = value[i]};
    GameRecord g = {.nactions = 6, .actions = a, .result = RESULT_WHITE};
    ResignRule rule = {.value = 0.15, .decisions = 2, .check = 1};
    int who = -1;
    cr_assert_eq(resign_scan(&g, &rule, &who), 3, "White's second low decision is ply 3");
    cr_assert_eq(who, WHITE);
    rule.decisions = 3;
    cr_assert_eq(resign_scan(&g, &rule, &who), -1, "no player has three");
    rule.decisions = 1;
    cr_assert_eq(resign_scan(&g, &rule, &who), 1);

    /* summed: checked (check = 1), fired at ply 1 for White, who won: a
     * false resignation, with 5 actions left */
    ResignSummary s = {0};
    resign_summary_add(&s, &rule, &g);
    cr_assert(s.checked == 1 && s.fired == 1 && s.wrong == 1 && s.wrong_draw == 0 && s.left == 5 && s.resigned == 0);
    g.result = RESULT_BLACK; /* White lost: resigning was right */
    resign_summary_add(&s, &rule, &g);
    cr_assert(s.checked == 2 && s.fired == 2 && s.wrong == 1 && s.left == 10);
    g.reason = REASON_RESIGN; /* a resigned game is counted, never checked */
    rule.check = 0;
    resign_summary_add(&s, &rule, &g);
    cr_assert(s.checked == 2 && s.resigned == 1);
    cr_assert(fabs(resign_saved_actions(&s) - 5) < 1e-12, "one resigned game times 10/2 actions left");
    Interval r = resign_false_rate(&s);
    cr_assert(fabs(r.mid - 0.5) < 1e-12 && r.lo > 0.01 && r.hi < 0.99);
}

Test(resign, the_check_is_drawn_from_the_game_seed)
{
    ResignRule rule = {.value = 0.1, .decisions = 1, .check = 0.2};
    int n = 0;
    for (uint64_t i = 0; i < 20000; i++) n += resign_checked(&rule, selfplay_game_seed(7, (uint32_t)i));
    /* 4000 expected, sd 57 */
    cr_assert(n > 3750 && n < 4250, "%d of 20000 checked at 0.2", n);
    rule.check = 0;
    rule.value = 0.5;
    for (uint64_t i = 0; i < 1000; i++) cr_assert(!resign_checked(&rule, i));
    rule.check = 1;
    for (uint64_t i = 0; i < 1000; i++) cr_assert(resign_checked(&rule, i));
}

Test(resign, rules_parse_and_are_refused_clearly)
{
    ResignRule r = {0};
    char err[ERR_LEN];
    cr_assert_eq(resign_parse("0.05:3", &r, err), 0, "%s", err);
    cr_assert(r.value == 0.05 && r.decisions == 3);
    cr_assert_eq(resign_parse("0.1", &r, err), 0, "%s", err);
    cr_assert(r.value == 0.1 && r.decisions == RESIGN_DEFAULT_DECISIONS);
    const char *bad[] = {"0", "1", "1.5", "-0.1", "0.1:0", "0.1:-1", "0.1:x", "0.1:", ":3", "low", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = (ResignRule){.value = 0.3, .decisions = 2};
        cr_assert_eq(resign_parse(bad[i], &r, err), ERR_USAGE, "'%s' accepted", bad[i]);
        cr_assert(strstr(err, "strictly between 0 and 1"), "'%s': %s", bad[i], err);
        cr_assert(r.value == 0.3 && r.decisions == 2, "'%s' changed the rule", bad[i]);
    }
    cr_assert_eq(resign_parse_check("0.2", &r, err), 0, "%s", err);
    cr_assert_eq(r.check, 0.2);
    cr_assert_eq(resign_parse_check("0", &r, err), 0, "%s", err);
    cr_assert_eq(resign_parse_check("1", &r, err), 0, "%s", err);
    const char *badcheck[] = {"1.01", "-0.5", "most", ""};
    for (size_t i = 0; i < sizeof badcheck / sizeof *badcheck; i++) {
        cr_assert_eq(resign_parse_check(badcheck[i], &r, err), ERR_USAGE, "'%s' accepted", badcheck[i]);
        cr_assert(strstr(err, "from 0 to 1"), "'%s': %s", badcheck[i], err);
    }
}

Test(resign, controls_text_round_trips)
{
    PlayControls c = {.resign = {.value = 0.05, .decisions = 3, .check = 0.2}}, back;
    char text[CONTROLS_TEXT_LEN], again[CONTROLS_TEXT_LEN], err[ERR_LEN];
    cr_assert_str_eq(controls_format(&c, text), "resign=0.05:3,resigncheck=0.2");
    cr_assert_eq(controls_parse(text, &back, err), 0, "%s", err);
    cr_assert(back.resign.value == 0.05 && back.resign.decisions == 3 && back.resign.check == 0.2);
    cr_assert_str_eq(controls_format(&back, again), text);
    c = (PlayControls){.sims = 50, .resign = {.value = 1.0 / 3, .decisions = 1, .check = 0}};
    cr_assert_eq(controls_parse(controls_format(&c, text), &back, err), 0, "%s", err);
    cr_assert(back.resign.value == 1.0 / 3 && back.sims == 50, "%s", text);
    /* off: the text of a run before the rule */
    c = (PlayControls){.sims = 50};
    cr_assert_str_eq(controls_format(&c, text), "sims=50");
    cr_assert_neq(controls_parse("resign=2:1", &back, err), 0);
}

/* ---- games ------------------------------------------------------------ */

enum { GAMES = 8 };
#define SPEC "mcts:sims=40,rollout=2"

typedef struct Played {
    GameRecord g[GAMES];
} Played;

/* Keeps each game's record (its actions copied). */
static int keep_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    (void)err;
    Played *p = ctx;
    for (int i = 0; i < n; i++) {
        GameRecord *g = &p->g[games[i]->index];
        *g = *games[i];
        g->actions = malloc((size_t)g->nactions * sizeof *g->actions);
        memcpy(g->actions, games[i]->actions, (size_t)g->nactions * sizeof *g->actions);
        g->children = NULL;
        g->nchildren = 0;
    }
    return 0;
}

static void play(const ResignRule *rule, Played *p)
{
    SelfplayPlan plan = {.variant = VARIANT_STANDARD, .seed = 34, .games = GAMES, .threads = 2};
    char err[ERR_LEN];
    if (rule) plan.controls.resign = *rule;
    cr_assert_eq(agent_spec_parse(SPEC, &plan.white, err), 0, "%s", err);
    cr_assert_eq(agent_spec_parse(SPEC, &plan.black, err), 0, "%s", err);
    memset(p, 0, sizeof *p);
    uint32_t idx[GAMES];
    for (uint32_t i = 0; i < GAMES; i++) idx[i] = i;
    SelfplaySink sink = {.write = keep_write, .ctx = p};
    cr_assert_eq(selfplay_run(&plan, idx, GAMES, &sink, err), 0, "%s", err);
    agent_spec_release(&plan.white);
    agent_spec_release(&plan.black);
}

static void release(Played *p)
{
    for (int i = 0; i < GAMES; i++) free(p->g[i].actions);
}

/* The rule that fires often with this agent: below 0.4, twice. */
static const ResignRule OFTEN = {.value = 0.4, .decisions = 2, .check = 0};

Test(resign, resigned_games_are_the_played_games_cut_short)
{
    Played full, cut;
    play(NULL, &full);
    play(&OFTEN, &cut);
    int resigned = 0;
    for (int i = 0; i < GAMES; i++) {
        const GameRecord *f = &full.g[i], *c = &cut.g[i];
        int who, ply = resign_scan(f, &OFTEN, &who);
        if (ply < 0) {
            /* the rule never fires: the same game */
            cr_assert(c->reason != REASON_RESIGN && c->nactions == f->nactions && c->result == f->result, "game %d", i);
            cr_assert_eq(record_game_hash(c), record_game_hash(f), "game %d", i);
            continue;
        }
        resigned++;
        /* the played-out game's actions up to the decision that fired */
        cr_assert_eq(c->reason, REASON_RESIGN, "game %d", i);
        cr_assert_eq(c->nactions, ply, "game %d: resigned after %d actions, the rule fires at ply %d", i, c->nactions,
                     ply);
        cr_assert_eq(c->result, who == WHITE ? RESULT_BLACK : RESULT_WHITE, "game %d: the resigner loses", i);
        for (int k = 0; k < ply; k++) cr_assert_eq(c->actions[k].action, f->actions[k].action, "game %d ply %d", i, k);
        /* a valid record: its actions replay to a position not over, the
         * resigner to act */
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        for (int k = 0; k < c->nactions; k++) {
            Action legal[MAX_ACTIONS];
            int n = movegen_all(&pos, legal), found = 0;
            for (int j = 0; j < n; j++) found |= legal[j] == c->actions[k].action;
            cr_assert(found, "game %d ply %d: not legal", i, k);
            Undo u;
            pos_make(&pos, c->actions[k].action, &u);
        }
        int result, reason;
        cr_assert(!pos_outcome(&pos, &result, &reason), "game %d: over before the resignation", i);
        cr_assert_eq(pos.actor, who, "game %d: the resigner is to act", i);
    }
    cr_assert(resigned >= 2, "only %d of %d games resigned with V = 0.4, N = 2", resigned, GAMES);
    release(&full);
    release(&cut);
}

Test(resign, checked_games_are_played_out_and_counted)
{
    Played full, checked;
    ResignRule all = OFTEN;
    all.check = 1;
    play(NULL, &full);
    play(&all, &checked);
    ResignSummary s = {0};
    uint64_t fired = 0, wrong = 0;
    for (int i = 0; i < GAMES; i++) {
        const GameRecord *f = &full.g[i], *c = &checked.g[i];
        cr_assert_neq(c->reason, REASON_RESIGN, "game %d resigned under the check", i);
        cr_assert_eq(record_game_hash(c), record_game_hash(f), "game %d: not the game played without the rule", i);
        resign_summary_add(&s, &all, c);
        int who, ply = resign_scan(f, &all, &who);
        if (ply >= 0) {
            fired++;
            wrong += f->result == RESULT_DRAW || f->result == (who == WHITE ? RESULT_WHITE : RESULT_BLACK);
        }
    }
    cr_assert(s.checked == GAMES && s.resigned == 0 && s.fired == fired && s.wrong == wrong);
    cr_assert(fired >= 2);
    release(&full);
    release(&checked);
}

/* ---- the command ------------------------------------------------------ */

static char *hash_line(const char *out)
{
    const char *h = strstr(out, "hash ");
    cr_assert(h, "no hash line: %s", out);
    return gc(strndup(h, 30));
}

Test(resign, selfplay_off_and_checked_play_the_same_games)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *off[] = {"selfplay", "--games", "6", "--agent", SPEC, "--seed", "5", "--no-db", "--quiet", NULL};
    const char *all[] = {"selfplay", "--games", "6", "--agent", SPEC, "--seed", "5", "--no-db", "--quiet",
                         "--resign", "0.4:2", "--resign-check", "1", NULL};
    cr_assert_eq(yinsh_run(dir, off, &out, &err), 0, "%s", err);
    char *base = hash_line(out);
    cr_assert(!strstr(out, "resignation"), "%s", out);
    cr_assert_eq(yinsh_run(dir, all, &out, &err), 0, "%s", err);
    cr_assert_str_eq(hash_line(out), base);
    cr_assert(strstr(out, "checked    6 games played out"), "%s", out);
    cr_assert(strstr(out, "exact 95% CI"), "%s", out);
}

Test(resign, selfplay_stores_resigned_games)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *out, *err;
    const char *args[] = {"selfplay", "--games", "6", "--agent", SPEC, "--seed", "5", "--db", db, "--run", "r",
                          "--quiet", "--resign", "0.4:2", "--resign-check", "0", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    sqlite3 *s = db_open(db);
    cr_assert_eq(db_int(s, "SELECT count(*) FROM run WHERE controls = 'resign=0.4:2,resigncheck=0'"), 1);
    long long resigned = db_int(s, "SELECT count(*) FROM game WHERE reason = 'resign'");
    cr_assert(resigned >= 1, "no game resigned: %s", out);
    cr_assert_eq(db_int(s, "SELECT count(*) FROM game WHERE reason = 'resign' AND result NOT IN ('white', 'black')"),
                 0);
    /* the ply: the stored actions, as many as the game says */
    cr_assert_eq(db_int(s, "SELECT count(*) FROM game g WHERE actions != (SELECT count(*) FROM action a WHERE "
                           "a.game_id = g.id)"),
                 0);
    sqlite3_close(s);
    char line[64];
    snprintf(line, sizeof line, "%lld games resigned", resigned);
    cr_assert(strstr(out, line), "%s", out);
    /* a merge replays every stored game and accepts the resigned ones */
    char *into = path_in(dir, "m.db");
    const char *merge[] = {"merge", "--db", into, db, NULL};
    cr_assert_eq(yinsh_run(dir, merge, &out, &err), 0, "%s", err);
}

static void expect_usage(const char *dir, const char *const *args, const char *word)
{
    char *out, *err;
    int rc = yinsh_run(dir, args, &out, &err);
    cr_assert_eq(rc, 2, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, word), "stderr does not say '%s': %s", word, err);
}

Test(resign, selfplay_refuses_bad_rules)
{
    char *dir = tmpdir_new();
    const char *bad[][2] = {{"0", "strictly between 0 and 1"},  {"1", "strictly between 0 and 1"},
                            {"1.2", "strictly between 0 and 1"}, {"0.1:0", "1 to 1000"},
                            {"0.1:two", "1 to 1000"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *args[] = {"selfplay", "--games", "2", "--agent", "random", "--no-db", "--resign", bad[i][0], NULL};
        expect_usage(dir, args, bad[i][1]);
    }
    const char *check[] = {"selfplay", "--games", "2", "--agent", "random", "--no-db", "--resign", "0.1",
                           "--resign-check", "1.5", NULL};
    expect_usage(dir, check, "from 0 to 1");
    const char *alone[] = {"selfplay", "--games", "2", "--agent", "random", "--no-db", "--resign-check", "0.5", NULL};
    expect_usage(dir, alone, "--resign-check goes with --resign");
    const char *resume[] = {"selfplay", "--resume", "x", "--resign", "0.1", NULL};
    expect_usage(dir, resume, "--resume");
}
