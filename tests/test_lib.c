/* The C API of libyinsh (include/yinsh.h), through the shared library as a
 * program links it: versions and error codes, positions (YPN, legal
 * actions as text and indices, apply, outcome, planes, SVG), agents by
 * spec with their figures, an external engine that must be told its game,
 * and a database's games and training positions against what the yinsh
 * binary stored and exports. Nothing here includes an engine header. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <yinsh.h>
#include "tests/test_proc.h"

#define START "4/7/8/9/10/9/10/9/8/7/4 w P standard"
#define MOVES "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"
#define ROW_SIX "W2B/W5B/8/9/1wwwwww3/3W5/10/9/8/6B/WWBB w R standard"
#define WON "W2B/W6/8/9/2w7/3b5/10/9/8/6B/2B1 w - standard"

static yinsh_position *pos_of(const char *ypn)
{
    yinsh_position *p;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_position_from_ypn(&p, ypn, err), YINSH_OK, "%s: %s", ypn, err);
    return p;
}

Test(lib, versions_and_names)
{
    cr_expect_eq(yinsh_api_version(), YINSH_API_VERSION);
    cr_expect_str_eq(yinsh_version(), YINSH_VERSION);
    cr_expect_str_eq(yinsh_error_name(YINSH_ERR_USAGE), "usage");
    cr_expect_str_eq(yinsh_error_name(YINSH_ERR_NOT_FOUND), "not-found");
    cr_expect_str_eq(yinsh_error_name(YINSH_ERR_BUSY), "busy");
    cr_expect_str_eq(yinsh_error_name(7), "?");
    cr_expect_str_eq(yinsh_error_name(-8), "?");
    cr_expect_str_eq(yinsh_result_name(YINSH_RESULT_DRAW), "draw");
    cr_expect_str_eq(yinsh_reason_name(YINSH_REASON_POOL_EMPTY), "pool-empty");
    cr_expect_str_eq(yinsh_variant_name(YINSH_BLITZ), "blitz");
    cr_expect_str_eq(yinsh_variant_name(9), "?");
    cr_expect_eq(yinsh_plane_scale(YINSH_PLANE_POOL), 51);
    cr_expect_eq(yinsh_plane_scale(YINSH_PLANE_OWN_REMOVED), 3);
    cr_expect_eq(yinsh_plane_scale(YINSH_PLANES), 0);
}

/* The header's numbers by name, for bindings that cannot read it. */
Test(lib, constants_by_name)
{
    cr_expect_eq(yinsh_constant("ACTIONS"), YINSH_ACTIONS);
    cr_expect_eq(yinsh_constant("PLANES"), YINSH_PLANES);
    cr_expect_eq(yinsh_constant("OBSERVATION"), YINSH_OBSERVATION);
    cr_expect_eq(yinsh_constant("GRID"), 11);
    cr_expect_eq(yinsh_constant("PASS"), YINSH_PASS);
    cr_expect_eq(yinsh_constant("RING0"), 2057);
    cr_expect_eq(yinsh_constant("ERR_LEN"), YINSH_ERR_LEN);
    cr_expect_eq(yinsh_constant("LEGAL_TEXT_LEN"), YINSH_LEGAL_TEXT_LEN);
    cr_expect_eq(yinsh_constant("PV_MAX"), YINSH_PV_MAX);
    cr_expect_eq(yinsh_constant("GAME_MAX"), YINSH_GAME_MAX);
    cr_expect_eq(yinsh_constant("actions"), -1);
    cr_expect_eq(yinsh_constant("YINSH_ACTIONS"), -1);
    cr_expect_eq(yinsh_constant(""), -1);
    cr_expect_eq(yinsh_constant(NULL), -1);
}

/* The layout and the symmetries at the boundary (their truth is
 * test_symmetry's): the engine's tables, and untrusted arguments refused. */
