/* Alpha-beta search (negamax with principal variation search) over the
 * engine's atomic actions: the alternative to MCTS (issue 13, part 4).
 *
 * Scores are integers from the point of view of the node's actor: the
 * evaluation's logit for White (eval/evaluation.h) times AB_SCALE, signed
 * for the actor, or with a net (AbConfig.net, eval/nnue.h) the net's
 * logit for the actor times AB_SCALE; a finished game is AB_WIN less the actions to reach it
 * (a win sooner scores higher, a loss later scores higher), a draw 0.
 *
 * YINSH's actor does not simply alternate: after a move that makes a row
 * the mover acts again (R, X), and after a move the opponent may act first
 * (r, x). A child's score is negated, and its window swapped, only when
 * the child's actor differs from the node's; a child of the same actor is
 * searched with the node's own window. At a finished position `actor` is
 * who acted last, so the rule holds there too.
 *
 * Depth counts placements, moves and passes; row and ring removals cost
 * no depth, so every line ends in a position with no row pending (a
 * quiescence over removals: the evaluation never judges a half-made row).
 * Removals end when rings run out, so the extension is bounded.
 *
 * Move ordering: the transposition table's action; then, at depth >= 2,
 * a probe of each ring move by make/unmake: moves that make a row of the
 * mover's colour first, those that hand the opponent a row (and make none
 * of the mover's) last, and between them more opponent markers flipped
 * first; then the history heuristic (actions that caused a cutoff,
 * weighted by depth squared); then the canonical order (a stable sort).
 *
 * Transposition table: a fixed power-of-two number of 16-byte entries
 * (tt MiB, with a 3-byte side array of depth, bound and generation), one
 * entry per slot (key modulo size), keyed by the full
 * Zobrist key. Replacement: an entry is overwritten by a search of the
 * same or greater depth, or by any entry of a later search (the table's
 * generation counter rises each decision), so deep results from this
 * decision survive shallow ones, and the last decision's leave room. Win
 * and loss scores are stored relative to the node (distance from it), so
 * they stay right wherever the position is met again.
 *
 * Depth: iterative deepening from 1 to the cap: `depth` alone (a stop
 * flag only ends a search early, so that an engine holding one plays as
 * the agent does in self-play), `max_depth` (when set) under a deadline,
 * a node budget or until_stop (search/limits.h), or the depth the limits
 * ask for.
 *
 * Threads (AbConfig.threads > 1): the caller's thread searches as above
 * while threads - 1 helpers search the same root with their own history,
 * killers and counters, the odd ones a depth ahead, all over the one
 * table, without locks (each slot is two words checked by a xor: ab.c),
 * until the caller's search ends: Lazy SMP. The helpers' entries cut and
 * order the caller's search; the answer is that of the deepest depth any
 * thread completed (the caller's on a tie), and a helper that completes
 * the cap (or proves the game) ends the search. A node budget counts
 * every thread's positions (passed by at most 512 a helper). Not
 * reproducible, and for analysis (the `threads` option of `yinsh uyi`):
 * self-play's games each keep one.
 *
 * AB_SMP_ABDADA (AbConfig.smp, the spec's smp=abdada) shares the work
 * instead of racing for it (Weill's ABDADA, in the simplified form of
 * a table of the positions being searched): every thread searches the
 * same depths from 1, and at a node of depth AB_DEFER_DEPTH or more a
 * thread that finds a child other than the first being searched by
 * another thread (its key in a shared table of keys, marked while a
 * child's subtree is searched) leaves it for after the node's other
 * children, when the other thread's result is likely in the table. With
 * one thread the table is never made, and the search is the one above,
 * node for node.
 *
 * AB_SMP_DEFER (smp=defer) is Lazy SMP whose helpers use that table: the
 * main thread searches as with one thread, its order and depths
 * undisturbed, and only marks the children it is searching; the helpers
 * (the odd ones a depth ahead, as in Lazy SMP) mark theirs too and leave
 * for later a child the main thread or another helper is searching, so
 * that they spread over other subtrees instead of repeating the main
 * thread's. With one thread, again the search above, node for node.
 *
 * AB_SMP_SKIP (smp=skip) is Lazy SMP whose helpers search other depths
 * than the main thread, ahead of it (Stockfish 9's helper depths): a
 * helper never starts a depth below the one after the main thread's
 * current depth, skips the depths of Stockfish's pattern (the first
 * helper every other depth, the next ones runs of 2 to 4 at staggered
 * phases, the phase moving with the root's placements and ring moves;
 * the cap never skipped), and leaves a depth the main thread completes
 * while it is on it for its next (its entries stay in the table). The
 * main thread searches as with one thread; the answer is, as in Lazy
 * SMP, the deepest any thread completed. With one thread, the search
 * above, node for node.
 *
 * Determinism (one thread): at a fixed depth, or under a node budget (limits' sims: at
 * most that many positions, counted exactly), the choice is a function of
 * the position, the table's contents and the history, which depend only
 * on the decisions since the last ab_clear (the agent clears at each new
 * game). Under a deadline, iterative deepening stops when the time is up
 * and plays the best action of the deepest completed depth (depth 1 is
 * always completed, also past a budget), which is not reproducible. A
 * depth is not started when the one before took half the time or half
 * the budget left. */
