/* yinsh export's work: stored games written out as game records with tags
 * (docs/records.md), as boardspace.net's SGF (docs/boardspace.md), or as
 * the compact form of a study's games (selfplay/records/games.h), to one
 * stream, to a file written whole or not at all, or to a folder with one
 * file a game. The command line (cli/cmd_export.c) checks the paths and
 * prints what was written. */
#ifndef YINSH_STORE_EXPORT_H
#define YINSH_STORE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { EXPORT_RECORDS, EXPORT_BOARDSPACE, EXPORT_GAMES } ExportFormat;

/* "records", "boardspace" or "games": true with *f set. */
bool export_format_parse(const char *text, ExportFormat *f);

/* Whether a folder that export writes in the format *(const ExportFormat
 * *)ctx (records or boardspace) may hold a file of this name (RUN-INDEX.rec
 * or .sgf): the files it replaces (engine/base/folder.h, FolderWrites). */
bool export_writes(const char *name, const void *ctx);

typedef struct ExportRequest {
    const char *db;
    const char *const *runs; /* the runs (nruns; none: every run); records and boardspace take one */
    int nruns;
    long game;               /* >= 0: only this game of runs[0] (records, boardspace) */
    ExportFormat format;
    const char *dir;         /* non-NULL: a file per game in this folder, made when missing */
    const char *out;         /* without dir: a file written whole or not at all; NULL: to `stream` */
    FILE *stream;            /* without dir and out: where the records go (standard output) */
} ExportRequest;

typedef struct ExportResult {
    uint64_t runs;  /* runs written (games) */
    uint64_t games; /* games (records) written */
} ExportResult;

/* Writes the selection. 0; ERR_NOT_FOUND when it holds no game (games:
 * no run), saying so, with nothing written (a file out is left as it
 * was); else another code, with a message in err (ERR_LEN bytes). */
int store_export(const ExportRequest *q, ExportResult *res, char *err);

#endif
