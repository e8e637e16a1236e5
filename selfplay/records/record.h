/* A game as it was played: the record the scheduler fills and the store
 * keeps, row for row. Plain data, no agent and no search in it, so that
 * the store can hold games without knowing who played them.
 *
 * Also what is computed over records alone: a run's totals and its play
 * hash, which pins behaviour (tests/bench_quick.sh). */
#ifndef YINSH_RECORD_H
#define YINSH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "selfplay/stats/stats.h"
#include "engine/position.h"
#include "engine/types.h"

/* How the games begin. OPENING_RINGS: the ten ring placements are
 * uniformly random legal placements drawn from the pair's own stream
 * (rng_stream of the salted run seed and the pair), the same for both
 * games of a pair; they are
 * recorded as ordinary actions (not searched). OPENING_BOOK: pair k
 * plays opening k mod n of an opening book (book.h), recorded the same
 * way. OPENING_RANDOM: the first K actions (OPENING_RANDOM_MAX at most)
 * are uniformly random legal actions from the same stream, whatever they
 * are (placements first), recorded the same way: the shortest start that
 * sets a deterministic agent's games apart while the agents still place
 * most rings themselves. OPENING_PIE: the first two actions are the
 * agents' own (White's first ring, and Black's answer: a ring, or in a
 * `+swap` variant the swap, docs/rules.md §9.1), the next K are uniformly
 * random legal actions from the same stream, recorded the same way, the
 * rest the agents' again: the rings are randomised while the first ring
 * and the swap decision stay the agents' (random:K would draw both). In a
 * match the two games of a pair share the stream, not the opening (their
 * first two actions are different agents'). In self-play (no pairs) every
 * game is its own "pair". */
enum { OPENING_NONE, OPENING_RINGS, OPENING_BOOK, OPENING_RANDOM, OPENING_PIE };
enum { OPENING_RANDOM_MAX = 100 };
/* "none", "rings", "book", "random" or "pie": an opening's name in JSON. */
const char *opening_name(int opening);
/* The opening as options and study files write it, "none", "rings",
 * "random:K" or "pie:K" (1 <= K <= OPENING_RANDOM_MAX): true with the kind
 * and K (0 for none and rings), false for any other text. A book is named
 * by its file (--book), not here. */
bool opening_parse(const char *text, int *opening, int *actions);
/* The text opening_parse reads ("random:4", "pie:4"; a book: "book"), into out. */
char *opening_format(int opening, int actions, char *out, size_t len);

/* The longest agent spec text, as typed and as stored. */
enum { SPEC_LEN = 384 };

/* Whether a search ran its full budget (KataGo's playout cap
 * randomisation: only full searches make policy targets), as a search
 * tells it and action.full stores it (docs/schema.md): not known (not
 * searched, an agent that does not say; NULL), full (1), reduced (0). */
enum { SEARCH_BUDGET_UNKNOWN = 0, SEARCH_BUDGET_FULL = 1, SEARCH_BUDGET_REDUCED = 2 };

/* One action of a game as played. */
typedef struct ActionRecord {
    Action action;
    uint8_t actor, state;   /* who acted, and the state they acted in */
    uint16_t legal;         /* legal actions in that position */
    bool searched;          /* the next four are meaningful */
    uint8_t budget;         /* SEARCH_BUDGET_*: whether the search ran its full budget (MoveStats) */
    uint32_t root_visits;
    uint32_t chosen_visits; /* the chosen action's visits, or alpha-beta's completed depth (move_stats_chosen) */
    double value;           /* chosen action's value estimate for the actor */
    double root_value;      /* the position's value estimate for the actor (MoveStats) */
    uint32_t time_us;       /* time the agent took */
    bool has_clock;         /* the game was played on a clock (--tc) */
    int64_t clock_us;       /* has_clock: the actor's clock after the action, increment added */
} ActionRecord;

