/* Study files (`yinsh study FILE`, docs/study.md): a study is a small INI
 * file naming variants x agents x games, a seed, a database and the
 * report's options. It unfolds into self-play runs with stable names and
 * fixed seeds, so the same file always asks for the same games:
 *
 *   run k (k = 0, 1, ...: agents in file order, then variants in the
 *   order listed) is named STUDY-VARIANT-LABEL and has seed SEED + k
 *   (modulo 2^64).
 *
 * study_load reads and checks the whole file (every key, every agent
 * spec, every weights file) before anything else happens; study_state
 * then reads, never writes, the database and says which runs are done,
 * unfinished or missing, refusing a stored run that another plan made.
 * Playing the runs is the caller's business (selfplay/play/run.h). */
#ifndef YINSH_STUDY_H
#define YINSH_STUDY_H

#include <stdbool.h>
#include <stdint.h>
#include "play/run.h"

enum {
    STUDY_MAX_AGENTS = 64,
    STUDY_LABEL_LEN = 48,
};


typedef struct StudyRun {
    char name[STORE_NAME_LEN];  /* STUDY-VARIANT-LABEL */
    char label[STUDY_LABEL_LEN];
    char spec[SPEC_LEN];        /* the agent as written in the file */
    SelfplayPlan plan;          /* the agent on both sides; threads 0 */
    int line;                   /* the line of the agent's spec */
} StudyRun;

typedef enum { STUDY_MISSING, STUDY_UNFINISHED, STUDY_COMPLETE } StudyState;

typedef struct Study {
    char *path;          /* the file as named */
    char *name;          /* [study] name */
    char *db;            /* [study] db */
    uint64_t seed;       /* [study] seed: run k's seed is seed + k */
    char *report_out;    /* [report] out */
    bool plots;          /* [report] plots */
    StudyRun *runs;      /* in the order of their seeds */
    int nruns;
} Study;

/* Reads and checks the study file. ERR_OK, ERR_USAGE with
 * "FILE:LINE: why" in err, or ERR_FAIL when the file cannot be read.
 * study_free frees what was read, whatever the outcome. */
int study_load(Study *s, const char *path, char *err);
void study_free(Study *s);

/* Each run's state in the study's database (states: nruns entries); a
 * database that does not exist yet holds no run. ERR_OK, or ERR_FAIL
 * with a message: the database cannot be read, or one of its runs has a
 * study run's name but another plan (err names the file and line of the
 * agent). The database is opened for reading only, unless its schema is
 * older than this yinsh's: then it is upgraded in place first, as any
 * command that writes to it would. */
int study_state(const Study *s, StudyState *states, char *err);

#endif