Test(lib, layout_and_symmetries)
{
    int channel, cell;
    cr_expect_eq(yinsh_constant("CHANNELS"), YINSH_CHANNELS);
    cr_expect_eq(yinsh_constant("SYMMETRIES"), 12);
    cr_expect_eq(yinsh_action_slot(YINSH_PASS, &channel, &cell), YINSH_OK);
    cr_expect(channel == YINSH_CHANNEL_PASS && cell == 60);
    cr_expect_eq(yinsh_slot_action(channel, cell), YINSH_PASS);
    cr_expect_eq(yinsh_action_slot(YINSH_ACTIONS, &channel, &cell), YINSH_ERR_USAGE);
    cr_expect(channel == -1 && cell == -1);
    cr_expect_eq(yinsh_action_slot(-1, &channel, &cell), YINSH_ERR_USAGE);
    cr_expect_eq(yinsh_slot_action(YINSH_CHANNELS, 0), -1);
    cr_expect_eq(yinsh_slot_action(0, -1), -1);
    cr_expect_eq(yinsh_symmetry_cell(12, 0), -1);
    cr_expect_eq(yinsh_symmetry_cell(0, YINSH_CELLS), -1);
    cr_expect_eq(yinsh_symmetry_action(-1, 0), -1);
    cr_expect_eq(yinsh_symmetry_action(0, YINSH_ACTIONS), -1);
    cr_expect_eq(yinsh_symmetry_channel(0, YINSH_CHANNELS), -1);
    cr_expect_eq(yinsh_symmetry_inverse(12), -1);
    cr_expect_eq(yinsh_symmetry_inverse(1), 5);
    cr_expect_eq(yinsh_symmetry_action(3, YINSH_PASS), YINSH_PASS);

    /* e5 placed, seen in rotation 1: (x, y) = (-1, -1) -> (0, -1), f5 */
    yinsh_position *p, *q;
    char err[YINSH_ERR_LEN] = "", ypn[YINSH_YPN_LEN];
    int e5, f5;
    cr_assert_eq(yinsh_position_new(&p, YINSH_STANDARD, err), YINSH_OK);
    cr_assert_eq(yinsh_action_index("e5", &e5, err), YINSH_OK);
    cr_assert_eq(yinsh_action_index("f5", &f5, err), YINSH_OK);
    cr_assert_eq(yinsh_position_apply(p, e5, err), YINSH_OK);
    cr_expect_eq(yinsh_symmetry_action(1, e5), f5);
    cr_assert_eq(yinsh_position_symmetric(&q, p, 1, err), YINSH_OK, "%s", err);
    yinsh_position_free(p);
    cr_assert_eq(yinsh_position_new(&p, YINSH_STANDARD, err), YINSH_OK);
    cr_assert_eq(yinsh_position_apply(p, f5, err), YINSH_OK);
    cr_expect_eq(yinsh_position_key(q), yinsh_position_key(p));
    yinsh_position_ypn(q, ypn);
    char want[YINSH_YPN_LEN];
    yinsh_position_ypn(p, want);
    cr_expect_str_eq(ypn, want);
    yinsh_position_free(q);
    cr_expect_eq(yinsh_position_symmetric(&q, p, 12, err), YINSH_ERR_USAGE);
    cr_expect_null(q);
    cr_expect(strstr(err, "symmetry 12") != NULL, "%s", err);
    yinsh_position_free(p);
}

Test(lib, positions_from_and_to_ypn)
{
    yinsh_position *p;
    char err[YINSH_ERR_LEN] = "", ypn[YINSH_YPN_LEN];
    cr_assert_eq(yinsh_position_new(&p, YINSH_STANDARD, err), YINSH_OK);
    yinsh_position_ypn(p, ypn);
    cr_expect_str_eq(ypn, START);
    yinsh_position_free(p);
    /* the rule options or'ed in (docs/rules.md §9); 8 is no variant */
    cr_assert_eq(yinsh_position_new(&p, YINSH_BLITZ | YINSH_SWAP | YINSH_DRAW_ODDS, err), YINSH_OK);
    yinsh_position_ypn(p, ypn);
    cr_expect_str_eq(ypn, "4/7/8/9/10/9/10/9/8/7/4 w P blitz+swap+draw-odds");
    cr_expect_str_eq(yinsh_variant_name(yinsh_position_variant(p)), "blitz+swap+draw-odds");
    yinsh_position_free(p);
    cr_expect_eq(yinsh_position_new(&p, 8, err), YINSH_ERR_USAGE);
    cr_expect_null(p);
    cr_expect_eq(yinsh_position_from_ypn(&p, "4/7/8/9/10/9/10/9/8/7/4 b P standard", err), YINSH_ERR_USAGE);
    cr_expect(strstr(err, "actor") != NULL, "message: %s", err);
    cr_expect_null(p);
    /* err may be NULL: the code alone */
    cr_expect_eq(yinsh_position_from_ypn(&p, "nonsense", NULL), YINSH_ERR_USAGE);
    p = pos_of(ROW_SIX);
    cr_expect_eq(yinsh_position_actor(p), YINSH_WHITE);
    cr_expect_eq(yinsh_position_state(p), YINSH_STATE_R);
    cr_expect_eq(yinsh_position_variant(p), YINSH_STANDARD);
    cr_expect_eq(yinsh_position_pool(p), 45);
    cr_expect_eq(yinsh_position_removed(p, YINSH_BLACK), 0);
    yinsh_position *q;
    cr_assert_eq(yinsh_position_copy(&q, p, err), YINSH_OK);
    cr_expect_eq(yinsh_position_key(p), yinsh_position_key(q));
    yinsh_position_free(p);
    yinsh_position_free(q);
    yinsh_position_free(NULL);
}