/* One child of a searched root and its visits after the search: the
 * root visit distribution of an MCTS action (stored with the run's
 * store_visits, table action_visits). */
typedef struct RootChild {
    uint16_t ply;           /* the action's ply in the game */
    Action action;          /* the child's action */
    uint32_t visits;        /* its visits, > 0 (unvisited children are left out) */
} RootChild;

/* A finished game. */
typedef struct GameRecord {
    uint32_t index;
    uint64_t seed;          /* the game's stream seed, from (run seed, index) */
    int variant;
    bool swapped;           /* the run's black agent played White (odd games of a match) */
    int result, reason;     /* RESULT_*, REASON_* */
    uint8_t removed[2];     /* rings removed by White, Black */
    uint8_t markers[2];     /* white, black markers on the board at the end */
    double duration_s;
    int nactions;
    ActionRecord *actions;  /* nactions of them, owned by the record */
    /* the root visit distributions of its MCTS actions when the run
     * stores them (else 0 and NULL): nchildren entries in ply order,
     * owned by the record. They are no part of the play hash. */
    int nchildren;
    RootChild *children;
} GameRecord;

void record_free(GameRecord *rec);
/* A copy of src into dst, its actions and root visits its own: 0, or -1
 * when memory runs out (dst then holds nothing to free). */
int record_copy(GameRecord *dst, const GameRecord *src);

/* The final position's counts into rec: the rings each side removed and
 * the markers each has on the board. */
void record_final_counts(GameRecord *rec, const Position *pos);

/* Whether a stored result and reason (RESULT_*, REASON_*) are what the
 * replay of the game's actions gives (end_result and end_reason of its
 * final position): RECORD_RESULT_OK; RECORD_RESULT_DIFFERS when they are
 * not (a game a resignation or a fault ended must be won by a side and
 * not over on the board: no replay decides those); RECORD_RESULT_ENDED
 * for a game stored without a result whose actions end it. The one rule
 * of `yinsh merge` and of the compact form's reader. */
enum { RECORD_RESULT_OK, RECORD_RESULT_DIFFERS, RECORD_RESULT_ENDED };
int record_result_check(int result, int reason, int end_result, int end_reason);

/* A hash of what a game's agents chose and saw: every action's text and
 * its root and chosen visit counts (0 when not searched), mixed with the
 * game's index. Summed over a run's games (wrapping), it is the same in
 * any order, and it pins a run's behaviour: a change that alters one
 * action or one visit count changes it. record_hash_action and
 * record_hash_game build it from parts, as the store does from rows. */
uint64_t record_game_hash(const GameRecord *g);
uint64_t record_hash_action(uint64_t h, const char *action, uint32_t root_visits, uint32_t chosen_visits);
uint64_t record_hash_game(uint64_t h, uint32_t index);

/* Running totals of a run's games. */
typedef struct RecordSummary {
    uint64_t games;
    uint64_t wins[RESULT_NB];    /* by RESULT_* */
    uint64_t reasons[REASON_NB]; /* by REASON_* */
    uint64_t actions;            /* summed over games */
    uint64_t hash;               /* record_game_hash summed over games */
    /* games lost on a fault (REASON_IS_FAULT), by the agent at fault:
     * [0] the run's white agent (a match's A), [1] its black agent (B) */
    uint64_t faults[2][REASON_NB];
} RecordSummary;

void record_summary_add(RecordSummary *s, const GameRecord *g);
/* Counts `count` games of this result and reason in faults (nothing when
 * the reason is no fault): the loser is the agent at fault. */
void record_summary_fault(RecordSummary *s, int result, int reason, bool swapped, uint64_t count);
/* White's score (win 1, draw 1/2) with its 95% Wilson interval
 * (selfplay/stats/stats.h): sound at 0 and 1 and for few games; with draws, whose
 * per-game variance is below p(1-p), slightly conservative. */
Interval record_white_score(const RecordSummary *s);

#endif
