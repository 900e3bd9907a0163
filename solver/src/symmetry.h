/* symmetry.h: the 8 symmetries of the 5x5 board (go_board.SYMMETRIC_POINT's numbering: bit 2
 * transposes, bit 1 flips the rows, bit 0 flips the columns, applied in that order). The
 * transposition table stores a node under the smallest of its 8 images (search.c). */
#ifndef LITTLEGO_SYMMETRY_H
#define LITTLEGO_SYMMETRY_H

#include "rules.h"

#define NUM_SYMMETRIES 8

extern int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];

void symmetry_init(void);

/* The image of a board under symmetry `s`. */
bits transform_bits(bits b, int s);

#endif
