/* The balance report (`yinsh report`): stored games counted per variant,
 * pair of agents and opening, with White's score, its 95% interval, the p-value of
 * "no first-player advantage", the advantage in Elo, game lengths and end
 * reasons; the measures beyond the win rate (draw rate, balance, the
 * length's distribution, when the winner leads for good, lead changes,
 * the legal actions by phase); White's score by the first ring's class
 * under the board's symmetries; blitz against standard for each pair
 * played in both; the same agent from two openings; and, where the
 * selection holds a strength ladder (agents that played themselves and
 * match runs between them), the levels on one Elo scale from a joint
 * Bradley-Terry fit of the matches, with White's score and the other
 * measures against it; and the data behind the pictures, drawn by gnuplot
 * scripts (scripts/plots/).
 *
 * Every figure counts distinct games: a game whose actions and end repeat
 * another game of its pair (a deterministic agent plays the same game
 * from the same start) is a copy, counted apart and left out, so that
 * copies never pass for independent evidence.
 *
 * A Report is loaded once from the database (selfplay/store/store.h: the
 * SQL lives there) and then only read: writing the Markdown, the data
 * files and the pictures are functions of it. */
#ifndef YINSH_REPORT_H
#define YINSH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "selfplay/match/match.h"
#include "selfplay/stats/stats.h"
#include "selfplay/store/store.h"
#include "engine/types.h"

enum {
    REPORT_MAX_LENGTH = 1000,         /* lengths at or above it are counted there */
    REPORT_REASON_NB = REASON_NB + 1, /* REASON_* and one for names this yinsh does not know */
    REPORT_VARIANT_NB = VARIANT_NB,   /* VARIANT_STANDARD, VARIANT_BLITZ and their options */
    REPORT_MIN_POINT_GAMES = 20,      /* the first-ring map greys points (and classes) with fewer games */
    REPORT_MIN_VERDICT_GAMES = 20,    /* fewer distinct games than this give no verdict, whatever p */
    REPORT_CLASS_NB = 11,             /* classes of the 85 points under the hexagon's 12 symmetries */
    REPORT_LEVEL_MAX = STATS_BT_MAX,  /* levels of a ladder: the joint fit's players */
    REPORT_POWER_POINTS = 2,          /* a difference not told from chance says its power to see this many
                                         points of White's score (the edge the balance studies resolve) */
};

/* The phases of the legal-action counts: placements (state P), moves
 * (M), removals (rows and rings: R, X, r, x). */
enum { REPORT_PLACEMENT, REPORT_MOVE, REPORT_REMOVAL, REPORT_PHASE_NB };

/* The keys of the games counted so far, to tell a copy (an open-addressed
 * set of 64-bit keys, 0 marking a free slot). */
typedef struct ReportKeys {
    uint64_t *slot;
    size_t cap, n;
} ReportKeys;

/* Games of one variant between one White agent and one Black agent from
 * one opening (the run's: "none", "rings", "random:K", "book:..."; "" where
 * the database has none): the same agents from another opening are
 * another pair, so that a prefix of random actions and random rings are
 * never mixed. */
