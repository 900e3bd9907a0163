"""host.py judge mode as the course's driver runs it: exit codes and exact input.txt bytes.

Every case runs the real `python3 host.py -m N -v V` in a temporary game directory. Also here:
littlego/grader/course_driver.sh playing a whole random game through our host.py, checked against the
same game replayed in-process.
"""

import os
import subprocess
import sys

import pytest

import course_io
from littlego.grader import COURSE_DRIVER
from littlego.referee import judge, rules

from referee_support import (EMPTY, HOST, KO_AFTER_BLACK_TOOK, KO_BEFORE, RANDOM_PLAYER, REPO_ROOT,
                             input_text, load_fixture, run_host)

random_player = load_fixture("random_player")

OPENING = input_text(1, EMPTY, EMPTY)
NOT_WRITTEN = object()  # the expected input.txt when the game ended: left as it was

CENTRE = """
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .
"""
SURROUNDED = """
    . X . . .
    X O . . .
    . X . . .
    . . O . .
    . . . . .
"""
CAPTURED = """
    . X . . .
    X . X . .
    . X . . .
    . . O . .
    . . . . .
"""
BEFORE_WHITE = """
    . X . . .
    X O . . .
    . . . . .
    . . O . .
    . . . . .
"""
# 12 black and 9 white stones: Black leads 12 to 11.5; a white stone makes it 12 to 12.5.
CLOSE = """
    X X X X X
    X X X X X
    X X . O O
    O O O O O
    O . . . O
"""
CLOSE_AFTER_WHITE = """
    X X X X X
    X X X X X
    X X . O O
    O O O O O
    O O . . O
"""
WHITE_PLAYED_1_2 = """
    . . . . .
    . . O . .
    . . X . .
    . . . . .
    . . . . .
"""


def judge_case(tmp_path, move, input_txt, output, expected_code, expected_input, args=None):
    code, stdout, stderr, after = run_host(
        tmp_path, ["-m", str(move)] + (args or []), input_txt, output)
    assert code == expected_code, (stdout, stderr)
    assert "Traceback" not in stderr
    if expected_input is NOT_WRITTEN:
        assert after == input_txt.encode()
    else:
        assert after == expected_input.encode()
    return stdout


def test_a_move_writes_the_next_input(tmp_path):
    judge_case(tmp_path, 1, OPENING, b"2,2", 0, input_text(2, EMPTY, CENTRE))


def test_a_capture_writes_the_board_after_the_capture(tmp_path):
    judge_case(tmp_path, 5, input_text(1, BEFORE_WHITE, SURROUNDED), b"1,2", 0,
               input_text(2, SURROUNDED, CAPTURED))


def test_a_pass_writes_previous_equal_to_current(tmp_path):
    judge_case(tmp_path, 4, input_text(2, BEFORE_WHITE, SURROUNDED), b"PASS", 0,
               input_text(1, SURROUNDED, SURROUNDED))


def test_a_pass_after_a_pass_ends_the_game_on_the_score(tmp_path):
    # 4 black stones against 1 white + 2.5: Black wins; with one more white stone, White.
    judge_case(tmp_path, 9, input_text(2, CAPTURED, CAPTURED), b"PASS", 1, NOT_WRITTEN)
    judge_case(tmp_path, 9, input_text(2, SURROUNDED, SURROUNDED), b"PASS", 2, NOT_WRITTEN)


def test_black_passing_at_ply_1_loses_at_once(tmp_path):
    judge_case(tmp_path, 1, OPENING, b"PASS", 2, NOT_WRITTEN)


@pytest.mark.parametrize("move, output, code", [
    (24, b"4,1", 2),    # 12 against 10 + 2.5
    (24, b"PASS", 1),   # 12 against 9 + 2.5
    (30, b"PASS", 1),   # any ply from 24 on ends the game
])
def test_ply_24_ends_the_game_on_the_score(tmp_path, move, output, code):
    judge_case(tmp_path, move, input_text(2, EMPTY, CLOSE), output, code, NOT_WRITTEN)


def test_ply_23_does_not_end_the_game(tmp_path):
    judge_case(tmp_path, 23, input_text(2, EMPTY, CLOSE), b"4,1", 0,
               input_text(1, CLOSE, CLOSE_AFTER_WHITE))


@pytest.mark.parametrize("colour, current, output", [
    (1, CENTRE, b"2,2"),        # occupied by one's own stone
    (1, SURROUNDED, b"1,1"),    # occupied by the opponent's
    (2, SURROUNDED, b"0,0"),    # suicide
    (1, CENTRE, b"5,0"),        # off the board
    (1, CENTRE, b"0,5"),
    (1, CENTRE, b"-1,2"),       # no wrap-around to the last row
    (1, CENTRE, b"1_0,0"),      # int() reads 10
])
def test_illegal_moves_lose(tmp_path, colour, current, output):
    stdout = judge_case(tmp_path, 5, input_text(colour, current, current), output, 3 - colour,
                        NOT_WRITTEN)
    assert "illegal move" in stdout


def test_retaking_a_ko_loses(tmp_path):
    stdout = judge_case(tmp_path, 8, input_text(2, KO_BEFORE, KO_AFTER_BLACK_TOOK), b"1,1", 1,
                        NOT_WRITTEN)
    assert "ko" in stdout


@pytest.mark.parametrize("output", [
    b"pass", b"", b"(2,3)", b"2 3", b"1", b"\n2,2", b"2.0,2", None])
@pytest.mark.parametrize("colour", [1, 2])
def test_bad_or_missing_output_loses(tmp_path, output, colour):
    current = CENTRE if colour == 2 else EMPTY
    stdout = judge_case(tmp_path, colour, input_text(colour, EMPTY, current), output,
                        3 - colour, NOT_WRITTEN)
    assert "bad output" in stdout


