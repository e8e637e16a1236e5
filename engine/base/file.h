/* A file written whole or not at all: the text goes to a sibling of its
 * own (PATH.PID.tmp), which file_out_commit renames over PATH, so a reader
 * never sees a half-written file and a failed write leaves PATH as it was
 * (and no sibling behind). The sibling is created new: a file already
 * there (another writer's, one left by a killed process) is never
 * overwritten. Weights files, SPSA paths, rounds' CSVs and exported
 * records use it. */
#ifndef YINSH_FILE_H
#define YINSH_FILE_H

#include <stdbool.h>
#include <stdio.h>

/* A stream on a file descriptor that keeps why its first write failed.
 * A failed write is noticed late (at a flush, at a commit, at the end of
 * main), when other calls have long changed errno, and strerror(errno)
 * then gives another call's reason ("Is a directory" for a full disk).
 * The stream's writes are whole (a short write is continued, EINTR
 * retried); error is the errno of the first one that failed. */
typedef struct FileStream {
    int fd;
    bool owned; /* the descriptor is closed with the stream */
    int error;  /* 0 while every write succeeded */
} FileStream;
/* The stream of s (which must not move while it is open), fully
 * buffered; NULL when out of memory. */
FILE *file_stream(FileStream *s);

typedef struct FileOut {
    FILE *f; /* write here between open and commit; NULL after commit or abandon */
    const char *path;
    char tmp[4096];
    FileStream stream; /* f's descriptor and its first error: a FileOut does not move while open */
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
