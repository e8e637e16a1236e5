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

/* CPU seconds of the whole process, all its threads. */
static inline double clock_process_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds used by the calling thread: for `bench --parts`, whose
 * figures are nanoseconds of work and should not count the time other
 * processes held the core (on a shared machine, most of the wall clock). */
static inline double clock_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
