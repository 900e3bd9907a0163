/* search.c: see search.h.
 *
 * Start at `at_least`. A node proves a threshold by one child that cannot reach the mirrored
 * threshold (1 - t from the child's side), or refutes it when every child and the pass reach
 * it; either way it answers the bound it showed (fail-soft), which the table keeps for tests
 * at other thresholds (`search_value`, the exact value, asks several). Near the end,
 * `bounded` decides many nodes without a move: what the mover gets against an opponent who
 * only passes is an upper bound, what the opponent gets against a mover who only passes a
 * lower one. Order of tries: the killer of this depth, bigger captures, then the history of
 * refutations weighted 3**plies_left (a refutation far from the end outranks any number near it;
 * the Python solver measured 30% fewer nodes than plies**2), which starts from the rings of the
 * board (`RING`: the centre first). With `value_order` set (the binding sets it for its value
 * questions), after a try that failed, the opponent's refutation of it (its killer, a ply down)
 * moves up to just below the captures: the opponent's key point is often the mover's too
 * (`raise_key_point`; the empty board's value table 35% fewer nodes, docs/value.md), and from
 * SELF_ATARI_MIN_PLIES a placement that leaves its own chain in atari without a capture is no
 * killer and comes last among the moves the history ranks (`self_atari`; 14% fewer nodes
 * there, 18% on seven value tables of ply 4; a self-atari key point keeps its place). Win/loss
 * questions leave it unset (they would take 29% fewer nodes too): their order chooses the winning
 * moves the committed book was built from, and `make book` must still make that book. Not the move
 * the table remembers: an entry that does not decide a node was searched at another threshold (at
 * one threshold every entry decides), and its move, tried first there, cost the empty board's
 * value table 57% more nodes (944.9 M against 601.5 M, docs/value.md).
 * A node makes all its children at once (`children_of`, one pass over the chains for every
 * placement) and asks each child's bounds on the way: a child the bounds show lost for its mover
 * proves the node at once, one they show won is dropped. From ETC_MIN_PLIES, enhanced cut-offs
 * then probe the children's table entries (prefetched as the children are made; a child's
 * symmetric key from the node's images, `child_key`) and drop the children the table shows won;
 * a child searched afterwards reuses its key and skips its bounds. Value questions first ask a
 * cache of their latest stores (`recent_t`, search.h: 40 KB, near the CPU) as each child's key is
 * made, where half the entries that decide a child were stored within the last 256 stores: what
 * it knows counts as the bounds do, with no table line touched (the empty board's value table
 * 3% fewer nodes and 1.5% to 3.5% less time, docs/value.md).
 * Performance compromises: no table below TABLE_MIN_PLIES (those nodes are cheaper to search
 * than to store), symmetric lookups only from symmetry_from plies left (win/loss questions:
 * DEFAULT_SYMMETRY_FROM, the book's searches; value questions: VALUE_SYMMETRY_FROM, wherever
 * the table is used, as the 8 keys of a node are made side by side: 28% fewer nodes on the
 * empty board's value table, 18% on seven tables of ply 4), table cut-offs of children only
 * from ETC_MIN_PLIES, bounds only up to BOUNDS_MAX_PLIES.
 */
#include "search.h"

#include <string.h>

#include "symmetry.h"

#define TABLE_MIN_PLIES 2
#define ETC_MIN_PLIES 3
#define BOUNDS_MAX_PLIES 6 /* measured on ply-7 proofs: 4 to 8 alike, all plies slower */
#define DEFAULT_SYMMETRY_FROM 6
#define VALUE_SYMMETRY_FROM 2 /* value questions: symmetric keys wherever the table is used */
#define CLOCK_CHECK_MASK 0x3fffu
#define STEPS_OF_ONE 2 /* search_value's steps from its guess before they double */
#define HISTORY_BITS 52 /* history scores are halved before they outgrow this */
#define NOT_SELF_ATARI_SHIFT 52 /* the order's fields, above the history's 52 bits */
#define KEY_POINT_SHIFT 53
#define CAPTURE_SHIFT 54
#define KILLER_SHIFT 59
#define SELF_ATARI_MIN_PLIES 6 /* nearer the end the test costs more than it saves */

