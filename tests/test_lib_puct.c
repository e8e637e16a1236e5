/* PUCT with an outside evaluator through libyinsh (include/yinsh.h,
 * yinsh_puct_*): the arrays a callback is handed, the same root visits as
 * the search in C (selfplay/search/mcts.h) over the same numbers given as
 * MctsLeaf, a failing callback and bad numbers stopping the search with
 * the callback's message, bad settings refused, a search in use refusing
 * another call (busy) and released only when it returns. It links the
 * shared library and, for the search in C, the static ones. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <yinsh.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/notation.h"
#include "selfplay/search/mcts.h"

#define START "4/7/8/9/10/9/10/9/8/7/4 w P standard"
#define MOVES "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"

/* What the test's callback does, and what it saw. */
typedef struct Callback {
    float value;    /* for every leaf */
    int fail_at;    /* > 0: the call of that number fails */
    bool nan;       /* gives NaN as a value */
    int calls, leaves, most;
    bool bad_arrays; /* a leaf whose planes or mask were not a position's */
} Callback;

/* Uniform priors (1 at every legal index), a constant value; checks that
 * each leaf's planes have the 85 points valid and its mask a legal action. */
static int lib_callback(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors, float *values,
                        char *err)
{
    Callback *c = ctx;
    if (++c->calls == c->fail_at) {
        snprintf(err, YINSH_ERR_LEN, "the net exploded on call %d", c->calls);
        return 1;
    }
    for (int l = 0; l < n; l++) {
        const float *valid = planes + (size_t)l * YINSH_OBSERVATION + YINSH_PLANE_VALID * YINSH_CELLS;
        float points = 0;
        for (int i = 0; i < YINSH_CELLS; i++) points += valid[i];
        int legal = 0;
        for (int i = 0; i < YINSH_ACTIONS; i++) {
            if (priors[(size_t)l * YINSH_ACTIONS + i] != 0) c->bad_arrays = true; /* 0 on entry */
            if (mask[(size_t)l * YINSH_ACTIONS + i]) {
                legal++;
                priors[(size_t)l * YINSH_ACTIONS + i] = 1;
            }
        }
        if (points != YINSH_POINTS || legal == 0) c->bad_arrays = true;
        values[l] = c->nan ? NAN : c->value;
    }
    c->leaves += n;
    if (n > c->most) c->most = n;
    return 0;
}

/* The same numbers as MctsLeaf, for the search in C. */
static int c_callback(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    (void)err;
    const Callback *c = ctx;
    for (int l = 0; l < n; l++) {
        for (int i = 0; i < leaves[l].nlegal; i++) leaves[l].prior[i] = 1;
        leaves[l].value = c->value;
    }
    return 0;
}

static yinsh_position *pos_of(const char *ypn)
{
    yinsh_position *p;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_position_from_ypn(&p, ypn, err), YINSH_OK, "%s: %s", ypn, err);
    return p;
}

/* One search through the library: the chosen index, the children by
 * index and their visits. */
static int lib_search(const yinsh_puct_config *cfg, Callback *c, const char *ypn, int *children, uint32_t *visits,
                      yinsh_move_stats *st)
{
    yinsh_puct *s;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_puct_new(&s, cfg, lib_callback, c, err), YINSH_OK, "%s", err);
    yinsh_position *p = pos_of(ypn);
    int index, k;
    cr_assert_eq(yinsh_puct_search(s, p, &index, st, children, visits, &k, err), YINSH_OK, "%s", err);
    cr_assert_eq(index >= 0 && index < YINSH_ACTIONS, true);
    yinsh_position_free(p);
    yinsh_puct_free(s);
    return k;
}

/* The same search in C: the root's children by index, as the library
 * gives them. */
