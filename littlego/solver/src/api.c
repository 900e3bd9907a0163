/* api.c: the one door from Python (solver/__init__.py loads it with ctypes).
 *
 * A position arrives as go_board holds it: black and white stones, the previous board (simple
 * ko compares against it; equal boards mean a pass now ends the game) and the ply about to be
 * played. `move` is -1 for the position itself or a move (0..24, 25 = PASS) to judge the
 * position after it; a threshold is on the final stone difference (own - opponent) of the side
 * to move in the position given, so the binding, which owns the komi, asks "win" as one
 * threshold. Results: 1 yes, 0 no, LG_ABORTED (the CPU limit passed), LG_ILLEGAL; and
 * lg_winning_move's move, or LG_NO_WIN.
 */
#include <time.h>
#include <stdlib.h>

#include "search.h"

#define LG_ABORTED SEARCH_ABORTED
#define LG_ILLEGAL (-2)
#define LG_NO_WIN (-3)
#define LG_NOT_ROOT_MOVE (-1)
/* The library is built with hidden symbols (the Makefile): only these functions are the door. */
#define LG_EXPORT __attribute__((visibility("default")))

typedef search_t lg_solver;

LG_EXPORT lg_solver *lg_new(int log2_entries)
{
    lg_solver *s = malloc(sizeof *s);
    if (s && search_init(s, log2_entries)) {
        free(s);
        s = NULL;
    }
    return s;
}

LG_EXPORT void lg_free(lg_solver *s)
{
    if (s) {
        search_free(s);
        free(s);
    }
}

LG_EXPORT unsigned long long lg_nodes(const lg_solver *s) { return s->nodes; }

LG_EXPORT void lg_set_symmetry_from(lg_solver *s, int plies_left)
{
    s->use_symmetry_from = plies_left;
}

/* The node of a position (stones, previous board, ply). */
static node_t root_node(bits black, bits white, bits prev_black, bits prev_white, int ply)
{
    node_t n;
    int black_moves = ply & 1;
    n.own = black_moves ? black : white;
    n.opp = black_moves ? white : black;
    /* past the end: its parity still says who "moves" */
    n.plies_left = ply > MAX_PLY ? 0 : MAX_PLY + 1 - ply;
    n.passed = black == prev_black && white == prev_white;
    n.ko = NO_KO;
    bits prev_own = black_moves ? prev_black : prev_white;
    bits prev_opp = black_moves ? prev_white : prev_black;
    placements_t pl;
    placements_init(&pl, n.own, n.opp);
    for (bits left = pl.empty; left && !n.passed; left &= left - 1) {
        int point = lowest_point(left);
        bits own, opp, captured;
        if (placement(&pl, point, NO_KO, &own, &opp, &captured) && captured
            && own == prev_own && opp == prev_opp)
            n.ko = point; /* the placement that would recreate the previous board */
    }
    return n;
}

LG_EXPORT int lg_at_least(lg_solver *s, unsigned black, unsigned white, unsigned prev_black,
                          unsigned prev_white, int ply, int move, int threshold, double cpu_limit)
{
    s->deadline = cpu_limit > 0 ? clock() + (clock_t)(cpu_limit * CLOCKS_PER_SEC) : 0;
    node_t root = root_node(black, white, prev_black, prev_white, ply);
    if (move == LG_NOT_ROOT_MOVE)
        return search_at_least(s, &root, threshold);
    node_t child;
    if (root.plies_left == 0 || move < 0 || move > PASS_MOVE || !search_child(&root, move, &child))
        return LG_ILLEGAL;
    int result = search_at_least(s, &child, 1 - threshold);
    return result == LG_ABORTED ? LG_ABORTED : !result;
}

/* A move after which the side to move reaches `threshold` (the one the search proved it with:
 * the table's move, else the first in search order that does), LG_NO_WIN, or LG_ABORTED. */
LG_EXPORT int lg_winning_move(lg_solver *s, unsigned black, unsigned white,
                              unsigned prev_black, unsigned prev_white, int ply, int threshold,
                              double cpu_limit)
{
    s->deadline = cpu_limit > 0 ? clock() + (clock_t)(cpu_limit * CLOCKS_PER_SEC) : 0;
    node_t root = root_node(black, white, prev_black, prev_white, ply);
    if (root.plies_left == 0)
        return LG_NO_WIN;
    int result = search_at_least(s, &root, threshold);
    if (result != 1)
        return result == LG_ABORTED ? LG_ABORTED : LG_NO_WIN;
    /* The table's move as it is: the walk asks every node at its side's win threshold, so the
     * move stored there proved that threshold (the book's answers are proven again by its
     * check), and asking again would change the table the next answers are found with. */
    int move = search_proving_move(s, &root, threshold);
    if (move != NO_MOVE)
        return move;
    node_t child;
    for (move = 0; move <= PASS_MOVE; move++) {
        if (!search_child(&root, move, &child))
            continue;
        result = search_at_least(s, &child, 1 - threshold);
        if (result == LG_ABORTED)
            return LG_ABORTED;
        if (!result)
            return move;
    }
    return LG_NO_WIN; /* unreachable: the node was proven */
}
