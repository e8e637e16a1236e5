/* The progress meter of long work (progress.h). */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include "engine/base/progress.h"
#include "engine/base/clock.h"

void progress_start(Progress *p, const char *what, uint64_t total, bool quiet)
{
    p->what = what;
    p->total = total;
    p->start = p->last = clock_now();
    p->quiet = quiet;
    p->shown = false;
    p->tty = isatty(STDERR_FILENO);
}

static void progress_print(Progress *p, uint64_t done, const char *tail, bool final)
{
    double t = clock_now(), el = t - p->start;
    double rate = el > 0 ? done / el : 0;
    double left = rate > 0 && p->total > done ? (p->total - done) / rate : 0;
    fprintf(stderr, "%s%s %" PRIu64 "/%" PRIu64 " (%.0f%%), %.1f/s, %s %.0fs%s%s%s%s", p->tty ? "\r" : "", p->what,
            done, p->total, p->total ? 100.0 * done / p->total : 100.0, rate, final ? "took" : "left",
            final ? el : left, tail && *tail ? ", " : "", tail ? tail : "", p->tty ? "\033[K" : "",
            final || !p->tty ? "\n" : "");
    fflush(stderr);
    p->shown = true;
    p->last = t;
}

void progress_update(Progress *p, uint64_t done, const char *tail)
{
    if (p->quiet) return;
    if (clock_now() - p->last < (p->tty ? 0.25 : 10.0)) return;
    progress_print(p, done, tail, false);
}

void progress_finish(Progress *p, uint64_t done, const char *tail)
{
    if (p->quiet) return;
    progress_print(p, done, tail, true);
}
