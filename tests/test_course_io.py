"""The course files (course_io): input.txt and output.txt pinned to exact strings, the course
referee's leniencies and the forms it rejects, and the bounded read and the atomic write."""

import os

import pytest

import course_io
import go_board
from course_io import InputError, OutputError
from go_board import PASS, WHITE, from_coord
from littlego.referee import rules

from referee_support import EMPTY, board, input_text

ONE_STONE = """
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .
"""


def point(row, col):
    return from_coord(row, col)


# ---- input.txt, as a player reads it ------------------------------------------------------

def test_parse_input_accepts_crlf_trailing_spaces_and_final_newline():
    text = "2\r\n00000 \r\n00000\r\n00000\r\n00000\r\n00000\r\n00000\r\n00000\r\n00100\r\n00000\r\n00000\r\n"
    colour, previous, current = course_io.parse_input(text)
    assert colour == WHITE and previous == (0, 0) and current == (1 << point(2, 2), 0)


@pytest.mark.parametrize("text, message", [
    ("", "expected 11 lines (colour, previous board, current board), found 0"),
    ("1\n" + "00000\n" * 9, "expected 11 lines (colour, previous board, current board), found 10"),
    ("1\n" + "00000\n" * 11, "expected 11 lines (colour, previous board, current board), found 12"),
    ("3\n" + "00000\n" * 10, "line 1: colour must be 1 or 2, found '3'"),
    ("1\n" + "00000\n" * 4 + "0000\n" + "00000\n" * 5, "line 6: a row is 5 digits 0-2, found '0000'"),
    ("1\n" + "00000\n" * 7 + "00300\n" + "00000\n" * 2, "line 9: a row is 5 digits 0-2, found '00300'"),
    ("1\n" + "00000\n" * 9 + "00300", "line 11: a row is 5 digits 0-2, found '00300'"),
    ("1\n" + "00000\n" * 5 + "12000\n20000\n" + "00000\n" * 3,
     "current board: the group at 0,0 has no liberty"),
])
def test_parse_input_rejects_with_a_precise_message(text, message):
    with pytest.raises(InputError) as raised:
        course_io.parse_input(text)
    assert str(raised.value) == message


def test_read_input_reports_a_missing_file(tmp_path):
    with pytest.raises(InputError) as raised:
        course_io.read_input(str(tmp_path / "input.txt"))
    assert "cannot read" in str(raised.value)


def test_format_input_is_lf_without_final_newline():
    text = course_io.format_input(WHITE, (0, 0), (1 << point(2, 2), 1 << point(0, 4)))
    assert text == "2\n00000\n00000\n00000\n00000\n00000\n00002\n00000\n00100\n00000\n00000"


# ---- input.txt, as the referee reads it -----------------------------------------------------

def test_grid_input_is_formatted_exactly_as_the_course_writes_it():
    assert course_io.format_grid_input(rules.WHITE, board(EMPTY), board(ONE_STONE)) == (
        "2\n00000\n00000\n00000\n00000\n00000\n00000\n00000\n00100\n00000\n00000")


@pytest.mark.parametrize("transform", [
    lambda text: text,
    lambda text: text + "\n",
    lambda text: text.replace("\n", "\r\n") + "\r\n",
    lambda text: text.replace("\n", "  \n") + "  \n\n",
])
def test_grid_input_parsing_accepts_line_end_variants(transform):
    text = input_text(2, EMPTY, ONE_STONE)
    assert course_io.parse_grid_input(transform(text)) == (
        rules.WHITE, board(EMPTY), board(ONE_STONE))


def test_the_referee_reads_a_board_no_game_reaches():
    # The course referee checks the format only; refusing such a board is the player's call.
    text = "1\n" + "00000\n" * 5 + "12000\n20000\n" + "00000\n" * 3
    assert course_io.parse_grid_input(text)[2][0][:2] == [1, 2]


# ---- output.txt ---------------------------------------------------------------------------

def test_format_output():
    assert course_io.format_output((4, 0)) == "4,0"
    assert course_io.format_output(rules.PASS) == "PASS"


@pytest.mark.parametrize("move, text", [((2, 3), "2,3"), (None, "PASS")])
def test_write_output_writes_a_go_board_move(tmp_path, move, text):
    path = str(tmp_path / "output.txt")
    course_io.write_output(PASS if move is None else point(*move), path)
    assert course_io.read_text(path) == text == go_board.move_to_text(
        PASS if move is None else point(*move))


