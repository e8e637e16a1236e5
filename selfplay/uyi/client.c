#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/clock.h"
#include "engine/types.h"
#include "selfplay/uyi/client.h"

/* A process seen in /proc: its id and its start time (clock ticks since
 * boot), which tells it from a later process given the same id. */
typedef struct Kin {
    pid_t pid;
    unsigned long long start;
} Kin;

enum { CLIENT_KIN = 64 }; /* descendants remembered at most */

struct UyiClient {
    pid_t pid;    /* the child, leader of its own process group */
    int in;       /* our end of the engine's standard input (a socket: MSG_NOSIGNAL) */
    int out;      /* our end of its standard output: its own socket, so that closing it reads as an end */
    int err;      /* the read end of its standard error (non-blocking); -1 without a log */
    int log;      /* the log file; -1 without one */
    size_t logged; /* bytes of the engine's standard error written to the log */
    bool cut;     /* the log reached UYI_CLIENT_LOG_MAX: the rest is dropped */
    bool exited;  /* the child has exited (seen by waitid, not reaped yet) */
    int talk;     /* the transcript file; -1 without one */
    size_t talked; /* bytes written to the transcript */
    double t0;    /* clock_now() at the start, for the transcript's times */
    int nkin;
    Kin kin[CLIENT_KIN]; /* the engine's descendants seen so far (uyi_client_watch) */
    char buf[UYI_CLIENT_LINE + 1];
    size_t have;  /* bytes in buf */
    size_t taken; /* bytes of buf handed out as the last line (with its '\n') */
    char line[UYI_CLIENT_LINE + 1];
};

/* Splits a command line into words as a shell does with quotes: words
 * are separated by spaces and tabs; '...' keeps everything, "..." keeps
 * all but \" and \\, a \ outside quotes keeps the next character. No
 * pipes, redirections or variables: the engine is exec'ed itself, so that
 * PR_SET_PDEATHSIG reaches it (a shell would fork it and die alone).
 * The words live in buf (strlen(cmd) + 1 bytes); NULL-terminated argv. */
static int split_words(const char *cmd, char *buf, char **argv, int max, char *err)
{
    int n = 0;
    const char *s = cmd;
    char *o = buf;
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) break;
        if (n == max - 1) {
            return error_code(err, ERR_USAGE, "the engine's command has more than %d words", max - 1);
        }
        argv[n++] = o;
        while (*s && *s != ' ' && *s != '\t') {
            if (*s == '\'') {
                const char *e = strchr(s + 1, '\'');
                if (!e) goto unclosed;
                memcpy(o, s + 1, (size_t)(e - s - 1));
                o += e - s - 1;
                s = e + 1;
            } else if (*s == '"') {
                for (s++; *s && *s != '"'; s++) {
                    if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) s++;
                    *o++ = *s;
                }
                if (!*s) goto unclosed;
                s++;
            } else {
                if (*s == '\\' && s[1]) s++;
                *o++ = *s++;
            }
        }
        *o++ = '\0';
    }
    argv[n] = NULL;
    if (!n) {
        return error_code(err, ERR_USAGE, "the engine's command is empty");
    }
    return 0;
unclosed:
    return error_code(err, ERR_USAGE, "the engine's command has an unclosed quote: %.200s", cmd);
}

enum { CLIENT_MAX_WORDS = 64 };

int uyi_client_check_command(const char *cmd, char *err)
{
    char *words = malloc(strlen(cmd) + 1), *argv[CLIENT_MAX_WORDS];
    if (!words) return error_set(err, "out of memory");
    int rc = split_words(cmd, words, argv, CLIENT_MAX_WORDS, err);
    free(words);
    return rc;
}

/* ---- the log: the engine's standard error, bounded ------------------------ */

static void fd_write(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* a full disk loses log or transcript lines, never a game */
        data += w;
        n -= (size_t)w;
    }
}

static void log_write(UyiClient *c, const char *data, size_t n) { fd_write(c->log, data, n); }

/* Moves what the engine has written to its standard error into its log,
 * without waiting: up to UYI_CLIENT_LOG_MAX bytes, then one line saying
 * the rest was cut, then nothing (but the pipe is still read, so that the
 * engine never blocks on it). */
static void drain_err(UyiClient *c)
{
    char chunk[4096];
    while (c->err >= 0) {
        ssize_t got = read(c->err, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            if (got == 0) { /* every writer is gone */
                close(c->err);
                c->err = -1;
            }
            return;
        }
        size_t keep = (size_t)got;
        if (c->logged + keep > UYI_CLIENT_LOG_MAX) keep = UYI_CLIENT_LOG_MAX - c->logged;
        if (keep) log_write(c, chunk, keep);
        c->logged += keep;
        if (keep < (size_t)got && !c->cut) {
            char note[128];
            int n = snprintf(note, sizeof note, "\nyinsh: the rest of the engine's standard error was cut (over %d bytes)\n",
                             UYI_CLIENT_LOG_MAX);
            log_write(c, note, (size_t)n);
            c->cut = true;
        }
    }
}

