#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "selfplay/play/book.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/rng.h"

void book_free(Book *b)
{
    free(b->start);
    free(b->actions);
    *b = (Book){0};
}

/* Appends to a growing array of `size`-byte items; false when out of memory. */
static bool grow(void **items, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap) return true;
    uint32_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) cap2 *= 2;
    void *more = realloc(*items, (size_t)cap2 * size);
    if (!more) return false;
    *items = more;
    *cap = cap2;
    return true;
}

int book_read(Book *b, const char *text, const char *name, int variant, char *err)
{
    *b = (Book){.variant = variant};
    snprintf(b->path, sizeof b->path, "%s", name);
    uint32_t nactions = 0, cap_actions = 0, cap_start = 0;
    uint64_t h = RNG_HASH_START;
    int line = 0;
    for (const char *p = text; *p;) {
        line++;
        size_t len = strcspn(p, "\n");
        char buf[8192];
        if (len >= sizeof buf) {
            return error_set(err, "%s:%d: a line is at most %zu characters", name, line, sizeof buf - 1);
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        p += len + (p[len] == '\n');
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        size_t end = strlen(buf);
        while (end && isspace((unsigned char)buf[end - 1])) buf[--end] = '\0';
        char *s = buf + strspn(buf, " \t\r");
        if (!*s) continue;

        Position pos;
        char perr[ERR_LEN];
        if (ypn_parse(s, &pos, perr) == 0) {
            return error_set(err, "%s:%d: a position (YPN) is not an opening here: games are stored as actions "
                     "from the start, so write the actions that reach it", name, line);
        }
        if (b->n == BOOK_MAX_OPENINGS) {
            return error_set(err, "%s:%d: a book holds at most %d openings", name, line, BOOK_MAX_OPENINGS);
        }
        if (!grow((void **)&b->start, &cap_start, b->n + 2, sizeof *b->start)) goto oom;
        b->start[b->n] = nactions;
        pos_start(&pos, variant);
        int count = 0;
        char *save = NULL;
        for (char *tok = strtok_r(s, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
            Action a;
            int result, reason;
            if (pos_outcome(&pos, &result, &reason)) {
                return error_set(err, "%s:%d: action %d '%.20s': the game is over before it", name, line, count + 1,
                         tok);
            }
            if (count == GAME_MAX_ACTIONS / 2) {
                return error_set(err, "%s:%d: an opening is at most %d actions", name, line, GAME_MAX_ACTIONS / 2);
            }
            if (action_parse(&pos, tok, &a, perr)) {
                return error_set(err, "%s:%d: action %d '%.20s': %s", name, line, count + 1, tok, perr);
            }
            if (!grow((void **)&b->actions, &cap_actions, nactions + 1, sizeof *b->actions)) goto oom;
            b->actions[nactions++] = a;
            char canon[ACTION_MAX_LEN];
            h = rng_hash_text_from(h, action_format(a, canon));
            h = rng_hash_text_from(h, " ");
            Undo u;
            pos_make(&pos, a, &u);
            count++;
        }
        int result, reason;
        if (pos_outcome(&pos, &result, &reason)) {
            return error_set(err, "%s:%d: the opening ends the game: nothing is left to play", name, line);
        }
        h = rng_hash_text_from(h, "\n");
        b->n++;
        b->start[b->n] = nactions;
    }
    if (b->n == 0) {
        return error_set(err, "%s: the book holds no opening (a line of actions from the start, e.g. 'e5 f6')", name);
    }
    b->hash = h;
    return 0;
oom:
    return error_set(err, "%s:%d: out of memory", name, line);
}

int book_load(Book *b, const char *path, int variant, char *err)
{
    *b = (Book){0};
    if (strlen(path) >= BOOK_PATH_LEN) {
        return error_set(err, "book '%.60s...': a path of at most %d characters", path, BOOK_PATH_LEN - 1);
    }
    /* a NUL refused as it comes: a device (/dev/zero) is refused at once */
    char *text;
    if (file_read(path, BOOK_MAX_BYTES, FILE_READ_TEXT, &text, NULL, err)) return ERR_FAIL;
    int rc = book_read(b, text, path, variant, err);
    free(text);
    return rc;
}

const Action *book_opening(const Book *b, uint64_t pair, int *n)
{
    uint32_t k = (uint32_t)(pair % b->n);
    *n = (int)(b->start[k + 1] - b->start[k]);
    return b->actions + b->start[k];
}
