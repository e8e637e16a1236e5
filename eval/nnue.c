#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/geometry.h"
#include "engine/encode/encode.h"
#include "eval/patterns.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

struct Nnue {
    int hidden, l2, qa, qw;
    int qw_shift; /* log2(qw) when qw is a power of two (the trainer's 64), else -1 */
    NnuePath path;
    uint64_t hash;
    char description[NNUE_DESC_MAX + 1];
    /* one 32-byte aligned block: w1 is NNUE_ROWS_MADE rows of `hidden` (the
     * file's rows, then the difference rows made from them), each row
     * 32-byte aligned (hidden is a multiple of 16) */
    int16_t *w1, *b1, *w2, *w3;
    int32_t *b2;
    int32_t b3;
    bool linear;           /* feature set 2: lw is the linear part */
    int32_t lw[FEAT_NB];
    int32_t *pw;           /* feature set 3: the pattern part (PATTERN_NB), or NULL */
    int32_t *pw_code;      /* and by code, White's view then Black's (patterns_expand) */
    /* with a linear part: what a window of each code adds for the actor
     * White and for Black, as a pair (patterns_pair): its pattern weight
     * (with a pattern part) and its share of the linear part's line
     * features, the windows of 3 and 4 (window_table); the sums the
     * accumulators keep, NnueAcc.psum */
    int64_t *win;
    int16_t *ppw;          /* feature set 4: the policy head (ENCODE_ACTIONS rows of 2 * hidden), or NULL */
    int32_t *ppb;          /* its biases (ENCODE_ACTIONS), in the same block as ppw */
    int32_t beta;          /* feature set 4; 0 in set 5 */
    bool direct;           /* feature set 5: the head is a direct one (no beta in the file) */
    void *mem;
    /* the references held (nnue_retain, nnue_free): the one field that
     * changes after the load; every holder's thread writes it */
    atomic_uint refs;
};

/* ---- inputs --------------------------------------------------------- */

/* The row of perspective c that says the state and who acts in it (own
 * side or the other): what a make and a null move's pass change. */
static inline int state_row(int c, int actor, int state) { return NNUE_ROW_STATE + 2 * state + (actor != c); }

/* The inputs of perspective c besides the pieces, from the fields a make
 * saves in its Undo (so that the state before an action is at hand). */
static int state_rows(int c, int actor, int state, const uint8_t removed[COLOUR_NB], int pool, int variant,
                      uint16_t *rows)
{
    int n = 0;
    int own = removed[c] < 3 ? removed[c] : 3, theirs = removed[c ^ 1] < 3 ? removed[c ^ 1] : 3;
    for (int i = 0; i < own; i++) rows[n++] = (uint16_t)(NNUE_ROW_REMOVED + i);
    for (int i = 0; i < theirs; i++) rows[n++] = (uint16_t)(NNUE_ROW_REMOVED + 3 + i);
    rows[n++] = (uint16_t)(NNUE_ROW_POOL + pool);
    rows[n++] = (uint16_t)state_row(c, actor, state);
    if (variant & VARIANT_BLITZ) rows[n++] = NNUE_ROW_BLITZ;
    return n;
}

int nnue_features(const Position *pos, int c, uint16_t rows[NNUE_MAX_ACTIVE])
{
    const Bitboard sets[4] = {pos->markers[c], pos->markers[c ^ 1], pos->rings[c], pos->rings[c ^ 1]};
    int n = 0;
    for (int k = 0; k < 4; k++)
        for (Bitboard b = sets[k]; b; b &= b - 1) rows[n++] = (uint16_t)(k * SQUARE_NB + bb_lsb(b));
    return n + state_rows(c, pos->actor, pos->state, pos->removed, pos->pool, pos->variant, rows + n);
}

int nnue_row_feature(int row)
{
    if (row >= NNUE_ROW_REMOVED) return 4 * POINT_NB + (row - NNUE_ROW_REMOVED);
    int kind = row / SQUARE_NB;
    Point p = row % SQUARE_NB;
    if (!bb_test(GEO->valid, p)) return -1;
    /* the canonical order is ascending point index over the valid points */
    return kind * POINT_NB + bb_popcount(GEO->valid & (bb_bit(p) - 1));
}

/* A piece of `colour` at p turned on or off, in both perspectives; the
 * point's digit in White's view (patterns.h) moves by the piece's. */
static inline void piece(NnueDelta *d, bool ring, int colour, Point p, bool on)
{
    for (int c = 0; c < COLOUR_NB; c++) {
        uint16_t row = (uint16_t)(((ring ? 2 : 0) + (colour != c)) * SQUARE_NB + p);
        if (on) d->add[c][d->nadd[c]++] = row;
        else d->sub[c][d->nsub[c]++] = row;
    }
}

/* A point whose digit in White's view changed by `change`. */
static inline void point(NnueDelta *d, Point p, int change)
{
    d->pts[d->npts] = (uint8_t)p;
    d->change[d->npts++] = (int8_t)change;
}

/* The digit of a piece in White's view: a marker 1 (White's) or 2, a ring
 * 3 or 4. */
static inline int digit(bool ring, int colour) { return (ring ? 3 : 1) + colour; }

/* The markers a move turned over, each one difference row in each
 * perspective: NNUE_ROW_FLIP where the marker went from the
 * perspective's own colour to the other's, NNUE_ROW_UNFLIP the other
 * way. */
static inline void flips(NnueDelta *d, Bitboard flips, const Bitboard markers_after[COLOUR_NB])
{
    for (int now = 0; now < COLOUR_NB; now++)
        for (Bitboard b = flips & markers_after[now]; b; b &= b - 1) {
            Point p = bb_lsb(b);
            /* it was the other colour's: own to theirs in that colour's perspective */
            d->add[now ^ 1][d->nadd[now ^ 1]++] = (uint16_t)(NNUE_ROW_FLIP + p);
            d->add[now][d->nadd[now]++] = (uint16_t)(NNUE_ROW_UNFLIP + p);
            point(d, p, digit(false, now) - digit(false, now ^ 1));
        }
}