typedef struct ReportPair {
    int variant;                          /* VARIANT_* */
    char *white, *black;                  /* agent specs as stored */
    char *opening;                        /* the runs' opening */
    bool opening_shown;                   /* another pair has the same agents and variant from another
                                             opening: the labels name the opening */
    double strength;                      /* simulations per move when both sides are the
                                             same agent (random: 1, to rank it; the picture
                                             draws it apart); 0 otherwise */
    uint64_t games;                       /* distinct games: what every figure below counts */
    uint64_t copies;                      /* finished games left out as copies of one of those */
    uint64_t results[RESULT_NB];          /* by RESULT_*: [RESULT_WHITE], [RESULT_BLACK], [RESULT_DRAW] */
    uint64_t reasons[REPORT_REASON_NB];   /* by REASON_*; the last: unknown names */
    uint64_t *lengths;                    /* lengths[a]: games of a actions, a = 0..REPORT_MAX_LENGTH */
    /* from the stored values (report_game_values) */
    uint64_t valued;                      /* games with at least one stored value */
    uint64_t lead_changes;                /* lead changes, summed over those */
    uint64_t decided;                     /* decisive games among them */
    double decided_at;                    /* their decision points, summed */
    /* from the stored legal counts: legal actions summed, and decisions, by phase */
    uint64_t legal[REPORT_PHASE_NB], decisions[REPORT_PHASE_NB];
    uint64_t (*first)[RESULT_NB];         /* first[p][r]: distinct games by White's first ring (SQUARE_NB) */
    uint64_t swapped[RESULT_NB];          /* a +swap variant's games in which Black took White's first ring
                                             (`swap` the second action), by result */
    ReportKeys keys;                      /* the distinct games' keys */
    /* Holm's correction (report_families): the p of White's score adjusted
       in the family of every pair's, and, on a standard pair with a blitz
       twin, the p of blitz - standard adjusted in the family of those; a
       family of 0: in none (a Report made by hand), the raw p stands */
    int score_family, diff_family;
    double score_p_holm, diff_p_holm;
    /* from the reference evaluator (report_lead over REPORT_REFERENCE's values) */
    uint64_t ref_valued;                  /* games it scored (every action replayed) */
    uint64_t ref_lead_changes;            /* their lead changes, summed */
    uint64_t ref_decided;                 /* decisive games among them */
    double ref_decided_at;                /* their decision points, summed */
} ReportPair;

/* A match run of the selection (kind "match"), tallied pair by pair as
 * `yinsh match` tallies it (selfplay/match/match.h): a pair counts once both its
 * games are stored. */
typedef struct ReportMatch {
    char *run, *a, *b, *opening;  /* A and B as stored; the run's opening */
    int variant;                  /* VARIANT_*, -1 for a variant this yinsh does not know */
    MatchStored pairs;            /* A's results */
} ReportMatch;

/* A level of a strength ladder: an agent that played itself in the
 * variant. Its Elo is relative to `base`: the ladder's anchor for the
 * levels of block 0, a block's weakest level for the others. */
typedef struct ReportLevel {
    const char *agent;   /* the spec as stored (its pairs' white and black) */
    int pair;            /* its self-play in rep->pairs: from the opening of its ladder matches, else the
                            most-played of its openings */
    int block;           /* -1: in no ladder match (no Elo); 0: rated against the anchor; k > 0: a block
                            that a link won game for game by one side parts from the anchor's */
    int base;            /* the level (index in the ladder) its Elo is relative to */
    double elo, se;      /* the joint fit's rating relative to base and its standard error (0 for base) */
} ReportLevel;

/* The matches between two levels of a ladder, summed over their runs,
 * from the point of view of `upper`: the runs' A (the level the ladder
 * puts above; the first run's, when runs disagree). */
typedef struct ReportLink {
    int upper, lower;    /* levels (indices in the ladder) */
    const char *run;     /* the first of its runs */
    int runs;
    MatchTally tally;    /* upper's games and pairs */
    Interval score;      /* upper's score, Wilson 95% */
    Interval elo;        /* upper - lower from the pairs (stats_elo_pentanomial), as `yinsh match` gives it */
    int swept;           /* +1: upper won every game; -1: lower did; 0: each side scored */
    double bound;        /* when swept: the one-sided 95% bound on upper - lower the pairs allow
                            (stats_sweep_lower over the pairs): at least it (+1), at most minus it (-1) */
} ReportLink;

/* A variant's ladder: its levels in the ladder's order (weakest first:
 * each link's lower level before its upper, ties by the report's pair
 * order), rated by one joint Bradley-Terry fit (stats_bt_fit: a draw half
 * a win, the games of whole pairs) of the match runs between levels. A
 * link that one side won game for game admits no finite rating across
 * it: the levels fall into blocks, each rated on its own (a fit with a
 * sweep inside a block is still finite), block 0 against the anchor
 * (random play when it is a level with matches, else the weakest level
 * of the block of the ladder's first level), every other block against
 * its own weakest level. */
