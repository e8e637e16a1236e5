/* Study files (`yinsh study FILE`, docs/study.md): a study is a small INI
 * file naming variants x agents x games, a seed, a database and the
 * report's options. It unfolds into self-play runs with stable names and
 * fixed seeds, so the same file always asks for the same games:
 *
 *   run k (k = 0, 1, ...: agents in file order, then variants in the
 *   order listed) is named STUDY-VARIANT-LABEL and has seed SEED + k
 *   (modulo 2^64).
 *
 * A [ladder] section adds, after those, the neighbour matches of a
 * strength ladder: for each variant, and each level but the first (the
 * agents its `levels` name, weakest first), the match of that level (A)
 * against the one below (B) in colour-swapped pairs, named
 * STUDY-VARIANT-A-vs-B, with seed mix(SEED, hash of its name): adding
 * levels or agents moves no other run's seed.
 *
 * study_load reads and checks the whole file (every key, every agent
 * spec, every weights file) before anything else happens; each run is
 * then a planned run (study/plans/planned.h): study_state says which are
 * done, unfinished or missing, refusing a stored run that another plan
 * made, and playing them is the caller's (planned_play). */
#ifndef YINSH_STUDY_H
#define YINSH_STUDY_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/play/run.h"
#include "study/plans/planned.h"

enum {
    STUDY_MAX_AGENTS = 64,
    STUDY_LABEL_LEN = 48,
    STUDY_MAX_COMPARE = 16,
};

/* A comparison declared in [report] compare, "A vs B": the two agents'
 * labels, their specs as stored (canonical) and the openings of their
 * self-play ("random:4"), [0] for A and [1] for B. */
typedef struct StudyCompare {
    char label[2][STUDY_LABEL_LEN];
    char spec[2][SPEC_LEN];
    char opening[2][32];
} StudyCompare;


typedef struct StudyRun {
    const char *kind;           /* "selfplay", or "match" (a ladder's) */
    char name[STORE_NAME_LEN];  /* STUDY-VARIANT-LABEL; a match's STUDY-VARIANT-A-vs-B */
    char label[STUDY_LABEL_LEN];
    char spec[SPEC_LEN];        /* the agent as written in the file (a match's A) */
    char spec_b[SPEC_LEN];      /* a match's B, as written */
    SelfplayPlan plan;          /* self-play: the agent on both sides; a match: white A, black B, pairs */
    int line;                   /* the line of the agent's spec (a match's: of [ladder] levels) */
} StudyRun;

typedef struct Study {
    char *path;          /* the file as named */
    char *name;          /* [study] name */
    char *db;            /* [study] db; NULL: not given (the caller's default) */
    uint64_t seed;       /* [study] seed: run k's seed is seed + k */
    bool visits;         /* [study] visits: every run stores its root visit distributions */
    char *report_out;    /* [report] out; default results/NAME */
    bool plots;          /* [report] plots */
    char *reference;     /* [report] reference: the report's reference evaluator; NULL: the default */
    int reference_line;  /* its line in the file */
    double margin;       /* [report] margin: the equivalence margin in points of White's score; 0: none */
    StudyCompare compare[STUDY_MAX_COMPARE]; /* [report] compare, in the order written */
    int ncompare;
    StudyRun *runs;      /* the self-play runs in the order of their seeds, then the ladder's; each
                          * plan holds its own references to its agents' nets */
    int nruns;
    int cap;             /* runs allocated (zeroed past those filled) */
    int nladder;         /* of them, the ladder's matches (the last nladder) */
} Study;

/* Reads and checks the study file. ERR_OK, ERR_USAGE with
 * "FILE:LINE: why" in err, or ERR_FAIL when the file cannot be read.
 * study_free frees what was read, whatever the outcome. */
int study_load(Study *s, const char *path, char *err);
void study_free(Study *s);

/* Every run of the study as a planned run (self-play, or a ladder's match) (runs: nruns
 * entries; command NULL, the caller's) with its state in the database o
 * names (planned_read). ERR_OK; ERR_EXISTS when one of its runs has a
 * study run's name but another plan (err names the file and line of the
 * agent); ERR_FAIL when the database cannot be read. */
int study_state(const Study *s, const PlannedOptions *o, Planned *runs, char *err);

/* A study's report folder holds a mark, the file .study with the name of
 * the study that wrote its report, so that a copy of a study file that
 * keeps another study's [report] out (only its name changed) is refused
 * before it plays, not left to write over the other study's report.
 * study_report_owner_check: ERR_OK when the folder has no mark (none yet,
 * or a report of `yinsh report`) or this study's; ERR_FAIL naming the
 * other study. study_report_owner_mark writes this study's mark after its
 * report: ERR_OK or ERR_FAIL. */
int study_report_owner_check(const Study *s, char *err);
int study_report_owner_mark(const Study *s, char *err);

#endif
