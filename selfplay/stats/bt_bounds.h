/* Ratings when some players won (or lost) every game against the rest:
 * the Bradley-Terry fit (stats_bt_fit) on the part of the players whose
 * ratings the games bound, and a one-sided bound for each of the others.
 *
 * The fit's ratings are finite only when every player scored against
 * every other through a chain of games ("i scored against j": a win or a
 * draw of i against j). The players split into groups (the strongly
 * connected components of that relation): inside a group the ratings are
 * finite relative to each other; between two groups that met, one group
 * scored every point, and the maximum-likelihood difference is infinite.
 * The rated group is the anchor's when it holds two players or more,
 * else the largest group of two or more (the first such in the players'
 * order; the anchor moves to its first player), else the anchor alone.
 * The others are:
 *
 *   above  a player who scored every point against the rated players it
 *          met (or against players above them): its rating is at least
 *          the bound X at which winning every one of those games has
 *          probability alpha, prod_j P(beats j | X)^g_j = alpha, the
 *          ratings r_j of the rated ones taken as known (Clopper-Pearson
 *          against a field, as stats_sweep_lower against one opponent);
 *          through other players above, the largest bound among those
 *          it swept;
 *   below  the mirror image: a rating at most Y, where losing every one
 *          of its games has probability alpha;
 *   unlinked  no chain of games joins it to the rated group.
 *
 * A pure function of the counts; n <= STATS_BT_MAX. */
#ifndef YINSH_STATS_BT_BOUNDS_H
#define YINSH_STATS_BT_BOUNDS_H

#include "selfplay/stats/stats.h"

typedef enum { STATS_BT_RATED, STATS_BT_ABOVE, STATS_BT_BELOW, STATS_BT_UNLINKED } StatsBtState;

typedef struct StatsBtRating {
    StatsBtState state;
    double elo, se; /* RATED: the rating relative to the anchor, its standard error (0 for the anchor) */
    double bound;   /* ABOVE: the lower bound; BELOW: the upper bound (Elo, relative to the anchor) */
} StatsBtRating;

/* The ratings and bounds above, at one-sided level 1 - alpha, from the
 * matrices of stats_bt_fit (games[i*n+j], score[i*n+j]). *anchor is the
 * player asked for, and on return the one rated 0 (another when the one
 * asked for is not in the rated group). 0, or -1 with err (names[i] name
 * the players) when the counts are malformed or the fit fails. */
int stats_bt_bounds(int n, const double *games, const double *score, double alpha, int *anchor,
                    const char *const *names, StatsBtRating *out, char *err);

#endif
