#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"

/* fopencookie(3): the bytes written, 0 on an error, never a negative
 * count: glibc's fwrite of a block larger than the stream's buffer takes
 * a -1 as bytes to go on with and reads past the block (a report of over
 * 8 KB to /dev/full did under AddressSanitizer). The error is kept in
 * s->error for the message. */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
    FileStream *s = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(s->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (!s->error) s->error = errno;
            return (ssize_t)done;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* A seek is the descriptor's (a header written last, over its place). */
static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    FileStream *s = cookie;
    off_t at = lseek(s->fd, (off_t)*offset, whence);
    if (at < 0) return -1;
    *offset = at;
    return 0;
}

static int stream_close(void *cookie)
{
    FileStream *s = cookie;
    if (!s->owned || close(s->fd) == 0) return 0;
    if (!s->error) s->error = errno;
    return -1;
}

FILE *file_stream(FileStream *s)
{
    s->error = 0;
    return fopencookie(s, "w", (cookie_io_functions_t){.write = stream_write, .seek = stream_seek, .close = stream_close});
}

bool file_is_stdout(const char *path)
{
    struct stat a, b;
    if (!strcmp(path, "-")) return true;
    return fstat(STDOUT_FILENO, &b) == 0 && stat(path, &a) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* A FileOut on a descriptor of its own or not (standard output). */
static int out_stream(FileOut *o, int fd, bool owned, char *err)
{
    o->stream = (FileStream){.fd = fd, .owned = owned};
    if ((o->f = file_stream(&o->stream))) return 0;
    int why = errno;
    if (owned) close(fd);
    if (o->tmp[0]) remove(o->tmp);
    return error_set(err, "cannot write '%.200s': %s", o->path, strerror(why));
}

/* What a path that is not a regular file is, for a message. */
static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISSOCK(mode) ? "a socket" : S_ISFIFO(mode) ? "a FIFO" : "a device";
}

/* A path that is not a regular file is written in place: standard output
 * as it is, a FIFO or a device opened for writing (a FIFO waits for its
 * reader, as a shell's redirection does). A regular file, or one still to
 * be made, goes through the sibling beside the file replaced: the path,
 * or the file its link names (the link stays a link). The sibling is
 * PATH.PID.tmp, or PATH.PID-K.tmp for the first K that is not taken (a
 * file of a killed process with the same pid, another write of PATH in
 * this process); O_EXCL makes it new, 0666 less the umask its mode, as
 * fopen would give. */
/* How path is written: 1 streamed to standard output, 2 written through
 * in place, 0 staged beside target (the path, or the file its link
 * names); or -1 with why in err (nothing written yet). */
static int out_kind(const char *path, char *target, size_t len, char *err)
{
    struct stat sb, lb;
    if (snprintf(target, len, "%s", path) >= (int)len) return error_set(err, "the file name '%.200s' is too long", path);
    if (file_is_stdout(path)) return 1;
    bool exists = stat(path, &sb) == 0;
    if (!exists && lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode))
        return error_set(err, "cannot write '%.200s': it is a symbolic link to a file that does not exist", path);
    if (exists && (S_ISDIR(sb.st_mode) || S_ISSOCK(sb.st_mode)))
        return error_set(err, "cannot write '%.200s': it is %s", path, kind_of(sb.st_mode));
    if (exists && !S_ISREG(sb.st_mode)) return 2;
    if (exists && lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real) return error_set(err, "cannot write '%.200s': %s", path, strerror(errno));
        int n = snprintf(target, len, "%s", real);
        free(real);
        if (n >= (int)len) return error_set(err, "the file name '%.200s' is too long", path);
    }
    return 0;
}

int file_out_check(const char *path, char *err)
{
    char target[4096], name[NAME_MAX + 1];
    int kind = out_kind(path, target, sizeof target, err);
    if (kind) return kind < 0 ? kind : 1;
    char *dir = file_real_folder(target, name);
    int rc = 0;
    if (!dir) rc = error_set(err, "cannot write '%.200s': its folder does not exist", path);
    else if (access(dir, W_OK) != 0) rc = error_set(err, "cannot write '%.200s' in '%.200s': %s", path, dir, strerror(errno));
    free(dir);
    return rc;
}

int file_out_open(FileOut *o, const char *path, char *err)
{
    o->f = NULL;
    o->path = path;
    o->tmp[0] = '\0';
    int kind = out_kind(path, o->target, sizeof o->target, err);
    o->through = kind > 0;
    if (kind < 0) return kind;
    if (kind == 1) {
        fflush(stdout); /* what was printed before comes first */
        return out_stream(o, STDOUT_FILENO, false, err);
    }
    if (kind == 2) {
        struct stat sb;
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return error_set(err, "cannot write '%.200s' (%s): %s", path,
                             stat(path, &sb) == 0 ? kind_of(sb.st_mode) : "not a file", strerror(errno));
        return out_stream(o, fd, true, err);
    }
    long pid = (long)getpid();
    for (int k = 0; k < 1000; k++) {
        int n = k ? snprintf(o->tmp, sizeof o->tmp, "%s.%ld-%d.tmp", o->target, pid, k)
                  : snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", o->target, pid);
        if (n >= (int)sizeof o->tmp) {
            o->tmp[0] = '\0';
            return error_set(err, "the file name '%.200s' is too long", path);
        }
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) {
            o->tmp[0] = '\0';
            return error_set(err, "cannot write '%.200s': %s", path, strerror(errno));
        }
        return out_stream(o, fd, true, err);
    }
    o->tmp[0] = '\0';
    return error_set(err, "cannot write '%.200s': a thousand unfinished copies lie beside it", path);
}