@pytest.mark.parametrize("output, expected", [
    (b"PASS,x", input_text(1, CENTRE, CENTRE)),
    (b" 1 , 2 ", input_text(1, CENTRE, WHITE_PLAYED_1_2)),
    (b"1,2\r\nrest", input_text(1, CENTRE, WHITE_PLAYED_1_2)),
    (b"1,2,9", input_text(1, CENTRE, WHITE_PLAYED_1_2)),
])
def test_odd_outputs_the_course_accepts(tmp_path, output, expected):
    judge_case(tmp_path, 2, input_text(2, EMPTY, CENTRE), output, 0, expected)


def test_input_with_crlf_and_final_newline_is_read_and_rewritten_plainly(tmp_path):
    crlf = OPENING.replace("\n", "\r\n") + "\r\n"
    judge_case(tmp_path, 1, crlf, b"2,2", 0, input_text(2, EMPTY, CENTRE))


@pytest.mark.parametrize("content", [
    None, "", "hello", "1\n00000", "1\n" + "00000\n" * 9 + "0x000"])
def test_a_missing_or_garbled_input_exits_3_with_a_message(tmp_path, content):
    if content is not None:
        (tmp_path / "input.txt").write_text(content)
    (tmp_path / "output.txt").write_text("2,2")
    done = subprocess.run([sys.executable, HOST, "-m", "1"], cwd=str(tmp_path),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == judge.EXIT_BAD_INPUT
    assert done.stdout.decode().startswith("referee: ")
    assert "input.txt" in done.stdout.decode()
    assert done.stderr == b""


@pytest.mark.parametrize("args, verbose", [
    ([], False), (["-v", "True"], True), (["-v", "False"], True), (["-v", ""], False),
    (["--verbose", "0"], True)])
def test_verbose_is_any_non_empty_string(tmp_path, args, verbose):
    stdout = judge_case(tmp_path, 1, OPENING, b"2,2", 0, input_text(2, EMPTY, CENTRE), args)
    if verbose:
        assert stdout == "Black (X) plays 2,2\n" + "\n".join([
            "    0  1  2  3  4",
            " 0  .  .  .  .  .",
            " 1  .  .  .  .  .",
            " 2  .  . [X] .  .",
            " 3  .  .  .  .  .",
            " 4  .  .  .  .  ."]) + "\n"
    else:
        assert stdout == ""


def test_long_option_names_and_default_move_number(tmp_path):
    judge_case(tmp_path, 1, OPENING, b"2,2", 0, input_text(2, EMPTY, CENTRE),
               ["--move", "1", "--verbose", ""])
    # Without -m the ply is 0, as in the course: the game goes on.
    code, _, _, after = run_host(tmp_path, [], OPENING, b"2,2")
    assert (code, after) == (0, input_text(2, EMPTY, CENTRE).encode())


def test_judge_mode_needs_only_the_standard_library(tmp_path):
    (tmp_path / "input.txt").write_text(OPENING)
    (tmp_path / "output.txt").write_text("2,2")
    blocked = ("psutil numpy go_board agent endgame mcts step_storage littlego.opponents "
               "littlego.solver littlego.gtp").split()
    script = ("import sys, runpy\n"
              "sys.modules.update(dict.fromkeys({!r}))\n"
              "sys.argv = [{!r}, '-m', '1', '-v', 'True']\n"
              "runpy.run_path({!r}, run_name='__main__')\n").format(blocked, HOST, HOST)
    done = subprocess.run([sys.executable, "-c", script], cwd=str(tmp_path),
                          env=dict(os.environ, PYTHONPATH=REPO_ROOT),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "input.txt").read_text() == input_text(2, EMPTY, CENTRE)


# ---- the course's driver loop -------------------------------------------------------------

def replay_random_game(seed):
    """The game two random_player.py processes play, computed in-process: (winner, plies)."""
    game_input = judge.opening_input()
    for ply in range(1, rules.MAX_MOVE + 1):
        text = random_player.choose_move_text(judge.format_input(game_input), seed)
        verdict = judge.judge_step(game_input, course_io.parse_action(text), ply)
        if verdict.next_input is None:
            return verdict.winner, ply, judge.format_input(game_input)
        game_input = verdict.next_input
    raise AssertionError("no end")


def run_driver(tmp_path, black, white, seed="0"):
    env = dict(os.environ, LITTLEGO_SEED=seed)
    return subprocess.run(["sh", COURSE_DRIVER, black, white], cwd=str(tmp_path), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)


@pytest.mark.slow
def test_course_driver_plays_a_random_game_through_our_host(tmp_path):
    seed = "7"
    winner, plies, last_input = replay_random_game(seed)
    player = "{} {}".format(sys.executable, RANDOM_PLAYER)
    done = run_driver(tmp_path, player, player, seed)
    assert done.stdout.decode() == "{}\n".format(winner)
    # The judge leaves the input of the final ply in place, and the winner's message.
    assert (tmp_path / "input.txt").read_text() == last_input
    assert done.stderr.decode().count("Game end") == 1
    assert plies == rules.MAX_MOVE


def test_course_driver_deletes_output_before_each_move(tmp_path):
    # Black's 2,2 would be judged again for White (occupied) if it were left in place.
    done = run_driver(tmp_path, "echo 2,2 > output.txt", "true")
    assert done.stdout == b"1\n"
    assert "output.txt not found" in done.stderr.decode()


def test_course_driver_reports_a_white_win_on_black_bad_output(tmp_path):
    done = run_driver(tmp_path, "echo pass > output.txt; exit 3", "true")
    assert done.stdout == b"2\n"
    assert (tmp_path / "input.txt").read_text() == OPENING