typedef struct ReportLadder {
    int nlevels;                       /* 0: no ladder in this variant */
    ReportLevel level[REPORT_LEVEL_MAX];
    ReportLink *link;
    int nlinks;
    int anchor;                        /* the level rated 0 (when report_ladder_rated) */
    bool anchor_random;                /* the anchor is random play */
    int nblocks;
    int left_out;                      /* match runs of the variant not between two different levels */
    char why[ERR_LEN];                 /* "" when the fit held; else why no level is rated */
} ReportLadder;

/* A run of the selection, with what reproduces it. */
typedef struct ReportRun {
    char *name, *command, *variant, *white, *black;
    char *version, *git_commit, *compiler, *machine; /* provenance ("" where the database has none) */
    char *kind, *opening;       /* "" where the database has none (before schema version 5) */
    char *controls;             /* run.controls: "" for none (and before version 6) */
    bool pairs;
    uint64_t hash;              /* the play hash of its stored games */
    uint64_t seed;
    int64_t games, stored, repeats;
    int64_t distinct;           /* of its stored games (repeats apart), those with actions and an end
                                   no other game of the run has */
    ReportKeys keys;
    bool finished;
} ReportRun;

typedef struct Report {
    char *db;                   /* the database's path */
    char **runs;                /* the selection as given; none: every run */
    int nruns;
    char *kind, *agent, *variant; /* the rest of the selection (NULL: any) */
    int64_t repeats;            /* selected games left out as repeats */
    ReportRun *run_rows;        /* the selected runs, in the order they were made */
    int nrun_rows;
    ReportPair *pairs;          /* sorted: variant, then strength, then specs */
    int npairs;
    uint64_t games;             /* selected distinct games of a known variant: every figure's */
    uint64_t copies;            /* selected finished games left out as copies (the pairs' copies) */
    uint64_t skipped;           /* selected games of a variant this yinsh does not know */
    uint64_t unfinished;        /* selected games without a result (imported records that stop early) */
    uint64_t first[REPORT_VARIANT_NB][SQUARE_NB][RESULT_NB]; /* distinct games by White's first ring and RESULT_* */
    ReportMatch *matches;       /* the selected match runs, in the order they were made */
    int nmatches;
    ReportLadder ladder[REPORT_VARIANT_NB]; /* built from the pairs and the matches when loading */
    int opening_family;         /* the comparisons of openings corrected together (report_families) */
    double *opening_p_holm;     /* [i * npairs + j]: their adjusted p, by the pairs i < j compared; NULL: none */
    char *reference;            /* the reference evaluator (report_load_with): a weights file or an ab spec */
    bool reference_searched;    /* it is a search (an ab spec), not the linear evaluation alone */
    struct ReportDeclared *declared; /* the comparisons declared before the games (report_compare) */
    int ndeclared;
    struct ReportCompared *compared; /* their rows, by declaration then variant */
    int ncompared;
    double margin;              /* the declared equivalence margin of White's score (0.02: two points; a
                                   study's [report] margin, `yinsh report --margin`); 0: no equivalence tests */
} Report;

/* Equivalence to a fair game within the declared margin (rep->margin),
 * of every pair of an agent against itself with at least
 * REPORT_MIN_VERDICT_GAMES distinct games and a decisive one: the exact
 * TOST on White's share of the decisive games (stats_tost_sign, alpha
 * 0.05, its 90% interval), its two p-values adjusted by Holm's step-down
 * over the rows (one family: the equivalence tests; another: the tests
 * of "beyond the margin"), the verdict from those, and the TOST's power
 * at alpha were White's share exactly 1/2 with these decisive games
 * (normal approximation). */
typedef struct ReportEquivalence {
    int pair;                   /* in rep->pairs */
    StatsTost t;
    double p_holm, beyond_holm; /* t.p and t.p_beyond adjusted over the rows */
    TostVerdict verdict;
    double power;               /* of the TOST at alpha 0.05, were the share 1/2 */
} ReportEquivalence;
/* The rows into rows (rep->npairs entries), in the pairs' order: their
 * number; 0 without a margin. */
int report_equivalence(const Report *rep, ReportEquivalence *rows);

/* Loads the games of the named runs (nruns 0: all runs) of the database,
 * then builds each variant's ladder (report_ladder_build),
 * waiting busy_ms for another process's lock. 0 on success (the report may hold no games: check rep->games), else
 * non-zero with a message in err (ERR_LEN bytes): no database, not
 * a Yinsh Lab database, a run that does not exist. report_free frees what
 * was loaded, whatever the outcome. */