void nnue_delta(const Position *pos, Action a, const Undo *u, NnueDelta *d)
{
    int me = u->actor;
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    d->nadd[0] = d->nadd[1] = d->nsub[0] = d->nsub[1] = 0;
    d->npts = 0;
    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        piece(d, true, me, from, true);
        point(d, from, digit(true, me));
        break;
    case ACT_MOVE:
        /* the ring left for a marker: one difference row */
        for (int c = 0; c < COLOUR_NB; c++) d->add[c][d->nadd[c]++] = (uint16_t)(NNUE_ROW_LEAVE + (me != c) * SQUARE_NB + from);
        piece(d, true, me, to, true);
        point(d, from, digit(false, me) - digit(true, me));
        point(d, to, digit(true, me));
        flips(d, u->flips, pos->markers);
        break;
    case ACT_ROW:
        for (Bitboard b = u->flips; b; b &= b - 1) {
            piece(d, false, me, bb_lsb(b), false);
            point(d, bb_lsb(b), -digit(false, me));
        }
        break;
    case ACT_RING:
        piece(d, true, me, from, false);
        point(d, from, -digit(true, me));
        break;
    case ACT_SWAP: {
        Point p = bb_lsb(pos->rings[BLACK]);
        piece(d, true, WHITE, p, false);
        piece(d, true, BLACK, p, true);
        point(d, p, digit(true, BLACK) - digit(true, WHITE));
        break;
    }
    }
    /* the other inputs before (the Undo) and after (the position): only
     * those that changed (state_rows' rows, compared part by part); a
     * move's pool one down and a turn passed in the same state are one
     * difference row each */
    for (int c = 0; c < COLOUR_NB; c++) {
        for (int side = 0; side < 2; side++) {
            int col = c ^ side, r0 = u->removed[col] < 3 ? u->removed[col] : 3;
            int r1 = pos->removed[col] < 3 ? pos->removed[col] : 3;
            for (int i = r0; i < r1; i++) d->add[c][d->nadd[c]++] = (uint16_t)(NNUE_ROW_REMOVED + 3 * side + i);
            for (int i = r1; i < r0; i++) d->sub[c][d->nsub[c]++] = (uint16_t)(NNUE_ROW_REMOVED + 3 * side + i);
        }
        if (pos->pool + 1 == u->pool) {
            d->add[c][d->nadd[c]++] = (uint16_t)(NNUE_ROW_POOL_DOWN + u->pool);
        } else if (u->pool != pos->pool) {
            d->sub[c][d->nsub[c]++] = (uint16_t)(NNUE_ROW_POOL + u->pool);
            d->add[c][d->nadd[c]++] = (uint16_t)(NNUE_ROW_POOL + pos->pool);
        }
        int s0 = state_row(c, u->actor, u->state), s1 = state_row(c, pos->actor, pos->state);
        if (u->state == pos->state && u->actor != pos->actor) {
            /* s1 - s0: c passed the turn, or was passed it */
            d->add[c][d->nadd[c]++] = (uint16_t)(NNUE_ROW_TURN + 2 * u->state + (u->actor != c));
        } else if (s0 != s1) {
            d->sub[c][d->nsub[c]++] = (uint16_t)s0;
            d->add[c][d->nadd[c]++] = (uint16_t)s1;
        }
    }
}

/* ---- the kernels ---------------------------------------------------- */

/* out = base + the rows of add - the rows of sub, in int16 that wraps:
 * the one kernel of refresh (base b1) and of apply (base the parent's).
 * The portable path wraps through uint16_t; the vector adds wrap too. */
static inline int16_t wrap16(int v) { return (int16_t)(uint16_t)v; }

static void rows_portable(const Nnue *net, const int16_t *base, const uint16_t *add, int nadd, const uint16_t *sub,
                          int nsub, int16_t *out)
{
    int h = net->hidden;
    int16_t acc[NNUE_MAX_HIDDEN];
    memcpy(acc, base, (size_t)h * sizeof *acc);
    for (int i = 0; i < nadd; i++) {
        const int16_t *w = net->w1 + (size_t)add[i] * h;
        for (int j = 0; j < h; j++) acc[j] = wrap16(acc[j] + w[j]);
    }
    for (int i = 0; i < nsub; i++) {
        const int16_t *w = net->w1 + (size_t)sub[i] * h;
        for (int j = 0; j < h; j++) acc[j] = wrap16(acc[j] - w[j]);
    }
    memcpy(out, acc, (size_t)h * sizeof *acc);
}

/* The hidden layer: the actor's accumulator, then the other's, each
 * clipped to [0, QA]. */
static void hidden_portable(const Nnue *net, const NnueAcc *acc, int actor, int16_t *h)
{
    int n = net->hidden;
    for (int half = 0; half < 2; half++) {
        const int16_t *v = acc->v[half ? actor ^ 1 : actor];
        for (int j = 0; j < n; j++) h[half * n + j] = (int16_t)(v[j] < 0 ? 0 : v[j] > net->qa ? net->qa : v[j]);
    }
}

/* Sums of products in uint32_t, which wraps as the vector's int32 adds do
 * (no sum of a net the trainer wrote comes near wrapping). */
static uint32_t dot_portable(const int16_t *a, const int16_t *w, int n)
{
    uint32_t s = 0;
    for (int j = 0; j < n; j++) s += (uint32_t)((int32_t)a[j] * w[j]);
    return s;
}

/* The second layer's units from their sums z[k] (b2 added), and the
 * output: shared by both paths, which differ only in how they sum. */
static int32_t finish(const Nnue *net, const uint32_t *z)
{
    uint32_t out = (uint32_t)net->b3;
    for (int k = 0; k < net->l2; k++) {
        int32_t zk = (int32_t)z[k];
        /* back to the activations' scale QA, clipped; a positive zk's
         * quotient by a power of two is its shift, without a division */
        int32_t q = zk <= 0 ? 0 : net->qw_shift >= 0 ? zk >> net->qw_shift : zk / net->qw;
        int32_t a = q > net->qa ? net->qa : q;
        out += (uint32_t)(a * net->w3[k]);
    }
    return (int32_t)out;
}

static int32_t output_portable(const Nnue *net, const NnueAcc *acc, int actor)
{
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    hidden_portable(net, acc, actor, h);
    int n = 2 * net->hidden;
    if (net->l2 == 0) return (int32_t)(dot_portable(h, net->w2, n) + (uint32_t)net->b2[0]);
    uint32_t z[NNUE_MAX_L2];
    for (int k = 0; k < net->l2; k++) z[k] = dot_portable(h, net->w2 + (size_t)k * n, n) + (uint32_t)net->b2[k];
    return finish(net, z);
}

#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))

/* Four registers (64 lanes) at a time while they last, then one (16). */
AVX2 static void rows_avx2(const Nnue *net, const int16_t *base, const uint16_t *add, int nadd, const uint16_t *sub,
                           int nsub, int16_t *out)
{
    int h = net->hidden, j = 0;
    for (; j + 64 <= h; j += 64) {
        __m256i r0 = _mm256_load_si256((const __m256i *)(base + j));
        __m256i r1 = _mm256_load_si256((const __m256i *)(base + j + 16));
        __m256i r2 = _mm256_load_si256((const __m256i *)(base + j + 32));
        __m256i r3 = _mm256_load_si256((const __m256i *)(base + j + 48));
        for (int i = 0; i < nadd; i++) {
            const int16_t *w = net->w1 + (size_t)add[i] * h + j;
            r0 = _mm256_add_epi16(r0, _mm256_load_si256((const __m256i *)w));
            r1 = _mm256_add_epi16(r1, _mm256_load_si256((const __m256i *)(w + 16)));
            r2 = _mm256_add_epi16(r2, _mm256_load_si256((const __m256i *)(w + 32)));
            r3 = _mm256_add_epi16(r3, _mm256_load_si256((const __m256i *)(w + 48)));
        }
        for (int i = 0; i < nsub; i++) {
            const int16_t *w = net->w1 + (size_t)sub[i] * h + j;
            r0 = _mm256_sub_epi16(r0, _mm256_load_si256((const __m256i *)w));
            r1 = _mm256_sub_epi16(r1, _mm256_load_si256((const __m256i *)(w + 16)));
            r2 = _mm256_sub_epi16(r2, _mm256_load_si256((const __m256i *)(w + 32)));
            r3 = _mm256_sub_epi16(r3, _mm256_load_si256((const __m256i *)(w + 48)));
        }
        _mm256_store_si256((__m256i *)(out + j), r0);
        _mm256_store_si256((__m256i *)(out + j + 16), r1);
        _mm256_store_si256((__m256i *)(out + j + 32), r2);
        _mm256_store_si256((__m256i *)(out + j + 48), r3);
    }
    for (; j < h; j += 16) {
        __m256i r = _mm256_load_si256((const __m256i *)(base + j));
        for (int i = 0; i < nadd; i++)
            r = _mm256_add_epi16(r, _mm256_load_si256((const __m256i *)(net->w1 + (size_t)add[i] * h + j)));
        for (int i = 0; i < nsub; i++)
            r = _mm256_sub_epi16(r, _mm256_load_si256((const __m256i *)(net->w1 + (size_t)sub[i] * h + j)));
        _mm256_store_si256((__m256i *)(out + j), r);
    }
}