#ifndef YINSH_AB_H
#define YINSH_AB_H

#include <stdint.h>
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "selfplay/search/limits.h"
#include "engine/position.h"

enum {
    AB_SCALE = 1000,      /* score units per logit */
    AB_WIN = 1000000,     /* a win now; a win in k actions scores AB_WIN - k */
    AB_WIN_BOUND = 900000,/* scores beyond this are wins or losses */
    AB_MAX_DEPTH = 64,
    AB_DEFAULT_DEPTH = 3,
    AB_DEFAULT_TT_MB = 16,
    AB_MAX_TT_MB = 4096,
    AB_MAX_TEMPO = 100000, /* |tempo| at most, score units */
    AB_MAX_THREADS = 64,
};

/* The techniques beyond the search of commit 8f70ac8 (AbConfig.tech), each
 * asked for by name in the spec's tech= key (agents/agent_ab.c) so that a spec
 * written before them keeps its search: with no bit set and tempo 0 the
 * search is that one node for node (tests/test_search.c). In brief (ab.c
 * has the why above each): killers and a counter action rank after the
 * row probe; aspiration windows of +-150 at the root from depth 4;
 * reductions of late quiet moves (no row made) by about
 * ln(depth) ln(rank) / 3 plies, re-searched when they beat alpha; a null
 * move (the actor's turn given to the opponent) at depth >= 3 in null
 * windows; futility at depth 1 (margin 400) and late-move pruning at
 * depth 1 and 2 (after 16 and 28 moves); a quiescence step at the horizon
 * over the moves that complete a row of the actor's. tempo is added to
 * every evaluation for its actor: the evaluation's own tempo feature
 * overstates the move, and the score swings between odd and even depths
 * (`yinsh bench --ab` measures the swing). */
enum {
    AB_KILLERS = 1 << 0,    /* killers=1: two killer actions a ply and a counter action, ordered after the row probe */
    AB_ASPIRATION = 1 << 1, /* asp=1: aspiration windows around the last depth's score */
    AB_LMR = 1 << 2,        /* lmr=1: late move reductions, re-searched at full depth when they beat alpha */
    AB_NULL = 1 << 3,       /* nmp=1: null-move pruning (the actor passes its move) */
    AB_FUTILITY = 1 << 4,   /* fut=1: futility and late-move pruning of quiet moves near the leaves */
    AB_QUIESCE = 1 << 5,    /* qs=1: at the horizon, the moves that complete a row of the mover's are searched */
    /* nmp2=1: AB_NULL's null move, passed to the net too. With a net, AB_NULL
     * keeps the net's inputs of who acts as they were before the pass (the
     * accumulator copied), so the positions under a null move are evaluated
     * as if the other side acted, and their evaluation depends on the path
     * to them (tests/test_search.c shows it); AB_NULL2 switches those inputs
     * (nnue_pass). The same search as AB_NULL with the linear evaluation.
     * Not with AB_NULL. */
    AB_NULL2 = 1 << 6,
};

