/* Our records written from a stored game's text (text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "selfplay/records/text.h"

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
    const char *d = strcmp(g->kind, "import") ? NULL : strstr(g->command, " # site ");
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

int record_text_write(FILE *f, const RecordText *g, char *err)
{
    int variant, rc;
    if (!variant_parse(g->variant, &variant))
        return error_set(err, "run '%s' game %" PRIu32 ": variant '%.32s' is not one this yinsh plays", g->run,
                         g->index, g->variant);
    char seed[24], index[16], length[24], date[RECORD_VALUE_LEN];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    snprintf(index, sizeof index, "%" PRIu32, g->index);
    snprintf(length, sizeof length, "%" PRId64, g->length);
    const char *tags[][2] = {
        {"Run", g->run},
        {"Index", index},
        {"Kind", g->kind},
        {"Variant", g->variant},
        {"White", g->white},
        {"Black", g->black},
        {"WhiteWeights", g->white_weights},
        {"BlackWeights", g->black_weights},
        {"Seed", seed},
        {"Result", g->result},
        {"Reason", g->reason},
        {"Actions", length},
        {"Date", record_text_date(g, date, sizeof date)},
        {"Version", g->version},
        {"Commit", g->commit ? g->commit : "?"},
        {"RunUid", g->run_uid},
    };
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        if (tags[i][1] && (rc = put_tag(f, tags[i][0], tags[i][1], err))) return rc;
    Position pos;
    char ypn[YPN_MAX_LEN];
    pos_start(&pos, variant);
    fprintf(f, "%s\n", ypn_format(&pos, ypn));
    for (int i = 0; i < g->nactions; i++) record_text_action(f, i, g->actions[i]);
    if (g->nactions) fputc('\n', f);
    return 0;
}
