#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "selfplay/search/ab.h"
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/geometry.h"
#include "engine/movegen.h"

/* One slot of the table: two 64-bit words, the data (score, action,
 * depth, bound, generation packed below) and the key xor the data. The
 * threads of one search (AbConfig.threads) read and write slots without
 * locks, each word with a relaxed atomic load or store; a slot written by
 * two threads at once may hold one's key and the other's data, and then
 * its check no longer gives a key that any position has: it reads as
 * empty (the xor check of Hyatt and Mann's lockless table). An action
 * read from the table is only compared with generated ones, so even a
 * wrong one is never made. */
typedef struct TtSlot {
    uint64_t check; /* key ^ data */
    uint64_t data;
} TtSlot;

/* The data word: the action (17 bits), the score relative to the node (a
 * win is AB_WIN - actions from the node; 24 bits, two's complement), the
 * depth (8), the bound (2) and the generation (8). */
enum { TT_SCORE_SHIFT = 17, TT_DEPTH_SHIFT = 41, TT_BOUND_SHIFT = 49, TT_GEN_SHIFT = 51 };

typedef struct TtEntry {
    Key key;
    int32_t score;
    Action move;     /* the best or refuting action; ACTION_NONE when none */
    uint8_t depth, bound, gen;
} TtEntry;

/* The slot count is the largest power of two whose slots fit the size at
 * 19 bytes each: the table's layout before the threads (a 16-byte entry
 * and 3 bytes beside it), kept so that a search with one thread meets the
 * same collisions and replacements as before, node for node. */
enum { TT_NOMINAL_SLOT_BYTES = 19 };

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* AB_SMP_ABDADA and AB_SMP_DEFER: the keys of the positions being searched, one slot a
 * key (key modulo the size), set by the thread that starts a child's
 * subtree and cleared by it when the subtree is done (if no other key
 * took the slot meanwhile). A slot two keys share tells one of them
 * wrongly as free or as busy: a child searched twice at once, or left
 * for later, never a wrong score. Relaxed atomics: the slots only steer
 * the order. */
enum { BUSY_SLOTS = 1 << 14 };
enum { MAX_PLY = 256, CHECK_EVERY = 256 }; /* the clock is read every CHECK_EVERY positions */

/* One thread's search. The Ab a caller holds is the main thread's; with
 * AbConfig.threads > 1 it owns threads - 1 helpers of the same type that
 * share its table (tt, mask) and search the same root until it is done. */
struct Ab {
    AbConfig cfg;
    TtSlot *tt;    /* shared by the helpers; owned by the main thread's Ab */
    uint64_t mask; /* slots - 1 */
    /* AB_SMP_ABDADA or AB_SMP_DEFER with helpers: the positions being
     * searched (BUSY_SLOTS), shared like the table and owned by the main
     * thread's Ab; NULL else. Every thread writes it. */
    _Atomic uint64_t *busy;
    /* this thread leaves for later a child another thread is searching:
     * every thread with AB_SMP_ABDADA, the helpers alone with AB_SMP_DEFER */
    bool defers;
    uint8_t gen;   /* the decision's generation, for replacement */
    int32_t history[COLOUR_NB][128][128]; /* by actor, to, from: a placement's (to 0) side by side */
    /* AB_KILLERS: the last two actions that cut off at each ply, and the
     * action that last refuted each action (by its from and to) */
    Action killer[MAX_PLY][2];
    Action counter[128][128];
    Action path[MAX_PLY];  /* the action made at each ply of the line searched; ACTION_NONE: a null move */
    uint8_t reduction[AB_MAX_DEPTH + 1][MAX_ACTIONS]; /* AB_LMR: by depth and move number */
    Position root;
    bool has_root;
    /* the search in progress */
    Position pos;
    uint64_t nodes;
    SearchLimits lim; /* the search's deadline and stop flag (the caller's, but zeroed while depth 1 runs) */
    uint64_t budget;  /* positions at most (lim.sims); 0: none, and none while depth 1 runs */
    bool stopped;
    Action root_best;
    /* cfg.net: the accumulators of the positions on the path, acc[ply]
     * that of the position at ply; NULL for the linear evaluation. make
     * leaves acc[ply + 1] owed: pending[ply + 1] is the action's undo
     * record (the action is path[ply]), and the child computes it only
     * when it evaluates or acts (acc_ready), not when the table or the
     * game's end settles it first. NULL: acc[ply] is the position's. */
    NnueAcc *acc;
    const Undo *pending[MAX_PLY];
    /* progress reports (limits.h): the caller's, kept apart from lim so
     * that depth 1 reports too */
    SearchReportFn report;
    void *report_ctx;
    double report_s, next_report;
    int depth_now;    /* the depth in progress */
    /* threads: the main thread's helpers, and what they share with it */
    int nhelpers;
    Ab **helpers;
    Ab *main;              /* a helper's main thread; NULL in the main thread */
    int id;                /* 0: the main thread; helpers 1.. */
    int helper_cap;        /* a helper's deepest depth this search */
    /* a helper's deepest completed depth this search (0: none), its score
     * and action: read by the main thread after the join */
    int done_depth, done_score;
    Action done_action;
    atomic_bool done;      /* main: set when its search ends, and the helpers stop */
    _Atomic uint64_t helper_nodes; /* main: the positions its helpers visited, added every CHECK_EVERY */
    atomic_bool ahead;     /* main: a helper has finished (the cap completed, or a proof): the main thread stops */
    _Atomic int main_done; /* main: its deepest completed depth this search (0: none), for AB_SMP_SKIP's helpers */
    int skip_phase;        /* AB_SMP_SKIP, a helper: the root's phase in the skip pattern (skips) */
    bool aborted;          /* AB_SMP_SKIP, a helper: its depth left because the main thread completed it */
    /* main, with helpers: its budget (0: none) and its own positions, as
     * of its last count every CHECK_EVERY, for the helpers to stop at the
     * budget when the main thread waits for a core */
    _Atomic uint64_t shared_budget, main_nodes;
};

