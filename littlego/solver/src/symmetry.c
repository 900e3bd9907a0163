/* symmetry.c: see symmetry.h. A flip exchanges rows (or columns) pairwise by masked shifts; the
 * transpose moves each diagonal c - r = d by 4d points. Shifts never carry a bit between the
 * two boards of a pair: every term is masked to one board's 25 points, in both halves. */
#include "symmetry.h"

#define TRANSPOSE_STEP (SIZE - 1) /* (r, c) -> (c, r) moves a point by 4 (c - r) */
#define TRANSPOSES 4 /* the bits of a symmetry's number (symmetry.h) */
#define FLIPS_ROWS 2
#define FLIPS_COLUMNS 1

int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];
static pair_images LANES_WITH[TRANSPOSES + 1]; /* [bit]: all ones in the lanes s with s & bit */
static board_pair COLUMN[SIZE], ROW[SIZE], DIAGONAL[2 * SIZE - 1]; /* DIAGONAL[d + 4]: c - r = d */

static int symmetric_point(int point, int s)
{
    int row = point / SIZE, col = point % SIZE;
    if (s & TRANSPOSES) {
        int t = row;
        row = col;
        col = t;
    }
    if (s & FLIPS_ROWS)
        row = SIZE - 1 - row;
    if (s & FLIPS_COLUMNS)
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
        COLUMN[col] |= pair_of(1u << p, 1u << p);
        ROW[row] |= pair_of(1u << p, 1u << p);
        DIAGONAL[col - row + SIZE - 1] |= pair_of(1u << p, 1u << p);
    }
    for (int bit = FLIPS_COLUMNS; bit <= TRANSPOSES; bit <<= 1)
        for (int s = 0; s < NUM_SYMMETRIES; s++)
            LANES_WITH[bit][s] = s & bit ? ~(board_pair)0 : 0;
}

/* Column c and column SIZE - 1 - c swap places (the middle column stays), in every lane. */
static void flip_columns(const pair_images *b, pair_images *image)
{
    *image = *b & COLUMN[SIZE / 2];
    for (int c = 0; c < SIZE / 2; c++) {
        int shift = SIZE - 1 - 2 * c;
        *image |= (*b & COLUMN[c]) << shift | (*b >> shift & COLUMN[c]);
    }
}

/* Row r and row SIZE - 1 - r swap places (the middle row stays), in every lane. */
static void flip_rows(const pair_images *b, pair_images *image)
{
    *image = *b & ROW[SIZE / 2];
    for (int r = 0; r < SIZE / 2; r++) {
        int shift = (SIZE - 1 - 2 * r) * SIZE;
        *image |= (*b & ROW[r]) << shift | (*b >> shift & ROW[r]);
    }
}

static void transpose(const pair_images *b, pair_images *image)
{
    *image = *b & DIAGONAL[SIZE - 1];
    for (int d = 1; d < SIZE; d++)
        *image |= (*b & DIAGONAL[SIZE - 1 + d]) << TRANSPOSE_STEP * d
            | (*b & DIAGONAL[SIZE - 1 - d]) >> TRANSPOSE_STEP * d;
}

/* `b` becomes `changed` in the lanes of the symmetries with `bit` (TRANSPOSES and its kin). */
static void keep_in_lanes(int bit, const pair_images *changed, pair_images *b)
{
    *b = (*changed & LANES_WITH[bit]) | (*b & ~LANES_WITH[bit]);
}

/* Every lane starts as the pair; the lanes of the symmetries that transpose are transposed,
 * then those that flip the rows flipped, then those that flip the columns. */
void symmetric_images(board_pair pair, pair_images *images)
{
    pair_images changed;
    *images = (pair_images){0} + pair;
    transpose(images, &changed);
    keep_in_lanes(TRANSPOSES, &changed, images);
    flip_rows(images, &changed);
    keep_in_lanes(FLIPS_ROWS, &changed, images);
    flip_columns(images, &changed);
    keep_in_lanes(FLIPS_COLUMNS, &changed, images);
}