Test(lib, legal_actions_as_text_and_indices)
{
    yinsh_position *p = pos_of(MOVES);
    char text[YINSH_LEGAL_TEXT_LEN], small[16];
    int idx[YINSH_MAX_ACTIONS];
    uint8_t mask[YINSH_ACTIONS];
    cr_assert_eq(yinsh_position_legal_text(p, text, sizeof text), 54);
    /* docs/notation.md §4: the list begins with e10's moves */
    cr_expect(!strncmp(text, "e10-b7 e10-c8 e10-d9 e10-f10 ", 29), "%.60s", text);
    cr_expect_eq(yinsh_position_legal_text(p, small, sizeof small), YINSH_ERR_USAGE);
    cr_assert_eq(yinsh_position_legal(p, idx), 54);
    cr_assert_eq(yinsh_position_legal_mask(p, mask), 54);
    /* the indices' texts, joined, are the text list */
    char joined[YINSH_LEGAL_TEXT_LEN] = "";
    for (int k = 0; k < 54; k++) {
        char a[YINSH_ACTION_LEN];
        cr_assert_eq(yinsh_action_text(idx[k], a), YINSH_OK);
        cr_assert(mask[idx[k]]);
        if (k) strcat(joined, " ");
        strcat(joined, a);
    }
    cr_expect_str_eq(joined, text);
    int i;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_position_action_index(p, "e10-b7", &i, err), YINSH_OK, "%s", err);
    cr_expect_eq(i, idx[0]);
    cr_expect_eq(yinsh_position_action_index(p, "e5", &i, err), YINSH_ERR_USAGE);
    cr_expect(strstr(err, "illegal") != NULL, "message: %s", err);
    cr_expect_eq(i, -1);
    /* by form alone: a row's ends in either order */
    cr_assert_eq(yinsh_action_index("xe6-e2", &i, err), YINSH_OK, "%s", err);
    cr_expect_eq(i, YINSH_ROW0 + 62);
    cr_expect_eq(yinsh_action_index("e5-f7", &i, err), YINSH_ERR_USAGE);
    cr_expect_eq(yinsh_action_text(YINSH_ACTIONS, text), YINSH_ERR_USAGE);
    yinsh_position_free(p);
}

