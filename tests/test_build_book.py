"""The book's builder (`tools/build_book.py`): what it enumerates, how it answers, and resuming.

The enumeration and the resume tests run the real `build` loop with a deterministic stand-in
for the search job (`closest_to_centre_job`) and an executor that runs each job at once, so
their results can be compared exactly; the real job is tested on its own with tiny budgets.
"""

import concurrent.futures
import os
import signal
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import endgame  # noqa: E402
import go_board  # noqa: E402
import my_player  # noqa: E402
import opening_book  # noqa: E402
from tools import build_book  # noqa: E402
from go_board import BLACK, WHITE, Position, from_coord  # noqa: E402

CENTRE = from_coord(2, 2)


def closest_to_centre_job(line, solver_cpu, search_cpu, workers, seed):
    """A deterministic job: the known answer, else the placement nearest the centre."""
    position = build_book.position_after(line)
    move = build_book.known_answer(position)
    source = build_book.KNOWN if move is not None else build_book.SEARCHED
    if move is None:
        move = my_player.safe_move(position)
    return {build_book.PLY: position.ply, build_book.LINE: list(line),
            build_book.SOURCE: source, build_book.SOLVER_CPU: solver_cpu,
            build_book.MOVE: go_board.move_to_text(move), build_book.CPU_USED: 1.0}


class InlineExecutor(object):
    """Runs each job when it is submitted; after `stop_after` jobs, the next result is an
    interrupt (as Ctrl-C in the middle of a build)."""

    def __init__(self, stop_after=None):
        self.stop_after = stop_after
        self.submitted = 0

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        self.submitted += 1
        if self.stop_after is not None and self.submitted > self.stop_after:
            future.set_exception(KeyboardInterrupt())
        else:
            future.set_result(function(*args))
        return future


def build_args(tmp_path, max_ply, *options):
    return build_book.parse_args(["--max-ply", str(max_ply), "--out", str(tmp_path / "book.txt"),
                                  "--jobs", "2"] + list(options))


def run_build(args, executor):
    return build_book.build(args, executor, job=closest_to_centre_job, log=lambda message: None)


def test_the_first_plies_hold_the_classes_rules_md_names(tmp_path):
    # Ply 2: Black's 25 first moves in 6 classes (corner, (0,1), (0,2), (1,1), (1,2), centre);
    # ply 3: after B(2,2), White's 24 placements in 5 classes, and White's pass.
    book = run_build(build_args(tmp_path, 3), InlineExecutor())
    assert build_book.coverage(book, build_book.reachable(book, 3)) == {
        1: [1, 1], 2: [6, 6], 3: [6, 6]}
    assert sum(entry[build_book.SOURCE] == build_book.KNOWN for entry in book.values()) == 5


def test_ply_4_holds_every_black_reply_to_our_answer_folded(tmp_path):
    # After B(2,2) W(2,1) the up-down mirror fixes both stones: Black's 23 placements fold into
    # 3 on row 2 and 10 mirrored pairs, plus Black's pass: 14 positions for White at ply 4.
    after_centre = Position().play(CENTRE)
    key, entry = build_book.in_key_frame(after_centre, ["2,2"], {build_book.MOVE: "2,1"})
    book = {key: entry}
    by_ply = build_book.reachable(book, 4)
    assert len(by_ply[4]) == 14
    for line, position in by_ply[4].values():
        assert line[:2] == ["2,2", "2,1"] and position.to_move == WHITE


def test_the_enumeration_counts_through_ply_4_are_pinned(tmp_path):
    # With the stand-in answers; any change in folding, passes or ko handling moves these.
    book = run_build(build_args(tmp_path, 4), InlineExecutor())
    counts = build_book.coverage(book, build_book.reachable(book, 4))
    assert counts == {1: [1, 1], 2: [6, 6], 3: [6, 6], 4: [63, 63]}


def test_an_interrupted_build_resumes_to_the_same_book(tmp_path):
    for name in ("whole", "parts"):
        (tmp_path / name).mkdir()
    whole = run_build(build_args(tmp_path / "whole", 4), InlineExecutor())
    args = build_args(tmp_path / "parts", 4)
    with pytest.raises(KeyboardInterrupt):
        run_build(args, InlineExecutor(stop_after=20))
    # The file is a valid, partial book at the moment of the interrupt.
    partial = build_book.read_provenance(args.out)
    assert 0 < len(partial["positions"]) == len(opening_book.read(args.out)) < len(whole)
    assert opening_book.read(args.out).lookup(Position()) == CENTRE
    resumed_executor = InlineExecutor()
    resumed = run_build(args, resumed_executor)
    assert resumed == whole
    # Only the missing answers were asked for again.
    assert resumed_executor.submitted == len(whole) - len(partial["positions"])


def test_the_book_file_says_how_far_it_is_complete(tmp_path):
    args = build_args(tmp_path, 4)
    with pytest.raises(KeyboardInterrupt):
        run_build(args, InlineExecutor(stop_after=7))
    # Known answers (ply 1, four at ply 3) need no job; 6 jobs at ply 2, 2 at ply 3: seven
    # jobs complete ply 2 only.
    book = opening_book.read(args.out)
    assert (book.answered_plies(BLACK), book.answered_plies(WHITE)) == (2, 2)
    built_with = build_book.read_provenance(args.out)["built_with"]
    assert built_with["coverage"]["2"] == [6, 6] and built_with["target_ply"] == 4


