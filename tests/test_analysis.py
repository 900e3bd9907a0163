"""analysis/move_results.py: each legal move's proven result from the compiled solver (a fake module
here), the Python exact search (checked against endgame.ExactSolver and the reference solver)
and the book; in a lost position, the best try (the book's or the exact search's) and its
words."""

import itertools
import random
import sys
import types

import pytest

import endgame
import go_board
import opening_book
from go_board import BLACK, PASS, WHITE, Position, from_coord
from littlego import solver as compiled_solver  # the real one: tests swap fakes in under its name
from littlego.analysis import move_results, stored_values
from littlego.analysis.move_results import (LOSS, SOURCE_BOOK, SOURCE_SEARCH, SOURCE_SOLVER,
                                            SOURCE_TABLE, WIN)
from littlego.bench.positions import position_before_end

from endgame_reference import ReferenceSolver

CPU = 30.0  # never reached by these small searches: the tests do not depend on speed

# Black to move at ply 19 (6 plies left), White has just played 0,1.
LATE = """
    O O . O .
    X X X O O
    O . X O .
    . O X X X
    X . . . O"""
LATE_BEFORE = """
    O . . O .
    X X X O O
    O . X O .
    . O X X X
    X . . . O"""

# Black to move at ply 15 (10 plies left), White has just played 3,0: a proof of every move
# takes a few thousand nodes, their margins many more.
MIDGAME = """
    . . X X .
    . X O . X
    . O . O O
    O . O X .
    O . . . ."""
MIDGAME_BEFORE = """
    . . X X .
    . X O . X
    . O . O O
    . . O X .
    O . . . ."""

# Black to move at ply 17, White has just played 4,4: 1,2, 2,1 and 3,1 win, the best by 0.5.
THREE_WINNING_MOVES = """
    X X . O .
    . X . O .
    X . O X .
    O . X X .
    . O . . O"""
THREE_WINNING_MOVES_BEFORE = """
    X X . O .
    . X . O .
    X . O X .
    O . X X .
    . O . . ."""

# Black to move at ply 5: 20 plies left, beyond the Python exact search.
EARLY = """
    . . . . .
    . X O . .
    . . X . .
    . . O . .
    . . . . ."""


def late_position():
    return Position.from_text(LATE, to_move=BLACK, ply=19, previous=LATE_BEFORE)


def expected_results(position):
    """{move text: (result, margin in points)} by endgame.ExactSolver (win or loss) and the
    unoptimised reference solver (margins), move by move."""
    solver = endgame.ExactSolver()
    expected = {}
    for move, child in solver.root_moves(position):
        after = position.play(move)
        if after.is_over:
            margin = go_board.margin(go_board.popcount(after.stones(position.to_move))
                                     - go_board.popcount(after.stones(after.to_move)),
                                     position.to_move)
        else:
            margin = -ReferenceSolver().margin(after) / 2.0
        won = solver.move_wins(position, child)
        assert won == (margin > 0)
        expected[go_board.move_to_text(move)] = (WIN if won else LOSS, margin)
    return expected


def as_pairs(answer):
    return {move: (known["result"], known.get("margin")) for move, known in answer["moves"].items()}


def test_the_exact_search_gives_every_move_its_result_and_margin():
    position = late_position()
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK)
    assert as_pairs(answer) == expected_results(position)
    # Only 0,2 and 2,4 win, both by 1.5; passing loses by 3.5.
    assert as_pairs(answer) == {
        "0,2": (WIN, 1.5), "2,4": (WIN, 1.5), "2,1": (LOSS, -1.5), "3,0": (LOSS, -2.5),
        "4,1": (LOSS, -1.5), "4,2": (LOSS, -0.5), "4,3": (LOSS, -1.5), "PASS": (LOSS, -3.5)}
    assert (answer["source"], answer["result"], answer["margin"], answer["unknown"]) == \
        (SOURCE_SEARCH, WIN, 1.5, False)


# White's best try (move_results') after Black's winning 0,2 in late_position().
LOST_AFTER_THE_WINNING_MOVE = {"move": "4,2", "opponent_wins": 1, "opponent_moves": 8,
                               "summary": "lost: Black must find 1 of 8 moves"}


