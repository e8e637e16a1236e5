/* Drawing the pictures: the data files written (data.c), then each
 * gnuplot script of scripts/plots/ run on them in a child process. A
 * picture that cannot be drawn is a note in the report, not an error. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "engine/notation.h"
#include "study/report/report_internal.h"

extern char **environ;

/* Runs `gnuplot -e VARS SCRIPT` with its output appended to log; true when
 * it exited 0. *unstarted is set to why gnuplot could not be started at
 * all: the spawn's errno (ENOENT: it is not installed; ENOMEM, EAGAIN: no
 * room for it), or -1 when it exited 127 at once, the status of a program
 * whose libraries could not be loaded (for lack of memory, say). */
static bool run_gnuplot(const char *vars, const char *script, const char *log, int *unstarted)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addclose(&fa, 0);
    char *argv[] = {"gnuplot", "-e", (char *)vars, (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        *unstarted = rc;
        return false;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return false;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) *unstarted = -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* A gnuplot string literal: single quotes, a quote doubled. */
static void gp_quote(const char *s, char *out, size_t len)
{
    size_t at = 0;
    if (len < 3) return;
    out[at++] = '\'';
    for (; *s && at + 3 < len; s++) {
        if (*s == '\'') out[at++] = '\'';
        out[at++] = *s;
    }
    out[at++] = '\'';
    out[at] = '\0';
}

/* The variables a script reads besides dir and plots: its variants
 * ("standard blitz"), the variants whose ladder is rated (the axes
 * against Elo), and for the i-th of its variants (1, 2, ...) top<i>, the
 * pair its first-ring map is drawn for, and anchor<i>, its ladder's
 * anchor ("" without a ladder). */
static void script_vars(const ReportDataLists *lists, const char *list, char *out, size_t len)
{
    char words[sizeof lists->variants], q[2600];
    size_t at = strlen(out);
    snprintf(words, sizeof words, "%s", list);
    at += (size_t)snprintf(out + at, at < len ? len - at : 0, "; variants='%s'; ladder='%s'", list, lists->ladder);
    int i = 0;
    char *rest;
    for (char *w = strtok_r(words, " ", &rest); w && at < len; w = strtok_r(NULL, " ", &rest)) {
        int v;
        if (!variant_parse(w, &v)) continue;
        i++;
        gp_quote(lists->top[v], q, sizeof q);
        at += (size_t)snprintf(out + at, at < len ? len - at : 0, "; top%d=%s", i, q);
        gp_quote(lists->anchor[v], q, sizeof q);
        at += (size_t)snprintf(out + at, at < len ? len - at : 0, "; anchor%d=%s", i, q);
    }
}

int report_draw(const Report *rep, const char *dir, const char *plots_dir, ReportPictures *pics, char *err)
{
    ReportDataLists lists;
    *pics = (ReportPictures){0};
    if (report_write_data(rep, dir, &lists, err)) return -1;
    bool ladder = lists.ladder[0];

    if (!plots_dir) {
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: the gnuplot scripts (scripts/plots/) were not found; give --plots DIR.");
        return 0;
    }
    char log[4096], qdir[4200], qplots[4200], vars[20000], script[4096];
    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    unlink(log);
    gp_quote(dir, qdir, sizeof qdir);
    gp_quote(plots_dir, qplots, sizeof qplots);
    struct {
        const char *script, *variants;
        bool *drawn;
    } const PICTURES[] = {
        {"strength.gp", lists.strength, &pics->strength},
        {"score-elo.gp", lists.ladder, &pics->score_elo},
        {"draws-length-elo.gp", lists.ladder, &pics->draws_length_elo},
        {"lengths.gp", lists.variants, &pics->lengths},
        {"first-ring.gp", lists.variants, &pics->first_ring},
    };
    int unstarted = 0;
    char failed[256] = "";
    for (size_t i = 0; i < sizeof PICTURES / sizeof PICTURES[0] && !unstarted; i++) {
        if (!PICTURES[i].variants[0]) continue; /* nothing to draw */
        snprintf(vars, sizeof vars, "dir=%s; plots=%s; min_games=%d", qdir, qplots, REPORT_MIN_POINT_GAMES);
        script_vars(&lists, PICTURES[i].variants, vars, sizeof vars);
        snprintf(script, sizeof script, "%s/%s", plots_dir, PICTURES[i].script);
        *PICTURES[i].drawn = run_gnuplot(vars, script, log, &unstarted);
        if (!*PICTURES[i].drawn && !unstarted) {
            size_t at = strlen(failed);
            snprintf(failed + at, sizeof failed - at, "%s%s", at ? ", " : "", PICTURES[i].script);
        }
    }
    struct stat sb;
    if (stat(log, &sb) == 0 && sb.st_size == 0) unlink(log); /* gnuplot had nothing to say */
    if (unstarted) pics->strength = pics->lengths = pics->first_ring = pics->score_elo = pics->draws_length_elo = false;
    if (unstarted < 0) {
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: gnuplot could not start (it exited with status 127, as a program does whose "
                 "libraries cannot be loaded, for lack of memory say): its messages are in `gnuplot.log` beside "
                 "this report, and the data behind the pictures in the *.dat files.");
    } else if (unstarted && unstarted != ENOENT) {
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: gnuplot could not be started (%s). The data behind them is in the *.dat files "
                 "beside this report.", strerror(unstarted));
    } else if (unstarted) {
        snprintf(pics->note, sizeof pics->note,
                 "Pictures skipped: gnuplot is not installed (Debian: `apt-get install gnuplot-nox`, or "
                 "`bash scripts/setup.sh`). The data behind them is in the *.dat files beside this report.");
    } else if (failed[0]) {
        snprintf(pics->note, sizeof pics->note,
                 "Some pictures failed (%.100s): gnuplot's messages are in `gnuplot.log` beside this report.", failed);
    } else if (!ladder && !lists.strength[0]) {
        /* an agent against itself without simulations (ab) is a level, but no point of the axis */
        snprintf(pics->note, sizeof pics->note, "%s",
                 report_has_level(rep)
                     ? "The agents that played themselves here have no simulations per move (alpha-beta searches "
                       "by depth), so White's score against strength (MCTS simulations) is not drawn."
                     : "No agent played itself in this selection, so White's score against strength is not drawn.");
    }
    return 0;
}
