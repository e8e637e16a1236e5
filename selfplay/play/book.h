/* Opening books: a text file of openings that matches and tournaments
 * start their games from (`--book FILE`, docs/tournament.md). Each
 * non-blank line (after a '#' comment is cut off) is one opening: actions
 * from the start position, in action notation, separated by white space.
 * Every opening is checked when the book is read: each action legal
 * where it is played, the game not over at its end; a mistake names the
 * file and line. A YPN position is refused (with what to write instead):
 * games are stored as actions from the start, so a book entry must be
 * the actions that reach its position.
 *
 * Pair k of a match plays opening k mod n (n openings, in file order), the
 * same in both games of the pair; the agents play on from there. The
 * book's identity is its content hash: the canonical texts of its actions,
 * so comments, spacing and letter case do not change it. */
#ifndef YINSH_BOOK_H
#define YINSH_BOOK_H

#include <stdint.h>
#include "engine/types.h"

/* BOOK_MAX_BYTES: a book file is read up to this size (a million
 * openings of ten placements fit twice over), and refused beyond it. */
enum { BOOK_MAX_OPENINGS = 1000000, BOOK_PATH_LEN = 256, BOOK_MAX_BYTES = 64 << 20 };

typedef struct Book {
    char path[BOOK_PATH_LEN]; /* the file as named */
    int variant;              /* the variant its openings were checked in */
    uint64_t hash;            /* the content hash */
    uint32_t n;               /* openings */
    uint32_t *start;          /* opening i is actions[start[i] .. start[i+1]-1] */
    Action *actions;
} Book;

/* Reads and checks the book for the variant: 0, or -1 with "FILE:LINE:
 * why" in err (ERR_LEN bytes); a file over BOOK_MAX_BYTES or holding a
 * NUL byte is refused as soon as that is seen. Free with book_free
 * whatever the outcome. */
int book_load(Book *b, const char *path, int variant, char *err);
/* The same from text in memory; `name` stands for the file in messages. */
int book_read(Book *b, const char *text, const char *name, int variant, char *err);
void book_free(Book *b);

/* The opening of pair `pair`: its actions and their number. */
const Action *book_opening(const Book *b, uint64_t pair, int *n);

#endif