int report_load(Report *rep, const char *db, int busy_ms, const StoreSelection *sel, char *err);
void report_free(Report *rep);

/* How report_load_with scores the reference measures, and its progress. */
typedef struct ReportLoadOptions {
    /* NULL: REPORT_REFERENCE. Else the linear evaluation with a weights
     * file, or a fixed searcher, an `ab:` spec at a fixed depth (no
     * movetime, one thread): each position after an action valued by its
     * search, White's expected score from its score (ab_score_value), the
     * table cleared at each game's start, so that a game's values depend
     * on the game alone. A search costs: progress is told. */
    const char *reference;
    /* every few seconds while a searched reference scores games: the
     * games scored and the games selected; NULL: none */
    void (*progress)(void *ctx, int64_t done, int64_t total);
    void *progress_ctx;
} ReportLoadOptions;

/* report_load with options (o NULL: report_load's). A reference that is
 * neither a weights file nor an ab spec as above is refused (ERR_USAGE,
 * err naming it). */
int report_load_with(Report *rep, const char *db, int busy_ms, const StoreSelection *sel, const ReportLoadOptions *o,
                     char *err);
/* Whether text names a reference evaluator report_load_with takes: 0, or
 * ERR_USAGE / ERR_FAIL with why in err (a study file's, checked before
 * any game). */
int report_reference_check(const char *text, char *err);

/* What may be concluded from a test's p-value and the 95% interval
 * printed beside it, of an effect whose "none" is a value (a score of
 * 1/2, a difference of 0). A conclusion needs both to agree, so that no
 * sentence of the report contradicts the interval beside it, and enough
 * distinct games: */
typedef enum ReportVerdict {
    REPORT_TOO_FEW,   /* fewer than REPORT_MIN_VERDICT_GAMES distinct games: no verdict */
    REPORT_CHANCE,    /* p >= 0.05 and the interval holds "none": nothing told from chance */
    REPORT_EDGE,      /* p < 0.05 and the interval excludes "none": too large to be chance */
    REPORT_SPLIT,     /* the test and the interval disagree: on the edge, no verdict */
    REPORT_QUESTION,  /* p < 0.05 and the interval agree, but not p once corrected for its family (Holm):
                         beyond chance as one test, not as one of many; a question, no verdict */
} ReportVerdict;
enum { REPORT_VERDICT_NB = REPORT_QUESTION + 1 };
ReportVerdict report_verdict(uint64_t games, double p, Interval interval, double none);
/* A verdict read with the test's Holm-adjusted p: an edge whose adjusted
 * p is not below 0.05 is a question (REPORT_QUESTION); every other
 * verdict stands (correction only ever takes a claim away). */
ReportVerdict report_verdict_corrected(ReportVerdict raw, double p_holm);

/* The families of tests the report corrects for together (Holm's
 * step-down, stats_holm), each the tests of one question asked of every
 * pair that allows a verdict (at least REPORT_MIN_VERDICT_GAMES distinct
 * games): "White's score is 50%" of every pair of an agent against
 * itself, both variants, and apart those of every pair of two agents
 * (the first move mixed with their strength: another question);
 * "blitz - standard is 0" so, of every pair that played both; "the
 * opening does not change White's score" of every agent compared from
 * two openings. A
 * report that singles out the smallest p of twelve has made twelve
 * tests, and its verdicts are worded by the adjusted p. Fills the pairs'
 * and the Report's fields; report_load calls it once the pairs are
 * sorted. 0, or -1 when out of memory (no correction then). */
int report_families(Report *rep);

/* White's results in a pair as stats.h counts them. */
typedef struct ReportScore {
    uint64_t wins, draws, losses, n;
    double score, var;          /* mean score per game and its variance per game */
    double lo, hi;              /* Wilson 95% interval of the score */
    double p;                   /* two-sided p-value of "score = 1/2": the exact sign test (stats_p_sign) */
    double elo, elo_lo, elo_hi; /* the advantage in Elo, its interval the score's read on the Elo scale */
    int family;                 /* the tests of White's score corrected together (0: none, p_holm = p) */
    double p_holm;              /* p adjusted by Holm's step-down in that family */
    ReportVerdict verdict;      /* of p and the score's interval, then read with p_holm */
} ReportScore;
ReportScore report_score(const ReportPair *pair);

