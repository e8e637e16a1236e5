/* The harness's conversation with an external UYI engine
 * (shared/spec/PROTOCOL.md; docs/uyi.md, "Engines as agents"): what names
 * an engine (its description, read from a spec or an engines file), and a
 * handle that runs one engine process (uyi/client.h) through its games.
 *
 * The conversation. At a game's start (uyi_engine_new_game): the process
 * is started if none runs, `uyi` sent and `uyiok` awaited (noting whether
 * it announces an option `seed`, and its bounds), its options sent; then
 * `isready` and `readyok`, `setoption name seed value S` when asked for
 * and announced (S mapped into the option's bounds, uyi_seed_value),
 * and `newgame`. For each action (uyi_engine_go): `position startpos
 * [variant blitz] moves ...` with every action of the game, `go` with the
 * limits, and lines read until `bestmove`; `info` lines give their `sims`
 * and `winprob`.
 *
 * Faults. Whatever the engine does wrong is a REASON_* (engine/types.h)
 * with a message naming the engine in `why` (ERR_LEN bytes), appended to
 * the engine's log as "yinsh: REASON: why". An engine at fault (it died,
 * did not answer in time, wrote what is not UYI, answered an illegal
 * action) is killed, and started again at the next game, so that nothing
 * it left unread reaches the next game.
 *
 * One handle belongs to one game thread; nothing in it is shared, but the
 * count that makes log file names unique is one atomic for all. */
#ifndef YINSH_UYI_ENGINE_H
#define YINSH_UYI_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/position.h"
#include "engine/types.h"
#include "selfplay/uyi/command.h"

enum {
    UYI_ENGINE_NAME_LEN = 64,     /* a display name; an option's key */
    UYI_ENGINE_VALUE_LEN = 320,   /* the longest value of any field: the command's */
    UYI_ENGINE_DIR_LEN = 200,     /* the working folder */
    UYI_ENGINE_OPTIONS = 16,      /* options at most */
    UYI_ENGINE_OPTION_LEN = 128,  /* an option's value */
    UYI_ENGINE_OPTIONS_LEN = 384, /* all options' keys and values together (a spec's length bounds them) */
    UYI_ENGINE_ANSWER_MS = 60000, /* the wait without a time limit, unless the harness sets one */
    UYI_ENGINES_FILE_MAX = 1 << 20, /* bytes of an engines file at most */
    UYI_ENGINES_LINE_MAX = 1024,  /* characters of a line (with its end) at most, but for comments */
};

/* An engine: how to start it and what to tell it. Options are kept packed
 * ("KEY\0VALUE\0" after one another, in the order given; uyi_engine_option
 * reads the i-th), so that a description, which travels by value in every
 * agent spec, stays small. */
typedef struct UyiEngineDesc {
    char name[UYI_ENGINE_NAME_LEN];  /* for messages and the log's file name */
    char cmd[UYI_ENGINE_VALUE_LEN];  /* split into words and exec'ed (uyi/client.h) */
    char dir[UYI_ENGINE_DIR_LEN];    /* its working folder; "": the current one */
    int noptions;
    int options_len;                 /* bytes of options in use */
    char options[UYI_ENGINE_OPTIONS_LEN];
} UyiEngineDesc;

/* Sets one field, `name`, `cmd`, `dir` or `option.KEY` (appended), with
 * the checks every description passes: no control characters, within the
 * lengths above, an option's key a word without ';' or '\'. 0, or
 * ERR_USAGE with the reason in err naming the field. */
int uyi_engine_desc_set(UyiEngineDesc *d, const char *key, const char *value, char *err);
/* The i-th option (0 <= i < noptions). */
void uyi_engine_option(const UyiEngineDesc *d, int i, const char **key, const char **value);

/* The description of engine `name` in an engines file (docs/uyi.md,
 * "Engines files"): sections `[NAME]` with `cmd = ...`, `dir = ...` and any
 * `option.KEY = VALUE` lines, values taken literally; '#' or ';' starts a
 * comment line (of any length; any other line is at most
 * UYI_ENGINES_LINE_MAX - 1 characters). d->name is `name`. 0, or ERR_FAIL
 * (an unreadable file) / ERR_USAGE (a file over UYI_ENGINES_FILE_MAX
 * bytes or holding a NUL byte, a bad or long line, an unknown or
 * twice-defined name, a key given twice in its section, no cmd) with
 * "FILE:LINE: why" in err. */
int uyi_engines_read(const char *file, const char *name, UyiEngineDesc *d, char *err);
/* The same on the file's text (size bytes), read by the caller; file names
 * it in messages. */