static int c_search(const yinsh_puct_config *cfg, Callback *c, const char *ypn, int *children, uint32_t *visits,
                    MctsResult *r)
{
    MctsConfig mc = {.sims = cfg->sims, .c = cfg->c, .puct = true, .batch = cfg->batch, .fpu = cfg->fpu,
                     .evaluate_fn = c_callback, .evaluate_ctx = c};
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &mc, err), 0, "%s", err);
    Position pos;
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s", err);
    Rng rng;
    rng_seed(&rng, cfg->seed, 0);
    mcts_search(m, &pos, &rng, r);
    cr_assert_null(mcts_error(m));
    Action acts[MAX_ACTIONS];
    uint32_t v[MAX_ACTIONS];
    int k = mcts_root_children(m, acts, v, MAX_ACTIONS);
    /* ascending by index: each child's slot is the number of children with a smaller index */
    for (int i = 0; i < k; i++) {
        int at = 0;
        for (int j = 0; j < k; j++) at += encode_action(acts[j]) < encode_action(acts[i]);
        children[at] = encode_action(acts[i]);
        visits[at] = v[i];
    }
    mcts_free(m);
    return k;
}

Test(lib_puct, the_same_root_visits_as_the_search_in_c)
{
    const char *ypns[] = {START, MOVES};
    const uint32_t batches[] = {1, 8, 64};
    for (int y = 0; y < 2; y++)
        for (int b = 0; b < 3; b++) {
            yinsh_puct_config cfg = {.sims = 400, .c = 1.5, .batch = batches[b], .fpu = 0.2, .seed = 3};
            Callback lc = {.value = 0.6f}, cc = {.value = 0.6f};
            int li[YINSH_MAX_ACTIONS], ci[MAX_ACTIONS];
            uint32_t lv[YINSH_MAX_ACTIONS], cv[MAX_ACTIONS];
            yinsh_move_stats st;
            MctsResult r;
            int lk = lib_search(&cfg, &lc, ypns[y], li, lv, &st);
            int ck = c_search(&cfg, &cc, ypns[y], ci, cv, &r);
            cr_assert_eq(lc.bad_arrays, false, "planes and masks of positions");
            cr_assert_eq(lc.most <= (int)batches[b], true);
            cr_assert_eq(lk, ck, "%s, batch %u", ypns[y], (unsigned)batches[b]);
            uint32_t sum = 0;
            for (int i = 0; i < lk; i++) {
                cr_assert_eq(li[i], ci[i]);
                cr_assert_eq(lv[i], cv[i], "%s, batch %u, child %d", ypns[y], (unsigned)batches[b], li[i]);
                if (i) cr_assert_lt(li[i - 1], li[i], "ascending by index");
                sum += lv[i];
            }
            cr_assert_eq(sum + 1, st.root_visits, "the root's own evaluation and its children's visits");
            cr_assert_eq(st.root_visits, r.root_visits);
            cr_assert_eq(st.chosen_visits, r.chosen_visits);
            cr_assert_float_eq(st.root_value, r.root_value, 1e-12);
            cr_assert_eq(st.sims, 400u);
            cr_assert_eq(st.searched, 1);
            cr_assert_eq(st.pv[0], encode_action(r.action));
        }
}

/* A game of self-play through the library, the tree kept across actions. */
Test(lib_puct, plays_a_game_keeping_its_tree)
{
    yinsh_puct_config cfg = {.sims = 64, .c = 1.5, .batch = 16, .temp = 1, .temp_moves = 10, .noise = 0.25,
                             .seed = 5};
    Callback c = {.value = 0.5f};
    yinsh_puct *s;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_puct_new(&s, &cfg, lib_callback, &c, err), YINSH_OK, "%s", err);
    yinsh_position *p = pos_of(START);
    int plies = 0, kept = 0;
    while (!yinsh_position_outcome(p, NULL, NULL) && plies < YINSH_GAME_MAX) {
        int index;
        yinsh_move_stats st;
        cr_assert_eq(yinsh_puct_search(s, p, &index, &st, NULL, NULL, NULL, err), YINSH_OK, "%s", err);
        kept += st.root_visits > st.sims;
        cr_assert_eq(yinsh_puct_advance(s, p, index, err), YINSH_OK, "%s", err);
        cr_assert_eq(yinsh_position_apply(p, index, err), YINSH_OK, "%s", err);
        plies++;
    }
    cr_assert_eq(yinsh_position_outcome(p, NULL, NULL), 1, "the game ends");
    cr_assert_gt(kept, 0, "some searches start from a kept subtree");
    int index;
    cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, NULL, err), YINSH_ERR_USAGE);
    cr_assert_eq(yinsh_puct_advance(s, p, 0, err), YINSH_ERR_USAGE);
    yinsh_position_free(p);
    yinsh_puct_free(s);
}

