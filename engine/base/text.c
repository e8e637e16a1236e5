#include <string.h>
#include "engine/base/text.h"

int text_utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    int n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi) return 0;
    for (int k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf) return 0;
    return n;
}

long text_bad_byte(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = text_utf8_length(p);
        if (!n || (n == 1 && text_control(*p))) return (long)(p - (const unsigned char *)s);
        p += n;
    }
    return -1;
}

void text_cut(char *s)
{
    size_t len = strlen(s), at = len;
    /* back over at most three continuation bytes to the sequence's lead */
    while (at > 0 && len - at < 3 && ((unsigned char)s[at - 1] & 0xc0) == 0x80) at--;
    if (at == 0) return;
    unsigned char lead = (unsigned char)s[at - 1];
    size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (len - (at - 1) < need) s[at - 1] = '\0';
}
