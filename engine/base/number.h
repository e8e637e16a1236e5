/* Numbers from text: the one strict parser of every number a user types or
 * a file holds (options, agent specs, weights files). The whole text must
 * be the number: no leading or trailing white space, no '+', a '-' only
 * for signed values; in range; reals finite. A lookup with nothing to say
 * but "no": false leaves *out as it was. */
#ifndef YINSH_NUMBER_H
#define YINSH_NUMBER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

bool number_u64(const char *s, uint64_t *out);
bool number_long(const char *s, long min, long max, long *out);
bool number_real(const char *s, double min, double max, double *out);

/* A real as the shortest text that strtod reads back as the same double
 * (at most 17 significant digits, "%.*g"): a stored value written out and
 * read again is that value, bit for bit. out holds NUMBER_REAL_LEN bytes. */
enum { NUMBER_REAL_LEN = 32 };
char *number_real_text(double v, char out[NUMBER_REAL_LEN]);

/* And a count in text: the ending of the noun counted, "" for one and
 * "s" for any other count ("1 game", "0 games", "2 pairs"), the one rule
 * of every count printed. */
const char *number_plural(uint64_t n);

/* lround(x), halves away from zero, without the call into libm: the
 * evaluations round on every leaf, and the call was 2.7% of a search.
 * Exact for |x| < 2^52 (x - trunc(x) is then exact); the callers' values
 * are capped far below. trunc is one instruction with SSE4.1. */
static inline long number_round(double x)
{
    double t = trunc(x), r = x - t;
    return (long)t + (r >= 0.5) - (r <= -0.5);
}

#endif