static uint64_t HISTORY_WEIGHT[MAX_PLY + 2];
static int RING[NUM_POINTS]; /* 0 on the edge, 1 inside it, 2 at the centre */
static int INVERSE_SYMMETRY[NUM_SYMMETRIES];
static int initialised;

typedef struct {
    uint64_t order;
    node_t node;
    int move;
    uint64_t key; /* set only where enhanced cut-offs probe the children */
    int symmetry; /* the key's (search_key) */
} child_t;

/* How many lines a row (or column) lies inside the edge: 0, 1 or 2. */
static int lines_from_edge(int line)
{
    return line < SIZE - 1 - line ? line : SIZE - 1 - line;
}

static void init_images(void);

static void init_tables(void)
{
    if (initialised)
        return;
    rules_init();
    symmetry_init();
    uint64_t weight = 1;
    for (int p = 0; p < MAX_PLY + 2; p++, weight *= 3)
        HISTORY_WEIGHT[p] = weight;
    for (int p = 0; p < NUM_POINTS; p++) {
        int across = lines_from_edge(p / SIZE), down = lines_from_edge(p % SIZE);
        RING[p] = across < down ? across : down;
    }
    for (int s = 0; s < NUM_SYMMETRIES; s++)
        for (int t = 0; t < NUM_SYMMETRIES; t++)
            if (SYMMETRIC_POINT[t][SYMMETRIC_POINT[s][1]] == 1
                && SYMMETRIC_POINT[t][SYMMETRIC_POINT[s][SIZE]] == SIZE)
                INVERSE_SYMMETRY[s] = t;
    init_images();
    initialised = 1;
}

int search_init(search_t *s, int table_bits)
{
    init_tables();
    if (table_init(&s->table, table_bits))
        return -1;
    s->symmetry_from = DEFAULT_SYMMETRY_FROM;
    s->value_symmetry_from = VALUE_SYMMETRY_FROM;
    s->value_order = 0;
    /* Before any refutation the history tries the centre first and the edge last (a tie-break:
     * a refutation weighs 9 at least). Without it the first nodes of a proof, the costliest,
     * tried points in their numbering, the corner first: at ply 7, twice the nodes. */
    for (int m = 0; m < NUM_POINTS; m++)
        s->history[m] = RING[m];
    s->history[PASS] = 0;
    for (int p = 0; p < MAX_PLY + 2; p++)
        s->killer[p] = NO_MOVE;
    memset(&s->recent, 0, sizeof s->recent);
    s->nodes = 0;
    s->deadline = 0;
    s->aborted = 0;
    return 0;
}

void search_free(search_t *s) { table_free(&s->table); }


/* A node's key: both boards, then the plies left (0..MAX_PLY), the pass and the ko point + 1
 * (0..NUM_POINTS), each field within KEY_FIELD_BITS: below 2**KEY_BITS (table.h), never 0. */
#define KEY_FIELD_BITS 5
#define PLIES_AT (2 * NUM_POINTS)
#define PASSED_AT (PLIES_AT + KEY_FIELD_BITS)
#define KO_AT (PASSED_AT + 1)
_Static_assert(MAX_PLY < 1 << KEY_FIELD_BITS && NUM_POINTS < 1 << KEY_FIELD_BITS
               && KO_AT + KEY_FIELD_BITS <= KEY_BITS, "a key's fields fit below KEY_BITS");
/* A key's boards, the mover's stones below the opponent's: in 64-bit words, for `raw_key`, or
 * in the lanes of a pair_images, for `smallest_key`'s 8 keys at once. */
#define BOARDS_KEY(own, opp) ((own) | (opp) << NUM_POINTS)

static uint64_t raw_key(bits own, bits opp, int plies_left, int passed, int ko)
{
    return BOARDS_KEY((uint64_t)own, (uint64_t)opp) | (uint64_t)plies_left << PLIES_AT
        | (uint64_t)passed << PASSED_AT | (uint64_t)(ko + 1) << KO_AT;
}

/* The plies left from which the question asked stores nodes canonically. */
static int symmetry_from(const search_t *s)
{
    return s->value_order ? s->value_symmetry_from : s->symmetry_from;
}

