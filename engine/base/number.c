#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine/base/number.h"

/* strtoull and strtod skip leading white space and take a '+'; a number
 * typed by a user starts with a digit (or '-' or '.'). */
static bool starts_well(const char *s, bool sign)
{
    return s && ((*s >= '0' && *s <= '9') || *s == '.' || (sign && *s == '-'));
}

bool number_u64(const char *s, uint64_t *out)
{
    if (!starts_well(s, false) || *s == '.') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

bool number_long(const char *s, long min, long max, long *out)
{
    if (!starts_well(s, true) || *s == '.') return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

bool number_real(const char *s, double min, double max, double *out)
{
    if (!starts_well(s, true)) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < min || v > max) return false;
    *out = v;
    return true;
}

char *number_real_text(double v, char out[NUMBER_REAL_LEN])
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(out, NUMBER_REAL_LEN, "%.*g", digits, v);
        if (strtod(out, NULL) == v || v != v) break;
    }
    return out;
}

const char *number_plural(uint64_t n) { return n == 1 ? "" : "s"; }