/* Both perspectives at once for a net of 32 hidden (the shipped nets of
 * `best`): two registers each, four sums side by side, one pass over the
 * rows (nnue_delta lists as many in either perspective). */
AVX2 static void rows32x2_avx2(const Nnue *net, const NnueAcc *from, const NnueDelta *d, NnueAcc *to)
{
    __m256i w0 = _mm256_load_si256((const __m256i *)from->v[WHITE]);
    __m256i w1 = _mm256_load_si256((const __m256i *)(from->v[WHITE] + 16));
    __m256i b0 = _mm256_load_si256((const __m256i *)from->v[BLACK]);
    __m256i b1 = _mm256_load_si256((const __m256i *)(from->v[BLACK] + 16));
    for (int i = 0; i < d->nadd[WHITE]; i++) {
        const int16_t *rw = net->w1 + (size_t)d->add[WHITE][i] * 32, *rb = net->w1 + (size_t)d->add[BLACK][i] * 32;
        w0 = _mm256_add_epi16(w0, _mm256_load_si256((const __m256i *)rw));
        w1 = _mm256_add_epi16(w1, _mm256_load_si256((const __m256i *)(rw + 16)));
        b0 = _mm256_add_epi16(b0, _mm256_load_si256((const __m256i *)rb));
        b1 = _mm256_add_epi16(b1, _mm256_load_si256((const __m256i *)(rb + 16)));
    }
    for (int i = 0; i < d->nsub[WHITE]; i++) {
        const int16_t *rw = net->w1 + (size_t)d->sub[WHITE][i] * 32, *rb = net->w1 + (size_t)d->sub[BLACK][i] * 32;
        w0 = _mm256_sub_epi16(w0, _mm256_load_si256((const __m256i *)rw));
        w1 = _mm256_sub_epi16(w1, _mm256_load_si256((const __m256i *)(rw + 16)));
        b0 = _mm256_sub_epi16(b0, _mm256_load_si256((const __m256i *)rb));
        b1 = _mm256_sub_epi16(b1, _mm256_load_si256((const __m256i *)(rb + 16)));
    }
    _mm256_store_si256((__m256i *)to->v[WHITE], w0);
    _mm256_store_si256((__m256i *)(to->v[WHITE] + 16), w1);
    _mm256_store_si256((__m256i *)to->v[BLACK], b0);
    _mm256_store_si256((__m256i *)(to->v[BLACK] + 16), b1);
}

AVX2 static void hidden_avx2(const Nnue *net, const NnueAcc *acc, int actor, int16_t *h)
{
    int n = net->hidden;
    __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16((short)net->qa);
    for (int half = 0; half < 2; half++) {
        const int16_t *v = acc->v[half ? actor ^ 1 : actor];
        for (int j = 0; j < n; j += 16) {
            __m256i x = _mm256_load_si256((const __m256i *)(v + j));
            x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
            _mm256_store_si256((__m256i *)(h + half * n + j), x);
        }
    }
}

/* madd: pairs of int16 products summed into int32 lanes (an activation is
 * at most 255, so a pair never overflows), lanes added with wrap-around. */
AVX2 static uint32_t dot_avx2(const int16_t *a, const int16_t *w, int n)
{
    __m256i s = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 16)
        s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_load_si256((const __m256i *)(a + j)),
                                                  _mm256_load_si256((const __m256i *)(w + j))));
    __m128i q = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 0, 3, 2)));
    q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(q);
}

/* Eight rows' dot products with h at once, their eight sums reduced
 * together by horizontal adds (any order of int32 adds that wrap gives
 * the same sums): z[0..7]. */
AVX2 static void dot8_avx2(const int16_t *h, const int16_t *w, int n, uint32_t *z)
{
    __m256i s[8];
    for (int k = 0; k < 8; k++) s[k] = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 16) {
        __m256i x = _mm256_load_si256((const __m256i *)(h + j));
        for (int k = 0; k < 8; k++)
            s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(x, _mm256_load_si256((const __m256i *)(w + (size_t)k * n + j))));
    }
    __m256i u0 = _mm256_hadd_epi32(_mm256_hadd_epi32(s[0], s[1]), _mm256_hadd_epi32(s[2], s[3]));
    __m256i u1 = _mm256_hadd_epi32(_mm256_hadd_epi32(s[4], s[5]), _mm256_hadd_epi32(s[6], s[7]));
    __m256i r = _mm256_add_epi32(_mm256_permute2x128_si256(u0, u1, 0x20), _mm256_permute2x128_si256(u0, u1, 0x31));
    _mm256_storeu_si256((__m256i *)z, r);
}

/* The output of a net of 32 hidden and no second layer (`best`'s) in
 * registers: the four clipped halves and their products with w2, summed
 * (int32 adds that wrap, in any order: the same integer as dot_avx2's). */
AVX2 static int32_t output32_avx2(const Nnue *net, const NnueAcc *acc, int actor)
{
    __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16((short)net->qa);
    const int16_t *own = acc->v[actor], *other = acc->v[actor ^ 1];
    const __m256i *w = (const __m256i *)net->w2;
#define CLIP(p) _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256((const __m256i *)(p)), zero), top)
    __m256i s = _mm256_add_epi32(_mm256_madd_epi16(CLIP(own), _mm256_load_si256(w)),
                                 _mm256_madd_epi16(CLIP(own + 16), _mm256_load_si256(w + 1)));
    s = _mm256_add_epi32(s, _mm256_add_epi32(_mm256_madd_epi16(CLIP(other), _mm256_load_si256(w + 2)),
                                             _mm256_madd_epi16(CLIP(other + 16), _mm256_load_si256(w + 3))));
#undef CLIP
    __m128i q = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 0, 3, 2)));
    q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(2, 3, 0, 1)));
    return (int32_t)((uint32_t)_mm_cvtsi128_si32(q) + (uint32_t)net->b2[0]);
}

AVX2 static int32_t output_avx2(const Nnue *net, const NnueAcc *acc, int actor)
{
    if (net->hidden == 32 && net->l2 == 0) return output32_avx2(net, acc, actor);
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    hidden_avx2(net, acc, actor, h);
    int n = 2 * net->hidden, k = 0;
    if (net->l2 == 0) return (int32_t)(dot_avx2(h, net->w2, n) + (uint32_t)net->b2[0]);
    uint32_t z[NNUE_MAX_L2];
    for (; k + 8 <= net->l2; k += 8) dot8_avx2(h, net->w2 + (size_t)k * n, n, z + k);
    for (; k < net->l2; k++) z[k] = dot_avx2(h, net->w2 + (size_t)k * n, n);
    for (k = 0; k < net->l2; k++) z[k] += (uint32_t)net->b2[k];
    return finish(net, z);
}
#endif

