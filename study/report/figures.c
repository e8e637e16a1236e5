/* What is read off a Report: White's score in a pair, the game lengths,
 * the strongest pair, and the lookups and labels that the other parts of
 * the report share. */
#include <string.h>
#include "report/internal.h"
#include "stats/stats.h"

ReportScore report_score(const ReportPair *pair)
{
    ReportScore s = {
        .wins = pair->results[RESULT_WHITE],
        .draws = pair->results[RESULT_DRAW],
        .losses = pair->results[RESULT_BLACK],
    };
    s.n = s.wins + s.draws + s.losses;
    Interval score = stats_score(s.wins, s.draws, s.losses);
    Interval elo = stats_elo_trinomial(s.wins, s.draws, s.losses);
    s.score = score.mid;
    s.lo = score.lo;
    s.hi = score.hi;
    s.var = s.n ? ((double)s.wins + 0.25 * (double)s.draws) / (double)s.n - s.score * s.score : 0;
    if (s.var < 0) s.var = 0;
    s.p = stats_p_equal(s.wins, s.draws, s.losses);
    s.elo = elo.mid;
    s.elo_lo = elo.lo;
    s.elo_hi = elo.hi;
    return s;
}

double report_mean_length(const ReportPair *pair)
{
    double sum = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) sum += (double)a * (double)pair->lengths[a];
    return pair->games ? sum / (double)pair->games : 0;
}

/* The k-th smallest length (0-based). */
static int nth_length(const ReportPair *pair, uint64_t k)
{
    uint64_t seen = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) {
        seen += pair->lengths[a];
        if (seen > k) return a;
    }
    return REPORT_MAX_LENGTH;
}

double report_median_length(const ReportPair *pair)
{
    if (!pair->games) return 0;
    uint64_t n = pair->games;
    return 0.5 * (nth_length(pair, (n - 1) / 2) + nth_length(pair, n / 2));
}

const ReportPair *report_strongest(const Report *rep, int variant)
{
    const ReportPair *best = NULL;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != variant || p->strength <= 0) continue;
        if (!best || p->strength > best->strength || (p->strength == best->strength && p->games > best->games))
            best = p;
    }
    return best;
}

int report_pair_index(const Report *rep, int variant, const char *white, const char *black)
{
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant == variant && !strcmp(p->white, white) && !strcmp(p->black, black)) return i;
    }
    return -1;
}

bool report_has_variant(const Report *rep, int variant)
{
    for (int i = 0; i < rep->npairs; i++)
        if (rep->pairs[i].variant == variant) return true;
    return false;
}

/* An agent spec without the parts that only repeat the defaults: what a
 * reader needs in a picture's key or a sentence ("mcts:sims=600"). */
static void short_agent(const char *spec, char *out, size_t len)
{
    static const char *const DEFAULTS[] = {",c=1,", ",rollout=random,"};
    char buf[1024];
    snprintf(buf, sizeof buf, "%s,", spec);
    for (size_t i = 0; i < sizeof DEFAULTS / sizeof DEFAULTS[0]; i++) {
        char *at = strstr(buf, DEFAULTS[i]);
        if (at) memmove(at, at + strlen(DEFAULTS[i]) - 1, strlen(at + strlen(DEFAULTS[i]) - 1) + 1);
    }
    buf[strlen(buf) - 1] = '\0';
    snprintf(out, len, "%s", buf);
}

void report_pair_label(const ReportPair *p, char *out, size_t len)
{
    char w[512], b[512];
    short_agent(p->white, w, sizeof w);
    short_agent(p->black, b, sizeof b);
    if (!strcmp(p->white, p->black)) snprintf(out, len, "%s", w);
    else snprintf(out, len, "%s vs %s", w, b);
}
