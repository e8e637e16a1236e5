/* Ctrl-C, SIGTERM and SIGHUP during long work (interrupt.h). */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/interrupt.h"

static atomic_bool interrupted;
static volatile sig_atomic_t caught;
static char signal_note[1024]; /* written before play, read by the handler */
static atomic_size_t signal_note_len;

static void on_signal(int sig)
{
    caught = sig;
    atomic_store(&interrupted, true);
    size_t note = atomic_load(&signal_note_len);
    if (note) {
        /* an MPI job being torn down: the committed games are safe, the rest cannot be finished */
        if (write(STDERR_FILENO, signal_note, note) < 0) {}
        _exit(128 + sig);
    }
    signal(sig, SIG_DFL); /* a second one ends the process */
}

void interrupt_note(const char *text)
{
    atomic_store(&signal_note_len, 0);
    if (!text) return;
    snprintf(signal_note, sizeof signal_note, "%s", text);
    atomic_store(&signal_note_len, strlen(signal_note));
}

const atomic_bool *interrupt_catch(void)
{
    static const int SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {.sa_handler = on_signal}, was;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof SIGNALS / sizeof *SIGNALS; i++)
        if (sigaction(SIGNALS[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN) sigaction(SIGNALS[i], &sa, NULL);
    return &interrupted;
}

int interrupt_signal(void) { return caught; }
