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

int text_escape(unsigned char c, unsigned char quote, char esc[TEXT_ESCAPE_LEN])
{
    static const char HEX[] = "0123456789abcdef";
    const char *named = c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (named) {
        memcpy(esc, named, 3);
        return 2;
    }
    if (text_control(c)) {
        esc[0] = '\\', esc[1] = 'x', esc[2] = HEX[c >> 4], esc[3] = HEX[c & 15], esc[4] = 0;
        return 4;
    }
    if (quote && c == quote) {
        esc[0] = '\\', esc[1] = (char)c, esc[2] = 0;
        return 2;
    }
    esc[0] = (char)c, esc[1] = 0;
    return 1;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int text_unescape(const char *s, size_t len, unsigned char quote, int *used)
{
    *used = 1;
    if (len == 0) return -1;
    switch (s[0]) {
    case '\\': return '\\';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'x': {
        int hi = len > 1 ? hex_digit(s[1]) : -1, lo = len > 2 ? hex_digit(s[2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) return -1;
        *used = 3;
        return hi * 16 + lo;
    }
    default: return quote && (unsigned char)s[0] == quote ? quote : -1;
    }
}
