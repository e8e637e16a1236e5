/* Records replayed and checked (record_replay.h). */
#include "engine/record_replay.h"
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"

/* Where a record of a stream is, for a message: its number and, when its
 * tags say, its run and game. */
static void record_where(int number, const RecordTags *tags, char *out, size_t len)
{
    const char *run = record_tag(tags, "Run"), *index = record_tag(tags, "Index");
    if (run && index) snprintf(out, len, "record %d (run %.128s, game %.32s)", number, run, index);
    else snprintf(out, len, "record %d", number);
}

/* The failure of the record just read: where it is, and why. */
static int replay_failed(RecordReplay *r, const RecordTags *tags, char *err)
{
    /* an untagged first record: the engine's message as it is */
    if (r->records == 1 && !r->tagged) return -1;
    record_where(r->records, tags, r->where, sizeof r->where);
    if (!strncmp(err, "record: ", 8)) memmove(err, err + 8, strlen(err + 8) + 1);
    return -1;
}

int record_replay(const char *text, size_t len, FILE *out, RecordReplay *r, char *err)
{
    *r = (RecordReplay){0};
    RecordTags *tags = malloc(sizeof *tags);
    if (!tags) return error_set(err, "out of memory");
    Position pos;
    char ypn[YPN_MAX_LEN];
    int count, result, reason, rc = 0;
    RecordReader rd;
    record_reader_init(&rd, text, len);
    do {
        int bad = record_next(&rd, tags, &pos, &count, err);
        r->records++;
        r->tagged |= tags->n > 0;
        if (!bad) {
            if (!pos_outcome(&pos, &result, &reason)) result = RESULT_NONE, reason = REASON_NONE;
            bad = record_check(tags, pos.variant, count, result, reason, err);
        }
        if (bad) {
            rc = replay_failed(r, tags, err);
            break;
        }
        r->checked += record_tag(tags, "Result") != NULL;
        fprintf(out, "%s\n", ypn_format(&pos, ypn));
        if (result != RESULT_NONE)
            fprintf(out, "actions %d result %s reason %s\n", count, result_name(result), reason_name(reason));
        else
            fprintf(out, "actions %d result none (game not over)\n", count);
    } while (record_reader_more(&rd));
    if (!rc && (r->records > 1 || r->tagged))
        fprintf(out, "records %d: every action legal; stored results as replayed: %d\n", r->records, r->checked);
    free(tags);
    return rc;
}
