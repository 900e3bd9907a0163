"""Exact endgame search and the pass rule on fixed positions."""

import itertools
from unittest import mock

import pytest

import clocks
import decision_log
import endgame
import go_board
from clocks import tree_cpu_seconds
from go_board import BLACK, MAX_PLY, PASS, WHITE, Position, from_coord

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

# TWO_EYED_GROUPS before White's last stone at (4,4).
BEFORE_WHITE_PLAYED_4_4 = """
    X . X . X
    X X X X X
    O O O O O
    O . O . O
    O O O O ."""

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
    position = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=23, previous=BEFORE_WHITE_PLAYED_4_4)
    # After the pass White fills an eye: 8 black against 14 white, 2 * (8 - 14) - 5 = -17.
    assert endgame.ExactSolver().best_move(position) == (PASS, -17)


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


def test_choose_endgame_move_gives_a_proven_win_with_its_margin_in_points():
    position = Position.from_text(BOTH_CHAINS_IN_ATARI, to_move=WHITE, ply=24)
    # best_move's 25 half points (see above): White wins by 12.5.
    assert endgame.choose_endgame_move(position) == endgame.ExactMove(
        from_coord(3, 3), decision_log.PROVEN_WIN, 12.5, proof_cpu=mock.ANY)


def test_choose_endgame_move_passes_to_win_when_the_opponent_passed_and_we_lead():
    # Black passed (previous = current); White leads 13 stones + 2.5 against 8.
    position = Position.from_text(TWO_EYED_GROUPS, to_move=WHITE, ply=12)
    assert endgame.choose_endgame_move(position) == endgame.ExactMove(
        PASS, decision_log.PROVEN_WIN, 7.5)  # no search, so no proof_cpu


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
    assert endgame.choose_endgame_move(position, cpu_deadline=tree_cpu_seconds() - 1) is None


def test_winning_move_is_found_by_the_boolean_search_alone():
    position = Position.from_text(BOTH_CHAINS_IN_ATARI, to_move=WHITE, ply=24)
    assert endgame.ExactSolver().winning_move(position) == from_coord(3, 3)
    assert endgame.ExactSolver().mover_wins(position)
    losing = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=23,
                                previous=BEFORE_BLACK_PLAYED_0_4)
    assert endgame.ExactSolver().winning_move(losing) is None
    assert not endgame.ExactSolver().mover_wins(losing)



# White to move at ply 18, Black having just played (3,0). The proof finds (3,2) first, which
# wins by 4.5 points; the largest margin is (3,1)'s, 5.5. Every move's exact margin for White in
# half points (ExactSolver.value with a full window): (3,1) 11, (3,2) 9, (1,3) (0,3) (0,2) 7,
# (4,3) (3,4) (1,4) 3, (4,2) 1, (2,0) and the pass -1.
MARGINS_DIFFER = """
    O O . . O
    O O X . .
    . X O X X
    X . . O .
    X O . . X"""
BEFORE_BLACK_PLAYED_3_0 = """
    O O . . O
    O O X . .
    . X O X X
    . . . O .
    X O . . X"""


def margins_differ():
    return Position.from_text(MARGINS_DIFFER, to_move=WHITE, ply=18,
                              previous=BEFORE_BLACK_PLAYED_3_0)


def steps_of(position):
    """Every MarginStep of `position`'s margin search from its proven winning move, as
    (move text, half points, exact)."""
    solver = endgame.ExactSolver()
    winner = solver.winning_move(position)
    return [(go_board.move_to_text(step.move), step.margin, step.exact)
            for step in solver.margin_steps(position, winner, endgame.WIN_MARGIN)]