def test_answers_are_stored_in_the_frame_of_their_key(tmp_path):
    book = run_build(build_args(tmp_path, 3), InlineExecutor())
    for key, entry in book.items():
        position = build_book.position_after(entry[build_book.LINE])
        assert build_book.book_key(position) == key
        # In the key's own frame, the one its smallest image is (symmetry 0).
        assert opening_book.position_key(position) == (int(key), 0)
        assert position.is_legal(opening_book.parse_answer(entry[build_book.MOVE]))


def test_the_known_results_are_answered_without_search():
    assert build_book.answer_job([], 5.0, 5.0, 1, 1) == {
        build_book.PLY: 1, build_book.LINE: [], build_book.SOLVER_CPU: 0.0,
        build_book.SOURCE: build_book.KNOWN, build_book.MARGIN: None,
        build_book.MOVE: "2,2", build_book.CPU_USED: 0.0}
    entry = build_book.answer_job(["2,2", "4,4"], 5.0, 5.0, 1, 1)
    # rules.md: after W(0,0), (2,3) or (3,2); W(4,4) is its mirror image.
    assert entry[build_book.SOURCE] == build_book.KNOWN
    assert entry[build_book.MOVE] in ("2,1", "1,2")


def test_a_searched_answer_records_its_search():
    entry = build_book.answer_job(["2,2", "0,2"], 0.0, 0.2, 1, 7)
    assert entry[build_book.SOURCE] == build_book.SEARCHED
    search = entry[build_book.SEARCH]
    assert search["cpu_per_worker"] == 0.2 and search["workers"] == 1
    assert search["simulations"] > 0 and 0 < search["visit_share"] <= 1
    assert 0 <= search["value"] <= 1
    position = build_book.position_after(["2,2", "0,2"])
    assert position.is_legal(opening_book.parse_answer(entry[build_book.MOVE]))


# Ply 21, Black to move: Black has 13 stones and White 7 on a settled board; any sensible move
# keeps a winning margin.
LATE_GAME = """
    X X X O .
    X . X O O
    X X X X O
    X . X O .
    X X X O O"""


def test_a_position_the_solver_settles_is_a_proven_answer():
    position = Position.from_text(LATE_GAME, to_move=BLACK, ply=21)
    source, move, margin = build_book.proof(position, 30.0)
    assert source == build_book.PROVEN_WIN
    assert position.is_legal(move) and margin > 0
    # Seen from White (same stones, White to move), every move loses: the best try is played,
    # the move leaving Black the fewest winning replies, with no margin.
    lost = Position.from_text(LATE_GAME, to_move=WHITE, ply=22)
    source, move, margin = build_book.proof(lost, 30.0)
    assert (source, margin) == (build_book.PROVEN_LOSS, None)
    assert move == endgame.ExactSolver().best_try(lost) and lost.is_legal(move)


def test_a_solver_without_time_leaves_the_answer_to_search():
    assert build_book.proof(Position().play(CENTRE), 0.0) is None


def test_ply_budgets_parse_and_print_back():
    assert build_book.ply_budgets("2=130,6=8.5") == {2: 130.0, 6: 8.5}
    assert build_book.budgets_text({2: 130.0, 6: 8.5}) == "2=130,6=8.5"


TINY_BUDGETS = ["--solver-cpu", "2=0.05,3=0.05", "--search-cpu", "2=0.2,3=0.2"]


def tiny_build_command(out, *options):
    return [sys.executable, os.path.join(REPO_ROOT, "tools", "build_book.py"), "--max-ply", "3",
            "--out", str(out)] + TINY_BUDGETS + list(options)


def read_positions(path):
    return build_book.read_provenance(str(path))["positions"]


def check_complete_through_ply_3(path):
    positions = read_positions(path)
    assert len(positions) == 13
    for entry in positions.values():
        position = build_book.position_after(entry[build_book.LINE])
        assert position.is_legal(opening_book.parse_answer(entry[build_book.MOVE]))


@pytest.mark.slow
def test_a_killed_build_resumes_and_keeps_its_answers(tmp_path):
    # The real jobs, in local processes: SIGTERM mid-build, then the same command again.
    out = tmp_path / "book.txt"
    build = subprocess.Popen(tiny_build_command(out, "--jobs", "2"), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    for line in build.stdout:
        if line.startswith(b"ply 2 "):  # the first searched answer is written
            break
    build.send_signal(signal.SIGTERM)
    output = build.communicate(timeout=60)[0]
    assert build.returncode == 130, output
    assert b"run the same command to resume" in output
    before = read_positions(out)
    assert 2 <= len(before) < 13
    result = subprocess.run(tiny_build_command(out, "--jobs", "2"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, timeout=120)
    assert result.returncode == 0, result.stdout
    assert "resuming: {} answers".format(len(before)).encode() in result.stdout
    after = read_positions(out)
    assert {key: after[key] for key in before} == before
    check_complete_through_ply_3(out)


@pytest.mark.ray
def test_a_tiny_build_on_a_local_ray_instance(tmp_path):
    # `make test-ray`: needs Ray (`make install-cluster`).
    pytest.importorskip("ray")
    out = tmp_path / "book.txt"
    result = subprocess.run(tiny_build_command(out, "--ray", "local"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, timeout=600)
    assert result.returncode == 0, result.stdout
    check_complete_through_ply_3(out)
