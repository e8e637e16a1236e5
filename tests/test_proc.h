/* Helpers for the tests that run the yinsh binary and make databases in
 * temporary folders (test_match, test_tune): one folder per test, so
 * Criterion may run them in parallel; folders and allocations go at exit. */
#ifndef YINSH_TEST_PROC_H
#define YINSH_TEST_PROC_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void *proc_garbage[1024];
static int proc_ngarbage;
static char *proc_dirs[64];
static int proc_ndirs;

static int proc_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void proc_cleanup(void)
{
    while (proc_ndirs) nftw(proc_dirs[--proc_ndirs], proc_remove, 16, FTW_DEPTH | FTW_PHYS);
    while (proc_ngarbage) free(proc_garbage[--proc_ngarbage]);
}

static void *gc(void *p)
{
    if (proc_ngarbage == 0 && proc_ndirs == 0) atexit(proc_cleanup);
    cr_assert(proc_ngarbage < 1024);
    proc_garbage[proc_ngarbage++] = p;
    return p;
}

static char *tmpdir_new(void)
{
    char *d = gc(strdup("/tmp/yinsh-test-XXXXXX"));
    cr_assert(mkdtemp(d), "mkdtemp");
    cr_assert(proc_ndirs < 64);
    proc_dirs[proc_ndirs++] = d;
    return d;
}

static char *path_in(const char *dir, const char *name)
{
    char *p = gc(malloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return gc(strdup(""));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = gc(malloc((size_t)n + 1));
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* Runs `yinsh ARGS...` (NULL-terminated) in dir to the end; *out and *err
 * (if not NULL) receive its output. Returns the exit status. */
static int yinsh_run(const char *dir, const char *const *args, char **out, char **err)
{
    char *o = path_in(dir, "out"), *e = path_in(dir, "err");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(dir) != 0) _exit(126);
        const char *argv[64];
        int n = 0;
        argv[n++] = YINSH_BIN;
        for (int i = 0; args[i]; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(YINSH_BIN, (char **)argv);
        _exit(127);
    }
    int st;
    cr_assert(waitpid(pid, &st, 0) == pid);
    if (out) *out = slurp(o);
    if (err) *err = slurp(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The output without its first line that names the run (it differs
 * between runs that are otherwise the same). */
__attribute__((unused)) static const char *after_line(const char *s, const char *prefix)
{
    const char *p = strstr(s, prefix);
    if (!p) return s;
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : s;
}

#endif
