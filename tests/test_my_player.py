"""The per-move program end to end: `my_player.py` run as the course runs it, in a scratch game
directory.

Each run goes through tests/fixtures/tree_probe.py, which measures the CPU of the agent's whole
process tree as the grader's `time` does and lists any process the agent left behind. Budgets
are small and every seed is fixed (LITTLEGO_SEED); a move is asserted exactly only where it is
proven (checked here by a plain minimax over go_board). Boards are ASCII, X Black, O White.
The per-move path is also driven in-process (`my_player.main`, `agent.choose_move`,
`mcts.parallel`) where a patched function or fork is needed. The agent's decisions on their own
are tests/test_agent.py's.
"""

import collections
import errno
import json
import os
import resource
import signal
import subprocess
import sys
import time

import psutil
import pytest

import agent
import agent_settings
import clocks
import course_io
import decision_log
import go_board
import my_player
import opening_book
import step_storage
from course_io import format_input
from go_board import BLACK, KO, PASS, WHITE, Position, from_coord, parse_board
from littlego.gtp import engine as gtp_engine
from littlego.paths import REPO_ROOT
from mcts import core, parallel
from mcts.go_game import GoState, PlayoutEvaluator
from mcts.parallel import root_parallel_search

PLAYER = os.path.join(REPO_ROOT, "my_player.py")
PROBE = os.path.join(REPO_ROOT, "tests", "fixtures", "tree_probe.py")
NAME = decision_log.PLAYER_NAME
SEED = "561"
SMALL_BUDGET = {"LITTLEGO_MOVE_CPU": "0.4", "LITTLEGO_WORKERS": "2", "LITTLEGO_SEED": SEED}
EMPTY_ROWS = ["00000"] * 5
OPENING_INPUT = "\n".join(["1"] + EMPTY_ROWS * 2).encode("ascii")

AgentRun = collections.namedtuple(
    "AgentRun", "exit_code stdout stderr output files cpu leftovers input_after")


def run_agent(tmp_path, input_bytes=None, **env):
    """Run the agent once in `tmp_path/game`, writing input.txt first unless it is None."""
    game = tmp_path / "game"
    game.mkdir(exist_ok=True)
    if input_bytes is not None:
        (game / "input.txt").write_bytes(input_bytes)
    if (game / "output.txt").exists():
        (game / "output.txt").unlink()  # the referee deletes it before every call
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(agent_settings.SETTINGS_PREFIX)}
    environment.update(SMALL_BUDGET)
    environment.update(env)
    report_path = tmp_path / "probe.json"
    result = subprocess.run([sys.executable, PROBE, str(report_path), sys.executable, PLAYER],
                            cwd=str(game), env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=120)
    assert result.returncode == 0, result.stderr  # the probe itself
    report = json.loads(report_path.read_text())
    output_path = game / "output.txt"
    input_path = game / "input.txt"
    return AgentRun(report["exit_code"], result.stdout, result.stderr,
                    output_path.read_bytes() if output_path.exists() else None,
                    sorted(os.listdir(str(game))), report["cpu"], report["leftovers"],
                    input_path.read_bytes() if input_path.is_file() else None)


def game_input(colour, previous, current):
    """input.txt's bytes for two ASCII boards."""
    return format_input(colour, parse_board(previous), parse_board(current)).encode("ascii")


def record_our_last_move(tmp_path, colour, ply, board_text, cpu_used=3.0):
    """The step file the agent's previous call in this game would have left."""
    game = tmp_path / "game"
    game.mkdir(exist_ok=True)
    step_storage.save(str(game), NAME, colour, ply, parse_board(board_text), cpu_used)


def assert_step_record(tmp_path, colour, ply, board_after):
    """The step file holds exactly this move's record; returns its CPU ledger."""
    with open(step_storage.step_file(str(tmp_path / "game"), NAME, colour)) as handle:
        record = json.load(handle)
    cpu_used = record.pop("cpu_used")
    assert record == {"version": step_storage.FORMAT_VERSION, "colour": colour, "ply": ply,
                      "board_after": [board_after.black, board_after.white]}
    return cpu_used


