"""Step storage: the ply and the CPU ledger a per-move program keeps in its game directory.

The referee never says the ply and the agent is a fresh process every move, so the ply comes
from the boards and a JSON file. Files survive across games and crashes: a new game must be
told from the boards alone, and any record that does not continue this game must be recovered
from, never trusted. Boards are ASCII (X Black, O White, . empty).
"""

import io
import json
import os
import subprocess
import sys

import pytest

import step_storage
from go_board import BLACK, WHITE, parse_board
from littlego.paths import REPO_ROOT

NAME = "a_player"
EMPTY = (0, 0)
ONE_BLACK_STONE = parse_board("""
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .""")
# Black's stones after its move at ply 5 (three each side once White has answered).
AFTER_BLACK_PLY_5 = parse_board("""
    . . . . .
    . O X . .
    . X X . .
    . . O . .
    . . . . .""")
AFTER_WHITE_PLY_6 = parse_board("""
    . . . . .
    . O X . .
    . X X O .
    . . O . .
    . . . . .""")
# Four black and three white stones, Black to move, no usable record: Black has made at least
# 4 moves, so the smallest Black ply is 9 (plies 1, 3, 5, 7 were Black's).
FOUR_BLACK_THREE_WHITE = parse_board("""
    . . . . .
    . O X . .
    . X X O .
    . X O . .
    . . . . .""")
# Two black and five white stones, White to move: White has made at least 5 moves, so the
# smallest White ply is 12 (plies 2, 4, 6, 8, 10 were White's).
TWO_BLACK_FIVE_WHITE = parse_board("""
    O . . . .
    . O X . .
    . X O . .
    . . O . .
    . . . . O""")


def restore(colour, previous, current, directory):
    """`(GameState, logged text)`, with the log captured instead of going to stderr."""
    log = io.StringIO()
    state = step_storage.restore(colour, previous, current, str(directory), NAME, log=log)
    return state, log.getvalue()


def step_path(directory, colour=BLACK):
    return step_storage.step_file(str(directory), NAME, colour)


def write_step_bytes(directory, data, colour=BLACK):
    with open(step_path(directory, colour), "wb") as handle:
        handle.write(data)


def record_bytes(colour, ply, board_after, cpu_used, version=step_storage.FORMAT_VERSION):
    record = {"version": version, "colour": colour, "ply": ply,
              "board_after": [board_after[0], board_after[1]], "cpu_used": cpu_used}
    return json.dumps(record).encode("ascii")


def assert_recovered(state, logged, ply):
    assert (state.ply, state.cpu_used, state.recovered) == (ply, None, True)
    # Exactly one line, so the referee's log shows one reason per recovered move.
    assert logged.count("\n") == 1 and logged.endswith("\n"), logged


# Stale files a finished or crashed earlier game can leave behind. The ones whose board is
# empty would even "continue" an empty previous board if the file were trusted.
STALE_RECORDS = [
    pytest.param(None, id="no file"),
    pytest.param(record_bytes(BLACK, 23, AFTER_BLACK_PLY_5, 41.5), id="black game over"),
    pytest.param(record_bytes(WHITE, 24, AFTER_WHITE_PLY_6, 50.0), id="white game over"),
    pytest.param(record_bytes(BLACK, 1, EMPTY, 9.0), id="black record of the empty board"),
    pytest.param(record_bytes(WHITE, 2, EMPTY, 9.0), id="white record of the empty board"),
    pytest.param(b"{not json", id="corrupt"),
]


@pytest.mark.parametrize("stale", STALE_RECORDS)
def test_two_empty_boards_are_black_ply_one_whatever_file_is_there(tmp_path, stale):
    if stale is not None:
        write_step_bytes(tmp_path, stale)
    state, logged = restore(BLACK, EMPTY, EMPTY, tmp_path)
    assert (state.ply, state.cpu_used, state.recovered) == (1, 0.0, False)
    assert logged == ""