bool nnue_path_available(NnuePath p)
{
    if (p == NNUE_PATH_PORTABLE) return true;
#if defined(__x86_64__)
    return p == NNUE_PATH_AVX2 && __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

/* A branch on the path, not a pointer: the same branch every time, which
 * the CPU predicts; in a build without the vector path it folds away. */
#if defined(__x86_64__)
#define ON_PATH(p, avx2_call, portable_call) \
    do {                                     \
        if ((p) == NNUE_PATH_AVX2) avx2_call; \
        else portable_call;                  \
    } while (0)
#else
#define ON_PATH(p, avx2_call, portable_call) portable_call
#endif

static void refresh_on(const Nnue *net, NnuePath p, const Position *pos, NnueAcc *acc)
{
    for (int c = 0; c < COLOUR_NB; c++) {
        uint16_t rows[NNUE_MAX_ACTIVE];
        int n = nnue_features(pos, c, rows);
        ON_PATH(p, rows_avx2(net, net->b1, rows, n, NULL, 0, acc->v[c]),
                rows_portable(net, net->b1, rows, n, NULL, 0, acc->v[c]));
    }
    if (net->win) {
        patterns_codes(pos, acc->code);
        patterns_sum_codes(acc->code, net->win, acc->psum);
    }
}

/* The windows' codes and sums after an action: the points whose piece
 * changed, each once (nnue_delta). */
static void patterns_apply(const Nnue *net, const NnueAcc *from, const NnueDelta *d, NnueAcc *to)
{
    if (to != from) {
        memcpy(to->code, from->code, sizeof to->code);
        memcpy(to->psum, from->psum, sizeof to->psum);
    }
    patterns_update_sums(to->code, d->pts, d->change, d->npts, net->win, to->psum);
}

static void apply_on(const Nnue *net, NnuePath p, const NnueAcc *from, const NnueDelta *d, NnueAcc *to)
{
#if defined(__x86_64__)
    if (p == NNUE_PATH_AVX2 && net->hidden == 32) rows32x2_avx2(net, from, d, to);
    else
#endif
        for (int c = 0; c < COLOUR_NB; c++)
            ON_PATH(p, rows_avx2(net, from->v[c], d->add[c], d->nadd[c], d->sub[c], d->nsub[c], to->v[c]),
                    rows_portable(net, from->v[c], d->add[c], d->nadd[c], d->sub[c], d->nsub[c], to->v[c]));
    if (net->win) patterns_apply(net, from, d, to);
}

static int32_t output_on(const Nnue *net, NnuePath p, const NnueAcc *acc, int actor)
{
    int32_t r;
    ON_PATH(p, r = output_avx2(net, acc, actor), r = output_portable(net, acc, actor));
    return r;
}

void nnue_refresh(const Nnue *net, const Position *pos, NnueAcc *acc) { refresh_on(net, net->path, pos, acc); }
void nnue_apply(const Nnue *net, const NnueAcc *from, const NnueDelta *d, NnueAcc *to)
{
    apply_on(net, net->path, from, d, to);
}
void nnue_make(const Nnue *net, const NnueAcc *from, NnueAcc *to, const Position *pos, Action a, const Undo *u)
{
    NnueDelta d;
    nnue_delta(pos, a, u, &d);
    apply_on(net, net->path, from, &d, to);
}
void nnue_pass(const Nnue *net, const NnueAcc *from, NnueAcc *to, const Position *pos)
{
    NnueDelta d;
    for (int c = 0; c < COLOUR_NB; c++) {
        d.sub[c][0] = (uint16_t)state_row(c, pos->actor ^ 1, pos->state);
        d.add[c][0] = (uint16_t)state_row(c, pos->actor, pos->state);
        d.nsub[c] = d.nadd[c] = 1;
    }
    d.npts = 0;
    apply_on(net, net->path, from, &d, to);
}
int32_t nnue_output(const Nnue *net, const NnueAcc *acc, int actor) { return output_on(net, net->path, acc, actor); }
int32_t nnue_evaluate(const Nnue *net, const Position *pos)
{
    NnueAcc acc;
    refresh_on(net, net->path, pos, &acc);
    return output_on(net, net->path, &acc, pos->actor) + nnue_parts(net, &acc, pos);
}

bool nnue_has_linear(const Nnue *net) { return net->linear; }
bool nnue_has_patterns(const Nnue *net) { return net->pw != NULL; }

/* The linear part of features f (whole numbers, White's minus Black's),
 * in the actor's view (the tempo feature then reads +1 for either) */
static int32_t linear_sum(const Nnue *net, const int f[FEAT_NB], int actor)
{
    int32_t s = 0, sign = actor == WHITE ? 1 : -1;
    for (int k = 0; k < FEAT_NB; k++) s += net->lw[k] * f[k] * sign;
    return s;
}

static int32_t linear_part(const Nnue *net, const Position *pos)
{
    int f[FEAT_NB];
    features_int(pos, f);
    return linear_sum(net, f, pos->actor);
}

int32_t nnue_linear(const Nnue *net, const Position *pos)
{
    if (!net->linear) return 0;
    int32_t s = linear_part(net, pos);
    if (net->pw) s += patterns_sum(pos, net->pw_code + (size_t)pos->actor * PATTERN_CODES);
    return s;
}

/* The windows' part (patterns and line counts) from the accumulators'
 * sums, the rest of the linear part from the position. */
int32_t nnue_parts(const Nnue *net, const NnueAcc *acc, const Position *pos)
{
    if (!net->linear) return 0;
    int32_t s = features_dot_rest(pos, net->lw);
    return (pos->actor == WHITE ? s : -s) + acc->psum[pos->actor];
}
double nnue_logit(const Nnue *net, int32_t raw) { return (double)raw / ((double)net->qa * net->qw); }

void nnue_refresh_path(const Nnue *net, NnuePath p, const Position *pos, NnueAcc *acc) { refresh_on(net, p, pos, acc); }
void nnue_apply_path(const Nnue *net, NnuePath p, const NnueAcc *from, const NnueDelta *d, NnueAcc *to)
{
    apply_on(net, p, from, d, to);
}
int32_t nnue_output_path(const Nnue *net, NnuePath p, const NnueAcc *acc, int actor)
{
    return output_on(net, p, acc, actor);
}

int nnue_hidden(const Nnue *net) { return net->hidden; }
int nnue_l2(const Nnue *net) { return net->l2; }
int nnue_qa(const Nnue *net) { return net->qa; }

size_t nnue_float_params(const Nnue *net, float *p)
{
    size_t h = (size_t)net->hidden, l2 = (size_t)net->l2, n2 = l2 ? l2 * 2 * h : 2 * h, nb2 = l2 ? l2 : 1;
    size_t n = (size_t)NNUE_ROWS * h + h + n2 + nb2 + l2 + (l2 ? 1 : 0) + (net->linear ? FEAT_NB : 0) +
               (net->pw ? PATTERN_NB : 0);
    if (!p) return n;
    double qa = net->qa, qw = net->qw;
    for (size_t k = 0; k < (size_t)NNUE_ROWS * h; k++) *p++ = (float)(net->w1[k] / qa);
    for (size_t k = 0; k < h; k++) *p++ = (float)(net->b1[k] / qa);
    for (size_t k = 0; k < n2; k++) *p++ = (float)(net->w2[k] / qw);
    for (size_t k = 0; k < nb2; k++) *p++ = (float)(net->b2[k] / (qa * qw));
    for (size_t k = 0; k < l2; k++) *p++ = (float)(net->w3[k] / qw);
    if (l2) *p++ = (float)(net->b3 / (qa * qw));
    if (net->linear)
        for (int k = 0; k < FEAT_NB; k++) *p++ = (float)(net->lw[k] / (qa * qw));
    if (net->pw)
        for (int k = 0; k < PATTERN_NB; k++) *p++ = (float)(net->pw[k] / (qa * qw));
    return n;
}
uint64_t nnue_hash(const Nnue *net) { return net->hash; }
void nnue_int_params(const Nnue *net, int16_t *w1, NnueParams *p)
{
    size_t h = (size_t)net->hidden;
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f >= 0) memcpy(w1 + (size_t)f * h, net->w1 + (size_t)row * h, h * sizeof *w1);
    }
    *p = (NnueParams){.hidden = net->hidden, .l2 = net->l2, .qa = net->qa, .qw = net->qw, .w1 = w1, .b1 = net->b1,
                      .w2 = net->w2, .w3 = net->w3, .b2 = net->b2, .b3 = net->b3,
                      .lw = net->linear ? net->lw : NULL, .pw = net->pw, .description = net->description};
}
bool nnue_policy_head(const Nnue *net, const int16_t **ppw, const int32_t **ppb, int32_t *beta)
{
    if (!net->ppw) return false;
    *ppw = net->ppw;
    *ppb = net->ppb;
    *beta = net->beta;
    return true;
}
bool nnue_policy_direct(const Nnue *net) { return net->direct; }
void nnue_hidden_values(const Nnue *net, const NnueAcc *acc, int actor, int16_t *h) { hidden_portable(net, acc, actor, h); }
const char *nnue_description(const Nnue *net) { return net->description; }
NnuePath nnue_path(const Nnue *net) { return net->path; }