def output_move(run):
    """output.txt as a go_board move; fails the test unless it is `PASS` or `i,j`."""
    return go_board.move_from_text(run.output.decode("ascii"))


def assert_one_clean_line(stderr):
    assert stderr.count(b"\n") == 1 and stderr.endswith(b"\n"), stderr
    assert b"Traceback" not in stderr


def assert_plays_a_placement(run, position):
    move = output_move(run)
    assert move != PASS and position.is_legal(move), run.output


def perfect_play_winners(position):
    """The moves after which the mover wins against any defence: plain minimax to the end.

    Independent of endgame.py and mcts; only for a few plies from the end.
    """
    def mover_wins(after, mover):
        if after.is_over:
            return after.winner() == mover
        outcomes = [mover_wins(after.play(move), mover) for move in after.legal_moves()]
        return any(outcomes) if after.to_move == mover else all(outcomes)
    return [move for move in position.legal_moves()
            if mover_wins(position.play(move), position.to_move)]


# ---- malformed input ---------------------------------------------------------------------

def lines(*rows):
    return "\n".join(rows).encode("ascii")


MALFORMED_INPUTS = [
    pytest.param(lines("1", *EMPTY_ROWS * 2)[:-6], id="ten lines"),
    pytest.param(lines("1", *EMPTY_ROWS * 2 + ["00000"]), id="twelve lines"),
    pytest.param(lines("3", *EMPTY_ROWS * 2), id="colour 3"),
    pytest.param(lines("1", *EMPTY_ROWS * 2)[:-5] + b"00300", id="digit 3 in a row"),
    pytest.param(lines("1", *EMPTY_ROWS + ["0000"] + EMPTY_ROWS[1:]), id="short row"),
    pytest.param(lines("1", *EMPTY_ROWS + ["0x000"] + EMPTY_ROWS[1:]), id="letter in a row"),
    # White's corner stone at 0,0 has no liberty: no referee writes such a board.
    pytest.param(lines("2", *EMPTY_ROWS + ["21000", "10000", "00000", "00000", "00000"]),
                 id="dead group"),
    pytest.param(None, id="missing file"),
    pytest.param(b"", id="empty file"),
    pytest.param(bytes(range(256)), id="binary garbage"),
]


@pytest.mark.parametrize("input_bytes", MALFORMED_INPUTS)
def test_malformed_input_exits_2_with_one_stderr_line_and_writes_nothing(tmp_path, input_bytes):
    run = run_agent(tmp_path, input_bytes)
    assert run.exit_code == 2
    assert run.stdout == b""
    assert_one_clean_line(run.stderr)
    assert run.output is None
    # No output.txt, no step file, and input.txt (the referee's game state) untouched.
    assert run.files == ([] if input_bytes is None else ["input.txt"])
    assert run.input_after == input_bytes


@pytest.mark.parametrize("name", ["LITTLEGO_MOVE_CPU", "LITTLEGO_EXPLORATION", "LITTLEGO_WORKERS",
                                  "LITTLEGO_LEAF_SOLVE_PLIES"])
def test_a_malformed_setting_exits_2_with_one_stderr_line_and_writes_nothing(tmp_path, name):
    run = run_agent(tmp_path, OPENING_INPUT, **{name: "fast"})
    assert run.exit_code == 2
    assert_one_clean_line(run.stderr)
    assert b"bad LITTLEGO_* setting" in run.stderr
    assert run.files == ["input.txt"]


@pytest.mark.parametrize("name, value", [("LITTLEGO_MOVE_CPU", "nan"),
                                         ("LITTLEGO_WORKERS", "400")])
def test_a_setting_out_of_its_sane_range_exits_2_with_one_stderr_line(tmp_path, name, value):
    run = run_agent(tmp_path, OPENING_INPUT, **{name: value})
    assert run.exit_code == 2
    assert_one_clean_line(run.stderr)
    assert b"bad LITTLEGO_* setting" in run.stderr
    assert run.files == ["input.txt"]