def test_after_a_winning_move_every_reply_of_the_opponent_is_a_proven_loss():
    position = late_position().play(from_coord(0, 2))
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK)
    assert position.to_move == WHITE
    assert as_pairs(answer) == expected_results(position)
    assert {known["result"] for known in answer["moves"].values()} == {LOSS}
    assert set(answer["moves"]) == {go_board.move_to_text(m) for m in position.legal_moves()}
    assert (answer["result"], answer["margin"], answer["unknown"]) == (LOSS, -1.5, False)
    # White's best try: 4,2 leaves Black 1 winning reply of its 8 legal moves.
    assert endgame.ExactSolver().best_try(position) == (from_coord(4, 2), 1)
    assert answer["best_try"] == LOST_AFTER_THE_WINNING_MOVE


def test_the_best_try_of_a_lost_position_the_compiled_solver_proves_is_the_searchs(
        monkeypatch):
    position = late_position().play(from_coord(0, 2))
    fake = FakeSolver(answer={"result": "loss", "margin": None, "nodes": 10, "cpu": 0.1,
                              "moves": {go_board.move_to_text(move): "loss"
                                        for move in position.legal_moves()}})
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, fake)
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK)
    assert (answer["source"], answer["result"]) == (SOURCE_SOLVER, LOSS)
    assert answer["best_try"] == LOST_AFTER_THE_WINNING_MOVE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_late_positions_agree_with_the_solvers(seed):
    position = position_before_end(random.Random(seed), 5, 0.1, 0.5)
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK)
    assert as_pairs(answer) == expected_results(position)


@pytest.mark.parametrize("deadline_checks, all_results", [(1, False), (8, True)])
def test_what_was_proven_before_the_cpu_ran_out_is_kept_and_the_rest_is_unknown(
        deadline_checks, all_results):
    # Fourteen plies left, the earliest the exact search takes: its proofs of the moves take
    # thousands of nodes.
    position = Position.from_text(MIDGAME, to_move=BLACK, ply=11, previous=MIDGAME_BEFORE)
    # A clock one second later at every reading: the search stops at its `deadline_checks`th
    # deadline check (one every 1,024 nodes), before any margin is known.
    clock = itertools.count().__next__
    answer = move_results.move_results(position, deadline_checks, book=opening_book.NO_BOOK, clock=clock)
    assert answer["source"] == SOURCE_SEARCH and answer["margin"] is None
    assert answer["unknown"] != all_results
    assert (len(answer["moves"]) == len(position.legal_moves())) == all_results
    solver = endgame.ExactSolver()
    for move, child in solver.root_moves(position):
        known = answer["moves"].get(go_board.move_to_text(move))
        if known is not None:
            assert known == {"result": WIN if solver.move_wins(position, child) else LOSS}
    if all_results:
        assert answer["result"] == (WIN if solver.mover_wins(position) else LOSS)
    assert answer["best_try"] is None  # the CPU ran out before any try was counted


def test_the_winning_moves_margins_come_first_and_give_the_positions():
    position = Position.from_text(THREE_WINNING_MOVES, to_move=BLACK, ply=17,
                                  previous=THREE_WINNING_MOVES_BEFORE)
    # Stopped at the 12th deadline check: every result and the winners' margins are known (in
    # search order the margins of some losing moves come first, and are not).
    answer = move_results.move_results(position, 12, book=opening_book.NO_BOOK,
                                   clock=itertools.count().__next__)
    assert (answer["result"], answer["margin"], answer["unknown"]) == (WIN, 0.5, False)
    wins = {move: known for move, known in answer["moves"].items() if known["result"] == WIN}
    assert set(wins) == {"1,2", "2,1", "3,1"}
    assert [known for known in answer["moves"].values() if "margin" not in known]
    solver = endgame.ExactSolver()
    root = solver.root_moves(position)
    assert {move: known["result"] for move, known in answer["moves"].items()} == {
        go_board.move_to_text(move): WIN if solver.move_wins(position, child) else LOSS
        for move, child in root}
    for move, child in root:
        if go_board.move_to_text(move) in wins:
            margin = -endgame.ExactSolver().value(*(child + (endgame.WORST, -endgame.WORST)))
            assert wins[go_board.move_to_text(move)]["margin"] == margin / 2.0