/* A callback that fails stops the search with its message; so does a
 * value that is not one; the handle searches again afterwards. */
Test(lib_puct, a_failing_callback_stops_the_search)
{
    for (uint32_t threads = 1; threads <= 2; threads++) {
        yinsh_puct_config cfg = {.sims = 200, .c = 1.5, .batch = 8, .threads = threads};
        Callback c = {.value = 0.5f, .fail_at = 3};
        yinsh_puct *s;
        char err[YINSH_ERR_LEN];
        cr_assert_eq(yinsh_puct_new(&s, &cfg, lib_callback, &c, err), YINSH_OK, "%s", err);
        yinsh_position *p = pos_of(MOVES);
        int index = 0, k = 7;
        cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, &k, err), YINSH_ERR_FAIL);
        cr_assert_eq(index, -1);
        cr_assert_eq(k, 0);
        cr_assert_not_null(strstr(err, "the net exploded on call 3"), "%s", err);
        c.fail_at = 0;
        c.nan = true;
        yinsh_puct_new_game(s);
        cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, NULL, err), YINSH_ERR_FAIL);
        cr_assert_not_null(strstr(err, "the evaluator gave"), "%s", err);
        c.nan = false;
        yinsh_puct_new_game(s);
        cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, NULL, err), YINSH_OK, "%s", err);
        yinsh_position_free(p);
        yinsh_puct_free(s);
    }
}

/* A callback that returns non-zero without a message gets one. */
static int silent_failure(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors, float *values,
                          char *err)
{
    (void)ctx, (void)n, (void)planes, (void)mask, (void)priors, (void)values, (void)err;
    return -7;
}

Test(lib_puct, bad_settings_and_silent_failures)
{
    yinsh_puct *s = (yinsh_puct *)1;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_constant("PUCT_MAX_BATCH"), YINSH_PUCT_MAX_BATCH);
    yinsh_puct_config cfg = {.sims = 0, .c = 1};
    cr_assert_eq(yinsh_puct_new(&s, &cfg, lib_callback, NULL, err), YINSH_ERR_USAGE);
    cr_assert_null(s);
    cr_assert_not_null(strstr(err, "sims"), "%s", err);
    cfg.sims = 10;
    cr_assert_eq(yinsh_puct_new(&s, &cfg, NULL, NULL, err), YINSH_ERR_USAGE);
    cfg.batch = YINSH_PUCT_MAX_BATCH + 1;
    cr_assert_eq(yinsh_puct_new(&s, &cfg, lib_callback, NULL, err), YINSH_ERR_USAGE);
    cfg.batch = 4;
    cfg.noise = 2;
    cr_assert_eq(yinsh_puct_new(&s, &cfg, lib_callback, NULL, err), YINSH_ERR_USAGE);
    cfg.noise = 0;
    /* what the mcts agent's keys refuse, the library refuses: beyond them
     * a search degenerates (c or alpha infinite: every visit on one
     * child; a tree without room for the root's children: an action
     * chosen with no visit) */
    const struct {
        double c, alpha, noise, temp, fpu;
        uint32_t nodes;
        const char *says;
    } bad[] = {
        {INFINITY, 0, 0, 0, 0, 0, "c inf"}, {101, 0, 0, 0, 0, 0, "c 101"}, {NAN, 0, 0, 0, 0, 0, "c nan"},
        {1, INFINITY, 0.25, 0, 0, 0, "alpha inf"}, {1, 0, 0, INFINITY, 0, 0, "temp inf"},
        {1, 0, 0, 0, NAN, 0, "fpu nan"}, {1, 0, 0, 0, 0, 1, "nodes 1"}, {1, 0, 0, 0, 0, YINSH_MAX_ACTIONS, "nodes 256"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        yinsh_puct_config b = {.sims = 10, .c = bad[i].c, .alpha = bad[i].alpha, .noise = bad[i].noise,
                               .temp = bad[i].temp, .fpu = bad[i].fpu, .nodes = bad[i].nodes};
        s = (yinsh_puct *)1;
        cr_assert_eq(yinsh_puct_new(&s, &b, lib_callback, NULL, err), YINSH_ERR_USAGE, "%s was taken", bad[i].says);
        cr_assert_null(s);
        cr_assert_not_null(strstr(err, bad[i].says), "%s: %s", bad[i].says, err);
    }
    yinsh_puct_config fits = {.sims = 10, .c = 100, .alpha = 100, .noise = 1, .temp = 100, .fpu = 1,
                              .nodes = YINSH_MAX_ACTIONS + 1};
    cr_assert_eq(yinsh_puct_new(&s, &fits, lib_callback, NULL, err), YINSH_OK, "%s", err);
    yinsh_puct_free(s);
    cr_assert_eq(yinsh_puct_new(&s, &cfg, silent_failure, NULL, err), YINSH_OK, "%s", err);
    yinsh_position *p = pos_of(START);
    int index;
    cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, NULL, err), YINSH_ERR_FAIL);
    cr_assert_not_null(strstr(err, "the evaluator failed (-7)"), "%s", err);
    yinsh_position_free(p);
    yinsh_puct_free(s);
    yinsh_puct_free(NULL);
}