def test_a_fifo_as_input_exits_2_at_once(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    os.mkfifo(str(game / "input.txt"))  # no writer: a plain open would block for ever
    run = run_agent(tmp_path)
    assert run.exit_code == 2
    assert_one_clean_line(run.stderr)
    assert b"not a regular file" in run.stderr
    assert run.output is None


@pytest.mark.slow
def test_valid_input_followed_by_100_mb_of_newlines_exits_2_with_one_line(tmp_path):
    # Read in bounded bytes: no 10 s of CPU or 2 GB of memory on a file the referee never
    # writes. (Generated here, never committed.)
    run = run_agent(tmp_path, OPENING_INPUT + b"\n" * (100 * 1000 * 1000))
    assert run.exit_code == 2
    assert_one_clean_line(run.stderr)
    assert "larger than {} bytes".format(course_io.MAX_INPUT_BYTES).encode() in run.stderr
    assert run.output is None
    assert run.files == ["input.txt"]


# ---- moves -------------------------------------------------------------------------------

def test_black_first_move_is_exactly_the_centre(tmp_path):
    run = run_agent(tmp_path, OPENING_INPUT)
    assert run.exit_code == 0
    assert run.output == b"2,2"
    assert run.files == ["input.txt", NAME + "_step_1.json", "output.txt"]
    assert run.input_after == OPENING_INPUT


def test_crlf_trailing_spaces_and_a_final_newline_are_accepted(tmp_path):
    # rules.md: readers must accept these variants of the referee's format.
    loose = b"\r\n".join([b"1 "] + [b"00000  "] * 10) + b"\r\n"
    run = run_agent(tmp_path, loose)
    assert run.exit_code == 0, run.stderr
    assert run.output == b"2,2"


def test_white_first_move_starts_a_new_ledger_over_a_stale_step_file(tmp_path):
    # A stale record from an earlier game (as Black, nearly all its CPU spent) must not count.
    record_our_last_move(tmp_path, BLACK, 23, MIDGAME, cpu_used=54.0)
    after_black = Position().play(from_coord(2, 2))
    run = run_agent(tmp_path, format_input(WHITE, (0, 0), (after_black.black, after_black.white))
                    .encode("ascii"))
    assert run.exit_code == 0, run.stderr
    assert b"step_storage" not in run.stderr
    after_white = after_black.play(output_move(run))
    assert 0 < assert_step_record(tmp_path, WHITE, 2, after_white) < 54.0


# Black to move at ply 23, behind by half a point (11 stones against 9 + 2.5). Only 4,4 wins:
# it captures White's three bottom stones, and White's last ply cannot win them back.
WINNING_CAPTURE = """
    . X X . X
    X X O O O
    O X . X O
    . X X X O
    X O O O ."""
# The board Black left at ply 21; White then played 2,0.
WINNING_CAPTURE_BEFORE = """
    . X X . X
    X X O O O
    . X . X O
    . X X X O
    X O O O ."""
# White to move at ply 22: its chain 2,2 2,3 3,3 has one liberty, 1,3. Only 1,3 wins: it
# joins the top chain; anything else lets Black take three stones at ply 23.
CHAIN_IN_ATARI = """
    . O O O X
    . . X . X
    X X O O X
    . . X O X
    . . X X ."""
# The board White left at ply 20; Black then played 3,2 and put the chain in atari.
CHAIN_IN_ATARI_BEFORE = """
    . O O O X
    . . X . X
    X X O O X
    . . . O X
    . . X X ."""

DECISIVE_MOVES = [
    pytest.param(BLACK, 23, WINNING_CAPTURE_BEFORE, WINNING_CAPTURE, b"4,4", id="capture"),
    pytest.param(WHITE, 22, CHAIN_IN_ATARI_BEFORE, CHAIN_IN_ATARI, b"1,3", id="save from atari"),
]


@pytest.mark.parametrize("solver", ["1", "0"], ids=["exact endgame", "mcts only"])
@pytest.mark.parametrize("colour, ply, before, board, move", DECISIVE_MOVES)
def test_the_one_winning_move_is_played(tmp_path, colour, ply, before, board, move, solver):
    position = Position.from_text(board, colour, ply, previous=before)
    # The premise: exactly one winning move, and it is `move`.
    assert [go_board.move_to_text(m).encode() for m in perfect_play_winners(position)] == [move]
    record_our_last_move(tmp_path, colour, ply - 2, before)
    run = run_agent(tmp_path, game_input(colour, before, board), LITTLEGO_SOLVER=solver)
    assert run.exit_code == 0, run.stderr
    assert run.output == move


# Black to move at ply 23: White's 0,3 has just taken Black's 0,2. Retaking at 0,2 would win
# were it legal, but it recreates the previous board: ko. An agent that lost the previous
# board on the way from input.txt to its search would play it and lose on an illegal move.
KO_JUST_TAKEN = """
    . O . O X
    X O O X .
    X X X . X
    X O O X .
    X . . O O"""
KO_BEFORE = """
    . O X . X
    X O O X .
    X X X . X
    X O O X .
    X . . O O"""


@pytest.mark.parametrize("solver", ["1", "0"], ids=["exact endgame", "mcts only"])
def test_never_retakes_a_ko_at_once(tmp_path, solver):
    position = Position.from_text(KO_JUST_TAKEN, BLACK, 23, previous=KO_BEFORE)
    ko_point = from_coord(0, 2)
    assert position.try_play(ko_point) == KO
    # The premise: with any other previous board the retake is the one winning move.
    without_ko = Position.from_text(KO_JUST_TAKEN, BLACK, 23, previous=WINNING_CAPTURE)
    assert perfect_play_winners(without_ko) == [ko_point]
    record_our_last_move(tmp_path, BLACK, 21, KO_BEFORE)
    run = run_agent(tmp_path, game_input(BLACK, KO_BEFORE, KO_JUST_TAKEN), LITTLEGO_SOLVER=solver)
    assert run.exit_code == 0, run.stderr
    assert run.output != b"0,2"
    assert_plays_a_placement(run, position)


# Black 7 stones against White's 4 + 2.5: Black leads.
BLACK_LEADS = """
    . . . . .
    . X X X .
    . X O X .
    . X O O .
    . . X O ."""
# Black 5 stones against White's 4 + 2.5: White leads.
WHITE_LEADS = """
    . . . . .
    . X X . .
    . X O O .
    . X O O .
    . . X . ."""


@pytest.mark.parametrize("colour, ply, board", [
    pytest.param(BLACK, 15, BLACK_LEADS, id="black"),
    pytest.param(WHITE, 14, WHITE_LEADS, id="white"),
])
def test_passes_to_end_the_game_when_the_opponent_passed_and_we_lead(tmp_path, colour, ply,
                                                                   board):
    # After the opponent's pass the referee writes previous = current = the board we left.
    record_our_last_move(tmp_path, colour, ply - 2, board)
    run = run_agent(tmp_path, game_input(colour, board, board))
    assert run.exit_code == 0, run.stderr
    assert run.output == b"PASS"


def test_does_not_pass_after_the_opponent_passed_when_behind(tmp_path):
    # Passing would end the game at once with White's win.
    record_our_last_move(tmp_path, BLACK, 13, WHITE_LEADS)
    run = run_agent(tmp_path, game_input(BLACK, WHITE_LEADS, WHITE_LEADS))
    assert run.exit_code == 0, run.stderr
    position = Position.from_text(WHITE_LEADS, BLACK, 15)
    assert_plays_a_placement(run, position)


def test_black_opens_at_the_centre_even_without_the_book(tmp_path):
    # A pass at ply 1 leaves both boards empty: the game ends and White wins 2.5 to 0; every
    # first move but the centre is a proven loss. So the centre is a rule, not a search result.
    run = run_agent(tmp_path, OPENING_INPUT, LITTLEGO_BOOK="0")
    assert run.exit_code == 0, run.stderr
    assert [record["source"] for record in decision_log.read_decisions(run.stderr.decode())] \
        == [decision_log.SOURCE_CENTRE_RULE]
    assert run.output == b"2,2"


AFTER_BLACK_CENTRE = Position().play(from_coord(2, 2))


def test_a_book_move_reads_the_book_header_once(tmp_path, monkeypatch):
    # The time manager (answered plies) and the move choice (the lookup) share one opened book.
    reads = []
    real_read = agent.opening_book.read
    monkeypatch.setattr(agent.opening_book, "read",
                        lambda *path: reads.append(path) or real_read(*path))
    for key, value in SMALL_BUDGET.items():
        monkeypatch.setenv(key, value)
    after_corner = Position().play(from_coord(0, 0))  # a losing first move: the book answers
    (tmp_path / "input.txt").write_bytes(
        format_input(WHITE, (0, 0), (after_corner.black, 0)).encode("ascii"))
    assert my_player.main(str(tmp_path)) == 0
    assert reads == [()]
    answer = real_read().lookup(after_corner)
    assert (tmp_path / "output.txt").read_text() == go_board.move_to_text(answer)


# Plays one move in a fresh interpreter (argv: the repository, the game directory) and prints
# the exit code and the names of every module loaded.
MODULES_PROBE = """
import json, sys
import my_player
code = my_player.main(sys.argv[1])
print(json.dumps({"exit_code": code, "modules": sorted(sys.modules)}))
"""


def test_a_book_move_loads_neither_the_search_nor_the_gtp_engine(tmp_path):
    # A book move's CPU is mostly imports (docs/benchmarks.md): MCTS, the GTP engine, tempfile
    # and random load only when a move is searched or GTP is spoken.
    after_corner = Position().play(from_coord(0, 0))
    (tmp_path / "input.txt").write_bytes(
        format_input(WHITE, (0, 0), (after_corner.black, 0)).encode("ascii"))
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(agent_settings.SETTINGS_PREFIX)}
    done = subprocess.run([sys.executable, "-c", MODULES_PROBE, str(tmp_path)], cwd=REPO_ROOT,
                          env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60, check=True)
    report = json.loads(done.stdout)
    assert report["exit_code"] == 0
    assert [record["source"] for record in decision_log.read_decisions(done.stderr)] == [
        decision_log.SOURCE_BOOK]
    loaded = set(report["modules"])
    assert {"agent", "opening_book", "course_io", "step_storage"} <= loaded
    assert not loaded & {"mcts.parallel", "mcts.go_game", "littlego", "littlego.gtp.engine",
                         "littlego.analysis.live", "tempfile", "random"}