static TtEntry tt_read(const Ab *ab, uint64_t slot)
{
    const TtSlot *t = &ab->tt[slot];
    uint64_t data = __atomic_load_n(&t->data, __ATOMIC_RELAXED);
    uint64_t check = __atomic_load_n(&t->check, __ATOMIC_RELAXED);
    int32_t score = (int32_t)((uint32_t)(data >> TT_SCORE_SHIFT) << 8) >> 8; /* 24 bits, sign-extended */
    return (TtEntry){.key = check ^ data, .score = score, .move = (Action)(data & 0x1FFFF),
                     .depth = (uint8_t)(data >> TT_DEPTH_SHIFT), .bound = (uint8_t)((data >> TT_BOUND_SHIFT) & 3),
                     .gen = (uint8_t)(data >> TT_GEN_SHIFT)};
}

static void tt_write(Ab *ab, uint64_t slot, const TtEntry *e)
{
    uint64_t data = (uint64_t)(e->move & 0x1FFFF) | (uint64_t)((uint32_t)e->score & 0xFFFFFF) << TT_SCORE_SHIFT |
                    (uint64_t)e->depth << TT_DEPTH_SHIFT | (uint64_t)(e->bound & 3) << TT_BOUND_SHIFT |
                    (uint64_t)e->gen << TT_GEN_SHIFT;
    TtSlot *t = &ab->tt[slot];
    __atomic_store_n(&t->data, data, __ATOMIC_RELAXED);
    __atomic_store_n(&t->check, e->key ^ data, __ATOMIC_RELAXED);
}

/* Late move reductions grow with the depth left and the move's rank, as
 * the product of their logarithms (the shape chess engines settled on):
 * 1 ply from the fourth move on, 2 or 3 deep in long lists. */
static void reductions_init(Ab *ab)
{
    for (int d = 0; d <= AB_MAX_DEPTH; d++)
        for (int i = 0; i < MAX_ACTIONS; i++)
            ab->reduction[d][i] = d < 3 || i < 3 ? 0 : (uint8_t)(1 + log(d) * log(i) / 3.0);
}

/* A thread's search state with its own history and accumulators; the
 * table is set by the caller. */
static Ab *worker_new(const AbConfig *cfg)
{
    Ab *ab = calloc(1, sizeof *ab);
    if (!ab) return NULL;
    ab->cfg = *cfg;
    reductions_init(ab);
    if (cfg->net && !(ab->acc = aligned_alloc(_Alignof(NnueAcc), MAX_PLY * sizeof *ab->acc))) {
        free(ab);
        return NULL;
    }
    return ab;
}

/* The table, zeroed. One of 2 MiB or more is asked for in huge pages
 * where the system has them on request (Linux's transparent huge pages in
 * `madvise` mode): its probes, a random slot at each position, then miss
 * the address cache far less often. The same slots either way. */
static TtSlot *tt_alloc(uint64_t slots)
{
    size_t bytes = (size_t)slots * sizeof(TtSlot);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes >= huge) { /* a power of two: a whole number of huge pages */
        TtSlot *t = aligned_alloc(huge, bytes);
        if (t) {
            madvise(t, bytes, MADV_HUGEPAGE); /* advice: refused, the pages are small */
            memset(t, 0, bytes);
            return t;
        }
    }
#endif
    return calloc(slots, sizeof(TtSlot));
}

int ab_new(Ab **out, const AbConfig *cfg, char *err)
{
    *out = NULL;
    uint64_t bytes = (uint64_t)cfg->tt_mb << 20, slots = 1;
    while (slots * 2 * TT_NOMINAL_SLOT_BYTES <= bytes) slots *= 2;
    int threads = cfg->threads > 1 ? cfg->threads : 1;
    if (threads > AB_MAX_THREADS) return error_set(err, "%d threads asked for a search (at most %d)", threads, AB_MAX_THREADS);
    Ab *ab = worker_new(cfg);
    if (!ab) return error_set(err, "out of memory for a search");
    ab->tt = tt_alloc(slots);
    if (!ab->tt) {
        ab_free(ab);
        return error_set(err, "out of memory for a transposition table of %u MiB", (unsigned)cfg->tt_mb);
    }
    ab->mask = slots - 1;
    if (threads > 1 && !(ab->helpers = calloc((size_t)threads - 1, sizeof *ab->helpers))) {
        ab_free(ab);
        return error_set(err, "out of memory for %d threads' searches", threads);
    }
    if (threads > 1 && (cfg->smp == AB_SMP_ABDADA || cfg->smp == AB_SMP_DEFER) &&
        !(ab->busy = calloc(BUSY_SLOTS, sizeof *ab->busy))) {
        ab_free(ab);
        return error_set(err, "out of memory for %d threads' searches", threads);
    }
    for (int i = 1; i < threads; i++) {
        Ab *h = worker_new(cfg);
        if (!h) {
            ab_free(ab);
            return error_set(err, "out of memory for %d threads' searches", threads);
        }
        h->tt = ab->tt;
        h->mask = ab->mask;
        h->busy = ab->busy;
        h->defers = ab->busy != NULL;
        h->main = ab;
        h->id = i;
        ab->helpers[ab->nhelpers++] = h;
    }
    ab->defers = ab->busy && cfg->smp == AB_SMP_ABDADA;
    *out = ab;
    return 0;
}

void ab_free(Ab *ab)
{
    if (!ab) return;
    for (int i = 0; i < ab->nhelpers; i++) {
        free(ab->helpers[i]->acc);
        free(ab->helpers[i]);
    }
    free(ab->helpers);
    free(ab->busy);
    free(ab->tt);
    free(ab->acc);
    free(ab);
}

