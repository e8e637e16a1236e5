#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

const Command *cli_find(const char *name);

static void print_usage(FILE *f, const char *cmd)
{
    const Command *c = cli_find(cmd);
    if (c) fprintf(f, "%s", c->usage);
}

static void vmessage(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "yinsh %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    print_usage(stderr, cmd);
    return EXIT_USAGE;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(cmd, fmt, ap);
    va_end(ap);
    return 1;
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) break;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    }
    return false;
}

int cli_help(const char *cmd)
{
    print_usage(stdout, cmd);
    return 0;
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

bool cli_parse_int(const char *s, long min, long max, long *out)
{
    if (!s || !*s || *s == ' ') return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

bool cli_opt_int(const char *cmd, const char *opt, const char *arg, long min, long max, long *out)
{
    if (cli_parse_int(arg, min, max, out)) return true;
    cli_usage_error(cmd, "%s wants a number from %ld to %ld, not '%s'", opt, min, max, arg);
    return false;
}

bool cli_opt_u64(const char *cmd, const char *opt, const char *arg, uint64_t *out)
{
    if (cli_parse_u64(arg, out)) return true;
    cli_usage_error(cmd, "%s wants an unsigned 64-bit number, not '%s'", opt, arg);
    return false;
}

char *cli_join_args(int argc, char **argv)
{
    size_t len = 6;
    for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
    char *s = malloc(len + 1);
    if (!s) return NULL;
    strcpy(s, "yinsh");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void progress_start(Progress *p, const char *what, uint64_t total, bool quiet)
{
    p->what = what;
    p->total = total;
    p->start = p->last = cli_now();
    p->quiet = quiet;
    p->shown = false;
    p->tty = isatty(STDERR_FILENO);
}

static void progress_print(Progress *p, uint64_t done, const char *tail, bool final)
{
    double t = cli_now(), el = t - p->start;
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
    if (cli_now() - p->last < (p->tty ? 0.25 : 10.0)) return;
    progress_print(p, done, tail, false);
}

void progress_finish(Progress *p, uint64_t done, const char *tail)
{
    if (p->quiet) return;
    progress_print(p, done, tail, true);
}