def test_the_per_move_program_and_the_gtp_engine_get_their_budgets_the_same_way(tmp_path,
                                                                             monkeypatch):
    # Both ask agent.plan_move for the move's budget and give agent.decide its cpu_deadline,
    # an end on the tree CPU clock: counted from the process's start for the per-move program
    # (the grader counts the interpreter's start-up), from genmove's arrival for the engine.
    plans, deadlines = [], []
    real_plan = agent.plan_move

    def plan(*args, **kwargs):
        plans.append((args, real_plan(*args, **kwargs)))
        return plans[-1][1]

    def decide(position, cpu_deadline, settings, book, solver_table=None):
        deadlines.append(cpu_deadline)
        return decision_log.Decision(from_coord(1, 1), decision_log.SOURCE_MCTS, {})
    monkeypatch.setattr(agent, "plan_move", plan)
    monkeypatch.setattr(agent, "decide", decide)
    for key, value in SMALL_BUDGET.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "input.txt").write_bytes(OPENING_INPUT)
    assert my_player.main(str(tmp_path)) == 0
    settings = agent_settings.Settings(os.environ)
    engine = gtp_engine.GtpEngine(settings, agent.read_book(settings))
    before = clocks.tree_cpu_seconds()
    assert engine.handle("genmove b") == ("= B4", False, None)
    after = clocks.tree_cpu_seconds()
    (program_args, program_plan), (engine_args, engine_plan) = plans
    assert program_args[0] == engine_args[0] == 1  # the ply
    assert program_args[4] == clocks.PROCESS_START_CPU and before <= engine_args[4] <= after
    assert deadlines == [program_plan.cpu_deadline, engine_plan.cpu_deadline]
    assert program_plan.cpu_deadline == program_plan.budget
    assert engine_plan.cpu_deadline == engine_args[4] + engine_plan.budget
    assert engine_plan.budget == program_plan.budget  # the same ply, CPU spent and settings


