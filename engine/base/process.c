#include <stdio.h>
#include <string.h>
#include "engine/base/process.h"

/* The text of /proc/PID/stat after the command name (field 2, which may
 * hold spaces and ends at the last ')'), in buf; NULL when there is none. */
static const char *stat_after_name(int64_t pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strrchr(buf, ')');
}

int64_t process_start(int64_t pid)
{
    char buf[1024];
    const char *p = stat_after_name(pid, buf, sizeof buf);
    if (!p) return -1;
    long long v = -1;
    /* count fields after the name's ')' */
    for (int field = 2; field < 22 && p; field++) p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%lld", &v) != 1) return -1;
    return v;
}

bool process_ended(int64_t pid)
{
    char buf[512];
    const char *p = stat_after_name(pid, buf, sizeof buf);
    return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}
