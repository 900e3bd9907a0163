/* symmetry.h: the 8 symmetries of the 5x5 board (go_board.SYMMETRIC_POINT's numbering: bit 2
 * transposes, bit 1 flips the rows, bit 0 flips the columns, applied in that order). The
 * transposition table stores a node under the smallest of its 8 images (search.c).
 *
 * Reading guide: start at `symmetric_images`. Both boards of a node travel in one 64-bit word
 * (`board_pair`), and each symmetry is a few masked shifts of that word, so the 8 images of both
 * boards cost one transpose and six flips.
 */
#ifndef LITTLEGO_SYMMETRY_H
#define LITTLEGO_SYMMETRY_H

#include "rules.h"

#define NUM_SYMMETRIES 8
#define PAIR_SHIFT 32 /* the second board of a pair starts here */

extern int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];

/* Two boards in one word: `first` in bits 0..24, `second` from PAIR_SHIFT. */
typedef uint64_t board_pair;

void symmetry_init(void);

static inline board_pair pair_of(bits first, bits second)
{
    return (board_pair)first | (board_pair)second << PAIR_SHIFT;
}

static inline bits first_of(board_pair pair) { return (bits)pair & FULL_BOARD; }
static inline bits second_of(board_pair pair) { return (bits)(pair >> PAIR_SHIFT); }

/* The images of both boards of `pair` under every symmetry (`images[s]`: under symmetry s). */
void symmetric_images(board_pair pair, board_pair images[NUM_SYMMETRIES]);

#endif
