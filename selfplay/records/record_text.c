/* Our records written from a stored game's text (text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "selfplay/records/record_text.h"

/* Room for one tag line: a value of RECORD_VALUE_LEN bytes, each escaped
 * in at most four. */
enum { TAG_LINE_LEN = 4 * RECORD_VALUE_LEN + RECORD_KEY_LEN + 8 };

static int put_tag(FILE *f, const char *key, const char *value, char *err)
{
    char line[TAG_LINE_LEN];
    if (strlen(value) >= RECORD_VALUE_LEN || record_tag_format(key, value, line, sizeof line) < 0)
        return error_set(err, "the %s '%.40s...' is longer than a record's tag holds (%d bytes)", key, value,
                         RECORD_VALUE_LEN - 1);
    fprintf(f, "%s\n", line);
    return 0;
}

/* An imported game's date is kept in the run's command ("... # site
 * boardspace.net, date DATE, game NAME", cli/cmd_import.c; "?" when the
 * record had none). */
const char *record_text_date(const RecordText *g, char *out, size_t len)
{
    const char *d = strcmp(g->kind, "import") || !g->command ? NULL : strstr(g->command, " # site ");
    if (d && (d = strstr(d, ", date "))) {
        d += strlen(", date ");
        const char *end = strstr(d, ", game ");
        int n = (int)(end ? (size_t)(end - d) : strlen(d));
        if (n > 0 && strncmp(d, "?", (size_t)n)) {
            snprintf(out, len, "%.*s", n, d);
            return out;
        }
    }
    return g->stored_at;
}

void record_text_action(FILE *f, int ply, const char *text)
{
    fprintf(f, "%s%s", ply % 10 ? " " : (ply ? "\n" : ""), text);
}

void record_text_tags(const RecordText *g, RecordTextTags *t)
{
    snprintf(t->seed, sizeof t->seed, "%" PRIu64, g->seed);
    snprintf(t->index, sizeof t->index, "%" PRIu32, g->index);
    snprintf(t->length, sizeof t->length, "%" PRId64, g->length);
    const char *tags[RECORD_TEXT_TAGS][2] = {
        {"Run", g->run},
        {"Index", t->index},
        {"Kind", g->kind},
        {"Variant", g->variant},
        {"White", g->white},
        {"Black", g->black},
        {"WhiteWeights", g->white_weights},
        {"BlackWeights", g->black_weights},
        {"Seed", t->seed},
        {"Result", g->result},
        {"Reason", g->reason},
        {"Actions", t->length},
        {"Date", record_text_date(g, t->date, sizeof t->date)},
        {"Version", g->version},
        {"Commit", g->commit ? g->commit : "?"},
        {"RunUid", g->run_uid},
    };
    t->n = 0;
    for (int i = 0; i < RECORD_TEXT_TAGS; i++)
        if (tags[i][1]) {
            t->key[t->n] = tags[i][0];
            t->value[t->n++] = tags[i][1];
        }
}

int record_text_write(FILE *f, const RecordText *g, char *err)
{
    int variant, rc;
    if (!variant_parse(g->variant, &variant))
        return error_set(err, "run '%s' game %" PRIu32 ": variant '%.32s' is not one this yinsh plays", g->run,
                         g->index, g->variant);
    RecordTextTags tags;
    record_text_tags(g, &tags);
    for (int i = 0; i < tags.n; i++)
        if ((rc = put_tag(f, tags.key[i], tags.value[i], err))) return rc;
    Position pos;
    char ypn[YPN_MAX_LEN];
    pos_start(&pos, variant);
    fprintf(f, "%s\n", ypn_format(&pos, ypn));
    for (int i = 0; i < g->nactions; i++) record_text_action(f, i, g->actions[i]);
    if (g->nactions) fputc('\n', f);
    return 0;
}

int record_text_position(const RecordText *g, long ply, Position *pos, char *err)
{
    int variant;
    if (!variant_parse(g->variant, &variant))
        return error_set(err, "run '%s' game %u: variant '%.32s' is not one this yinsh plays", g->run,
                         (unsigned)g->index, g->variant);
    if (ply > g->nactions)
        return error_code(err, ERR_USAGE, "run '%s' game %u has %d action%s", g->run, (unsigned)g->index,
                          g->nactions, number_plural((uint64_t)g->nactions));
    pos_start(pos, variant);
    for (long i = 0; i < ply; i++) {
        Action a;
        char msg[ERR_LEN];
        if (action_parse(pos, g->actions[i], &a, msg))
            return error_set(err, "run '%s' game %u: stored action %ld: %s", g->run, (unsigned)g->index, i + 1, msg);
        Undo u;
        pos_make(pos, a, &u);
    }
    return 0;
}

void record_text_position_head(FILE *f, const RecordText *g, long ply)
{
    fprintf(f, "run %s, game %u (%s, White %s, Black %s): after %ld of %d action%s; stored result %s (%s)\n", g->run,
            (unsigned)g->index, g->variant, g->white, g->black, ply, g->nactions, number_plural((uint64_t)g->nactions),
            g->result, g->reason);
}
