/* libFuzzer target for the boardspace.net record reader
 * (selfplay/records/boardspace.c): the SGF files `yinsh import` reads. Whatever
 * the input, the reader must not crash, a refusal must say why, and what
 * it accepts must hold together: its actions replay legally from the
 * start, and its result is the final position's, a resignation's (the
 * position not over) or none (not over). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/records/boardspace.h"
#include "engine/movegen.h"
#include "engine/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static BoardspaceGame g;
    char err[ERR_LEN];
    int rc = boardspace_read((const char *)data, size, &g, err);
    if (rc) {
        if (!memchr(err, '\0', sizeof err) || !err[0]) abort();
        record_free(&g.rec);
        return 0;
    }
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    for (int i = 0; i < g.rec.nactions; i++) {
        Action list[MAX_ACTIONS];
        int n = movegen_all(&pos, list), found = 0;
        for (int k = 0; k < n; k++) found |= list[k] == g.rec.actions[i].action;
        if (!found || g.rec.actions[i].actor != pos.actor) abort();
        Undo u;
        pos_make(&pos, g.rec.actions[i].action, &u);
    }
    int result, reason;
    bool over = pos_outcome(&pos, &result, &reason);
    if (over && (result != g.rec.result || reason != g.rec.reason)) abort();
    if (!over && g.rec.reason != REASON_RESIGN && (g.rec.result != RESULT_NONE || g.rec.reason != REASON_NONE)) abort();
    if (!over && g.rec.reason == REASON_RESIGN && g.rec.result != RESULT_WHITE && g.rec.result != RESULT_BLACK) abort();
    record_free(&g.rec);
    return 0;
}
