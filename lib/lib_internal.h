/* What the library's files share: the handles' insides, and the one way
 * a code and a message reach the caller. Not installed. */
#ifndef YINSH_LIB_INTERNAL_H
#define YINSH_LIB_INTERNAL_H

#include <yinsh.h>
#include "engine/position.h"
#include "selfplay/store/store.h"

struct yinsh_position {
    Position pos;
};

struct yinsh_db {
    Store *store;
};

/* The caller's err, which may be NULL: the library's functions pass this
 * on to the engine's, which always write a message. */
#define ERR_OR_SCRATCH(err, scratch) ((err) ? (err) : (scratch))

#endif