def test_the_files_board_is_the_rules_board():
    assert course_io.SIZE == go_board.SIZE == rules.SIZE
    assert (course_io.BLACK_DIGIT, course_io.WHITE_DIGIT) == (go_board.BLACK, go_board.WHITE)
    assert course_io.PASS_TEXT == go_board.PASS_TEXT == rules.PASS


@pytest.mark.parametrize("line, action", [
    ("2,3", (2, 3)),
    ("2,3\n", (2, 3)),
    (" 1 , 2 ", (1, 2)),        # strip() then int(), which ignores spaces
    ("1,2,3", (1, 2)),          # extra fields are never read
    ("+1,-0", (1, 0)),
    ("1_0,2", (10, 2)),         # int() accepts digit underscores: off the board later
    ("-1,2", (-1, 2)),
    ("PASS", rules.PASS),
    (" PASS \n", rules.PASS),
    ("PASS,x", rules.PASS),     # only the first field is compared with PASS
])
def test_output_lines_the_course_accepts(line, action):
    assert course_io.parse_action(line) == action


@pytest.mark.parametrize("line", [
    "pass", "Pass", "", "\n", "(2,3)", "2 3", "1", "1,", ",1", "1.0,2", "a,b", "PASS x"])
def test_output_lines_the_course_rejects(line):
    with pytest.raises(OutputError):
        course_io.parse_action(line)


def test_output_is_read_up_to_the_first_line_end(tmp_path):
    path = tmp_path / "output.txt"
    path.write_bytes(b"2,2\r\nPASS\n")
    assert course_io.parse_action(course_io.read_output_line(str(path))) == (2, 2)
    path.write_bytes(b"\nPASS")
    with pytest.raises(OutputError):
        course_io.parse_action(course_io.read_output_line(str(path)))


@pytest.mark.parametrize("content", [None, b"\xff\xfe2,2"])
def test_missing_or_undecodable_output_is_an_output_error(tmp_path, content):
    path = tmp_path / "output.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(OutputError):
        course_io.read_output_line(str(path))


def test_write_output_then_read_it_back(tmp_path):
    path = str(tmp_path / "output.txt")
    course_io.write_output(point(1, 4), path)
    assert course_io.parse_action(course_io.read_output_line(path)) == (1, 4)
    assert course_io.read_text(path) == "1,4"


# ---- the bounded read and the atomic write ------------------------------------------------

def test_read_regular_file_refuses_a_larger_file_and_a_directory(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert course_io.read_regular_file(str(path), 11) == b"x" * 11
    with pytest.raises(InputError, match="larger than 10 bytes"):
        course_io.read_regular_file(str(path), 10)
    with pytest.raises((InputError, OSError)):
        course_io.read_regular_file(str(tmp_path), 10)


def test_write_atomically_replaces_the_file_and_leaves_nothing_else(tmp_path):
    path = tmp_path / "file.json"
    path.write_text("old")
    course_io.write_atomically(str(path), "new")
    assert path.read_text() == "new"
    assert os.listdir(str(tmp_path)) == ["file.json"]
    assert os.stat(str(path)).st_mode & 0o777 == course_io.WRITTEN_FILE_MODE


def test_an_atomic_write_draws_another_temporary_name_when_one_is_taken(tmp_path, monkeypatch):
    path = tmp_path / "file.json"
    taken = tmp_path / ".file.json.000000000000"
    taken.write_text("someone else's")
    draws = iter([bytes(6), bytes(6), b"\x01" * 6])
    monkeypatch.setattr(course_io.os, "urandom", lambda count: next(draws))
    course_io.write_atomically(str(path), "new")
    assert path.read_text() == "new"
    assert taken.read_text() == "someone else's"
    assert sorted(os.listdir(str(tmp_path))) == [".file.json.000000000000", "file.json"]


def test_an_atomic_write_without_a_free_temporary_name_fails_and_keeps_the_old_file(
        tmp_path, monkeypatch):
    path = tmp_path / "file.json"
    path.write_text("old")
    (tmp_path / ".file.json.000000000000").write_text("taken")
    monkeypatch.setattr(course_io.os, "urandom", lambda count: bytes(count))
    with pytest.raises(FileExistsError):
        course_io.write_atomically(str(path), "new")
    assert path.read_text() == "old"
    assert sorted(os.listdir(str(tmp_path))) == [".file.json.000000000000", "file.json"]


def test_a_failed_atomic_write_keeps_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "file.json"
    path.write_text("old")

    def refuse(source, target):
        raise OSError("disk full")
    monkeypatch.setattr(course_io.os, "replace", refuse)
    with pytest.raises(OSError):
        course_io.write_atomically(str(path), "new")
    assert path.read_text() == "old"
    assert os.listdir(str(tmp_path)) == ["file.json"]
