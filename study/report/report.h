/* The balance report (`yinsh report`): stored games counted per variant
 * and pair of agents, with White's score, its 95% interval, the p-value of
 * "no first-player advantage", the advantage in Elo, game lengths and end
 * reasons; blitz against standard for each pair played in both; and the
 * data behind three pictures, drawn by gnuplot scripts (scripts/plots/).
 *
 * A Report is loaded once from the database (selfplay/store/store.h: the
 * SQL lives there) and then only read: writing the Markdown, the data
 * files and the pictures are functions of it. */
#ifndef YINSH_REPORT_H
#define YINSH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "store/store.h"
#include "engine/types.h"

enum {
    REPORT_MAX_LENGTH = 1000,         /* lengths at or above it are counted there */
    REPORT_REASON_NB = REASON_NB + 1, /* REASON_* and one for names this yinsh does not know */
    REPORT_VARIANT_NB = 2,            /* VARIANT_STANDARD, VARIANT_BLITZ */
    REPORT_MIN_POINT_GAMES = 20,      /* the first-ring map greys points with fewer games */
};

/* Games of one variant between one White agent and one Black agent. */
typedef struct ReportPair {
    int variant;                          /* VARIANT_* */
    char *white, *black;                  /* agent specs as stored */
    double strength;                      /* simulations per move when both sides are the
                                             same agent (random: 1, to rank it; the picture
                                             draws it apart); 0 otherwise */
    uint64_t games;
    uint64_t results[RESULT_NB];          /* by RESULT_*: [RESULT_WHITE], [RESULT_BLACK], [RESULT_DRAW] */
    uint64_t reasons[REPORT_REASON_NB];   /* by REASON_*; the last: unknown names */
    uint64_t *lengths;                    /* lengths[a]: games of a actions, a = 0..REPORT_MAX_LENGTH */
} ReportPair;

/* A run of the selection, with what reproduces it. */
typedef struct ReportRun {
    char *name, *command, *variant, *white, *black;
    char *version, *git_commit, *compiler, *machine; /* provenance ("" where the database has none) */
    char *kind, *opening;       /* "" where the database has none (before schema version 5) */
    bool pairs;
    uint64_t hash;              /* the play hash of its stored games */
    uint64_t seed;
    int64_t games, stored, repeats;
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
    uint64_t games;             /* selected games of a known variant */
    uint64_t skipped;           /* selected games of a variant this yinsh does not know */
    uint64_t unfinished;        /* selected games without a result (imported records that stop early) */
    uint64_t first[REPORT_VARIANT_NB][SQUARE_NB][RESULT_NB]; /* games by White's first ring and RESULT_* */
} Report;

/* Loads the games of the named runs (nruns 0: all runs) of the database,
 * waiting busy_ms for another process's lock. 0 on success (the report may hold no games: check rep->games), else
 * non-zero with a message in err (ERR_LEN bytes): no database, not
 * a Yinsh Lab database, a run that does not exist. report_free frees what
 * was loaded, whatever the outcome. */
int report_load(Report *rep, const char *db, int busy_ms, const StoreSelection *sel, char *err);
void report_free(Report *rep);

/* White's results in a pair as stats.h counts them. */
typedef struct ReportScore {
    uint64_t wins, draws, losses, n;
    double score, var;          /* mean score per game and its variance per game */
    double lo, hi;              /* Wilson 95% interval of the score */
    double p;                   /* two-sided p-value of "score = 1/2" */
    double elo, elo_lo, elo_hi; /* the advantage in Elo with its 95% interval */
} ReportScore;
ReportScore report_score(const ReportPair *pair);

/* Mean and median length in actions. */
double report_mean_length(const ReportPair *pair);
double report_median_length(const ReportPair *pair);

/* The strongest pair of a variant in which both sides are the same agent
 * (most simulations, then most games); NULL when there is none. */
const ReportPair *report_strongest(const Report *rep, int variant);

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