@pytest.mark.parametrize("stale", STALE_RECORDS)
def test_empty_previous_and_one_black_stone_are_white_ply_two_whatever_file_is_there(
        tmp_path, stale):
    if stale is not None:
        write_step_bytes(tmp_path, stale, WHITE)
    state, logged = restore(WHITE, EMPTY, ONE_BLACK_STONE, tmp_path)
    assert (state.ply, state.cpu_used, state.recovered) == (2, 0.0, False)
    assert logged == ""


def test_the_game_goes_on_when_the_previous_board_is_the_recorded_one(tmp_path):
    step_storage.save(str(tmp_path), NAME, BLACK, 5, AFTER_BLACK_PLY_5, 12.5)
    state, logged = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    assert (state.ply, state.cpu_used, state.recovered) == (7, 12.5, False)
    assert logged == ""


def test_the_game_goes_on_after_the_opponent_passed(tmp_path):
    # After a pass the referee writes previous = current, both equal to our recorded board.
    step_storage.save(str(tmp_path), NAME, WHITE, 6, AFTER_WHITE_PLY_6, 3.25)
    state, logged = restore(WHITE, AFTER_WHITE_PLY_6, AFTER_WHITE_PLY_6, tmp_path)
    assert (state.ply, state.cpu_used, state.recovered) == (8, 3.25, False)
    assert logged == ""


def test_the_ledger_is_stored_to_four_decimals(tmp_path):
    step_storage.save(str(tmp_path), NAME, BLACK, 5, AFTER_BLACK_PLY_5, 1.234567)
    state, _ = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    assert state.cpu_used == 1.2346


def test_save_writes_the_ply_colour_board_and_cpu_and_nothing_else(tmp_path):
    step_storage.save(str(tmp_path), NAME, WHITE, 6, AFTER_WHITE_PLY_6, 7.5)
    assert os.listdir(str(tmp_path)) == [NAME + "_step_2.json"]
    with open(step_path(tmp_path, WHITE)) as handle:
        assert json.load(handle) == {
            "version": step_storage.FORMAT_VERSION, "colour": WHITE, "ply": 6,
            "board_after": list(AFTER_WHITE_PLY_6), "cpu_used": 7.5}


VALID = record_bytes(BLACK, 5, AFTER_BLACK_PLY_5, 12.5)


