#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "engine/base/error.h"
#include "study/positions/gzip_out.h"

int gzip_out_begin(GzipOut *g, FILE *f, char *err)
{
    z_stream *z = calloc(1, sizeof *z);
    g->f = f;
    g->z = NULL;
    if (!z) return error_set(err, "out of memory for compression");
    /* windowBits 15 + 16: a gzip wrapper; its header's time is 0 */
    if (deflateInit2(z, GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(z);
        return error_set(err, "zlib would not start compressing");
    }
    g->z = z;
    return 0;
}

/* Runs deflate over what is in the stream with flush, writing what comes out. */
static int pump(GzipOut *g, int flush, char *err)
{
    z_stream *z = g->z;
    int rc;
    do {
        z->next_out = g->buf;
        z->avail_out = sizeof g->buf;
        rc = deflate(z, flush);
        if (rc == Z_STREAM_ERROR) return error_set(err, "zlib failed while compressing");
        size_t have = sizeof g->buf - z->avail_out;
        if (have && fwrite(g->buf, 1, have, g->f) != have) return error_set(err, "cannot write the compressed output");
    } while (z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return 0;
}

int gzip_out_write(GzipOut *g, const void *data, size_t n, char *err)
{
    z_stream *z = g->z;
    const unsigned char *p = data;
    while (n) {
        uInt part = n > (1u << 30) ? 1u << 30 : (uInt)n;
        z->next_in = (unsigned char *)(uintptr_t)p; /* zlib's type; it only reads */
        z->avail_in = part;
        int rc = pump(g, Z_NO_FLUSH, err);
        if (rc) return rc;
        p += part;
        n -= part;
    }
    return 0;
}

int gzip_out_end(GzipOut *g, char *err)
{
    z_stream *z = g->z;
    z->next_in = NULL;
    z->avail_in = 0;
    int rc = pump(g, Z_FINISH, err);
    gzip_out_abandon(g);
    return rc;
}

void gzip_out_abandon(GzipOut *g)
{
    if (!g->z) return;
    deflateEnd(g->z);
    free(g->z);
    g->z = NULL;
}

/* A member: the 10-byte header (no name, time 0, OS unknown), one final
 * stored deflate block (1 byte of flags, the length and its complement),
 * the data, then its CRC-32 and length, little-endian. */
size_t gzip_stored_len(size_t n) { return 10 + 5 + n + 8; }

void gzip_stored_member(const void *data, size_t n, unsigned char *out)
{
    static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
    memcpy(out, head, sizeof head);
    unsigned char *p = out + sizeof head;
    *p++ = 1; /* BFINAL, BTYPE 00: stored */
    *p++ = n & 0xff;
    *p++ = (n >> 8) & 0xff;
    *p++ = ~n & 0xff;
    *p++ = (~n >> 8) & 0xff;
    memcpy(p, data, n);
    p += n;
    uLong crc = crc32(crc32(0L, Z_NULL, 0), data, (uInt)n);
    for (int k = 0; k < 4; k++) *p++ = (crc >> (8 * k)) & 0xff;
    for (int k = 0; k < 4; k++) *p++ = (n >> (8 * k)) & 0xff;
}

bool gzip_path(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}
