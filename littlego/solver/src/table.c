/* table.c: see table.h.
 *
 * Start at `tag_of`. A key's bucket is bits INDEX_SHIFT.. of key * HASH_MULTIPLIER; the
 * multiplier is odd, so the low n bits of the product are a one-to-one function of the low n
 * bits of the key: two keys of one bucket that agree below INDEX_SHIFT agree below
 * INDEX_SHIFT + index_bits too. The tag is therefore the key less those index_bits bits, and
 * it shares one word with the fields (FIELD_BITS) when it fits in the rest, from
 * 2**NARROW_MIN_BITS entries; smaller tables keep the whole key in a word of its own. The
 * bucket of a key and the entry kept for it are the same either way, so are the searches.
 */
#define _DEFAULT_SOURCE /* madvise */
#include "table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define INDEX_SHIFT 20
#define HUGE_PAGE_BYTES ((size_t)2 << 20)

/* The fields of an entry, from bit 0: lower and upper bounds (offset so that a used entry's
 * fields are never 0: 0 is an empty slot), the best move, the work. */
#define BOUND_BITS 6
#define MOVE_BITS 5
#define WORK_BITS 5
#define FIELD_BITS (2 * BOUND_BITS + MOVE_BITS + WORK_BITS)
#define BOUND_OFFSET (NUM_POINTS + 1)
#define MOVE_FIELD_NONE ((1 << MOVE_BITS) - 1)
#define WORK_MAX ((1 << WORK_BITS) - 1) /* 2**31 nodes: more than any search here visits */
#define UPPER_AT BOUND_BITS
#define MOVE_AT (2 * BOUND_BITS)
#define WORK_AT (MOVE_AT + MOVE_BITS)

_Static_assert(NUM_POINTS + BOUND_OFFSET < 1 << BOUND_BITS, "bounds fit their field");
_Static_assert(NUM_MOVES < MOVE_FIELD_NONE, "moves fit their field");
_Static_assert(KEY_BITS - (NARROW_MIN_BITS - BUCKET_BITS) <= 64 - FIELD_BITS,
               "a narrow table's tag fits beside the fields");

static int field(uint64_t fields, int at, int width)
{
    return (int)(fields >> at & ((1u << width) - 1));
}

static uint64_t *bucket_of(const table_t *t, uint64_t key)
{
    uint64_t index = key * HASH_MULTIPLIER >> INDEX_SHIFT & (((uint64_t)1 << t->index_bits) - 1);
    return t->words + index * (BUCKET_SIZE * t->slot_words);
}

/* What a slot keeps of `key` (see the top). */
static uint64_t tag_of(const table_t *t, uint64_t key)
{
    if (t->slot_words > 1)
        return key;
    uint64_t below = key & ((1ull << INDEX_SHIFT) - 1);
    return below | key >> (INDEX_SHIFT + t->index_bits) << INDEX_SHIFT;
}

static uint64_t fields_of(const table_t *t, const uint64_t *slot)
{
    return t->slot_words > 1 ? slot[1] : slot[0] & ((1ull << FIELD_BITS) - 1);
}

/* Whether `slot` holds the entry of the key whose tag is `tag` (compared without a branch:
 * the loops over a bucket below look at every slot). */
static int holds(const table_t *t, const uint64_t *slot, uint64_t tag)
{
    if (t->slot_words > 1)
        return (slot[0] == tag) & (slot[1] != 0);
    return (slot[0] != 0) & (slot[0] >> FIELD_BITS == tag);
}

static void write_slot(const table_t *t, uint64_t *slot, uint64_t tag, uint64_t fields)
{
    if (t->slot_words > 1) {
        slot[0] = tag;
        slot[1] = fields;
    } else {
        slot[0] = tag << FIELD_BITS | fields;
    }
}

/* A table has one bucket at least. */
static int entry_bits(int table_bits)
{
    return table_bits < BUCKET_BITS ? BUCKET_BITS : table_bits;
}

static int slot_words_for(int table_bits) { return table_bits < NARROW_MIN_BITS ? 2 : 1; }

size_t table_bytes(int table_bits)
{
    table_bits = entry_bits(table_bits);
    size_t bytes = ((size_t)slot_words_for(table_bits) * sizeof(uint64_t)) << table_bits;
    if (bytes % HUGE_PAGE_BYTES)
        bytes += HUGE_PAGE_BYTES - bytes % HUGE_PAGE_BYTES;
    return bytes;
}

