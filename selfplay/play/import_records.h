/* yinsh import's work: games played elsewhere into the database.
 * boardspace.net's SGF records, one run of kind "import" a file
 * (run_import, run.h; docs/boardspace.md), and the compact form of a
 * study's games (selfplay/records/games.h), read and checked into a
 * database of its own, then merged in one transaction or not at all
 * (store_merge). The command line (cli/cmd_import.c) checks its options
 * and prints what was imported. */
#ifndef YINSH_IMPORT_RECORDS_H
#define YINSH_IMPORT_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/records/games.h"
#include "selfplay/store/store.h"
#include "engine/base/error.h"

enum { IMPORT_MAX_BYTES = 4 << 20 };

/* One boardspace.net record imported: its run and what it holds. */
typedef struct ImportedGame {
    char run[STORE_NAME_LEN];
    char white[SPEC_LEN], black[SPEC_LEN]; /* the players' names on the site */
    int nactions, result, reason;
} ImportedGame;

/* Stores the record file at path (at most IMPORT_MAX_BYTES) as a run of
 * its own: named import- and the game's name on the site (else the
 * file's name), its players boardspace:NAME, and as its command `command`
 * (the command line that read it) with the site, date and game after a
 * shell comment. 0, or a code with why in err (ERR_REPEAT: the database
 * holds the game already and repeat is not set). */
int import_boardspace(Store *store, const char *path, const char *command, bool repeat, ImportedGame *out, char *err);

/* What a compact file brought: its totals, and the runs merged. Free
 * runs with free. */
typedef struct ImportedRuns {
    GamesTotals totals;
    StoreMergeRun *runs;
    int nruns;
} ImportedRuns;

/* Where import_games failed: the temporary database could not be made,
 * the file was refused, or the merge was. */
enum { IMPORT_FAILED_TMP = 1, IMPORT_FAILED_READ, IMPORT_FAILED_MERGE };

/* Imports the compact form in file ("-": standard input) into db:
 * read and checked into a temporary database first (in TMPDIR, else
 * /tmp), then merged. 0, or a code with why in err and nothing written
 * (a database made here removed), and where it failed in *failed
 * (IMPORT_FAILED_*). */
int import_games(const char *file, const char *db, ImportedRuns *out, int *failed, char *err);

#endif