def test_a_pass_chosen_at_ply_one_is_replaced_by_a_placement(tmp_path, monkeypatch):
    # The last guard (agent.decide, under main), whatever the search says: force it to PASS.
    monkeypatch.setattr(agent, "choose_move",
                        lambda *args: decision_log.Decision(PASS, decision_log.SOURCE_MCTS, {}))
    for key, value in SMALL_BUDGET.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "input.txt").write_bytes(OPENING_INPUT)
    assert my_player.main(str(tmp_path)) == 0
    move = go_board.move_from_text((tmp_path / "output.txt").read_text())
    assert move != PASS and Position().is_legal(move)


# ---- the step file across calls ----------------------------------------------------------

def test_the_step_file_is_written_and_continued_across_two_calls(tmp_path):
    first = run_agent(tmp_path, OPENING_INPUT)
    assert first.output == b"2,2"
    after_black = Position().play(from_coord(2, 2))
    first_cpu = assert_step_record(tmp_path, BLACK, 1, after_black)
    assert first_cpu > 0
    # White answers in the corner; the referee's next input.txt for Black:
    after_white = after_black.play(from_coord(0, 0))
    second = run_agent(tmp_path, format_input(
        BLACK, (after_black.black, after_black.white),
        (after_white.black, after_white.white)).encode("ascii"))
    assert second.exit_code == 0, second.stderr
    # The book's proven winning answer (the ply was restored from the step file).
    assert second.output == go_board.move_to_text(opening_book.read().lookup(after_white)).encode()
    # The record continued (no recovery line) and the ledger grew by this call's CPU.
    assert b"step_storage" not in second.stderr
    after_ours = after_white.play(output_move(second))
    assert assert_step_record(tmp_path, BLACK, 3, after_ours) > first_cpu


