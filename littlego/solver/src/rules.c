/* rules.c: see rules.h. Flood fills are bit-parallel (rules.h's chain_of). */
#include "rules.h"

bits NEIGHBOURS[NUM_POINTS];

void rules_init(void)
{
    for (int p = 0; p < NUM_POINTS; p++)
        NEIGHBOURS[p] = dilate(1u << p) ^ (1u << p);
}

int place_stone(bits own, bits opp, int point, int ko, bits *new_own, bits *new_opp,
                bits *captured)
{
    placements_t pl;
    placements_init(&pl, own, opp);
    return placement(&pl, point, ko, new_own, new_opp, captured);
}

int ko_ban_after(int point, bits captured, bits new_own, bits new_opp)
{
    if (!captured || (captured & (captured - 1)))
        return NO_KO;
    if (NEIGHBOURS[point] & new_own)
        return NO_KO;
    bits empty = FULL_BOARD & ~(new_own | new_opp);
    if ((NEIGHBOURS[point] & empty) != captured)
        return NO_KO;
    return lowest_point(captured);
}

void placements_init(placements_t *pl, bits own, bits opp)
{
    bits empty = FULL_BOARD & ~(own | opp);
    pl->own = own;
    pl->opp = opp;
    pl->empty = empty;
    pl->captures_somewhere = 0;
    /* A chain holding a stone with two empty neighbours has two liberties or more: one flood
     * fill per side settles all those (own ones breathe, opponent ones cannot be captured), and
     * only the rest are looked at chain by chain. */
    pl->breathing = chain_of(own, with_empty_neighbours(own, empty, 2));
    bits safe = chain_of(opp, with_empty_neighbours(opp, empty, 2));
    for (bits left = (own & ~pl->breathing) | (opp & ~safe); left;) {
        bits seed = left & -left;
        bits chain = chain_of(seed & opp ? opp : own, seed);
        left &= ~chain;
        bits liberties = neighbours_of(chain) & empty;
        int one_liberty = !(liberties & (liberties - 1));
        if (seed & own) {
            if (!one_liberty)
                pl->breathing |= chain;
        } else if (one_liberty) {
            int point = lowest_point(liberties);
            if (pl->captures_somewhere & liberties)
                pl->capture_at[point] |= chain;
            else
                pl->capture_at[point] = chain;
            pl->captures_somewhere |= liberties;
        }
    }
}
