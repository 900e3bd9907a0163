"""The three search-free graded opponents: random, greedy and aggressive.

Each passes only when no placement is legal, as the course's versions do.
"""

from go_board import PASS

from .common import SeededPlayer, placements


class RandomPlayer(SeededPlayer):
    """Uniform over the legal placements."""

    def choose_move(self, position):
        legal = position.legal_placements()
        return self.rng.choice(legal) if legal else PASS


class GreedyPlayer(SeededPlayer):
    """The placement capturing the most stones; without a capture, uniform random."""

    def choose_move(self, position):
        scored = [(captured, point) for point, _, captured in placements(position)]
        return self.choose_best(scored) if scored else PASS


class AggressivePlayer(SeededPlayer):
    """Two-ply capture look-ahead: stones captured minus the best capture left to the reply."""

    def choose_move(self, position):
        scored = [(captured - max([reply for _, _, reply in placements(child)] or [0]), point)
                  for point, child, captured in placements(position)]
        return self.choose_best(scored) if scored else PASS
