"""The unoptimised exact solver, kept as the reference for tests/test_endgame_exact.py.

This is endgame.py's alpha-beta before the speed work of issue 10: the same margins in half
points for the side to move, a transposition table keyed on the whole position (the previous
board always included), children ordered by captures only. Not used by the agent. Its bound
checks repeat endgame.py's on purpose: two implementations check each other, so `make lint`'s
repeated-code check leaves this file out.
"""
# pylint: disable=duplicate-code

from go_board import BLACK, FULL, KOMI, MAX_PLY, NUM_POINTS, place_stone, points_of, popcount

KOMI_HALF_POINTS = int(2 * KOMI)
WORST = -(2 * NUM_POINTS + KOMI_HALF_POINTS + 1)


def final_margin(own, opp, own_is_black):
    black_margin = 2 * (popcount(own) - popcount(opp)) if own_is_black else 2 * (popcount(opp) - popcount(own))
    black_margin -= KOMI_HALF_POINTS
    return black_margin if own_is_black else -black_margin


class ReferenceSolver(object):
    """Negamax alpha-beta with a transposition table of bounds, over bitboards."""

    def __init__(self):
        self.table = {}

    def children(self, own, opp, prev_own, prev_opp):
        moves = []
        for point in points_of(FULL ^ own ^ opp):
            result = place_stone(own, opp, point, prev_own, prev_opp)
            if result.__class__ is tuple:
                moves.append((popcount(result[1]) - popcount(opp), point, result[0], result[1]))
        moves.sort()
        return [(point, new_own, new_opp) for _, point, new_own, new_opp in moves]

    def value(self, own, opp, prev_own, prev_opp, plies_left, own_is_black, alpha, beta):
        """The exact margin for the mover if it is inside (alpha, beta), else a bound."""
        if plies_left == 0:
            return final_margin(own, opp, own_is_black)
        key = (own, opp, prev_own, prev_opp, plies_left, own_is_black)
        entry = self.table.get(key)
        if entry is not None:
            lower, upper = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        original_alpha = alpha
        best = WORST
        for _, new_own, new_opp in self.children(own, opp, prev_own, prev_opp):
            score = -self.value(new_opp, new_own, opp, own, plies_left - 1, not own_is_black,
                                -beta, -alpha)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        if best < beta:
            if own == prev_own and opp == prev_opp:
                score = final_margin(own, opp, own_is_black)
            else:
                score = -self.value(opp, own, opp, own, plies_left - 1, not own_is_black,
                                    -beta, -max(alpha, best))
            best = max(best, score)
        lower = best if best > original_alpha else WORST
        upper = best if best < beta else -WORST
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        self.table[key] = (lower, upper)
        return best

    def margin(self, position):
        """The exact margin of `position` for its side to move."""
        own, opp, prev_own, prev_opp = position.mover_view()
        return self.value(own, opp, prev_own, prev_opp, MAX_PLY + 1 - position.ply,
                          position.to_move == BLACK, WORST, -WORST)
