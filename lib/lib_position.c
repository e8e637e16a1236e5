/* The library's own calls, actions and positions (include/yinsh.h): thin
 * over the engine, its notation and the encoding, each checked at the
 * boundary (an index, a view, a variant) since a caller's values are
 * untrusted here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "lib/lib_internal.h"
#include "study/viewer/board_svg.h"

/* The public constants are the engine's: a change of one is a change of
 * the API. Compared as ints: they are enums of two headers, whose
 * comparison gcc warns of. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(YINSH_ERR_LEN, ERR_LEN) && SAME(YINSH_YPN_LEN, YPN_MAX_LEN) &&
                   SAME(YINSH_ACTION_LEN, ACTION_MAX_LEN) && SAME(YINSH_SPEC_LEN, SPEC_LEN) &&
                   SAME(YINSH_MAX_ACTIONS, MAX_ACTIONS),
               "buffer sizes");
_Static_assert(SAME(YINSH_ERR_FAIL, ERR_FAIL) && SAME(YINSH_ERR_USAGE, ERR_USAGE) &&
                   SAME(YINSH_ERR_EXISTS, ERR_EXISTS) && SAME(YINSH_ERR_NOT_FOUND, ERR_NOT_FOUND) &&
                   SAME(YINSH_ERR_HELD, ERR_HELD) && SAME(YINSH_ERR_REPEAT, ERR_REPEAT),
               "error codes");
_Static_assert(SAME(YINSH_CELLS, ENCODE_CELLS) && SAME(YINSH_PLANES, ENCODE_PLANES) && SAME(YINSH_POINTS, POINT_NB),
               "planes");
_Static_assert(SAME(YINSH_PLACE0, ENCODE_PLACE0) && SAME(YINSH_MOVE0, ENCODE_MOVE0) && SAME(YINSH_PASS, ENCODE_PASS) &&
                   SAME(YINSH_ROW0, ENCODE_ROW0) && SAME(YINSH_RING0, ENCODE_RING0) &&
                   SAME(YINSH_ACTIONS, ENCODE_ACTIONS),
               "action indices");
_Static_assert(SAME(YINSH_CHANNELS, ENCODE_CHANNELS) && SAME(YINSH_CHANNEL_PLACE, CHANNEL_PLACE) &&
                   SAME(YINSH_CHANNEL_MOVE0, CHANNEL_MOVE0) && SAME(YINSH_CHANNEL_PASS, CHANNEL_PASS) &&
                   SAME(YINSH_CHANNEL_ROW0, CHANNEL_ROW0) && SAME(YINSH_CHANNEL_RING, CHANNEL_RING) &&
                   SAME(YINSH_MOVE_SPAN, ENCODE_MOVE_SPAN) && SAME(YINSH_SYMMETRIES, ENCODE_SYMMETRIES),
               "the layout and the symmetries");
_Static_assert(SAME(YINSH_STATE_END, STATE_END) && SAME(YINSH_STATE_r, STATE_r) && SAME(YINSH_RESULT_DRAW, RESULT_DRAW) &&
                   SAME(YINSH_REASON_ENGINE_ERROR, REASON_ENGINE_ERROR) && SAME(YINSH_BLITZ, VARIANT_BLITZ) &&
                   SAME(YINSH_SWAP, VARIANT_SWAP) && SAME(YINSH_DRAW_ODDS, VARIANT_DRAW_ODDS),
               "enums");
_Static_assert(SAME(YINSH_VIEW_ACTOR, ENCODE_VIEW_ACTOR) && SAME(YINSH_PLANE_OVER, PLANE_OVER) &&
                   SAME(YINSH_PLANE_BLITZ, PLANE_BLITZ),
               "views and planes");

int yinsh_api_version(void) { return YINSH_API_VERSION; }

const char *yinsh_version(void) { return YINSH_VERSION; }

const char *yinsh_error_name(int code)
{
    static const char *const names[] = {"ok", "fail", "usage", "exists", "not-found", "held", "repeat"};
    return code <= 0 && code > -(int)(sizeof names / sizeof *names) ? names[-code] : "?";
}

const char *yinsh_result_name(int result) { return result_name(result); }
const char *yinsh_reason_name(int reason) { return reason_name(reason); }

const char *yinsh_variant_name(int variant) { return variant_name(variant); }

void yinsh_free(void *p) { free(p); }

/* ---- actions -------------------------------------------------------- */

int yinsh_action_text(int index, char out[YINSH_ACTION_LEN])
{
    Action a = encode_action_at(index);
    out[0] = '\0';
    if (a == ACTION_NONE) return ERR_USAGE;
    action_format(a, out);
    return 0;
}

int yinsh_action_index(const char *action, int *index, char *err)
{
    char scratch[ERR_LEN];
    Action a;
    *index = -1;
    int rc = action_parse_form(action, &a, ERR_OR_SCRATCH(err, scratch));
    if (rc) return ERR_USAGE;
    /* the form reads any two points; a move needs them on one line */
    if ((*index = encode_action(a)) < 0)
        return error_code(err, ERR_USAGE, "'%.32s': no action of the game (a move joins two points of a line, a row five)",
                          action);
    return 0;
}

