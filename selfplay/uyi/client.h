/* The harness side of UYI (docs/protocol.md, docs/uyi.md): one external
 * engine process, its command split into words as a shell splits them
 * and exec'ed directly (no shell runs it), in its own process group,
 * spoken to over two socket pairs, one its standard input and one its
 * standard output (so that an engine closing its output is an end of
 * input here, whatever it does with its input). Its standard error is
 * read through a pipe into a log file, at most UYI_CLIENT_LOG_MAX bytes,
 * then one line says the rest was cut (the pipe is still read, so the
 * engine never blocks on it). On request (uyi_client_transcript) every
 * line sent and read is written to a transcript file, `> ` before what
 * the harness sent and `< ` before what the engine wrote, each after the
 * seconds since the engine started, bounded as the log is. The
 * conversation over it is uyi/engine.h's.
 *
 * Every read has a deadline; nothing here ever waits without one, and a
 * read ends when the engine has exited even if a child of its own still
 * holds its output. A process is always reaped: uyi_client_kill sends
 * SIGTERM to its group, then SIGKILL after a grace, and waits for it;
 * uyi_client_free asks it to `quit` first. What the engine started
 * outside its group (a child that called setsid) is found in /proc, as
 * the engine's descendants while it lives (uyi_client_watch, and at the
 * end before it is asked to quit), and killed by id after it (checked by
 * its start time, so a reused id is left alone), with whatever descends
 * from them. The child also gets PR_SET_PDEATHSIG(SIGKILL), so it dies
 * with the thread that started it even when yinsh itself is killed with
 * SIGKILL (its own children then outlive it: nothing runs in a killed
 * process). Writes use MSG_NOSIGNAL: a dead engine is a return code,
 * never a SIGPIPE.
 *
 * One client belongs to one game thread; nothing in it is shared. */
#ifndef YINSH_UYI_CLIENT_H
#define YINSH_UYI_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum {
    UYI_CLIENT_LINE = 16384, /* the longest line read; a longer one is an engine error */
    UYI_CLIENT_GRACE_MS = 500, /* SIGTERM to SIGKILL */
    UYI_CLIENT_LOG_MAX = 1 << 20, /* bytes of an engine's standard error kept in its log */
};

/* What a read gave. */
enum { UYI_READ_LINE = 0, UYI_READ_TIMEOUT = 1, UYI_READ_EOF = 2, UYI_READ_LONG = 3 };

typedef struct UyiClient UyiClient;

/* Whether cmd splits into words (quotes closed, not empty, at most 63
 * words): 0, or ERR_USAGE with the reason in err. */
int uyi_client_check_command(const char *cmd, char *err);
/* Starts `cmd` in folder `dir` ("" or NULL: the current one) with its
 * standard error appended to log_path (NULL: discarded). 0, or -1 with the
 * reason in err (ERR_LEN bytes): a command that does not split, a folder
 * that cannot be entered, a program that cannot be run (the exec's own
 * error, seen before this returns), a log that cannot be opened. */
int uyi_client_start(UyiClient **out, const char *cmd, const char *dir, const char *log_path, char *err);
/* Opens (appends to) a transcript of the conversation at path: from now
 * on each line sent is written as "[SECONDS] > LINE" and each line read
 * as "[SECONDS] < LINE", SECONDS since the start, up to
 * UYI_CLIENT_LOG_MAX bytes, then one line says the rest was cut. 0, or
 * -1 with the reason in err. */
int uyi_client_transcript(UyiClient *c, const char *path, char *err);
/* Appends text to the log (after what the engine wrote so far), and to
 * the transcript as "[SECONDS] ! TEXT"; nothing without them. */
void uyi_client_note(UyiClient *c, const char *text);
/* Remembers the engine's descendants as they are now (a walk over /proc):
 * those that leave its group are killed with it. */
void uyi_client_watch(UyiClient *c);
/* Writes one line (the '\n' is added): 0, or -1 when the engine is gone. */
int uyi_client_send(UyiClient *c, const char *line);
/* Reads the next line (without its '\n' or '\r') into the client's buffer,
 * waiting until `deadline` (clock_now() seconds): UYI_READ_*. *line points
 * into the client and lives until the next read. */
int uyi_client_read(UyiClient *c, double deadline, const char **line);
pid_t uyi_client_pid(const UyiClient *c);
/* Ends the process now (SIGTERM, SIGKILL after UYI_CLIENT_GRACE_MS), reaps
 * it and frees the client. NULL is ignored. */
void uyi_client_kill(UyiClient *c);
/* Sends `quit`, gives the engine wait_ms to exit, then as uyi_client_kill. */
void uyi_client_free(UyiClient *c, int wait_ms);

#endif
