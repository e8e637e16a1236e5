#define _GNU_SOURCE /* renameat2, nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/folder.h"

static bool same_folder(const char *a, const struct stat *b)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == b->st_dev && sa.st_ino == b->st_ino;
}

/* Cuts path (a real path) at its last '/', leaving the folder above it
 * ("/" for a file in the root); false when nothing is above. */
static bool up(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash || !strcmp(path, "/")) return false;
    if (slash == path) slash[1] = '\0';
    else *slash = '\0';
    return true;
}

/* Whether the input at path (which may not exist yet: a database the
 * command creates) is among what w overwrites: it is, or would be, a
 * file w writes into w->dir, or lies inside w->dir/w->sub. */
static bool overwritten(const FolderWrites *w, const char *path)
{
    struct stat dir, sub;
    FilePlace at;
    char subpath[4200];
    if (stat(w->dir, &dir) != 0 || !file_place(path, &at)) return false;
    if (at.dev == dir.st_dev && at.ino == dir.st_ino && w->writes && w->writes(at.name, w->ctx)) return true;
    if (!w->sub) return false;
    snprintf(subpath, sizeof subpath, "%s/%s", w->dir, w->sub);
    if (stat(subpath, &sub) != 0 || !S_ISDIR(sub.st_mode)) return false;
    /* the folder the file is or would be in, and every folder above it */
    char *real = file_real_folder(path, at.name);
    bool hit = false;
    while (real && !hit) {
        hit = same_folder(real, &sub);
        if (!up(real)) break;
    }
    free(real);
    return hit;
}

int folder_overwrites(const FolderWrites *w, const char *const *inputs, int n)
{
    for (int i = 0; i < n; i++)
        if (inputs[i] && overwritten(w, inputs[i])) return i;
    return -1;
}

int folder_make(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    struct stat sb;
    if (stat(buf, &sb) != 0) return -1;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* A folder of the stage takes the place of dir's folder of that name at
 * once: exchanged with it (the old one lands in the stage, which goes
 * later), or, where the file system cannot exchange, moved aside first
 * and moved back if the new one cannot follow. */
static int stage_folder(const char *from, const char *to, const char *aside)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE) == 0) return 0;
    if (errno == ENOENT) return rename(from, to);
    if (errno != EINVAL && errno != ENOSYS) return -1;
    if (rename(to, aside) != 0) return -1;
    if (rename(from, to) == 0) return 0;
    int e = errno;
    rename(aside, to);
    errno = e;
    return -1;
}

static int stage_move(const char *stage, const char *dir, const char *name)
{
    char from[8400], to[8400], aside[8400];
    struct stat sb;
    snprintf(from, sizeof from, "%s/%s", stage, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    snprintf(aside, sizeof aside, "%s/.old-%s", stage, name);
    if (lstat(from, &sb) != 0) return -1;
    return S_ISDIR(sb.st_mode) ? stage_folder(from, to, aside) : rename(from, to);
}

int folder_stage_open(const char *dir, const char *prefix, char *stage, size_t len, char *err)
{
    stage[0] = '\0';
    if (folder_make(dir) != 0) return error_set(err, "cannot create the directory '%s': %s", dir, strerror(errno));
    snprintf(stage, len, "%s/.%s-XXXXXX", dir, prefix);
    if (!mkdtemp(stage)) {
        int e = errno;
        stage[0] = '\0';
        return error_set(err, "cannot write in '%s': %s", dir, strerror(e));
    }
    return 0;
}

/* The names of dir's plain files that owns names and the stage does not
 * hold, as one allocation of NUL-separated names ended by an empty one;
 * NULL when out of memory or dir cannot be read. */
static char *stale_files(const char *stage, const char *dir, bool (*owns)(const char *, const void *),
                         const void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char *list = NULL, path[8400];
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    struct dirent *e;
    struct stat sb;
    while (f && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !owns(e->d_name, ctx)) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        snprintf(path, sizeof path, "%s/%s", stage, e->d_name);
        if (lstat(path, &sb) == 0 || errno != ENOENT) continue;
        fwrite(e->d_name, 1, strlen(e->d_name) + 1, f);
    }
    closedir(d);
    if (f) {
        fputc('\0', f);
        if (fclose(f) != 0) {
            free(list);
            list = NULL;
        }
    }
    return list;
}

int folder_stage_commit(const char *stage, const char *dir, const char *last,
                        bool (*owns)(const char *name, const void *ctx), const void *ctx)
{
    char *stale = owns ? stale_files(stage, dir, owns, ctx) : NULL;
    DIR *d = opendir(stage);
    if (!d) {
        free(stale);
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.' || (last && !strcmp(e->d_name, last))) continue;
        rc = stage_move(stage, dir, e->d_name);
    }
    closedir(d);
    if (!rc && last) rc = stage_move(stage, dir, last);
    char path[8400];
    for (const char *name = stale; !rc && name && *name; name += strlen(name) + 1) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        unlink(path);
    }
    free(stale);
    return rc;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void folder_stage_remove(const char *stage)
{
    nftw(stage, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
