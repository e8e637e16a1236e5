/* The writers of results, called directly: what `yinsh selfplay`,
 * `match`, `tournament`, `study --check` and `sprt` print is written by
 * library functions into any FILE (or an open JSON object), and this
 * pins their text for inputs made by hand, so that a writer moved or
 * changed shows here, not only in the commands' outputs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/json.h"
#include "engine/base/shell_words.h"
#include "selfplay/match/match_text.h"
#include "selfplay/match/sprt_cost.h"
#include "selfplay/play/run_summary.h"
#include "selfplay/records/summary_text.h"
#include "study/plans/study_text.h"
#include "study/plans/tournament_text.h"

/* A memory stream the writers print into; text() closes it and gives the text. */
typedef struct Out {
    FILE *f;
    char *buf;
    size_t len;
} Out;

static FILE *out_open(Out *o)
{
    o->buf = NULL;
    o->f = open_memstream(&o->buf, &o->len);
    cr_assert(o->f);
    return o->f;
}

static char *text(Out *o)
{
    fclose(o->f);
    return o->buf;
}

#define SAME(got, want) cr_expect_str_eq(got, want, "got:\n%s\nwant:\n%s", got, want)

/* Ten games: W 5, B 3, D 2; 600 actions; two of White's agent's losses on faults. */
static RecordSummary ten_games(void)
{
    RecordSummary s = {.games = 10, .actions = 600, .hash = 0x1234abcdULL};
    s.wins[RESULT_WHITE] = 5;
    s.wins[RESULT_BLACK] = 3;
    s.wins[RESULT_DRAW] = 2;
    s.reasons[REASON_THREE_RINGS] = 6;
    s.reasons[REASON_ENGINE_DIED] = 1;
    s.reasons[REASON_NO_ANSWER] = 1;
    s.reasons[REASON_POOL_EMPTY] = 2;
    s.faults[0][REASON_ENGINE_DIED] = 1;
    s.faults[0][REASON_NO_ANSWER] = 1;
    return s;
}

Test(writers, record_summary_text)
{
    RecordSummary s = ten_games();
    Interval w = record_white_score(&s); /* 6/10 with Wilson's interval */
    char want[2048];
    snprintf(want, sizeof want,
             "run          r1\n"
             "games        10\n"
             "white wins   5\n"
             "black wins   3\n"
             "draws        2\n"
             "white score  0.600 (95%% CI %.3f to %.3f)\n"
             "mean length  60.0 actions\n"
             "end reasons  three-rings 6, pool-empty 2, engine-died 1, no-answer 1\n"
             "hash         000000001234abcd (actions and visit counts of every game)\n"
             "faults white 2 (engine-died 1, no-answer 1)\n"
             "faults black 0\n",
             w.lo, w.hi);
    Out o;
    record_summary_print(out_open(&o), "r1", &s);
    char *got = text(&o);
    SAME(got, want);
    free(got);
}

Test(writers, record_summary_json)
{
    RecordSummary s = {.games = 0};
    Out o;
    Json j;
    json_begin(&j, out_open(&o));
    record_summary_json(&j, &s);
    json_end(&j);
    char *got = text(&o);
    cr_expect(strstr(got, "\"games\": 0,\n"), "%s", got);
    cr_expect(strstr(got, "\"results\": {\"white\": 0, \"black\": 0, \"draw\": 0}"), "%s", got);
    cr_expect(strstr(got, "\"mean_length_actions\": null"), "no games, no mean: %s", got);
    cr_expect(strstr(got, "\"hash\": \"0000000000000000\""), "%s", got);
    cr_expect(strstr(got, "\"faults\": {"), "%s", got);
    free(got);
}

