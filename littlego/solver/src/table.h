/* table.h: the transposition table: bounds on a node's exact value, kept across searches.
 *
 * A node's value is the final stone difference (own - opponent) under perfect play, seen from
 * its mover; an entry keeps a lower and an upper bound on it and the move that last proved a
 * lower bound there (a store without a move, a refutation's, keeps it). Buckets of
 * BUCKET_SIZE entries; a full bucket gives up the entry whose search cost the least work (log2
 * of nodes), so long proofs survive short ones. Every bound stored is exact knowledge (never
 * a guess), so a kept entry is right in any later search.
 *
 * Reading guide: start at `table_probe`. An entry is one 64-bit word (table.c: what a bucket's
 * index already says of a key is not stored again), so a table holds twice the entries of
 * 16-byte ones in the same memory; a table of fewer than 2**NARROW_MIN_BITS entries gives each
 * entry a second word for its whole key, as there the rest of the key and the entry's fields do
 * not fit in one.
 */
#ifndef LITTLEGO_TABLE_H
#define LITTLEGO_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define BUCKET_BITS 2
#define BUCKET_SIZE (1 << BUCKET_BITS)
#define NO_MOVE 0xff
#define KEY_BITS 61 /* keys (search.c) are below 2**KEY_BITS, and never 0 */
#define NARROW_MIN_BITS 21
/* Keys are hashed by multiplying by this odd number (2**64 over the golden ratio): a bucket's
 * index is the product's middle bits (table.c), an entry of search.c's cache of latest stores
 * its top bits. */
#define HASH_MULTIPLIER 0x9E3779B97F4A7C15ull

/* What a probe finds. */
typedef struct {
    int lower, upper; /* within -NUM_POINTS..NUM_POINTS */
    int best;         /* a move (0..NUM_POINTS) or NO_MOVE */
} entry_t;

typedef struct {
    uint64_t *words;
    int index_bits;  /* log2 of the number of buckets */
    int slot_words;  /* 1, or 2 under 2**NARROW_MIN_BITS entries */
} table_t;

/* The bytes a table of 2**table_bits entries takes. */
size_t table_bytes(int table_bits);
/* 2**table_bits entries; 0 on success, -1 when the memory cannot be had. */
int table_init(table_t *t, int table_bits);
void table_free(table_t *t);
/* 1 and the entry of `key` in `found`, or 0 when the table holds none. */
int table_probe(const table_t *t, uint64_t key, entry_t *found);
/* Start loading the bucket of `key` into the cache (probes of many children in a row). */
void table_prefetch(const table_t *t, uint64_t key);
void table_store(table_t *t, uint64_t key, int lower, int upper, int best, int work);

#endif
