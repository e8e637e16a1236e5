#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "eval/evaluation.h"
#include "engine/movegen.h"
#include "engine/base/number.h"
#include "engine/base/rng.h"

const char *const FEATURE_NAMES[FEAT_NB] = {
    "rings_removed", "markers", "lines3", "lines4", "flippable", "mobility", "centre", "tempo",
};

/* Lines of 3 and 4: every 5-point window along the three axes, counted
 * for all windows of an axis at once. A window is named by its lowest
 * point p; shifting a board right by k steps of the axis brings point
 * p + k s onto p, so the five shifted boards hold each window's points at
 * its start, and a bit-sliced adder of the five gives every window's count
 * of own markers. The windows that exist are the starts of runs of 5 valid
 * points (bb_row_starts of the board, whose wrapped shifts always pass an
 * invalid point). The same counts as a loop over GEO->row5, which
 * eval_line_counts_slow keeps for the tests, in a fraction of the time:
 * this was half the tuned MCTS agent's time. */
static inline void line_counts(Bitboard mine, Bitboard theirs, int *three, int *four)
{
    *three = *four = 0;
    for (int a = 0; a < AXIS_NB; a++) {
        int s = DIR_STEP[a];
        Bitboard m0 = mine, m1 = mine >> s, m2 = mine >> 2 * s, m3 = mine >> 3 * s, m4 = mine >> 4 * s;
        Bitboard blocked = theirs | theirs >> s | theirs >> 2 * s | theirs >> 3 * s | theirs >> 4 * s;
        Bitboard open = bb_row_starts(GEO->valid, a) & ~blocked;
        /* two full adders: count = s2 + 2 (c1 + c2) */
        Bitboard s1 = m0 ^ m1 ^ m2, c1 = (m0 & m1) | (m2 & (m0 ^ m1));
        Bitboard s2 = s1 ^ m3 ^ m4, c2 = (s1 & m3) | (m4 & (s1 ^ m3));
        Bitboard bit1 = c1 ^ c2, bit2 = c1 & c2;
        *three += bb_popcount(open & s2 & bit1 & ~bit2);
        *four += bb_popcount(open & ~s2 & ~bit1 & bit2);
    }
}

void eval_line_counts_slow(Bitboard mine, Bitboard theirs, int *three, int *four)
{
    *three = *four = 0;
    for (int n = 0; n < POINT_NB; n++) {
        Point p = GEO->point_of[n];
        for (int a = 0; a < AXIS_NB; a++) {
            Bitboard win = GEO->row5[p][a];
            if (!win || (win & theirs)) continue;
            int k = bb_popcount(win & mine);
            *three += k == 3;
            *four += k == 4;
        }
    }
}

void eval_line_counts(Bitboard mine, Bitboard theirs, int *three, int *four)
{
    line_counts(mine, theirs, three, four);
}

/* A set's reach summed (the centre feature), by the bits of the points'
 * reach (GEO->reach_bit): no loop whose length the position decides. */
static inline int reach(Bitboard rings)
{
    int r = 0;
    for (int k = 0; k < 5; k++) r += bb_popcount(rings & GEO->reach_bit[k]) << k;
    return r;
}

void features_int(const Position *pos, int out[FEAT_NB])
{
    int f[COLOUR_NB][FEAT_NB] = {{0}}, moves[COLOUR_NB];
    Bitboard flippable[COLOUR_NB];
    movegen_moves_and_flips(pos, moves, flippable);
    for (int c = 0; c < COLOUR_NB; c++) {
        Bitboard mine = pos->markers[c], theirs = pos->markers[c ^ 1];
        f[c][FEAT_RINGS_REMOVED] = pos->removed[c];
        f[c][FEAT_MARKERS] = bb_popcount(mine);
        /* a window of 3 needs 3 markers: the placements and the first
         * moves skip the count (the same counts) */
        if (f[c][FEAT_MARKERS] >= 3) line_counts(mine, theirs, &f[c][FEAT_LINES3], &f[c][FEAT_LINES4]);
        f[c][FEAT_FLIPPABLE] = bb_popcount(flippable[c] & theirs);
        f[c][FEAT_MOBILITY] = moves[c];
        f[c][FEAT_CENTRE] = reach(pos->rings[c]);
    }
    for (int i = 0; i < FEAT_NB; i++) out[i] = f[WHITE][i] - f[BLACK][i];
    out[FEAT_TEMPO] = pos->actor == WHITE ? 1 : -1;
}

int32_t features_dot_rest(const Position *pos, const int32_t w[FEAT_NB])
{
    int moves[COLOUR_NB];
    Bitboard flippable[COLOUR_NB];
    movegen_moves_and_flips(pos, moves, flippable);
    const Bitboard *m = pos->markers;
    int32_t f_rings = pos->removed[WHITE] - pos->removed[BLACK];
    int32_t f_markers = bb_popcount(m[WHITE]) - bb_popcount(m[BLACK]);
    int32_t f_flip = bb_popcount(flippable[WHITE] & m[BLACK]) - bb_popcount(flippable[BLACK] & m[WHITE]);
    int32_t f_mob = moves[WHITE] - moves[BLACK];
    int32_t f_centre = reach(pos->rings[WHITE]) - reach(pos->rings[BLACK]);
    int32_t f_tempo = pos->actor == WHITE ? 1 : -1;
    return w[FEAT_RINGS_REMOVED] * f_rings + w[FEAT_MARKERS] * f_markers + w[FEAT_FLIPPABLE] * f_flip +
           w[FEAT_MOBILITY] * f_mob + w[FEAT_CENTRE] * f_centre + w[FEAT_TEMPO] * f_tempo;
}

