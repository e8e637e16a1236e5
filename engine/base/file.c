#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"

static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
    FileStream *s = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(s->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (!s->error) s->error = errno;
            return done ? (ssize_t)done : -1;
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

/* The sibling is PATH.PID.tmp, or PATH.PID-K.tmp for the first K that is
 * not taken (a file of a killed process with the same pid, another write
 * of PATH in this process); O_EXCL makes it new, 0666 less the umask its
 * mode, as fopen would give. */
int file_out_open(FileOut *o, const char *path, char *err)
{
    o->f = NULL;
    o->path = path;
    long pid = (long)getpid();
    for (int k = 0; k < 1000; k++) {
        int n = k ? snprintf(o->tmp, sizeof o->tmp, "%s.%ld-%d.tmp", path, pid, k)
                  : snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", path, pid);
        if (n >= (int)sizeof o->tmp) return error_set(err, "the file name '%.200s' is too long", path);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0) return error_set(err, "cannot write '%.200s': %s", path, strerror(errno));
        o->stream = (FileStream){.fd = fd, .owned = true};
        if (!(o->f = file_stream(&o->stream))) {
            int why = errno;
            close(fd);
            remove(o->tmp);
            return error_set(err, "cannot write '%.200s': %s", path, strerror(why));
        }
        return 0;
    }
    return error_set(err, "cannot write '%.200s': a thousand unfinished copies lie beside it", path);
}

int file_out_commit(FileOut *o, char *err)
{
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    ok = fclose(o->f) == 0 && ok;
    o->f = NULL;
    if (!ok || rename(o->tmp, o->path) != 0) {
        int why = !ok && o->stream.error ? o->stream.error : errno ? errno : EIO;
        error_set(err, "cannot write '%.200s': %s", o->path, strerror(why));
        remove(o->tmp);
        return -1;
    }
    return 0;
}

void file_out_abandon(FileOut *o)
{
    if (!o->f) return;
    fclose(o->f);
    o->f = NULL;
    remove(o->tmp);
}
