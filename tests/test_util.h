/* Small helpers shared by the test programs. */
#ifndef YINSH_TEST_UTIL_H
#define YINSH_TEST_UTIL_H

#include <stdbool.h>
#include "position.h"

/* Field by field: Position has padding bytes, which a struct copy need not
 * preserve, so memcmp of two copies is not a fair test. */
static inline bool pos_equal(const Position *a, const Position *b)
{
    return a->rings[0] == b->rings[0] && a->rings[1] == b->rings[1] && a->markers[0] == b->markers[0] &&
           a->markers[1] == b->markers[1] && a->key == b->key && a->actor == b->actor && a->state == b->state &&
           a->variant == b->variant && a->removed[0] == b->removed[0] && a->removed[1] == b->removed[1] &&
           a->placed == b->placed && a->pool == b->pool;
}

#endif