@pytest.mark.slow
def test_two_copies_sharing_a_directory_keep_their_own_step_files(tmp_path):
    # Self-play under the course's driver loop: Black and White are both this agent.
    first = run_agent(tmp_path, OPENING_INPUT)
    after_black = Position().play(output_move(first))
    reply = run_agent(tmp_path, format_input(WHITE, (0, 0), (after_black.black, after_black.white))
                      .encode("ascii"))
    assert reply.exit_code == 0, reply.stderr
    after_white = after_black.play(output_move(reply))
    third = run_agent(tmp_path, format_input(BLACK, (after_black.black, after_black.white),
                                             (after_white.black, after_white.white))
                      .encode("ascii"))
    assert third.exit_code == 0, third.stderr
    assert b"step_storage" not in third.stderr  # Black's record survived White's move
    assert third.files == ["input.txt", NAME + "_step_1.json", NAME + "_step_2.json",
                           "output.txt"]
    assert_step_record(tmp_path, BLACK, 3, after_white.play(output_move(third)))
    assert_step_record(tmp_path, WHITE, 2, after_white)


# ---- CPU of the whole process tree, and nothing left behind ------------------------------

# Black to move at ply 9 (its record is from ply 7): out of the book (Black did not open at the
# centre, and the book answers Black only after it), too early for the exact search, so the
# move goes to the two-worker MCTS.
MIDGAME_BEFORE = """
    . . . . .
    . O X X .
    . X . O .
    . X O . .
    . . . . ."""
MIDGAME = """
    . . . . .
    . O X X .
    . X . O .
    . X O O .
    . . . . ."""
# Black to move at ply 13 with 21 empty points: the exact search starts (12 plies left) but its
# proof (about 1.7 s of CPU on Python 3.11, 2026-11-22) runs out of its share of the budget,
# and MCTS takes over with what is left.
ENDGAME_BEFORE = """
    . . . . .
    . X . . .
    . X O . .
    . . . . .
    . . . . ."""
ENDGAME = """
    . . . . .
    . X . . .
    . X O O .
    . . . . .
    . . . . ."""
CPU_MARGIN = 0.3
# (ply, boards, LITTLEGO_MOVE_CPU, the move's budget): 0.4 is below the agent's smallest
# budget, MIN_SEARCH_CPU + EXIT_RESERVE_CPU = 0.45, so that run gets exactly the floor.
SEARCH_RUNS = {
    "midgame": (9, MIDGAME_BEFORE, MIDGAME, 1.0, 1.0),
    "exact search times out": (13, ENDGAME_BEFORE, ENDGAME, 1.0, 1.0),
    "floor budget": (13, ENDGAME_BEFORE, ENDGAME, 0.4, 0.45),
}