/* Blitz against standard for one pair of agents: blitz's score minus
 * standard's with Newcombe's interval, the p-value of the exact
 * permutation test of "the variant does not change the results"
 * (stats_p_scores_differ; `exact` false where it is the normal
 * approximation of many games), and the verdict of the two, with the
 * smaller variant's games. */
typedef struct ReportDiff {
    Interval d;
    double p;
    bool exact;
    double se;                  /* the difference's standard error, from each side's own variance per game */
    double power;               /* the two-sided test's power at 0.05 to see REPORT_POWER_POINTS (normal) */
    int family;                 /* 0 from report_diff: p_holm = p */
    double p_holm;
    ReportVerdict verdict;
} ReportDiff;
ReportDiff report_diff(const ReportPair *standard, const ReportPair *blitz);
/* The difference read in its family: p_holm and the verdict with it. */
ReportDiff report_diff_corrected(ReportDiff d, double p_holm, int family);

/* Two pairs of one agent against itself in one variant from different
 * openings are compared as *a minus *b: a prefix of random actions (or
 * none) minus random rings, else in the order of the openings' text.
 * False when p and q are not two such pairs. The difference is
 * report_diff(*b, *a). */
bool report_openings_compared(const ReportPair *p, const ReportPair *q, const ReportPair **a, const ReportPair **b);

/* Mean and median length in actions; report_length_quantile(pair, q) the
 * smallest length that q of the games reach or fall short of (q = 0: the
 * shortest, 1: the longest; the median averages the middle two). */
double report_mean_length(const ReportPair *pair);
double report_median_length(const ReportPair *pair);
int report_length_quantile(const ReportPair *pair, double q);

/* The measures beyond the win rate (their definitions in docs/json.md
 * and in the report's text): the draws' share with its Wilson interval;
 * Ludii's balance, 1 - |White's wins - Black's wins| / games; and, NaN
 * where no game has them, the mean decision point of the decisive valued
 * games, the mean lead changes of the valued games, and the mean legal
 * actions of a phase's decisions. */
Interval report_draw_rate(const ReportPair *pair);
double report_balance(const ReportPair *pair);
double report_decided_at(const ReportPair *pair);
double report_lead_changes(const ReportPair *pair);
/* The same two by the reference evaluator (report_lead); NaN where no
 * game has them. */
double report_ref_decided_at(const ReportPair *pair);
double report_ref_lead_changes(const ReportPair *pair);
double report_branching(const ReportPair *pair, int phase);

/* What a game's stored values tell, from the searched actions alone (an
 * action with a value, turned to a side's point of view: the actor's
 * value, or 1 minus it for the other side). The side ahead after an
 * action is the one whose value is above 1/2 (none at exactly 1/2).
 * lead_changes: how often the side ahead differs from the side ahead at
 * the last valued action that had one. decided_at, for a decisive game:
 * (j + 1) / n, where j is the first valued action from which on every
 * valued action gives the winner more than 1/2, and n the game's actions
 * (1 when the last valued action does not favour the winner); -1 for a
 * draw or a game without values. */
typedef struct ReportGameValues {
    bool valued;       /* some action has a stored value */
    int lead_changes;
    double decided_at;
} ReportGameValues;
ReportGameValues report_game_values(const StoreActionRow *actions, int n, int result);

/* "Decided at" and "lead changes" by one reference evaluator, the same
 * for every level: the searchers' own values measure two searchers
 * disagreeing as much as the game (at depth 5, 13.8 lead changes a game
 * from both sides' values, 3.2 from White's own). Every game is replayed
 * from its stored actions and the position after each action scored by
 * the linear evaluation with the weights REPORT_REFERENCE (those of the
 * ladder's alpha-beta levels, eval/weights/, built into yinsh): White's
 * expected score, eval_white; after the last action the game's result
 * itself (1, 0, 1/2). A value within REPORT_LEAD_BAND of 1/2 leaves the
 * lead where it was: noise about an even position changes nothing. */
