/* Files written whole or not at all, and which file a path names.
 *
 * A FileOut writes a regular file through a sibling of its own
 * (PATH.PID.tmp), which file_out_commit renames over PATH, so a reader
 * never sees a half-written file and a failed write leaves PATH as it was
 * (and no sibling behind). The sibling is created new: a file already
 * there (another writer's, one left by a killed process) is never
 * overwritten. A path that is not a regular file is never replaced by
 * one: a symbolic link is followed (the file it names is the one
 * replaced, beside it, and the link stays), a device or a FIFO is written
 * in place (through: nothing staged, nothing to undo), and "-" or a path
 * that names this process's standard output (/dev/stdout) streams there.
 * Weights files, nets, SPSA paths, rounds' CSVs, exported records and
 * positions use it.
 *
 * Path identity: whether two spellings name one file (by device and
 * inode, or by where a file still to be made would be), so that no
 * output is also an input (for the files written into a folder:
 * base/folder.h).
 *
 * Files read whole, bounded: one reader with one set of rules for every
 * file the project reads whole (study files, engines files, books,
 * records, nets). */
#ifndef YINSH_FILE_H
#define YINSH_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

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
    const char *path;   /* as given, for messages */
    char target[4096];  /* the file replaced: path, or the file its link names */
    char tmp[4096];     /* the sibling ("" when written through) */
    bool through;       /* written in place (a device, a FIFO, standard output): no seek back, no undo */
    FileStream stream;  /* f's descriptor and its first error: a FileOut does not move while open */
} FileOut;

/* 0, or -1 with the reason in err (ERR_LEN bytes): a directory, a socket,
 * a link to nothing, a folder that cannot be written. */
int file_out_open(FileOut *o, const char *path, char *err);
/* What file_out_open checks before it writes anything, without writing
 * (or opening a FIFO): for a command that checks its outputs before any
 * work. 0 for a file written whole (staged), 1 for one written through
 * (standard output, a FIFO, a device: no seek back), or -1 with the
 * reason in err. */
int file_out_check(const char *path, char *err);
/* Flushes, closes and renames the sibling over the target: 0, or -1 with
 * the reason in err (the sibling removed). Written through: flushed and
 * closed. */
int file_out_commit(FileOut *o, char *err);
/* Closes and removes the sibling, leaving the path as it was: for a write
 * that failed on the way (what went through is gone). Nothing after a
 * commit. */
void file_out_abandon(FileOut *o);

/* Whether path is "-" or names the file this process's standard output
 * is (/dev/stdout, /proc/self/fd/1): a FileOut then streams there. */
bool file_is_stdout(const char *path);

/* Where a path is or would be: its real folder's device and inode (links
 * resolved), and its name there, so that two spellings of one file meet.
 * False when that folder does not exist. */
typedef struct FilePlace {
    dev_t dev;
    ino_t ino;
    char name[NAME_MAX + 1];
} FilePlace;
bool file_place(const char *path, FilePlace *p);
/* The real path of the folder a path is in, or would be in (a file still
 * to be made), links resolved, and its name there (NAME_MAX + 1 bytes).
 * malloc'ed; NULL when that folder does not exist. */
char *file_real_folder(const char *path, char *name);
/* Whether two paths are one file: by device and inode where both exist
 * (hard links and links too), else by where they would be. */
bool file_same(const char *a, const char *b);
/* The index of the first of the n inputs (NULL ones skipped) that is the
 * same file as path (file_same), -1 when none is: an output that is also
 * an input. */
int file_same_any(const char *path, const char *const *inputs, int n);

/* ---- reading a whole file, bounded ---------------------------------------
 *
 * The rules, the same for every caller:
 *   - a path that cannot be opened: ERR_NOT_FOUND when it does not exist
 *     (ENOENT, ENOTDIR), else ERR_FAIL; "PATH: cannot open: REASON";
 *   - a directory is refused: ERR_FAIL, "PATH: a directory, not a file";
 *   - a regular file over max bytes is refused by its size, before a byte
 *     is read; anything else (a FIFO, a device, standard input) is read up
 *     to max bytes and refused at the next one, never read without end
 *     (/dev/zero): ERR_USAGE, "PATH: larger than its limit of MAX bytes";
 *   - with FILE_READ_TEXT a NUL byte is refused as soon as it is read (a
 *     text must not hold one; a net file, binary, may): ERR_USAGE,
 *     "PATH: not a text file (a NUL byte at offset N)";
 *   - a read that fails: ERR_FAIL, "PATH: cannot read: REASON"; memory
 *     that runs out: ERR_FAIL, "PATH: out of memory".
 * Every message is "PATH: REASON" (the path cut to 200 bytes), so that a
 * caller that names the file its own way takes the REASON alone
 * (file_read_reason). On success *out is the contents, malloc'ed, with a
 * NUL after its *len bytes; on failure *out is NULL. */
enum { FILE_READ_TEXT = 1 };
int file_read(const char *path, size_t max, unsigned flags, char **out, size_t *len, char *err);
/* The same on an open stream (standard input: path "-" or any name for
 * messages); f stays open. */
int file_read_stream(FILE *f, const char *path, size_t max, unsigned flags, char **out, size_t *len, char *err);
/* The REASON of a file_read message about path: err past its "PATH: ". */
const char *file_read_reason(const char *err, const char *path);

#endif