Test(lib, apply_and_outcome)
{
    yinsh_position *p = pos_of(ROW_SIX);
    char err[YINSH_ERR_LEN], ypn[YINSH_YPN_LEN];
    int result = -1, reason = -1;
    cr_expect_eq(yinsh_position_outcome(p, &result, &reason), 0);
    cr_expect_eq(result, YINSH_RESULT_NONE);
    cr_expect_eq(reason, YINSH_REASON_NONE);
    /* an illegal action leaves the position as it was */
    cr_expect_eq(yinsh_position_apply(p, YINSH_PASS, err), YINSH_ERR_USAGE);
    cr_expect(strstr(err, "not legal") != NULL, "message: %s", err);
    cr_expect_eq(yinsh_position_apply(p, -3, err), YINSH_ERR_USAGE);
    cr_expect_eq(yinsh_position_apply_text(p, "xe2-e7", err), YINSH_ERR_USAGE);
    yinsh_position_ypn(p, ypn);
    cr_expect_str_eq(ypn, ROW_SIX);
    cr_assert_eq(yinsh_position_apply(p, YINSH_ROW0 + 64, err), YINSH_OK, "%s", err); /* xe3-e7 */
    cr_assert_eq(yinsh_position_apply_text(p, "xk7", err), YINSH_OK, "%s", err);
    yinsh_position_ypn(p, ypn);
    cr_expect_str_eq(ypn, "W2B/W5B/8/9/1w8/3W5/10/9/8/6B/1WBB b M standard");
    cr_expect_eq(yinsh_position_removed(p, YINSH_WHITE), 1);
    yinsh_position_free(p);
    p = pos_of(WON);
    cr_expect_eq(yinsh_position_outcome(p, &result, NULL), 1);
    cr_expect_eq(result, YINSH_RESULT_WHITE);
    cr_expect_eq(yinsh_position_outcome(p, NULL, &reason), 1);
    cr_expect_eq(reason, YINSH_REASON_THREE_RINGS);
    int idx[YINSH_MAX_ACTIONS];
    cr_expect_eq(yinsh_position_legal(p, idx), 0);
    yinsh_position_free(p);
}

Test(lib, planes_and_svg)
{
    yinsh_position *p = pos_of(ROW_SIX);
    uint8_t raw[YINSH_OBSERVATION];
    float f[YINSH_OBSERVATION];
    cr_assert_eq(yinsh_position_planes_raw(p, YINSH_VIEW_ACTOR, raw), YINSH_OK);
    cr_assert_eq(yinsh_position_planes(p, YINSH_VIEW_ACTOR, f), YINSH_OK);
    cr_expect_eq(raw[YINSH_PLANE_OWN_RINGS * YINSH_CELLS + 59], 1); /* f5 */
    cr_expect_eq(raw[YINSH_PLANE_OWN_MARKERS * YINSH_CELLS + 45], 1); /* e2 */
    cr_expect_eq(raw[YINSH_PLANE_POOL * YINSH_CELLS + 59], 45);
    cr_expect_eq(f[YINSH_PLANE_POOL * YINSH_CELLS + 59], 45.0f / 51.0f);
    cr_expect_eq(yinsh_position_planes(p, 3, f), YINSH_ERR_USAGE);
    char *svg = NULL, err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_position_svg(p, NULL, 300, &svg, err), YINSH_OK, "%s", err);
    cr_expect(!strncmp(svg, "<svg", 4) || strstr(svg, "<svg") != NULL);
    cr_expect(strstr(svg, "</svg>") != NULL);
    yinsh_free(svg);
    /* a last action that cannot have led here */
    cr_expect_eq(yinsh_position_svg(p, "e5-e8", 300, &svg, err), YINSH_ERR_USAGE);
    cr_expect_null(svg);
    cr_expect_eq(yinsh_position_svg(p, NULL, 10, &svg, err), YINSH_ERR_USAGE);
    yinsh_position_free(p);
}

/* Plays a game between two agents through the API; its actions as text
 * into record (space-separated) and the final position's outcome. */
static int play(yinsh_agent *w, yinsh_agent *b, char *record, size_t size, int *result)
{
    yinsh_position *p;
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_position_new(&p, YINSH_STANDARD, err), YINSH_OK);
    record[0] = '\0';
    int n = 0;
    while (!yinsh_position_outcome(p, result, NULL)) {
        yinsh_agent *a = yinsh_position_actor(p) == YINSH_WHITE ? w : b;
        int i;
        yinsh_move_stats st;
        cr_assert_eq(yinsh_agent_choose(a, p, &i, &st, err), YINSH_OK, "%s", err);
        cr_assert(st.legal > 0);
        cr_assert_eq(yinsh_agent_observe(w, p, i, err), YINSH_OK, "%s", err);
        if (b != w) cr_assert_eq(yinsh_agent_observe(b, p, i, err), YINSH_OK, "%s", err);
        char t[YINSH_ACTION_LEN];
        yinsh_action_text(i, t);
        if (n++) strncat(record, " ", size - strlen(record) - 1);
        strncat(record, t, size - strlen(record) - 1);
        cr_assert_eq(yinsh_position_apply(p, i, err), YINSH_OK, "%s", err);
        cr_assert(n < YINSH_GAME_MAX);
    }
    yinsh_position_free(p);
    return n;
}