void features_compute(const Position *pos, double out[FEAT_NB])
{
    int f[FEAT_NB];
    features_int(pos, f);
    for (int i = 0; i < FEAT_NB; i++) out[i] = f[i];
}

void weights_default(Weights *w)
{
    static const double DEFAULTS[FEAT_NB] = {1.5, 0.05, 0.08, 0.25, 0.04, 0.01, 0.005, 0.05};
    memcpy(w->w, DEFAULTS, sizeof DEFAULTS);
}

/* The shipped files (cmake/embed_dir.cmake): names and texts, each text
 * ended by a 0. */
extern const char *const YINSH_WEIGHTS_NAMES[], *const YINSH_WEIGHTS_BYTES[];

const char *weights_shipped(const char *path)
{
    static const char DIR[] = "eval/weights/";
    const char *name = !strncmp(path, DIR, sizeof DIR - 1) ? path + sizeof DIR - 1 : path;
    if (strchr(name, '/')) return NULL;
    for (int i = 0; YINSH_WEIGHTS_NAMES[i]; i++)
        if (!strcmp(YINSH_WEIGHTS_NAMES[i], name)) return YINSH_WEIGHTS_BYTES[i];
    return NULL;
}

/* The lines of a weights file from f; path names it in messages. */
static int weights_read(FILE *f, const char *path, Weights *w, char *err)
{
    /* lines of any length: a long `# made by:` header is one line */
    char *line = NULL;
    size_t cap = 0;
    bool seen[FEAT_NB] = {false};
    int lineno = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char name[64], value[64], extra[8];
        int got = sscanf(line, "%63s %63s %7s", name, value, extra);
        if (got <= 0) continue;
        if (got != 2) {
            rc = error_set(err, "%s:%d: expected `name value`", path, lineno);
            break;
        }
        int k = 0;
        while (k < FEAT_NB && strcmp(FEATURE_NAMES[k], name)) k++;
        if (k == FEAT_NB) {
            rc = error_set(err, "%s:%d: unknown feature '%s'", path, lineno, name);
            break;
        }
        double v;
        if (!number_real(value, -WEIGHT_MAX, WEIGHT_MAX, &v)) {
            rc = error_set(err, "%s:%d: '%s' is not a number from %g to %g (feature %s)", path, lineno, value,
                           -WEIGHT_MAX, WEIGHT_MAX, name);
            break;
        }
        if (seen[k]) {
            rc = error_set(err, "%s:%d: feature '%s' given twice", path, lineno, name);
            break;
        }
        seen[k] = true;
        w->w[k] = v;
    }
    if (!rc && ferror(f)) rc = error_set(err, "%s: cannot read: %s", path, strerror(errno));
    free(line);
    return rc;
}

int weights_load(const char *path, Weights *w, char *err)
{
    weights_default(w);
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int e = errno;
        /* not here, but shipped: the copy built into yinsh, the same
         * values (and content hash) from any working folder */
        const char *text = e == ENOENT ? weights_shipped(path) : NULL;
        FILE *f = text ? fmemopen((void *)text, strlen(text), "r") : NULL;
        if (!f) return error_set(err, "%s: cannot open: %s", path, strerror(e));
        int rc = weights_read(f, path, w, err);
        fclose(f);
        return rc;
    }
    if (!S_ISREG(sb.st_mode)) {
        return error_set(err, "%s: not a weights file (%s)", path, S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        return error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    int rc = weights_read(f, path, w, err);
    fclose(f);
    return rc;
}

int weights_check(const Weights *w, char *err)
{
    for (int k = 0; k < FEAT_NB; k++)
        if (!isfinite(w->w[k]) || fabs(w->w[k]) > WEIGHT_MAX) {
            return error_set(err, "weight %s = %g is not a finite number from %g to %g", FEATURE_NAMES[k], w->w[k],
                     -WEIGHT_MAX, WEIGHT_MAX);
        }
    return 0;
}

int weights_save(const char *path, const Weights *w, const char *header, char *err)
{
    /* write a sibling file, then rename: never a half-written weights file,
     * and never one that weights_load would refuse */
    FileOut o;
    if (weights_check(w, err) || file_out_open(&o, path, err)) return -1;
    FILE *f = o.f;
    if (header && *header) {
        const char *s = header;
        while (*s) {
            const char *nl = strchr(s, '\n');
            int len = nl ? (int)(nl - s) : (int)strlen(s);
            fprintf(f, "# %.*s\n", len, s);
            s += len + (nl != NULL);
        }
    }
    for (int k = 0; k < FEAT_NB; k++) fprintf(f, "%s %.9g\n", FEATURE_NAMES[k], w->w[k]);
    return file_out_commit(&o, err);
}

uint64_t weights_hash(const Weights *w)
{
    uint64_t h = RNG_HASH_START;
    for (int k = 0; k < FEAT_NB; k++) {
        uint64_t bits;
        memcpy(&bits, &w->w[k], sizeof bits);
        h = rng_mix(h, bits);
    }
    return h;
}

double eval_logit(const Weights *w, const Position *pos)
{
    double f[FEAT_NB], s = 0;
    features_compute(pos, f);
    for (int k = 0; k < FEAT_NB; k++) s += w->w[k] * f[k];
    return s;
}

double eval_white(const Weights *w, const Position *pos)
{
    return 1 / (1 + exp(-eval_logit(w, pos)));
}
