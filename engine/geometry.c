#include "engine/geometry.h"
#include "engine/base/rng.h"


static Geometry geometry;
const Geometry *const GEO = &geometry;

/* Fills the tables before main runs; nothing writes them afterwards. The
 * Zobrist keys come from a fixed pcg32 stream, so keys are the same in every
 * build and on every machine. */
__attribute__((constructor)) static void geometry_build(void)
{
    Geometry *g = &geometry;
    int n = 0;
    for (int c = 0; c < 11; c++)
        for (int r = 1; r <= 11; r++) {
            Point p = point_make(c, r);
            g->bit[p] = bb_bit(p);
            if (point_valid(c, r)) {
                g->valid |= bb_bit(p);
                g->point_of[n++] = (int8_t)p;
            }
        }
    static const int dc[DIR_NB] = {0, 1, 1, 0, -1, -1};
    static const int dr[DIR_NB] = {1, 0, 1, -1, 0, -1};
    for (Point p = 0; p < SQUARE_NB; p++) {
        if (!(g->valid & bb_bit(p))) continue;
        for (int d = 0; d < DIR_NB; d++) {
            int c = point_col(p), r = point_row(p), len = 0;
            for (;;) {
                c += dc[d];
                r += dr[d];
                if (!point_valid(c, r)) break;
                Point q = point_make(c, r);
                g->ray[p][d] |= bb_bit(q);
                g->ray_pt[p][d][len++] = (int8_t)q;
            }
            g->ray_len[p][d] = (int8_t)len;
            g->reach[p] = (int8_t)(g->reach[p] + len);
        }
        for (int k = 0; k < 5; k++)
            if (g->reach[p] >> k & 1) g->reach_bit[k] |= bb_bit(p);
        for (int d = 0; d < DIR_NB; d++)
            for (int k = 0; k < g->ray_len[p][d]; k++)
                g->dir_by_diff[g->ray_pt[p][d][k] - p + SQUARE_NB - 1] = (int8_t)d;
        for (int a = 0; a < AXIS_NB; a++)
            if (g->ray_len[p][a] >= 4) {
                Bitboard m = bb_bit(p);
                for (int k = 0; k < 4; k++) m |= bb_bit(g->ray_pt[p][a][k]);
                g->row5[p][a] = m;
            }
    }
    Rng rng;
    rng_seed(&rng, 0x59494e5348ULL, 0x5a6f62726973ULL);
#define KEY() (((Key)rng_next(&rng) << 32) | rng_next(&rng))
    for (int c = 0; c < COLOUR_NB; c++)
        for (Point p = 0; p < SQUARE_NB; p++) {
            g->z_ring[c][p] = KEY();
            g->z_marker[c][p] = KEY();
        }
    g->z_actor = KEY();
    for (int s = 0; s < STATE_NB; s++) g->z_state[s] = KEY();
    g->z_variant = KEY();
    g->z_swap = KEY(); /* after every older key, which therefore keep their values */
    g->z_draw_odds = KEY();
#undef KEY
    /* up each line from its first point (no point behind it on the axis) */
    for (int a = 0; a < AXIS_NB; a++)
        for (Point p = 0; p < SQUARE_NB; p++) {
            if (!(g->valid & bb_bit(p)) || g->ray_len[p][a + 3] > 0) continue;
            Key acc = 0;
            for (int k = -1; k < g->ray_len[p][a]; k++) {
                Point q = k < 0 ? p : g->ray_pt[p][a][k];
                acc ^= g->z_marker[WHITE][q] ^ g->z_marker[BLACK][q];
                g->z_line_flip[a][q] = acc;
            }
        }
}
