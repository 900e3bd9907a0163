"""Building blocks shared by the reference opponents: seeded players, move lists, evaluation.

Values are integers in POINT_VALUE units per stone so that searches can compare them exactly
(ties are broken at random, which needs exact equality). Every value is seen from one colour:
positive is good for that colour.
"""

import random

from go_board import BLACK, FULL, WHITE, dilate, margin, other, points_of, popcount

POINT_VALUE = 20
# Each colour's komi in POINT_VALUE units: go_board.margin at an equal stone count.
KOMI_VALUE = {colour: int(POINT_VALUE * margin(0, colour)) for colour in (BLACK, WHITE)}
# Larger than any stone margin, so a decided game outranks every heuristic value.
WIN_VALUE = 1000 * POINT_VALUE
LIBERTY_WEIGHT = 1
INFINITY = float("inf")


class SeededPlayer(object):
    """A player owning its own random stream, so games replay exactly from a seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose_best(self, scored):
        """A random move among those with the highest score; `scored` is [(score, move)]."""
        best = max(score for score, _ in scored)
        return self.rng.choice([move for score, move in scored if score == best])


def placements(position):
    """[(point, child position, stones captured)] for every legal placement, in point order."""
    if position.is_over:
        return []
    opponent = other(position.to_move)
    opponent_stones = popcount(position.stones(opponent))
    result = []
    for point in points_of(FULL ^ position.black ^ position.white):
        child = position.try_play(point)
        if not isinstance(child, str):
            result.append((point, child, opponent_stones - popcount(child.stones(opponent))))
    return result


def stone_margin(position, colour):
    """`colour`'s stones minus the opponent's, komi included: the final score if play stopped."""
    own = popcount(position.stones(colour))
    opp = popcount(position.stones(other(colour)))
    return POINT_VALUE * (own - opp) + KOMI_VALUE[colour]


def liberty_margin(position, colour):
    """Empty points next to `colour`'s stones minus those next to the opponent's."""
    empty = FULL ^ position.black ^ position.white
    own = position.stones(colour)
    opp = position.stones(other(colour))
    return popcount(dilate(own) & empty) - popcount(dilate(opp) & empty)


def terminal_value(position, colour):
    """The exact value of a finished game: the win decides, the margin ranks equal outcomes."""
    stones = stone_margin(position, colour)
    # KOMI_VALUE is not a multiple of POINT_VALUE, so the margin is never zero.
    return stones + (WIN_VALUE if stones > 0 else -WIN_VALUE)


def evaluate(position, colour):
    """Stones (with komi) plus a small liberty term; exact once the game is over."""
    if position.is_over:
        return terminal_value(position, colour)
    return stone_margin(position, colour) + LIBERTY_WEIGHT * liberty_margin(position, colour)
