/* What made a run: the commit the binary was built from (with -dirty for
 * a changed work tree) and the compiler with its flags, both written by
 * the build (cmake/provenance.cmake), and the machine it runs on. Stored
 * with every run and printed by every report. */
#ifndef YINSH_PROVENANCE_H
#define YINSH_PROVENANCE_H

#include <stdbool.h>
#include <stddef.h>

extern const char YINSH_GIT_COMMIT[];
extern const char YINSH_COMPILER[];

/* Whether a build's commit names committed code: a commit, not one
 * with -dirty (a work tree with changes not committed), not "unknown"
 * (no git checkout) and not empty. A study's games are played by such a
 * build unless told otherwise (`yinsh study --allow-dirty`). */
bool provenance_committed(const char *commit);

/* "CPU model, N cores" (len bytes). */
void provenance_machine(char *out, size_t len);

#endif
