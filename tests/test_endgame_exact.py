"""The exact search against slower, simpler searches, on seeded positions near the end.

- `plain_margin`: minimax over `go_board.Position` written for clarity (every move, passes
  included, to the end of the game, memoised on the whole position). On positions up to
  PLAIN_PLIES_LEFT plies from the end, `ExactSolver.best_move`'s margin must equal it, and the
  win/loss proof (`ExactSolver.mover_wins`) must agree with its sign.
  Where `endgame.bounded` decides a node near the end without search, plain minimax must
  agree, at every threshold (positions up to BOUNDS_MAX_PLIES plies out).
- `endgame_reference.ReferenceSolver`: the alpha-beta before the speed work. On positions 8-10
  plies from the end (slow), the proof must agree with the sign of its margin.

The positions come from seeded games whose players pass now and then and prefer captures and ko
retakes, so passes, games ended by two passes and ko refusals all occur inside the searches;
the test counts them and fails if they did not.
"""

import collections
import random

import pytest

import endgame
from go_board import BLACK, KO, NUM_POINTS, PASS
from littlego.bench.positions import position_before_end

from endgame_reference import ReferenceSolver

SEED = 10
PLAIN_POSITIONS = 320
PLAIN_PLIES_LEFT = (1, 2, 3, 4, 5)
DEEP_POSITIONS = 100
DEEP_PLIES_LEFT = (8, 9, 10)
BOUND_POSITIONS = 48
BOUND_PLIES_LEFT = tuple(range(1, endgame.BOUNDS_MAX_PLIES + 1))
PASS_RATE = 0.08
CAPTURE_RATE = 0.7


def plain_margin(position, memo, seen):
    """The exact final margin in half points for the side to move: plain minimax.

    `seen` counts what the search met: ko refusals, passes, games ended by two passes.
    """
    if position.is_over:
        black_margin = int(2 * position.score())
        if position.ended:
            seen["ended by passes"] += 1
        return black_margin if position.to_move == BLACK else -black_margin
    if position in memo:
        return memo[position]
    best = None
    for move in list(range(NUM_POINTS)) + [PASS]:
        after = position.try_play(move)
        if after == KO:
            seen["ko refusals"] += 1
        if isinstance(after, str):
            continue
        seen["passes" if move == PASS else "placements"] += 1
        margin = -plain_margin(after, memo, seen)
        best = margin if best is None else max(best, margin)
    memo[position] = best
    return best


def test_exact_margins_equal_plain_minimax():
    rng = random.Random(SEED)
    seen = collections.Counter()
    for index in range(PLAIN_POSITIONS):
        position = position_before_end(rng, PLAIN_PLIES_LEFT[index % len(PLAIN_PLIES_LEFT)],
                                       PASS_RATE, CAPTURE_RATE)
        expected = plain_margin(position, {}, seen)
        move, margin = endgame.ExactSolver().best_move(position)
        assert margin == expected, position
        # The move is one that achieves the margin.
        after = position.play(move)
        assert -plain_margin(after, {}, collections.Counter()) == expected, (position, move)
        assert endgame.ExactSolver().mover_wins(position) == (expected > 0), position
        seen["mover wins"] += expected > 0
        seen["ko at the root"] += KO in [position.try_play(point) for point in range(NUM_POINTS)]
        seen["pass ends the game at the root"] += position.pass_ends_game
    assert seen["ko refusals"] >= 2000, seen
    assert seen["ended by passes"] >= 10000, seen
    assert seen["ko at the root"] >= 10 and seen["pass ends the game at the root"] >= 20, seen
    assert PLAIN_POSITIONS / 4 < seen["mover wins"] < 3 * PLAIN_POSITIONS / 4, seen


def test_the_bounds_decide_only_what_plain_minimax_confirms():
    # Every threshold a final stone difference can take, at positions up to the bounds' reach:
    # where `bounded` answers, plain minimax's best final difference must agree.
    rng = random.Random(SEED + 2)
    answered = collections.Counter()
    for index in range(BOUND_POSITIONS):
        plies_left = BOUND_PLIES_LEFT[index % len(BOUND_PLIES_LEFT)]
        position = position_before_end(rng, plies_left, PASS_RATE, CAPTURE_RATE)
        margin = plain_margin(position, {}, collections.Counter())
        best_diff = (margin - endgame.MOVER_KOMI_HALF_POINTS[plies_left & 1]) // 2
        own, opp, _, _, diff, _, _ = endgame.ExactSolver._root(position)
        for needed in range(-NUM_POINTS, NUM_POINTS + 1):
            known = endgame.bounded(own, opp, diff, plies_left, needed)
            if known is not None:
                assert known == (best_diff >= needed), (position, needed)
                answered[known, needed == endgame.NEEDED_DIFF[plies_left & 1]] += 1
    # Both answers, at the win/loss threshold itself too.
    assert min(answered.values()) >= 5 and len(answered) == 4, answered
    assert endgame.bounded(own, opp, diff, endgame.BOUNDS_MAX_PLIES + 1, 0) is None


@pytest.mark.slow
def test_win_loss_proof_agrees_with_the_reference_solver_eight_to_ten_plies_out():
    rng = random.Random(SEED + 1)
    wins = 0
    for index in range(DEEP_POSITIONS):
        position = position_before_end(rng, DEEP_PLIES_LEFT[index % len(DEEP_PLIES_LEFT)],
                                       PASS_RATE, CAPTURE_RATE)
        expected = ReferenceSolver().margin(position) > 0
        assert endgame.ExactSolver().mover_wins(position) == expected, position
        wins += expected
    assert DEEP_POSITIONS / 5 < wins < 4 * DEEP_POSITIONS / 5