/* ---- the file (docs/nnue.md) ----------------------------------------- */

static const uint8_t MAGIC[8] = {'Y', 'I', 'N', 'S', 'H', 'N', 'E', 'T'};
enum { HASH_AT = 48 };

/* FNV-1a (64 bits, the standard offset basis) over the header before the
 * hash and every byte after the header. */
static uint64_t content_hash(const uint8_t *bytes, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        if (i == HASH_AT) i = NNUE_HEADER_BYTES;
        if (i >= len) break;
        h = (h ^ bytes[i]) * 1099511628211ULL;
    }
    return h;
}

static uint32_t rd32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, uint64_t v)
{
    wr32(p, (uint32_t)v);
    wr32(p + 4, (uint32_t)(v >> 32));
}

/* Bytes of the policy head: beta (not in a direct head), the biases, the
 * weights. */
static size_t policy_bytes(int hidden, bool direct)
{
    return (direct ? 0 : 4) + 4 * (size_t)ENCODE_ACTIONS + 2 * (size_t)ENCODE_ACTIONS * 2 * (size_t)hidden;
}

/* Bytes of the parameters after the description. */
static size_t params_bytes(int hidden, int l2, bool linear, bool patterns, bool policy, bool direct)
{
    size_t h = (size_t)hidden, n = (size_t)NNUE_FEATURES * h + h;
    size_t lin = (linear ? 4 * (size_t)FEAT_NB : 0) + (patterns ? 4 * (size_t)PATTERN_NB : 0) +
                 (policy ? policy_bytes(hidden, direct) : 0);
    if (l2 == 0) return 2 * (n + 2 * h) + 4 + lin;
    return 2 * (n + (size_t)l2 * 2 * h + (size_t)l2) + 4 * ((size_t)l2 + 1) + lin;
}

/* The sizes and scales a net may have; NULL when they are fine. */
static const char *arch_problem(long hidden, long l2, long qa, long qw)
{
    if (hidden < NNUE_MIN_HIDDEN || hidden > NNUE_MAX_HIDDEN || hidden % 16)
        return "the hidden width is not a multiple of 16 from 16 to 256";
    if (l2 < 0 || l2 > NNUE_MAX_L2) return "the second layer is not 0 to 32 units";
    if (qa < 1 || qa > 255) return "the activation scale is not 1 to 255";
    if (qw < 1 || qw > 1024) return "the weight scale is not 1 to 1024";
    return NULL;
}

int nnue_encode(const NnueParams *p, uint8_t **bytes, size_t *len, char *err)
{
    *bytes = NULL;
    *len = 0;
    const char *why = arch_problem(p->hidden, p->l2, p->qa, p->qw);
    if (why) return error_code(err, ERR_USAGE, "cannot write a net: %s (%d, %d, %d, %d)", why, p->hidden, p->l2, p->qa, p->qw);
    size_t dlen = p->description ? strlen(p->description) : 0;
    if (dlen > NNUE_DESC_MAX) dlen = NNUE_DESC_MAX;
    if (p->pw && !p->lw) return error_code(err, ERR_USAGE, "cannot write a net: a pattern part needs a linear part");
    if (p->ppw && !p->pw) return error_code(err, ERR_USAGE, "cannot write a net: a policy head needs a pattern part");
    if (p->ppw)
        for (size_t i = 0; i < (size_t)ENCODE_ACTIONS * 2 * (size_t)p->hidden; i++)
            if (p->ppw[i] > NNUE_POLICY_MAX * NNUE_POLICY_Q || p->ppw[i] < -NNUE_POLICY_MAX * NNUE_POLICY_Q)
                return error_code(err, ERR_USAGE, "cannot write a net: policy weight %zu is %d, beyond %d", i,
                                  p->ppw[i], NNUE_POLICY_MAX * NNUE_POLICY_Q);
    size_t payload = dlen + params_bytes(p->hidden, p->l2, p->lw != NULL, p->pw != NULL, p->ppw != NULL,
                                         p->ppw && p->direct),
           n = NNUE_HEADER_BYTES + payload;
    uint8_t *b = calloc(1, n);
    if (!b) return error_set(err, "out of memory for a net of %zu bytes", n);
    memcpy(b, MAGIC, sizeof MAGIC);
    wr32(b + 8, NNUE_FORMAT_VERSION);
    wr32(b + 12, p->ppw && p->direct ? NNUE_FEATURE_SET_DIRECT
                 : p->ppw            ? NNUE_FEATURE_SET_POLICY
                 : p->pw ? NNUE_FEATURE_SET_PATTERNS
                 : p->lw ? NNUE_FEATURE_SET_LINEAR
                         : NNUE_FEATURE_SET);
    wr32(b + 16, NNUE_FEATURES);
    wr32(b + 20, (uint32_t)p->hidden);
    wr32(b + 24, (uint32_t)p->l2);
    wr32(b + 28, (uint32_t)p->qa);
    wr32(b + 32, (uint32_t)p->qw);
    wr32(b + 36, (uint32_t)dlen);
    wr64(b + 40, payload);
    uint8_t *q = b + NNUE_HEADER_BYTES;
    memcpy(q, p->description ? p->description : "", dlen);
    q += dlen;
    size_t h = (size_t)p->hidden, l2 = (size_t)p->l2, n2 = l2 ? l2 * 2 * h : 2 * h;
#define PUT16(src, count)                                                      \
    for (size_t i = 0; i < (count); i++, q += 2) {                             \
        uint16_t v = (uint16_t)(src)[i];                                       \
        q[0] = (uint8_t)v;                                                     \
        q[1] = (uint8_t)(v >> 8);                                              \
    }
    PUT16(p->w1, (size_t)NNUE_FEATURES * h);
    PUT16(p->b1, h);
    PUT16(p->w2, n2);
    for (size_t i = 0; i < (l2 ? l2 : 1); i++, q += 4) wr32(q, (uint32_t)p->b2[i]);
    if (l2) {
        PUT16(p->w3, l2);
        wr32(q, (uint32_t)p->b3);
        q += 4;
    }
    if (p->lw)
        for (int k = 0; k < FEAT_NB; k++, q += 4) wr32(q, (uint32_t)p->lw[k]);
    if (p->pw)
        for (int k = 0; k < PATTERN_NB; k++, q += 4) wr32(q, (uint32_t)p->pw[k]);
    if (p->ppw) {
        if (!p->direct) {
            wr32(q, (uint32_t)p->beta);
            q += 4;
        }
        for (int k = 0; k < ENCODE_ACTIONS; k++, q += 4) wr32(q, (uint32_t)p->ppb[k]);
        PUT16(p->ppw, (size_t)ENCODE_ACTIONS * 2 * h);
    }
#undef PUT16
    wr64(b + HASH_AT, content_hash(b, n));
    *bytes = b;
    *len = n;
    return 0;
}