def test_the_margin_search_climbs_from_the_proven_win_to_the_largest_margin():
    # (3,2), the proof's move, is raised to its 9 by one test (the search's bound shows more
    # than the test asked), and no further; (3,1) beats it with 11, which no later move
    # reaches: exact. (A lead taken on a tie: test_a_winning_pass_as_good_as_... below.)
    assert steps_of(margins_differ()) == [
        ("3,2", 1, False), ("3,2", 9, False), ("3,1", 11, False), ("3,1", 11, True)]
    assert endgame.ExactSolver().best_move(margins_differ()) == (from_coord(3, 1), 11)
    assert endgame.choose_endgame_move(margins_differ()) == endgame.ExactMove(
        from_coord(3, 1), decision_log.PROVEN_WIN, 5.5, proof_cpu=mock.ANY)


def tick_clock():
    """A clock that reads 0, 1, 2, ... one tick per reading: the search reads it before the
    proof and after it (the proof's CPU, 1 tick when its own deadline is None), then whenever
    the margin search's node count reaches a multiple of DEADLINE_CHECK_NODES + 1, so a
    deadline of N ticks stops it after a fixed amount of work."""
    ticks = itertools.count()
    return lambda: next(ticks)


@pytest.mark.parametrize("deadline, move, at_least", [
    (1, "3,2", 0.5),   # passed before the margins: the proven winning move
    (2, "3,1", 5.5)])  # stopped after (3,1) took the lead, before no later move was shown better
def test_a_deadline_midway_plays_the_largest_margin_proven_so_far(deadline, move, at_least):
    found = endgame.choose_endgame_move(margins_differ(), margin_deadline=deadline,
                                        clock=tick_clock())
    assert found == endgame.ExactMove(go_board.move_from_text(move), decision_log.PROVEN_WIN, None,
                                      margin_at_least=at_least, proof_cpu=1)
    after = margins_differ().play(found.move)
    assert not endgame.ExactSolver().mover_wins(after)  # a proven win for White, every time


def test_a_margin_search_starved_of_wall_time_stops_as_at_its_deadline():
    # The CPU deadline far away, the wall allowance already spent: the search stops at its
    # first check of the clocks (1,024 nodes, (3,2) still leading, raised to its 4.5) with the
    # proven win.
    found = endgame.choose_endgame_move(margins_differ(), margin_deadline=1000,
                                        clock=tick_clock(), margin_wall=lambda cpu: -1.0)
    assert found == endgame.ExactMove(from_coord(3, 2), decision_log.PROVEN_WIN, None,
                                      margin_at_least=4.5, proof_cpu=1)
    allowed = endgame.choose_endgame_move(margins_differ(), margin_deadline=1000,
                                          clock=tick_clock(), margin_wall=lambda cpu: 60.0)
    assert allowed == endgame.ExactMove(from_coord(3, 1), decision_log.PROVEN_WIN, 5.5,
                                        proof_cpu=1)


def test_a_deadline_past_the_margin_search_gives_the_exact_margin():
    assert endgame.choose_endgame_move(margins_differ(), margin_deadline=3,
                                       clock=tick_clock()) == endgame.ExactMove(
        from_coord(3, 1), decision_log.PROVEN_WIN, 5.5, proof_cpu=1)


# White to move at ply 20, Black having just played (4,0): (3,1), (2,1), (2,0) and the pass
# each win by 1.5 points (3 half points; every other placement loses by 4.5).
PASS_TIES = """
    . O X O O
    X X X . O
    . . X O O
    O . X O .
    X X X . O"""
BEFORE_BLACK_PLAYED_4_0 = """
    . O X O O
    X X X . O
    . . X O O
    O . X O .
    . X X . O"""


def test_a_winning_pass_as_good_as_the_best_placement_is_played():
    position = Position.from_text(PASS_TIES, to_move=WHITE, ply=20,
                                  previous=BEFORE_BLACK_PLAYED_4_0)
    # (3,1) is raised to its 3; (2,1), earlier in search order, ties it and takes the lead on
    # the tie; the pass ties it too and wins the tie over any placement.
    assert steps_of(position) == [("3,1", 1, False), ("3,1", 3, False), ("2,1", 3, False),
                                  ("PASS", 3, False), ("PASS", 3, True)]
    assert endgame.choose_endgame_move(position) == endgame.ExactMove(
        PASS, decision_log.PROVEN_WIN, 1.5, proof_cpu=mock.ANY)


