"""The plain referee rules (referee.rules), in-process.

Each rule of rules.md is pinned to an exact ASCII board. The course files' formats are
tests/test_course_io.py's.
"""

import pytest

from littlego.referee import rules
from littlego.referee.display import draw_board

from referee_support import KO_AFTER_BLACK_TOOK, KO_BEFORE, board


def place(previous, current, i, j, colour):
    return rules.try_place(board(previous), board(current), i, j, colour)


def test_a_capture_with_a_liberty_left_removes_the_stone():
    current = """
        . X . . .
        X O . . .
        . X . . .
        . . . . .
        . . . . .
    """
    after, refusal = place(current, current, 1, 2, rules.BLACK)
    assert refusal is None
    assert after == board("""
        . X . . .
        X . X . .
        . X . . .
        . . . . .
        . . . . .
    """)


def test_a_stone_without_liberty_is_legal_when_it_captures_first():
    current = """
        . X O . .
        X O . . .
        O . . . .
        . . . . .
        . . . . .
    """
    after, refusal = place(current, current, 0, 0, rules.WHITE)
    assert refusal is None
    assert after == board("""
        O . O . .
        . O . . .
        O . . . .
        . . . . .
        . . . . .
    """)


def test_one_stone_can_capture_two_chains():
    current = """
        X O . O X
        . X . X .
        . . . . .
        . . . . .
        . . . . .
    """
    after, _ = place(current, current, 0, 2, rules.BLACK)
    assert after == board("""
        X . X . X
        . X . X .
        . . . . .
        . . . . .
        . . . . .
    """)


@pytest.mark.parametrize("current, point", [
    ("""
        . O . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . .
    """, (0, 0)),
    # Filling the last liberty of one's own chain without capturing.
    ("""
        . X O . .
        X X O . .
        O O . . .
        . . . . .
        . . . . .
    """, (0, 0)),
])
def test_suicide_is_refused(current, point):
    assert place(current, current, point[0], point[1], rules.BLACK) == (None, rules.SUICIDE)


def test_retaking_a_ko_at_once_is_refused():
    assert place(KO_BEFORE, KO_AFTER_BLACK_TOOK, 1, 1, rules.WHITE) == (None, rules.KO)
    assert (1, 1) not in rules.legal_placements(
        board(KO_BEFORE), board(KO_AFTER_BLACK_TOOK), rules.WHITE)


def test_retaking_a_ko_is_legal_once_the_previous_board_differs():
    # After a pass the referee writes previous = current: nothing can repeat it.
    after, refusal = place(KO_AFTER_BLACK_TOOK, KO_AFTER_BLACK_TOOK, 1, 1, rules.WHITE)
    assert refusal is None
    assert after == board(KO_BEFORE)


def test_occupied_and_off_board_points_are_refused_in_that_order():
    current = """
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .
    """
    assert place(current, current, 0, 0, rules.WHITE) == (None, rules.OCCUPIED)
    for i, j in ((5, 0), (0, 5), (-1, 0), (0, -1)):
        assert place(current, current, i, j, rules.WHITE) == (None, rules.OFF_BOARD)


def test_a_placement_removes_dead_opponent_chains_anywhere_but_never_its_own():
    # No game reaches this board (two chains without liberties), but the referee accepts it
    # from input.txt, and after a placement it clears every dead chain of the opponent.
    current = """
        O X . . .
        X . . . .
        . . . . .
        . . . . O
        . . . O X
    """
    after, refusal = place(current, current, 2, 2, rules.BLACK)
    assert refusal is None
    assert after == board("""
        . X . . .
        X . . . .
        . . X . .
        . . . . O
        . . . O X
    """)


def test_try_place_leaves_its_inputs_alone():
    previous, current = board(KO_BEFORE), board(KO_AFTER_BLACK_TOOK)
    rules.try_place(previous, current, 1, 1, rules.WHITE)
    rules.try_place(current, current, 1, 1, rules.WHITE)
    assert (previous, current) == (board(KO_BEFORE), board(KO_AFTER_BLACK_TOOK))


@pytest.mark.parametrize("black_stones, white_stones, winner", [
    (12, 9, rules.BLACK), (11, 9, rules.WHITE), (3, 0, rules.BLACK), (2, 0, rules.WHITE)])
def test_winner_counts_stones_and_komi(black_stones, white_stones, winner):
    flat = [rules.BLACK] * black_stones + [rules.WHITE] * white_stones
    flat += [rules.EMPTY] * (25 - len(flat))
    assert rules.winner([flat[k:k + 5] for k in range(0, 25, 5)]) == winner


ONE_STONE = """
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .
"""


def test_draw_board_marks_the_last_move():
    assert draw_board(board(ONE_STONE), (2, 2)) == "\n".join([
        "    0  1  2  3  4",
        " 0  .  .  .  .  .",
        " 1  .  .  .  .  .",
        " 2  .  . [X] .  .",
        " 3  .  .  .  .  .",
        " 4  .  .  .  .  ."])