/* Lane s: the image under symmetry s of a stone at the point on a pair's second board
 * (STONE_IMAGE[point]), of a key's ko field (KO_IMAGE[ko + 1]; [0], no ko: nothing). */
static pair_images STONE_IMAGE[NUM_POINTS], KO_IMAGE[NUM_POINTS + 1];

static void init_images(void)
{
    for (int p = 0; p < NUM_POINTS; p++) {
        symmetric_images(pair_of(0, 1u << p), &STONE_IMAGE[p]);
        for (int sym = 0; sym < NUM_SYMMETRIES; sym++)
            KO_IMAGE[p + 1][sym] = raw_key(0, 0, 0, 0, SYMMETRIC_POINT[sym][p]);
    }
}

/* Below a lane's key, its symmetry's number: the smallest of the 8 tagged keys is the
 * smallest key and names its symmetry, the first where two images are one. */
#define LANE_BITS 3
_Static_assert(1 << LANE_BITS == NUM_SYMMETRIES && KEY_BITS + LANE_BITS <= 64,
               "a key and its symmetry's number fit in a lane");

/* Each lane of `least` down to the same lane of `other` where that is smaller (by address,
 * as symmetry.h passes its vectors). */
static inline void take_smaller(pair_images *least, const pair_images *other)
{
    pair_images less = (pair_images)(*other < *least);
    *least = (*other & less) | (*least & ~less);
}

/* The smallest key of the node `n` seen under each symmetry (`images`: both its boards under
 * every symmetry), and that symmetry (the first, where two images are one). The keys of all 8
 * are made at once, lane by lane, and their minimum is taken in three halvings without a
 * branch (a lane at a time, the compares mispredicted: 3.5% of the value table's time); the
 * fields no symmetry changes join the smallest. */
static uint64_t smallest_key(const node_t *n, const pair_images *images, int *symmetry)
{
    const pair_images lane = {0, 1, 2, 3, 4, 5, 6, 7};
    pair_images keys = BOARDS_KEY(*images & FULL_BOARD, *images >> PAIR_SHIFT)
        | KO_IMAGE[n->ko + 1];
    pair_images least = keys << LANE_BITS | lane, other;
    other = __builtin_shufflevector(least, least, 4, 5, 6, 7, 0, 1, 2, 3);
    take_smaller(&least, &other);
    other = __builtin_shufflevector(least, least, 2, 3, 0, 1, 6, 7, 4, 5);
    take_smaller(&least, &other);
    other = __builtin_shufflevector(least, least, 1, 0, 3, 2, 5, 4, 7, 6);
    take_smaller(&least, &other);
    *symmetry = (int)(least[0] & (NUM_SYMMETRIES - 1));
    return least[0] >> LANE_BITS | raw_key(0, 0, n->plies_left, n->passed, NO_KO);
}

/* The node's table key and the symmetry that maps the node to the stored image. */
static uint64_t search_key(const search_t *s, const node_t *n, int *symmetry)
{
    if (n->plies_left < symmetry_from(s)) {
        *symmetry = 0;
        return raw_key(n->own, n->opp, n->plies_left, n->passed, n->ko);
    }
    pair_images images;
    symmetric_images(pair_of(n->own, n->opp), &images);
    return smallest_key(n, &images, symmetry);
}

/* `search_key` of `child`, the node after a placement at `point` that took `captured`, from the
 * images of the node before it (`parent`): the child's boards are the parent's swapped, plus the
 * stone, less the captures, and so are their images (new images only of the captures). */
static uint64_t child_key(const node_t *child, const pair_images *parent, int point,
                          bits captured, int *symmetry)
{
    pair_images images = (*parent >> PAIR_SHIFT | *parent << PAIR_SHIFT) | STONE_IMAGE[point];
    if (captured) {
        pair_images taken;
        symmetric_images(pair_of(captured, 0), &taken);
        images &= ~taken;
    }
    return smallest_key(child, &images, symmetry);
}