/* ---- the transcript: what was sent and read, bounded ----------------------- */

/* One line of the transcript: "[SECONDS] DIR TEXT", until the bound. */
static void talk_line(UyiClient *c, char dir, const char *text, size_t len)
{
    if (c->talk < 0 || c->talked >= UYI_CLIENT_LOG_MAX) return;
    char head[48];
    int h = snprintf(head, sizeof head, "[%10.3f] %c ", clock_now() - c->t0, dir);
    size_t n = (size_t)h + len + 1;
    if (c->talked + n > UYI_CLIENT_LOG_MAX) {
        char note[128];
        int k = snprintf(note, sizeof note, "yinsh: the rest of the transcript was cut (over %d bytes)\n",
                         UYI_CLIENT_LOG_MAX);
        fd_write(c->talk, note, (size_t)k);
        c->talked = UYI_CLIENT_LOG_MAX;
        return;
    }
    fd_write(c->talk, head, (size_t)h);
    fd_write(c->talk, text, len);
    fd_write(c->talk, "\n", 1);
    c->talked += n;
}

int uyi_client_transcript(UyiClient *c, const char *path, char *err)
{
    if (c->talk >= 0) close(c->talk);
    c->talk = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (c->talk < 0) return error_set(err, "cannot open the engine transcript '%.200s': %s", path, strerror(errno));
    return 0;
}

void uyi_client_note(UyiClient *c, const char *text)
{
    size_t len = strlen(text);
    talk_line(c, '!', text, len && text[len - 1] == '\n' ? len - 1 : len);
    if (c->log < 0) return;
    drain_err(c); /* what the engine wrote comes first */
    log_write(c, text, len);
}

/* ---- descendants, from /proc ------------------------------------------------ */

/* The parent and start time of process pid from /proc/PID/stat: false when
 * it is gone. */
static bool proc_stat(pid_t pid, pid_t *ppid, unsigned long long *start)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return false;
    text[n] = '\0';
    /* the name (field 2) may hold spaces and parentheses: after its last ')' */
    char *p = strrchr(text, ')');
    if (!p) return false;
    char state;
    int parent;
    unsigned long long t;
    /* fields 3 (state), 4 (ppid), then 5..21, and 22 (starttime) */
    if (sscanf(p + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &state, &parent,
               &t) != 3)
        return false;
    *ppid = parent;
    *start = t;
    return true;
}

/* Adds to kin (n entries, at most CLIENT_KIN) every living descendant of
 * the processes already in it from index `from` on, by one pass over /proc
 * per generation: a child is a process whose parent is in kin. */
static int add_descendants(Kin *kin, int n, int from)
{
    while (from < n && n < CLIENT_KIN) {
        int gen_end = n;
        DIR *d = opendir("/proc");
        if (!d) break;
        for (struct dirent *e; (e = readdir(d)) && n < CLIENT_KIN;) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 0) continue;
            pid_t ppid;
            unsigned long long start;
            if (!proc_stat((pid_t)pid, &ppid, &start)) continue;
            bool parent = false, known = false;
            for (int i = 0; i < n; i++) {
                known |= kin[i].pid == pid && kin[i].start == start;
                parent |= i >= from && i < gen_end && kin[i].pid == ppid;
            }
            if (parent && !known) kin[n++] = (Kin){(pid_t)pid, start};
        }
        closedir(d);
        from = gen_end;
    }
    return n;
}

void uyi_client_watch(UyiClient *c)
{
    if (c->exited) return; /* its children are someone else's now: nothing to follow */
    Kin kin[CLIENT_KIN];
    pid_t ppid;
    unsigned long long start;
    if (!proc_stat(c->pid, &ppid, &start)) return;
    kin[0] = (Kin){c->pid, start};
    int n = add_descendants(kin, 1, 0);
    for (int i = 1; i < n; i++) {
        bool known = false;
        for (int k = 0; k < c->nkin; k++) known |= c->kin[k].pid == kin[i].pid && c->kin[k].start == kin[i].start;
        if (!known && c->nkin < CLIENT_KIN) c->kin[c->nkin++] = kin[i];
    }
}

/* SIGKILL to every remembered descendant still alive (the same process:
 * its start time matches) and to whatever descends from them, until none
 * is left: a descendant in a session or group of its own outlives the
 * group's kill, and after the engine's end it belongs to init. */
