#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"

static void format(char *err, const char *fmt, va_list ap)
{
    if (err) vsnprintf(err, ERR_LEN, fmt, ap);
}

int error_set(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format(err, fmt, ap);
    va_end(ap);
    return ERR_FAIL;
}

int error_code(char *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    format(err, fmt, ap);
    va_end(ap);
    return code;
}

void error_append(char *err, const char *fmt, ...)
{
    if (!err) return;
    size_t len = strnlen(err, ERR_LEN - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + len, ERR_LEN - len, fmt, ap);
    va_end(ap);
}
