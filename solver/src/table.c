/* table.c: see table.h. */
#include "table.h"

#include <stdlib.h>

#define HASH_MULTIPLIER 0x9E3779B97F4A7C15ull
#define PAGE_BYTES 4096

static entry_t *bucket_of(const table_t *t, uint64_t key)
{
    return t->entries + ((key * HASH_MULTIPLIER >> 20) & t->mask) * BUCKET_SIZE;
}

int table_init(table_t *t, int log2_entries)
{
    size_t count = (size_t)1 << log2_entries;
    if (count < BUCKET_SIZE)
        count = BUCKET_SIZE;
    t->entries = calloc(count, sizeof(entry_t));
    if (!t->entries)
        return -1;
    /* calloc maps the pages lazily, and page faults in the middle of a search cost more than a
     * short search itself (5x on 12 plies left), so every page is touched once now. The writes
     * are volatile: a plain memset of zeros after calloc (or after malloc) is optimised away. */
    volatile char *bytes = (volatile char *)t->entries;
    for (size_t at = 0; at < count * sizeof(entry_t); at += PAGE_BYTES)
        bytes[at] = 0;
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
    slot->key = key;
    slot->lower = (int8_t)lower;
    slot->upper = (int8_t)upper;
    slot->best = (uint8_t)best;
    slot->work = (uint8_t)work;
}
