/* perft: the number of action sequences of a given length
 * (docs/notation.md §6). */
#ifndef YINSH_PERFT_H
#define YINSH_PERFT_H

#include <stdint.h>
#include "engine/position.h"

/* Counts with bulk counting at the last ply. The position is restored. */
uint64_t perft(Position *pos, int depth);

/* The same count with every leaf made (no bulk counting): slower, and a
 * check of movegen_count against movegen_all. The position is restored. */
uint64_t perft_made(Position *pos, int depth);

#endif