Test(lib, agents_choose_with_their_figures)
{
    yinsh_agent *a, *b;
    char err[YINSH_ERR_LEN], spec[YINSH_SPEC_LEN];
    cr_expect_eq(yinsh_agent_new(&a, "mcts:sims=x", 1, err), YINSH_ERR_USAGE);
    cr_expect(strstr(err, "sims") != NULL, "message: %s", err);
    cr_expect_null(a);
    cr_expect_eq(yinsh_agent_new(&a, "frobnicate", 1, NULL), YINSH_ERR_USAGE);
    /* the same seed, the same game */
    char g1[4096], g2[4096];
    int r1, r2;
    cr_assert_eq(yinsh_agent_new(&a, "random", 9, err), YINSH_OK, "%s", err);
    int n1 = play(a, a, g1, sizeof g1, &r1);
    yinsh_agent_free(a);
    cr_assert_eq(yinsh_agent_new(&a, "random", 9, err), YINSH_OK, "%s", err);
    int n2 = play(a, a, g2, sizeof g2, &r2);
    yinsh_agent_free(a);
    cr_expect_eq(n1, n2);
    cr_expect_str_eq(g1, g2);
    cr_expect_eq(r1, r2);
    /* MCTS: a search of its simulations, a value, a principal variation */
    cr_assert_eq(yinsh_agent_new(&a, "mcts:sims=64", 3, err), YINSH_OK, "%s", err);
    yinsh_agent_spec(a, spec);
    cr_expect_str_eq(spec, "mcts:sims=64,c=1,rollout=random");
    yinsh_position *p = pos_of(MOVES);
    int i;
    yinsh_move_stats st;
    cr_assert_eq(yinsh_agent_choose(a, p, &i, &st, err), YINSH_OK, "%s", err);
    uint8_t mask[YINSH_ACTIONS];
    yinsh_position_legal_mask(p, mask);
    cr_expect(i >= 0 && i < YINSH_ACTIONS && mask[i], "index %d", i);
    cr_expect_eq(st.legal, 54);
    cr_expect(st.searched);
    cr_expect_geq(st.root_visits, 64);
    cr_expect_gt(st.chosen_visits, 0);
    cr_expect(st.value >= 0 && st.value <= 1);
    cr_expect(st.root_value >= 0 && st.root_value <= 1 && st.root_value != st.value, "root_value %f, value %f",
              st.root_value, st.value);
    cr_expect_geq(st.npv, 1);
    cr_expect_eq(st.pv[0], i);
    cr_expect_eq(st.depth, st.npv);
    yinsh_agent_free(a);
    /* best: alpha-beta to depth 5 */
    cr_assert_eq(yinsh_agent_new(&b, "best", 1, err), YINSH_OK, "%s", err);
    cr_assert_eq(yinsh_agent_choose(b, p, &i, &st, err), YINSH_OK, "%s", err);
    cr_expect(mask[i]);
    cr_expect_eq(st.depth, 5);
    cr_expect(st.searched);
    cr_expect_eq(st.root_value, st.value);
    yinsh_position_free(p);
    /* nothing to choose when the game is over */
    p = pos_of(WON);
    cr_expect_eq(yinsh_agent_choose(b, p, &i, &st, err), YINSH_ERR_USAGE);
    yinsh_position_free(p);
    yinsh_agent_free(b);
}

/* `yinsh uyi` as an external engine: it chooses only in the position its
 * game reached through observe. */
/* An agent choosing in one thread while another calls it: a choice, a
 * new game or an observed action refused (busy), a free left for the
 * choice, which answers and then releases the agent (issue 59). */
typedef struct Chooser {
    yinsh_agent *a;
    yinsh_position *p;
    atomic_int started, done;
    int rc, index;
    char err[YINSH_ERR_LEN];
} Chooser;

static void *choose_thread(void *arg)
{
    Chooser *c = arg;
    atomic_store(&c->started, 1);
    c->rc = yinsh_agent_choose(c->a, c->p, &c->index, NULL, c->err);
    atomic_store(&c->done, 1);
    return NULL;
}