#define REPORT_REFERENCE "eval/weights/tuned3.txt"
#define REPORT_LEAD_BAND 0.05

/* What a sequence of White's values (white[i] after action i of n; NaN:
 * none) tells with a dead band: the side ahead is White above 1/2 +
 * band, Black below 1/2 - band, and inside the band the side ahead
 * before. lead_changes: how often the side ahead turns from one side to
 * the other (the first side ahead is no change). For a decisive result:
 * decided_ply, the actions played when the value leaves the band on the
 * winner's side for good (j + 1 for the first valued action j from
 * which on every value is outside the band on the winner's side; n
 * when the last value is not), and decided_at = decided_ply / n; for a
 * draw or no values -1 both. */
typedef struct ReportLead {
    bool valued;
    int lead_changes;
    int decided_ply;
    double decided_at;
} ReportLead;
ReportLead report_lead(const double *white, int n, int result, double band);

/* The phase (REPORT_PLACEMENT...) of a state's text ("P", "M", "R", ...);
 * -1 for any other. */
int report_phase(const char *state);

/* The first ring's classes: the 85 points under the 12 symmetries of the
 * hexagon (6 rotations, each with and without a reflection), which map
 * the board and its three line directions onto themselves and so change
 * no rule: a first ring on any point of a class starts the same game,
 * turned. Classes are in the canonical order of their first point. */
typedef struct ReportClass {
    Point first;                /* the class's first point in canonical order */
    int points;                 /* 1, 6 or 12 */
    int distance;               /* from the centre f6, in steps (0 to 5) */
    uint64_t results[RESULT_NB];
} ReportClass;
/* The class (0 .. REPORT_CLASS_NB - 1) of a point of the board. */
int report_point_class(Point p);
/* Fills classes[REPORT_CLASS_NB] with rep->first of the variant, or, with
 * pair, with that pair's games alone. */
void report_classes(const Report *rep, int variant, const ReportPair *pair, ReportClass *classes);

/* The index in rep->pairs of the games of variant between white and black
 * (specs as stored) from opening; -1 when there are none. Loading uses it
 * while the pairs still grow, the comparison of variants once they are
 * sorted. */
int report_pair_index(const Report *rep, int variant, const char *white, const char *black, const char *opening);
/* For a standard pair, the index of the same agents' blitz pair from the
 * same opening (the comparison of variants); -1 when there is none or
 * st is not standard. */
int report_blitz_twin(const Report *rep, const ReportPair *st);

/* Whether any pair of the report played variant. */
bool report_has_variant(const Report *rep, int variant);

/* The strongest pair of a variant in which both sides are the same agent
 * (most simulations, then most games); NULL when there is none. */
const ReportPair *report_strongest(const Report *rep, int variant);
/* The pair the summary of a variant speaks of: the ladder's strongest
 * level (report_ladder_top), else the strongest by simulations, else the
 * most-played pair of an agent against itself (ab has no simulations to
 * rank it by), else the most-played pair; NULL without games. */
const ReportPair *report_headline(const Report *rep, int variant);

/* The ladders: built by report_load from rep->pairs and rep->matches
 * into rep->ladder (a pure function of them, exposed for the tests). */
void report_ladder_build(const Report *rep, int variant, ReportLadder *lad);
void report_ladder_free(ReportLadder *lad);
/* Whether a ladder rates its levels: it has a link and the fit held
 * (then `anchor` is a level; a Report made by hand, all zeros, has no
 * ladder). */
bool report_ladder_rated(const ReportLadder *lad);
/* Whether any variant has a rated ladder. */
bool report_has_ladder(const Report *rep);
/* The level of the ladder whose agent is spec; -1 for none. */
int report_level_of(const ReportLadder *lad, const char *spec);
/* The ladder's strongest level: the highest rated of the block of its
 * last level in the ladder's order; -1 without rated levels. */
int report_ladder_top(const ReportLadder *lad);
/* A level's Elo with its 95% interval (elo +- 1.96 se; no width for the
 * base), relative to its base. */
