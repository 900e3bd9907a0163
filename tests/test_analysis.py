"""analysis/move_results.py: the one analysis in the browser board's words, run for a CPU
budget: each legal move's proven result and margin (checked against endgame.ExactSolver and
the unoptimised reference solver), the stored table's, the book's; in a lost position, the best
try in words; with `first`, no more than the position's and those moves' margins."""

import time

import endgame
import go_board
import opening_book
from go_board import BLACK, PASS, WHITE, Position, from_coord
from littlego.analysis import exact, move_results, stored_values
from littlego.analysis.live import SOURCE_BOOK, SOURCE_SOLVER, SOURCE_TABLE
from littlego.analysis.move_results import LOSS, WIN

from endgame_reference import ReferenceSolver

CPU = 30.0  # never reached by these small searches: the tests do not depend on speed
EMPTY_TABLE = stored_values.StoredValues()
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




def test_every_move_gets_its_result_and_margin():
    position = late_position()
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK,
                                       values=EMPTY_TABLE)
    assert as_pairs(answer) == expected_results(position)
    # Only 0,2 and 2,4 win, both by 1.5; passing loses by 3.5.
    assert as_pairs(answer) == {
        "0,2": (WIN, 1.5), "2,4": (WIN, 1.5), "2,1": (LOSS, -1.5), "3,0": (LOSS, -2.5),
        "4,1": (LOSS, -1.5), "4,2": (LOSS, -0.5), "4,3": (LOSS, -1.5), "PASS": (LOSS, -3.5)}
    assert (answer["source"], answer["result"], answer["margin"], answer["unknown"]) == \
        (SOURCE_SOLVER, WIN, 1.5, False)
    assert answer["best_try"] is None


# White's best try (move_results') after Black's winning 0,2 in late_position().
LOST_AFTER_THE_WINNING_MOVE = {"move": "4,2", "opponent_wins": 1, "opponent_moves": 8,
                               "summary": "lost: Black must find 1 of 8 moves"}


def test_after_a_winning_move_every_reply_is_a_loss_and_the_best_try_is_named():
    position = late_position().play(from_coord(0, 2))
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK,
                                       values=EMPTY_TABLE)
    assert position.to_move == WHITE
    assert as_pairs(answer) == expected_results(position)
    assert {known["result"] for known in answer["moves"].values()} == {LOSS}
    assert set(answer["moves"]) == {go_board.move_to_text(m) for m in position.legal_moves()}
    assert (answer["result"], answer["margin"], answer["unknown"]) == (LOSS, -1.5, False)
    # White's best try: 4,2 leaves Black 1 winning reply of its 8 legal moves.
    assert endgame.ExactSolver().best_try(position) == (from_coord(4, 2), 1)
    assert answer["best_try"] == LOST_AFTER_THE_WINNING_MOVE


def test_the_python_search_gives_the_same_answer():
    position = late_position()
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK,
                                       values=EMPTY_TABLE, engine=exact.PythonExact())
    assert answer["source"] == exact.PythonExact.name
    assert as_pairs(answer) == expected_results(position)


def test_the_stored_value_table_answers_first_with_every_margin():
    # The committed table holds the empty board: the centre wins by 0.5, the rest lose.
    answer = move_results.move_results(Position(), CPU)
    assert (answer["source"], answer["result"], answer["margin"], answer["unknown"]) == (
        SOURCE_TABLE, WIN, 0.5, False)
    assert answer["moves"]["2,2"] == {"result": WIN, "margin": 0.5}
    assert answer["moves"]["PASS"] == {"result": LOSS, "margin": -2.5}
    assert {move for move, known in answer["moves"].items() if known["result"] == WIN} == {"2,2"}
    assert len(answer["moves"]) == 26


def book_with(tmp_path, position, move):
    """A book file answering `move` in `position` alone, opened."""
    path = str(tmp_path / "book.txt")
    opening_book.write(path, dict([opening_book.record(position, move)]), {})
    return opening_book.read(path)


