/* symmetry.c: see symmetry.h. A board's image is the OR of one table lookup per row. */
#include "symmetry.h"

int SYMMETRIC_POINT[NUM_SYMMETRIES][NUM_MOVES];
static bits ROW_IMAGE[NUM_SYMMETRIES][SIZE][1 << SIZE];

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
        SYMMETRIC_POINT[s][PASS_MOVE] = PASS_MOVE;
        for (int row = 0; row < SIZE; row++)
            for (int row_bits = 0; row_bits < (1 << SIZE); row_bits++) {
                bits image = 0;
                for (int col = 0; col < SIZE; col++)
                    if (row_bits >> col & 1)
                        image |= 1u << SYMMETRIC_POINT[s][row * SIZE + col];
                ROW_IMAGE[s][row][row_bits] = image;
            }
    }
}

bits transform_bits(bits b, int s)
{
    bits image = 0;
    for (int row = 0; row < SIZE; row++, b >>= SIZE)
        image |= ROW_IMAGE[s][row][b & ((1u << SIZE) - 1)];
    return image;
}
