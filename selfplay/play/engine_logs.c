/* The folder external engines log into (engine_logs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "selfplay/play/engine_logs.h"
#include "engine/base/error.h"

/* The folder asked for: made when missing, a folder, writable. */
static int asked_folder(const char *logs, char *err)
{
    struct stat sb;
    if (stat(logs, &sb) != 0 && mkdir(logs, 0777) != 0 && errno != EEXIST)
        return error_set(err, "cannot make the engine log folder '%s': %s (nothing was played)", logs,
                         strerror(errno));
    if (stat(logs, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return error_set(err, "the engine log folder '%s' is not a folder (nothing was played)", logs);
    if (access(logs, W_OK | X_OK) != 0)
        return error_set(err, "cannot write in the engine log folder '%s': %s (nothing was played)", logs,
                         strerror(errno));
    return 0;
}

int engine_logs_prepare(const char *asked, const char *db, bool external, char *buf, size_t len, const char **logs,
                        bool *transcript, char *err)
{
    *logs = asked;
    if (!asked && external && db) {
        const char *slash = strrchr(db, '/');
        if (slash) snprintf(buf, len, "%.*s/engine-logs", (int)(slash - db), db);
        else snprintf(buf, len, "engine-logs");
        *logs = buf;
    }
    if (!*logs || !external) return 0;
    if (asked) {
        *transcript = true;
        return asked_folder(asked, err);
    }
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", *logs);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        mkdir(parent, 0777); /* results/, as run_open makes it; a failure shows below */
    }
    if (mkdir(*logs, 0777) != 0 && errno != EEXIST)
        return error_set(err, "cannot create the engine log folder '%s': %s", *logs, strerror(errno));
    return 0;
}
