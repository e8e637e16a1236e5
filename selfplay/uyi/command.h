/* The UYI command reader (docs/protocol.md, docs/uyi.md): one line
 * from a harness turned into a command, with its position checked by the
 * engine's notation, and the engine's time policy. No threads, and no I/O
 * but reading a line from the caller's stream into a bounded buffer:
 * the server (selfplay/uyi/server/server.c) owns the loop, the search
 * thread and every reply, and the fuzz target drives uyi_parse and
 * uyi_read_line. */
#ifndef YINSH_UYI_H
#define YINSH_UYI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/position.h"
#include "engine/types.h"

enum {
    UYI_LINE_MAX = 16384, /* a longer line is refused (a full game's position fits well) */
    UYI_NAME_LEN = 64,    /* an option's name */
    UYI_VALUE_LEN = 256,  /* an option's value */
    UYI_SAFETY_MS = 50,   /* a clock share never comes closer than this to the flag */
    UYI_DEPTH_MAX = 64,   /* go depth at most (alpha-beta's deepest) */
};

/* What uyi_read_line read. */
enum { UYI_LINE_OK = 0, UYI_LINE_LONG = 1, UYI_LINE_EOF = 2 };

typedef enum {
    UYI_EMPTY,     /* a blank line: nothing to do */
    UYI_UYI,
    UYI_ISREADY,
    UYI_SETOPTION,
    UYI_NEWGAME,
    UYI_POSITION,
    UYI_GO,
    UYI_STOP,
    UYI_QUIT,
} UyiKind;

/* The limits of a `go`; times in milliseconds, -1 when not given. */
typedef struct UyiGo {
    int64_t sims; /* -1: not given */
    int64_t movetime, wtime, btime, winc, binc;
    int64_t depth; /* alpha-beta's depth, 1..UYI_DEPTH_MAX; -1: not given */
    bool infinite;
} UyiGo;

typedef struct UyiCommand {
    UyiKind kind;
    /* setoption: the name (words joined by one space) and the value (the
     * rest of the line, trimmed) */
    char name[UYI_NAME_LEN], value[UYI_VALUE_LEN];
    /* position: where the actions start, the actions, and where they lead */
    Position base, pos;
    int nactions;
    Action actions[GAME_MAX_ACTIONS];
    UyiGo go;
    /* go: the tokens it did not understand, for an `info string error`;
     * "" when none. The go still runs on the rest. */
    char warning[ERR_LEN];
} UyiCommand;

/* Reads the next line of f into buf (size bytes, at least 2) with its
 * '\n' (the last line of the input may lack it): UYI_LINE_OK; or
 * UYI_LINE_LONG for a line that does not fit, whose rest is read and
 * dropped, so that memory stays bounded whatever a harness sends; or
 * UYI_LINE_EOF at the end of the input. The one I/O of this module: the
 * caller owns f. */
int uyi_read_line(FILE *f, char *buf, size_t size);

/* Reads one line (its '\n' and a '\r' before it may be there or not).
 * 0 with *cmd filled, or -1 with the reason in err (ERR_LEN bytes): an
 * unknown command, bad arguments, an invalid YPN or an illegal action
 * (named with its number). */
int uyi_parse(const char *line, UyiCommand *cmd, char *err);

/* The time the search of a `go` may take, in milliseconds, for the player
 * `actor` (WHITE or BLACK); -1 when the go sets no time (infinite, sims
 * only, or nothing). movetime is taken as given. With the actor's clock
 * (wtime or btime) the share is remaining/20 + 0.8 * increment, never more
 * than remaining - UYI_SAFETY_MS, and at least 1. With both, the smaller. */
int64_t uyi_budget_ms(const UyiGo *go, int actor);

#endif
