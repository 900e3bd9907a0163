"""littlego.grader.soak (`littlego soak`): each metered agent move judged again by the referee's rules, and one short
soak end to end (slow)."""

import json
import subprocess
import sys

import pytest

from littlego.grader import soak

EMPTY = ["00000"] * 5
# Black's stone at 2,2; White to move.
ONE_STONE = ["00000", "00000", "00100", "00000", "00000"]


def record(colour, previous, current, output):
    return {"input": "\n".join([str(colour)] + previous + current), "output": output}


@pytest.mark.parametrize("move, expected", [
    (record(1, EMPTY, EMPTY, "2,2"), (False, False)),
    (record(2, EMPTY, ONE_STONE, "1,1"), (False, False)),
    (record(2, EMPTY, ONE_STONE, "2,2"), (False, True)),     # occupied
    (record(2, EMPTY, ONE_STONE, "5,0"), (False, True)),     # off the board
    (record(1, EMPTY, EMPTY, "PASS"), (False, True)),        # Black's pass at ply 1 loses
    (record(2, EMPTY, ONE_STONE, "PASS"), (False, False)),
    (record(2, EMPTY, ONE_STONE, None), (True, False)),      # no output.txt
    (record(2, EMPTY, ONE_STONE, ""), (True, False)),
    (record(2, EMPTY, ONE_STONE, "pass"), (True, False)),    # the course's PASS is upper case
    (record(2, EMPTY, ONE_STONE, "(1,1)"), (True, False)),
])
def test_each_move_is_judged_missing_or_illegal_by_the_referees_rules(move, expected):
    assert soak.judge_move(move) == expected


@pytest.mark.slow
def test_a_short_self_play_soak_plays_both_colours_in_one_directory(tmp_path):
    done = subprocess.run([sys.executable, "-m", "littlego", "soak", "--moves", "20", "--agent-move-cpu", "0.3",
                           "--opponents", "self", "--python", sys.executable,
                           "--out", str(tmp_path)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["moves"] >= 20 and summary["games"] == 1
    assert summary["moves_by_colour"] == {"Black": 12, "White": 12}
    assert (summary["missing_outputs"], summary["illegal_moves"],
            summary["leftover_processes"], summary["over_limit"]) == (0, 0, 0, 0)
    moves = [json.loads(line) for line in (tmp_path / "moves.jsonl").read_text().splitlines()]
    assert len(moves) == summary["moves"]
    assert summary["cpu_exact_meter"]["max"] == max(move["cpu"] for move in moves)
