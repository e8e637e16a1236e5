#include <stdarg.h>
#include <stdio.h>
#include "base/error.h"

int error_set(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}