/* Swap shares index 1933 with pass: in state P of a +swap variant the
 * index is the swap, which the search chooses and advance plays on. */
static int swap_callback(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors, float *values,
                         char *err)
{
    (void)ctx, (void)planes, (void)err;
    for (int l = 0; l < n; l++) {
        for (int i = 0; i < YINSH_ACTIONS; i++)
            if (mask[(size_t)l * YINSH_ACTIONS + i]) priors[(size_t)l * YINSH_ACTIONS + i] = i == YINSH_PASS ? 1000 : 1;
        values[l] = 0.5f;
    }
    return 0;
}

Test(lib_puct, swap_is_searched_and_advanced)
{
    yinsh_puct_config cfg = {.sims = 30, .c = 1.5, .batch = 4, .seed = 1};
    yinsh_puct *s;
    char err[YINSH_ERR_LEN], text[YINSH_ACTION_LEN];
    cr_assert_eq(yinsh_puct_new(&s, &cfg, swap_callback, NULL, err), YINSH_OK, "%s", err);
    yinsh_position *p = pos_of("4/7/8/9/6W3/9/10/9/8/7/4 b P standard+swap");
    int index;
    yinsh_move_stats st;
    cr_assert_eq(yinsh_puct_search(s, p, &index, &st, NULL, NULL, NULL, err), YINSH_OK, "%s", err);
    cr_assert_eq(index, YINSH_PASS, "the heavy prior is the swap's");
    cr_assert_eq(st.pv[0], YINSH_PASS);
    cr_assert_eq(yinsh_puct_advance(s, p, index, err), YINSH_OK, "%s", err);
    cr_assert_eq(yinsh_position_apply(p, index, err), YINSH_OK, "%s", err);
    char ypn[YINSH_YPN_LEN];
    yinsh_position_ypn(p, ypn);
    cr_assert_str_eq(ypn, "4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap");
    cr_assert_eq(yinsh_position_action_index(p, "e5", &index, err), YINSH_OK, "%s", err);
    cr_assert_eq(yinsh_puct_search(s, p, &index, NULL, NULL, NULL, NULL, err), YINSH_OK, "%s", err);
    yinsh_action_text(YINSH_PASS, text);
    cr_assert_str_eq(text, "pass", "by index alone");
    yinsh_position_free(p);
    yinsh_puct_free(s);
}

/* ---- a search in use (include/yinsh.h, "Agents and PUCT searches in use") */

/* An evaluator that calls back into its own search (what: search,
 * advance, new game, free) once, recording what the call returned. */
typedef struct Reentry {
    yinsh_puct *s;
    yinsh_position *p;
    int what, calls, rc;
    char err[YINSH_ERR_LEN];
} Reentry;

enum { RE_SEARCH, RE_ADVANCE, RE_NEW_GAME, RE_FREE };

static int reentering(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors, float *values,
                      char *err)
{
    (void)planes, (void)mask, (void)priors, (void)err;
    Reentry *r = ctx;
    if (r->calls++ == 1) {
        int index;
        if (r->what == RE_SEARCH) r->rc = yinsh_puct_search(r->s, r->p, &index, NULL, NULL, NULL, NULL, r->err);
        if (r->what == RE_ADVANCE) r->rc = yinsh_puct_advance(r->s, r->p, 0, r->err);
        if (r->what == RE_NEW_GAME) yinsh_puct_new_game(r->s);
        if (r->what == RE_FREE) yinsh_puct_free(r->s);
    }
    for (int l = 0; l < n; l++) values[l] = 0.5f;
    return 0;
}