@pytest.fixture(scope="module", params=sorted(SEARCH_RUNS))
def search_run(request, tmp_path_factory):
    """`(AgentRun, ply, boards, budget)` of one two-worker search run."""
    ply, before, board, move_cpu, budget = SEARCH_RUNS[request.param]
    tmp_path = tmp_path_factory.mktemp("search")
    record_our_last_move(tmp_path, BLACK, ply - 2, before, cpu_used=2.0)
    run = run_agent(tmp_path, game_input(BLACK, before, board),
                    LITTLEGO_MOVE_CPU=str(move_cpu), LITTLEGO_WORKERS="2")
    return run, Position.from_text(board, BLACK, ply, previous=before), budget


def test_search_runs_play_a_legal_move_found_by_two_workers(search_run):
    # What the two tests below rely on: the run forked a worker and used its answer.
    run, position, _ = search_run
    assert run.exit_code == 0, run.stderr
    [record] = decision_log.read_decisions(run.stderr.decode())
    assert record["source"] == decision_log.SOURCE_MCTS, run.stderr
    assert record["details"]["workers"] == 2, run.stderr
    assert_plays_a_placement(run, position)


def test_cpu_of_the_whole_process_tree_stays_within_the_move_budget(search_run):
    # Measured from outside, forked workers included, as the grader's `time` measures it.
    run, _, budget = search_run
    assert run.cpu <= budget + CPU_MARGIN


def test_no_process_outlives_the_agent(search_run):
    run, _, _ = search_run
    assert run.leftovers == []


def test_the_probe_does_see_a_process_left_behind(tmp_path):
    # Guards the test above: a program that forks a sleeper and exits is caught.
    script = tmp_path / "leaves_a_child.py"
    script.write_text("import os, time\nif os.fork() == 0:\n    time.sleep(30)\n")
    report_path = tmp_path / "probe.json"
    subprocess.run([sys.executable, PROBE, str(report_path), sys.executable, str(script)],
                   check=True, timeout=60)
    report = json.loads(report_path.read_text())
    assert report["exit_code"] == 0
    assert len(report["leftovers"]) == 1


# ---- worker failures ---------------------------------------------------------------------

SEARCH_POSITION = Position.from_text(MIDGAME, BLACK, 9, previous=MIDGAME_BEFORE)


def parallel_search(workers, messages):
    return root_parallel_search(GoState(SEARCH_POSITION), PlayoutEvaluator(True), 11, workers,
                                0.05, 5.0, log=messages.append,
                                exploration=agent_settings.DEFAULT_EXPLORATION)


def assert_no_children_left():
    left = psutil.Process().children(recursive=True)
    for process in left:
        process.kill()  # ours (forked by this test): a failure must not leave them running
    assert left == []


def test_two_workers_both_count_when_fork_works():
    # The contrast for the failure tests below: here the worker's answer is merged.
    messages = []
    children, simulations, workers_used = parallel_search(2, messages)
    assert workers_used == 2 and messages == []
    # Every simulation passes through exactly one root child, in whichever worker it ran.
    assert sum(stats.visits for stats in children) == simulations > 0
    assert_no_children_left()


def test_fork_failure_falls_back_to_the_in_process_search(monkeypatch):
    def no_fork():
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
    monkeypatch.setattr(os, "fork", no_fork)
    messages = []
    children, simulations, workers_used = parallel_search(3, messages)
    assert workers_used == 1
    assert sum(stats.visits for stats in children) == simulations > 0
    assert len(messages) == 1 and "cannot start worker" in messages[0]


def crash_or_hang_in_workers(monkeypatch, behaviour):
    """Patch the search so that in any forked worker it raises or hangs; the parent's runs."""
    parent = os.getpid()
    real_search = core.search

    def search(*args, **kwargs):
        if os.getpid() != parent:
            if behaviour == "hang":
                # Spin: a stuck worker burning CPU, the worst case for the grader. Bounded, so
                # that if the parent ever stops killing workers the spinner still ends.
                give_up = time.monotonic() + 30
                while time.monotonic() < give_up:
                    pass
                os._exit(3)
            raise RuntimeError("worker crashed")
        return real_search(*args, **kwargs)
    monkeypatch.setattr(core, "search", search)