static void worker_clear(Ab *ab)
{
    memset(ab->history, 0, sizeof ab->history);
    memset(ab->killer, 0, sizeof ab->killer);
    memset(ab->counter, 0, sizeof ab->counter);
    ab->gen = 0;
    ab->has_root = false;
}

void ab_clear(Ab *ab)
{
    memset(ab->tt, 0, (ab->mask + 1) * sizeof *ab->tt);
    worker_clear(ab);
    for (int i = 0; i < ab->nhelpers; i++) worker_clear(ab->helpers[i]);
}

double ab_score_value(int score)
{
    if (score >= AB_WIN_BOUND) return 1.0;
    if (score <= -AB_WIN_BOUND) return 0.0;
    return 1.0 / (1.0 + exp(-(double)score / AB_SCALE));
}

/* The net's logit is the actor's already; the linear one is White's. A
 * branch on the net, the same at every node, costs nothing that shows. */
static int evaluate(const Ab *ab, const Position *pos, int ply)
{
    if (ab->cfg.net) {
        const Nnue *net = ab->cfg.net;
        double l = nnue_logit(net, nnue_output(net, &ab->acc[ply], pos->actor) + nnue_parts(net, &ab->acc[ply], pos)) * AB_SCALE;
        const double cap = AB_WIN_BOUND / 2;
        l = l > cap ? cap : l < -cap ? -cap : l;
        return (int)number_round(l) + ab->cfg.tempo;
    }
    double l = eval_logit(&ab->cfg.weights, pos) * AB_SCALE;
    const double cap = AB_WIN_BOUND / 2;
    l = l > cap ? cap : l < -cap ? -cap : l;
    int s = (int)number_round(l);
    return (pos->actor == WHITE ? s : -s) + ab->cfg.tempo;
}

static bool is_removal(int state)
{
    return state == STATE_R || state == STATE_X || state == STATE_r || state == STATE_x;
}

/* Win scores are stored as distance from the node, read back from the root. */
static int score_to_tt(int s, int ply) { return s >= AB_WIN_BOUND ? s + ply : s <= -AB_WIN_BOUND ? s - ply : s; }
static int score_from_tt(int s, int ply) { return s >= AB_WIN_BOUND ? s - ply : s <= -AB_WIN_BOUND ? s + ply : s; }

static void tt_store(Ab *ab, Key key, int depth, int bound, int score, Action move, int ply)
{
    uint64_t i = key & ab->mask;
    TtEntry old = tt_read(ab, i);
    if (old.key == key || old.gen != ab->gen || depth >= old.depth) {
        if (move == ACTION_NONE && old.key == key) move = old.move;
        tt_write(ab, i, &(TtEntry){key, score_to_tt(score, ply), move, (uint8_t)depth, (uint8_t)bound, ab->gen});
    }
}

/* AB_KILLERS: the killers and the counter action rank above the probe's
 * flip counts and history, below a row of the mover's; they refuted a
 * sibling line, and in YINSH the same ring move often refutes many. */
static int32_t killer_key(const Ab *ab, Action a, int ply)
{
    if (a == ab->killer[ply][0]) return 1 << 26;
    if (a == ab->killer[ply][1]) return 1 << 25;
    Action prev = ply > 0 ? ab->path[ply - 1] : ACTION_NONE;
    if (prev != ACTION_NONE && a == ab->counter[ACTION_FROM(prev)][ACTION_TO(prev)]) return 1 << 24;
    return 0;
}

/* Ordering keys (higher first): see ab.h. The probe's make/unmake is worth
 * it only above the last ply. */
static void order_keys(const Ab *ab, const Action *list, int32_t *key, int n, Action tt_move, int depth, int ply)
{
    const Position *pos = &ab->pos;
    int me = pos->actor, them = me ^ 1;
    bool killers = ab->cfg.tech & AB_KILLERS;
    for (int i = 0; i < n; i++) {
        Action a = list[i];
        int32_t k = 0;
        if (a == tt_move) {
            k = INT32_MAX;
        } else {
            int kind = ACTION_KIND(a);
            if (depth >= 2 && kind == ACT_MOVE) {
                /* the markers after the move, as pos_make leaves them, without making it: the
                 * origin's new marker, then the flips; flipped counts the opponent's markers
                 * the move takes, less the mover's it gives */
                Bitboard flips = pos_move_flips(pos, a);
                bool mine = bb_has_row((pos->markers[me] | bb_bit(ACTION_FROM(a))) ^ flips),
                     theirs = bb_has_row(pos->markers[them] ^ flips);
                int flipped = bb_popcount(pos->markers[them] & flips) - bb_popcount(pos->markers[me] & flips);
                k = (mine ? 1 << 28 : 0) - (theirs && !mine ? 1 << 27 : 0) + flipped * (1 << 20);
            }
            k += ab->history[me][ACTION_TO(a)][ACTION_FROM(a)] >> 4;
            /* the killers and counters hold ring moves only (learn_cutoff) */
            if (killers && kind == ACT_MOVE) k += killer_key(ab, a, ply);
        }
        key[i] = k;
    }
}

/* The order is that of a stable sort by key, highest first (ties keep the
 * canonical order), built as the search goes: the action at i is put in
 * place just before it is searched. Most nodes are cut by one of their
 * first actions, so the first LAZY_PICKS are each picked from the rest
 * (the first highest, and the rest shifted up, keeping its order), and only
 * a node that gets past them sorts the others, once: the same order as
 * sorting all at the node's start, without sorting 80 placements for a
 * node that searches one. */
enum { LAZY_PICKS = 3 };

static void pick(Action *list, int32_t *key, int i, int n)
{
    if (i < LAZY_PICKS) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (key[j] > key[best]) best = j;
        if (best == i) return;
        Action a = list[best];
        int32_t k = key[best];
        memmove(list + i + 1, list + i, (size_t)(best - i) * sizeof *list);
        memmove(key + i + 1, key + i, (size_t)(best - i) * sizeof *key);
        list[i] = a;
        key[i] = k;
        return;
    }
    if (i > LAZY_PICKS) return;
    /* insertion sort of the rest: stable */
    for (int m = i + 1; m < n; m++) {
        Action a = list[m];
        int32_t k = key[m];
        int j = m;
        for (; j > i && key[j - 1] < k; j--) {
            list[j] = list[j - 1];
            key[j] = key[j - 1];
        }
        list[j] = a;
        key[j] = k;
    }
}

