/* Numbers from text: the one strict parser of every number a user types or
 * a file holds (options, agent specs, weights files). The whole text must
 * be the number: no leading or trailing white space, no '+', a '-' only
 * for signed values; in range; reals finite. A lookup with nothing to say
 * but "no": false leaves *out as it was. */
#ifndef YINSH_NUMBER_H
#define YINSH_NUMBER_H

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

#endif
