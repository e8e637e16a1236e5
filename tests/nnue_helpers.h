/* A helper shared by the net's tests (tests/test_nnue_*.c): a net of
 * seeded random integers, with or without a second layer. Static and
 * unused-tolerant (TEST_HELPER), as tests/test_proc.h. */
#ifndef YINSH_NNUE_HELPERS_H
#define YINSH_NNUE_HELPERS_H

#include "eval/nnue.h"
#include "tests/test_proc.h"

/* A net of seeded random integers, large enough that the clipping is met
 * on both sides and sums go far from zero; l2 > 0 adds the second layer.
 * qw: the second layer's scale (NNUE_QW, or one not a power of two).
 * big: weights that make the int16 sums wrap (the incremental and the
 * from-scratch sums must still agree). */
TEST_HELPER Nnue *random_net(uint64_t seed, int hidden, int l2, int qw, bool big, uint8_t **bytes_out, size_t *len_out)
{
    Rng rng;
    rng_stream(&rng, seed, 77);
    size_t h = (size_t)hidden, n2 = l2 ? (size_t)l2 * 2 * h : 2 * h;
    int16_t *w1 = gc(malloc((size_t)NNUE_FEATURES * h * 2)), *b1 = gc(malloc(h * 2)), *w2 = gc(malloc(n2 * 2));
    int16_t *w3 = gc(malloc(NNUE_MAX_L2 * 2));
    int32_t *b2 = gc(malloc(NNUE_MAX_L2 * 4));
    int span = big ? 30000 : 60;
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * h; i++) w1[i] = (int16_t)((int)rng_below(&rng, 2 * span + 1) - span);
    for (size_t j = 0; j < h; j++) b1[j] = (int16_t)((int)rng_below(&rng, 401) - 100);
    for (size_t k = 0; k < n2; k++) w2[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
    for (int k = 0; k < NNUE_MAX_L2; k++) {
        w3[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
        b2[k] = (int32_t)rng_below(&rng, 20001) - 10000;
    }
    NnueParams p = {.hidden = hidden, .l2 = l2, .qa = NNUE_QA, .qw = qw, .w1 = w1, .b1 = b1, .w2 = w2,
                    .b2 = b2, .w3 = w3, .b3 = 1234, .description = "a random net of the tests"};
    uint8_t *bytes;
    size_t len;
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    Nnue *net;
    cr_assert_eq(nnue_decode(&net, bytes, len, "random", err), 0, "%s", err);
    if (bytes_out) {
        *bytes_out = gc(bytes);
        *len_out = len;
    } else {
        free(bytes);
    }
    return net;
}

#endif
