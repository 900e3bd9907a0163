/* symmetry.c: see symmetry.h. A flip exchanges rows (or columns) pairwise by masked shifts; the
 * transpose moves each diagonal c - r = d by 4d points. Shifts never carry a bit between the
 * two boards of a pair: every term is masked to one board's 25 points, in both halves. */
#include "symmetry.h"

#define IN_BOTH(mask) ((board_pair)(mask) | (board_pair)(mask) << PAIR_SHIFT)
#define TRANSPOSE_STEP (SIZE - 1) /* (r, c) -> (c, r) moves a point by 4 (c - r) */

int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];
static board_pair COLUMN[SIZE], ROW[SIZE], DIAGONAL[2 * SIZE - 1]; /* DIAGONAL[d + 4]: c - r = d */

static int symmetric_point(int point, int s)
{
    int row = point / SIZE, col = point % SIZE;
    if (s & 4) {
        int t = row;
        row = col;
        col = t;
    }
    if (s & 2)
        row = SIZE - 1 - row;
    if (s & 1)
        col = SIZE - 1 - col;
    return row * SIZE + col;
}

void symmetry_init(void)
{
    for (int s = 0; s < NUM_SYMMETRIES; s++) {
        for (int p = 0; p < NUM_POINTS; p++)
            SYMMETRIC_POINT[s][p] = symmetric_point(p, s);
        SYMMETRIC_POINT[s][PASS] = PASS;
    }
    for (int p = 0; p < NUM_POINTS; p++) {
        int row = p / SIZE, col = p % SIZE;
        COLUMN[col] |= IN_BOTH(1u << p);
        ROW[row] |= IN_BOTH(1u << p);
        DIAGONAL[col - row + SIZE - 1] |= IN_BOTH(1u << p);
    }
}

/* Column c and column SIZE - 1 - c swap places (the middle column stays). */
static board_pair flip_columns(board_pair b)
{
    board_pair image = b & COLUMN[SIZE / 2];
    for (int c = 0; c < SIZE / 2; c++) {
        int shift = SIZE - 1 - 2 * c;
        image |= (b & COLUMN[c]) << shift | (b >> shift & COLUMN[c]);
    }
    return image;
}

/* Row r and row SIZE - 1 - r swap places (the middle row stays). */
static board_pair flip_rows(board_pair b)
{
    board_pair image = b & ROW[SIZE / 2];
    for (int r = 0; r < SIZE / 2; r++) {
        int shift = (SIZE - 1 - 2 * r) * SIZE;
        image |= (b & ROW[r]) << shift | (b >> shift & ROW[r]);
    }
    return image;
}

static board_pair transpose(board_pair b)
{
    board_pair image = b & DIAGONAL[SIZE - 1];
    for (int d = 1; d < SIZE; d++)
        image |= (b & DIAGONAL[SIZE - 1 + d]) << TRANSPOSE_STEP * d
            | (b & DIAGONAL[SIZE - 1 - d]) >> TRANSPOSE_STEP * d;
    return image;
}

void symmetric_images(board_pair pair, board_pair images[NUM_SYMMETRIES])
{
    images[0] = pair;
    images[4] = transpose(pair);
    for (int t = 0; t < NUM_SYMMETRIES; t += 4) {
        images[t + 1] = flip_columns(images[t]);
        images[t + 2] = flip_rows(images[t]);
        images[t + 3] = flip_columns(images[t + 2]);
    }
}
