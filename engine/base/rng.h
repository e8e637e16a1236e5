/* pcg32: PCG XSH-RR with 64-bit state and 32-bit output, written from
 * O'Neill's published description (pcg-random.org, "PCG: A Family of Simple
 * Fast Space-Efficient Statistically Good Algorithms for Random Number
 * Generation", 2014). The sequence argument selects one of 2^63 independent
 * streams: every game gets its own stream, so a run is reproducible from its
 * seed whatever the number of threads. */
#ifndef YINSH_RNG_H
#define YINSH_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t state;
    uint64_t inc; /* always odd */
} Rng;

#define PCG32_MULT 6364136223846793005ULL

static inline uint32_t rng_next(Rng *r)
{
    uint64_t old = r->state;
    r->state = old * PCG32_MULT + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31));
}

static inline void rng_seed(Rng *r, uint64_t initstate, uint64_t initseq)
{
    r->state = 0;
    r->inc = (initseq << 1) | 1u;
    rng_next(r);
    r->state += initstate;
    rng_next(r);
}

/* Uniform in [0, bound), bound > 0, without modulo bias: Lemire's
 * multiply-shift with rejection of the biased low products. */
static inline uint32_t rng_below(Rng *r, uint32_t bound)
{
    uint64_t m = (uint64_t)rng_next(r) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (0u - bound) % bound;
        while (low < threshold) {
            m = (uint64_t)rng_next(r) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform double in [0, 1) with 32 random bits. */
static inline double rng_double(Rng *r)
{
    return rng_next(r) * (1.0 / 4294967296.0);
}

/* A 64-bit value mixed from two (splitmix64 finaliser), used to derive the
 * per-game stream and state from (run seed, game index). */
static inline uint64_t rng_mix(uint64_t a, uint64_t b)
{
    uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The stream of game `index` of a run with seed `seed`: the index picks
 * the pcg32 stream and, mixed with the seed, its start. Every game (or
 * benchmark position, or tuning sample) seeded this way has a stream of its
 * own, so results do not depend on how the work is spread over threads. */
static inline void rng_stream(Rng *r, uint64_t seed, uint64_t index)
{
    rng_seed(r, rng_mix(seed, index), index);
}

/* 64-bit FNV-1a (Fowler, Noll, Vo) of a string, for seeds and hashes made
 * from text: a run's uid, a host name, action notation. rng_hash_text_from
 * goes on from an earlier hash value, so a hash can cover several strings;
 * a fresh hash begins at RNG_HASH_START. That is not FNV's offset basis
 * 14695981039346656037 but the same digits less the last: the first copies
 * of this loop had it so, and pinned play hashes, the run hashes in
 * databases and the tuner's validation split are all computed from it, so
 * it stays. Any start works as well for these uses. */
#define RNG_HASH_START 1469598103934665603ULL

static inline uint64_t rng_hash_text_from(uint64_t h, const char *s)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static inline uint64_t rng_hash_text(const char *s) { return rng_hash_text_from(RNG_HASH_START, s); }

#endif
