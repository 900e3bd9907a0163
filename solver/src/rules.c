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
    bits taken = 0;
    bits candidates = NEIGHBOURS[point] & opp;
    while (candidates) {
        bits stone = candidates & -candidates;
        if (NEIGHBOURS[lowest_point(stone)] & empty_after) {
            candidates &= ~stone; /* a liberty of its own: its chain stays (no flood fill) */
            continue;
        }
        bits chain = chain_of(opp, stone);
        if (!(dilate(chain) & empty_after))
            taken |= chain;
        candidates &= ~chain;
    }
    if (taken) {
        if (point == ko && !(taken & (taken - 1)))
            return 0; /* the retake would recreate the previous board */
    } else if (!(NEIGHBOURS[point] & empty_after)
               && !(dilate(chain_of(own, bit)) & empty_after)) {
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
