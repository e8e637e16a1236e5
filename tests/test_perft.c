/* perft against the table of docs/notation.md §6, read from tests/data/perft.txt
 * ("YPN ;D1 n ;D2 n ..."). perft must also leave the position unchanged. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"

Test(perft, table)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/perft.txt", YINSH_TEST_DATA);
    FILE *fp = fopen(path, "r");
    cr_assert(fp, "cannot open %s", path);
    int positions = 0, checks = 0, lineno = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0 || line[0] == '#') continue;
        char *semi = strchr(line, ';');
        cr_assert(semi, "perft.txt:%d: no ';D' field", lineno);
        char *end = semi;
        while (end > line && end[-1] == ' ') end--;
        *end = 0;
        Position pos, before;
        char err[ERR_LEN];
        cr_assert_eq(ypn_parse(line, &pos, err), 0, "perft.txt:%d: %s", lineno, err);
        before = pos;
        positions++;
        for (char *f = strtok(semi + 1, ";"); f; f = strtok(NULL, ";")) {
            int depth;
            uint64_t want;
            cr_assert(sscanf(f, " D%d %" SCNu64, &depth, &want) == 2, "perft.txt:%d: bad field '%s'", lineno, f);
            uint64_t got = perft(&pos, depth);
            cr_expect_eq(got, want, "perft.txt:%d: %s depth %d: %" PRIu64 ", want %" PRIu64, lineno, line, depth,
                         got, want);
            cr_expect(pos_equal(&pos, &before), "perft.txt:%d: perft changed the position", lineno);
            if (depth <= 3) {
                got = perft_made(&pos, depth);
                cr_expect_eq(got, want, "perft.txt:%d: depth %d without bulk counting: %" PRIu64, lineno, depth,
                             got);
            }
            checks++;
        }
    }
    fclose(fp);
    cr_expect(positions >= 2 && checks >= 7, "perft.txt: %d positions, %d counts", positions, checks);
}

Test(perft, depth_zero_and_game_over)
{
    Position pos;
    char err[ERR_LEN];
    pos_start(&pos, VARIANT_STANDARD);
    cr_expect_eq(perft(&pos, 0), 1);
    /* a finished game has no actions at any depth >= 1 */
    cr_assert_eq(ypn_parse("4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard", &pos, err), 0, "%s", err);
    cr_expect_eq(perft(&pos, 0), 1);
    cr_expect_eq(perft(&pos, 1), 0);
    cr_expect_eq(perft(&pos, 3), 0);
}