int uyi_engines_parse(const char *text, size_t size, const char *file, const char *name, UyiEngineDesc *d,
                      char *err);

/* The option `seed` as an engine announced it: where a spin option's
 * bounds are, so that the harness's 64-bit seed is mapped into them
 * (docs/protocol.md §6, "The seed"). */
typedef struct UyiSeedOption {
    bool announced; /* an option named `seed` (or `Seed`) was announced */
    bool bounded;   /* a spin with min <= max: the seed is mapped into them */
    bool negative;  /* min < 0: values are written signed */
    uint64_t min;   /* the lower bound, two's complement when negative */
    uint64_t span;  /* max - min (UINT64_MAX: every 64-bit value) */
} UyiSeedOption;

/* Reads an `option name seed ...` line of the handshake into *o: false
 * when the line announces another option. A spin's `min` and `max` are
 * read as 64-bit integers; bounds missing, unreadable or crossed leave the
 * seed unbounded (sent as it is). */
bool uyi_seed_option_parse(const char *line, UyiSeedOption *o);
/* The text of the value sent for seed: min + seed mod (max - min + 1)
 * for a bounded spin (the seed itself when the bounds are 0 and
 * 2^64 - 1), the seed in decimal otherwise. out holds 24 bytes. */
void uyi_seed_value(const UyiSeedOption *o, uint64_t seed, char out[24]);

/* The harness's settings for its engines. */
typedef struct UyiEngineEnv {
    const char *log_dir; /* where each process's standard error goes (a file each); NULL: discarded */
    int64_t answer_ms;   /* the wait without a time limit (handshake, isready, a go without time); <= 0: UYI_ENGINE_ANSWER_MS */
    int thread;          /* the game thread, for the log file's name; -1: a check (uyi_engine_check) */
    bool transcript;     /* with log_dir: each process's conversation beside its log, NAME-...-PID.uyi */
    bool visits;         /* ask an engine that announces the option `visits` for its root visits (docs/uyi.md) */
} UyiEngineEnv;

/* One decision asked of the engine. */
typedef struct UyiTurn {
    const Position *pos;  /* where it acts: its variant is sent, its answer parsed there */
    const Action *moves;  /* every action of the game so far, from the start */
    int nmoves;
    UyiGo go;             /* the limits of the `go` line (-1: not sent) */
    bool timed;           /* the player has a time: a late answer is a time forfeit, not a missing one */
    int64_t wait_ms;      /* timed: how long the harness waits for bestmove (its time and a margin) */
} UyiTurn;

/* What an answer's `info` lines said (0 when they did not): and, from an
 * engine told `setoption name visits value true`, its search's root
 * visits (`info visits ACTION:N ...`, docs/uyi.md), nchildren of them in
 * the engine's order. */
typedef struct UyiInfo {
    uint32_t sims;
    double winprob;
    int nchildren;
    Action children[MAX_ACTIONS];
    uint32_t visits[MAX_ACTIONS];
} UyiInfo;

typedef struct UyiEngine UyiEngine;

/* A handle for the engine of d; no process runs until a game starts. 0, or
 * ERR_FAIL with the message in err. */
int uyi_engine_new(UyiEngine **out, const UyiEngineDesc *d, char *err);
/* Ends the process (`quit`, then as uyi_client_free) and frees the handle. */
void uyi_engine_free(UyiEngine *e);
/* A game starts (the conversation above, under env): REASON_NONE, or the
 * fault with why. seeded: send the seed when the engine has the option. */
int uyi_engine_new_game(UyiEngine *e, const UyiEngineEnv *env, bool seeded, uint64_t seed, char *why);
/* Asks for an action: REASON_NONE with *best legal in turn->pos and *info,
 * or the fault with why (ERR_LEN bytes). */
int uyi_engine_go(UyiEngine *e, const UyiTurn *turn, Action *best, UyiInfo *info, char *why);
/* Appends "yinsh: REASON: why" to the log of the engine's process (nothing
 * without logs): the harness's side of a fault it finds itself (a time
 * forfeit), next to what the engine wrote. */
void uyi_engine_log(UyiEngine *e, int reason, const char *why);
/* The process's id, 0 if none runs. */
int uyi_engine_pid(const UyiEngine *e);

/* Starts the engine of d under env, shakes hands (`uyi`, its options,
 * `isready`), and ends it: what a harness does before its first game, so
 * that a setup that cannot work stops before anything is played. Its log
 * is DIR/NAME-check-K-PID.log. 0, or ERR_FAIL with "why (REASON; its
 * standard error is in LOG)" in err. */
int uyi_engine_check(const UyiEngineDesc *d, const UyiEngineEnv *env, char *err);

#endif
