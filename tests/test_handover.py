"""littlego/bench/handover.py: the seam sampled as strong games make it.

The loser's knife-edge seeking move is checked against the Python exact search's own count of
the winner's winning replies; a recorded game gives its won positions at the seam plies only;
and (slow) a small run of the whole check on the grader's Python decides every position it
samples and throws no win.
"""

import json
import random
import sys

import pytest
from test_endgame import KNIFE_EDGE_LINE, knife_edge, margins_differ

import endgame
import go_board
import opening_book
from go_board import WHITE
from littlego import solver
from littlego.bench import handover
from littlego.bench.positions import position_before_end
from littlego.grader.interpreters import grader_python
from littlego.paths import REPO_ROOT

TABLE_BITS = 18


def python_winning_replies(position):
    """How many of the mover's moves win, by the Python exact search."""
    python = endgame.ExactSolver()
    return sum(python.move_wins(position, child) for _, child in python.root_moves(position))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_adversary_leaves_the_winner_the_fewest_winning_replies(seed):
    position = position_before_end(random.Random(seed), 6, pass_rate=0.0, capture_rate=0.3)
    counts = {}
    for move in position.legal_moves():
        after = position.play(move)
        counts[move] = 0 if after.is_over else python_winning_replies(after)
    with solver.Solver(TABLE_BITS) as search:
        chosen = {handover.adversary_move(search, position, random.Random(draw))
                  for draw in range(20)}
    fewest = min(counts.values())
    assert chosen == {move for move, count in counts.items() if count == fewest}


def test_a_recorded_game_gives_its_won_positions_at_the_seam_plies_only(tmp_path):
    moves = KNIFE_EDGE_LINE.split() + ["3,0", "0,0", "4,4"]
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps({"moves": moves}) + "\n")
    book = opening_book.read()
    with solver.Solver(TABLE_BITS) as search:
        found = handover.game_positions(search, book, [str(games)])
    # White's seam plies past its book (ply 10) are 12, 14 and 16; the book answers the knife
    # edge at ply 12 (the seam, solver/seam.py), and Black's ply 13 is lost for Black: what is
    # left to search is White's ply 14.
    assert [(source, position.ply, position.to_move) for source, position in found] == [
        (handover.GAMES_SOURCE, 14, WHITE)]
    assert all(book.lookup(position) is None for _, position in found)


@pytest.mark.slow
def test_a_small_run_decides_every_position_on_the_graders_python_and_throws_no_win(
        tmp_path, capsys):
    out = tmp_path / "handover.jsonl"
    python = grader_python()
    if python is None:
        pytest.skip("the grader's Python 3.7 is not installed (make python37)")
    code = handover.main(["--positions", "12", "--seed", "3", "--game-files", "--python",
                          python, "--records", str(out)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0
    assert {record["source"] for record in records} <= set(handover.SOURCES)
    assert len(records) >= 6 and all(record["decided"] and not record["thrown"]
                                     for record in records)
    assert all(record["cpu"] <= record["budget"] for record in records)
    whole = lines[-1]
    assert (whole["positions"], whole["decided"], whole["thrown"], whole["python"]) == (
        len(records), len(records), 0, python)
    assert whole["max_cpu"] == max(record["cpu"] for record in records)
    assert sum(line["positions"] for line in lines[:-1]) == len(records)
    assert {record["colour"] for record in records} == {"Black", "White"}


def write_replay(path, named_positions):
    """An earlier run's --records, as --replay reads it: (source, position) pairs."""
    path.write_text("".join(json.dumps({"source": source, "position": [
        position.black, position.white, position.prev_black, position.prev_white,
        position.to_move, position.ply]}) + "\n" for source, position in named_positions))


def test_a_replay_decides_an_earlier_runs_positions_again_in_their_order(tmp_path, capsys):
    corner = go_board.Position().play(go_board.from_coord(0, 0))  # White's book answers
    earlier = tmp_path / "earlier.jsonl"
    write_replay(earlier, (("first", knife_edge()), ("second", corner)))
    out = tmp_path / "again.jsonl"
    code = handover.main(["--replay", str(earlier), "--python", sys.executable, "--jobs", "1",
                          "--records", str(out), "--quiet"])
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0
    assert [(record["source"], record["ply"], record["by"], record["move"], record["thrown"])
            for record in records] == [("first", 12, "book", "3,0", False),
                                       ("second", 2, "book", records[1]["move"], False)]
    # A book answer is its own proof: its CPU to the proof is the whole move's.
    assert [record["cpu_to_proof"] for record in records] == [record["cpu"] for record in records]
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["decided"] == 2


def test_a_baseline_decides_the_same_positions_side_by_side(tmp_path, capsys):
    earlier = tmp_path / "earlier.jsonl"
    write_replay(earlier, (("late", margins_differ()),))
    out = tmp_path / "both.jsonl"
    code = handover.main(["--replay", str(earlier), "--python", sys.executable, "--jobs", "2",
                          "--records", str(out), "--quiet", "--baseline", REPO_ROOT])
    record, = [json.loads(line) for line in out.read_text().splitlines()]
    baseline, whole = [json.loads(line) for line in capsys.readouterr().out.splitlines()[-2:]]
    assert code == 0
    # The same agent on both sides: the same exact decision (its margin search ends well inside
    # the budget), each with the CPU to its proof: the process's start, then the proof's CPU.
    assert (record["by"], record["move"]) == (record["baseline"]["by"],
                                              record["baseline"]["move"]) == ("exact", "3,1")
    for side in (record, record["baseline"]):
        assert handover.CPU_BEFORE_DECIDING <= side["cpu_to_proof"] <= side["cpu"] < side["budget"]
        # (3,1) wins by 5.5 points, the most any move gets (tests/test_endgame.py).
        assert (side["margin"], side["given_away"]) == (5.5, 0.0)
    assert record["best_margin"] == 5.5
    assert (whole["not_margin_best"], whole["points_given_away"]) == (0, 0.0)
    assert (baseline["agent"], whole["agent"]) == (REPO_ROOT, REPO_ROOT)
    assert (baseline["max_proof"], whole["max_proof"]) == (record["baseline"]["cpu_to_proof"],
                                                           record["cpu_to_proof"])
    assert baseline["decided"] == whole["decided"] == 1


def test_the_summary_counts_what_margin_play_gave_away_and_the_cpu_to_the_proofs():
    def record(by, thrown, given_away, cpu, cpu_to_proof):
        return {"decided": by != "mcts", "thrown": thrown, "given_away": given_away,
                "cpu": cpu, "budget": 4.25, "cpu_to_proof": cpu_to_proof}
    records = [record("exact", False, 0.0, 4.2, 0.5), record("exact", False, 2.0, 4.2, 1.5),
               record("book", False, 0.0, 0.04, 0.04), record("mcts", True, None, 4.1, None)]
    figures = handover.summary(records)
    assert (figures["positions"], figures["decided"], figures["left_to_search"],
            figures["thrown"], figures["over_budget"]) == (4, 3, 1, 1, 0)
    assert (figures["not_margin_best"], figures["points_given_away"]) == (1, 2.0)
    # Nearest rank over the three proofs: 0.04, 0.5, 1.5.
    assert (figures["median_proof"], figures["p99_proof"], figures["max_proof"]) == (0.5, 1.5, 1.5)
    assert figures["max_cpu"] == 4.2
