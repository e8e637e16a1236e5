/* Errors: the one convention of every library (docs/architecture.md).
 *
 * A function that can fail returns int: 0 on success, else one of the
 * negative codes below, and writes a message a user can act on into the
 * caller's buffer `char *err` of ERR_LEN bytes. The message says what is
 * wrong and where (the file and line, the key and its value, the run); it
 * never names a command-line flag: advice such as "add --repeat" is the
 * CLI's, which chooses it by the code. A constructor returns its object
 * through an out parameter (`int mcts_new(Mcts **out, ..., char *err)`),
 * with the same codes. Booleans are for predicates and for lookups that
 * have nothing to say but "not found" (point_parse, variant_parse).
 *
 * `return error_set(err, "cannot read '%s': %s", path, strerror(errno));`
 * is a function's failure in one line; error_code does the same with
 * another code. err may be NULL where the caller wants only the code (an
 * assertion's check). Inside a library a broken invariant is an assert();
 * nothing below cli/ prints or exits. */
#ifndef YINSH_ERROR_H
#define YINSH_ERROR_H

enum { ERR_LEN = 512 };

enum {
    ERR_OK = 0,
    ERR_FAIL = -1,      /* it failed: I/O, memory, damaged or inconsistent data, a refused plan */
    ERR_USAGE = -2,     /* what was asked is malformed: a spec, a key, a value, a file's text */
    ERR_EXISTS = -3,    /* what was to be created exists (a run's name) */
    ERR_NOT_FOUND = -4, /* what was named does not exist (a run, a database) */
    ERR_HELD = -5,      /* another live process holds it (a run's lease) */
    ERR_REPEAT = -6,    /* these games are stored already (a run of the same plan) */
    ERR_BUSY = -7,      /* the handle is in use by a call that has not returned (libyinsh's agents, searches) */
};

/* Formats the message into err (ERR_LEN bytes; nothing when err is NULL)
 * and returns ERR_FAIL. */
int error_set(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, returning code. */
int error_code(char *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds to the message already in err (a caller's word on a callee's
 * failure), cut at ERR_LEN bytes as error_set cuts; nothing when err is
 * NULL. The code is the callee's, so nothing is returned. */
void error_append(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