def test_the_margin_search_resumed_slice_after_slice_gives_every_margin():
    # A clock one second later at every reading: each slice stops at its first deadline check
    # (one every 1,024 nodes); the kept solver and bounds carry the work to the next.
    position = Position.from_text(THREE_WINNING_MOVES, to_move=BLACK, ply=17,
                                  previous=THREE_WINNING_MOVES_BEFORE)
    clock = itertools.count().__next__
    search = move_results.ExactMargins(position)
    slices = 1
    while not search.advance(clock() + 1, clock):
        slices += 1
    assert slices > 3 and search.bounds() > 0
    moves, margin = search.answer()
    assert {move: (known["result"], known["margin"]) for move, known in moves.items()} == \
        expected_results(position)
    assert margin == 0.5


def test_too_many_plies_left_for_the_search_and_no_book_is_not_proven():
    position = Position.from_text(EARLY, to_move=BLACK, ply=5)
    assert go_board.plies_left(position.ply) > endgame.EXACT_PLIES_LEFT
    assert move_results.move_results(position, CPU, book=opening_book.NO_BOOK) == {
        "source": None, "result": None, "margin": None, "moves": {}, "unknown": True,
        "best_try": None}


def book_with(tmp_path, position, move):
    """A book file answering `move` in `position` alone, opened."""
    path = str(tmp_path / "book.txt")
    opening_book.write(path, dict([opening_book.record(position, move)]), {})
    return opening_book.read(path)


def test_a_book_move_is_a_win_and_the_other_moves_are_unknown(tmp_path):
    # A mirrored image of EARLY: the book's key is the canonical one, its move mapped back.
    position = Position.from_text(EARLY, to_move=BLACK, ply=5).transformed(5)
    move = position.legal_placements()[3]
    answer = move_results.move_results(position, CPU, book=book_with(tmp_path, position, move))
    assert answer == {"source": SOURCE_BOOK, "result": WIN, "margin": None,
                      "moves": {go_board.move_to_text(move): {"result": WIN}}, "unknown": True,
                      "best_try": None}


def test_a_book_try_proves_every_move_lost_and_names_the_try(tmp_path):
    position = Position.from_text(EARLY, to_move=BLACK, ply=5).transformed(5)
    move = position.legal_placements()[3]
    path = str(tmp_path / "book.txt")
    key, stored = opening_book.record(position, move)
    opening_book.write(path, {}, {}, tries={key: (stored, 3)})
    answer = move_results.move_results(position, CPU, book=opening_book.read(path))
    assert answer == {
        "source": SOURCE_BOOK, "result": LOSS, "margin": None, "unknown": False,
        "moves": {go_board.move_to_text(legal): {"result": LOSS}
                  for legal in position.legal_moves()},
        "best_try": {"move": "0,3", "opponent_wins": 3, "opponent_moves": 21,
                     "summary": "lost: White must find 3 of 21 moves"}}


def test_the_book_file_proves_blacks_centre():
    answer = move_results.move_results(Position(), CPU, values=stored_values.StoredValues())
    assert (answer["source"], answer["moves"]) == (SOURCE_BOOK, {"2,2": {"result": WIN}})


def test_the_stored_value_table_answers_first_with_every_margin():
    # The committed table holds the empty board: the centre wins by 0.5, the rest lose.
    answer = move_results.move_results(Position(), CPU)
    assert (answer["source"], answer["result"], answer["margin"], answer["unknown"]) == (
        SOURCE_TABLE, WIN, 0.5, False)
    assert answer["moves"]["2,2"] == {"result": WIN, "margin": 0.5}
    assert answer["moves"]["PASS"] == {"result": LOSS, "margin": -2.5}
    assert {move for move, known in answer["moves"].items() if known["result"] == WIN} == {"2,2"}
    assert len(answer["moves"]) == 26


def test_a_finished_game_has_no_moves():
    over = Position().play(from_coord(2, 2)).play(PASS).play(PASS)
    assert over.is_over
    assert move_results.move_results(over, CPU, book=opening_book.NO_BOOK) == {
        "source": None, "result": None, "margin": None, "moves": {}, "unknown": False,
        "best_try": None}


