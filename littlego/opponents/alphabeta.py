"""The graded alpha-beta opponent: depth 2, at most 10 moves searched per node.

Moves are ranked by the evaluation of the position they lead to and only the best BRANCHING
are searched, as in the course's description. Leaves use `common.evaluate` (stones with komi
plus a small liberty term, exact once the game is over, so the 24-ply end is respected).
"""

from go_board import PASS

from .common import INFINITY, SeededPlayer, evaluate, placements

SEARCH_DEPTH = 2
BRANCHING = 10


class AlphaBetaPlayer(SeededPlayer):
    """Negamax alpha-beta over placements; passes only when no placement is legal."""

    def __init__(self, seed, depth=SEARCH_DEPTH, branching=BRANCHING):
        SeededPlayer.__init__(self, seed)
        self.depth = depth
        self.branching = branching

    def candidates(self, position):
        """The `branching` most promising [(point, child)], ties in the ranking at random."""
        children = [(point, child) for point, child, _ in placements(position)]
        self.rng.shuffle(children)
        mover = position.to_move
        children.sort(key=lambda item: evaluate(item[1], mover), reverse=True)
        return children[:self.branching]

    def choose_move(self, position):
        scored = []
        best = -INFINITY
        for point, child in self.candidates(position):
            # A window just below the best so far keeps equal values exact (values are
            # integers) while worse moves are still cut off.
            value = -self.search(child, self.depth - 1, -INFINITY, 1 - best)
            scored.append((value, point))
            best = max(best, value)
        return self.choose_best(scored) if scored else PASS

    def search(self, position, depth, alpha, beta):
        """Fail-soft negamax value of `position` for its side to move."""
        if depth == 0 or position.is_over:
            return evaluate(position, position.to_move)
        children = [child for _, child in self.candidates(position)] or [position.play(PASS)]
        best = -INFINITY
        for child in children:
            best = max(best, -self.search(child, depth - 1, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
