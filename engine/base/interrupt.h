/* Ctrl-C, SIGTERM and SIGHUP during long work (a run, a fit): the first
 * one sets a flag that the work polls (a run starts no new game, finishes
 * and stores those in flight), a second one ends the process at once. */
#ifndef YINSH_INTERRUPT_H
#define YINSH_INTERRUPT_H

#include <stdatomic.h>

/* Installs the handler and returns its flag. A signal ignored when the
 * process started (nohup's SIGHUP, a background job's SIGINT) stays
 * ignored. */
const atomic_bool *interrupt_catch(void);
/* The signal caught, 0 if none. */
int interrupt_signal(void);
/* In an MPI job a signal means the launcher is ending the job (a rank
 * died, or Ctrl-C at mpirun): it follows its SIGTERM with a SIGKILL
 * within a second or so, and the other ranks' games in flight cannot
 * arrive any more. With a note set here (what the run is and how to
 * resume it) the signal handler writes it to stderr and ends the process
 * at once: the committed games are safe (a batch is one transaction).
 * NULL clears it. */
void interrupt_note(const char *text);

#endif