const Nnue *nnue_retain(const Nnue *net)
{
    /* the count is not part of what the net computes: a const net may count */
    if (net) atomic_fetch_add_explicit(&((Nnue *)net)->refs, 1, memory_order_relaxed);
    return net;
}

void nnue_free(const Nnue *net)
{
    if (!net) return;
    Nnue *n = (Nnue *)net;
    /* the last holder frees; acq_rel orders every holder's reads before it */
    if (atomic_fetch_sub_explicit(&n->refs, 1, memory_order_acq_rel) != 1) return;
    free(n->mem);
    free(n->pw);
    free(n->win);
    free(n->ppw);
    free(n);
}

static size_t up32(size_t n) { return (n + 31) & ~(size_t)31; }

/* What a net file's header says, once checked against the file. */
typedef struct NetHeader {
    long hidden, l2, qa, qw, dlen;
    bool linear, patterns, policy, direct;
    uint64_t hash;
} NetHeader;

/* The header of the net file b of len bytes, checked: the magic, the
 * version, the inputs, the architecture, the sizes and the content hash. */
static int decode_header(const uint8_t *b, size_t len, const char *name, NetHeader *hd, char *err)
{
    if (len < sizeof MAGIC || memcmp(b, MAGIC, sizeof MAGIC))
        return error_set(err, "%s: not a YINSH net file (it does not begin with YINSHNET)", name);
    if (len < NNUE_HEADER_BYTES)
        return error_set(err, "%s: truncated: %zu bytes, less than the %d of a net file's header", name, len,
                         (int)NNUE_HEADER_BYTES);
    uint32_t version = rd32(b + 8), set = rd32(b + 12), inputs = rd32(b + 16);
    if (version != NNUE_FORMAT_VERSION)
        return error_set(err, "%s: net file format version %u; this yinsh reads version %d", name, (unsigned)version,
                         (int)NNUE_FORMAT_VERSION);
    if (set < NNUE_FEATURE_SET || set > NNUE_FEATURE_SET_DIRECT || inputs != NNUE_FEATURES)
        return error_set(err, "%s: mismatched inputs: feature set %u of %u inputs; this yinsh's nets have feature set %d "
                         "(or %d, with a linear part, %d, with a linear and a pattern part, %d, with those and a "
                         "policy head, or %d, with those and a direct policy head) of %d",
                         name, (unsigned)set, (unsigned)inputs, (int)NNUE_FEATURE_SET, (int)NNUE_FEATURE_SET_LINEAR,
                         (int)NNUE_FEATURE_SET_PATTERNS, (int)NNUE_FEATURE_SET_POLICY, (int)NNUE_FEATURE_SET_DIRECT,
                         (int)NNUE_FEATURES);
    hd->direct = set == NNUE_FEATURE_SET_DIRECT;
    hd->policy = set == NNUE_FEATURE_SET_POLICY || hd->direct;
    hd->patterns = set == NNUE_FEATURE_SET_PATTERNS || hd->policy;
    hd->linear = set == NNUE_FEATURE_SET_LINEAR || hd->patterns;
    hd->hidden = rd32(b + 20), hd->l2 = rd32(b + 24), hd->qa = rd32(b + 28), hd->qw = rd32(b + 32);
    hd->dlen = rd32(b + 36);
    const char *why = arch_problem(hd->hidden, hd->l2, hd->qa, hd->qw);
    if (why)
        return error_set(err, "%s: mismatched architecture: %s (hidden %ld, second layer %ld, scales %ld and %ld)", name,
                         why, hd->hidden, hd->l2, hd->qa, hd->qw);
    if (hd->dlen > NNUE_DESC_MAX)
        return error_set(err, "%s: damaged header: a description of %ld bytes (at most %d)", name, hd->dlen,
                         (int)NNUE_DESC_MAX);
    uint64_t payload = rd64(b + 40),
             need = (uint64_t)hd->dlen + params_bytes((int)hd->hidden, (int)hd->l2, hd->linear, hd->patterns, hd->policy,
                                                      hd->direct);
    if (payload != need)
        return error_set(err, "%s: mismatched sizes: the header says %llu bytes of contents, its architecture needs %llu",
                         name, (unsigned long long)payload, (unsigned long long)need);
    if (len < NNUE_HEADER_BYTES + need)
        return error_set(err, "%s: truncated: %zu bytes, the header says %llu", name, len,
                         (unsigned long long)(NNUE_HEADER_BYTES + need));
    if (len > NNUE_HEADER_BYTES + need)
        return error_set(err, "%s: %zu bytes, %llu more than the header says (not one net file)", name, len,
                         (unsigned long long)(len - NNUE_HEADER_BYTES - need));
    uint64_t said = rd64(b + HASH_AT);
    hd->hash = content_hash(b, len);
    if (said != hd->hash)
        return error_set(err, "%s: damaged: its content hash is %016llx, the header says %016llx", name,
                         (unsigned long long)hd->hash, (unsigned long long)said);
    return 0;
}

/* A net of the header's architecture, its layers in one aligned block
 * of zeros, its parameters still to be read. */
static int net_alloc(const NetHeader *hd, const char *name, Nnue **out, char *err)
{
    Nnue *net = calloc(1, sizeof *net);
    if (!net) return error_set(err, "%s: out of memory", name);
    size_t h = (size_t)hd->hidden, l2 = (size_t)hd->l2, n2 = l2 ? l2 * 2 * h : 2 * h;
    size_t s_w1 = up32((size_t)NNUE_ROWS_MADE * h * 2), s_b1 = up32(h * 2), s_w2 = up32(n2 * 2);
    size_t s_b2 = up32((l2 ? l2 : 1) * 4), s_w3 = up32((l2 ? l2 : 1) * 2);
    net->mem = aligned_alloc(32, s_w1 + s_b1 + s_w2 + s_b2 + s_w3);
    if (!net->mem) {
        free(net);
        return error_set(err, "%s: out of memory", name);
    }
    memset(net->mem, 0, s_w1 + s_b1 + s_w2 + s_b2 + s_w3);
    char *m = net->mem;
    net->w1 = (int16_t *)m;
    net->b1 = (int16_t *)(m + s_w1);
    net->w2 = (int16_t *)(m + s_w1 + s_b1);
    net->b2 = (int32_t *)(m + s_w1 + s_b1 + s_w2);
    net->w3 = (int16_t *)(m + s_w1 + s_b1 + s_w2 + s_b2);
    net->hidden = (int)hd->hidden;
    net->l2 = (int)hd->l2;
    net->qa = (int)hd->qa;
    net->qw = (int)hd->qw;
    net->qw_shift = -1;
    for (int b = 0; b < 11; b++)
        if (hd->qw == 1L << b) net->qw_shift = b;
    net->hash = hd->hash;
    net->linear = hd->linear;
    *out = net;
    return 0;
}

/* The difference rows (NNUE_ROW_FLIP on, nnue.h), from the rows read:
 * row a less row b into row `to`, in int16 that wraps. */
static void difference_row(Nnue *net, int to, int a, int b)
{
    size_t h = (size_t)net->hidden;
    for (size_t j = 0; j < h; j++)
        net->w1[(size_t)to * h + j] = wrap16(net->w1[(size_t)a * h + j] - net->w1[(size_t)b * h + j]);
}