Test(lib, an_agent_in_use_refuses_and_is_freed_after)
{
    Chooser c = {.p = pos_of(MOVES)};
    char err[YINSH_ERR_LEN];
    cr_assert_eq(yinsh_agent_new(&c.a, "mcts:sims=100000", 1, err), YINSH_OK, "%s", err);
    int legal[YINSH_MAX_ACTIONS];
    cr_assert_gt(yinsh_position_legal(c.p, legal), 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, choose_thread, &c), 0);
    while (!atomic_load(&c.started)) sched_yield();
    /* until the choice has begun, an observed action is taken (it moves
     * nothing the choice needs: a tree from another root is dropped) */
    int rc;
    while ((rc = yinsh_agent_observe(c.a, c.p, legal[0], err)) == YINSH_OK && !atomic_load(&c.done)) sched_yield();
    cr_assert_eq(rc, YINSH_ERR_BUSY, "the choice ended before another call met it: %s", err);
    cr_assert_not_null(strstr(err, "the agent is busy"), "%s", err);
    int index;
    cr_assert_eq(yinsh_agent_choose(c.a, c.p, &index, NULL, err), YINSH_ERR_BUSY, "%s", err);
    cr_assert_eq(index, -1);
    cr_assert_eq(yinsh_agent_new_game(c.a, YINSH_STANDARD, err), YINSH_ERR_BUSY, "%s", err);
    char spec[YINSH_SPEC_LEN];
    yinsh_agent_spec(c.a, spec); /* reading the spec is no call of the agent's state */
    cr_assert_str_eq(spec, "mcts:sims=100000,c=1,rollout=random");
    yinsh_agent_free(c.a); /* left for the choice */
    pthread_join(t, NULL);
    cr_assert_eq(c.rc, YINSH_OK, "%s", c.err);
    cr_assert(c.index >= 0);
    yinsh_position_free(c.p);
}

Test(lib, an_external_engine_is_told_its_game)
{
    char spec[1024], err[YINSH_ERR_LEN];
    snprintf(spec, sizeof spec, "uyi:name=self;cmd=%s uyi --agent random", YINSH_BIN);
    yinsh_agent *a;
    cr_assert_eq(yinsh_agent_new(&a, spec, 1, err), YINSH_OK, "%s", err);
    yinsh_position *p;
    cr_assert_eq(yinsh_position_new(&p, YINSH_STANDARD, err), YINSH_OK);
    int i;
    for (int ply = 0; ply < 12; ply++) {
        cr_assert_eq(yinsh_agent_choose(a, p, &i, NULL, err), YINSH_OK, "ply %d: %s", ply, err);
        cr_assert_eq(yinsh_agent_observe(a, p, i, err), YINSH_OK, "%s", err);
        cr_assert_eq(yinsh_position_apply(p, i, err), YINSH_OK, "%s", err);
    }
    /* a position its game did not reach */
    yinsh_position *other = pos_of(MOVES);
    cr_expect_eq(yinsh_agent_choose(a, other, &i, NULL, err), YINSH_ERR_USAGE);
    cr_expect(strstr(err, "observe") != NULL, "message: %s", err);
    yinsh_position_free(other);
    yinsh_position_free(p);
    yinsh_agent_free(a);
}

