/* The data files behind the pictures, one per picture and variant, in the
 * plain columns gnuplot reads; the scripts that draw them are in
 * scripts/plots/. Each file's layout is given above the function that
 * writes it. */
#include <errno.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/text.h"
#include "selfplay/agents/agent.h"
#include "engine/geometry.h"
#include "engine/notation.h"
#include "study/report/internal.h"

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

/* A pair's label as a quoted column of a data file: gnuplot's quoted
 * strings have no escape, so a double quote inside becomes a single one,
 * and a control character (a newline would end the row) a '?'. */
static void data_label(const ReportPair *p, char *out, size_t len)
{
    report_pair_label(p, out, len);
    for (char *c = out; *c; c++)
        if (*c == '"') *c = '\'';
        else if (text_control((unsigned char)*c)) *c = '?';
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

/* strength.dat: one block per variant with same-agent pairs (the variants
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

/* lengths-VARIANT.dat: one block per pair, headed by its label and games
 * (the picture's key), rows "length percent games" for each length that
 * occurs. Lengths are not binned: they fall on a lattice of their own
 * (random standard games that end with the pool empty come in steps of 7
 * actions: a row made costs its removal and a ring's and gives 5 markers
 * back to the pool), which a fixed bin width aliases into false peaks and
 * dips; and a row per length that occurs has no empty bin. */
static int write_lengths(const Report *rep, const char *dir, int v, char *err)
{
    char name[64];
    snprintf(name, sizeof name, "lengths-%s.dat", variant_name(v));
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    int blocks = 0;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != v || !p->games) continue;
        char label[1100];
        data_label(p, label, sizeof label);
        fprintf(f, "%s\"%s (%llu games)\"\n", blocks++ ? "\n\n" : "", label, (unsigned long long)p->games);
        for (int a = 0; a <= REPORT_MAX_LENGTH; a++)
            if (p->lengths[a])
                fprintf(f, "%d %.4f %llu\n", a, 100.0 * (double)p->lengths[a] / (double)p->games,
                        (unsigned long long)p->lengths[a]);
    }
    return close_data(f, dir, name, err);
}

/* first-ring-VARIANT.dat: the 85 points in the board's layout (columns
 * a..k left to right, each column half a row below its left neighbour, as
 * `yinsh show` draws it), rows "x y score games name"; score NaN without
 * games. */
static int write_first_ring(const Report *rep, const char *dir, int v, char *err)
{
    char name[64];
    snprintf(name, sizeof name, "first-ring-%s.dat", variant_name(v));
    FILE *f = open_data(dir, name, err);
    if (!f) return -1;
    fprintf(f, "# White's score by White's first ring, %s (yinsh report)\n# x y score games point\n",
            variant_name(v));
    for (int col = 0; col <= 10; col++)
        for (int row = 1; row <= 11; row++) {
            if (!point_valid(col, row)) continue;
            Point pt = point_make(col, row);
            const uint64_t *c = rep->first[v][pt];
            uint64_t n = c[RESULT_WHITE] + c[RESULT_BLACK] + c[RESULT_DRAW];
            char pname[8];
            point_format(pt, pname);
            double x = col * 0.8660254037844386, y = row - col / 2.0;
            if (n) fprintf(f, "%.4f %.4f %.5f %llu %s\n", x, y,
                           ((double)c[RESULT_WHITE] + 0.5 * (double)c[RESULT_DRAW]) / (double)n,
                           (unsigned long long)n, pname);
            else fprintf(f, "%.4f %.4f NaN 0 %s\n", x, y, pname);
        }
    return close_data(f, dir, name, err);
}

/* A level's row of ladder.dat: its Elo relative to the anchor with the
 * fit's interval (none for the anchor), the pair's score, draws and
 * lengths. */
/* A label for a point of a picture: the pair's, with a weights file
 * named by its name alone ("eval=tuned3" for eval=eval/weights/tuned3.txt):
 * the tables give the whole spec. */
static void point_label(const ReportPair *p, char *out, size_t len)
{
    data_label(p, out, len);
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

static void ladder_row(FILE *f, const ReportLevel *lv, const ReportPair *p, bool main)
{
    Interval e = report_level_elo(lv), d = report_draw_rate(p);
    ReportScore s = report_score(p);
    char label[1100];
    point_label(p, label, sizeof label);
    fprintf(f, "%.2f %.2f %.2f %.5f %.5f %.5f %.5f %.5f %.5f %.2f %.1f %d %d %llu %d \"%s\"\n", e.mid, e.lo, e.hi,
            s.score, s.lo, s.hi, d.mid, d.lo, d.hi, report_mean_length(p), report_median_length(p),
            report_length_quantile(p, 0.25), report_length_quantile(p, 0.75), (unsigned long long)p->games, main,
            label);
}

/* ladder.dat: one block per variant whose ladder rates a level against
 * the anchor (the variants listed in `variants`), rows "elo elo_lo elo_hi
 * score lo hi draws draws_lo draws_hi mean_length median q1 q3 games main
 * label": the levels rated against the anchor (block 0) in Elo order,
 * each level's self-play from the opening of its matches (main 1); then,
 * after one blank line (so that no line joins them to the others), the
 * same levels' games from other openings (main 0). Levels with no finite
 * Elo from the anchor have no place on the axis and no row. */
static int write_ladder(const Report *rep, const char *dir, char *variants, size_t vlen, char *err)
{
    FILE *f = open_data(dir, "ladder.dat", err);
    if (!f) return -1;
    fprintf(f, "# White's score, draws and lengths against the ladder's Elo (yinsh report): one block per variant\n"
               "# elo elo_lo elo_hi score lo hi draws draws_lo draws_hi mean_length median q1 q3 games main label\n");
    int blocks = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        const ReportLadder *lad = &rep->ladder[v];
        if (!report_ladder_rated(lad)) continue;
        if (blocks++) fprintf(f, "\n\n");
        fprintf(f, "# %s\n", variant_name(v));
        list_variant(variants, vlen, v);
        int order[REPORT_LEVEL_MAX], n = 0;
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
            ladder_row(f, lv, &rep->pairs[lv->pair], true);
        }
        bool other = false;
        for (int i = 0; i < n; i++) {
            const ReportLevel *lv = &lad->level[order[i]];
            const ReportPair *main = &rep->pairs[lv->pair];
            for (int j = 0; j < rep->npairs; j++) {
                const ReportPair *p = &rep->pairs[j];
                if (p == main || p->variant != v || strcmp(p->white, main->white) || strcmp(p->black, main->black))
                    continue;
                if (!other) fprintf(f, "\n");
                other = true;
                ladder_row(f, lv, p, false);
            }
        }
    }
    return close_data(f, dir, "ladder.dat", err);
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
        if (write_lengths(rep, dir, v, err) || write_first_ring(rep, dir, v, err)) return -1;
    }
    if (write_strength(rep, dir, lists->strength, sizeof lists->strength, err)) return -1;
    if (!report_has_ladder(rep)) return 0;
    return write_ladder(rep, dir, lists->ladder, sizeof lists->ladder, err) || write_published(dir, err) ? -1 : 0;
}
