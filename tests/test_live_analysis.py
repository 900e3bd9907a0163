"""littlego/analysis/live.py: the lz-analyze analysis of one position, in slices (the stream and its
format are tested with the engine, tests/test_gtp_engine.py). Exact where the book or the
solver proves a move, and a lost position's best try counted slice by slice; MCTS root
statistics elsewhere."""

import itertools

import agent
import endgame
import go_board
from littlego.analysis.live import MAX_SIMULATIONS, Analysis
from mcts import core

from referee_support import LAST_PLY, LAST_PLY_BEFORE

SETTINGS = {"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "7"}
SLICE = 0.05


def analysed(position, simulations, environ=SETTINGS):
    """The analysis after slices enough for `simulations` (whatever the machine's speed), or
    until it has nothing left to do."""
    settings = agent.Settings(environ)
    analysis = Analysis(position, settings, agent.read_book(settings), {})
    while analysis.simulations < simulations and analysis.step(SLICE):
        pass
    return analysis


def late_position(plies_left):
    # LAST_PLY (White to move at ply 24) replayed as if `plies_left` plies were left.
    return go_board.Position.from_text(LAST_PLY, go_board.WHITE,
                                       go_board.MAX_PLY + 1 - plies_left,
                                       previous=LAST_PLY_BEFORE)


def test_the_last_ply_is_proven_move_by_move():
    analysis = analysed(late_position(1), 1)
    assert analysis.simulations == len(late_position(1).legal_moves())
    found = {candidate.move: candidate for candidate in analysis.candidates()}
    winner = go_board.from_coord(0, 2)  # the capture that wins by half a point
    assert set(found) == set(late_position(1).legal_moves())
    assert all(candidate.proven for candidate in found.values())
    assert [move for move, candidate in found.items() if candidate.value == core.WIN] == [winner]
    assert analysis.candidates()[0].move == winner  # proven wins come first
    assert not analysis.step(SLICE)  # the search proved the root: nothing left to do


def test_a_lost_position_has_every_move_at_zero_and_its_best_try_first():
    # Until the search has proven the root (about 1,200 simulations): a count of simulations
    # would stop it at a slice boundary that depends on the machine's speed.
    analysis = analysed(late_position(5), MAX_SIMULATIONS)
    assert analysis.candidates() and all(
        candidate.proven and candidate.value == core.LOSS for candidate in analysis.candidates())
    # (4,1) leaves Black 2 winning replies of 5, fewer than any other move.
    assert analysis.best_try == endgame.ExactSolver().best_try(late_position(5)) == (
        go_board.from_coord(4, 1), 2)
    assert analysis.candidates()[0].move == go_board.from_coord(4, 1)
    assert not analysis.step(SLICE)


def test_a_position_with_a_winning_move_has_no_try():
    analysis = analysed(late_position(1), 1)
    assert analysis.best_try is None and not analysis.seeking_try


def test_the_best_try_is_counted_over_slices_from_the_kept_table():
    # A clock one second later at every reading: each call stops at its third deadline check
    # (one every 1,024 nodes), short of the ~14,600 nodes the whole count takes.
    position = late_position(17)
    whole = endgame.ExactSolver().best_try(position)
    assert endgame.best_try_in_time(position, 3, {}, clock=itertools.count().__next__) is None
    table, calls = {}, 0
    found = None
    while found is None:
        calls += 1
        found = endgame.best_try_in_time(position, 3, table, clock=itertools.count().__next__)
    assert found == whole == (go_board.from_coord(4, 1), 2) and calls > 1


def test_the_books_proven_first_move_is_certain_and_the_rest_is_searched():
    analysis = analysed(go_board.Position(), 2000)
    first, *rest, last = analysis.candidates()
    assert (first.move, first.value, first.proven) == (go_board.from_coord(2, 2), core.WIN, True)
    # Black's pass at ply 1 ends the game lost: the search proves it, and it comes last.
    assert (last.move, last.value, last.proven) == (go_board.PASS, core.LOSS, True)
    assert rest and not any(candidate.proven for candidate in rest)
    assert all(0 <= candidate.value <= 1 and candidate.visits > 0 for candidate in rest)
    assert [candidate.visits for candidate in rest] == sorted(
        (candidate.visits for candidate in rest), reverse=True)
    assert all(candidate.pv[0] == candidate.move for candidate in rest)
    assert len(rest[0].pv) >= 3  # the most visited move's line goes deeper


def test_without_the_book_nothing_is_certain_at_the_start():
    analysis = analysed(go_board.Position(), 200, dict(SETTINGS, LITTLEGO_BOOK="0"))
    *placements, last = analysis.candidates()
    assert placements and not any(candidate.proven for candidate in placements)
    assert last.move == go_board.PASS


def test_a_finished_game_has_nothing_to_analyse():
    over = go_board.Position().play(go_board.from_coord(2, 2)).play(go_board.PASS)
    over = over.play(go_board.PASS)
    assert over.is_over
    analysis = analysed(over, 1)
    assert analysis.step(SLICE) is False and analysis.candidates() == []


def test_the_tree_stops_growing_at_its_cap(monkeypatch):
    monkeypatch.setattr("littlego.analysis.live.MAX_SIMULATIONS", 50)
    analysis = analysed(go_board.Position(), 1000)
    assert analysis.simulations == 50 and not analysis.step(SLICE)
    assert MAX_SIMULATIONS > 50
