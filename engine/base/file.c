#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "base/error.h"
#include "base/file.h"

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
        if (!(o->f = fdopen(fd, "w"))) {
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
        error_set(err, "cannot write '%.200s': %s", o->path, strerror(errno ? errno : EIO));
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