int yinsh_plane_scale(int plane) { return plane >= 0 && plane < ENCODE_PLANES ? ENCODE_PLANE_SCALE[plane] : 0; }

int yinsh_constant(const char *name)
{
#define C(N) {#N, YINSH_##N}
    static const struct {
        const char *name;
        int value;
    } constants[] = {
        C(ERR_LEN), C(YPN_LEN), C(ACTION_LEN), C(SPEC_LEN), C(MAX_ACTIONS), C(LEGAL_TEXT_LEN),
        C(POINTS), C(GRID), C(CELLS), C(PLANES), C(OBSERVATION), C(PLACE0), C(MOVE0), C(PASS),
        C(ROW0), C(RING0), C(ACTIONS), C(PV_MAX), C(GAME_MAX), C(CHANNELS), C(CHANNEL_PLACE), C(CHANNEL_MOVE0),
        C(CHANNEL_PASS), C(CHANNEL_ROW0), C(CHANNEL_RING), C(MOVE_SPAN), C(SYMMETRIES), C(PUCT_MAX_BATCH), C(NAME_LEN),
    };
#undef C
    for (size_t i = 0; name && i < sizeof constants / sizeof *constants; i++)
        if (!strcmp(constants[i].name, name)) return constants[i].value;
    return -1;
}

/* ---- the board-shaped layout and the symmetries --------------------- */

int yinsh_action_slot(int index, int *channel, int *cell)
{
    bool in = index >= 0 && index < ENCODE_ACTIONS;
    *channel = in ? encode_layout_channel(index) : -1;
    *cell = in ? encode_layout_cell(index) : -1;
    return in ? 0 : ERR_USAGE;
}

int yinsh_slot_action(int channel, int cell) { return encode_layout_index(channel, cell); }

static bool symmetry_in(int s) { return s >= 0 && s < ENCODE_SYMMETRIES; }

int yinsh_symmetry_cell(int s, int cell)
{
    return symmetry_in(s) && cell >= 0 && cell < ENCODE_CELLS ? encode_sym_cell(s, cell) : -1;
}

int yinsh_symmetry_channel(int s, int channel)
{
    return symmetry_in(s) && channel >= 0 && channel < ENCODE_CHANNELS ? encode_sym_channel(s, channel) : -1;
}

int yinsh_symmetry_action(int s, int index)
{
    return symmetry_in(s) && index >= 0 && index < ENCODE_ACTIONS ? encode_sym_action(s, index) : -1;
}

int yinsh_symmetry_inverse(int s) { return symmetry_in(s) ? encode_sym_inverse(s) : -1; }

/* ---- positions ------------------------------------------------------ */

static int position_alloc(yinsh_position **out, char *err)
{
    *out = malloc(sizeof **out);
    return *out ? 0 : error_set(err, "out of memory for a position");
}

int yinsh_position_new(yinsh_position **out, int variant, char *err)
{
    *out = NULL;
    if (variant < 0 || variant >= VARIANT_NB)
        return error_code(err, ERR_USAGE, "variant %d: expected %d (standard) or %d (blitz), plus %d (swap) and/or %d (draw odds)",
                          variant, VARIANT_STANDARD, VARIANT_BLITZ, VARIANT_SWAP, VARIANT_DRAW_ODDS);
    int rc = position_alloc(out, err);
    if (!rc) pos_start(&(*out)->pos, variant);
    return rc;
}

int yinsh_position_from_ypn(yinsh_position **out, const char *ypn, char *err)
{
    char scratch[ERR_LEN];
    Position pos;
    *out = NULL;
    if (ypn_parse(ypn, &pos, ERR_OR_SCRATCH(err, scratch))) return ERR_USAGE;
    int rc = position_alloc(out, err);
    if (!rc) (*out)->pos = pos;
    return rc;
}

int yinsh_position_copy(yinsh_position **out, const yinsh_position *p, char *err)
{
    int rc = position_alloc(out, err);
    if (!rc) (*out)->pos = p->pos;
    return rc;
}

int yinsh_position_symmetric(yinsh_position **out, const yinsh_position *p, int s, char *err)
{
    *out = NULL;
    if (!symmetry_in(s)) return error_code(err, ERR_USAGE, "symmetry %d: outside 0..%d", s, ENCODE_SYMMETRIES - 1);
    int rc = position_alloc(out, err);
    if (!rc) encode_sym_position(&p->pos, s, &(*out)->pos);
    return rc;
}

void yinsh_position_assign(yinsh_position *to, const yinsh_position *from) { to->pos = from->pos; }

void yinsh_position_free(yinsh_position *p) { free(p); }