int search_child(const node_t *n, int move, node_t *child)
{
    child->plies_left = n->plies_left - 1;
    if (move == PASS) {
        child->own = n->opp;
        child->opp = n->own;
        child->ko = NO_KO;
        child->passed = 1;
        if (n->passed)
            child->plies_left = 0; /* two passes in a row end the game */
        return 1;
    }
    bits own, opp, captured;
    if (!place_stone(n->own, n->opp, move, n->ko, &own, &opp, &captured))
        return 0;
    child->own = opp;
    child->opp = own;
    child->passed = 0;
    child->ko = ko_ban_after(move, captured, own, opp);
    return 1;
}

/* The last ply, as `at_least` answers (a bound on the value, at least `t` when the mover
 * reaches `t`): can the mover gain `t - diff` stones (a placement plus its captures; passing
 * gains 0)? A point next to another empty point is always legal. */
static int last_ply(const node_t *n, int t)
{
    int diff = node_diff(n), needed = t - diff;
    if (needed <= 0)
        return diff;
    bits empty = FULL_BOARD & ~(n->own | n->opp);
    bits candidates;
    if (needed == 1) {
        if (empty & neighbours_of(empty))
            return diff + 1;
        candidates = empty;
    } else {
        if (needed > 1 + popcount(n->opp))
            return diff + 1 + popcount(n->opp); /* a placement gains its stone and captures */
        candidates = empty & neighbours_of(n->opp);
    }
    placements_t pl;
    placements_init(&pl, n->own, n->opp);
    while (candidates) {
        int point = lowest_point(candidates);
        candidates &= candidates - 1;
        bits own, opp, captured;
        if (placement(&pl, point, n->ko, &own, &opp, &captured)
            && 1 + popcount(captured) >= needed)
            return diff + 1 + popcount(captured);
    }
    return t - 1;
}

/* Whether the chains of `stones` with at most `moves` liberties hold at least `wanted` stones
 * (all the other side can capture in `moves` placements while the side of `stones` passes). */
static int capturable_reaches(bits stones, bits empty, int moves, int wanted)
{
    if (moves < 4) /* chains with a stone of more liberties than moves cannot be taken */
        stones &= ~chain_of(stones, with_empty_neighbours(stones, empty, moves + 1));
    while (wanted > 0 && popcount(stones) >= wanted) { /* else too few stones are left */
        bits chain = chain_of(stones, stones & -stones);
        stones &= ~chain;
        if (popcount(neighbours_of(chain) & empty) <= moves)
            wanted -= popcount(chain);
    }
    return wanted <= 0;
}

/* 1 or 0 when bounds on the value decide whether the mover reaches `t`, -1 when they do not.
 * Against an opponent who only passes, the mover gains at most a stone a placement and the
 * opponent's chains it can capture; a mover who only passes loses at most as much to the
 * opponent. Either side may always pass, so the value lies between the two. */
static int bounded(const node_t *n, int t)
{
    if (n->plies_left > BOUNDS_MAX_PLIES)
        return -1;
    int diff = node_diff(n);
    int mover_moves = (n->plies_left + 1) / 2, opponent_moves = n->plies_left / 2;
    bits empty = FULL_BOARD & ~(n->own | n->opp);
    if (diff + mover_moves < t
        && !capturable_reaches(n->opp, empty, mover_moves, t - diff - mover_moves))
        return 0;
    if (diff - opponent_moves >= t
        && !capturable_reaches(n->own, empty, opponent_moves, diff - opponent_moves - t + 1))
        return 1;
    return -1;
}

static void refuted_by(search_t *s, int move, int plies_left)
{
    s->killer[plies_left] = move;
    s->history[move] += HISTORY_WEIGHT[plies_left];
    if (s->history[move] >> HISTORY_BITS)
        for (int m = 0; m < NUM_MOVES; m++)
            s->history[m] >>= 1;
}

static int raise_to(int bound, int value) { return value > bound ? value : bound; }

static int search_work(uint64_t nodes)
{
    return nodes ? 64 - __builtin_clzll(nodes) : 0;
}

/* The entry of `key` in the cache of latest stores. */
static int recent_slot(uint64_t key)
{
    return (int)(key * HASH_MULTIPLIER >> (64 - RECENT_BITS));
}

/* 1 and the bounds the cache of latest stores keeps for `key` in `found` (no move), or 0 when
 * it keeps none: `table_probe` of the cache. */