class FakeSolver(types.ModuleType):
    """The compiled solver's API (`available`, `analyse`) with a fixed answer; without one it
    raises endgame.OutOfTime, as the real one does when its CPU runs out."""

    def __init__(self, built=True, answer=None):
        types.ModuleType.__init__(self, move_results.SOLVER_MODULE)
        self.built, self.fixed, self.calls = built, answer, []

    def available(self):
        return self.built

    def analyse(self, position, cpu_limit=None, margins=False):
        self.calls.append((position, margins))
        if self.fixed is None or margins and "move_margins" not in self.fixed:
            raise endgame.OutOfTime()
        return self.fixed


@pytest.fixture(autouse=True)
def without_the_compiled_solver(monkeypatch):
    """The Python search and the book are the sources under test unless a test puts a solver
    module in place itself."""
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, FakeSolver(built=False))


def test_the_compiled_solver_answers_first_and_illegal_moves_are_left_out(monkeypatch):
    position = late_position()
    fake = FakeSolver(answer={"result": "win", "margin": 1.5, "nodes": 10, "cpu": 0.1,
                              "moves": {"0,2": "win", "2,1": "loss", "0,0": "win",
                                        "PASS": "loss"}})
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, fake)
    answer = move_results.move_results(position, 2.0, book=opening_book.NO_BOOK)
    assert fake.calls == [(position, False), (position, True)]  # the margins ran out of time
    assert answer == {"source": SOURCE_SOLVER, "result": WIN, "margin": None, "unknown": True,
                      "moves": {"0,2": {"result": WIN}, "2,1": {"result": LOSS},
                                "PASS": {"result": LOSS}}, "best_try": None}  # 0,0 is occupied


@pytest.mark.parametrize("fake", [FakeSolver(built=False), FakeSolver(answer=None)],
                         ids=["not built", "out of time"])
def test_without_a_compiled_answer_the_python_search_answers(monkeypatch, fake):
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, fake)
    answer = move_results.move_results(late_position(), CPU, book=opening_book.NO_BOOK)
    assert answer["source"] == SOURCE_SEARCH
    assert as_pairs(answer) == expected_results(late_position())


def test_the_compiled_solver_gives_the_python_searchs_results_and_margins(monkeypatch):
    assert compiled_solver.available(), "the compiled solver is not built: run `make solver`"
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, compiled_solver)
    position = late_position()
    answer = move_results.move_results(position, 60.0, book=opening_book.NO_BOOK)
    assert answer["source"] == SOURCE_SOLVER
    assert as_pairs(answer) == expected_results(position)


def test_the_solver_fills_in_the_missing_margins_move_by_move(monkeypatch):
    monkeypatch.setitem(sys.modules, move_results.SOLVER_MODULE, compiled_solver)
    position = late_position()
    legal = [go_board.move_to_text(move) for move in position.legal_moves()]
    known = {"0,2": {"result": WIN, "margin": 99.0}}  # kept as the first answer has it
    first = dict(move_results.summary(SOURCE_BOOK, legal, known, None), best_try=None)
    margins = move_results.solver_margins(position, first)
    answers = []
    try:
        assert (margins.solved, margins.total) == (1, len(legal))
        while not margins.finished():
            if margins.advance(CPU):
                answers.append(margins.answer())
    finally:
        margins.close()
    assert [len(answer["moves"]) for answer in answers] == list(range(2, len(legal) + 1))
    assert [answer["margin"] for answer in answers[:-1]] == [None] * (len(legal) - 2)
    expected = expected_results(position)
    expected["0,2"] = (WIN, 99.0)
    final = answers[-1]
    assert as_pairs(final) == expected
    assert (final["source"], final["result"], final["unknown"], final["margin"]) == (
        SOURCE_SOLVER, WIN, False, 99.0)


def test_no_margins_to_fill_in_or_no_compiled_solver_is_no_solving(monkeypatch):
    position = late_position()
    complete = move_results.move_results(position, CPU, book=opening_book.NO_BOOK)
    assert move_results.solver_margins(position, complete) is None  # the search gave them all
    partial = dict(complete, moves={"0,2": {"result": WIN}}, unknown=True)
    assert move_results.solver_margins(position, partial) is None  # the fake is not built
