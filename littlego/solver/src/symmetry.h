/* symmetry.h: the 8 symmetries of the 5x5 board (go_board.SYMMETRIC_POINT's numbering: bit 2
 * transposes, bit 1 flips the rows, bit 0 flips the columns, applied in that order). The
 * transposition table stores a node under the smallest of its 8 images (search.c).
 *
 * Reading guide: start at `symmetric_images`. Both boards of a node travel in one 64-bit word
 * (`board_pair`, rules.h), and each symmetry is a few masked shifts of that word; the 8 images
 * are made side by side in the lanes of one vector (`pair_images`), so they cost one transpose
 * and two flips.
 */
#ifndef LITTLEGO_SYMMETRY_H
#define LITTLEGO_SYMMETRY_H

#include "rules.h"

#define NUM_SYMMETRIES 8

extern int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];

/* A pair's images under every symmetry, one a lane (lane s: under symmetry s): a vector of the
 * compiler's (GCC's and Clang's vector extensions), so each step below acts on all 8 at once,
 * in one instruction where the CPU has 512-bit registers. Passed by address: by value, the
 * calling convention for such vectors differs between CPUs. */
typedef board_pair pair_images __attribute__((vector_size(NUM_SYMMETRIES * sizeof(board_pair))));

void symmetry_init(void);

/* The images of both boards of `pair` under every symmetry, into `images`. */
void symmetric_images(board_pair pair, pair_images *images);

#endif
