"""mcts/playout.py against a plain statement of its policy, ply by ply and seed by seed.

`_reference_playout` is the policy written the obvious way: every candidate goes through
`place_stone`, every chain is flood-filled whole. It draws its random numbers exactly as the
fast playout does (a random index into the untried empty points, the tried one swapped out
of reach), so the two must finish every seeded game on the same board.
"""

import random

import pytest

import go_board
from go_board import (BIT, FULL, MAX_PLY, NEIGHBOURS, Position, dilate, group_of, place_stone,
                      points_of)
from littlego.bench.positions import random_positions
from mcts.playout import playout


def _one_point(bits):
    return bits.bit_length() - 1 if bits and not bits & (bits - 1) else None


def _self_atari(own, opp, point, opp_before):
    if opp != opp_before:
        return False
    liberties = dilate(group_of(own, BIT[point])) & (FULL ^ own ^ opp)
    return not liberties & (liberties - 1)


def _reference_reply(own, opp, prev_own, prev_opp, last_bit):
    empty = FULL ^ own ^ opp
    point = _one_point(dilate(group_of(opp, last_bit)) & empty)
    if point is not None:
        result = place_stone(own, opp, point, prev_own, prev_opp)
        if isinstance(result, tuple):
            return point, result
    touching = dilate(last_bit) & own
    while touching:
        chain = group_of(own, touching & -touching)
        touching &= ~chain
        point = _one_point(dilate(chain) & empty)
        if point is not None:
            result = place_stone(own, opp, point, prev_own, prev_opp)
            if isinstance(result, tuple) and not _self_atari(result[0], result[1], point, opp):
                return point, result
    return None


def _reference_playout(position, random_, knowledge, met=None):
    met = {} if met is None else met
    if position.is_over:
        return position.black, position.white
    own, opp, prev_own, prev_opp = position.mover_view()
    black_to_move = position.to_move == go_board.BLACK
    empties = points_of(FULL ^ own ^ opp)
    last_bit = opp & ~prev_opp
    last_bit &= -last_bit
    for _ in range(position.ply, MAX_PLY + 1):
        reply = _reference_reply(own, opp, prev_own, prev_opp, last_bit) if knowledge and last_bit else None
        met["urgent"] = met.get("urgent", 0) + (reply is not None)
        if reply is None:
            fallback = None
            count = len(empties)
            while count:
                index = int(random_() * count)
                candidate = empties[index]
                outcome = place_stone(own, opp, candidate, prev_own, prev_opp)
                if isinstance(outcome, tuple):
                    if not knowledge or not _self_atari(outcome[0], outcome[1], candidate, opp):
                        reply = candidate, outcome
                        break
                    fallback = fallback or (candidate, outcome)
                count -= 1
                empties[index], empties[count] = empties[count], candidate
            met["self-atari"] = met.get("self-atari", 0) + (reply is None and fallback is not None)
            reply = reply or fallback
        if reply is None:
            met["pass"] = met.get("pass", 0) + 1
            if own == prev_own and opp == prev_opp:
                break
            own, opp, prev_own, prev_opp = opp, own, opp, own
            black_to_move = not black_to_move
            last_bit = 0
            continue
        point, (new_own, new_opp) = reply
        met["capture"] = met.get("capture", 0) + (new_opp != opp)
        empties.remove(point)
        empties.extend(points_of(opp ^ new_opp))
        own, opp, prev_own, prev_opp = new_opp, new_own, opp, own
        black_to_move = not black_to_move
        last_bit = BIT[point]
    return (own, opp) if black_to_move else (opp, own)


# The start positions of the comparison: the empty board and positions of random games.
START_POSITIONS = 200
START_SEED = 24
START_PASS_RATE = 0.05
REPLAY_SEEDS = range(10)


@pytest.fixture(scope="module")
def reference_games():
    """Every comparison game once: `(knowledge, number, seed, position, reference result)`, and
    what the reference met in them (computed once for the two tests below)."""
    starts = [Position()] + random_positions(random.Random(START_SEED), START_POSITIONS - 1,
                                             START_PASS_RATE)
    games, met = [], {}
    for knowledge in (False, True):
        for number, position in enumerate(starts):
            for seed in REPLAY_SEEDS:
                result = _reference_playout(position, random.Random(seed).random, knowledge, met)
                games.append((knowledge, number, seed, position, result))
    return games, met


def test_playout_follows_the_reference_policy_seed_for_seed(reference_games):
    games, _ = reference_games
    for knowledge, number, seed, position, expected in games:
        assert playout(position, random.Random(seed).random, knowledge) == expected, \
            (knowledge, number, seed, position)
    assert len(games) == 4000


def test_the_comparison_meets_every_kind_of_ply(reference_games):
    # The test above is only as good as the situations its games run into.
    _, met = reference_games
    assert min(met["urgent"], met["self-atari"], met["pass"], met["capture"]) > 20, met


def test_playout_of_a_finished_game_is_its_board():
    position = Position(BIT[0], BIT[1], ply=MAX_PLY + 1)
    assert playout(position, random.Random(0).random, False) == (BIT[0], BIT[1])
    assert NEIGHBOURS[0] == BIT[1] | BIT[5]