static int search(Ab *ab, int depth, int alpha, int beta, int ply);

/* The positions of a search, its helpers' included (theirs as of their
 * last count, every CHECK_EVERY positions). */
static uint64_t total_nodes(Ab *ab)
{
    return ab->nodes + (ab->nhelpers ? atomic_load_explicit(&ab->helper_nodes, memory_order_relaxed) : 0);
}

/* A report of the depth in progress: how far, and how many positions. */
static void progress(Ab *ab)
{
    SearchReport r = {.depth = ab->depth_now, .nodes = total_nodes(ab)};
    ab->report(ab->report_ctx, &r);
    ab->next_report = clock_now() + ab->report_s;
}

static int line_from(const Ab *ab, Action first, Action *pv, int max);

/* A report of a completed depth: its score, value and principal
 * variation, read from the table (kept for the end of the search, when
 * the table holds the unfinished depth's entries too). */
static void report_depth(Ab *ab, const AbResult *res, SearchReport *r)
{
    *r = (SearchReport){.depth = res->depth, .scored = true, .score = res->score, .nodes = total_nodes(ab),
                        .value = ab_score_value(res->score)};
    r->npv = line_from(ab, res->action, r->pv, SEARCH_REPORT_PV);
    ab->report(ab->report_ctx, r);
    ab->next_report = clock_now() + ab->report_s;
}

/* One child: negated with a swapped window only when the actor changes. */
static int child(Ab *ab, int depth, int alpha, int beta, int ply, bool same)
{
    return same ? search(ab, depth, alpha, beta, ply) : -search(ab, depth, -beta, -alpha, ply);
}

/* Counts a position and reads the limits: true when the search must stop.
 * A node budget is exact (and so reproducible): checked at every position. */
static bool node_stops(Ab *ab)
{
    if (ab->budget && ab->nodes + (ab->nhelpers ? atomic_load_explicit(&ab->helper_nodes, memory_order_relaxed) : 0) >=
                          ab->budget) {
        ab->stopped = true;
        return true;
    }
    if ((++ab->nodes % CHECK_EVERY) == 0) {
        if (ab->main) {
            /* a helper: counted in its main thread's total, and stopped
             * by it or by the budget */
            Ab *m = ab->main;
            uint64_t helpers = atomic_fetch_add_explicit(&m->helper_nodes, CHECK_EVERY, memory_order_relaxed) + CHECK_EVERY;
            uint64_t budget = atomic_load_explicit(&m->shared_budget, memory_order_relaxed);
            if (atomic_load_explicit(&m->done, memory_order_relaxed) ||
                (budget && helpers + atomic_load_explicit(&m->main_nodes, memory_order_relaxed) >= budget))
                ab->stopped = true;
            else if (ab->cfg.smp == AB_SMP_SKIP &&
                     ab->depth_now <= atomic_load_explicit(&m->main_done, memory_order_relaxed))
                ab->stopped = ab->aborted = true; /* AB_SMP_SKIP: a depth the main thread has: left */
            return ab->stopped;
        }
        if (ab->nhelpers) atomic_store_explicit(&ab->main_nodes, ab->nodes, memory_order_relaxed);
        if (search_limits_reached(&ab->lim)) ab->stopped = true;
        /* a helper got to the end first: its answer is taken (ab_search) */
        if (ab->nhelpers && ab->depth_now > 1 && atomic_load_explicit(&ab->ahead, memory_order_relaxed))
            ab->stopped = true;
        if (ab->report && clock_now() >= ab->next_report) progress(ab);
    }
    return ab->stopped;
}

/* make and unmake with the line's path in step, the net's accumulator
 * owed to the child (pending): u lives until the child's search ends */
static void make(Ab *ab, Action a, Undo *u, int ply)
{
    pos_make(&ab->pos, a, u);
    ab->pending[ply + 1] = u;
    ab->path[ply] = a;
}

/* The accumulator of the position at ply, from its parent's and the
 * action that led here, if it is still owed: the position is the one
 * make left, as the update needs it. */
static inline void acc_ready(Ab *ab, int ply)
{
    if (!ab->cfg.net || !ab->pending[ply]) return;
    if (ab->cfg.refresh) nnue_refresh(ab->cfg.net, &ab->pos, &ab->acc[ply]);
    else nnue_make(ab->cfg.net, &ab->acc[ply - 1], &ab->acc[ply], &ab->pos, ab->path[ply - 1], ab->pending[ply]);
    ab->pending[ply] = NULL;
}

/* Whether a finished game's score is known: *score set for the actor. */
static bool game_over(const Position *pos, int ply, int *score)
{
    int result, reason;
    if (!pos_outcome(pos, &result, &reason)) return false;
    int winner = result == RESULT_WHITE ? WHITE : BLACK;
    *score = result == RESULT_DRAW ? 0 : winner == pos->actor ? AB_WIN - ply : -(AB_WIN - ply);
    return true;
}

/* AB_QUIESCE: a leaf where the actor to move can complete a row of its own
 * is not quiet: the evaluation would judge a row about to be made as four
 * markers. The actor may stand on the evaluation or make such a row (its
 * removals follow, free of depth, and the opponent's reply is the same
 * step again). A row needs five markers in a line after the move, and only
 * the moving ring's point becomes a marker, so a position with no line of
 * five points all markers or the actor's rings has no such move: that
 * test, a few shifts, spares the generation at most leaves. */
