"""Go as the search sees it: the state protocol of `mcts/core.py` over a go_board.Position.

Pass is an ordinary action, so the search itself finds winning passes near the end; terminal
states are scored with the real rule (stones, komi 2.5) at the real end of the game.
"""

import go_board
from go_board import black_wins
from mcts.playout import playout


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

    def __init__(self, knowledge=True):
        self.knowledge = knowledge

    def evaluate(self, state, rng):
        black, white = playout(state.position, rng.random, self.knowledge)
        black_won = black_wins(black, white)
        return 1.0 if black_won == (state.position.to_move == go_board.BLACK) else 0.0
