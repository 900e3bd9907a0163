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
    bits bit = 1u << point;
    if ((own | opp) & bit)
        return 0;
    bits empty_after = FULL_BOARD & ~(own | opp | bit);
    own |= bit;
    bits next_to_empty = neighbours_of(empty_after);
    bits taken = 0;
    bits suspects = NEIGHBOURS[point] & opp & ~next_to_empty; /* no liberty of their own */
    if (suspects) {
        bits chains = chain_of(opp, suspects);
        taken = chains & ~chain_of(chains, chains & next_to_empty);
    }
    if (taken) {
        if (point == ko && !(taken & (taken - 1)))
            return 0; /* the retake would recreate the previous board */
    } else if (!(next_to_empty & bit) && !(chain_of(own, bit) & next_to_empty)) {
        return 0; /* suicide: captures are tested first, as the referee does */
    }
    *new_own = own;
    *new_opp = opp & ~taken;
    *captured = taken;
    return 1;
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
    pl->breathing = 0;
    for (bits left = own | opp; left;) {
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