Interval report_level_elo(const ReportLevel *level);
/* White's score against strength (strength.c). Along a variant's ladder:
 * its levels rated against the anchor (block 0) whose self-play (the
 * level's pair) allows a verdict, each at its Elo, tested together
 * (stats_score_trend): whether White's score differs between the levels,
 * its linear trend in Elo and the levels' departure from that line. The
 * two tests of every variant's ladder are one family (Holm): the question
 * "does White's edge change with strength" asked of each ladder. */
typedef struct ReportAlong {
    bool ok;                         /* tested: at least two levels, results that vary, two Elos */
    int nlevels;
    int level[REPORT_LEVEL_MAX];     /* the levels used (indices in the ladder) */
    StatsTrend t;                    /* the slope per Elo point */
    int family;                      /* the tests corrected together (0: none) */
    double p_holm, p_slope_holm;     /* t.p and t.p_slope adjusted in that family */
} ReportAlong;
void report_along(const Report *rep, ReportAlong along[REPORT_VARIANT_NB]);

/* Blitz against standard at matched strength: each blitz level (as
 * report_along takes them) beside the standard level whose Elo is
 * nearest its own, each Elo above its own variant's anchor, where the two
 * levels' 95% intervals of Elo overlap; the difference blitz - standard
 * (report_diff), the rows that allow a verdict one family (Holm). Writes
 * at most REPORT_LEVEL_MAX rows; their number. */
typedef struct ReportMatched {
    int standard, blitz;             /* the levels, in the standard and the blitz ladder */
    ReportDiff d;
} ReportMatched;
int report_matched(const Report *rep, ReportMatched *rows);

/* Comparisons declared before the games were played (a study's `[report]
 * compare`, `yinsh report --compare`): White's score of agent A's
 * self-play minus agent B's, in each variant the selection has games of,
 * so that a question fixed in advance ("does White's edge grow from
 * depth 5 to depth 7", "does PUCT's equal depth 7's") is answered by the
 * test declared for it and not by one picked from the tables afterwards.
 * An agent's self-play in a variant is its pair from the declared
 * opening, else its ladder level's pair where it is a level, else its
 * most-played self-play pair there. Every row whose
 * two sides allow a verdict is one family (Holm), whatever the variant. */
typedef struct ReportDeclared {
    char *a, *b;                 /* the specs as stored (canonical) */
    char *name_a, *name_b;       /* the names the declaration gave them (a study's labels) */
    char *opening_a, *opening_b; /* the openings of the self-play compared, as stored ("random:4");
                                    NULL: the agent's self-play as above */
} ReportDeclared;
typedef struct ReportCompared {
    int declared;                /* the declaration's index in rep->declared */
    int variant;                 /* VARIANT_* */
    int pa, pb;                  /* A's and B's self-play in rep->pairs; -1: not played in this variant */
    ReportDiff d;                /* A - B (report_diff(B, A)) in its family; meaningless unless both played */
} ReportCompared;
/* A declaration as given: ReportDeclared's fields, the caller's text
 * (names NULL: the specs; openings NULL: none given). */
typedef struct ReportComparison {
    const char *a, *b, *name_a, *name_b, *opening_a, *opening_b;
} ReportComparison;
/* Sets the declared comparisons of rep (a loaded Report; n declarations,
 * copied) and computes their rows, freeing any it held (n 0: none). 0,
 * or -1 when out of memory (rep then holds none). */
int report_compare(Report *rep, const ReportComparison *declared, int n);

/* The Ai Ai depth of a ladder: the links whose upper level scored at
 * least 60% against the lower (*surely: of those, the links whose
 * score's interval lies at or above 60% too). */
int report_ladder_depth(const ReportLadder *lad, int *surely);
enum { REPORT_DEPTH_SCORE_PCT = 60 };

/* White's score in games published elsewhere, as published (their share
 * and games; the variant and the draws are not given), shown beside the
 * ladder's as reference marks. */
