/* A file written whole or not at all: the text goes to a sibling of its
 * own (PATH.PID.tmp), which file_out_commit renames over PATH, so a reader
 * never sees a half-written file and a failed write leaves PATH as it was
 * (and no sibling behind). The sibling is created new: a file already
 * there (another writer's, one left by a killed process) is never
 * overwritten. Weights files, SPSA paths, rounds' CSVs and exported
 * records use it. */
#ifndef YINSH_FILE_H
#define YINSH_FILE_H

#include <stdio.h>

typedef struct FileOut {
    FILE *f; /* write here between open and commit; NULL after commit or abandon */
    const char *path;
    char tmp[4096];
} FileOut;

/* 0, or -1 with the reason in err (ERR_LEN bytes). */
int file_out_open(FileOut *o, const char *path, char *err);
/* Flushes, closes and renames the sibling over the path: 0, or -1 with
 * the reason in err (the sibling removed). */
int file_out_commit(FileOut *o, char *err);
/* Closes and removes the sibling, leaving the path as it was: for a write
 * that failed on the way. Nothing after a commit. */
void file_out_abandon(FileOut *o);

#endif
