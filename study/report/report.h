/* The balance report (`yinsh report`): stored games counted per variant
 * and pair of agents, with White's score, its 95% interval, the p-value of
 * "no first-player advantage", the advantage in Elo, game lengths and end
 * reasons; the measures beyond the win rate (draw rate, balance, the
 * length's distribution, when the winner leads for good, lead changes,
 * the legal actions by phase); White's score by the first ring's class
 * under the board's symmetries; blitz against standard for each pair
 * played in both; and the data behind three pictures, drawn by gnuplot
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
#include "stats/stats.h"
#include "store/store.h"
#include "engine/types.h"

enum {
    REPORT_MAX_LENGTH = 1000,         /* lengths at or above it are counted there */
    REPORT_REASON_NB = REASON_NB + 1, /* REASON_* and one for names this yinsh does not know */
    REPORT_VARIANT_NB = 2,            /* VARIANT_STANDARD, VARIANT_BLITZ */
    REPORT_MIN_POINT_GAMES = 20,      /* the first-ring map greys points (and classes) with fewer games */
    REPORT_MIN_VERDICT_GAMES = 20,    /* fewer distinct games than this give no verdict, whatever p */
    REPORT_CLASS_NB = 11,             /* classes of the 85 points under the hexagon's 12 symmetries */
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

/* Games of one variant between one White agent and one Black agent. */
typedef struct ReportPair {
    int variant;                          /* VARIANT_* */
    char *white, *black;                  /* agent specs as stored */
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
    ReportKeys keys;                      /* the distinct games' keys */
} ReportPair;

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
} Report;

/* Loads the games of the named runs (nruns 0: all runs) of the database,
 * waiting busy_ms for another process's lock. 0 on success (the report may hold no games: check rep->games), else
 * non-zero with a message in err (ERR_LEN bytes): no database, not
 * a Yinsh Lab database, a run that does not exist. report_free frees what
 * was loaded, whatever the outcome. */
int report_load(Report *rep, const char *db, int busy_ms, const StoreSelection *sel, char *err);
void report_free(Report *rep);

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
} ReportVerdict;
ReportVerdict report_verdict(uint64_t games, double p, Interval interval, double none);

/* White's results in a pair as stats.h counts them. */
typedef struct ReportScore {
    uint64_t wins, draws, losses, n;
    double score, var;          /* mean score per game and its variance per game */
    double lo, hi;              /* Wilson 95% interval of the score */
    double p;                   /* two-sided p-value of "score = 1/2": the exact sign test (stats_p_sign) */
    double elo, elo_lo, elo_hi; /* the advantage in Elo, its interval the score's read on the Elo scale */
    ReportVerdict verdict;      /* of p and the score's interval */
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
    ReportVerdict verdict;
} ReportDiff;
ReportDiff report_diff(const ReportPair *standard, const ReportPair *blitz);

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
/* Fills classes[REPORT_CLASS_NB] with rep->first of the variant. */
void report_classes(const Report *rep, int variant, ReportClass *classes);

/* The index in rep->pairs of the games of variant between white and black
 * (specs as stored); -1 when there are none. Loading uses it while the
 * pairs still grow, the comparison of variants once they are sorted. */
int report_pair_index(const Report *rep, int variant, const char *white, const char *black);

/* Whether any pair of the report played variant. */
bool report_has_variant(const Report *rep, int variant);

/* The strongest pair of a variant in which both sides are the same agent
 * (most simulations, then most games); NULL when there is none. */
const ReportPair *report_strongest(const Report *rep, int variant);
/* The pair the summary of a variant speaks of: the strongest, else the
 * most-played pair of an agent against itself (ab has no simulations to
 * rank it by), else the most-played pair; NULL without games. */
const ReportPair *report_headline(const Report *rep, int variant);

/* What became of the pictures, for the Markdown. */
typedef struct ReportPictures {
    bool strength, lengths, first_ring; /* drawn: the PNG exists */
    char note[ERR_LEN];          /* why some were not drawn ("" when all were) */
} ReportPictures;

/* The report in Markdown. cmdline: the command that made it (shown). */
void report_write_markdown(const Report *rep, const char *cmdline, const ReportPictures *pics, FILE *f);

/* Writes the data files the pictures are drawn from into dir and, with
 * plots_dir (the gnuplot scripts) and gnuplot on the PATH, draws
 * strength.png, lengths.png and first-ring.png there. A picture that
 * cannot be drawn is noted in pics (gnuplot's messages go to
 * dir/gnuplot.log); 0 unless the data files cannot be written (err). */
int report_draw(const Report *rep, const char *dir, const char *plots_dir, ReportPictures *pics, char *err);

/* The match report (`yinsh report --kind match`): for each selected match,
 * A against B, the games, A's score with its interval, the Elo difference
 * from the pairs with its 95% interval, the likelihood of superiority and
 * the pentanomial counts, in Markdown (the database read as report_load
 * reads it). 0, or non-zero with err. */
int report_matches(const char *db, int busy_ms, const StoreSelection *sel, const char *cmdline, FILE *f, char *err);

#endif
