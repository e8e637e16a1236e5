/* The one way a library function fails with a message (the convention of
 * types.h): it formats the message into the caller's err (ERR_LEN bytes)
 * and returns -1, so that `return error_set(err, "...", ...)` is a
 * function's failure in one line. */
#ifndef YINSH_ERROR_H
#define YINSH_ERROR_H

enum { ERR_LEN = 512 };


int error_set(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
