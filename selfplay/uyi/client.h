/* The harness side of UYI (docs/protocol.md, docs/uyi.md): one external
 * engine process, its command split into words as a shell splits them
 * and exec'ed directly (no shell runs it), in its own process group,
 * spoken to over one socket pair (its standard input and output), its
 * standard error appended to a log file. The conversation over it is
 * uyi/engine.h's.
 *
 * Every read has a deadline; nothing here ever waits without one. A
 * process is always reaped: uyi_client_kill sends SIGTERM to its group,
 * then SIGKILL after a grace, and waits for it; uyi_client_free asks it to
 * `quit` first. The child also gets PR_SET_PDEATHSIG(SIGKILL), so it dies
 * with the thread that started it even when yinsh itself is killed with
 * SIGKILL. Writes use MSG_NOSIGNAL: a dead engine is a return code, never
 * a SIGPIPE.
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
};

/* What a read gave. */
enum { UYI_READ_LINE = 0, UYI_READ_TIMEOUT = 1, UYI_READ_EOF = 2, UYI_READ_LONG = 3 };

typedef struct UyiClient UyiClient;

/* Starts `cmd` in folder `dir` ("" or NULL: the current one) with its
 * standard error appended to log_path (NULL: discarded). 0, or -1 with the
 * reason in err (ERR_LEN bytes). */
int uyi_client_start(UyiClient **out, const char *cmd, const char *dir, const char *log_path, char *err);
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