static int quiesce(Ab *ab, int alpha, int beta, int ply)
{
    Position *pos = &ab->pos;
    int stand = evaluate(ab, pos, ply), me = pos->actor;
    if (pos->state != STATE_M || stand >= beta || ply >= MAX_PLY - 2 ||
        !bb_has_row(pos->markers[WHITE] | pos->markers[BLACK] | pos->rings[me]))
        return stand;
    /* a row of the mover's makes the mover remove it (state R) in the
     * standard game; in blitz it ends the game (state END), searched no
     * further here */
    if (pos->variant & VARIANT_BLITZ) return stand;
    if (stand > alpha) alpha = stand;
    /* only the moves that make a row of the mover's are made and searched,
     * with the net's accumulator and the path, in the order of all moves:
     * the others are told by the markers after them (as pos_make leaves
     * them) without making them or listing them (movegen_row_moves) */
    Action list[MAX_ACTIONS];
    int n = movegen_row_moves(pos, list), best = stand;
    for (int i = 0; i < n && best < beta; i++) {
        Action a = list[i];
        Undo u;
        make(ab, a, &u, ply);
        assert(pos->state == STATE_R && pos->actor == me);
        int s = search(ab, 0, alpha, beta, ply + 1);
        pos_unmake(pos, a, &u);
        if (ab->stopped) return 0;
        if (s > best) best = s;
        if (s > alpha) alpha = s;
    }
    return best;
}

/* The position at the horizon (no row pending): its evaluation, or with
 * AB_QUIESCE the quiescence step. */
static int horizon(Ab *ab, int alpha, int beta, int ply)
{
    if ((ab->cfg.tech & AB_QUIESCE) && ply < MAX_PLY - 1) return quiesce(ab, alpha, beta, ply);
    return evaluate(ab, &ab->pos, ply);
}

/* AB_NULL: the actor gives up its move (YINSH has no pass: the opponent
 * simply acts in the same position). When even that keeps the score at or
 * above beta at a reduced depth, a real move is taken to do as well; the
 * assumption fails where every move hurts (zugzwang), which the
 * measurements in results/strength.md weigh. Not twice in a row, not in
 * the placements, only in a null window and above a static evaluation of
 * beta. */
static bool null_cuts(Ab *ab, int depth, int beta, int ply, int stand)
{
    Position *pos = &ab->pos;
    if (depth < 3 || ply == 0 || pos->state != STATE_M || ab->path[ply - 1] == ACTION_NONE || stand < beta ||
        beta >= AB_WIN_BOUND || beta <= -AB_WIN_BOUND)
        return false;
    pos->actor ^= 1;
    pos->key ^= GEO->z_actor;
    /* AB_NULL: the net's inputs as before the pass (ab.h); AB_NULL2: passed */
    const Nnue *net = ab->cfg.net;
    if (net && ab->cfg.refresh) nnue_refresh(net, pos, &ab->acc[ply + 1]);
    else if (net && (ab->cfg.tech & AB_NULL2)) nnue_pass(net, &ab->acc[ply], &ab->acc[ply + 1], pos);
    else if (net) ab->acc[ply + 1] = ab->acc[ply];
    ab->pending[ply + 1] = NULL;
    ab->path[ply] = ACTION_NONE;
    int s = -search(ab, depth - 3 - depth / 6, -beta, -beta + 1, ply + 1);
    pos->actor ^= 1;
    pos->key ^= GEO->z_actor;
    return !ab->stopped && s >= beta;
}

/* What a cutoff teaches the ordering: history always; with AB_KILLERS the
 * ply's killers and the counter of the action that led here. */
static void learn_cutoff(Ab *ab, Action a, int depth, int ply, int me)
{
    int32_t *h = &ab->history[me][ACTION_TO(a)][ACTION_FROM(a)];
    *h += depth * depth;
    if (*h > (1 << 24)) /* keep the counts bounded and their proportions */
        for (int c = 0; c < COLOUR_NB; c++)
            for (int to = 0; to < 128; to++)
                for (int from = 0; from < 128; from++) ab->history[c][to][from] /= 2;
    if (!(ab->cfg.tech & AB_KILLERS) || ACTION_KIND(a) != ACT_MOVE) return;
    if (ab->killer[ply][0] != a) {
        ab->killer[ply][1] = ab->killer[ply][0];
        ab->killer[ply][0] = a;
    }
    Action prev = ply > 0 ? ab->path[ply - 1] : ACTION_NONE;
    if (prev != ACTION_NONE) ab->counter[ACTION_FROM(prev)][ACTION_TO(prev)] = a;
}

/* AB_FUTILITY: in a null window near the leaves, a quiet move (one that
 * makes no row of either side) is skipped when the static evaluation plus
 * a margin a move rarely gains stays below alpha (futility, depth 1), or
 * when it comes late in the order (late-move pruning, depth 1 and 2): the
 * ordering put the moves that flip most and refuted before first. */
static bool futile(int depth, int searched, int alpha, int stand)
{
    if (depth > 2 || searched == 0 || alpha <= -AB_WIN_BOUND) return false;
    if (depth == 1 && stand + 400 <= alpha) return true;
    return searched >= (depth == 1 ? 16 : 28);
}

/* One child after the first: a null window, reduced by LMR when it is late
 * and quiet, re-searched at full depth when it beats alpha and with the
 * full window when it lands inside it (principal variation search). */
static int later_child(Ab *ab, int d, int r, int alpha, int beta, int ply, bool same)
{
    int s;
    if (r > 0) {
        s = child(ab, d - r, alpha, alpha + 1, ply + 1, same);
        if (s <= alpha || ab->stopped) return s;
    }
    s = child(ab, d, alpha, alpha + 1, ply + 1, same);
    if (s > alpha && s < beta) s = child(ab, d, alpha, beta, ply + 1, same);
    return s;
}

/* The table's entry for the node: its action in *tt_move, and true with
 * *score when its bound settles the node. */
