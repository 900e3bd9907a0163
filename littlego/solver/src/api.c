/* api.c: the one door from Python (littlego/solver/__init__.py loads it with ctypes).
 *
 * A position arrives as go_board holds it: black and white stones, the previous board (simple
 * ko compares against it; equal boards mean a pass now ends the game) and the ply about to be
 * played. `move` is LG_NOT_A_MOVE for the position itself or a move (0..24, PASS) to judge the
 * position after it; a threshold is on the final stone difference (own - opponent) of the side
 * to move in the position given, so the binding, which owns the komi, asks "win" as one
 * threshold. The answers are api.h's codes, which the library exports as data (`lg_yes`, ...)
 * for the binding to read; the names on both sides of the door are the same words.
 */
#include <time.h>
#include <stdlib.h>

#include "api.h"
#include "search.h"

LG_EXPORT const int lg_yes = LG_YES;
LG_EXPORT const int lg_no = LG_NO;
LG_EXPORT const int lg_aborted = LG_ABORTED;
LG_EXPORT const int lg_illegal = LG_ILLEGAL;
LG_EXPORT const int lg_no_win = LG_NO_WIN;
LG_EXPORT const int lg_not_a_move = LG_NOT_A_MOVE;

typedef search_t lg_solver;

LG_EXPORT lg_solver *lg_new(int table_bits)
{
    lg_solver *s = malloc(sizeof *s);
    if (s && search_init(s, table_bits)) {
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

/* The memory a solver's table of 2**table_bits entries takes, in bytes. */
LG_EXPORT unsigned long long lg_table_bytes(int table_bits) { return table_bytes(table_bits); }

/* Nodes with at least `symmetry_from` plies left are stored under their smallest image, in
 * every question (each kind has its own default, search.c). */
LG_EXPORT void lg_set_symmetry_from(lg_solver *s, int symmetry_from)
{
    s->symmetry_from = s->value_symmetry_from = symmetry_from;
}

/* Whether searches take the value questions' order of tries (search.c: the opponent's key
 * point after a failed try, self-ataris late and never the killer) and their symmetric keys
 * from fewer plies left: the binding's value questions do, its win/loss questions do not (the
 * book's searches). */
LG_EXPORT void lg_set_value_order(lg_solver *s, int on) { s->value_order = on; }

/* The door's answer for a search's result (1, 0 or SEARCH_ABORTED). */
static int answer(int found)
{
    return found == SEARCH_ABORTED ? LG_ABORTED : found ? LG_YES : LG_NO;
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

/* The node to search for a question about a position (after `move`, unless LG_NOT_A_MOVE),
 * with the CPU limit set; 0 when the move is illegal. After a move the node is the opponent's:
 * its answers are turned round by the callers. */
static int question_node(lg_solver *s, unsigned black, unsigned white, unsigned prev_black,
                         unsigned prev_white, int ply, int move, double cpu_limit, node_t *n)
{
    s->deadline = cpu_limit > 0 ? clock() + (clock_t)(cpu_limit * CLOCKS_PER_SEC) : 0;
    node_t root = root_node(black, white, prev_black, prev_white, ply);
    if (move == LG_NOT_A_MOVE) {
        *n = root;
        return 1;
    }
    return root.plies_left > 0 && move >= 0 && move <= PASS && search_child(&root, move, n);
}

/* LG_YES when the side to move (after `move`, unless LG_NOT_A_MOVE) can end the game
 * `threshold` or more stones ahead, LG_NO when not; LG_ILLEGAL for a move the rules refuse,
 * LG_ABORTED when `cpu_limit` passed first. */
LG_EXPORT int lg_at_least(lg_solver *s, unsigned black, unsigned white, unsigned prev_black,
                          unsigned prev_white, int ply, int move, int threshold, double cpu_limit)
{
    node_t n;
    if (!question_node(s, black, white, prev_black, prev_white, ply, move, cpu_limit, &n))
        return LG_ILLEGAL;
    if (move == LG_NOT_A_MOVE)
        return answer(search_at_least(s, &n, threshold));
    int found = search_at_least(s, &n, 1 - threshold);
    return found == SEARCH_ABORTED ? LG_ABORTED : answer(!found);
}

/* LG_YES with the exact value in `value`: the final stone difference of the side to move
 * (after `move`, unless LG_NOT_A_MOVE) under perfect play, found by threshold tests starting
 * at `guess` (search_value); LG_ILLEGAL, LG_ABORTED as for lg_at_least. */
LG_EXPORT int lg_value(lg_solver *s, unsigned black, unsigned white, unsigned prev_black,
                       unsigned prev_white, int ply, int move, int guess, double cpu_limit,
                       int *value)
{
    node_t n;
    if (!question_node(s, black, white, prev_black, prev_white, ply, move, cpu_limit, &n))
        return LG_ILLEGAL;
    int turned = move != LG_NOT_A_MOVE;
    int found = search_value(s, &n, turned ? -guess : guess, value);
    if (found == SEARCH_ABORTED)
        return LG_ABORTED;
    if (turned)
        *value = -*value;
    return LG_YES;
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
    int found = search_at_least(s, &root, threshold);
    if (found != 1)
        return found == SEARCH_ABORTED ? LG_ABORTED : LG_NO_WIN;
    /* The table's move as it is: the walk asks every node at its side's win threshold, so the
     * move stored there proved that threshold (the book's answers are proven again by its
     * check), and asking again would change the table the next answers are found with. */
    int move = search_winning_move(s, &root, threshold);
    if (move != NO_MOVE)
        return move;
    node_t child;
    for (move = 0; move <= PASS; move++) {
        if (!search_child(&root, move, &child))
            continue;
        found = search_at_least(s, &child, 1 - threshold);
        if (found == SEARCH_ABORTED)
            return LG_ABORTED;
        if (!found)
            return move;
    }
    return LG_NO_WIN; /* unreachable: the node was proven */
}