def test_where_nothing_else_proves_anything_a_book_move_is_a_win(tmp_path):
    # A mirrored image of EARLY: the book's key is the canonical one, its move mapped back. The
    # Python search does not reach ply 5; the pass ends the game (the previous board is the
    # same), so its score is exact.
    position = Position.from_text(EARLY, to_move=BLACK, ply=5).transformed(5)
    move = position.legal_placements()[3]
    answer = move_results.move_results(position, CPU, book=book_with(tmp_path, position, move),
                                       values=EMPTY_TABLE, engine=exact.PythonExact())
    assert answer == {"source": SOURCE_BOOK, "result": WIN, "margin": None,
                      "moves": {go_board.move_to_text(move): {"result": WIN},
                                "PASS": {"result": LOSS, "margin": -2.5}}, "unknown": True,
                      "best_try": None}


def test_a_book_try_proves_every_move_lost_and_names_the_try(tmp_path):
    position = Position.from_text(EARLY, to_move=BLACK, ply=5).transformed(5)
    move = position.legal_placements()[3]
    path = str(tmp_path / "book.txt")
    key, stored = opening_book.record(position, move)
    opening_book.write(path, {}, {}, tries={key: (stored, 3)})
    answer = move_results.move_results(position, CPU, book=opening_book.read(path),
                                       values=EMPTY_TABLE, engine=exact.PythonExact())
    assert answer == {
        "source": SOURCE_BOOK, "result": LOSS, "margin": None, "unknown": False,
        "moves": dict({go_board.move_to_text(legal): {"result": LOSS}
                       for legal in position.legal_moves()},
                      PASS={"result": LOSS, "margin": -2.5}),
        "best_try": {"move": "0,3", "opponent_wins": 3, "opponent_moves": 21,
                     "summary": "lost: White must find 3 of 21 moves"}}


def test_what_was_proven_before_the_cpu_ran_out_is_kept_and_the_rest_is_unknown():
    # Ply 5: the compiled solver takes seconds for the position's value; a tenth of a second
    # of CPU gives what needs no search (the pass ends the game here), and says the rest is
    # unknown.
    position = Position.from_text(EARLY, to_move=BLACK, ply=5)
    started = time.thread_time()
    answer = move_results.move_results(position, 0.1, book=opening_book.NO_BOOK,
                                       values=EMPTY_TABLE)
    assert time.thread_time() - started < 1.0
    assert answer["unknown"] and (answer["result"], answer["margin"]) == (None, None)
    assert answer["moves"]["PASS"] == {"result": LOSS, "margin": -2.5}


def test_with_first_the_answer_stops_at_the_positions_and_that_moves_margins():
    position = Position.from_text(MIDGAME, to_move=BLACK, ply=15, previous=MIDGAME_BEFORE)
    move = from_coord(0, 0)
    answer = move_results.move_results(position, CPU, book=opening_book.NO_BOOK,
                                       values=EMPTY_TABLE, first=[move], want_try=False)
    full = move_results.move_results(position, CPU, book=opening_book.NO_BOOK,
                                     values=EMPTY_TABLE)
    # The position's value (the reference solver's too) and 0,0's, by the reference solver.
    assert answer["margin"] == full["margin"] == max(
        known["margin"] for known in full["moves"].values()) == -7.5
    assert answer["moves"]["0,0"] == full["moves"]["0,0"] == {
        "result": LOSS, "margin": -ReferenceSolver().margin(position.play(move)) / 2.0}
    assert answer["unknown"] and not full["unknown"]


def test_a_finished_game_has_no_moves():
    over = Position().play(from_coord(2, 2)).play(PASS).play(PASS)
    assert over.is_over and over.to_move == WHITE
    # White to move after the game ended: Black's one stone against the komi.
    assert move_results.move_results(over, CPU, book=opening_book.NO_BOOK) == {
        "source": None, "result": WIN, "margin": 1.5, "moves": {}, "unknown": False,
        "best_try": None}