@pytest.mark.parametrize("content", [
    pytest.param(None, id="missing"),
    pytest.param(record_bytes(BLACK, 5, ONE_BLACK_STONE, 12.5), id="stale board"),
    pytest.param(b"{\"version\": 1, \"colour\": 1,,}", id="corrupt json"),
    pytest.param(record_bytes(BLACK, 5, AFTER_BLACK_PLY_5, 12.5, version=2), id="wrong version"),
    pytest.param(record_bytes(WHITE, 6, AFTER_BLACK_PLY_5, 12.5), id="foreign colour"),
    pytest.param(VALID[:len(VALID) // 2], id="truncated"),
    pytest.param(b"", id="empty"),
    pytest.param(b"\x00\xff\xfe garbage \x80", id="binary"),
    pytest.param(b"[1, 5, 12.5]", id="json list"),
    pytest.param(b"{\"version\": 1, \"colour\": 1, \"ply\": \"five\", \"board_after\": "
                 b"[4224, 2050], \"cpu_used\": 1}", id="ply not a number"),
    pytest.param(b"{\"version\": 1, \"colour\": 1, \"ply\": 5, \"board_after\": 4224, "
                 b"\"cpu_used\": 1}", id="board not a pair"),
    # Numbers json reads but int() cannot take, or takes to an absurd value.
    pytest.param(VALID.replace(b"\"ply\": 5", b"\"ply\": 1e400"), id="ply 1e400"),
    pytest.param(VALID.replace(b"\"ply\": 5", b"\"ply\": Infinity"), id="ply Infinity"),
    pytest.param(VALID.replace(b"\"ply\": 5", b"\"ply\": NaN"), id="ply NaN"),
    pytest.param(VALID.replace(b"\"ply\": 5", b"\"ply\": 5" + b"0" * 400), id="ply 5e400"),
    pytest.param(VALID.replace(b"\"colour\": 1", b"\"colour\": 1e400"), id="colour 1e400"),
    pytest.param(VALID.replace(b"\"colour\": 1", b"\"colour\": NaN"), id="colour NaN"),
    pytest.param(VALID.replace(b"\"colour\": 1", b"\"colour\": true"), id="colour true"),
    pytest.param(VALID.replace(b"[", b"[Infinity, "), id="board Infinity"),
    pytest.param(VALID.replace(b"[", b"[1e400, "), id="board 1e400"),
    pytest.param(VALID.replace(b"]", b", NaN]"), id="board NaN"),
    pytest.param(b"[" * 100000 + b"]" * 100000, id="nested 100,000 deep"),
    pytest.param(b"[" * 1500 + b"]" * 1500, id="nested 1,500 deep, within the size limit"),
    pytest.param(VALID + b"\n" * (step_storage.MAX_STEP_BYTES), id="too large"),
])
def test_an_unusable_record_gives_the_smallest_consistent_ply_and_one_log_line(
        tmp_path, content):
    assert json.loads(VALID.decode())["ply"] == 5  # the replacements above do apply
    if content is not None:
        write_step_bytes(tmp_path, content)
    state, logged = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    # Three black and three white stones with Black to move: Black has moved at least three
    # times (plies 1, 3, 5), so ply 7, the true ply here.
    assert_recovered(state, logged, 7)


@pytest.mark.parametrize("colour, current, ply", [
    (BLACK, ONE_BLACK_STONE, 3),
    (BLACK, FOUR_BLACK_THREE_WHITE, 9),
    (WHITE, AFTER_BLACK_PLY_5, 6),
    (WHITE, TWO_BLACK_FIVE_WHITE, 12),
])
def test_the_recovered_ply_is_the_smallest_of_our_parity_the_stones_allow(
        tmp_path, colour, current, ply):
    # A non-empty previous board, so neither first-move rule applies.
    state, logged = restore(colour, ONE_BLACK_STONE, current, tmp_path)
    assert_recovered(state, logged, ply)


def test_the_recovery_line_goes_to_stderr_by_default(tmp_path):
    # The default log is the process's stderr, which the referee shows; run in a fresh process
    # so the check does not depend on how pytest captures streams.
    code = ("import step_storage\n"
            "print(step_storage.restore(1, {!r}, {!r}, {!r}, {!r}).ply)\n").format(
        AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, str(tmp_path), NAME)
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stdout) == (0, b"7\n")
    assert result.stderr.count(b"\n") == 1 and result.stderr.startswith(b"step_storage: ")


def _fail_after_writing(path, mode):
    raise OSError(28, "No space left on device")


def _refuse_rename(source, target):
    raise OSError(13, "Permission denied")


# The atomic write (course_io.write_atomically) fails after the temporary file is written
# (chmod, just before the rename) or at the rename itself.
@pytest.mark.parametrize("where, replacement", [
    ("chmod", _fail_after_writing),
    ("replace", _refuse_rename),
])
def test_a_failed_save_leaves_the_old_file_intact_and_no_temp_file(
        tmp_path, monkeypatch, where, replacement):
    step_storage.save(str(tmp_path), NAME, BLACK, 5, AFTER_BLACK_PLY_5, 12.5)
    with open(step_path(tmp_path), "rb") as handle:
        before = handle.read()
    monkeypatch.setattr(os, where, replacement)
    with pytest.raises(OSError):
        step_storage.save(str(tmp_path), NAME, BLACK, 7, AFTER_WHITE_PLY_6, 20.0)
    monkeypatch.undo()
    with open(step_path(tmp_path), "rb") as handle:
        assert handle.read() == before
    assert os.listdir(str(tmp_path)) == [NAME + "_step_1.json"]
    # And the old record still continues its game.
    state, _ = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    assert (state.ply, state.cpu_used) == (7, 12.5)


def test_two_games_in_two_directories_do_not_interfere(tmp_path):
    black_dir, white_dir = tmp_path / "black", tmp_path / "white"
    black_dir.mkdir()
    white_dir.mkdir()
    step_storage.save(str(black_dir), NAME, BLACK, 5, AFTER_BLACK_PLY_5, 11.0)
    step_storage.save(str(white_dir), NAME, WHITE, 6, AFTER_WHITE_PLY_6, 22.0)
    black_state, _ = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, black_dir)
    white_state, _ = restore(WHITE, AFTER_WHITE_PLY_6, FOUR_BLACK_THREE_WHITE, white_dir)
    assert (black_state.ply, black_state.cpu_used) == (7, 11.0)
    assert (white_state.ply, white_state.cpu_used) == (8, 22.0)
    # Each directory's record is its own: Black's boards find nothing to continue in White's.
    crossed, logged = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, white_dir)
    assert_recovered(crossed, logged, 7)


