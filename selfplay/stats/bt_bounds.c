/* Ratings of the players the games bound, and bounds for the others
 * (selfplay/stats/bt_bounds.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"
#include "selfplay/stats/bt_bounds.h"

/* log P(a player rated x beats one rated r), on the Elo scale. */
static double log_win(double x, double r) { return -log1p(pow(10, -(x - r) / 400)); }

/* The x at which sum_j g_j log P(x beats r_j) = log(alpha) (win: the
 * player won those games) or sum_j g_j log P(r_j beats x) = log(alpha)
 * (the player lost them): the sum is monotone in x, so bisection. */
static double sweep_bound(int m, const double *g, const double *r, double alpha, bool win)
{
    double lo = INFINITY, hi = -INFINITY, target = log(alpha);
    for (int j = 0; j < m; j++) {
        lo = fmin(lo, r[j]);
        hi = fmax(hi, r[j]);
    }
    lo -= 8000;
    hi += 8000;
    for (int it = 0; it < 200; it++) {
        double x = (lo + hi) / 2, ll = 0;
        for (int j = 0; j < m; j++) ll += g[j] * (win ? log_win(x, r[j]) : log_win(r[j], x));
        /* win: ll grows with x, and the bound is where it reaches the target */
        if ((ll < target) == win) lo = x;
        else hi = x;
    }
    return (lo + hi) / 2;
}

int stats_bt_bounds(int n, const double *games, const double *score, double alpha, int *anchor,
                    const char *const *names, StatsBtRating *out, char *err)
{
    if (n < 2 || n > STATS_BT_MAX || *anchor < 0 || *anchor >= n || !(alpha > 0 && alpha < 1)) {
        return error_set(err, "a rating fit takes 2 to %d players, an anchor among them and a level in (0, 1)",
                         STATS_BT_MAX);
    }
    /* reach[i][j]: i scored against j through a chain of games */
    bool reach[STATS_BT_MAX][STATS_BT_MAX];
    stats_bt_reach(n, score, reach);
    /* the groups: i and j in one when each reaches the other */
    int group[STATS_BT_MAX], size[STATS_BT_MAX] = {0};
    for (int i = 0; i < n; i++) {
        group[i] = i;
        for (int j = 0; j < i; j++)
            if (reach[i][j] && reach[j][i]) {
                group[i] = group[j];
                break;
            }
        size[group[i]]++;
    }
    /* the rated group: the anchor's, else the largest of two or more */
    int core = group[*anchor];
    if (size[core] < 2)
        for (int g = 0; g < n; g++)
            if (size[g] >= 2 && (size[core] < 2 || size[g] > size[core])) core = g;
    if (group[*anchor] != core)
        for (int i = n - 1; i >= 0; i--)
            if (group[i] == core) *anchor = i;

    /* the fit on the rated group alone: the other games were all won by
     * one side, and add nothing to the likelihood at its maximum */
    int idx[STATS_BT_MAX], m = 0, sub_anchor = 0;
    for (int i = 0; i < n; i++)
        if (group[i] == core) {
            if (i == *anchor) sub_anchor = m;
            idx[m++] = i;
        }
    double g2[STATS_BT_MAX * STATS_BT_MAX], s2[STATS_BT_MAX * STATS_BT_MAX];
    double elo[STATS_BT_MAX] = {0}, se[STATS_BT_MAX] = {0};
    const char *sub_names[STATS_BT_MAX];
    for (int a = 0; a < m; a++) {
        sub_names[a] = names ? names[idx[a]] : "?";
        for (int b = 0; b < m; b++) {
            g2[a * m + b] = games[idx[a] * n + idx[b]];
            s2[a * m + b] = score[idx[a] * n + idx[b]];
        }
    }
    if (m >= 2 && stats_bt_fit(m, g2, s2, sub_anchor, sub_names, elo, se, err)) return -1;
    for (int i = 0; i < n; i++) out[i] = (StatsBtRating){.state = STATS_BT_UNLINKED, .bound = NAN};
    for (int a = 0; a < m; a++) out[idx[a]] = (StatsBtRating){.state = STATS_BT_RATED, .elo = elo[a], .se = se[a]};

    /* above: reaches the rated group, which does not reach it; below: the
     * mirror image. The bound from the games against rated players. */
    for (int i = 0; i < n; i++) {
        if (group[i] == core) continue;
        bool up = reach[i][*anchor], down = reach[*anchor][i];
        if (up == down) continue; /* neither: no chain of games (both: it would be rated) */
        out[i].state = up ? STATS_BT_ABOVE : STATS_BT_BELOW;
        double g[STATS_BT_MAX], r[STATS_BT_MAX];
        int k = 0;
        for (int a = 0; a < m; a++)
            if (games[i * n + idx[a]] > 0) {
                g[k] = games[i * n + idx[a]];
                r[k++] = elo[a];
            }
        if (k) out[i].bound = sweep_bound(k, g, r, alpha, up);
    }
    /* through others: the largest bound of a player above that it swept
     * (the smallest of one below that swept it), until nothing changes */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            StatsBtState st = out[i].state;
            if (st != STATS_BT_ABOVE && st != STATS_BT_BELOW) continue;
            for (int j = 0; j < n; j++) {
                if (j == i || out[j].state != st || group[j] == group[i] || isnan(out[j].bound)) continue;
                bool swept = st == STATS_BT_ABOVE ? score[i * n + j] > 0 : score[j * n + i] > 0;
                if (!swept) continue;
                double b = out[j].bound;
                if (isnan(out[i].bound) || (st == STATS_BT_ABOVE ? b > out[i].bound : b < out[i].bound)) {
                    out[i].bound = b;
                    changed = true;
                }
            }
        }
    }
    return 0;
}