static int recent_probe(const search_t *s, uint64_t key, entry_t *found)
{
    const recent_t *r = &s->recent;
    int i = recent_slot(key);
    if (r->key[i] != key)
        return 0;
    found->lower = r->lower[i];
    found->upper = r->upper[i];
    found->best = NO_MOVE;
    return 1;
}

/* What a store keeps, kept in the cache of latest stores too, tightened by what its entry
 * there knows of the same node. */
static void remember_recent(search_t *s, uint64_t key, int lower, int upper)
{
    recent_t *r = &s->recent;
    int i = recent_slot(key);
    if (r->key[i] == key) {
        lower = raise_to(lower, r->lower[i]);
        upper = upper < r->upper[i] ? upper : r->upper[i];
    }
    r->key[i] = key;
    r->lower[i] = (signed char)lower;
    r->upper[i] = (signed char)upper;
}

/* Whether the placement at `point` (without a capture; `own`: the mover's stones after it)
 * leaves its chain one liberty at most. */
static int self_atari(const placements_t *pl, int point, bits own)
{
    bits empty = pl->empty & ~(1u << point); /* nothing was captured */
    bits around = NEIGHBOURS[point] & empty;
    if (around & (around - 1))
        return 0; /* two empty neighbours stay liberties */
    if (!(NEIGHBOURS[point] & pl->own))
        return 1; /* a lone stone */
    bits liberties = neighbours_of(chain_of(own, 1u << point)) & empty;
    return !(liberties & (liberties - 1));
}

/* The legal placements of `n`, each with its child node and its order of tries (the pass is
 * tried last, apart), without those whose bounds show the child won for its mover (then
 * `upper`, the node's upper bound so far, rises to what that shows: 1 below the node's
 * threshold). Stops at the first child the bounds show lost for its mover (the node's proof):
 * its index in `refuting`, else -1, and in `proven` the bound on the node that shows. With
 * `probe`, each child's table key is computed and its bucket prefetched; value questions ask
 * the cache of latest stores first, and what it knows of a child counts as the bounds do
 * (without a prefetch). */
static int children_of(search_t *s, const node_t *n, int probe, int child_threshold,
                       child_t *children, int *refuting, int *proven, int *upper)
{
    *refuting = -1;
    *proven = 1 - child_threshold; /* the node's threshold */
    int count = 0;
    int killer = s->killer[n->plies_left];
    placements_t pl;
    placements_init(&pl, n->own, n->opp);
    /* The node's images, when its children's keys come from them (`child_key`). */
    int symmetric = probe && n->plies_left - 1 >= symmetry_from(s);
    pair_images images;
    if (symmetric)
        symmetric_images(pair_of(n->own, n->opp), &images);
    for (bits left = pl.empty; left; left &= left - 1) {
        int point = lowest_point(left);
        child_t *c = children + count;
        bits own, opp, captured;
        if (!placement(&pl, point, n->ko, &own, &opp, &captured))
            continue;
        c->move = point;
        c->node.own = opp;
        c->node.opp = own;
        c->node.plies_left = n->plies_left - 1;
        c->node.passed = 0;
        c->node.ko = ko_ban_after(point, captured, own, opp);
        int known = bounded(&c->node, child_threshold);
        if (known == 0) {
            *refuting = count;
            return count + 1;
        }
        if (known == 1) {
            *upper = raise_to(*upper, -child_threshold); /* the opponent reaches its threshold */
            continue;
        }
        if (probe) {
            c->key = symmetric ? child_key(&c->node, &images, point, captured, &c->symmetry)
                               : search_key(s, &c->node, &c->symmetry);
            entry_t e;
            if (s->value_order && recent_probe(s, c->key, &e)) {
                if (e.upper < child_threshold) {
                    *refuting = count;
                    *proven = -e.upper;
                    return count + 1;
                }
                if (e.lower >= child_threshold) {
                    *upper = raise_to(*upper, -e.lower);
                    continue;
                }
            }
            table_prefetch(&s->table, c->key);
        }
        int late = s->value_order && n->plies_left >= SELF_ATARI_MIN_PLIES && !captured
            && self_atari(&pl, point, own);
        c->order = (uint64_t)(point == killer && !late) << KILLER_SHIFT
            | (uint64_t)popcount(captured) << CAPTURE_SHIFT
            | (uint64_t)!late << NOT_SELF_ATARI_SHIFT | s->history[point];
        count++;
    }
    return count;
}