Test(lib, a_databases_games_are_the_exported_ones)
{
    char *dir = tmpdir_new(), err[YINSH_ERR_LEN];
    const char *path = small_games_db(dir);
    yinsh_db *db;
    yinsh_games *g;
    cr_expect_eq(yinsh_db_open(&db, path_in(dir, "none.db"), err), YINSH_ERR_NOT_FOUND);
    cr_assert_eq(yinsh_db_open(&db, path, err), YINSH_OK, "%s", err);
    const char *names[] = {"other"};
    yinsh_selection sel = {.runs = names, .nruns = 1};
    cr_expect_eq(yinsh_games_open(&g, db, &sel, err), YINSH_ERR_NOT_FOUND);
    cr_expect(strstr(err, "other") != NULL, "message: %s", err);
    sel = (yinsh_selection){.agent = "mcts:sims=x"};
    cr_expect_eq(yinsh_games_open(&g, db, &sel, err), YINSH_ERR_USAGE);
    /* any spelling of the agent */
    sel = (yinsh_selection){.agent = "mcts:sims=20,c=1.0"};
    cr_assert_eq(yinsh_games_open(&g, db, &sel, err), YINSH_OK, "%s", err);
    /* each game as `yinsh export` writes it: its tags, the start, its actions */
    const char *args[] = {"export", "--db", "t.db", NULL};
    char *exported, *errs;
    cr_assert_eq(yinsh_run(dir, args, &exported, &errs), 0, "%s", errs);
    size_t len = strlen(exported) + 1;
    char *mine = gc(calloc(1, len + 4096)), *at = mine;
    int games = 0, rc;
    while ((rc = yinsh_games_next(g, err)) == 1) {
        if (games++) at += sprintf(at, "\n");
        for (int t = 0; t < yinsh_game_tag_count(g); t++)
            at += sprintf(at, "[%s \"%s\"]\n", yinsh_game_tag_key(g, t), yinsh_game_tag_value(g, t));
        at += sprintf(at, "%s\n", START);
        int n = yinsh_game_length(g);
        for (int k = 0; k < n; k++) at += sprintf(at, "%s%s", yinsh_game_action(g, k), k % 10 == 9 || k == n - 1 ? "\n" : " ");
        cr_expect_null(yinsh_game_action(g, n));
        cr_expect_str_eq(yinsh_game_tag(g, "Run"), "small");
        cr_expect_null(yinsh_game_tag(g, "Nonsense"));
        cr_expect_eq(yinsh_game_variant(g), YINSH_STANDARD);
        cr_expect_str_eq(yinsh_result_name(yinsh_game_result(g)), yinsh_game_tag(g, "Result"));
        cr_expect_str_eq(yinsh_reason_name(yinsh_game_reason(g)), yinsh_game_tag(g, "Reason"));
        yinsh_action_row row;
        cr_assert_eq(yinsh_game_action_row(g, 0, &row), YINSH_OK);
        cr_expect_eq(row.actor, YINSH_WHITE);
        cr_expect_eq(row.state, YINSH_STATE_P);
        cr_expect_eq(row.legal, 85);
        for (int k = 0; k < n; k++) {
            cr_assert_eq(yinsh_game_action_row(g, k, &row), YINSH_OK);
            cr_expect_eq(row.searched, !isnan(row.root_value), "action %d", k);
            cr_expect(isnan(row.root_value) || (row.root_value >= 0 && row.root_value <= 1), "action %d", k);
        }
        cr_expect_eq(yinsh_game_action_row(g, n, &row), YINSH_ERR_USAGE);
    }
    cr_assert_eq(rc, 0, "%s", err);
    cr_expect_eq(games, 4);
    cr_expect_str_eq(mine, exported);
    yinsh_games_close(g);
    yinsh_db_close(db);
}

