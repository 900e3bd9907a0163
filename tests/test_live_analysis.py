"""littlego/analysis/live.py: the one analysis of a position. What needs no search comes at
once (the stored value table with its lines, the book's proofs, the moves that end the game);
the exact search then gives the position's value, its best line and every move's value; an
estimate (MCTS) fills in where nothing is proven, marked as such. The presenters are tested
with their modules (test_katago.py, test_gtp_engine.py, test_board_server.py); the agreement of
the compiled solver and the Python search in test_analysis_exact.py."""

import random

import agent_settings
import endgame
import go_board
import opening_book
from go_board import BLACK, PASS, WHITE, Position, from_coord
from littlego.analysis import exact, live, stored_values
from littlego.analysis.live import LOSS, PROVEN_VISITS, WIN, Analysis
from littlego.bench.positions import position_before_end

from referee_support import LAST_PLY, LAST_PLY_BEFORE

SETTINGS = agent_settings.Settings({"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "7"})
NO_SOLVER = agent_settings.Settings({"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "7",
                            "LITTLEGO_SOLVER": "0"})
EMPTY_TABLE = stored_values.StoredValues()
SLICE = 0.05


def finished(analysis, steps=100000):
    """The analysis stepped until it has nothing left to do; its report."""
    for _ in range(steps):
        if not analysis.step(SLICE):
            break
    report = analysis.report()
    assert report.complete
    return report


def final_margin(position, line):
    """The side to move's final margin after `line` played out from `position`: a line must
    end the game."""
    end = live.line_end(position, line)
    assert end.is_over
    return end.score() if position.to_move == BLACK else -end.score()


def last_ply():
    return Position.from_text(LAST_PLY, WHITE, go_board.MAX_PLY, previous=LAST_PLY_BEFORE)


def test_the_stored_table_answers_at_once_with_every_margin_and_the_best_line():
    analysis = Analysis(Position(), SETTINGS, opening_book.read())
    report = analysis.report()  # no step: the table and the book only
    assert report.complete and report.source == live.SOURCE_TABLE
    assert (report.root.result, report.root.margin, report.root.line_exact) == (WIN, 0.5, True)
    assert final_margin(Position(), report.root.line) == 0.5  # the line keeps the value
    assert len(report.moves) == 26 and all(known.margin is not None for known in report.moves)
    best = report.moves[0]
    assert (best.move, best.result, best.margin, best.winrate) == (from_coord(2, 2), WIN, 0.5,
                                                                   1.0)
    assert best.line == report.root.line and best.visits == 2 * PROVEN_VISITS
    assert [known.margin for known in report.moves] == sorted(
        (known.margin for known in report.moves), reverse=True)
    # The table holds the position after every first move too (the pass ends the game), so
    # every move's line is proven, and each keeps its move's value.
    assert all(known.line_exact for known in report.moves)
    assert all(final_margin(Position(), known.line) == known.margin for known in report.moves)
    passing = [known for known in report.moves if known.move == PASS][0]
    assert passing.margin == -2.5 and passing.line == [PASS]  # it ends the game at ply 1
    assert report.moves[-1].margin == -5.5 and not analysis.step(SLICE)


def test_the_last_ply_is_every_moves_final_score_best_first():
    analysis = Analysis(last_ply(), SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE)
    report = analysis.report()
    # Every move ends the game: its margin is the final score, no search needed.
    assert report.complete
    assert [(go_board.move_to_text(known.move), known.margin) for known in report.moves] == [
        ("0,2", 0.5), ("2,0", -0.5), ("3,4", -0.5), ("4,1", -0.5), ("4,3", -0.5),
        ("PASS", -1.5)]
    assert (report.root.margin, report.root.result, report.root.line) == (
        0.5, WIN, [from_coord(0, 2)])


def test_the_exact_search_gives_the_value_the_line_and_every_margin():
    position = position_before_end(random.Random(1), 6, 0.1, 0.5)
    analysis = Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE,
                        move_lines=True)
    report = finished(analysis)
    expected = reference_margins(position)
    assert {known.move: known.margin for known in report.moves} == expected
    assert report.root.margin == max(expected.values()) == 2.5
    assert final_margin(position, report.root.line) == 2.5
    for known in report.moves:
        assert known.line_exact and known.line[0] == known.move
        assert final_margin(position, known.line) == known.margin
        assert known.winrate == (1.0 if known.margin > 0 else 0.0)
    assert report.moves[0].margin == 2.5  # a best move first
    assert report.source in (live.SOURCE_SOLVER, live.SOURCE_SEARCH)
    analysis.close()


def reference_margins(position):
    """`{move: the mover's exact margin after it}` by endgame.ExactSolver, move by move."""
    solver = endgame.ExactSolver()
    margins = {}
    for move, child in solver.root_moves(position):
        if child is None:
            margins[move] = endgame.mover_margin(position)
        else:
            margins[move] = -solver.value(*(child + (endgame.WORST, -endgame.WORST))) / 2.0
    return margins


def test_the_moves_asked_first_get_their_values_first():
    position = position_before_end(random.Random(3), 12, 0.1, 0.5)
    worst = min(reference_margins(position).items(), key=lambda item: item[1])[0]
    analysis = Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE, first=[worst],
                        estimate=False)
    while not analysis.knows([worst]):
        assert analysis.step(SLICE)
    assert analysis.values[worst] is not None
    assert len(analysis.values) < len(position.legal_moves())  # before the others
    analysis.close()


