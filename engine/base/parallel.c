/* The OpenMP runtime's start and the cores (base/parallel.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/parallel.h"

/* The size of libomp's registration file (SHM_SIZE in LLVM's
 * kmp_runtime.cpp). */
enum { KMP_REGISTRATION_SIZE = 1024 };

void parallel_clear_stale_registration(void)
{
#ifdef __linux__
    char path[96];
    snprintf(path, sizeof path, "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld", (long)getpid(), (long)getuid());
    struct stat st;
    /* before this process's runtime starts, a file with its pid is a dead
     * process's: one left short is removed, a whole one libomp replaces */
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < KMP_REGISTRATION_SIZE) unlink(path);
#endif
}

/* Before main and before any OpenMP call of a program or library that
 * holds this file, whichever reaches it first. */
__attribute__((constructor)) static void parallel_at_start(void) { parallel_clear_stale_registration(); }

int parallel_cores(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