def test_a_crashing_worker_is_left_out_and_the_agent_still_answers(monkeypatch):
    crash_or_hang_in_workers(monkeypatch, "crash")
    settings = agent_settings.Settings({"LITTLEGO_WORKERS": "2", "LITTLEGO_SEED": SEED})
    decision = agent.choose_move(SEARCH_POSITION, clocks.tree_cpu_seconds() + 0.6,
                                 settings, agent.read_book(settings))
    assert decision.source == decision_log.SOURCE_MCTS and decision.details["workers"] == 1
    assert SEARCH_POSITION.is_legal(decision.move)
    assert_no_children_left()


def test_a_hung_worker_is_killed_and_reaped(monkeypatch):
    crash_or_hang_in_workers(monkeypatch, "hang")
    messages = []
    children, simulations, workers_used = parallel_search(2, messages)
    assert workers_used == 1
    assert sum(stats.visits for stats in children) == simulations > 0
    assert_no_children_left()


# ---- the hard CPU bound ------------------------------------------------------------------

# CPU a search killed by its kernel limit may use past HARD_CPU_MARGIN (the kernel's tick).
KILL_TOLERANCE_CPU = 0.1


def spin_forever_in(monkeypatch, where):
    """Patch the search so that, in the workers or in the parent, it never looks at a clock."""
    parent = os.getpid()
    real_search = core.search

    def search(*args, **kwargs):
        if (os.getpid() != parent) == (where == "workers"):
            while True:
                pass
        return real_search(*args, **kwargs)
    monkeypatch.setattr(core, "search", search)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_a_worker_that_never_looks_at_its_clock_is_stopped_by_the_kernel(monkeypatch):
    spin_forever_in(monkeypatch, "workers")
    # The parent would wait a minute for it: only the worker's own CPU limit can end it.
    monkeypatch.setattr(parallel, "REPORT_GRACE_SECONDS", 60.0)
    before = children_cpu()
    messages = []
    children, simulations, workers_used = parallel_search(2, messages)
    assert workers_used == 1 and simulations > 0
    assert children_cpu() - before <= 0.05 + parallel.HARD_CPU_MARGIN + KILL_TOLERANCE_CPU
    assert_no_children_left()


def test_a_parent_search_that_never_looks_at_its_clock_plays_on_the_workers_answer(monkeypatch):
    spin_forever_in(monkeypatch, "parent")
    messages = []
    before = time.process_time()
    children, simulations, workers_used = parallel_search(2, messages)
    assert time.process_time() - before <= 0.05 + parallel.HARD_CPU_MARGIN + KILL_TOLERANCE_CPU
    assert workers_used == 1 and sum(stats.visits for stats in children) == simulations > 0
    assert messages == ["the parent's search passed its CPU limit; playing on the workers' answers"]
    assert_no_children_left()


def agent_workers(player):
    """The forked workers of the agent's process `player`, once it has started them."""
    for _ in range(1000):
        workers = player.children()
        if workers:
            return workers
        time.sleep(0.01)
    raise AssertionError("the agent started no worker")


def running(process):
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("kill_signal", [signal.SIGTERM, signal.SIGKILL])
def test_workers_die_with_a_parent_killed_mid_search(tmp_path, kill_signal):
    game = tmp_path / "game"
    game.mkdir()
    (game / "input.txt").write_bytes(game_input(BLACK, MIDGAME_BEFORE, MIDGAME))
    environment = dict(os.environ, LITTLEGO_MOVE_CPU="30", LITTLEGO_GAME_CPU="300",
                       LITTLEGO_WORKERS="2", LITTLEGO_SEED=SEED, LITTLEGO_SOLVER="0")
    player = psutil.Popen([sys.executable, PLAYER], cwd=str(game), env=environment,
                          stderr=subprocess.DEVNULL)
    workers = []
    try:
        workers = agent_workers(player)
        player.send_signal(kill_signal)
        player.wait(timeout=10)
        time.sleep(0.5)
        assert len(workers) == 1 and not running(workers[0])
    finally:
        for process in [player] + workers:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
