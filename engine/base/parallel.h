/* How many OpenMP threads a parallel part uses when the user did not say:
 * the runtime's default (OMP_NUM_THREADS, else the cores), capped at what
 * --threads accepts. An OMP_NUM_THREADS of 100000 once crashed the
 * runtime; a cap makes it a large but sane number. */
#ifndef YINSH_PARALLEL_H
#define YINSH_PARALLEL_H

#include <omp.h>

enum { THREADS_MAX = 1024 };

static inline int parallel_threads(int asked)
{
    if (asked > 0) return asked < THREADS_MAX ? asked : THREADS_MAX;
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n < THREADS_MAX ? n : THREADS_MAX;
}

#endif