static void difference_rows(Nnue *net)
{
    for (int p = 0; p < SQUARE_NB; p++) {
        int own = NNUE_OWN_MARKER * SQUARE_NB + p, theirs = NNUE_THEIR_MARKER * SQUARE_NB + p;
        difference_row(net, NNUE_ROW_FLIP + p, theirs, own);
        difference_row(net, NNUE_ROW_UNFLIP + p, own, theirs);
        difference_row(net, NNUE_ROW_LEAVE + p, own, NNUE_OWN_RING * SQUARE_NB + p);
        difference_row(net, NNUE_ROW_LEAVE + SQUARE_NB + p, theirs, NNUE_THEIR_RING * SQUARE_NB + p);
    }
    for (int k = 1; k <= MARKERS_NB; k++) difference_row(net, NNUE_ROW_POOL_DOWN + k, NNUE_ROW_POOL + k - 1, NNUE_ROW_POOL + k);
    for (int st = 0; st < STATE_NB; st++) {
        difference_row(net, NNUE_ROW_TURN + 2 * st, NNUE_ROW_STATE + 2 * st + 1, NNUE_ROW_STATE + 2 * st);
        difference_row(net, NNUE_ROW_TURN + 2 * st + 1, NNUE_ROW_STATE + 2 * st, NNUE_ROW_STATE + 2 * st + 1);
    }
}

#define GET16(p) ((int16_t)(uint16_t)((p)[0] | (p)[1] << 8))

/* The layers' parameters from q (after the description); returns the
 * first byte after them. */
static const uint8_t *decode_layers(Nnue *net, const uint8_t *q)
{
    size_t h = (size_t)net->hidden;
    long l2 = net->l2;
    size_t n2 = l2 ? (size_t)l2 * 2 * h : 2 * h;
    /* the file's rows by canonical point go to the rows by point index */
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f < 0) continue;
        const uint8_t *src = q + (size_t)f * h * 2;
        for (size_t j = 0; j < h; j++) net->w1[(size_t)row * h + j] = GET16(src + 2 * j);
    }
    q += (size_t)NNUE_FEATURES * h * 2;
    for (size_t j = 0; j < h; j++, q += 2) net->b1[j] = GET16(q);
    for (size_t j = 0; j < n2; j++, q += 2) net->w2[j] = GET16(q);
    for (long k = 0; k < (l2 ? l2 : 1); k++, q += 4) net->b2[k] = (int32_t)rd32(q);
    if (l2) {
        for (long k = 0; k < l2; k++, q += 2) net->w3[k] = GET16(q);
        net->b3 = (int32_t)rd32(q);
        q += 4;
    }
    difference_rows(net);
    return q;
}

#undef GET16

/* The n weights of a linear or pattern part read from *q into w, each
 * bounded so that no sum of the part can wrap (the pattern part's 123
 * windows no more than the linear part's features). */
static int decode_part(const Nnue *net, const uint8_t **q, int32_t *w, int n, const char *part, const char *name,
                       char *err)
{
    for (int k = 0; k < n; k++, *q += 4) w[k] = (int32_t)rd32(*q);
    long bound = (long)NNUE_LINEAR_MAX * net->qa * net->qw;
    for (int k = 0; k < n; k++)
        if (w[k] > bound || w[k] < -bound)
            return error_set(err, "%s: mismatched architecture: the %s part's weight %d is %ld, beyond %d "
                             "times the scales", name, part, k, (long)w[k], (int)NNUE_LINEAR_MAX);
    return 0;
}

/* The largest |f| of a feature of the linear part (eval/evaluation.h,
 * White's minus Black's): 3 rings removed, 51 markers or flippable
 * markers, 123 windows, and a colour's moves or its rings' reach, at most
 * 27 points on a ring's three lines for each of 5 rings (135). */
enum { NNUE_FEATURE_ABS_MAX = 150 };

/* The biases past the first layer (b2, b3) within NNUE_BIAS_MAX logits,
 * then the largest output the weights can give, with the linear and
 * pattern parts, within the int32 every search adds them in
 * (nnue_evaluate, alpha-beta's leaves, the policy head's values): no sum
 * of a loaded net can overflow, whatever the position. A unit of the
 * hidden layer or of the second is at most QA; a second-layer sum must
 * not wrap either. */
static int decode_sums(const Nnue *net, const char *name, char *err)
{
    long long qa = net->qa, bias_max = (long long)NNUE_BIAS_MAX * qa * net->qw;
    int l2 = net->l2, n = 2 * net->hidden;
    for (int k = 0; k < (l2 ? l2 : 1); k++)
        if (llabs((long long)net->b2[k]) > bias_max)
            return error_set(err, "%s: mismatched architecture: the output's bias b2 %d is %ld, beyond %d times the scales",
                             name, k, (long)net->b2[k], (int)NNUE_BIAS_MAX);
    if (l2 && llabs((long long)net->b3) > bias_max)
        return error_set(err, "%s: mismatched architecture: the output's bias b3 is %ld, beyond %d times the scales",
                         name, (long)net->b3, (int)NNUE_BIAS_MAX);
    long long out = 0;
    for (int k = 0; k < (l2 ? l2 : 1); k++) {
        long long z = llabs((long long)net->b2[k]);
        for (int j = 0; j < n; j++) z += qa * abs(net->w2[(size_t)k * (size_t)n + (size_t)j]);
        if (z > INT32_MAX)
            return error_set(err, "%s: mismatched architecture: the second layer's weights w2 could sum to %lld in "
                             "unit %d, beyond the int32 it is summed in", name, z, k);
        out = z;
    }
    if (l2) {
        out = llabs((long long)net->b3);
        for (int k = 0; k < l2; k++) out += qa * abs(net->w3[k]);
    }
    long long lin = 0, pat = 0;
    if (net->linear)
        for (int k = 0; k < FEAT_NB; k++) lin += llabs((long long)net->lw[k]) * NNUE_FEATURE_ABS_MAX;
    if (net->pw) {
        for (int k = 0; k < PATTERN_NB; k++)
            if (llabs((long long)net->pw[k]) > pat) pat = llabs((long long)net->pw[k]);
        pat *= PATTERN_WINDOWS + 2; /* the kept sums move by a window's difference */
    }
    if (out + lin + pat > INT32_MAX)
        return error_set(err, "%s: mismatched architecture: its output (up to %lld), linear part (%lld) and pattern "
                         "part (%lld) could sum beyond %ld, the int32 a search adds them in", name, out, lin, pat,
                         (long)INT32_MAX);
    return 0;
}

/* The policy head from q (after the pattern part), its weights bounded
 * by NNUE_POLICY_MAX and its biases by NNUE_BIAS_MAX logits (so that a
 * sum of the head cannot wrap: 512 hidden values of at most 255 times
 * 4096, 535 million, and a bias of at most 131 million stay below 2^31). */
_Static_assert(2LL * NNUE_MAX_HIDDEN * 255 * NNUE_POLICY_MAX * NNUE_POLICY_Q +
                   (long long)NNUE_BIAS_MAX * 255 * NNUE_POLICY_Q <= INT32_MAX,
               "no sum of the policy head can wrap");
