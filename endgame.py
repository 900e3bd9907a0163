"""Endgame: exact play for the last plies, and the rule for passing.

Start at `choose_endgame_move`: the pass rule first (`winning_pass`), then, when few plies are
left, an exact alpha-beta over the final stone difference (komi, passes and ko included) that
returns the move and its exact margin. Margins are in half points, seen from the side to move:
`2 * (own stones - opponent stones) -/+ 5`, positive when the mover wins; ties cannot happen.

Performance: the search works on raw bitboards with a transposition table, not on Positions.
"""

import time

import go_board
from mcts.core import WIN
from go_board import BLACK, FULL, MAX_PLY, PASS, place_stone, points_of, popcount

# Measured with `make bench` (docs/benchmarks.md): from 12 plies left the win/loss search
# usually finishes within a few CPU seconds; when it does not, MCTS takes the move.
EXACT_PLIES_LEFT = 12
# CPU allowed for refining a proven result into exact margins (for the pass rule).
MARGIN_SEARCH_CPU = 1.5
KOMI_HALF_POINTS = int(2 * go_board.KOMI)
WORST = -(2 * go_board.NUM_POINTS + KOMI_HALF_POINTS + 1)


class OutOfTime(Exception):
    """The exact search passed its CPU deadline: nothing it found is proven."""


def final_margin(own, opp, own_is_black):
    black_margin = 2 * (popcount(own) - popcount(opp)) if own_is_black else 2 * (popcount(opp) - popcount(own))
    black_margin -= KOMI_HALF_POINTS
    return black_margin if own_is_black else -black_margin


class ExactSolver(object):
    """Negamax alpha-beta with a transposition table of bounds, over bitboards.

    An entry is stored only once its node is fully searched and holds for any game (the key is
    the whole state), so a `table` may be shared by later searches, even after OutOfTime.
    """

    def __init__(self, cpu_deadline=None, clock=time.process_time, table=None):
        self.table = {} if table is None else table
        self.nodes = 0
        self.cpu_deadline = cpu_deadline
        self.clock = clock

    def children(self, own, opp, prev_own, prev_opp):
        """`(point, own, opp)` for every legal placement, biggest captures first: they
        refute or prove fastest."""
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
        self.nodes += 1
        if self.cpu_deadline is not None and not self.nodes & 1023 \
                and self.clock() > self.cpu_deadline:
            raise OutOfTime()
        if plies_left == 1:
            # The last ply: every child is final, so no table and no recursion.
            best = final_margin(own, opp, own_is_black)
            for point in points_of(FULL ^ own ^ opp):
                result = place_stone(own, opp, point, prev_own, prev_opp)
                if result.__class__ is tuple:
                    best = max(best, final_margin(result[0], result[1], own_is_black))
            return best
        key = (own, opp, prev_own, prev_opp, plies_left, own_is_black)
        entry = self.table.get(key)
        best_first = None
        if entry is not None:
            lower, upper, best_first = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        original_alpha = alpha
        best, best_move = WORST, None
        moves = self.children(own, opp, prev_own, prev_opp)
        if best_first is not None:
            moves.sort(key=lambda move: move[0] != best_first)
        for point, new_own, new_opp in moves:
            score = -self.value(new_opp, new_own, opp, own, plies_left - 1, not own_is_black,
                                -beta, -alpha)
            if score > best:
                best, best_move = score, point
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best < beta:
            if own == prev_own and opp == prev_opp:
                score = final_margin(own, opp, own_is_black)
            else:
                score = -self.value(opp, own, opp, own, plies_left - 1, not own_is_black,
                                    -beta, -max(alpha, best))
            if score > best:
                best, best_move = score, PASS
        lower = best if best > original_alpha else WORST
        upper = best if best < beta else -WORST
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        self.table[key] = (lower, upper, best_move)
        return best

    def _root(self, position):
        own, opp, prev_own, prev_opp = position.mover_view()
        return own, opp, prev_own, prev_opp, MAX_PLY + 1 - position.ply, position.to_move == BLACK

    def pass_value(self, position, alpha, beta):
        """The margin of passing now, exact inside (alpha, beta)."""
        own, opp, _, _, plies_left, own_is_black = self._root(position)
        if position.pass_ends_game:
            return final_margin(own, opp, own_is_black)
        return -self.value(opp, own, opp, own, plies_left - 1, not own_is_black, -beta, -alpha)

    def winning_placement(self, position):
        """A placement proven to win, or None when none does: null-window tests at margin 0."""
        own, opp, prev_own, prev_opp, plies_left, own_is_black = self._root(position)
        for point, new_own, new_opp in self.children(own, opp, prev_own, prev_opp):
            if -self.value(new_opp, new_own, opp, own, plies_left - 1, not own_is_black, -1, 0) > 0:
                return point
        return None

    def best_move(self, position):
        """`(move, margin)`: the best placement by exact margin, or PASS if it is no worse.

        Placements are searched first with a full window; the pass then only needs a null
        window at the best placement's margin (margins are odd, so `best - 1` separates).
        """
        own, opp, prev_own, prev_opp, plies_left, own_is_black = self._root(position)
        best_point, best_margin = PASS, WORST
        for point, new_own, new_opp in self.children(own, opp, prev_own, prev_opp):
            margin = -self.value(new_opp, new_own, opp, own, plies_left - 1, not own_is_black,
                                 WORST, -best_margin)
            if margin > best_margin:
                best_point, best_margin = point, margin
        pass_margin = self.pass_value(position, best_margin - 1, best_margin)
        if pass_margin >= best_margin:
            return PASS, pass_margin
        return best_point, best_margin


def winning_pass(position):
    """The opponent just passed and we are ahead: passing ends the game with our win."""
    return position.ply > 1 and position.pass_ends_game and position.winner() == position.to_move


def search_may_pass(position, pass_stats):
    """MCTS passes only when the pass is proven to win: a pass costs a point like a lost stone."""
    return pass_stats.solved == WIN


def choose_endgame_move(position, cpu_deadline=None, table=None):
    """`(move, margin)` under exact play, or None when the search is not affordable.

    First win or loss (null windows are cheap), then exact margins within MARGIN_SEARCH_CPU
    more; when only the first finishes, a proven winning placement is played with margin None.
    Passing is chosen when it is at least as good as every placement. Black never passes at
    ply 1 (that loses at once), which the exact search already says. `table`: a transposition
    table to reuse and extend (see ExactSolver); None starts an empty one.
    """
    if winning_pass(position):
        return PASS, None
    if MAX_PLY + 1 - position.ply > EXACT_PLIES_LEFT:
        return None
    solver = ExactSolver(cpu_deadline, table=table)
    winner = None
    try:
        winner = solver.winning_placement(position)
        if winner is None and solver.pass_value(position, 0, 1) > 0:
            return PASS, None
        margin_deadline = solver.clock() + MARGIN_SEARCH_CPU
        if cpu_deadline is None or margin_deadline < cpu_deadline:
            solver.cpu_deadline = margin_deadline
        return solver.best_move(position)
    except OutOfTime:
        return None if winner is None else (winner, None)
