/* The data files behind the pictures, one per picture and variant, in the
 * plain columns gnuplot reads; the scripts that draw them are in
 * scripts/plots/. Each file's layout is given above the function that
 * writes it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/text.h"
#include "selfplay/agents/agent.h"
#include "engine/geometry.h"
#include "engine/notation.h"
#include "study/report/report_internal.h"

static FILE *open_data(const char *dir, const char *name, char *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) error_set(err, "cannot write '%.400s': %.80s", path, strerror(errno));
    return f;
}

static int close_data(FILE *f, const char *dir, const char *name, char *err)
{
    if (fclose(f) != 0) {
        return error_set(err, "cannot write '%s/%s': %s", dir, name, strerror(errno));
    }
    return 0;
}

/* Appends a variant's name to a space-separated list (len bytes): the
 * lists the gnuplot scripts loop over. */
static void list_variant(char *list, size_t len, int variant)
{
    size_t at = strlen(list);
    snprintf(list + at, len - at, "%s%s", at ? " " : "", variant_name(variant));
}

/* A text as a quoted column of a data file: gnuplot's quoted strings
 * have no escape, so a double quote inside becomes a single one, and a
 * control character (a newline would end the row) a '?'. */
static void data_text(char *out)
{
    for (char *c = out; *c; c++)
        if (*c == '"') *c = '\'';
        else if (text_control((unsigned char)*c)) *c = '?';
}

/* A figure with digits decimals as a column (32 bytes), "NaN" for none:
 * the spelling gnuplot reads as a missing value. */
static const char *data_num(char *out, double x, int digits)
{
    if (isnan(x)) snprintf(out, 32, "NaN");
    else snprintf(out, 32, "%.*f", digits, x);
    return out;
}

/* A pair's label as such a column. */
static void data_label(const ReportPair *p, char *out, size_t len)
{
    report_pair_label(p, out, len);
    data_text(out);
}

/* Whether both sides of a pair play at random: such a pair has no
 * simulations per move, so the strength picture draws it apart from the
 * MCTS levels (the Report ranks it as one simulation). */
static bool plays_random(const ReportPair *p)
{
    AgentSpec spec;
    char err[ERR_LEN];
    return !strcmp(p->white, p->black) && !agent_spec_parse_text(p->white, &spec, err) && agent_spec_random(&spec);
}

/* strength.dat, written only without a ladder (score-elo takes its
 * place): one block per variant with same-agent pairs (the variants
 * listed in `variants`), rows "sims score lo hi games agent", sims 0 for
 * random play: it is no point of the simulations scale, and the script
 * draws it as a separate marker instead of joining it to the first MCTS
 * level. The games column is the n the picture prints at each point. */
static int write_strength(const Report *rep, const char *dir, char *variants, size_t vlen, char *err)
{
    FILE *f = open_data(dir, "strength.dat", err);
    if (!f) return -1;
    fprintf(f, "# White's score against strength (yinsh report): one block per variant\n"
               "# simulations per move (random play: 0), score, 95%% interval low, high, games, agent\n");
    int blocks = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_strongest(rep, v)) continue;
        if (blocks++) fprintf(f, "\n\n");
        fprintf(f, "# %s\n", variant_name(v));
        list_variant(variants, vlen, v);
        /* random play first: drawn apart, it is no level of the line */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < rep->npairs; i++) {
                const ReportPair *p = &rep->pairs[i];
                if (p->variant != v || p->strength <= 0 || plays_random(p) != !pass) continue;
                ReportScore s = report_score(p);
                char label[1100];
                data_label(p, label, sizeof label);
                fprintf(f, "%g %.5f %.5f %.5f %llu \"%s\"\n", pass ? p->strength : 0, s.score, s.lo, s.hi,
                        (unsigned long long)s.n, label);
            }
    }
    return close_data(f, dir, "strength.dat", err);
}

/* A weights file named by its name alone ("eval=tuned3" for
 * eval=eval/weights/tuned3.txt): the tables give the whole spec, a
 * picture's label only what tells its points apart. */
static void short_evals(char *out)
{
    for (char *at = strstr(out, "eval="); at; at = strstr(at + 5, "eval=")) {
        char *name = at + 5, *end = name + strcspn(name, ", ");
        char *slash = name;
        for (char *c = name; c < end; c++)
            if (*c == '/') slash = c + 1;
        size_t keep = (size_t)(end - slash);
        if (keep > 4 && !strncmp(end - 4, ".txt", 4)) keep -= 4;
        memmove(name, slash, keep);
        memmove(name + keep, end, strlen(end) + 1);
    }
}

/* A label for a point of a picture: the pair's, its weights files by
 * their names alone. */
