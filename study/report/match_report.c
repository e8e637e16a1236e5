/* The match report: each selected match tallied pair by pair, as `yinsh
 * match` tallies it (selfplay/match/match.h), so that the report and the match's
 * own summary give the same figures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/match/match.h"
#include "engine/notation.h"
#include "study/report/report_internal.h"

typedef struct MatchLine {
    char *run, *a, *b, *variant;
    int64_t games;
    MatchStored pairs;
} MatchLine;

typedef struct MatchCollect {
    MatchLine *lines;
    int n, cap;
    char *err;
} MatchCollect;

static int on_game(void *ctx, const StoreMatchRow *row)
{
    MatchCollect *c = ctx;
    MatchLine *m = c->n ? &c->lines[c->n - 1] : NULL;
    if (!m || strcmp(m->run, row->run)) {
        if (c->n == c->cap) {
            int cap = c->cap ? 2 * c->cap : 8;
            MatchLine *grown = realloc(c->lines, (size_t)cap * sizeof *grown);
            if (!grown) goto oom;
            c->lines = grown;
            c->cap = cap;
        }
        m = &c->lines[c->n++];
        *m = (MatchLine){.run = strdup(row->run), .a = strdup(row->a), .b = strdup(row->b),
                         .variant = strdup(row->variant), .games = row->games};
        match_stored_init(&m->pairs);
        if (!m->run || !m->a || !m->b || !m->variant) goto oom;
    }
    match_stored_add(&m->pairs, row);
    return 0;
oom:
    error_set(c->err, "out of memory");
    return -1;
}

static void free_lines(MatchCollect *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->lines[i].run);
        free(c->lines[i].a);
        free(c->lines[i].b);
        free(c->lines[i].variant);
    }
    free(c->lines);
}

/* Elo as the text of a table cell: no -0, infinities named. */
static void elo_text(double e, char *out, size_t len)
{
    if (isinf(e)) snprintf(out, len, "%s∞", e > 0 ? "+" : "−");
    else snprintf(out, len, "%+.1f", e + 0.0);
}

int report_matches(const char *db, int busy_ms, const StoreSelection *sel, const char *cmdline, FILE *f, char *err)
{
    Store *s = NULL;
    char serr[ERR_LEN];
    MatchCollect c = {.err = serr}; /* the rows' own failures too: one message */
    int rc = store_open(&s, db, STORE_READ, busy_ms, serr);
    if (!rc) rc = store_query_check(s, sel, serr);
    if (!rc) rc = store_query_match_games(s, sel, on_game, &c, serr);
    store_close(s);
    if (rc) {
        error_set(err, "%s", serr);
        free_lines(&c);
        return rc;
    }
    if (c.n == 0) {
        error_set(err, "database '%s' holds no match in this selection (`yinsh match` plays one)", db);
        free_lines(&c);
        return -1;
    }
    fprintf(f, "# YINSH match report\n\nMade by ");
    report_md_code(f, cmdline);
    fprintf(f, " from the database ");
    report_md_code(f, db);
    fprintf(f, ": %d %s. Pairs are counted whole "
               "(pair k is game 2k with A as White and game 2k+1 with B as White, from the same opening); Elo is "
               "A − B from the pairs' scores (pentanomial), with its 95%% interval; LOS is the likelihood that A is "
               "the stronger.\n\n",
            c.n, c.n == 1 ? "match" : "matches");
    fprintf(f, "| match | variant | A | B | pairs | A: W D L | A's score (95%% CI) | Elo (95%% CI) | LOS | "
               "pentanomial 0 ½ 1 1½ 2 |\n|---|---|---|---|--:|---|---|---|--:|---|\n");
    for (int i = 0; i < c.n; i++) {
        const MatchLine *m = &c.lines[i];
        const MatchTally *t = &m->pairs.tally;
        Interval score = stats_score(t->wins, t->draws, t->losses);
        Interval elo = stats_elo_pentanomial(t->penta);
        char mid[32], lo[32], hi[32];
        elo_text(elo.mid, mid, sizeof mid);
        elo_text(elo.lo, lo, sizeof lo);
        elo_text(elo.hi, hi, sizeof hi);
        /* text from the database through the report's one escaping */
        int v;
        fprintf(f, "| ");
        report_md_code(f, m->run);
        fprintf(f, " | ");
        if (variant_parse(m->variant, &v)) fputs(variant_name(v), f);
        else report_md_code(f, m->variant);
        fprintf(f, " | ");
        report_md_agents(f, m->a, " | ", m->b);
        fprintf(f, " | %llu | %llu %llu %llu | %.1f%% (%.1f–%.1f) | ", (unsigned long long)t->pairs, (unsigned long long)t->wins, (unsigned long long)t->draws,
                (unsigned long long)t->losses, 100 * score.mid, 100 * score.lo, 100 * score.hi);
        if (elo.lo == elo.hi) fprintf(f, "%s (no interval) ", mid);
        else fprintf(f, "%s (%s to %s) ", mid, lo, hi);
        fprintf(f, "| %.3f | %llu %llu %llu %llu %llu |\n", stats_los(t->wins, t->losses),
                (unsigned long long)t->penta[0], (unsigned long long)t->penta[1], (unsigned long long)t->penta[2],
                (unsigned long long)t->penta[3], (unsigned long long)t->penta[4]);
    }
    fprintf(f, "\n");
    free_lines(&c);
    return 0;
}