Test(writers, match_result_text)
{
    /* A: 3 wins, 1 draw, 0 losses in 2 pairs; pentanomial pairs 0 0 0 1 1 */
    MatchResult r = {.tally = {.wins = 3, .draws = 1, .losses = 0, .pairs = 2, .penta = {0, 0, 0, 1, 1}},
                     .hash = 0xfeedULL};
    r.figures = match_figures(&r.tally);
    StoreRun row = {0};
    snprintf(row.name, sizeof row.name, "m1");
    snprintf(row.white, sizeof row.white, "random");
    snprintf(row.black, sizeof row.black, "mcts:sims=10");
    RecordSummary sum = {0};
    MatchPlan mp = {0};
    Out o;
    match_result_print(out_open(&o), &row, &sum, &mp, &r);
    char *got = text(&o);
    char head[512];
    snprintf(head, sizeof head,
             "run          m1\n"
             "a            random\n"
             "b            mcts:sims=10\n"
             "games        4 (2 colour-swapped pairs)\n"
             "a results    W 3 D 1 L 0\n"
             "a score      0.8750 (95%% CI %.4f to %.4f)\n",
             r.figures.score.lo, r.figures.score.hi);
    cr_expect(!strncmp(got, head, strlen(head)), "got:\n%s\nwant first:\n%s", got, head);
    cr_expect(strstr(got, "\npentanomial  0 0 0 1 1 (pairs in which A scored 0, 1/2, 1, 3/2, 2)\n"), "%s", got);
    cr_expect(strstr(got, "\nhash         000000000000feed (actions and visit counts of every game)\n"
                          "faults a     0\nfaults b     0\n"), "%s", got);
    cr_expect(!strstr(got, "controls") && !strstr(got, "sprt"), "no controls, no SPRT: %s", got);
    free(got);
}

Test(writers, match_sprt_and_tail)
{
    MatchResult r = {.tally = {.wins = 2, .draws = 0, .losses = 0, .pairs = 1, .penta = {0, 0, 0, 0, 1}}};
    r.figures = match_figures(&r.tally);
    MatchPlan mp = {0};
    char err[ERR_LEN];
    cr_assert_eq(match_sprt_parse("0,50,0.2,0.2", &mp.sprt, err), 0, "%s", err);
    r.sprt = sprt_test(r.tally.penta, 5, &mp.sprt.spec);
    StoreRun row = {0};
    RecordSummary sum = {0};
    Out o;
    match_result_print(out_open(&o), &row, &sum, &mp, &r);
    char *got = text(&o), want[256];
    snprintf(want, sizeof want,
             "sprt         H0 elo=0 vs H1 elo=50 (logistic), alpha 0.2 beta 0.2: llr %.3f (bounds %.3f, %.3f): "
             "no decision after 1 pair\n",
             r.sprt.llr, r.sprt.lower, r.sprt.upper);
    cr_expect(strstr(got, want), "got:\n%s\nwant in it:\n%s", got, want);
    free(got);
    /* the progress tail: A won every pair, so no finite Elo to show; the LLR between its bounds */
    char tail[256];
    match_progress_tail(&r.tally, &mp.sprt, tail, sizeof tail);
    snprintf(want, sizeof want, "A: W 2 D 0 L 0, score 1.000, LLR %.2f (%.2f, %.2f)", r.sprt.llr + 0.0, r.sprt.lower,
             r.sprt.upper);
    SAME(tail, want);
    MatchSprt off = {0};
    MatchTally none = {0};
    match_progress_tail(&none, &off, tail, sizeof tail);
    SAME(tail, "A: W 0 D 0 L 0");
}

/* Two participants, one pairing of 4 games that A won 2, drew 2; not rated. */
Test(writers, tournament_text)
{
    Tournament t = {.nplayers = 2, .games = 4, .seed = 7, .variant = VARIANT_STANDARD, .npairings = 1};
    snprintf(t.name, sizeof t.name, "t");
    snprintf(t.players[0].name, sizeof t.players[0].name, "a");
    snprintf(t.players[0].spec, sizeof t.players[0].spec, "random");
    snprintf(t.players[1].name, sizeof t.players[1].name, "b");
    snprintf(t.players[1].spec, sizeof t.players[1].spec, "random");
    TournamentPairing pairing = {.a = 0, .b = 1};
    snprintf(pairing.run, sizeof pairing.run, "t/a-vs-b");
    t.pairings = &pairing;
    MatchTally tally = {.wins = 2, .draws = 2, .losses = 0, .pairs = 0};
    uint64_t hash = 0xabcULL;
    TournamentResults r = {.tally = &tally, .hash = &hash, .points = {3, 1}, .games = {4, 4}, .rank = {0, 1}};
    snprintf(r.why, sizeof r.why, "too few games");
    Out o;
    tournament_results_print(out_open(&o), &t, &r, "x.db", 0);
    char *got = text(&o);
    const char *want =
        "tournament   t: round robin of 2 participants, 1 pairing of 4 games, seed 7, standard\n"
        "database     x.db\n"
        "ratings      none: too few games; ranked by score\n"
        "\n"
        "rank name                          elo        95% interval      se    games  score faults  spec\n"
        "1    a                               -                   -       -        4  0.750      0  random\n"
        "2    b                               -                   -       -        4  0.250      0  random\n"
        "\n"
        "pairwise: the row's points against the column / games\n"
        "                                    a            b\n"
        "a                                   .          3/4\n"
        "b                                 1/4            .\n"
        "\n"
        "pairings (A's results; Elo A - B from the pairs, 95% interval; the play hash of the games)\n"
        "t/a-vs-b                                 W   2 D   2 L   0  score 0.750                             "
        "hash 0000000000000abc\n";
    SAME(got, want);
    free(got);
}

