/* What `yinsh merge` prints of a merge (merge_text.h). */
#include <inttypes.h>
#include <stdio.h>
#include "selfplay/store/merge_text.h"
#include "engine/base/number.h"

void store_merge_print(FILE *f, const StoreMergeRun *runs, int nruns, const char *db)
{
    for (int i = 0; i < nruns; i++) {
        const StoreMergeRun *r = &runs[i];
        fprintf(f, "run %s: %" PRIu64 " game%s copied, %" PRIu64 " held already (identical); %" PRIu64 "/%u game%s: ",
                r->name, r->added, number_plural(r->added), r->duplicates, r->stored, r->games,
                number_plural(r->games));
        if (r->finished) fprintf(f, "finished\n");
        else fprintf(f, "missing %s (`yinsh selfplay --resume %s --db %s` plays them)\n", r->missing, r->name, db);
    }
}