static void kill_kin(UyiClient *c)
{
    for (int round = 0; round < 8 && c->nkin; round++) {
        Kin alive[CLIENT_KIN];
        int n = 0;
        for (int k = 0; k < c->nkin; k++) {
            pid_t ppid;
            unsigned long long start;
            if (proc_stat(c->kin[k].pid, &ppid, &start) && start == c->kin[k].start) alive[n++] = c->kin[k];
        }
        if (!n) return;
        n = add_descendants(alive, n, 0);
        for (int k = 0; k < n; k++) kill(alive[k].pid, SIGKILL);
        struct timespec ts = {0, 5000000}; /* 5 ms: then look again for what they started meanwhile */
        nanosleep(&ts, NULL);
        memcpy(c->kin, alive, (size_t)n * sizeof *alive);
        c->nkin = n;
    }
}

/* ---- starting ------------------------------------------------------------- */

/* The child of uyi_client_start, after the fork: async-signal-safe calls
 * only (the parent has threads). It joins a process group of its own,
 * dies with its parent, takes the ends given as its standard input, output
 * and error, enters dir (when given) and runs argv; a failure is written
 * to the status pipe as {what, errno}, what 0 for the pipes, 1 for the
 * folder, 2 for the command (exec closes the pipe on success). */
static _Noreturn void child_exec(pid_t parent, int in, int out, int err, int status, const char *dir, char **argv)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    int what = 0;
    if (dup2(in, 0) >= 0 && dup2(out, 1) >= 0 && dup2(err, 2) >= 0) {
        what = 1;
        if (!dir || !*dir || chdir(dir) == 0) {
            what = 2;
            execvp(argv[0], argv);
        }
    }
    int report[2] = {what, errno};
    ssize_t w = write(status, report, sizeof report);
    (void)w;
    _exit(127);
}

/* The exec's outcome, read from the status pipe (nothing to read once it
 * succeeded, CLOEXEC): 0, or the failure the child reported, after
 * reaping it. */
static int exec_outcome(pid_t pid, int status, const char *dir, const char *command, char *err)
{
    int report[2];
    ssize_t got;
    while ((got = read(status, report, sizeof report)) < 0 && errno == EINTR) {
    }
    if (got != (ssize_t)sizeof report) return ERR_OK;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    if (report[0] == 1)
        return error_set(err, "cannot enter the engine's folder '%.200s': %s", dir, strerror(report[1]));
    if (report[0] == 2) return error_set(err, "cannot run '%.200s': %s", command, strerror(report[1]));
    return error_set(err, "cannot set up the engine's input and output: %s", strerror(report[1]));
}

int uyi_client_start(UyiClient **out, const char *cmd, const char *dir, const char *log_path, char *err)
{
    *out = NULL;
    UyiClient *c = calloc(1, sizeof *c);
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1}, status[2] = {-1, -1}, log = -1, null = -1;
    char *words = malloc(strlen(cmd) + 1), *argv[CLIENT_MAX_WORDS];
    if (!c || !words) {
        free(c);
        free(words);
        return error_set(err, "out of memory for an engine");
    }
    int rc = ERR_FAIL; /* what every failure below returns */
    if (split_words(cmd, words, argv, CLIENT_MAX_WORDS, err)) goto fail;
    /* CLOEXEC everywhere: engines started by other game threads at the
     * same moment must not inherit this engine's ends */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, outp) != 0 || pipe2(status, O_CLOEXEC) != 0) {
        rc = error_set(err, "cannot make the engine's pipes: %s", strerror(errno));
        goto fail;
    }
    if (log_path) {
        log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (log < 0 || pipe2(errp, O_CLOEXEC) != 0) {
            rc = error_set(err, "cannot open the engine log '%s': %s", log_path, strerror(errno));
            goto fail;
        }
    } else if ((null = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0) {
        rc = error_set(err, "cannot open /dev/null: %s", strerror(errno));
        goto fail;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        rc = error_set(err, "cannot start the engine: fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) child_exec(parent, in[1], outp[1], log >= 0 ? errp[1] : null, status[1], dir, argv);
    setpgid(pid, pid); /* also here, so that the group exists before any kill */
    close(in[1]);
    close(outp[1]);
    close(status[1]);
    if (errp[1] >= 0) close(errp[1]);
    if (null >= 0) close(null);
    in[1] = outp[1] = status[1] = errp[1] = null = -1;
    rc = exec_outcome(pid, status[0], dir, argv[0], err);
    close(status[0]);
    status[0] = -1;
    if (rc) goto fail;
    c->pid = pid;
    c->talk = -1;
    c->t0 = clock_now();
    c->in = in[0];
    c->out = outp[0];
    c->err = errp[0];
    c->log = log;
    if (c->err >= 0) fcntl(c->err, F_SETFL, fcntl(c->err, F_GETFL) | O_NONBLOCK);
    free(words);
    *out = c;
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) close(in[i]);
        if (outp[i] >= 0) close(outp[i]);
        if (errp[i] >= 0) close(errp[i]);
        if (status[i] >= 0) close(status[i]);
    }
    if (log >= 0) close(log);
    if (null >= 0) close(null);
    free(words);
    free(c);
    return rc;
}