static void point_label(const ReportPair *p, char *out, size_t len)
{
    data_label(p, out, len);
    short_evals(out);
}

/* A level's name in a picture's key: the agent, its weights files by
 * their names alone. */
static void level_label(const char *agent, char *out, size_t len)
{
    report_agent_label(agent, out, len);
    data_text(out);
    short_evals(out);
}

/* The rows a picture against a variant's Elo draws, in its order: the
 * levels rated against the anchor (block 0) in Elo order, each level's
 * self-play from the opening of its matches (main); then the same
 * levels' games from other openings (not main). Levels with no finite Elo
 * from the anchor have no place on the axis and no row. Every row is a
 * different pair, so rows holds rep->npairs; the count is returned. */
typedef struct LadderRow {
    const ReportLevel *level;
    const ReportPair *pair;
    bool main;
} LadderRow;

static int ladder_rows(const Report *rep, int v, LadderRow *rows)
{
    const ReportLadder *lad = &rep->ladder[v];
    int order[REPORT_LEVEL_MAX], n = 0, nrows = 0;
    for (int k = 0; k < lad->nlevels; k++) {
        if (lad->level[k].block != 0) continue;
        int at = n++;
        while (at > 0 && lad->level[order[at - 1]].elo > lad->level[k].elo) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    for (int i = 0; i < n; i++) {
        const ReportLevel *lv = &lad->level[order[i]];
        rows[nrows++] = (LadderRow){lv, &rep->pairs[lv->pair], true};
    }
    for (int i = 0; i < n; i++) {
        const ReportLevel *lv = &lad->level[order[i]];
        const ReportPair *main = &rep->pairs[lv->pair];
        for (int j = 0; j < rep->npairs; j++) {
            const ReportPair *p = &rep->pairs[j];
            if (p == main || p->variant != v || strcmp(p->white, main->white) || strcmp(p->black, main->black))
                continue;
            rows[nrows++] = (LadderRow){lv, p, false};
        }
    }
    return nrows;
}

/* lengths-VARIANT.dat: how long games last, a row per pair drawn, "x elo
 * q10 q25 median q75 q90 mean games main label": the lengths in actions
 * below which 10%, 25%, half, 75% and 90% of the pair's games end
 * (report_length_quantile's nearest rank; the median
 * report_median_length's), their mean and the games. With a rated
 * ladder the rows are ladder.dat's (the levels in Elo order, main 1;
 * after one blank line their games from other openings, main 0), x the
 * level's Elo; without one, every pair of the variant with games in the
 * report's order, x its place 1, 2, ... and elo NaN. A row a pair, not a
 * panel: 60 pairs' histograms stacked could not be read at a page's
 * width, their spreads side by side can. */
static void lengths_row(FILE *f, double x, double elo, const ReportPair *p, bool main)
{
    char label[1100];
    point_label(p, label, sizeof label);
    char e[32];
    fprintf(f, "%.2f %s %d %d %.1f %d %d %.2f %llu %d \"%s\"\n", x, data_num(e, elo, 2), report_length_quantile(p, 0.1),
            report_length_quantile(p, 0.25), report_median_length(p), report_length_quantile(p, 0.75),
            report_length_quantile(p, 0.9), report_mean_length(p), (unsigned long long)p->games, main, label);
}

static int write_lengths(const Report *rep, const char *dir, int v, char *err)
{
    char name[64];
    snprintf(name, sizeof name, "lengths-%s.dat", variant_name(v));
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    bool ladder = report_ladder_rated(&rep->ladder[v]);
    fprintf(f, "# Game length (actions), %s (yinsh report): %s\n"
               "# x elo q10 q25 median q75 q90 mean games main label\n",
            variant_name(v), ladder ? "the ladder's levels against their Elo" : "every pair of agents");
    if (ladder) {
        LadderRow *rows = malloc((size_t)rep->npairs * sizeof *rows);
        if (!rows) {
            fclose(f);
            return error_set(err, "out of memory");
        }
        int n = ladder_rows(rep, v, rows);
        for (int i = 0; i < n; i++) {
            double e = report_level_elo(rows[i].level).mid;
            if (i && rows[i - 1].main && !rows[i].main) fprintf(f, "\n");
            lengths_row(f, e, e, rows[i].pair, rows[i].main);
        }
        free(rows);
    } else {
        int x = 0;
        for (int i = 0; i < rep->npairs; i++) {
            const ReportPair *p = &rep->pairs[i];
            if (p->variant == v && p->games) lengths_row(f, ++x, NAN, p, true);
        }
    }
    return close_data(f, dir, name, err);
}

/* The pair a variant's first-ring map is drawn for, named in the
 * picture's title: report_headline's (the ladder's strongest level, else
 * the strongest by simulations, else the agent against itself with the
 * most games, else the pair with the most games): a map of every level
 * pooled would mix random play's first rings with the strongest's. */
static void top_title(const ReportPair *top, char *out, size_t len)
{
    char label[1100];
    point_label(top, label, sizeof label);
    snprintf(out, len, "%s, %llu games", label, (unsigned long long)top->games);
}

/* first-ring-VARIANT.dat: White's score by White's first ring in the
 * games of the variant's top pair (top_title), pooled over the point's
 * class under the board's 12 symmetries (report_classes: a first ring on
 * any point of a class starts the same game, turned). The 85 points in
 * the board's layout (columns a..k left to right, each column half a row
 * below its left neighbour, as `yinsh show` draws it), rows "x y score
 * games point class class_score class_games first": the point's own
 * score and games at that pair (score NaN without games), its class by
 * the class's first point, the class's score and games over all its
 * points (class_score NaN without games), and first 1 at the class's
 * first point (where the picture writes the class's games). */
static int write_first_ring(const Report *rep, const char *dir, int v, char *err)
{
    char name[64], title[1200];
    snprintf(name, sizeof name, "first-ring-%s.dat", variant_name(v));
    const ReportPair *top = report_headline(rep, v);
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    top_title(top, title, sizeof title);
    ReportClass classes[REPORT_CLASS_NB];
    report_classes(rep, v, top, classes);
    fprintf(f, "# White's score by White's first ring, %s, at the top: %s (yinsh report)\n"
               "# x y score games point class class_score class_games first\n", variant_name(v), title);
    for (int col = 0; col <= 10; col++)
        for (int row = 1; row <= 11; row++) {
            if (!point_valid(col, row)) continue;
            Point pt = point_make(col, row);
            const uint64_t *c = top->first[pt];
            const ReportClass *k = &classes[report_point_class(pt)];
            uint64_t n = c[RESULT_WHITE] + c[RESULT_BLACK] + c[RESULT_DRAW];
            uint64_t kn = k->results[RESULT_WHITE] + k->results[RESULT_BLACK] + k->results[RESULT_DRAW];
            double score = n ? ((double)c[RESULT_WHITE] + 0.5 * (double)c[RESULT_DRAW]) / (double)n : NAN;
            double kscore = kn ? ((double)k->results[RESULT_WHITE] + 0.5 * (double)k->results[RESULT_DRAW]) / (double)kn
                               : NAN;
            char pname[8], kname[8];
            point_format(pt, pname);
            point_format(k->first, kname);
            double x = col * 0.8660254037844386, y = row - col / 2.0;
            char sc[32], ks[32];
            fprintf(f, "%.4f %.4f %s %llu %s %s %s %llu %d\n", x, y, data_num(sc, score, 5), (unsigned long long)n,
                    pname, kname, data_num(ks, kscore, 5), (unsigned long long)kn, k->first == pt);
        }
    return close_data(f, dir, name, err);
}

/* The levels the pictures against Elo number, in one key for every
 * variant: each variant's levels rated against its anchor in the
 * ladder's order, a level that another variant's ladder already has
 * keeping its number. */
typedef struct LevelKey {
    const char *agent[2 * REPORT_LEVEL_MAX];
    int n;
} LevelKey;

static int level_number(LevelKey *key, const char *agent)
{
    for (int k = 0; k < key->n; k++)
        if (!strcmp(key->agent[k], agent)) return k + 1;
    if (key->n == 2 * REPORT_LEVEL_MAX) return 0;
    key->agent[key->n++] = agent;
    return key->n;
}

/* A level's row of ladder.dat: its Elo relative to the anchor with the
 * fit's interval (none for the anchor), the pair's score, draws and
 * lengths, and the level's number in the key. */
static void ladder_row(FILE *f, const LadderRow *r, int number)
{
    Interval e = report_level_elo(r->level), d = report_draw_rate(r->pair);
    ReportScore s = report_score(r->pair);
    char label[1100];
    point_label(r->pair, label, sizeof label);
    fprintf(f, "%.2f %.2f %.2f %.5f %.5f %.5f %.5f %.5f %.5f %.2f %.1f %d %d %llu %d \"%s\" %d\n", e.mid, e.lo, e.hi,
            s.score, s.lo, s.hi, d.mid, d.lo, d.hi, report_mean_length(r->pair), report_median_length(r->pair),
            report_length_quantile(r->pair, 0.25), report_length_quantile(r->pair, 0.75),
            (unsigned long long)r->pair->games, r->main, label, number);
}

/* ladder.dat: one block per variant whose ladder rates a level against
 * the anchor (the variants listed in `variants`), rows "elo elo_lo elo_hi
 * score lo hi draws draws_lo draws_hi mean_length median q1 q3 games main
 * label level": ladder_rows's, the levels in Elo order (main 1), then,
 * after one blank line (so that no line joins them to the others), their
 * games from other openings (main 0); level is the level's number in
 * ladder-levels.dat, rows "level label", the key that names the numbered
 * points of the pictures (names beside the points would collide where
 * two levels' Elo are close). */
static int write_ladder(const Report *rep, const char *dir, char *variants, size_t vlen, char *err)
{
    LevelKey key = {0};
    LadderRow *rows = malloc((size_t)rep->npairs * sizeof *rows);
    FILE *f = rows ? open_data(dir, "ladder.dat", err) : NULL;
    if (!f) {
        free(rows);
        return rows ? -1 : error_set(err, "out of memory");
    }
    fprintf(f, "# White's score, draws and lengths against the ladder's Elo (yinsh report): one block per variant\n"
               "# elo elo_lo elo_hi score lo hi draws draws_lo draws_hi mean_length median q1 q3 games main label "
               "level\n");
    int blocks = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        const ReportLadder *lad = &rep->ladder[v];
        if (!report_ladder_rated(lad)) continue;
        if (blocks++) fprintf(f, "\n\n");
        fprintf(f, "# %s\n", variant_name(v));
        list_variant(variants, vlen, v);
        for (int k = 0; k < lad->nlevels; k++)
            if (lad->level[k].block == 0) level_number(&key, lad->level[k].agent);
        int n = ladder_rows(rep, v, rows);
        for (int i = 0; i < n; i++) {
            if (i && rows[i - 1].main && !rows[i].main) fprintf(f, "\n");
            ladder_row(f, &rows[i], level_number(&key, rows[i].level->agent));
        }
    }
    free(rows);
    if (close_data(f, dir, "ladder.dat", err)) return -1;
    if (!(f = open_data(dir, "ladder-levels.dat", err))) return -1;
    fprintf(f, "# The levels numbered in the pictures against Elo (yinsh report)\n# level label\n");
    for (int k = 0; k < key.n; k++) {
        char label[1100];
        level_label(key.agent[k], label, sizeof label);
        fprintf(f, "%d \"%s\"\n", k + 1, label);
    }
    return close_data(f, dir, "ladder-levels.dat", err);
}

