/* libFuzzer target for the UYI command reader (selfplay/uyi/command.c): the lines
 * a harness sends to `yinsh uyi`. Parse only, no search. The input is read
 * as `yinsh uyi` reads its standard input, by uyi_read_line (here with a
 * buffer of 64 bytes, and of the real size, so that long lines are met):
 * a line that fits is whole (it ends at a '\n' or the input's end), a
 * longer one is refused and its rest dropped. Each line is one command;
 * whatever it is, the reader must not crash, a refusal must say why, and
 * what it accepts must hold together: a position's actions replayed from
 * its start reach its position, go's limits are given or -1 (a depth from
 * 1 to UYI_DEPTH_MAX) and give a time budget of -1 or at least 1 ms (0
 * only for movetime 0). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/position.h"
#include "selfplay/uyi/command.h"

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
        if (c.go.depth != -1 && (c.go.depth < 1 || c.go.depth > UYI_DEPTH_MAX)) abort();
        for (int actor = 0; actor < 2; actor++) {
            int64_t b = uyi_budget_ms(&c.go, actor);
            if (b < -1 || (b == 0 && c.go.movetime != 0)) abort(); /* only movetime 0 gives 0 */
        }
        if (!memchr(c.warning, '\0', sizeof c.warning)) abort();
    }
}

/* Reads the input as a stream of lines with a buffer of `size` bytes. */
static void read_all(const uint8_t *data, size_t n, char *buf, size_t size)
{
    FILE *f = fmemopen((void *)data, n, "r");
    if (!f) return;
    for (int got; (got = uyi_read_line(f, buf, size)) != UYI_LINE_EOF;) {
        size_t len = strlen(buf);
        if (len >= size) abort();
        if (got == UYI_LINE_LONG) continue; /* refused, its rest dropped */
        if (len && memchr(buf, '\n', len) && memchr(buf, '\n', len) != buf + len - 1) abort();
        check(buf);
    }
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    static char small[64], full[UYI_LINE_MAX + 2];
    read_all(data, size, small, sizeof small);
    read_all(data, size, full, sizeof full);
    return 0;
}