/* Bring the most promising of children[from..count) to `from` (a selection, not a sort: most
 * nodes are decided by their first try). */
static void select_next(child_t *children, int from, int count)
{
    int best = from;
    for (int i = from + 1; i < count; i++)
        if (children[i].order > children[best].order)
            best = i;
    if (best != from) {
        child_t c = children[from];
        children[from] = children[best];
        children[best] = c;
    }
}

/* After a try that failed: the untried child at the opponent's refutation of it (`point`, the
 * killer one ply down) moves above the history, below the captures. */
static void raise_key_point(child_t *children, int from, int count, int point)
{
    for (int i = from; i < count; i++)
        if (children[i].move == point)
            children[i].order |= (uint64_t)1 << KEY_POINT_SHIFT;
}

/* A child whose table entry shows it cannot reach `child_threshold` (its upper bound in
 * `child_upper`), or -1; children whose entries show they reach it are dropped from `children`
 * (and `count`), raising `upper`, the node's upper bound so far, to the least they leave. */
static int known_refutation(search_t *s, child_t *children, int *count, int child_threshold,
                            int *child_upper, int *upper)
{
    int kept = 0;
    for (int i = 0; i < *count; i++) {
        entry_t e;
        int found = table_probe(&s->table, children[i].key, &e);
        if (found && e.upper < child_threshold) {
            *child_upper = e.upper;
            return i;
        }
        if (!found || e.lower < child_threshold)
            children[kept++] = children[i];
        else
            *upper = raise_to(*upper, -e.lower);
    }
    *count = kept;
    return -1;
}

/* Keep what a finished search of this node showed (never after an abort: then nothing is
 * shown). `move` is in the node's own frame; the table holds it in the stored image's. */
static void remember(search_t *s, uint64_t key, int symmetry, int move, int lower, int upper,
                     uint64_t nodes_before)
{
    if (s->aborted || !key)
        return;
    if (s->value_order)
        remember_recent(s, key, lower, upper);
    table_store(&s->table, key, lower, upper,
                move == NO_MOVE ? NO_MOVE : SYMMETRIC_POINT[symmetry][move],
                search_work(s->nodes - nodes_before));
}

/* What `at_least` answers: a bound on the value of `n`. At least `t` when the mover reaches
 * `t`, and then the value is at least the bound; below `t` when it does not, and then the value
 * is at most the bound ("fail-soft": the bound is often tighter than `t` itself, and the table
 * keeps it, so a search of the same node at another threshold may need no search at all).
 * `probed`: the child of a node with enhanced cut-offs that `n` is (its key computed and its
 * bounds asked at `t` there), or NULL. After an abort the answer means nothing. */