int file_out_commit(FileOut *o, char *err)
{
    errno = 0;
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    ok = fclose(o->f) == 0 && ok;
    o->f = NULL;
    if (!ok || (!o->through && rename(o->tmp, o->target) != 0)) {
        int why = !ok && o->stream.error ? o->stream.error : errno ? errno : EIO;
        error_set(err, "cannot write '%.200s': %s", o->path, strerror(why));
        if (!o->through) remove(o->tmp);
        return -1;
    }
    return 0;
}

void file_out_abandon(FileOut *o)
{
    if (!o->f) return;
    fclose(o->f);
    o->f = NULL;
    if (!o->through) remove(o->tmp);
}

/* ---- path identity ------------------------------------------------------ */

char *file_real_folder(const char *path, char *name)
{
    char *real = realpath(path, NULL);
    if (real) {
        char *slash = strrchr(real, '/');
        snprintf(name, NAME_MAX + 1, "%s", slash + 1);
        if (slash == real) slash[1] = '\0';
        else *slash = '\0';
        return real;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(name, NAME_MAX + 1, "%s", slash ? slash + 1 : path);
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return realpath(dir, NULL);
}

bool file_place(const char *path, FilePlace *p)
{
    char *dir = file_real_folder(path, p->name);
    struct stat sb;
    bool ok = dir && stat(dir, &sb) == 0;
    if (ok) p->dev = sb.st_dev, p->ino = sb.st_ino;
    free(dir);
    return ok;
}

bool file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb) return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    FilePlace pa, pb;
    return file_place(a, &pa) && file_place(b, &pb) && pa.dev == pb.dev && pa.ino == pb.ino &&
           !strcmp(pa.name, pb.name);
}

int file_same_any(const char *path, const char *const *inputs, int n)
{
    for (int i = 0; i < n; i++)
        if (inputs[i] && file_same(path, inputs[i])) return i;
    return -1;
}

/* ---- reading a whole file, bounded ---------------------------------------- */

enum { READ_CHUNK = 1 << 16 };

int file_read_stream(FILE *f, const char *path, size_t max, unsigned flags, char **out, size_t *len, char *err)
{
    *out = NULL;
    if (len) *len = 0;
    /* the buffer holds max + 1 bytes at most (the one that says "more")
     * and the NUL after them */
    size_t limit = max < SIZE_MAX - 2 ? max + 2 : SIZE_MAX, cap = READ_CHUNK;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) return error_set(err, "%.200s: a directory, not a file", path);
        if (S_ISREG(sb.st_mode)) {
            if ((uintmax_t)sb.st_size > max)
                return error_code(err, ERR_USAGE, "%.200s: larger than its limit of %zu bytes", path, max);
            cap = (size_t)sb.st_size + 2; /* the whole file, and a read that finds its end */
        }
    }
    if (cap > limit) cap = limit;
    char *buf = malloc(cap);
    if (!buf) return error_set(err, "%.200s: out of memory", path);
    size_t n = 0;
    int rc = 0;
    errno = 0;
    while (n <= max) {
        if (n + 1 == cap) {
            size_t more = cap <= limit / 2 ? cap * 2 : limit;
            char *bigger = realloc(buf, more);
            if (!bigger) {
                rc = error_set(err, "%.200s: out of memory", path);
                break;
            }
            buf = bigger;
            cap = more;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        if (!got) break;
        const char *nul = flags & FILE_READ_TEXT ? memchr(buf + n, '\0', got) : NULL;
        if (nul) {
            rc = error_code(err, ERR_USAGE, "%.200s: not a text file (a NUL byte at offset %zu)", path,
                            (size_t)(nul - buf));
            break;
        }
        n += got;
    }
    if (!rc && ferror(f)) rc = error_set(err, "%.200s: cannot read: %s", path, strerror(errno ? errno : EIO));
    if (!rc && n > max) rc = error_code(err, ERR_USAGE, "%.200s: larger than its limit of %zu bytes", path, max);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    if (len) *len = n;
    return 0;
}

int file_read(const char *path, size_t max, unsigned flags, char **out, size_t *len, char *err)
{
    *out = NULL;
    if (len) *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_code(err, errno == ENOENT || errno == ENOTDIR ? ERR_NOT_FOUND : ERR_FAIL,
                          "%.200s: cannot open: %s", path, strerror(errno));
    int rc = file_read_stream(f, path, max, flags, out, len, err);
    fclose(f);
    return rc;
}

const char *file_read_reason(const char *err, const char *path)
{
    size_t k = 0; /* the path as the message cut it (not strnlen: gcc takes its bound for the buffer's size) */
    while (k < 200 && path[k]) k++;
    return !strncmp(err, path, k) && err[k] == ':' && err[k + 1] == ' ' ? err + k + 2 : err;
}
