/* Other processes of this host as /proc/PID/stat shows them: a lease's
 * holder is alive while its pid has the same start time and has not
 * ended (store/store.c); the tests wait so for the ranks they kill. */
#ifndef YINSH_PROCESS_H
#define YINSH_PROCESS_H

#include <stdbool.h>
#include <stdint.h>

/* The process's start time in clock ticks after boot (field 22 of
 * /proc/PID/stat), which tells a live process from a later one that got
 * the same pid; -1 when there is no such process. */
int64_t process_start(int64_t pid);

/* Whether a process has ended: no such process, or one ended but not yet
 * reaped (a zombie: state Z or X), as a killed MPI rank is for a moment
 * after its launcher returns. */
bool process_ended(int64_t pid);

#endif
