/* search.h: the exact search: can the side to move end the game at least `threshold` stones
 * ahead (own - opponent on the final board)?
 *
 * Reading guide: start at `search_at_least` (search.c), a boolean alpha-beta ("null window")
 * search over nodes `node_t`, with the transposition table of table.h under the 8 symmetries,
 * enhanced transposition cut-offs, a killer move per depth and a history of refutations for
 * move ordering (value questions add the opponent's key point after a failed try and put
 * self-ataris late, and ask a cache of their latest stores before the table). The win/loss
 * question is one threshold (komi decides which: the binding passes it); exact values come
 * from several thresholds sharing the table (`search_value`).
 */
#ifndef LITTLEGO_SEARCH_H
#define LITTLEGO_SEARCH_H

#include <time.h>

#include "rules.h"
#include "table.h"

/* A node: boards seen from the side to move, plies still to play (the game ends at 0), whether
 * the last action was a pass (a pass now ends the game), and the point simple ko bans. */
typedef struct {
    bits own, opp;
    int plies_left;
    int passed;
    int ko;
} node_t;

/* The latest stores of the value questions, in a cache small enough to stay near the CPU
 * (2**RECENT_BITS entries of a key and its bounds, direct-mapped; search.c, `children_of`). */
#define RECENT_BITS 12
#define RECENT_SIZE (1 << RECENT_BITS)

typedef struct {
    uint64_t key[RECENT_SIZE]; /* 0: an empty entry (no key is 0) */
    signed char lower[RECENT_SIZE], upper[RECENT_SIZE];
} recent_t;

typedef struct {
    table_t table;
    recent_t recent;
    uint64_t history[NUM_MOVES];
    int killer[MAX_PLY + 2];
    uint64_t nodes;
    clock_t deadline; /* process CPU clock; 0: none */
    int aborted;      /* the deadline passed: nothing found since is proven */
    /* Nodes with at least this many plies left are stored canonically (under their smallest
     * image): in win/loss questions, and in value questions (value_order set). */
    int symmetry_from, value_symmetry_from;
    int value_order; /* the value questions' order (search.c): 0 by default */
} search_t;

/* The extremes of a final stone difference. */
#define VALUE_MIN (-NUM_POINTS)
#define VALUE_MAX NUM_POINTS

/* Results of search_at_least besides 0 and 1. */
#define SEARCH_ABORTED (-1)

int search_init(search_t *s, int table_bits);
void search_free(search_t *s);

/* 1 when the mover of `n` can end at least `threshold` stones ahead, 0 when not,
 * SEARCH_ABORTED when the deadline passed first. */
int search_at_least(search_t *s, const node_t *n, int threshold);

/* The exact value of `n` (the mover's final stone difference under perfect play, within
 * VALUE_MIN..VALUE_MAX) into `value`, and 1; SEARCH_ABORTED when the deadline passed first.
 * Threshold tests that share the table, the first at `guess` (a threshold already proven costs
 * nothing), then away from it a stone at a time, then in doubling steps, then bisections of
 * the bounds the tests showed: the nearer the guess, the fewer tests. */
int search_value(search_t *s, const node_t *n, int guess, int *value);

/* After search_at_least answered 1 for `n`: the winning move, the one that proved it (a point
 * or PASS), as the table remembers it, or NO_MOVE when the table kept nothing (nodes near the
 * end). */
int search_winning_move(search_t *s, const node_t *n, int threshold);

/* The child node after `move` (a point or PASS); 0 when the move is illegal. */
int search_child(const node_t *n, int move, node_t *child);

/* The final stone difference of `n` (own - opponent) if the game ended now. */
static inline int node_diff(const node_t *n) { return popcount(n->own) - popcount(n->opp); }

#endif
