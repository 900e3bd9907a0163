"""littlego/analysis/exact.py: the compiled solver and the Python exact search, two independent
implementations, give the one analysis the same values on many positions; every best line
either finds is legal, ends the game and ends it with the value it claims; a step of a line
that the compiled solver's table gets wrong is found again by asking each move."""

import itertools
import random

import pytest

import agent_settings
import clocks
import endgame
import go_board
import opening_book
from littlego import solver as compiled_solver
from littlego.analysis import exact, live, stored_values
from littlego.bench.positions import game_positions, position_before_end

SETTINGS = agent_settings.Settings({"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "3"})
EMPTY_TABLE = stored_values.StoredValues()
SLICE = 0.2
# Positions for the comparison: along seeded games (passes and captures, ko retakes among them)
# from 10 plies before the end on, where the Python search answers within a second or two.
COMPARED = [position for position in game_positions(random.Random(57), 600, 0.08, 0.3)
            if go_board.plies_left(position.ply) <= 10][:60]


def analysed(position, engine):
    analysis = live.Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE, engine,
                             move_lines=True, want_try=False, estimate=False)
    while analysis.step(SLICE):
        pass
    return analysis.report()


def mover_margin_after(position, line):
    end = live.line_end(position, line)
    assert end.is_over, line
    return end.score() if position.to_move == go_board.BLACK else -end.score()


@pytest.fixture(scope="module")
def engines():
    assert compiled_solver.available(), "the compiled solver is not built: run `make solver`"
    compiled = exact.CompiledExact(compiled_solver, 20)
    yield compiled, exact.PythonExact()
    compiled.close()


def test_the_compared_positions_are_many_and_varied():
    assert len(COMPARED) == 60
    plies = {go_board.plies_left(position.ply) for position in COMPARED}
    assert min(plies) == 1 and max(plies) == 10
    assert any(position.pass_ends_game for position in COMPARED)


@pytest.mark.parametrize("index", range(len(COMPARED)))
def test_the_compiled_solver_and_the_python_search_agree(engines, index):
    position = COMPARED[index]
    compiled, python = (analysed(position, engine) for engine in engines)
    for report in (compiled, python):
        assert report.complete and report.root.margin is not None
        assert sorted(known.move for known in report.moves) == sorted(position.legal_moves())
        assert mover_margin_after(position, report.root.line) == report.root.margin
        for known in report.moves:
            assert known.line_exact and known.line[0] == known.move
            assert mover_margin_after(position, known.line) == known.margin
    assert {known.move: known.margin for known in compiled.moves} == {
        known.move: known.margin for known in python.moves}
    assert compiled.root.margin == python.root.margin == max(
        known.margin for known in compiled.moves)


class WrongTable(object):
    """A compiled solver whose table names a move that does not keep the value."""

    def __init__(self, real):
        self.real = real

    def move_reaching(self, position, value, cpu_limit=None):
        best = self.real.move_reaching(position, value, cpu_limit)
        return next(move for move in position.legal_moves() if move != best)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_wrong_step_of_the_table_is_found_again_move_by_move(engines):
    position = position_before_end(random.Random(1), 6, 0.1, 0.5)
    compiled = engines[0]
    value = compiled.position_value(position, None)
    wrong = exact.CompiledExact.around(WrongTable(compiled.solver))
    line = exact.best_line(wrong, position, value)
    assert mover_margin_after(position, line) == go_board.margin(value, position.to_move)


def test_a_line_goes_on_from_where_its_time_ran_out(engines):
    position = position_before_end(random.Random(2), 12, 0.1, 0.5)
    value = engines[0].position_value(position, None)
    python = exact.PythonExact()
    # A clock one second later at every reading: each slice stops at its first deadline check
    # (one every 1,024 nodes); the kept proofs and bounds carry the walk on.
    python.search.clock = itertools.count().__next__
    walk = exact.BestLine(position, value)
    slices = 0
    while True:
        slices += 1
        try:
            walk.advance(python, python.search.clock() + 1)
            break
        except clocks.OutOfTime:
            pass
    assert slices > 3 and walk.finished()
    assert mover_margin_after(position, walk.moves) == go_board.margin(value, position.to_move)


def test_the_engine_is_the_compiled_solver_when_built_else_the_python_search(monkeypatch):
    assert isinstance(exact.engine(16), exact.CompiledExact)
    monkeypatch.setattr(exact, "compiled_solver", lambda: None)
    python = exact.engine()
    assert isinstance(python, exact.PythonExact)
    assert not python.covers(go_board.Position())
    assert python.covers(position_before_end(random.Random(1), endgame.EXACT_PLIES_LEFT, 0, 0))
