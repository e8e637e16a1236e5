#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "base/error.h"
#include "base/file.h"

int file_out_open(FileOut *o, const char *path, char *err)
{
    o->f = NULL;
    o->path = path;
    if (snprintf(o->tmp, sizeof o->tmp, "%s.tmp", path) >= (int)sizeof o->tmp)
        return error_set(err, "the file name '%.200s' is too long", path);
    o->f = fopen(o->tmp, "w");
    if (!o->f) return error_set(err, "cannot write '%.200s': %s", o->tmp, strerror(errno));
    return 0;
}

int file_out_commit(FileOut *o, char *err)
{
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    ok = fclose(o->f) == 0 && ok;
    o->f = NULL;
    if (!ok || rename(o->tmp, o->path) != 0) {
        error_set(err, "cannot write '%.200s': %s", o->path, strerror(errno));
        remove(o->tmp);
        return -1;
    }
    return 0;
}
