/* perft: the number of action sequences of a given length
 * (docs/notation.md §6). */
#ifndef YINSH_PERFT_H
#define YINSH_PERFT_H

#include <stdint.h>
#include <stdio.h>
#include "engine/position.h"

/* Counts with bulk counting at the last ply. The position is restored. */
uint64_t perft(Position *pos, int depth);

/* The same count with every leaf made (no bulk counting): slower, and a
 * check of movegen_count against movegen_all. The position is restored. */
uint64_t perft_made(Position *pos, int depth);

/* perft --divide: for each legal action in canonical order, the line
 * `<action> <count>` (the count at depth - 1 after it) into f; returns the
 * total. Depth at least 1. The position is restored. */
uint64_t perft_divide(Position *pos, int depth, FILE *f);

#endif