def test_without_the_exact_search_everything_is_an_estimate_and_says_so():
    position = Position.from_text("""
        . . . . .
        . X O . .
        . . X . .
        . . O . .
        . . . . .""", to_move=BLACK, ply=5)
    analysis = Analysis(position, NO_SOLVER, opening_book.NO_BOOK, EMPTY_TABLE,
                        max_simulations=300)
    report = finished(analysis)
    assert analysis.simulations == 300
    assert report.root.margin is None and not report.root.line_exact
    placements = [known for known in report.moves if known.move != PASS]
    assert placements and all(known.margin is None and not known.line_exact
                              for known in placements)
    assert all(0 <= known.winrate <= 1 and known.visits < PROVEN_VISITS
               for known in placements)
    assert sum(known.visits for known in placements) > 0
    # The estimate: the stones as they stand after the move (one more stone than White's two,
    # minus the komi).
    assert {known.score for known in placements} == {-1.5}
    assert all(known.line[0] == known.move for known in report.moves)


def test_the_books_proofs_stand_where_nothing_else_is_known():
    # The empty board without the table or the exact search: the book proves the centre wins.
    analysis = Analysis(Position(), NO_SOLVER, opening_book.read(), EMPTY_TABLE,
                        max_simulations=200)
    report = finished(analysis)
    centre = [known for known in report.moves if known.move == from_coord(2, 2)][0]
    assert (centre.result, centre.margin, centre.winrate) == (WIN, None, 1.0)
    assert centre.score == live.CLOSEST_MARGIN  # a proven win, by at least half a point
    assert centre.visits >= PROVEN_VISITS and report.source == live.SOURCE_BOOK
    assert report.root.result == WIN and report.root.margin is None
    # Black's pass at ply 1 ends the game: its score is exact, -2.5.
    assert report.moves[-1].move == PASS and report.moves[-1].margin == -2.5


def test_a_lost_position_ranks_by_value_and_knows_its_try():
    position = position_before_end(random.Random(1), 6, 0.1, 0.5).play(from_coord(2, 0))
    expected = reference_margins(position)
    assert max(expected.values()) < 0  # every move loses after Black's winning A3
    analysis = Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE, estimate=False)
    report = finished(analysis)
    assert report.root.result == LOSS and report.best_try is not None
    assert report.best_try == endgame.ExactSolver().best_try(position)
    margins = [known.margin for known in report.moves]
    assert margins == sorted(margins, reverse=True)
    # Equal margins in the board's order, whatever found them.
    for earlier, later in zip(report.moves, report.moves[1:]):
        assert earlier.margin > later.margin or earlier.move < later.move
    analysis.close()


def test_only_the_moves_asked_for_are_analysed_and_the_root_is_their_best():
    position = position_before_end(random.Random(1), 6, 0.1, 0.5)
    expected = reference_margins(position)
    chosen = [move for move in expected if expected[move] < 0][:3]
    assert len(chosen) == 3
    analysis = Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE, moves=chosen,
                        estimate=False)
    report = finished(analysis)
    assert sorted(known.move for known in report.moves) == sorted(chosen)
    assert report.root.margin == max(expected[move] for move in chosen)
    assert report.root.result == LOSS
    analysis.close()


def test_a_finished_game_is_its_score():
    over = Position().play(from_coord(2, 2)).play(PASS).play(PASS)
    report = Analysis(over, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE).report()
    assert report.complete and report.moves == []
    assert (report.root.margin, report.root.line, report.root.line_exact) == (
        over.score() if over.to_move == BLACK else -over.score(), [], True)


def test_the_tree_stops_growing_at_its_cap():
    analysis = Analysis(Position(), NO_SOLVER, opening_book.NO_BOOK, EMPTY_TABLE,
                        max_simulations=50)
    finished(analysis)
    assert analysis.simulations == 50
    assert live.MAX_SIMULATIONS > 50


def test_the_estimate_gets_its_share_while_the_exact_search_works():
    # Ply 7 of a recorded game: the exact search takes seconds, the estimate runs beside it.
    position = position_before_end(random.Random(5), 18, 0.0, 0.0)
    analysis = Analysis(position, SETTINGS, opening_book.NO_BOOK, EMPTY_TABLE,
                        engine=exact.engine())
    for _ in range(8):
        analysis.step(SLICE)
    assert analysis.simulations > 0
    assert analysis.estimated <= live.ESTIMATE_SHARE * analysis.worked + 2 * SLICE
    analysis.engine.close()
