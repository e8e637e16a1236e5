/* libFuzzer target for the opening-book reader (selfplay/play/book.c): any text
 * is read without a crash or a leak; a mistake names the book and a line;
 * what it accepts keeps the promises of book.h: every opening replays
 * legally from the start and leaves a game not over, and the content hash
 * is the same when the accepted openings are written again canonically
 * (one line each, single spaces, no comments). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/play/book.h"
#include "engine/movegen.h"
#include "engine/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    int variant = data[0] & 1 ? VARIANT_BLITZ : VARIANT_STANDARD;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    Book b, again;
    char err[ERR_LEN];
    if (book_read(&b, text, "fuzz.book", variant, err)) {
        if (strncmp(err, "fuzz.book", 9)) abort();
        book_free(&b);
        free(text);
        return 0;
    }
    char *canon = malloc(b.n * 2 + (size_t)b.start[b.n] * ACTION_MAX_LEN + 1), *at = canon;
    for (uint32_t k = 0; k < b.n; k++) {
        int n, result, reason;
        const Action *a = book_opening(&b, k + (uint64_t)b.n * 7, &n);
        if (n < 1) abort();
        Position pos;
        pos_start(&pos, variant);
        for (int i = 0; i < n; i++) {
            if (pos_outcome(&pos, &result, &reason) || !movegen_is_legal(&pos, a[i])) abort();
            char t[ACTION_MAX_LEN];
            at += sprintf(at, "%s%s", i ? " " : "", action_format(a[i], t));
            Undo u;
            pos_make(&pos, a[i], &u);
        }
        if (pos_outcome(&pos, &result, &reason)) abort();
        *at++ = '\n';
    }
    *at = '\0';
    if (book_read(&again, canon, "canon", variant, err) || again.hash != b.hash || again.n != b.n) abort();
    book_free(&again);
    book_free(&b);
    free(canon);
    free(text);
    return 0;
}