def test_players_with_different_names_keep_separate_files_in_one_directory(tmp_path):
    # The referee's tests run two programs in one game directory; each has its own file.
    step_storage.save(str(tmp_path), "black_bot", BLACK, 5, AFTER_BLACK_PLY_5, 1.0)
    step_storage.save(str(tmp_path), "white_bot", WHITE, 6, AFTER_WHITE_PLY_6, 2.0)
    assert sorted(os.listdir(str(tmp_path))) == ["black_bot_step_1.json", "white_bot_step_2.json"]
    log = io.StringIO()
    assert step_storage.restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, str(tmp_path),
                                "black_bot", log=log).ply == 7
    assert step_storage.restore(WHITE, AFTER_WHITE_PLY_6, FOUR_BLACK_THREE_WHITE, str(tmp_path),
                                "white_bot", log=log).ply == 8
    assert log.getvalue() == ""


def test_a_fifo_as_the_step_file_is_not_waited_on(tmp_path):
    os.mkfifo(step_path(tmp_path))  # no writer: opening it for reading would block
    state, logged = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    assert_recovered(state, logged, 7)
    assert "not a regular file" in logged or "InputError" in logged


@pytest.mark.parametrize("cpu_used", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1",
                                      b"1e9", b"\"12.5\"", b"null"])
def test_a_ledger_that_is_not_a_sane_number_is_estimated_and_the_game_goes_on(tmp_path,
                                                                              cpu_used):
    write_step_bytes(tmp_path, VALID.replace(b"12.5", cpu_used))
    state, logged = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    assert (state.ply, state.cpu_used, state.recovered) == (7, None, False)
    assert logged.count("\n") == 1 and "CPU ledger" in logged


def test_two_copies_of_a_player_share_a_directory_one_file_per_colour(tmp_path):
    # Self-play under the course's driver loop: both copies have the same name.
    step_storage.save(str(tmp_path), NAME, BLACK, 5, AFTER_BLACK_PLY_5, 1.0)
    step_storage.save(str(tmp_path), NAME, WHITE, 6, AFTER_WHITE_PLY_6, 2.0)
    assert sorted(os.listdir(str(tmp_path))) == [NAME + "_step_1.json", NAME + "_step_2.json"]
    black, logged_black = restore(BLACK, AFTER_BLACK_PLY_5, AFTER_WHITE_PLY_6, tmp_path)
    white, logged_white = restore(WHITE, AFTER_WHITE_PLY_6, FOUR_BLACK_THREE_WHITE, tmp_path)
    assert (black.ply, black.cpu_used, white.ply, white.cpu_used) == (7, 1.0, 8, 2.0)
    assert logged_black == logged_white == ""
