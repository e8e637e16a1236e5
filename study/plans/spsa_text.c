/* SPSA by matches as text (spsa_text.h). */
#include "study/plans/spsa_text.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/number.h"

void spsa_point_write(FILE *f, const SpsaRun *s, const double *u)
{
    for (int i = 0; i < s->nparams; i++) {
        const SpsaParam *p = &s->params[i];
        fprintf(f, " %s %.4g", p->name, p->lo + u[i] * (p->hi - p->lo));
    }
}

void spsa_step_write(FILE *f, const SpsaRun *s, const SpsaStep *st, const double *u)
{
    fprintf(f, "iteration %d/%d: plus W %" PRIu64 " D %" PRIu64 " L %" PRIu64 " ->", st->k + 1, s->iterations,
            st->tally.wins, st->tally.draws, st->tally.losses);
    spsa_point_write(f, s, u);
    fprintf(f, "\n");
}

void spsa_result_write(FILE *f, const SpsaRun *s, const double *u, const char *agent, const char *csv)
{
    fprintf(f, "spsa         %s: %d iteration%s of %u pair%s, seed %" PRIu64 ", gains a %g c %g A %g alpha %g gamma %g\n",
            s->name, s->iterations, number_plural((uint64_t)s->iterations), s->pairs, number_plural(s->pairs), s->seed,
            s->gains.a, s->gains.c, s->gains.A, s->gains.alpha, s->gains.gamma);
    for (int i = 0; i < s->nparams; i++) {
        const SpsaParam *p = &s->params[i];
        fprintf(f, "%-12s %.6g (start %g, range %g to %g)\n", p->name, p->lo + u[i] * (p->hi - p->lo), p->start, p->lo,
                p->hi);
    }
    fprintf(f, "agent        %s\n", agent);
    fprintf(f, "path         %s\n", csv);
}

bool spsa_writes_weights(const char *name, const void *ctx)
{
    const SpsaRun *s = ctx;
    size_t n = strlen(s->name);
    if (!strcmp(name, "final.txt")) return true;
    if (strncmp(name, s->name, n) || name[n] != '.') return false;
    char *end;
    long k = strtol(name + n + 1, &end, 10);
    return name[n + 1] >= '0' && name[n + 1] <= '9' && k < s->iterations &&
           (!strcmp(end, ".plus.txt") || !strcmp(end, ".minus.txt"));
}