static bool tt_probe(const Ab *ab, Key key, int depth, int alpha, int beta, int ply, Action *tt_move, int *score)
{
    uint64_t slot = key & ab->mask;
    TtEntry e = tt_read(ab, slot);
    if (e.key != key) return false;
    *tt_move = e.move;
    if (ply == 0 || e.depth < depth) return false;
    int s = score_from_tt(e.score, ply);
    *score = s;
    return e.bound == BOUND_EXACT || (e.bound == BOUND_LOWER && s >= beta) || (e.bound == BOUND_UPPER && s <= alpha);
}

/* A node with no depth left and no removal owed is a leaf: search takes
 * it to the horizon before the table, so only the others read their
 * table entry, and only theirs are worth a prefetch. */
static inline bool is_leaf(int depth, bool removal) { return depth <= 0 && !removal; }

/* The action at i of the node's list, picked (pick). The next action's
 * table entry is fetched while this one's subtree is searched, if that
 * child reads the table (a placement or a ring move costs a depth; one
 * that makes a row has another key, and its fetch is of no use): from
 * the second action on, when the first did not cut and the node is
 * likely to search them all. The next action is picked early for it:
 * picking is the same choice made sooner (pick of a place already picked
 * keeps it). */
static inline Action pick_next(const Ab *ab, Action *list, int32_t *key, int i, int n, int depth)
{
    pick(list, key, i, n);
    if (i >= 1 && i + 1 < n && !is_leaf(depth - 1, false)) {
        pick(list, key, i + 1, n);
        Action next = list[i + 1];
        int next_kind = ACTION_KIND(next);
        if (next_kind == ACT_PLACE) __builtin_prefetch(&ab->tt[pos_key_after_place(&ab->pos, next) & ab->mask]);
        else if (next_kind == ACT_MOVE) __builtin_prefetch(&ab->tt[pos_key_after_move(&ab->pos, next) & ab->mask]);
    }
    return list[i];
}

