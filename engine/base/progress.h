/* The progress meter of long work, on stderr: "what done/total (pct),
 * rate/s, left Ns" plus a caller's tail. On a terminal one line redrawn a
 * few times a second; into a file or pipe a new line every 10 seconds.
 * Silent when quiet. progress_finish writes the last line ("took Ns"). */
#ifndef YINSH_PROGRESS_H
#define YINSH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct Progress {
    const char *what;
    uint64_t total;
    double start, last;
    bool quiet, shown, tty;
} Progress;

void progress_start(Progress *p, const char *what, uint64_t total, bool quiet);
void progress_update(Progress *p, uint64_t done, const char *tail);
void progress_finish(Progress *p, uint64_t done, const char *tail);

#endif
