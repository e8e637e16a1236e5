/* How many OpenMP threads a parallel part uses when the user did not say:
 * the runtime's default (OMP_NUM_THREADS, else the cores), capped at what
 * --threads accepts. An OMP_NUM_THREADS of 100000 once crashed the
 * runtime; a cap makes it a large but sane number. */
#ifndef YINSH_PARALLEL_H
#define YINSH_PARALLEL_H

#include <omp.h>

enum { THREADS_MAX = 1024 };

/* LLVM's OpenMP runtime (libomp, clang's) registers each process in a
 * 1 KiB file /dev/shm/__KMP_REGISTERED_LIB_PID_UID that it creates, sizes
 * and maps at its start. A process killed between the creation and the
 * sizing leaves the file empty, and libomp 14 maps the empty file of
 * whichever process gets that pid next and dies of SIGBUS, before main's
 * first message: with pids wrapping at 32768, a machine whose processes
 * are killed now and then (tests, a cluster's jobs) loses a run now and
 * then to it. This removes such a file of this process's pid; it runs by
 * itself before main (a constructor in parallel.c) and before any
 * OpenMP call: a file with this pid before the runtime starts is a dead
 * process's. Nothing on other systems, or where there is no such file. */
void parallel_clear_stale_registration(void);

/* The cores this process may run on: its CPU affinity's count (taskset,
 * a cgroup's cpuset), else the online CPUs; at least 1. */
int parallel_cores(void);

static inline int parallel_threads(int asked)
{
    if (asked > 0) return asked < THREADS_MAX ? asked : THREADS_MAX;
    int n = omp_get_max_threads();
    return n < 1 ? 1 : n < THREADS_MAX ? n : THREADS_MAX;
}

#endif
