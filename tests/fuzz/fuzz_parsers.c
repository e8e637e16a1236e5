/* libFuzzer target for the three parsers that take outside text: YPN, action
 * and game record (a stream of them, with tags). The first byte picks the
 * parser. Whatever the input, a parser must not crash, and what it accepts
 * must survive a round trip: format(parse(x)) parses again to the same
 * position, every accepted action is legal and applies to a position that
 * still passes pos_check, and every tag read, written again, reads back
 * the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "engine/movegen.h"
#include "engine/notation.h"

static void check_position(const Position *pos)
{
    char text[YPN_MAX_LEN], err[ERR_LEN];
    Position again;
    if (pos_check(pos, NULL)) abort();
    ypn_format(pos, text);
    if (ypn_parse(text, &again, err)) abort();
    if (!pos_equal(&again, pos)) abort();
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    if (n != movegen_count(pos)) abort();
}

static void check_tag(const char *key, const char *value)
{
    static char text[4 * RECORD_VALUE_LEN + 128];
    static RecordTags tags;
    char err[ERR_LEN];
    int len = record_tag_format(key, value, text, sizeof text - 64);
    if (len < 0) abort();
    strcpy(text + len, "\n4/7/8/9/10/9/10/9/8/7/4 w P standard\n");
    RecordReader r;
    Position pos;
    int count;
    record_reader_init(&r, text, strlen(text));
    if (record_next(&r, &tags, &pos, &count, err) || tags.n != 1 || strcmp(tags.key[0], key) ||
        strcmp(tags.value[0], value))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    int which = data[0] % 3;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char err[ERR_LEN];
    Position pos;
    if (which == 0) {
        if (ypn_parse(text, &pos, err) == 0) check_position(&pos);
    } else if (which == 1) {
        /* an action against a few positions reached from the start */
        static const char *const ypns[] = {
            "4/7/8/9/10/9/10/9/8/7/4 w P standard",
            "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard",
            "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M blitz",
        };
        for (size_t i = 0; i < sizeof ypns / sizeof *ypns; i++) {
            Action a;
            if (ypn_parse(ypns[i], &pos, err)) abort();
            if (action_parse(&pos, text, &a, err) == 0) {
                Undo u;
                if (!movegen_is_legal(&pos, a)) abort();
                pos_make(&pos, a, &u);
                check_position(&pos);
            }
        }
    } else {
        static RecordTags tags;
        RecordReader r;
        int count;
        record_reader_init(&r, text, strlen(text));
        while (record_reader_more(&r) && record_next(&r, &tags, &pos, &count, err) == 0) {
            check_position(&pos);
            for (int i = 0; i < tags.n; i++) check_tag(tags.key[i], tags.value[i]);
        }
        if (record_play(text, strlen(text), &pos, &count, err) == 0) check_position(&pos);
    }
    free(text);
    return 0;
}
