/* libFuzzer target for the UYI command reader (selfplay/uyi/command.c): the lines
 * a harness sends to `yinsh uyi`. Parse only, no search. Each line of the
 * input is read as one command; whatever it is, the reader must not crash,
 * a refusal must say why, and what it accepts must hold together: a
 * position's actions replayed from its start reach its position, go's
 * limits are given or -1 and give a time budget of -1 or at least 1 ms
 * (0 only for movetime 0). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "engine/position.h"
#include "uyi/command.h"

static void check(const char *line)
{
    static UyiCommand c;
    char err[ERR_LEN];
    if (uyi_parse(line, &c, err)) {
        if (!memchr(err, '\0', sizeof err) || !err[0]) abort();
        return;
    }
    if (c.kind == UYI_POSITION) {
        if (c.nactions < 0 || c.nactions > GAME_MAX_ACTIONS) abort();
        Position p = c.base;
        Undo u;
        for (int i = 0; i < c.nactions; i++) pos_make(&p, c.actions[i], &u);
        if (!pos_equal(&p, &c.pos)) abort();
    } else if (c.kind == UYI_SETOPTION) {
        if (!c.name[0] || !c.value[0] || !memchr(c.name, '\0', sizeof c.name)) abort();
    } else if (c.kind == UYI_GO) {
        const int64_t *v[] = {&c.go.sims, &c.go.movetime, &c.go.wtime, &c.go.btime, &c.go.winc, &c.go.binc};
        for (int i = 0; i < 6; i++)
            if (*v[i] < -1) abort();
        for (int actor = 0; actor < 2; actor++) {
            int64_t b = uyi_budget_ms(&c.go, actor);
            if (b < -1 || (b == 0 && c.go.movetime != 0)) abort(); /* only movetime 0 gives 0 */
        }
        if (!memchr(c.warning, '\0', sizeof c.warning)) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        check(line);
    }
    free(text);
    return 0;
}
