/* Folders a command writes into: which inputs the files it writes there
 * would overwrite, and folders written whole or not at all.
 *
 * A command writes its output into a staging folder inside the output
 * folder (mkdtemp of DIR/.PREFIX-XXXXXX) and moves it into DIR only when
 * all of it was written, so a failure (a full disk) leaves DIR as it was
 * (`yinsh report`, `yinsh view`, a study's report). */
#ifndef YINSH_FOLDER_H
#define YINSH_FOLDER_H

#include <stdbool.h>
#include <stddef.h>

/* The files a command writes into a folder by name, each replacing the
 * one there (a rename): `writes` says whether it writes a file of that
 * name into dir; `sub`, if not NULL, is a folder of dir replaced whole.
 * An input is overwritten when its real path (links resolved) is such a
 * file, or lies inside sub. */
typedef struct FolderWrites {
    const char *dir;
    bool (*writes)(const char *name, const void *ctx);
    const void *ctx;
    const char *sub;
} FolderWrites;

/* The index of the first of the n inputs (NULL ones skipped; one may not
 * exist yet: a database the command creates) that w overwrites, -1 when
 * none is. */
int folder_overwrites(const FolderWrites *w, const char *const *inputs, int n);

/* mkdir -p: 0, or -1 with errno (ENOTDIR when path is a file). */
int folder_make(const char *path);

/* Makes dir (and its parents) and a fresh stage inside it named
 * .PREFIX-XXXXXX into stage (len bytes): 0, or ERR_FAIL with the reason
 * in err (ERR_LEN bytes; stage left ""). */
int folder_stage_open(const char *dir, const char *prefix, char *stage, size_t len, char *err);
/* Moves every entry of the stage (but those whose names begin with '.')
 * into dir: a file by rename, each whole; a folder in place of dir's
 * folder of that name at once (the old one is left in the stage); `last`,
 * if not NULL, after all the others (an index after the pages it links).
 * With `owns` (ctx passed to it), the names are the command's: once all
 * is moved, each plain file of dir that owns names and the stage did not
 * hold (an earlier run's, which this one did not write again) is removed;
 * anything else in dir is left as it is. 0, or -1 with errno. */
int folder_stage_commit(const char *stage, const char *dir, const char *last,
                        bool (*owns)(const char *name, const void *ctx), const void *ctx);
/* Removes the stage with what is left in it. */
void folder_stage_remove(const char *stage);

#endif