# A knife edge from a real game (Black opened at the corner (4,0), then played as the agent):
# White to move at ply 12, where only (3,0) wins; the search tries six losing moves first.
KNIFE_EDGE_LINE = "4,0 2,2 1,2 3,2 2,1 2,4 2,3 3,3 1,3 1,0 3,1"
# The nodes after which the search (in the position's own frame) has refuted its first two
# moves, (1,1) and (4,4) (after 20,867 and 22,210 nodes), and is inside its third, (4,3).
TWO_REFUTED_NODES = 23000


def knife_edge():
    position = Position()
    for text in KNIFE_EDGE_LINE.split():
        position = position.play(go_board.move_from_text(text))
    return position


def test_a_search_out_of_time_leaves_the_moves_it_refuted_in_its_table():
    position = knife_edge()
    table = {}
    with pytest.raises(clocks.OutOfTime):
        endgame.ExactSolver(table=table, node_cap=TWO_REFUTED_NODES).winning_move(position)
    assert endgame.refuted_moves(position, table) == {from_coord(1, 1), from_coord(4, 4)}
    assert endgame.refuted_moves(position, {}) == frozenset()


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
    points = [move[0] for move in endgame.ExactSolver().children(own, opp, prev_own, prev_opp,
                                                                  MAX_PLY + 1 - position.ply)]
    assert points[:2] == [from_coord(0, 2), from_coord(0, 3)]
    assert sorted(points) == sorted(position.legal_placements())


def test_after_the_captures_a_fresh_search_tries_the_centre_first_and_the_edge_last():
    # Nothing refuted yet: the history holds each point's ring (CENTRE_FIRST), so after the two
    # captures come the centre, then the ring around it, then the edge, each ring from the
    # highest point down.
    position = Position.from_text(TWO_CAPTURES, to_move=WHITE, ply=7)
    own, opp, prev_own, prev_opp = position.mover_view()
    points = [move[0] for move in endgame.ExactSolver().children(own, opp, prev_own, prev_opp,
                                                                  MAX_PLY + 1 - position.ply)]
    inner = [from_coord(row, col) for row in (3, 2, 1) for col in (3, 2, 1)
             if (row, col) not in ((2, 2), (1, 1))]  # (1,1) holds a white stone
    assert points[2:10] == [from_coord(2, 2)] + inner
    assert all(endgame.CENTRE_FIRST[point] == 0 for point in points[10:])


def test_after_a_failed_try_the_opponents_refutation_of_it_is_tried_next():
    # Children as `children` gives them: (point, ..., gain, key); the tries from index 1 on are
    # untried: a capture of 2 stones (gain 3), then quiet moves at points 5, 6 and 7.
    moves = [(point, 0, 0, 0, 0, gain, point) for point, gain in
             ((3, 1), (4, 3), (5, 1), (6, 1), (7, 1))]
    endgame.ExactSolver._raise_key_point(moves, 1, 7)  # the opponent refuted with 7
    assert [move[0] for move in moves] == [3, 4, 7, 5, 6]  # after the capture, before the rest
    endgame.ExactSolver._raise_key_point(moves, 1, 4)  # a capture keeps its place
    endgame.ExactSolver._raise_key_point(moves, 1, 3)  # a tried move stays tried
    endgame.ExactSolver._raise_key_point(moves, 1, None)  # no refutation yet
    assert [move[0] for move in moves] == [3, 4, 7, 5, 6]


# White to move at ply 22, three plies left, every move proven lost. Black's last move was
# (4,1), capturing a white stone at (4,0).
WHITE_LOST_AT_PLY_22 = """
    . X X . .
    X . X X X
    . X . O O
    X O . . O
    . X . O ."""
