/* table.h: the transposition table: bounds on a node's exact value, kept across searches.
 *
 * A node's value is the final stone difference (own - opponent) under perfect play, seen from
 * its mover; an entry keeps a lower and an upper bound on it and the move that last proved a
 * lower bound there (a store without a move, a refutation's, keeps it). Buckets of
 * BUCKET_SIZE entries; a full bucket gives up the entry whose search cost the least work (log2
 * of nodes), so long proofs survive short ones. Every bound stored is exact knowledge (never
 * a guess), so a kept entry is right in any later search.
 */
#ifndef LITTLEGO_TABLE_H
#define LITTLEGO_TABLE_H

#include <stdint.h>

#define BUCKET_SIZE 4
#define NO_MOVE 0xff

typedef struct {
    uint64_t key; /* 0: empty slot (no real key is 0: the plies-left field is never 0) */
    int8_t lower, upper;
    uint8_t best, work;
    uint32_t pad;
} entry_t;

typedef struct {
    entry_t *entries;
    uint64_t mask; /* bucket index mask */
} table_t;

/* 2**table_bits entries; 0 on success, -1 when the memory cannot be had. */
int table_init(table_t *t, int table_bits);
void table_free(table_t *t);
entry_t *table_probe(table_t *t, uint64_t key);
/* Start loading the bucket of `key` into the cache (probes of many children in a row). */
void table_prefetch(const table_t *t, uint64_t key);
void table_store(table_t *t, uint64_t key, int lower, int upper, int best, int work);

#endif