/* published.dat: the figures published elsewhere, rows "k score lo hi
 * games source who share games_text", k = 1, 2, ... their places beside
 * the ladder's axis, who short (the picture's label), share as published
 * ("59.0%") and the games with their thousands separated ("200,000");
 * the interval is the Wilson interval of the share over the games
 * (report_published_interval). */
static int write_published(const char *dir, char *err)
{
    FILE *f = open_data(dir, "published.dat", err);
    if (!f) return -1;
    fprintf(f, "# White's score published elsewhere, as published (yinsh report)\n"
               "# k score lo hi games source who share games_text\n");
    for (int i = 0; i < REPORT_PUBLISHED_NB; i++) {
        const ReportPublished *p = &REPORT_PUBLISHED[i];
        Interval w = report_published_interval(p);
        /* the games with thousands separated, as the report writes them */
        char games[32], grouped[48];
        int n = snprintf(games, sizeof games, "%llu", (unsigned long long)p->games), at = 0;
        for (int k = 0; k < n; k++) {
            if (k && (n - k) % 3 == 0) grouped[at++] = ',';
            grouped[at++] = games[k];
        }
        grouped[at] = '\0';
        fprintf(f, "%d %.5f %.5f %.5f %llu \"%s\" \"%s\" \"%.*f%%\" \"%s\"\n", i + 1, p->white_score, w.lo, w.hi,
                (unsigned long long)p->games, p->source, p->mark, p->digits, 100 * p->white_score, grouped);
    }
    return close_data(f, dir, "published.dat", err);
}

int report_write_data(const Report *rep, const char *dir, ReportDataLists *lists, char *err)
{
    *lists = (ReportDataLists){0};
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        list_variant(lists->variants, sizeof lists->variants, v);
        top_title(report_headline(rep, v), lists->top[v], sizeof lists->top[v]);
        const ReportLadder *lad = &rep->ladder[v];
        if (report_ladder_rated(lad))
            level_label(lad->level[lad->anchor].agent, lists->anchor[v], sizeof lists->anchor[v]);
        if (write_lengths(rep, dir, v, err) || write_first_ring(rep, dir, v, err)) return -1;
    }
    /* with a ladder, White's score against Elo takes the place of White's score against simulations */
    if (!report_has_ladder(rep)) return write_strength(rep, dir, lists->strength, sizeof lists->strength, err);
    return write_ladder(rep, dir, lists->ladder, sizeof lists->ladder, err) || write_published(dir, err) ? -1 : 0;
}