BEFORE_BLACK_TOOK_4_0 = """
    . X X . .
    X . X X X
    . X . O O
    X O . . O
    O . . O ."""


def test_best_try_leaves_the_opponent_the_fewest_winning_replies():
    position = Position.from_text(WHITE_LOST_AT_PLY_22, to_move=WHITE, ply=22,
                                  previous=BEFORE_BLACK_TOOK_4_0)
    solver = endgame.ExactSolver()
    assert not solver.mover_wins(position)
    # Against perfect play White's best is (3,2), losing by half a point (margin -1), but after
    # it 7 of Black's 9 moves still win. After (4,2), which puts (4,1) in atari, only Black's
    # (3,2) wins: every other Black move lets White come back.
    assert solver.best_move(position) == (from_coord(3, 2), -1)
    winning_replies = {}
    for move in (from_coord(3, 2), from_coord(4, 2)):
        after = position.play(move)
        winning_replies[move] = [reply for reply, child in solver.root_moves(after)
                                 if solver.move_wins(after, child)]
    assert len(winning_replies[from_coord(3, 2)]) == 7
    assert winning_replies[from_coord(4, 2)] == [from_coord(3, 2)]
    assert endgame.ExactSolver().best_try(position) == (from_coord(4, 2), 1)
    assert endgame.choose_endgame_move(position) == endgame.ExactMove(
        from_coord(4, 2), decision_log.PROVEN_LOSS, None, 1, proof_cpu=mock.ANY)


# Black to move at ply 23 just after White's pass, 4 stones against 14 + 2.5: lost whatever it
# does.
LOST_AFTER_WHITE_PASSED = """
    O O O O O
    O . O . O
    O O O O O
    . . . . .
    . X X X X"""


def test_a_best_try_after_the_opponents_pass_plays_on_rather_than_end_the_game_lost():
    # Black's pass would end the game lost at once, leaving White nothing to get wrong, so a
    # placement is tried (before, the pass counted no winning replies and was played).
    position = Position.from_text(LOST_AFTER_WHITE_PASSED, to_move=BLACK, ply=23)
    assert position.pass_ends_game and not endgame.ExactSolver().mover_wins(position)
    move, opponent_wins = endgame.ExactSolver().best_try(position)
    assert move != PASS and opponent_wins == len(position.play(move).legal_moves())


def test_a_lost_position_gets_its_best_try_from_choose_endgame_move():
    # Every Black move loses (see test_pass_when_every_placement_is_worse_than_passing): the
    # result says so, never a win.
    position = Position.from_text(TWO_EYED_GROUPS, to_move=BLACK, ply=23, previous=BEFORE_WHITE_PLAYED_4_4)
    move, opponent_wins = endgame.ExactSolver().best_try(position)
    assert endgame.choose_endgame_move(position) == endgame.ExactMove(
        move, decision_log.PROVEN_LOSS, None, opponent_wins, proof_cpu=mock.ANY)


# White to move at ply 24 with no legal placement: Black's eyes and White's own last liberty at
# (4,4) are all suicide. White leads 14 stones to 8.
NO_WHITE_PLACEMENT = """
    X . X . X
    X X X X X
    O O O O O
    O O O O O
    O O O O ."""


def test_at_the_last_ply_a_pass_wins_when_ahead_even_without_a_legal_placement():
    position = Position.from_text(NO_WHITE_PLACEMENT, to_move=WHITE, ply=24)
    assert position.legal_placements() == []
    own, opp, _, _ = position.mover_view()
    # Inside the search (Black did not just pass): the last-ply answer must count the pass.
    key = endgame.node_key(own, opp, 1, False, endgame.NO_KO)
    assert endgame.ExactSolver().wins(own, opp, endgame.NO_KO, endgame.NO_KO, 14 - 8, False, 1, key)
