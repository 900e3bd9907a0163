"""Go as the search sees it: the state protocol of `mcts/core.py` over a go_board.Position.

Pass is an ordinary action, so the search itself finds winning passes near the end; terminal
states are scored with the real rule (stones, komi 2.5) at the real end of the game.
`LeafSolver` is the search's optional leaf solver: the exact win/loss proof of endgame.py on
nodes near the end, each proof capped in solver nodes.
"""

import clocks
import endgame
import go_board
from go_board import black_wins
from mcts.core import LOSS, WIN
from mcts.playout import playout

# Solver nodes one leaf proof may count before it gives up (the node stays unproven).
LEAF_SOLVE_NODE_CAP = 1000
# Proofs kept for later leaf solves of the same search; the table starts over past this size.
LEAF_TABLE_ENTRIES = 200000


class GoState(object):
    __slots__ = ("position",)

    def __init__(self, position):
        self.position = position

    def legal_actions(self):
        return self.position.legal_moves()

    def apply(self, action):
        return GoState(self.position.play(action))

    def is_terminal(self):
        return self.position.is_over

    def to_play(self):
        return self.position.to_move

    def reward(self, player):
        return 1.0 if self.position.winner() == player else 0.0


class PlayoutEvaluator(object):
    """Values a leaf by one playout to the end: 1.0 when the side to move wins it."""

    def __init__(self, knowledge):
        self.knowledge = knowledge

    def evaluate(self, state, rng):
        black, white = playout(state.position, rng.random, self.knowledge)
        black_won = black_wins(black, white)
        return 1.0 if black_won == (state.position.to_move == go_board.BLACK) else 0.0


class LeafSolver(object):
    """`leaf_solver(state)` for mcts.core.search: WIN or LOSS for the side to move of a position
    at most `plies` plies from the end, proven within `node_cap` solver nodes; else None.

    The proofs found are kept for the next calls (they hold whatever the path to a position).
    """

    def __init__(self, plies, node_cap=LEAF_SOLVE_NODE_CAP):
        self.plies = plies
        self.node_cap = node_cap
        self.table = {}

    def __call__(self, state):
        position = state.position
        if go_board.plies_left(position.ply) > self.plies:
            return None
        if len(self.table) > LEAF_TABLE_ENTRIES:
            self.table = {}
        solver = endgame.ExactSolver(table=self.table, node_cap=self.node_cap)
        try:
            return WIN if solver.mover_wins(position) else LOSS
        except clocks.OutOfTime:
            return None