int table_init(table_t *t, int table_bits)
{
    size_t bytes = table_bytes(table_bits);
    table_bits = entry_bits(table_bits);
    t->index_bits = table_bits - BUCKET_BITS;
    t->slot_words = slot_words_for(table_bits);
    /* Probes land anywhere in the table: on huge pages (where the kernel allows them) they miss
     * the TLB far less, 20% less time on ply-7 proofs. The table is zeroed now, not lazily, as
     * page faults in the middle of a short search cost more than the search itself. */
    t->words = aligned_alloc(HUGE_PAGE_BYTES, bytes);
    if (!t->words)
        return -1;
    madvise(t->words, bytes, MADV_HUGEPAGE);
    memset(t->words, 0, bytes);
    return 0;
}

void table_free(table_t *t)
{
    free(t->words);
    t->words = NULL;
}

void table_prefetch(const table_t *t, uint64_t key)
{
    __builtin_prefetch(bucket_of(t, key));
}

/* The entry whose fields are `fields`. */
static entry_t entry_of(uint64_t fields)
{
    int move = field(fields, MOVE_AT, MOVE_BITS);
    entry_t entry = {field(fields, 0, BOUND_BITS) - BOUND_OFFSET,
                     field(fields, UPPER_AT, BOUND_BITS) - BOUND_OFFSET,
                     move == MOVE_FIELD_NONE ? NO_MOVE : move};
    return entry;
}

/* A store ranks a bucket's slots by their work (`work_of`), the slot that already holds its
 * key lowest of all, and takes the lowest. */
#define HELD_RANK (-2)

/* The work of the entry in `slot`, -1 when the slot is empty. */
static int work_of(const table_t *t, const uint64_t *slot)
{
    uint64_t fields = fields_of(t, slot);
    return fields ? field(fields, WORK_AT, WORK_BITS) : -1;
}

int table_probe(const table_t *t, uint64_t key, entry_t *found)
{
    const uint64_t *slot = bucket_of(t, key);
    uint64_t tag = tag_of(t, key), fields = 0;
    /* Every slot is compared and the match kept without a branch: a store finds a tag's slot
     * before it takes another, so one slot at most holds it, and an exit at the first match
     * would mispredict (8% of a value table's time). */
    for (int i = 0; i < BUCKET_SIZE; i++, slot += t->slot_words)
        fields |= fields_of(t, slot) & -(uint64_t)holds(t, slot, tag);
    if (!fields)
        return 0;
    *found = entry_of(fields);
    return 1;
}

void table_store(table_t *t, uint64_t key, int lower, int upper, int best, int work)
{
    uint64_t *bucket = bucket_of(t, key), *slot = bucket;
    uint64_t tag = tag_of(t, key);
    if (work > WORK_MAX)
        work = WORK_MAX;
    /* The slot that holds the tag, else the first of the least work (an empty one's is -1):
     * every slot ranked, the choice made without a branch (as in table_probe). */
    int least = WORK_MAX + 1;
    for (int i = 0; i < BUCKET_SIZE; i++) {
        uint64_t *here = bucket + i * t->slot_words;
        int rank = holds(t, here, tag) ? HELD_RANK : work_of(t, here);
        int lower_rank = rank < least;
        slot = lower_rank ? here : slot;
        least = lower_rank ? rank : least;
    }
    if (least == HELD_RANK) { /* tighten what is known */
        entry_t kept = entry_of(fields_of(t, slot));
        if (kept.lower > lower)
            lower = kept.lower;
        if (kept.upper < upper)
            upper = kept.upper;
        if (work_of(t, slot) > work)
            work = work_of(t, slot);
        if (best == NO_MOVE) /* a store without a move keeps the entry's */
            best = kept.best;
    }
    int move = best == NO_MOVE ? MOVE_FIELD_NONE : best;
    write_slot(t, slot, tag, (uint64_t)(lower + BOUND_OFFSET)
                                 | (uint64_t)(upper + BOUND_OFFSET) << UPPER_AT
                                 | (uint64_t)move << MOVE_AT | (uint64_t)work << WORK_AT);
}
