/* rules.c: see rules.h. Flood fills are bit-parallel (rules.h's chain_of). */
#include "rules.h"

bits NEIGHBOURS[NUM_POINTS];

void rules_init(void)
{
    for (int p = 0; p < NUM_POINTS; p++)
        NEIGHBOURS[p] = neighbours_of(1u << p);
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
     * fill of both sides settles all those (own ones breathe, opponent ones cannot be
     * captured), and only the rest are looked at chain by chain, a chain of each side a fill. */
    board_pair stones = pair_of(own, opp);
    board_pair settled = pair_chain_of(stones, pair_of(with_empty_neighbours(own, empty, 2),
                                                       with_empty_neighbours(opp, empty, 2)));
    pl->breathing = first_of(settled);
    bits own_left = own & ~first_of(settled), opp_left = opp & ~second_of(settled);
    while (own_left | opp_left) {
        board_pair chains = pair_chain_of(stones, pair_of(own_left & -own_left,
                                                          opp_left & -opp_left));
        bits own_chain = first_of(chains), opp_chain = second_of(chains);
        own_left &= ~own_chain;
        opp_left &= ~opp_chain;
        bits own_liberties = neighbours_of(own_chain) & empty;
        if (own_liberties & (own_liberties - 1))
            pl->breathing |= own_chain;
        bits liberties = neighbours_of(opp_chain) & empty;
        if (opp_chain && !(liberties & (liberties - 1))) {
            int point = lowest_point(liberties);
            if (pl->captures_somewhere & liberties)
                pl->capture_at[point] |= opp_chain;
            else
                pl->capture_at[point] = opp_chain;
            pl->captures_somewhere |= liberties;
        }
    }
}
