#define _GNU_SOURCE
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
#include "base/error.h"
#include "base/clock.h"
#include "engine/types.h"
#include "uyi/client.h"

struct UyiClient {
    pid_t pid;    /* the child, leader of its own process group */
    int fd;       /* our end of the socket pair */
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
            return error_set(err, "the engine's command has more than %d words", max - 1);
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
        return error_set(err, "the engine's command is empty");
    }
    return 0;
unclosed:
    return error_set(err, "the engine's command has an unclosed quote: %.200s", cmd);
}

enum { CLIENT_MAX_WORDS = 64 };

int uyi_client_start(UyiClient **out, const char *cmd, const char *dir, const char *log_path, char *err)
{
    *out = NULL;
    UyiClient *c = calloc(1, sizeof *c);
    int sv[2] = {-1, -1}, log = -1;
    char *words = malloc(strlen(cmd) + 1), *argv[CLIENT_MAX_WORDS];
    if (!c || !words) {
        return error_set(err, "out of memory for an engine");
    }
    if (split_words(cmd, words, argv, CLIENT_MAX_WORDS, err)) goto fail;
    /* CLOEXEC everywhere: engines started by other game threads at the
     * same moment must not inherit this engine's ends */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, ERR_LEN, "cannot make the engine's pipe: %s", strerror(errno));
        goto fail;
    }
    log = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0) {
        snprintf(err, ERR_LEN, "cannot open the engine log '%s': %s (does its folder exist?)",
                 log_path ? log_path : "/dev/null", strerror(errno));
        goto fail;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, ERR_LEN, "cannot start the engine: fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* the child: async-signal-safe calls only (the parent has threads) */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 || dup2(log, 2) < 0) _exit(127);
        if (dir && *dir && chdir(dir) != 0) {
            static const char msg[] = "yinsh: cannot enter the engine's folder\n";
            ssize_t w = write(2, msg, sizeof msg - 1);
            (void)w;
            _exit(127);
        }
        execvp(argv[0], argv);
        static const char msg[] = "yinsh: cannot run the engine's command\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so that the group exists before any kill */
    close(sv[1]);
    close(log);
    c->pid = pid;
    c->fd = sv[0];
    free(words);
    *out = c;
    return 0;
fail:
    if (sv[0] >= 0) close(sv[0]);
    if (sv[1] >= 0) close(sv[1]);
    if (log >= 0) close(log);
    free(words);
    free(c);
    return -1;
}

pid_t uyi_client_pid(const UyiClient *c) { return c->pid; }

int uyi_client_send(UyiClient *c, const char *line)
{
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg) return -1;
    memcpy(msg, line, n);
    msg[n++] = '\n';
    size_t off = 0;
    int rc = 0;
    while (off < n) {
        ssize_t w = send(c->fd, msg + off, n - off, MSG_NOSIGNAL);
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
            return UYI_READ_LINE;
        }
        if (c->have == UYI_CLIENT_LINE) return UYI_READ_LONG;
        double left = deadline - clock_now();
        if (left <= 0) return UYI_READ_TIMEOUT;
        struct pollfd p = {.fd = c->fd, .events = POLLIN};
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1e3) + 1;
        int r = poll(&p, 1, ms);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return UYI_READ_EOF;
        if (r == 0) continue; /* the deadline is checked above */
        ssize_t got = read(c->fd, c->buf + c->have, UYI_CLIENT_LINE - c->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return UYI_READ_EOF;
        c->have += (size_t)got;
    }
}

/* Waits up to ms for the child to exit, without reaping it (WNOWAIT): a
 * zombie leader keeps its process group's id reserved, so the group can
 * still be killed safely. True once it has exited. */
static bool exited_within(UyiClient *c, int ms)
{
    double end = clock_now() + ms * 1e-3;
    for (;;) {
        siginfo_t info = {0};
        int r = waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT);
        if ((r == 0 && info.si_pid == c->pid) || (r < 0 && errno == ECHILD)) return true;
        if (clock_now() >= end) return false;
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

static void client_end(UyiClient *c, int wait_ms)
{
    if (!c) return;
    close(c->fd); /* the engine reads end of input: a well-behaved one exits */
    if (!exited_within(c, wait_ms)) {
        kill(-c->pid, SIGTERM);
        if (!exited_within(c, UYI_CLIENT_GRACE_MS)) kill(-c->pid, SIGKILL);
    }
    /* whatever the engine started in its group goes with it, then the
     * leader is reaped */
    kill(-c->pid, SIGKILL);
    while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    free(c);
}

void uyi_client_kill(UyiClient *c) { client_end(c, 0); }

void uyi_client_free(UyiClient *c, int wait_ms)
{
    if (!c) return;
    uyi_client_send(c, "quit");
    client_end(c, wait_ms);
}