static int decode_policy(Nnue *net, const uint8_t *q, const char *name, char *err)
{
    size_t nw = (size_t)ENCODE_ACTIONS * 2 * (size_t)net->hidden;
    /* the weights first, each row 32-byte aligned (2 * hidden is a multiple of 16) */
    net->ppw = aligned_alloc(32, up32(nw * 2 + 4 * (size_t)ENCODE_ACTIONS));
    if (!net->ppw) return error_set(err, "%s: out of memory", name);
    net->ppb = (int32_t *)(net->ppw + nw);
    if (!net->direct) {
        net->beta = (int32_t)rd32(q);
        q += 4;
    }
    for (int k = 0; k < ENCODE_ACTIONS; k++, q += 4) {
        net->ppb[k] = (int32_t)rd32(q);
        long long bound = (long long)NNUE_BIAS_MAX * net->qa * NNUE_POLICY_Q;
        if (llabs((long long)net->ppb[k]) > bound)
            return error_set(err, "%s: mismatched architecture: the policy bias of action %d is %ld, beyond %d times "
                             "the scale", name, k, (long)net->ppb[k], (int)NNUE_BIAS_MAX);
    }
    for (size_t i = 0; i < nw; i++, q += 2) {
        net->ppw[i] = (int16_t)(uint16_t)(q[0] | q[1] << 8);
        if (net->ppw[i] > NNUE_POLICY_MAX * NNUE_POLICY_Q || net->ppw[i] < -NNUE_POLICY_MAX * NNUE_POLICY_Q)
            return error_set(err, "%s: mismatched architecture: policy weight %zu is %d, beyond %d times the scale",
                             name, i, net->ppw[i], (int)NNUE_POLICY_MAX);
    }
    return 0;
}

/* The windows' table (Nnue.win): a window of code k (White's view, digits
 * as patterns.h has them: 1 White's marker, 2 Black's) with three of
 * one colour's markers and none of the other's is one of that colour's
 * windows of 3 (FEAT_LINES3, as eval/evaluation.c counts them over the
 * same 123 windows), with four one of its windows of 4; the feature is
 * White's less Black's, signed for the actor. Integer sums in any order
 * are the same integers: the accumulators' sum of the table equals the
 * linear part's line features and the pattern part, to the unit. */
static int window_table(Nnue *net, const char *name, char *err)
{
    net->win = malloc(PATTERN_CODES * sizeof *net->win);
    if (!net->win) return error_set(err, "%s: out of memory", name);
    for (int code = 0; code < PATTERN_CODES; code++) {
        int n[3] = {0, 0, 0}; /* empty or a ring, White's markers, Black's */
        for (int k = 0, c = code; k < 5; k++, c /= 5) n[c % 5 == 1 ? 1 : c % 5 == 2 ? 2 : 0]++;
        int three = (n[1] == 3 && !n[2]) - (n[2] == 3 && !n[1]), four = (n[1] == 4 && !n[2]) - (n[2] == 4 && !n[1]);
        int32_t lines = net->lw[FEAT_LINES3] * three + net->lw[FEAT_LINES4] * four;
        int32_t white = (net->pw ? net->pw_code[code] : 0) + lines;
        int32_t black = (net->pw ? net->pw_code[PATTERN_CODES + code] : 0) - lines;
        net->win[code] = patterns_pair(white, black);
    }
    return 0;
}

/* A net that decoding gave up on, freed whole. */
static void net_discard(Nnue *net)
{
    free(net->pw);
    free(net->win);
    free(net->ppw);
    free(net->mem);
    free(net);
}

int nnue_decode(Nnue **out, const uint8_t *b, size_t len, const char *name, char *err)
{
    *out = NULL;
    NetHeader hd;
    Nnue *net;
    int rc = decode_header(b, len, name, &hd, err);
    if (!rc) rc = net_alloc(&hd, name, &net, err);
    if (rc) return rc;
    const uint8_t *q = b + NNUE_HEADER_BYTES;
    memcpy(net->description, q, (size_t)hd.dlen);
    net->description[hd.dlen] = 0;
    q = decode_layers(net, q + hd.dlen);
    if (hd.linear) rc = decode_part(net, &q, net->lw, FEAT_NB, "linear", name, err);
    if (!rc && hd.patterns) {
        net->pw = malloc((PATTERN_NB + 2 * PATTERN_CODES) * sizeof *net->pw);
        rc = net->pw ? decode_part(net, &q, net->pw, PATTERN_NB, "pattern", name, err)
                     : error_set(err, "%s: out of memory", name);
        if (!rc) {
            net->pw_code = net->pw + PATTERN_NB;
            for (int c = 0; c < COLOUR_NB; c++) patterns_expand(net->pw, c, net->pw_code + (size_t)c * PATTERN_CODES);
        }
    }
    net->direct = hd.direct;
    if (!rc) rc = decode_sums(net, name, err);
    if (!rc && hd.linear) rc = window_table(net, name, err);
    if (!rc && hd.policy) rc = decode_policy(net, q, name, err);
    if (rc) {
        net_discard(net);
        return rc;
    }
    net->path = nnue_path_available(NNUE_PATH_AVX2) ? NNUE_PATH_AVX2 : NNUE_PATH_PORTABLE;
    atomic_init(&net->refs, 1);
    *out = net;
    return 0;
}

/* The nets built into yinsh (CMakeLists.txt, cmake/embed_dir.cmake):
 * every file of eval/nets, by name. */
extern const char *const YINSH_NET_NAMES[], *const YINSH_NET_BYTES[];
extern const unsigned long YINSH_NET_SIZES[];

/* The built-in copy of a shipped net that path names, or NULL: its file
 * name, with or without eval/nets/ and with or without .nnue ("pv32",
 * the short name results/ and the docs use). */
static const char *shipped_net(const char *path, size_t *len)
{
    static const char DIR[] = "eval/nets/", EXT[] = ".nnue";
    const char *name = !strncmp(path, DIR, sizeof DIR - 1) ? path + sizeof DIR - 1 : path;
    if (strchr(name, '/')) return NULL;
    size_t n = strlen(name);
    for (int i = 0; YINSH_NET_NAMES[i]; i++)
        if (!strcmp(YINSH_NET_NAMES[i], name) ||
            (!strncmp(YINSH_NET_NAMES[i], name, n) && !strcmp(YINSH_NET_NAMES[i] + n, EXT))) {
            *len = YINSH_NET_SIZES[i];
            return YINSH_NET_BYTES[i];
        }
    return NULL;
}

int nnue_load(Nnue **out, const char *path, char *err)
{
    *out = NULL;
    size_t blen;
    const char *shipped = shipped_net(path, &blen);
    if (shipped && access(path, F_OK) != 0 && errno == ENOENT)
        return nnue_decode(out, (const uint8_t *)shipped, blen, path, err);
    /* a net is at most a few hundred KB: a larger file is not one */
    char *buf;
    size_t len;
    int rc = file_read(path, NNUE_HEADER_BYTES + NNUE_DESC_MAX + params_bytes(NNUE_MAX_HIDDEN, NNUE_MAX_L2, true, true, true, false), 0, &buf,
                       &len, err);
    if (rc) return rc == ERR_NOT_FOUND ? rc : ERR_FAIL;
    rc = nnue_decode(out, (const uint8_t *)buf, len, path, err);
    free(buf);
    return rc;
}

int nnue_save(const char *path, const uint8_t *bytes, size_t len, char *err)
{
    FileOut o;
    if (file_out_open(&o, path, err)) return ERR_FAIL;
    /* a short write leaves the stream in error: commit says so and removes
     * the sibling */
    size_t wrote = fwrite(bytes, 1, len, o.f);
    (void)wrote;
    return file_out_commit(&o, err);
}

int nnue_load_builtin(Nnue **out, char *err)
{
    size_t len;
    const char *bytes = shipped_net("default.nnue", &len);
    if (!bytes) return error_set(err, "this yinsh was built without eval/nets/default.nnue");
    return nnue_decode(out, (const uint8_t *)bytes, len, "the built-in net", err);
}
