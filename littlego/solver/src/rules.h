/* rules.h: Little-Go's rules on 25-bit boards, for the exact search.
 *
 * Reading guide: start at `placement`, the one function that decides legality and captures
 * (for every point of a board, from one pass over its chains by `placements_init`; `place_stone`
 * asks it for one point), then `ko_ban_after`. The rules are docs/rules.md;
 * go_board.py is the Python twin these are tested against through the binding
 * (tests/test_solver.py).
 *
 * Vocabulary (as in go_board.py): a point is 0..24, row * 5 + col, row 0 at the top; a board is
 * a bit set of points (`bits`); own/opp are the side to move's and the opponent's stones.
 * Simple ko is kept as a banned point: after a capture of one stone by a lone stone whose only
 * liberty is the captured point, retaking at once would recreate the previous board, so a
 * placement there that captures exactly one stone is illegal. Nothing else can repeat the
 * previous board (a placement adds one stone and only removes opponent stones).
 */
#ifndef LITTLEGO_RULES_H
#define LITTLEGO_RULES_H

#include <stdint.h>

#define SIZE 5
#define NUM_POINTS (SIZE * SIZE)
#define PASS NUM_POINTS /* go_board.PASS */
#define NUM_MOVES (NUM_POINTS + 1)
#define MAX_PLY (NUM_POINTS - 1)
#define FULL_BOARD ((1u << NUM_POINTS) - 1u)
#define NO_KO (-1)

typedef uint32_t bits;

extern bits NEIGHBOURS[NUM_POINTS];

void rules_init(void);

static inline int popcount(bits b) { return __builtin_popcount(b); }
static inline int lowest_point(bits b) { return __builtin_ctz(b); }

#define LEFT_COLUMN 0x108421u /* points 0, 5, 10, 15, 20 */
#define RIGHT_COLUMN (LEFT_COLUMN << (SIZE - 1))

/* The points whose left (right, upper, lower) neighbour is a point of `b`. */
static inline bits left_in(bits b) { return (b << 1) & ~LEFT_COLUMN & FULL_BOARD; }
static inline bits right_in(bits b) { return (b >> 1) & ~RIGHT_COLUMN; }
static inline bits upper_in(bits b) { return (b << SIZE) & FULL_BOARD; }
static inline bits lower_in(bits b) { return b >> SIZE; }

/* Every point orthogonally adjacent to a point of `b` (points of `b` only where they touch). */
static inline bits neighbours_of(bits b)
{
    return left_in(b) | right_in(b) | upper_in(b) | lower_in(b);
}

/* The points of `stones` with at least `wanted` (1..4) points of `empty` next to them: the
 * four neighbour planes (`left_in` and its kin) added bit by bit. A chain holding such a stone
 * has that many liberties at least, so one flood fill from all of them (`chain_of`) settles
 * those chains together. */
static inline bits with_empty_neighbours(bits stones, bits empty, int wanted)
{
    bits left = left_in(empty), right = right_in(empty), up = upper_in(empty);
    bits down = lower_in(empty);
    bits found;
    switch (wanted) {
    case 1:
        found = left | right | up | down;
        break;
    case 2:
        found = (left & right) | (up & down) | ((left | right) & (up | down));
        break;
    case 3:
        found = (left & right & (up | down)) | (up & down & (left | right));
        break;
    default:
        found = left & right & up & down;
    }
    return stones & found;
}

/* Two boards in one word: `first` in bits 0..24, `second` from PAIR_SHIFT. A flood fill (below)
 * or a symmetry (symmetry.h) of both costs what one of one does. */
typedef uint64_t board_pair;
#define PAIR_SHIFT 32

static inline board_pair pair_of(bits first, bits second)
{
    return (board_pair)first | (board_pair)second << PAIR_SHIFT;
}

static inline bits first_of(board_pair pair) { return (bits)pair; }
static inline bits second_of(board_pair pair) { return (bits)(pair >> PAIR_SHIFT); }

/* `chain_of` on both boards of a pair at once. A shift moves a stone of one board off its 25
 * points only onto bits that hold no stone (25..31, or past either end), so only the wrap
 * between columns is masked: the `& stones` drops the rest. */
static inline board_pair pair_chain_of(board_pair stones, board_pair seeds)
{
    const board_pair left_edge = pair_of(LEFT_COLUMN, LEFT_COLUMN);
    const board_pair right_edge = pair_of(RIGHT_COLUMN, RIGHT_COLUMN);
    board_pair chain = seeds;
    for (;;) {
        board_pair grown = (chain | (chain << 1 & ~left_edge) | (chain >> 1 & ~right_edge)
                            | chain << SIZE | chain >> SIZE) & stones;
        if (grown == chain)
            return chain;
        chain = grown;
    }
}

/* The chains of `stones` that hold a stone of `seeds` (one bit: the chain of that stone). */
static inline bits chain_of(bits stones, bits seeds)
{
    return first_of(pair_chain_of(stones, seeds));
}

/* Every placement of the side `own` at once: what each would capture and where a placement
 * without a capture would be suicide, found by one pass over the chains (the search makes every
 * child of a node from it). */
typedef struct {
    bits own, opp, empty;
    bits captures_somewhere; /* the last liberties of opponent chains */
    bits capture_at[NUM_POINTS]; /* there: the chains a placement takes (elsewhere: unset) */
    bits breathing; /* own chains of two liberties or more (one placement leaves one) */
} placements_t;

void placements_init(placements_t *pl, bits own, bits opp);

/* Play `point` from `pl`: 1 and the boards after the captures when legal (`captured`: the
 * opponent stones removed), 0 when the referee refuses it (occupied, suicide, or the banned ko
 * point `ko` retaken by a single capture). */
static inline int placement(const placements_t *pl, int point, int ko, bits *new_own,
                            bits *new_opp, bits *captured)
{
    bits bit = 1u << point;
    if (!(pl->empty & bit))
        return 0;
    bits taken = 0;
    if (pl->captures_somewhere & bit) {
        taken = pl->capture_at[point];
        if (point == ko && !(taken & (taken - 1)))
            return 0; /* the retake would recreate the previous board */
    } else if (!(NEIGHBOURS[point] & (pl->empty | pl->breathing))) {
        return 0; /* suicide */
    }
    *new_own = pl->own | bit;
    *new_opp = pl->opp & ~taken;
    *captured = taken;
    return 1;
}

/* `placement` of `point` for the side `own` (a pass over the chains for one point: where every
 * point is tried, placements_init once and `placement` for each). */
int place_stone(bits own, bits opp, int point, int ko, bits *new_own, bits *new_opp,
                bits *captured);

/* The point the opponent may not retake at once after `own` played `point` capturing
 * `captured` (boards after the move), or NO_KO. */
int ko_ban_after(int point, bits captured, bits new_own, bits new_opp);

#endif