Test(lib, training_positions_read_and_written)
{
    char *dir = tmpdir_new(), err[YINSH_ERR_LEN];
    const char *path = small_games_db(dir);
    yinsh_db *db;
    cr_assert_eq(yinsh_db_open(&db, path, err), YINSH_OK, "%s", err);
    yinsh_samples *s;
    cr_assert_eq(yinsh_samples_open(&s, db, NULL, err), YINSH_OK, "%s", err);
    enum { MAX = 1000 };
    yinsh_sample *rows = gc(calloc(MAX, sizeof *rows));
    uint8_t *raw = gc(calloc(MAX, YINSH_OBSERVATION));
    float *f = gc(calloc(MAX, YINSH_OBSERVATION * sizeof(float)));
    char *ypn = gc(calloc(MAX, YINSH_YPN_LEN));
    int n, total = 0;
    /* a small batch, then the rest */
    cr_assert_eq(yinsh_samples_read(s, 7, YINSH_VIEW_ACTOR, rows, raw, f, ypn, &n, err), YINSH_OK, "%s", err);
    cr_assert_eq(n, 7);
    cr_expect_str_eq(ypn, START);
    cr_expect_eq(rows[0].ply, 0);
    cr_expect_eq(rows[0].legal, 85);
    cr_expect_eq(rows[6].ply, 6);
    total += n;
    cr_assert_eq(yinsh_samples_read(s, MAX, YINSH_VIEW_ACTOR, rows, raw, f, ypn, &n, err), YINSH_OK, "%s", err);
    cr_assert_lt(n, MAX);
    total += n;
    /* each row's planes are its position's */
    for (int k = 0; k < n; k++) {
        yinsh_position *p = pos_of(ypn + (size_t)k * YINSH_YPN_LEN);
        uint8_t want[YINSH_OBSERVATION];
        yinsh_position_planes_raw(p, YINSH_VIEW_ACTOR, want);
        cr_assert(!memcmp(want, raw + (size_t)k * YINSH_OBSERVATION, sizeof want), "sample %d", k);
        cr_assert_eq(rows[k].actor, yinsh_position_actor(p));
        cr_assert_eq(rows[k].state, yinsh_position_state(p));
        uint8_t mask[YINSH_ACTIONS];
        cr_assert_eq(yinsh_position_legal_mask(p, mask), rows[k].legal);
        cr_assert(mask[rows[k].action], "sample %d: its action is not legal", k);
        cr_assert(rows[k].z == 0 || rows[k].z == 1 || rows[k].z == -1);
        cr_assert_eq(rows[k].searched, !isnan(rows[k].value));
        cr_assert_eq(rows[k].searched, !isnan(rows[k].root_value));
        yinsh_position_free(p);
    }
    cr_assert_eq(yinsh_samples_read(s, MAX, YINSH_VIEW_ACTOR, rows, NULL, NULL, NULL, &n, err), YINSH_OK);
    cr_expect_eq(n, 0);
    yinsh_samples_close(s);
    /* the same count written, and what the binary writes */
    uint64_t positions, written_games;
    const char *out = path_in(dir, "lib.tsv");
    cr_assert_eq(yinsh_export_positions(db, NULL, "ypn", YINSH_VIEW_ACTOR, out, &positions, &written_games, err),
                 YINSH_OK, "%s", err);
    cr_expect_eq(positions, (uint64_t)total);
    cr_expect_eq(written_games, 4);
    cr_expect_eq(yinsh_export_positions(db, NULL, "json", YINSH_VIEW_ACTOR, out, NULL, NULL, err), YINSH_ERR_USAGE);
    const char *args[] = {"positions", "--db", "t.db", "--out", "bin.tsv", "--quiet", NULL};
    char *o, *e;
    cr_assert_eq(yinsh_run(dir, args, &o, &e), 0, "%s", e);
    cr_expect_str_eq(slurp(out), slurp(path_in(dir, "bin.tsv")));
    yinsh_db_close(db);
}

/* A damaged action (a placement on an occupied point) stops the reading
 * with an error naming it; the next read goes on with the next game from
 * its start, never making the last good action a second time. */
Test(lib, a_reader_that_failed_goes_on_with_the_next_game)
{
    char *dir = tmpdir_new(), err[YINSH_ERR_LEN];
    const char *path = small_games_db(dir);
    sqlite3 *h = db_open(path);
    cr_assert_eq(sqlite3_exec(h,
                              "UPDATE action SET action = (SELECT action FROM action WHERE ply = 0 AND game_id = "
                              "(SELECT min(id) FROM game)) WHERE ply = 5 AND game_id = (SELECT min(id) FROM game)",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    yinsh_db *db;
    yinsh_samples *s;
    cr_assert_eq(yinsh_db_open(&db, path, err), YINSH_OK, "%s", err);
    cr_assert_eq(yinsh_samples_open(&s, db, NULL, err), YINSH_OK, "%s", err);
    yinsh_sample rows[8];
    char ypn[8 * YINSH_YPN_LEN];
    int n;
    cr_assert_eq(yinsh_samples_read(s, 8, YINSH_VIEW_ACTOR, rows, NULL, NULL, ypn, &n, err), YINSH_ERR_FAIL);
    cr_expect_eq(n, 5, "the five good samples before the damaged action");
    cr_expect(strstr(err, "action 6 does not replay") != NULL, "message: %s", err);
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(yinsh_samples_read(s, 1, YINSH_VIEW_ACTOR, rows, NULL, NULL, ypn, &n, err), YINSH_OK, "%s", err);
        cr_assert_eq(n, 1);
        cr_expect_eq(rows[0].game, 1, "read %d: game %u", k, rows[0].game);
        cr_expect_eq(rows[0].ply, k);
        if (k == 0) cr_expect_str_eq(ypn, START);
    }
    yinsh_samples_close(s);
    yinsh_db_close(db);
}
