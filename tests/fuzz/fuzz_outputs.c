/* libFuzzer target for output paths (engine/base/file.h): a file written
 * whole or not at all, and what is not a regular file never replaced by
 * one. The first byte picks what the path is (a file, nothing, a link to
 * a file, a link to nothing, a folder, a link to a folder, a FIFO with a
 * reader, the null device), the second whether the write is committed or
 * abandoned, the rest is the data. After each: a committed file holds the
 * data, an abandoned one what it held, a link is still a link, the FIFO
 * and the device are what they were, and no sibling is left behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"

static char dir[64];

static void path_of(const char *name, char *out) { snprintf(out, 128, "%s/%s", dir, name); }

static void clear(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (remove(p) != 0) abort();
    }
    if (d) closedir(d);
}

/* The folder holds nothing but names of the test (no *.tmp). */
static void no_sibling(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".tmp")) abort();
    if (d) closedir(d);
}

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return (size_t)-1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

static void remove_dir(void)
{
    clear();
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/yinsh-fuzz-outputs-%ld", (long)getpid());
        if (mkdir(dir, 0700) != 0) abort();
        atexit(remove_dir);
    }
    if (size < 2) return 0;
    int kind = data[0] % 8;
    bool commit = data[1] & 1;
    const char *bytes = (const char *)data + 2;
    size_t n = size - 2;
    char out[128], target[128], sub[128], got[8192], err[ERR_LEN];
    clear();
    path_of("out", out);
    path_of("target", target);
    path_of("sub", sub);
    int reader = -1;
    const char *path = out;
    switch (kind) {
    case 0: put(out, "old"); break;
    case 1: break;
    case 2: put(target, "old"); if (symlink("target", out)) abort(); break;
    case 3: if (symlink("missing/none", out)) abort(); break;
    case 4: if (mkdir(out, 0700)) abort(); break;
    case 5: if (mkdir(sub, 0700) || symlink("sub", out)) abort(); break;
    case 6:
        if (mkfifo(out, 0600)) abort();
        if ((reader = open(out, O_RDONLY | O_NONBLOCK)) < 0) abort();
        break;
    default: path = "/dev/null"; break;
    }
    int check = file_out_check(path, err);
    FileOut o;
    int rc = file_out_open(&o, path, err);
    if ((rc < 0) != (check < 0)) abort(); /* the check says what the open finds */
    if (rc == 0 && (check == 1) != o.through) abort();
    bool refused = kind == 3 || kind == 4 || kind == 5;
    if (refused != (rc < 0)) abort();
    if (rc == 0) {
        if (fwrite(bytes, 1, n, o.f) != n) abort();
        if (commit) {
            if (file_out_commit(&o, err)) abort();
        } else {
            file_out_abandon(&o);
        }
    }
    struct stat sb, lb;
    size_t len;
    switch (kind) {
    case 0:
    case 1:
        len = slurp(out, got, sizeof got);
        if (commit ? len != n || memcmp(got, bytes, n) : kind == 0 ? len != 3 || memcmp(got, "old", 3)
                                                                   : len != (size_t)-1)
            abort();
        break;
    case 2:
        if (lstat(out, &lb) || !S_ISLNK(lb.st_mode)) abort();
        len = slurp(target, got, sizeof got);
        if (commit ? len != n || memcmp(got, bytes, n) : len != 3 || memcmp(got, "old", 3)) abort();
        break;
    case 3:
    case 5:
        if (lstat(out, &lb) || !S_ISLNK(lb.st_mode)) abort();
        break;
    case 4:
        if (stat(out, &sb) || !S_ISDIR(sb.st_mode)) abort();
        break;
    case 6:
        if (stat(out, &sb) || !S_ISFIFO(sb.st_mode)) abort();
        len = (size_t)read(reader, got, sizeof got);
        if (n ? len != n || memcmp(got, bytes, n) : (len != 0 && len != (size_t)-1)) abort();
        close(reader);
        break;
    default:
        if (stat("/dev/null", &sb) || !S_ISCHR(sb.st_mode)) abort();
        break;
    }
    no_sibling();
    return 0;
}