Test(lib_puct, a_search_refuses_its_own_evaluator)
{
    for (int what = RE_SEARCH; what <= RE_FREE; what++) {
        yinsh_puct_config cfg = {.sims = 60, .c = 1.5, .batch = 4};
        Reentry r = {.what = what, .rc = 99, .p = pos_of(START)};
        char err[YINSH_ERR_LEN];
        cr_assert_eq(yinsh_puct_new(&r.s, &cfg, reentering, &r, err), YINSH_OK, "%s", err);
        int index;
        yinsh_move_stats st;
        /* the search goes on as it would have: the call from inside did nothing */
        cr_assert_eq(yinsh_puct_search(r.s, r.p, &index, &st, NULL, NULL, NULL, err), YINSH_OK, "%d: %s", what, err);
        cr_assert_eq(st.sims, 60u);
        if (what == RE_SEARCH || what == RE_ADVANCE) {
            cr_assert_eq(r.rc, YINSH_ERR_BUSY, "%d", what);
            cr_assert_str_eq(yinsh_error_name(r.rc), "busy");
            cr_assert_not_null(strstr(r.err, "the PUCT search is busy"), "%s", r.err);
        }
        if (what == RE_FREE) {
            /* released when the search returned (ASan's leak check sees it) */
            yinsh_position_free(r.p);
            continue;
        }
        /* a new game asked during the search forgot the tree after it:
         * the next search of the same position starts afresh */
        cr_assert_eq(yinsh_puct_search(r.s, r.p, &index, &st, NULL, NULL, NULL, err), YINSH_OK, "%s", err);
        if (what == RE_NEW_GAME) cr_assert_eq(st.root_visits, 60u, "the tree was forgotten");
        else cr_assert_gt(st.root_visits, 60u, "the tree was kept");
        yinsh_position_free(r.p);
        yinsh_puct_free(r.s);
    }
}

/* An evaluator that holds the search until the test lets it go. */
typedef struct Held {
    atomic_int inside, go;
    yinsh_puct *s;
    yinsh_position *p;
    int rc, index;
    char err[YINSH_ERR_LEN];
} Held;

static int holding(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors, float *values, char *err)
{
    (void)planes, (void)mask, (void)priors, (void)err;
    Held *h = ctx;
    atomic_store(&h->inside, 1);
    while (!atomic_load(&h->go)) sched_yield();
    for (int l = 0; l < n; l++) values[l] = 0.5f;
    return 0;
}

static void *search_thread(void *arg)
{
    Held *h = arg;
    h->rc = yinsh_puct_search(h->s, h->p, &h->index, NULL, NULL, NULL, NULL, h->err);
    return NULL;
}

/* Another thread's calls during a search: a search or an advance
 * refused (busy), a free left for the search, which answers and then
 * releases it. */
Test(lib_puct, another_thread_cannot_free_a_search_under_it)
{
    for (uint32_t threads = 1; threads <= 2; threads++) {
        yinsh_puct_config cfg = {.sims = 40, .c = 1.5, .threads = threads};
        Held h = {.p = pos_of(MOVES)};
        char err[YINSH_ERR_LEN];
        cr_assert_eq(yinsh_puct_new(&h.s, &cfg, holding, &h, err), YINSH_OK, "%s", err);
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, search_thread, &h), 0);
        while (!atomic_load(&h.inside)) sched_yield();
        int index;
        cr_assert_eq(yinsh_puct_search(h.s, h.p, &index, NULL, NULL, NULL, NULL, err), YINSH_ERR_BUSY);
        cr_assert_not_null(strstr(err, "busy"), "%s", err);
        int legal[YINSH_MAX_ACTIONS];
        cr_assert_gt(yinsh_position_legal(h.p, legal), 0);
        cr_assert_eq(yinsh_puct_advance(h.s, h.p, legal[0], err), YINSH_ERR_BUSY, "%s", err);
        yinsh_puct_free(h.s); /* left for the search */
        atomic_store(&h.go, 1);
        pthread_join(t, NULL);
        cr_assert_eq(h.rc, YINSH_OK, "%s", h.err);
        cr_assert(h.index >= 0);
        yinsh_position_free(h.p);
    }
}
