/* perft: the number of action sequences of a given length
 * (docs/notation.md §6). */
#ifndef YINSH_PERFT_H
#define YINSH_PERFT_H

#include <stdint.h>
#include "engine/position.h"

/* Counts with bulk counting at the last ply. The position is restored. */
uint64_t perft(Position *pos, int depth);

#endif
