/* Finding pairs in a Report: by their agents and opening, the same agent
 * from two openings, whether a variant or a same-agent pair is there. The
 * bottom of the report's files: every other part may call these, they
 * call none of them. */
#include <stdbool.h>
#include <string.h>
#include "study/report/report_internal.h"

bool report_has_level(const Report *rep)
{
    for (int i = 0; i < rep->npairs; i++)
        if (!strcmp(rep->pairs[i].white, rep->pairs[i].black)) return true;
    return false;
}

int report_pair_index(const Report *rep, int variant, const char *white, const char *black, const char *opening)
{
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant == variant && !strcmp(p->white, white) && !strcmp(p->black, black) &&
            !strcmp(p->opening, opening))
            return i;
    }
    return -1;
}

int report_blitz_twin(const Report *rep, const ReportPair *st)
{
    return st->variant == VARIANT_STANDARD ? report_pair_index(rep, VARIANT_BLITZ, st->white, st->black, st->opening)
                                           : -1;
}

bool report_openings_compared(const ReportPair *p, const ReportPair *q, const ReportPair **a, const ReportPair **b)
{
    if (p->variant != q->variant || strcmp(p->white, p->black) || strcmp(p->white, q->white) ||
        strcmp(q->white, q->black) || !strcmp(p->opening, q->opening))
        return false;
    /* a prefix (or none) first, random rings second: "what the prefix gives minus what rings give" */
    bool p_rings = !strcmp(p->opening, "rings"), q_rings = !strcmp(q->opening, "rings");
    bool p_first = p_rings != q_rings ? q_rings : strcmp(p->opening, q->opening) < 0;
    *a = p_first ? p : q;
    *b = p_first ? q : p;
    return true;
}

bool report_has_variant(const Report *rep, int variant)
{
    for (int i = 0; i < rep->npairs; i++)
        if (rep->pairs[i].variant == variant) return true;
    return false;
}
