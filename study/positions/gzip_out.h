/* Compressed positions: gzip (RFC 1952) written into a stream, for
 * `yinsh positions --out FILE.gz` and the library's export (a path
 * ending in ".gz"). Python's gzip module, numpy through it and `gzip -d`
 * read it.
 *
 * A .npy's header counts its records, which are known only at the end,
 * so the planes are written as two gzip members, which every reader
 * joins: first the header stored uncompressed (gzip_stored_member: a
 * member whose size depends only on the header's length, so that it is
 * written again over itself with the count), then the records
 * compressed. The text formats are one member. Deterministic: the same
 * bytes in give the same file (the member's time is 0). */
#ifndef YINSH_GZIP_OUT_H
#define YINSH_GZIP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* zlib's level 1: the sparse positions shrink about 15 times (issue 56),
 * at a cost well below the export's. */
enum { GZIP_LEVEL = 1, GZIP_BUF = 1 << 16 };

typedef struct GzipOut {
    FILE *f;
    void *z;          /* zlib's stream (z_stream), NULL when not begun */
    unsigned char buf[GZIP_BUF];
} GzipOut;

/* Begins a compressed member written to f: 0, or ERR_FAIL with a message. */
int gzip_out_begin(GzipOut *g, FILE *f, char *err);
/* Compresses n bytes into the member: 0, or ERR_FAIL (a write that fails
 * is f's error, found at its commit). */
int gzip_out_write(GzipOut *g, const void *data, size_t n, char *err);
/* Ends the member (its trailer written to f) and frees zlib's state: 0,
 * or ERR_FAIL. */
int gzip_out_end(GzipOut *g, char *err);
/* Frees zlib's state after a failure (nothing more is written). */
void gzip_out_abandon(GzipOut *g);

/* The bytes of a gzip member holding n bytes stored, uncompressed (n at
 * most 65535), and the member itself into out (that many bytes). */
size_t gzip_stored_len(size_t n);
void gzip_stored_member(const void *data, size_t n, unsigned char *out);

/* Whether a path names a file to compress: it ends in ".gz". */
bool gzip_path(const char *path);

#endif