enum { AB_SMP_LAZY = 0, AB_SMP_ABDADA = 1, AB_SMP_DEFER = 2, AB_SMP_SKIP = 3 };
enum { AB_DEFER_DEPTH = 3 }; /* ABDADA, DEFER: the least depth at which a child is marked, and left for later */

typedef struct AbConfig {
    int depth;          /* the depth searched (1..AB_MAX_DEPTH) */
    int max_depth;      /* under a deadline, a node budget or until_stop, the cap instead of depth; 0: depth */
    uint32_t tt_mb;     /* the table's size in MiB (1..AB_MAX_TT_MB) */
    Weights weights;    /* the evaluation (net == NULL) */
    /* NULL: the linear evaluation of weights. Else this net evaluates
     * (eval/nnue.h), its accumulators kept by the search along make and
     * unmake, one per ply; read-only and shared, it must outlive the Ab. */
    const Nnue *net;
    uint32_t tech;      /* AB_* bits above; 0: the search of 8f70ac8 */
    int tempo;          /* added to every evaluation for its actor (score units); 0: none */
    /* Threads of one search (1..AB_MAX_THREADS; 0 or 1: one), for
     * analysis: Lazy SMP, the helpers searching the same root over the
     * shared table (ab.c). Not reproducible with more than one: what the
     * helpers leave in the table depends on the interleaving. */
    int threads;
    /* With threads > 1: AB_SMP_LAZY (0, the helpers a depth ahead over
     * the shared table alone) or AB_SMP_ABDADA (children being searched
     * by another thread left for later, above) or AB_SMP_DEFER (Lazy
     * SMP whose helpers leave those children for later) or AB_SMP_SKIP
     * (Lazy SMP whose helpers skip depths, ahead of the main thread). */
    int smp;
    /* Tests: every net accumulator computed from its position (nnue_refresh)
     * instead of from its parent's, the reference that the incremental
     * updates must equal: the same search, node for node, wherever they
     * are right. Slow. */
    bool refresh;
} AbConfig;

typedef struct AbResult {
    Action action;   /* the best action of the deepest completed depth */
    int score;       /* its score for the root's actor */
    int depth;       /* the deepest completed depth */
    uint64_t nodes;  /* positions visited */
    int legal;       /* legal actions at the root */
} AbResult;

typedef struct Ab Ab;

/* A search with its table allocated: 0, or ERR_FAIL (base/error.h) with
 * the message in err when it cannot be had. */
int ab_new(Ab **out, const AbConfig *cfg, char *err);
void ab_free(Ab *ab);
/* Empties the table and the history (a new game). */
void ab_clear(Ab *ab);

/* Searches pos (not over) and returns the chosen action. lim (NULL: none)
 * may give a deadline and a stop flag (search/limits.h), read every few
 * hundred positions, a node budget (sims), until_stop, a depth, and a
 * report: at each completed depth (scored), every report_s seconds (the
 * depth in progress), and at the end when it stopped inside a depth. */
Action ab_search(Ab *ab, const Position *pos, const SearchLimits *lim, AbResult *res);

/* The principal variation of the last search, read from the table: at
 * most max actions, their number returned; 0 before any search. */
int ab_pv(const Ab *ab, Action *pv, int max);

/* The actor's probability of winning a score stands for (the logistic of
 * score / AB_SCALE; 1 or 0 for a win or a loss). */
double ab_score_value(int score);

#endif