typedef struct ReportPublished {
    const char *who, *source; /* who played, where it is published */
    const char *mark;         /* who played, short: the picture's label */
    double white_score;       /* White's share */
    int digits;               /* the published figure's decimals, in percent */
    uint64_t games;
} ReportPublished;
enum { REPORT_PUBLISHED_NB = 3 };
extern const ReportPublished REPORT_PUBLISHED[REPORT_PUBLISHED_NB];
/* Its Wilson 95% interval from the share and the games: with draws
 * unknown, the interval of a proportion, at least as wide as the score's
 * would be (a score's variance per game is at most p (1 - p)). */
Interval report_published_interval(const ReportPublished *p);

/* What became of the pictures, for the Markdown. */
typedef struct ReportPictures {
    bool strength, lengths, first_ring; /* drawn: the PNG exists */
    bool score_elo, draws_length_elo;   /* the ladder's: White's score, and draws and lengths, against Elo */
    char note[ERR_LEN];          /* why some were not drawn ("" when all were) */
} ReportPictures;

/* The report in Markdown. cmdline: the command that made it (shown). */
void report_write_markdown(const Report *rep, const char *cmdline, const ReportPictures *pics, FILE *f);

/* Writes the data files the pictures are drawn from into dir and, with
 * plots_dir (the gnuplot scripts) and gnuplot on the PATH, draws
 * lengths.png and first-ring.png there, and with a ladder score-elo.png
 * and draws-length-elo.png, else strength.png. A picture that
 * cannot be drawn is noted in pics (gnuplot's messages go to
 * dir/gnuplot.log); 0 unless the data files cannot be written (err). */
int report_draw(const Report *rep, const char *dir, const char *plots_dir, ReportPictures *pics, char *err);

/* The match report (`yinsh report --kind match`): for each selected match,
 * A against B, the games, A's score with its interval, the Elo difference
 * from the pairs with its 95% interval, the likelihood of superiority and
 * the pentanomial counts, in Markdown (the database read as report_load
 * reads it). 0, or non-zero with err. */
int report_matches(const char *db, int busy_ms, const StoreSelection *sel, const char *cmdline, FILE *f, char *err);

/* A report written into a folder (`yinsh report`, a study's report). */
typedef struct ReportJob {
    const char *db;
    int busy_ms;             /* how long the database is waited for */
    StoreSelection sel;      /* the runs reported; kind "match": the match report */
    const char *out;         /* the folder the report goes to, as messages name it */
    const char *plots;       /* the gnuplot scripts (report_draw's plots_dir) */
    bool no_plots;           /* the Markdown only */
    const char *cmdline;     /* the command shown in the report */
} ReportJob;

/* Writes the report into dir (a staging folder the caller moves into
 * job->out when all is written): the balance report of rep (loaded by
 * report_load; with its pictures and their data unless job->no_plots,
 * *drawn then set and pics filled), or with rep NULL the match report,
 * which reads the database itself; then report.md. The Markdown is also
 * left in *md (md_len bytes; the caller frees it, whatever the outcome).
 * 0, or non-zero with err. */
int report_write_folder(const ReportJob *job, const Report *rep, const char *dir, char **md, size_t *md_len,
                        ReportPictures *pics, bool *drawn, char *err);
/* The report written into job->out whole or not at all: into a staging
 * folder inside it first (report_write_folder, the same arguments), then
 * moved in; the folder's pictures, their data and gnuplot.log that this
 * report did not write again (an earlier report's) go. A full disk
 * leaves the folder as it was. 0, or non-zero with err. */
int report_publish(const ReportJob *job, const Report *rep, char **md, size_t *md_len, ReportPictures *pics,
                   bool *drawn, char *err);
/* Whether report_write_folder writes a file of this name into its folder
 * (report.md, the pictures *.png, their data *.dat, gnuplot.log), so that
 * no input is among them (FolderWrites, engine/base/folder.h; ctx unused). */
bool report_folder_writes(const char *name, const void *ctx);

/* The report's figures as JSON (docs/json.md), as the Markdown has them,
 * into the caller's open document (engine/base/json.h): the database and
 * out, the runs used, each pair of agents per variant, blitz against
 * standard, the first ring's classes, the ladders, the openings compared,
 * the published figures, and the pictures (pics NULL: none drawn). */
struct Json;
void report_write_json(struct Json *j, const Report *rep, const char *out, const ReportPictures *pics);

#endif
