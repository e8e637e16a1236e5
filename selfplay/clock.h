/* The one clock: monotonic seconds, for timing actions, games, write
 * batches, benchmarks and progress. Never part of a game's outcome. */
#ifndef YINSH_CLOCK_H
#define YINSH_CLOCK_H

#include <time.h>

static inline double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
