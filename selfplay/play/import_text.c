/* What `yinsh import` prints of what it imported (import_text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "selfplay/play/import_text.h"
#include "engine/base/number.h"
#include "engine/notation.h"

void import_game_print(FILE *f, const char *file, const ImportedGame *g)
{
    fprintf(f, "%s: run %s: %s (White) against %s (Black), %d action%s, result %s (%s)\n", file, g->run, g->white,
            g->black, g->nactions, number_plural((uint64_t)g->nactions), result_name(g->result),
            reason_name(g->reason));
}

void import_runs_print(FILE *f, const char *file, const ImportedRuns *in)
{
    for (int i = 0; i < in->nruns; i++) {
        const StoreMergeRun *r = &in->runs[i];
        fprintf(f,
                "run %s: %" PRIu64 " game%s imported, %" PRIu64 " held already (identical); %" PRIu64 "/%u game%s%s\n",
                r->name, r->added, number_plural(r->added), r->duplicates, r->stored, r->games,
                number_plural(r->games), r->finished ? ", finished" : "");
    }
    fprintf(f, "%s: %" PRIu64 " run%s, %" PRIu64 " game%s: every action legal, every result and hash as the file says\n",
            strcmp(file, "-") ? file : "standard input", in->totals.runs, number_plural(in->totals.runs),
            in->totals.games, number_plural(in->totals.games));
}