void yinsh_position_ypn(const yinsh_position *p, char out[YINSH_YPN_LEN]) { ypn_format(&p->pos, out); }
int yinsh_position_actor(const yinsh_position *p) { return p->pos.actor; }
int yinsh_position_state(const yinsh_position *p) { return p->pos.state; }
int yinsh_position_variant(const yinsh_position *p) { return p->pos.variant; }
int yinsh_position_pool(const yinsh_position *p) { return p->pos.pool; }
uint64_t yinsh_position_key(const yinsh_position *p) { return p->pos.key; }

int yinsh_position_removed(const yinsh_position *p, int colour)
{
    return colour == WHITE || colour == BLACK ? p->pos.removed[colour] : 0;
}

int yinsh_position_outcome(const yinsh_position *p, int *result, int *reason)
{
    int res = RESULT_NONE, why = REASON_NONE;
    bool over = pos_outcome(&p->pos, &res, &why);
    if (!over) res = RESULT_NONE, why = REASON_NONE;
    if (result) *result = res;
    if (reason) *reason = why;
    return over;
}

int yinsh_position_legal(const yinsh_position *p, int *indices) { return encode_legal(&p->pos, indices); }

int yinsh_position_legal_mask(const yinsh_position *p, uint8_t *mask) { return encode_mask(&p->pos, mask); }

int yinsh_position_legal_text(const yinsh_position *p, char *out, size_t size)
{
    int idx[MAX_ACTIONS], n = encode_legal(&p->pos, idx);
    size_t at = 0;
    if (size == 0) return ERR_USAGE;
    out[0] = '\0';
    for (int k = 0; k < n; k++) {
        char text[ACTION_MAX_LEN];
        action_format(encode_action_in(&p->pos, idx[k]), text);
        size_t len = strlen(text);
        if (at + (k > 0) + len + 1 > size) {
            out[0] = '\0';
            return ERR_USAGE;
        }
        if (k > 0) out[at++] = ' ';
        memcpy(out + at, text, len + 1);
        at += len;
    }
    return n;
}

int yinsh_position_action_index(const yinsh_position *p, const char *action, int *index, char *err)
{
    char scratch[ERR_LEN];
    Action a;
    *index = -1;
    if (action_parse(&p->pos, action, &a, ERR_OR_SCRATCH(err, scratch))) return ERR_USAGE;
    *index = encode_action(a);
    return 0;
}

int yinsh_position_apply(yinsh_position *p, int index, char *err)
{
    Action a = encode_action_in(&p->pos, index);
    if (a == ACTION_NONE)
        return error_code(err, ERR_USAGE, "action index %d: outside 0..%d", index, ENCODE_ACTIONS - 1);
    if (!movegen_is_legal(&p->pos, a)) {
        char text[ACTION_MAX_LEN], ypn[YPN_MAX_LEN];
        return error_code(err, ERR_USAGE, "action %d (%s) is not legal in %s", index, action_format(a, text),
                          ypn_format(&p->pos, ypn));
    }
    Undo u;
    pos_make(&p->pos, a, &u);
    return 0;
}

int yinsh_position_apply_text(yinsh_position *p, const char *action, char *err)
{
    char scratch[ERR_LEN];
    Action a;
    if (action_parse(&p->pos, action, &a, ERR_OR_SCRATCH(err, scratch))) return ERR_USAGE;
    Undo u;
    pos_make(&p->pos, a, &u);
    return 0;
}

static int check_view(int view, char *err)
{
    if (view >= 0 && view < ENCODE_VIEW_NB) return 0;
    return error_code(err, ERR_USAGE, "view %d: expected %d (white), %d (black) or %d (the actor)", view,
                      ENCODE_VIEW_WHITE, ENCODE_VIEW_BLACK, ENCODE_VIEW_ACTOR);
}

int yinsh_position_planes_raw(const yinsh_position *p, int view, uint8_t *out)
{
    int rc = check_view(view, NULL);
    if (!rc) encode_planes_raw(&p->pos, view, out);
    return rc;
}

int yinsh_position_planes(const yinsh_position *p, int view, float *out)
{
    int rc = check_view(view, NULL);
    if (!rc) encode_planes(&p->pos, view, out);
    return rc;
}

/* The drawing of `yinsh svg` (study/viewer/board_svg.c), written into
 * memory instead of a file. */
int yinsh_position_svg(const yinsh_position *p, const char *last, int size_px, char **svg, char *err)
{
    char scratch[ERR_LEN];
    size_t len = 0;
    *svg = NULL;
    if (size_px < BOARD_SIZE_MIN || size_px > BOARD_SIZE_MAX)
        return error_code(err, ERR_USAGE, "size %d: the width in pixels is %d to %d", size_px, BOARD_SIZE_MIN,
                          BOARD_SIZE_MAX);
    FILE *f = open_memstream(svg, &len);
    if (!f) return error_set(err, "out of memory for a picture");
    int rc = board_svg_write(f, &p->pos, last, size_px, ERR_OR_SCRATCH(err, scratch));
    if (fclose(f) != 0 && !rc) rc = error_set(err, "out of memory for a picture");
    if (rc) {
        free(*svg);
        *svg = NULL;
        return ERR_USAGE;
    }
    return 0;
}
