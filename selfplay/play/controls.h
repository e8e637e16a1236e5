/* The controls of a run: how every agent is limited (`--sims`,
 * `--movetime`, `--tc`), where its randomness comes from and when a side
 * resigns, as one struct and as the canonical text stored with the run.
 * The scheduler (scheduler.h) plays under them. */
#ifndef YINSH_CONTROLS_H
#define YINSH_CONTROLS_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/play/resign.h"

/* How every agent of a run is limited (`--sims`, `--movetime`, `--tc`),
 * and where its randomness comes from. All zero: as before version 6,
 * each agent at its own simulations, one stream per game.
 *
 * Clocks: each player starts with base_ms; the time an action takes (as
 * the harness measures it, from the request to the answer) is taken off
 * the actor's clock and inc_ms is added after it. A player whose clock
 * falls below -margin_ms, or whose action took more than movetime_ms +
 * margin_ms, loses on time (REASON_TIME_FORFEIT); an external engine is
 * waited for that long and no longer. The ring placements of
 * OPENING_RINGS are the harness's and cost no time.
 *
 * Streams: by default both agents draw from the game's one stream
 * (rng_stream(run seed, index)). With agent_streams, or whenever an agent
 * is an external engine, the agent playing colour c in game i draws from
 * its own stream rng_stream(selfplay_agent_seed(run seed, i, c), 0), and
 * an external engine with a `seed` option is sent that seed before
 * `newgame`: then `yinsh uyi` plays exactly as the internal agent. */
typedef struct PlayControls {
    uint32_t sims;         /* simulations per action for every agent; 0: each its own */
    int64_t movetime_ms;   /* 0: none */
    int64_t base_ms;       /* > 0: each player's clock at the start */
    int64_t inc_ms;        /* with base_ms: added after each of the player's actions */
    int64_t margin_ms;     /* the forfeit margin (default CONTROLS_MARGIN_MS) */
    bool agent_streams;    /* each agent its own stream */
    /* CONTROLS_UNCAPPED_WHITE | _BLACK: plan.white's (A's), plan.black's
     * (B's) searches end on time alone, not on the default sims of a spec
     * that gives none (agent_spec_uncapped). Written by
     * selfplay_plan_settle from the specs, read back from a stored text
     * (a canonical spec always writes sims): one bit a side */
    uint8_t uncapped;
    /* resignation (play/resign.h; `--resign`, `--resign-check`): value 0,
     * the default, is none, and every game is played out */
    ResignRule resign;
    /* not part of the plan (they decide no game of a well-behaved engine) */
    int64_t answer_ms;     /* external engines: the wait without a time limit; 0: UYI_ENGINE_ANSWER_MS */
    const char *engine_logs; /* folder of the engines' stderr logs; NULL: discarded */
    bool engine_transcript;  /* with engine_logs: each engine's conversation beside its log */
} PlayControls;

enum { CONTROLS_MARGIN_MS = 100, CONTROLS_TEXT_LEN = 128 };
enum { CONTROLS_UNCAPPED_WHITE = 1, CONTROLS_UNCAPPED_BLACK = 2 };

/* The canonical text of the controls that decide games (stored as
 * run.controls): "" when none, else comma-separated `sims=N`,
 * `movetime=MS`, `tc=BASE+INC` (seconds), `margin=MS` (with a time limit),
 * `streams=agent`, `uncapped=white|black|both`, `resign=V:N` with
 * `resigncheck=F` (resign.h). controls_parse reads it
 * back (a resumed run). Each part is written only when set, so that a
 * run's text stays what it was before the part existed. */
char *controls_format(const PlayControls *c, char out[CONTROLS_TEXT_LEN]);
int controls_parse(const char *text, PlayControls *c, char *err);
/* "BASE+INC" or "BASE" in seconds (--tc): 0, or -1 with err. */
int controls_parse_tc(const char *text, PlayControls *c, char *err);

#endif