static int search(Ab *ab, int depth, int alpha, int beta, int ply)
{
    Position *pos = &ab->pos;
    if (node_stops(ab)) return 0;
    int s;
    if (game_over(pos, ply, &s)) return s;
    bool removal = is_removal(pos->state);
    if (is_leaf(depth, removal) || ply >= MAX_PLY - 1) {
        acc_ready(ab, ply);
        return horizon(ab, alpha, beta, ply);
    }
    if (depth < 0) depth = 0;

    Action tt_move = ACTION_NONE;
    if (tt_probe(ab, pos->key, depth, alpha, beta, ply, &tt_move, &s)) return s;
    acc_ready(ab, ply);
    uint32_t tech = ab->cfg.tech;
    bool pv = beta - alpha > 1;
    /* the static evaluation, for the pruning that asks it */
    const uint32_t null_move = AB_NULL | AB_NULL2; /* either null move */
    int stand = !pv && !removal && (tech & (null_move | AB_FUTILITY)) ? evaluate(ab, pos, ply) : 0;
    if ((tech & null_move) && !pv && null_cuts(ab, depth, beta, ply, stand)) return beta;
    if (ab->stopped) return 0;

    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    int32_t key[MAX_ACTIONS];
    order_keys(ab, list, key, n, tt_move, depth, ply);
    int alpha0 = alpha, best = -AB_WIN - 1, me = pos->actor, searched = 0;
    Action best_move = ACTION_NONE;
    /* AB_SMP_ABDADA, AB_SMP_DEFER's helpers: the children left for
     * later, searched after the list. They are kept in the places of the list already gone through
     * (the k-th deferred at k, never past the action in hand), with the
     * rank they had in key[k], so that a child searched late is reduced
     * and pruned as where it stood. */
    int ndeferred = 0;
    bool marks = ab->busy && depth >= AB_DEFER_DEPTH, may_defer = marks && ab->defers;
    for (int j = 0; j < n + ndeferred; j++) {
        Action a = j < n ? pick_next(ab, list, key, j, n, depth) : list[j - n];
        int rank = j < n ? searched : key[j - n];
        int kind = ACTION_KIND(a);
        bool costs = kind == ACT_PLACE || kind == ACT_MOVE || kind == ACT_PASS || kind == ACT_SWAP;
        int d = depth - costs;
        Undo u;
        make(ab, a, &u, ply);
        bool same = pos->actor == me, removal_next = is_removal(pos->state);
        bool quiet = kind == ACT_MOVE && !removal_next && a != tt_move;
        if ((tech & AB_FUTILITY) && !pv && quiet && futile(depth, rank, alpha, stand)) {
            pos_unmake(pos, a, &u);
            continue;
        }
        /* AB_SMP_ABDADA, AB_SMP_DEFER's helpers: a child other than the
         * first that another thread is searching now waits for the end of
         * the list; every thread marks the children it searches */
        Key child_key = pos->key;
        _Atomic uint64_t *busy = marks ? &ab->busy[child_key & (BUSY_SLOTS - 1)] : NULL;
        if (may_defer && j < n && searched > 0 && atomic_load_explicit(busy, memory_order_relaxed) == child_key) {
            pos_unmake(pos, a, &u);
            list[ndeferred] = a;
            key[ndeferred++] = rank;
            continue;
        }
        if (busy) atomic_store_explicit(busy, child_key, memory_order_relaxed);
        /* the child reads its table entry first, unless it is a leaf;
         * the leaves are most nodes, and a fetch for each would only
         * compete with the ones that are read */
        if (!is_leaf(d, removal_next)) __builtin_prefetch(&ab->tt[pos->key & ab->mask]);
        int r = (tech & AB_LMR) && quiet && d > 1 ? ab->reduction[depth][rank] : 0;
        if (r >= d) r = d - 1;
        s = searched == 0 ? child(ab, d, alpha, beta, ply + 1, same) : later_child(ab, d, r, alpha, beta, ply, same);
        if (busy) {
            uint64_t mine = child_key;
            atomic_compare_exchange_strong_explicit(busy, &mine, 0, memory_order_relaxed, memory_order_relaxed);
        }
        searched++;
        pos_unmake(pos, a, &u);
        if (ab->stopped) return 0;
        if (s > best) {
            best = s;
            best_move = a;
            if (ply == 0) ab->root_best = a;
            if (s > alpha) alpha = s;
            if (alpha >= beta) {
                learn_cutoff(ab, a, depth, ply, me);
                break;
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    tt_store(ab, pos->key, depth, bound, best, best_move, ply);
    return best;
}

/* One depth at the root. AB_ASPIRATION: from depth 4 on, a window around
 * the last depth's score, widened on the side it fails by a doubling step
 * until the score lands inside; the narrow window cuts more, and most
 * depths land inside the first. */
static int root_search(Ab *ab, int depth, int last)
{
    const int full = AB_WIN + 1;
    if (!(ab->cfg.tech & AB_ASPIRATION) || depth < 4 || last >= AB_WIN_BOUND || last <= -AB_WIN_BOUND)
        return search(ab, depth, -full, full, 0);
    int delta = 150, lo = last - delta, hi = last + delta;
    for (;;) {
        int s = search(ab, depth, lo, hi, 0);
        if (ab->stopped || (s > lo && s < hi)) return s;
        delta *= 2;
        if (s <= lo) lo = s - delta < -AB_WIN_BOUND ? -full : s - delta;
        else hi = s + delta > AB_WIN_BOUND ? full : s + delta;
    }
}

/* AB_SMP_SKIP: Stockfish's pattern of the depths a helper skips (its
 * SkipSize and SkipPhase, Lazy SMP as of Stockfish 9): helper i (from 1)
 * takes row (i - 1) % 20 and skips depth d when (d + phase + row's phase)
 * / row's size is odd, phase being the root's (Stockfish: the game's
 * ply). The first helper searches every other depth, the next ones runs
 * of 2, 3 and 4 depths at staggered phases, so that the threads are at
 * different depths at once. */
static const uint8_t skip_size[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
static const uint8_t skip_phase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

static bool skips(const Ab *h, int d)
{
    int i = (h->id - 1) % 20;
    return (d + h->skip_phase + skip_phase[i]) / skip_size[i] % 2;
}

/* AB_SMP_SKIP: a helper's next depth, from d: past the depth the main
 * thread is searching (the one after its last completed), then past the
 * depths the pattern skips, the cap never skipped; 0 when the search is
 * over. */
static int skip_next_depth(const Ab *h, int d)
{
    if (atomic_load_explicit(&h->main->done, memory_order_relaxed)) return 0;
    int ahead = atomic_load_explicit(&h->main->main_done, memory_order_relaxed) + 2;
    if (d < ahead) d = ahead;
    while (d < h->helper_cap && skips(h, d)) d++;
    return d < h->helper_cap ? d : h->helper_cap;
}

/* A helper's search (Lazy SMP): iterative deepening over the main
 * thread's root to the main thread's cap, the odd helpers a depth ahead
 * (AB_SMP_LAZY, AB_SMP_DEFER),
 * each with its own history and killers, until the main thread is done.
 * What a helper finds reaches the main thread only through the shared
 * table: its entries cut the main thread's search and order its moves.
 * AB_SMP_SKIP: the depths of skip_next_depth instead, and a depth the
 * main thread completes while the helper is on it is left for the next
 * (what it stored stays in the table). */
static void *helper_run(void *arg)
{
    Ab *h = arg;
    int last = 0;
    bool skip = h->cfg.smp == AB_SMP_SKIP;
    /* Lazy SMP (and DEFER): the odd helpers a depth ahead; ABDADA: every thread at the same depth */
    for (int d = h->cfg.smp == AB_SMP_ABDADA ? 1 : 1 + (h->id & 1); d <= h->helper_cap; d++) {
        if (skip && !(h->depth_now = d = skip_next_depth(h, d))) break;
        h->root_best = ACTION_NONE;
        int s = root_search(h, d, last);
        if (h->stopped && h->aborted) {
            h->stopped = h->aborted = false;
            continue;
        }
        if (h->stopped) break;
        h->done_depth = d;
        h->done_score = s;
        h->done_action = h->root_best;
        if (s >= AB_WIN_BOUND || s <= -AB_WIN_BOUND || d == h->helper_cap) {
            atomic_store_explicit(&h->main->ahead, true, memory_order_relaxed);
            break;
        }
        last = s;
    }
    atomic_fetch_add_explicit(&h->main->helper_nodes, h->nodes % CHECK_EVERY, memory_order_relaxed);
    return NULL;
}

/* Starts the helpers on pos, to depth cap; *started says which ran. */
static void helpers_start(Ab *ab, const Position *pos, int cap, pthread_t *tid, bool *started)
{
    atomic_store_explicit(&ab->done, false, memory_order_relaxed);
    atomic_store_explicit(&ab->helper_nodes, 0, memory_order_relaxed);
    atomic_store_explicit(&ab->ahead, false, memory_order_relaxed);
    atomic_store_explicit(&ab->main_done, 0, memory_order_relaxed);
    atomic_store_explicit(&ab->shared_budget, 0, memory_order_relaxed);
    atomic_store_explicit(&ab->main_nodes, 0, memory_order_relaxed);
    /* a search stopped inside a subtree leaves its mark: none is kept */
    if (ab->busy)
        for (int i = 0; i < BUSY_SLOTS; i++) atomic_store_explicit(&ab->busy[i], 0, memory_order_relaxed);
    for (int i = 0; i < ab->nhelpers; i++) {
        Ab *h = ab->helpers[i];
        h->pos = *pos;
        h->root = *pos;
        h->nodes = 0;
        h->stopped = false;
        h->lim = (SearchLimits){0};
        h->budget = 0;
        h->report = NULL;
        h->gen = ab->gen;
        h->helper_cap = cap;
        h->done_depth = 0;
        h->depth_now = 0;
        h->aborted = false;
        /* AB_SMP_SKIP: the root's phase, a count that moves by one with
         * each placement and each ring move (Stockfish: the game's ply) */
        h->skip_phase = pos->placed + (MARKERS_NB - pos->pool);
        if (h->cfg.net) nnue_refresh(h->cfg.net, pos, &h->acc[0]);
        h->pending[0] = NULL;
        /* a helper that cannot be started leaves the work to the others */
        started[i] = pthread_create(&tid[i], NULL, helper_run, h) == 0;
    }
}

static void helpers_stop(Ab *ab, pthread_t *tid, const bool *started)
{
    atomic_store_explicit(&ab->done, true, memory_order_relaxed);
    for (int i = 0; i < ab->nhelpers; i++)
        if (started[i]) pthread_join(tid[i], NULL);
}

Action ab_search(Ab *ab, const Position *pos, const SearchLimits *lim, AbResult *res)
{
    ab->pos = *pos;
    ab->root = *pos;
    ab->has_root = true;
    ab->nodes = 0;
    ab->stopped = false;
    ab->lim = lim ? *lim : (SearchLimits){0};
    ab->report = ab->lim.report;
    ab->report_ctx = ab->lim.report_ctx;
    ab->report_s = ab->lim.report_s;
    ab->gen++;
    if (ab->cfg.net) nnue_refresh(ab->cfg.net, pos, &ab->acc[0]);
    ab->pending[0] = NULL;
    double start = clock_now();
    ab->next_report = start + ab->report_s;
    Action list[MAX_ACTIONS];
    AbResult r = {.legal = movegen_all(pos, list)};
    r.action = list[0]; /* only if depth 1 could not finish: it always does below */
    /* depth bounds the search without other limits (a stop flag alone
     * only ends it early), so that it plays as it does in self-play; a
     * deadline, a node budget or `until_stop` deepens it to max_depth
     * when that is set; a depth asked for is the cap itself */
    int deep = ab->cfg.max_depth ? ab->cfg.max_depth : ab->cfg.depth;
    int cap = ab->lim.depth > 0 ? ab->lim.depth
              : ab->lim.deadline > 0 || ab->lim.sims || ab->lim.until_stop ? deep
                                                                            : ab->cfg.depth;
    if (cap > AB_MAX_DEPTH) cap = AB_MAX_DEPTH;
    uint64_t budget = ab->lim.sims;
    SearchReport last = {0}; /* the report of the last depth completed */
    pthread_t tid[AB_MAX_THREADS];
    bool started[AB_MAX_THREADS] = {false};
    if (ab->nhelpers) helpers_start(ab, pos, cap, tid, started);
    for (int d = 1; d <= cap; d++) {
        ab->root_best = ACTION_NONE;
        ab->depth_now = d;
        /* depth 1 is always completed, whatever the clock or the budget says */
        SearchLimits limits = ab->lim;
        if (d == 1) ab->lim = (SearchLimits){0};
        ab->budget = d == 1 ? 0 : budget;
        if (ab->nhelpers) atomic_store_explicit(&ab->shared_budget, ab->budget, memory_order_relaxed);
        int s = root_search(ab, d, r.score);
        ab->lim = limits;
        if (ab->stopped) break;
        r.action = ab->root_best;
        r.score = s;
        r.depth = d;
        if (ab->nhelpers) atomic_store_explicit(&ab->main_done, d, memory_order_relaxed);
        if (ab->report) report_depth(ab, &r, &last);
        if (s >= AB_WIN_BOUND || s <= -AB_WIN_BOUND) break; /* proven: deeper finds nothing new */
        /* the next depth takes several times this one: do not start what cannot finish */
        if (ab->lim.deadline > 0 && clock_now() - start > (ab->lim.deadline - start) / 2) break;
        if (budget && total_nodes(ab) > budget / 2) break;
    }
    ab->budget = 0;
    if (ab->nhelpers) {
        helpers_stop(ab, tid, started);
        /* a helper that completed a deeper depth than the main thread
         * (an odd one runs a depth ahead) gives the answer: its search
         * saw further, and the main thread's table-fed depth did not
         * get there in time */
        for (int i = 0; i < ab->nhelpers; i++) {
            const Ab *h = ab->helpers[i];
            if (h->done_depth > r.depth && h->done_action != ACTION_NONE) {
                r.depth = h->done_depth;
                r.score = h->done_score;
                r.action = h->done_action;
                if (ab->report) report_depth(ab, &r, &last);
            }
        }
    }
    r.nodes = total_nodes(ab);
    /* the end: the last depth's line again, with the positions of a depth
     * left unfinished counted too */
    if (ab->report && r.nodes != last.nodes) {
        last.nodes = r.nodes;
        ab->report(ab->report_ctx, &last);
    }
    if (res) *res = r;
    return r.action;
}

/* The line from the root that begins with first (when legal there) and
 * goes on with the table's actions. */
static int line_from(const Ab *ab, Action first, Action *pv, int max)
{
    if (!ab->has_root || max < 1) return 0;
    Position pos = ab->root;
    int n = 0;
    for (Action a = first; n < max;) {
        int result, reason;
        if (a == ACTION_NONE || pos_outcome(&pos, &result, &reason) || !movegen_is_legal(&pos, a)) break;
        pv[n++] = a;
        Undo u;
        pos_make(&pos, a, &u);
        TtEntry e = tt_read(ab, pos.key & ab->mask);
        a = e.key == pos.key ? e.move : ACTION_NONE;
    }
    return n;
}

int ab_pv(const Ab *ab, Action *pv, int max)
{
    if (!ab->has_root) return 0;
    TtEntry e = tt_read(ab, ab->root.key & ab->mask);
    return line_from(ab, e.key == ab->root.key ? e.move : ACTION_NONE, pv, max);
}