static int at_least(search_t *s, const node_t *n, int t, const child_t *probed)
{
    int diff = node_diff(n);
    if (n->plies_left == 0)
        return diff;
    if (n->passed && diff >= t)
        return diff; /* passing ends the game, won */
    s->nodes++;
    if (!(s->nodes & CLOCK_CHECK_MASK) && s->deadline && clock() > s->deadline)
        s->aborted = 1;
    if (s->aborted)
        return t - 1;
    if (n->plies_left == 1)
        return last_ply(n, t);
    int known = probed ? -1 : bounded(n, t);
    if (known >= 0)
        return known ? t : t - 1;

    uint64_t key = 0;
    int symmetry = 0;
    uint64_t nodes_before = s->nodes;
    if (n->plies_left >= TABLE_MIN_PLIES) {
        if (probed) {
            key = probed->key;
            symmetry = probed->symmetry;
        } else {
            key = search_key(s, n, &symmetry);
        }
        entry_t e;
        if (table_probe(&s->table, key, &e)) {
            if (e.lower >= t)
                return e.lower;
            if (e.upper < t)
                return e.upper;
        }
    }
    child_t children[NUM_POINTS];
    int etc = n->plies_left >= ETC_MIN_PLIES;
    /* The node's upper bound if no move reaches `t`: the most any move is shown to leave it
     * (passing after a pass ends the game on the board). */
    int upper = n->passed ? diff : VALUE_MIN;
    int child_threshold = 1 - t, refuting, proven;
    int count = children_of(s, n, etc, child_threshold, children, &refuting, &proven, &upper);
    if (refuting >= 0) {
        remember(s, key, symmetry, children[refuting].move, proven, VALUE_MAX, nodes_before);
        return proven;
    }
    if (etc) {
        int child_upper;
        int i = known_refutation(s, children, &count, child_threshold, &child_upper, &upper);
        if (i >= 0) {
            remember(s, key, symmetry, children[i].move, -child_upper, VALUE_MAX, nodes_before);
            return -child_upper;
        }
    }
    for (int i = 0; i < count; i++) {
        select_next(children, i, count);
        const child_t *probed = etc ? children + i : NULL;
        int child = at_least(s, &children[i].node, child_threshold, probed);
        if (s->aborted)
            return t - 1;
        if (child < child_threshold) {
            refuted_by(s, children[i].move, n->plies_left);
            remember(s, key, symmetry, children[i].move, -child, VALUE_MAX, nodes_before);
            return -child;
        }
        upper = raise_to(upper, -child);
        if (s->value_order)
            raise_key_point(children, i + 1, count, s->killer[n->plies_left - 1]);
    }
    if (!n->passed) {
        node_t after_pass;
        search_child(n, PASS, &after_pass);
        int child = at_least(s, &after_pass, child_threshold, NULL);
        if (s->aborted)
            return t - 1;
        if (child < child_threshold) {
            remember(s, key, symmetry, PASS, -child, VALUE_MAX, nodes_before);
            return -child;
        }
        upper = raise_to(upper, -child);
    }
    remember(s, key, symmetry, NO_MOVE, VALUE_MIN, upper, nodes_before);
    return upper;
}

int search_winning_move(search_t *s, const node_t *n, int threshold)
{
    if (n->passed && node_diff(n) >= threshold)
        return PASS; /* passing ends the game, won */
    if (n->plies_left < TABLE_MIN_PLIES)
        return NO_MOVE;
    int symmetry;
    entry_t e;
    if (!table_probe(&s->table, search_key(s, n, &symmetry), &e) || e.lower < threshold
        || e.best == NO_MOVE)
        return NO_MOVE;
    return SYMMETRIC_POINT[INVERSE_SYMMETRY[symmetry]][e.best];
}

int search_at_least(search_t *s, const node_t *n, int threshold)
{
    s->aborted = 0;
    int result = at_least(s, n, threshold, NULL) >= threshold;
    return s->aborted ? SEARCH_ABORTED : result;
}

int search_value(search_t *s, const node_t *n, int guess, int *value)
{
    /* The first test at the guess, then away from it while the answers agree: a stone at a
     * time for STEPS_OF_ONE tests (MTD(f)), then doubling steps; bisections of the bounds once
     * an answer turned. A test near the value costs many times one far from it: from a guess
     * near the value this asks two or three tests, all needed, where the bisection from the
     * bounds asked five or six (docs/value.md); from a far guess, a few more than it. */
    int low = VALUE_MIN, high = VALUE_MAX;
    int t = guess <= low ? low + 1 : guess > high ? high : guess;
    int direction = 0; /* 1: rising from the guess, -1: falling, 0: bracketed (or none yet) */
    s->aborted = 0;
    for (int tests = 1; low < high; tests++) {
        int bound = at_least(s, n, t, NULL);
        if (s->aborted)
            return SEARCH_ABORTED;
        int way = bound >= t ? 1 : -1;
        if (way > 0)
            low = bound;
        else
            high = bound;
        if (tests == 1)
            direction = way;
        else if (direction != way)
            direction = 0;
        int step = tests <= STEPS_OF_ONE ? 1 : 1 << (tests - STEPS_OF_ONE);
        if (direction > 0)
            t = low + step < high ? low + step : high;
        else if (direction < 0)
            t = high + 1 - step > low ? high + 1 - step : low + 1;
        else
            t = low + (high - low + 1) / 2;
    }
    *value = low;
    return 1;
}
