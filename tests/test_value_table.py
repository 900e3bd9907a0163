"""littlego/bench/value_table.py (`littlego bench-value`) on positions near the end, where its
three searches take milliseconds: its value table against endgame.py's exact search, its classes
of symmetric moves on the empty board and after the centre, and its markdown."""

import random

import endgame
import go_board
from go_board import PASS, Position, from_coord
from littlego.bench import value_table
from littlego.bench.positions import position_before_end

SEED = 39
TABLE_BITS = 16
PLIES_LEFT = 6


def texts(classes):
    return [[go_board.move_to_text(move) for move in group] for group in classes]


def test_the_empty_board_has_seven_classes_of_first_moves():
    empty = Position()
    classes = value_table.symmetric_classes(empty, empty.legal_moves())
    assert [len(group) for group in classes] == [4, 8, 4, 4, 4, 1, 1]
    assert texts(classes)[1] == ["0,1", "0,3", "1,0", "1,4", "3,0", "3,4", "4,1", "4,3"]
    assert texts(classes)[-2:] == [["2,2"], ["PASS"]]


def test_after_the_centre_white_has_six_classes_of_replies():
    after = Position().play(from_coord(2, 2))
    classes = value_table.symmetric_classes(after, after.legal_moves())
    assert [group[0] for group in classes] == [from_coord(0, 0), from_coord(0, 1),
                                               from_coord(0, 2), from_coord(1, 1),
                                               from_coord(1, 2), PASS]


def test_the_value_table_is_the_python_searchs_and_the_results_agree():
    position = position_before_end(random.Random(SEED), PLIES_LEFT, 0.0, 0.5)
    first = position.legal_placements()[0]
    found = value_table.figures(TABLE_BITS, position, first)
    rows = found["value_table"]["rows"]
    _, half_points = endgame.ExactSolver().best_move(position)
    assert 2 * rows[0]["margin"] == half_points
    assert [row["value"] for row in rows] == sorted((row["value"] for row in rows), reverse=True)
    assert sorted(text for row in rows for text in row["moves"]) == sorted(
        go_board.move_to_text(move) for move in position.legal_moves())
    after = position.play(first)
    python = endgame.ExactSolver()
    _, half_points = python.best_move(after)
    replies = found["replies"]["rows"]
    assert 2 * replies[0]["margin"] == half_points and replies[0]["best"]
    for row in replies:
        child = after.play(go_board.move_from_text(row["moves"][0]))
        if child.is_over:
            continue
        replier = -python.best_move(child)[1]
        assert replier == 2 * row["margin"] if row["best"] else replier <= 2 * row["margin"]
    assert {row["best"] for row in replies} == {True, False}
    assert found["replies"]["first"] == go_board.move_to_text(first)
    lines = value_table.table(found)
    assert lines[0] == "| search | CPU s | nodes |"
    assert "| {} | {:+d} | {:+.1f} |".format(" ".join(rows[0]["moves"]), rows[0]["value"],
                                              rows[0]["margin"]) in lines