Test(writers, study_run_command)
{
    StudyRun r = {.kind = "selfplay", .plan = {.games = 6, .seed = 40, .variant = VARIANT_STANDARD}};
    snprintf(r.name, sizeof r.name, "s-standard-x");
    snprintf(r.spec, sizeof r.spec, "mcts:sims=20");
    char *c = study_run_command(&r, "my s.db", NULL);
    SAME(c, "yinsh selfplay --games 6 --variant standard --agent mcts:sims=20 --seed 40 --run s-standard-x "
            "--db 'my s.db'");
    free(c);
    r.plan.opening = OPENING_RINGS;
    c = study_run_command(&r, "s.db", "2/3");
    SAME(c, "yinsh selfplay --games 6 --variant standard --agent mcts:sims=20 --seed 40 --run s-standard-x "
            "--db s.db --opening rings --shard 2/3");
    free(c);
}

Test(writers, shell_join)
{
    char *argv[] = {"a b", "it's", "tab\there", "plain-word,1:2"};
    char *s = shell_join("yinsh", 4, argv);
    SAME(s, "yinsh 'a b' 'it'\\''s' $'tab\\there' plain-word,1:2");
    free(s);
    s = shell_join("prog", 0, NULL);
    SAME(s, "prog");
    free(s);
}

Test(writers, sprt_cost_head)
{
    SprtCost c = {0};
    char err[ERR_LEN];
    cr_assert_eq(sprt_parse("0,5,0.05,0.05", &c.spec, err), 0, "%s", err);
    cr_assert_eq(sprt_cost_shape(&c, "0,1,1", err), 0, "%s", err);
    cr_assert_eq(sprt_cost(&c, NULL, NULL, err), 0, "%s", err);
    cr_expect_eq(c.nat, 2);
    Out o;
    sprt_cost_print_head(out_open(&o), &c);
    char *got = text(&o);
    /* the zero regularized to 1e-3: 0.001/2.001, 1/2.001 */
    cr_expect(strstr(got, "\nshape        of the counts: 0.000 0.500 0.500\n"), "%s", got);
    cr_expect(strstr(got, "\nllr          ") && strstr(got, " after 2 games: "), "%s", got);
    free(got);
    cr_expect_eq(sprt_cost_shape(&c, "1,2", err), ERR_USAGE, "two counts are neither pairs nor games");
}

Test(writers, resign_text)
{
    ResignRule rule = {0};
    char err[ERR_LEN];
    cr_assert_eq(resign_parse("0.05:2", &rule, err), 0, "%s", err);
    ResignSummary r = {.resigned = 3, .checked = 1};
    RecordSummary s = {.actions = 100};
    Out o;
    run_resign_print(out_open(&o), &rule, &r, &s);
    char *got = text(&o), fmt[96], want[512];
    snprintf(want, sizeof want,
             "resignation  %s: 3 games resigned\n"
             "  checked    1 game played out, the rule fired in 0\n"
             "  false      - (no checked game to measure it)\n"
             "  saved      -\n",
             resign_format(&rule, fmt, sizeof fmt));
    SAME(got, want);
    free(got);
}