pid_t uyi_client_pid(const UyiClient *c) { return c->pid; }

int uyi_client_send(UyiClient *c, const char *line)
{
    drain_err(c);
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg) return -1;
    memcpy(msg, line, n);
    talk_line(c, '>', line, n);
    msg[n++] = '\n';
    size_t off = 0;
    int rc = 0;
    while (off < n) {
        ssize_t w = send(c->in, msg + off, n - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    free(msg);
    return rc;
}

/* Whether the child has exited, without reaping it (WNOWAIT): a zombie
 * leader keeps its process group's id reserved, so the group can still
 * be killed safely. */
static bool has_exited(UyiClient *c)
{
    if (c->exited) return true;
    siginfo_t info = {0};
    int r = waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT);
    c->exited = (r == 0 && info.si_pid == c->pid) || (r < 0 && errno == ECHILD);
    return c->exited;
}

enum { POLL_SLICE_MS = 50 }; /* how often a wait looks whether the engine is still there */

int uyi_client_read(UyiClient *c, double deadline, const char **line)
{
    /* drop the line handed out last time */
    memmove(c->buf, c->buf + c->taken, c->have - c->taken);
    c->have -= c->taken;
    c->taken = 0;
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->have);
        if (nl) {
            size_t len = (size_t)(nl - c->buf);
            c->taken = len + 1;
            if (len && c->buf[len - 1] == '\r') len--;
            memcpy(c->line, c->buf, len);
            c->line[len] = '\0';
            *line = c->line;
            talk_line(c, '<', c->line, len);
            return UYI_READ_LINE;
        }
        if (c->have == UYI_CLIENT_LINE) return UYI_READ_LONG;
        double left = deadline - clock_now();
        if (left <= 0) return UYI_READ_TIMEOUT;
        struct pollfd p[2] = {{.fd = c->out, .events = POLLIN}, {.fd = c->err, .events = POLLIN}};
        int ms = left * 1e3 < POLL_SLICE_MS ? (int)(left * 1e3) + 1 : POLL_SLICE_MS;
        int r = poll(p, c->err >= 0 ? 2 : 1, ms);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return UYI_READ_EOF;
        if (c->err >= 0 && p[1].revents) drain_err(c);
        if (!p[0].revents) {
            /* nothing to read: an engine that exited is gone, even when a
             * child of its own still holds its output open */
            if (r == 0 && has_exited(c)) return UYI_READ_EOF;
            continue;
        }
        ssize_t got = read(c->out, c->buf + c->have, UYI_CLIENT_LINE - c->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return UYI_READ_EOF;
        c->have += (size_t)got;
    }
}

/* ---- ending ------------------------------------------------------------------ */

/* Waits up to ms for the child to exit (has_exited). */
static bool exited_within(UyiClient *c, int ms)
{
    double end = clock_now() + ms * 1e-3;
    for (;;) {
        if (has_exited(c)) return true;
        if (clock_now() >= end) return false;
        drain_err(c);
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

static void client_end(UyiClient *c, int wait_ms)
{
    if (!c) return;
    uyi_client_watch(c); /* its descendants now, while they are still its own */
    close(c->in);        /* the engine reads end of input: a well-behaved one exits */
    if (!exited_within(c, wait_ms)) {
        kill(-c->pid, SIGTERM);
        if (!exited_within(c, UYI_CLIENT_GRACE_MS)) kill(-c->pid, SIGKILL);
    }
    /* whatever the engine started in its group goes with it, and what left
     * the group (a session of its own) by its id; then the leader is reaped */
    kill(-c->pid, SIGKILL);
    kill_kin(c);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    drain_err(c); /* its last words (a descendant may hold the pipe: no waiting) */
    close(c->out);
    if (c->err >= 0) close(c->err);
    if (c->log >= 0) close(c->log);
    if (c->talk >= 0) close(c->talk);
    free(c);
}

void uyi_client_kill(UyiClient *c) { client_end(c, 0); }

void uyi_client_free(UyiClient *c, int wait_ms)
{
    if (!c) return;
    uyi_client_watch(c); /* before quit: once it exits, its children are init's */
    uyi_client_send(c, "quit");
    client_end(c, wait_ms);
}
