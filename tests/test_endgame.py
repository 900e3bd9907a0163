"""Exact endgame search and the pass rule on fixed positions."""

import time

import endgame
from go_board import BLACK, PASS, WHITE, Position, from_coord

TWO_EYED_GROUPS = """
    X . X . X
    X X X X X
    O O O O O
    O . O . O
    O O O O O"""

# TWO_EYED_GROUPS before Black's last stone at (0,4): White did not just pass.
BEFORE_BLACK_PLAYED_0_4 = """
    X . X . .
    X X X X X
    O O O O O
    O . O . O
    O O O O O"""

BOTH_CHAINS_IN_ATARI = """
    X X X X X
    O O O O X
    . O X X X
    O O X . X
    O O X X X"""


def test_exact_search_finds_the_winning_capture_and_its_margin():
    position = Position.from_text(BOTH_CHAINS_IN_ATARI, to_move=WHITE, ply=24)
    # Capturing all 14 black stones leaves White 10 stones to none: 2 * 10 + 5 half points.
    assert endgame.ExactSolver().best_move(position) == (from_coord(3, 3), 25)


def test_pass_when_every_placement_is_worse_than_passing():
    # Black's only placements fill one of its own two eyes, after which White captures the
    # group at the last ply; passing only lets White fill an eye of its own.
    position = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=23, previous="""
        X . X . X
        X X X X X
        O O O O O
        O . O . O
        O O O O .""")
    # After the pass White fills an eye: 8 black against 14 white, 2 * (8 - 14) - 5 = -17.
    assert endgame.ExactSolver().best_move(position) == (PASS, -17)
    assert endgame.choose_endgame_move(position) == (PASS, -17)


def test_placement_preferred_when_it_beats_passing():
    # At the last ply a legal placement always adds a stone, so it beats passing.
    position = Position.from_text(TWO_EYED_GROUPS, to_move=WHITE, ply=24, previous=BEFORE_BLACK_PLAYED_0_4)
    move, margin = endgame.ExactSolver().best_move(position)
    assert move in (from_coord(3, 1), from_coord(3, 3))
    assert margin == -(2 * (8 - 14) - 5)


def test_winning_pass_only_after_the_opponent_passed_and_when_ahead():
    ahead = Position.from_text(TWO_EYED_GROUPS, to_move=WHITE, ply=12)
    assert ahead.pass_ends_game and endgame.winning_pass(ahead)
    behind = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=11)
    assert not endgame.winning_pass(behind)
    assert not endgame.winning_pass(Position())
    moved = Position.from_text(TWO_EYED_GROUPS, to_move=WHITE, ply=12, previous=BEFORE_BLACK_PLAYED_0_4)
    assert not endgame.winning_pass(moved)


def test_choose_endgame_move_declines_early_positions_and_expired_deadlines():
    assert endgame.choose_endgame_move(Position().play(from_coord(2, 2))) is None
    position = Position.from_text("""
        . . . . .
        . X O . .
        . X O . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=15, previous="""
        . . . . .
        . X O . .
        . X . . .
        . . . . .
        . . . . .""")
    assert endgame.choose_endgame_move(position, cpu_deadline=time.process_time() - 1) is None


def test_winning_placement_is_found_by_null_windows_alone():
    position = Position.from_text(BOTH_CHAINS_IN_ATARI, to_move=WHITE, ply=24)
    assert endgame.ExactSolver().winning_placement(position) == from_coord(3, 3)
    losing = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=23,
                                previous=BEFORE_BLACK_PLAYED_0_4)
    assert endgame.ExactSolver().winning_placement(losing) is None


def test_a_proven_win_is_played_even_when_the_margins_run_out_of_time(monkeypatch):
    # The margin search times out: the null-window proof alone decides the move.
    def out_of_time(solver, position):
        raise endgame.OutOfTime()
    monkeypatch.setattr(endgame.ExactSolver, "best_move", out_of_time)
    position = Position.from_text(BOTH_CHAINS_IN_ATARI, to_move=WHITE, ply=24)
    assert endgame.choose_endgame_move(position) == (from_coord(3, 3), None)



# White captures two stones at (0,2) and one at (0,3).
TWO_CAPTURES = """
    X X . . X
    O O . . O
    . . . . .
    . . . . .
    . . . . ."""


def test_children_come_biggest_capture_first():
    position = Position.from_text(TWO_CAPTURES, to_move=WHITE, ply=7)
    own, opp, prev_own, prev_opp = position.mover_view()
    points = [point for point, _, _ in endgame.ExactSolver().children(own, opp, prev_own, prev_opp)]
    assert points[:2] == [from_coord(0, 2), from_coord(0, 3)]
    assert sorted(points) == sorted(position.legal_placements())
