"""The match engine, its players, files and statistics, and human play.

Built-in players are stubs from referee_support injected into run_match, so these tests do
not depend on the opponents package. Command players are the scripts in tests/fixtures.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import time

import psutil
import pytest

import course_io
import go_board
from littlego.referee import judge, proctree, rules, stats
from littlego.referee.game import play_game
from littlego.referee.human import HumanPlayer, parse_entry
from littlego.referee.match import derive_seed, run_match
from littlego.referee.players import make_player
from littlego.referee.protocol import END_RESIGN, END_TIME, MoveLimits
from littlego.referee.sgf import game_to_sgf

from referee_support import FIXTURES, HOST, RANDOM_PLAYER, STUB_PLAYERS, load_fixture

PYTHON = sys.executable
RANDOM_CMD = "cmd:{} {}".format(PYTHON, RANDOM_PLAYER)
# A wall limit no move of these tests reaches even on a loaded machine: what they check is
# decided by CPU, which a busy machine only makes slower to arrive.
SAFE_WALL = 600.0
FAST = dict(limit_cpu=5.0, limit_wall=SAFE_WALL, builtin_players=STUB_PLAYERS)
# A metered tree's CPU may differ from what it is known to use by this much (interpreter
# start-up, the shell, and the kernel's tick-based accounting).
METER_TOLERANCE = 0.1
# How far past its CPU limit a spinner may get before the referee's kill lands.
KILL_LATENCY_CPU = 0.3


def replay(moves):
    """The final go_board.Position after the recorded moves, every one of them legal."""
    position = go_board.Position()
    for text in moves:
        action = course_io.parse_action(text)
        position = position.play(go_board.PASS if action == rules.PASS
                                 else go_board.from_coord(*action))
    return position


def test_a_short_match_alternates_colours_and_records_every_game(tmp_path):
    result = run_match("first", "last", games=4, seed=3, out_dir=str(tmp_path), **FAST)
    assert [record["game"] for record in result.records] == [1, 2, 3, 4]
    assert [record["black"] for record in result.records] == ["first", "last"] * 2
    assert result.records[0]["moves"][:4] == ["0,0", "4,4", "0,1", "4,3"]
    for record in result.records:
        final = replay(record["moves"])
        assert record["reason"] == judge.END_SCORE
        assert record["winner"] == final.winner()
        assert (record["black_stones"], record["white_stones"]) == (
            go_board.popcount(final.black), go_board.popcount(final.white))
        assert record["plies"] == len(record["moves"]) == 24
        assert len(record["cpu"]["black"]) == len(record["cpu"]["white"]) == 12
        assert record["seeds"] == {"black": derive_seed(3, record["game"], rules.BLACK),
                                   "white": derive_seed(3, record["game"], rules.WHITE)}
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == [1, 2, 3, 4]
    assert sorted(os.listdir(str(tmp_path))) == [
        "game-0001.sgf", "game-0002.sgf", "game-0003.sgf", "game-0004.sgf", "games.jsonl",
        "summary.txt"]
    assert (tmp_path / "summary.txt").read_text() == result.table + "\n"


def test_a_match_can_fix_one_players_colour():
    for colour, black in ((rules.BLACK, "first"), (rules.WHITE, "last")):
        result = run_match("first", "last", games=3, seed=3, a_colour=colour, **FAST)
        assert [record["black"] for record in result.records] == [black] * 3


def test_the_table_has_a_row_per_player_and_colour(tmp_path):
    result = run_match("first", "passer", games=4, seed=0, **FAST)
    rows = {(row["player"], row["colour"]): row for row in result.rows}
    assert sorted(rows) == sorted((player, colour) for player in ("first", "passer")
                                  for colour in ("Black", "White", "both"))
    # "first" wins every game: as Black 12 stones to 2.5; as White, passer's ply-1 pass.
    assert [(rows["first", c]["games"], rows["first", c]["wins"])
            for c in ("Black", "White", "both")] == [(2, 2), (2, 2), (4, 4)]
    assert rows["passer", "both"]["wins"] == 0
    assert (rows["passer", "both"]["wilson_low"], rows["passer", "both"]["elo_low"]) == (
        0.0, -math.inf)
    assert rows["first", "both"]["wilson_low"] == pytest.approx(0.5101, abs=1e-4)
    assert rows["first", "both"]["elo"] == math.inf
    assert rows["passer", "both"]["elo_high"] == pytest.approx(-stats.elo_difference(0.5101),
                                                               abs=0.5)
    header = result.table.splitlines()[0].split()
    assert header[:5] == ["player", "colour", "games", "wins", "win%"]
    assert "lost:" in header and "illegal" in header and "bad" in header
    assert len(result.table.splitlines()) == 7


@pytest.mark.parametrize("wins, games, low, high", [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (0, 0, 0.0, 1.0)])
def test_wilson_interval_known_values(wins, games, low, high):
    assert stats.wilson_interval(wins, games) == pytest.approx((low, high), abs=1e-4)


def test_elo_difference_of_a_win_rate():
    assert stats.elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert stats.elo_difference(0.5) == 0
    assert stats.elo_difference(0.0) == -math.inf


def test_sgf_of_a_game_ended_on_the_score():
    result = run_match("passer", "first", games=2, **FAST)
    assert game_to_sgf(result.records[0]) == (
        "(;FF[4]GM[1]CA[UTF-8]SZ[5]KM[2.5]PB[passer]PW[first]RE[W+2.5]"
        "C[score: Black 0 - White 0 + 2.5 komi]\n;B[])\n")
    assert game_to_sgf(result.records[1]) == (
        "(;FF[4]GM[1]CA[UTF-8]SZ[5]KM[2.5]PB[first]PW[passer]RE[B+9.5]"
        "C[score: Black 12 - White 0 + 2.5 komi]\n"
        ";B[aa];W[];B[ba];W[];B[ca];W[];B[da];W[];B[ea];W[];B[ab];W[]"
        ";B[bb];W[];B[cb];W[];B[db];W[];B[eb];W[];B[ac];W[];B[bc];W[])\n")


def test_a_built_in_player_that_answers_nonsense_loses_on_bad_output():
    result = run_match("broken", "first", games=1, **FAST)
    record = result.records[0]
    assert (record["winner_name"], record["reason"]) == ("first", judge.END_BAD_OUTPUT)
    assert record["detail"] == "choose_move returned '2,2'"
    assert game_to_sgf(record).split("\n")[0].endswith(
        "RE[W+Forfeit]C[bad output: choose_move returned '2,2']")
    assert {row["player"]: row["lost_bad"] for row in result.rows
            if row["colour"] == "both"} == {"broken": 1, "first": 0}


@pytest.mark.parametrize("command, detail", [
    ("echo pass > output.txt", "found 'pass\\n'"),
    ("echo '(2,3)' > output.txt", "found '(2,3)\\n'"),
    ("exit 7", "output.txt not found or unreadable: No such file or directory (exit status 7)"),
])
def test_a_command_with_bad_output_loses(command, detail):
    record = run_match("first", "cmd:" + command, games=1, **FAST).records[0]
    assert (record["winner"], record["reason"]) == (rules.BLACK, judge.END_BAD_OUTPUT)
    assert detail in record["detail"]
    assert record["moves"] == ["0,0"]


def test_an_illegal_command_move_loses_and_is_not_recorded():
    record = run_match("first", "cmd:echo 0,0 > output.txt", games=1, **FAST).records[0]
    assert (record["winner"], record["reason"]) == (rules.BLACK, judge.END_ILLEGAL)
    assert record["detail"] == "0,0: point is occupied"
    assert record["moves"] == ["0,0"] and record["plies"] == 2
    assert "RE[B+Forfeit]" in game_to_sgf(record)


def test_command_players_get_their_seed_and_their_own_directory(tmp_path):
    record_black = "echo $PWD $LITTLEGO_SEED >> {}/black.txt; ".format(tmp_path)
    record_white = "echo $PWD $LITTLEGO_SEED >> {}/white.txt; ".format(tmp_path)
    result = run_match("cmd:" + record_black + RANDOM_CMD[len("cmd:"):],
                       "cmd:" + record_white + "echo PASS > output.txt",
                       games=1, seed=11, **FAST)
    record = result.records[0]
    black_dirs = {line.split()[0] for line in (tmp_path / "black.txt").read_text().splitlines()}
    white_dirs = {line.split()[0] for line in (tmp_path / "white.txt").read_text().splitlines()}
    (black_dir,), (white_dir,) = black_dirs, white_dirs
    assert os.path.basename(black_dir) == "black" and os.path.basename(white_dir) == "white"
    assert os.path.dirname(black_dir) == os.path.dirname(white_dir)
    assert not os.path.exists(os.path.dirname(black_dir))  # removed after the game
    seed = derive_seed(11, 1, rules.BLACK)
    assert (tmp_path / "black.txt").read_text().split()[1] == str(seed)
    assert (tmp_path / "white.txt").read_text().split()[1] == str(derive_seed(11, 1, rules.WHITE))
    # The random player's choice is a function of its input and LITTLEGO_SEED.
    expected = load_fixture("random_player").choose_move_text(
        judge.format_input(judge.opening_input()), str(seed))
    assert record["moves"][:2] == [expected, "PASS"]


def alive(pid):
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def spinner_pids(path):
    return [int(line) for line in path.read_text().split()]


def test_a_player_over_the_cpu_limit_loses_and_its_whole_tree_is_killed(tmp_path):
    pids = tmp_path / "pids"
    spinner = "cmd:{} {} {} wait".format(PYTHON, os.path.join(FIXTURES, "spinning_child.py"),
                                          pids)
    result = run_match("first", spinner, games=1, limit_cpu=0.5, limit_wall=SAFE_WALL,
                       builtin_players=STUB_PLAYERS)
    record = result.records[0]
    assert (record["winner"], record["reason"]) == (rules.BLACK, END_TIME)
    assert record["detail"].startswith("used ") and "of CPU, limit 0.5 s" in record["detail"]
    assert 0.5 < record["cpu"]["white"][0] < 0.5 + KILL_LATENCY_CPU
    (pid,) = spinner_pids(pids)
    assert not alive(pid)
    assert [row["lost_time"] for row in result.rows if row["colour"] == "both"] == [0, 1]


def test_children_left_running_after_a_move_are_killed(tmp_path):
    pids = tmp_path / "pids"
    spinner = "cmd:{} {} {} pass".format(PYTHON, os.path.join(FIXTURES, "spinning_child.py"),
                                          pids)
    record = run_match("first", spinner, games=1, limit_cpu=5.0, limit_wall=SAFE_WALL,
                       builtin_players=STUB_PLAYERS).records[0]
    assert record["reason"] == judge.END_SCORE and record["plies"] == 24
    assert len(spinner_pids(pids)) == 12
    assert not any(alive(pid) for pid in spinner_pids(pids))


def test_cpu_of_child_processes_counts_for_the_move_once():
    # The player's one move is off the board, so the game ends after its first turn.
    busy = "cmd:{} {} 2 0.3 9,9".format(PYTHON, os.path.join(FIXTURES, "busy_children.py"))
    record = run_match("first", busy, games=1, limit_cpu=5.0, limit_wall=SAFE_WALL,
                       builtin_players=STUB_PLAYERS).records[0]
    assert record["reason"] == judge.END_ILLEGAL
    (cpu,) = record["cpu"]["white"]
    assert abs(cpu - 0.6) <= METER_TOLERANCE


@pytest.mark.parametrize("mode", ["wait", "orphan"])
def test_a_tree_that_ends_all_at_once_is_metered_once(tmp_path, mode):
    # A shell runs python, which forks a worker; each of the two uses 0.3 s. The meter reads
    # all three alive, then all of them end before its next sample: the worker reaped by
    # python and python by the shell ("wait"), or python first and the worker as an orphan.
    command = "{} {} 0.3 {}; true".format(PYTHON, os.path.join(FIXTURES, "reap_race.py"), mode)
    process, meter = proctree.spawn(command, str(tmp_path), dict(os.environ), None,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert [process.stdout.readline() for _ in range(2)] == [b"ready\n"] * 2
        meter.refresh()
        assert len(meter.members) == 3
        assert abs(meter.sample() - 0.6) <= METER_TOLERANCE
        process.stdin.close()
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # the shell has ended
        while meter.running():
            time.sleep(0.01)
        assert abs(meter.sample() - 0.6) <= METER_TOLERANCE
        assert meter.reap()
        assert meter.running() == []
        # What `time` reports leaves out the orphan, whose CPU the subreaper got.
        expected_time_cpu = 0.6 if mode == "wait" else 0.3
        assert abs(meter.time_cpu() - expected_time_cpu) <= METER_TOLERANCE
    finally:
        proctree.kill_tree(process, meter)
        process.returncode = 0
        process.stdout.close()


def test_run_limited_reports_both_meters_and_what_was_left_running(tmp_path):
    spinner = "{} {} {} pass".format(PYTHON, os.path.join(FIXTURES, "spinning_child.py"),
                                     tmp_path / "pids")
    run = proctree.run_limited(spinner, str(tmp_path), dict(os.environ), 5.0, SAFE_WALL)
    assert (run.over_limit, run.exit_status, run.leftovers) == (None, 0, 1)
    assert (tmp_path / "output.txt").read_text() == "PASS"
    assert not alive(int((tmp_path / "pids").read_text()))
    busy = "{} {} 2 0.3 PASS".format(PYTHON, os.path.join(FIXTURES, "busy_children.py"))
    run = proctree.run_limited(busy, str(tmp_path), dict(os.environ), 5.0, SAFE_WALL)
    assert (run.over_limit, run.exit_status, run.leftovers) == (None, 0, 0)
    assert abs(run.cpu - 0.6) <= METER_TOLERANCE
    assert abs(run.time_cpu - run.cpu) <= 0.01


def test_a_player_over_the_wall_limit_loses():
    record = run_match("cmd:sleep 5", "first", games=1, limit_cpu=5.0, limit_wall=0.3,
                       builtin_players=STUB_PLAYERS).records[0]
    assert (record["winner"], record["reason"]) == (rules.WHITE, END_TIME)
    assert record["detail"].startswith("took ") and record["detail"].endswith("limit 0.3 s")
    assert "RE[W+Time]" in game_to_sgf(record)


def test_parallel_games_give_the_same_records_as_serial_ones():
    serial = run_match("first", "last", games=4, parallel=1, **FAST).records
    parallel = run_match("first", "last", games=4, parallel=2, **FAST).records
    strip = ("cpu", "wall")
    assert [{k: v for k, v in r.items() if k not in strip} for r in serial] == \
        [{k: v for k, v in r.items() if k not in strip} for r in parallel]
    # Four whole games in order, colours alternating, each seeded: White wins 12 - 12 on komi.
    assert [(r["game"], r["black"], r["white"], r["plies"], r["winner"], r["seeds"])
            for r in serial] == [
        (game, black, white, 24, rules.WHITE, {"black": 2 * game + 1, "white": 2 * game + 2})
        for game, (black, white) in enumerate([("first", "last"), ("last", "first")] * 2, 1)]


def test_host_match_rejects_an_unknown_player_with_a_usage_error(tmp_path):
    done = subprocess.run([PYTHON, HOST, "match", "cmd:true", "nobody", "--out",
                           str(tmp_path / "out")], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 2
    assert "host.py match: error: " in done.stderr.decode()
    assert "Traceback" not in done.stderr.decode()


def test_an_unknown_player_fails_before_any_game(tmp_path):
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        run_match("nobody", "first", games=2, out_dir=str(tmp_path / "out"), **FAST)
    assert not (tmp_path / "out").exists()


# ---- GTP ----------------------------------------------------------------------------------

def gtp_fixture(mode):
    return "gtp:{} {} {}".format(PYTHON, os.path.join(FIXTURES, "gtp_engine.py"), mode)


def test_a_gtp_engine_follows_the_game_and_its_moves_are_judged():
    result = run_match(gtp_fixture("normal"), "last", games=2, **FAST)
    for record in result.records:
        assert record["reason"] == judge.END_SCORE
        assert record["plies"] == 24
        replay(record["moves"])
    # The engine plays the first legal point: as Black it opens at A5 = 0,0.
    assert result.records[0]["moves"][:2] == ["0,0", "4,4"]
    assert result.records[1]["moves"][:2] == ["4,4", "0,0"]


@pytest.mark.parametrize("mode, reason", [("resign", END_RESIGN),
                                          ("illegal", judge.END_ILLEGAL)])
def test_a_gtp_resignation_or_illegal_move_loses(mode, reason):
    record = run_match("first", gtp_fixture(mode), games=1, **FAST).records[0]
    assert (record["winner"], record["reason"]) == (rules.BLACK, reason)


def test_a_slow_gtp_engine_loses_on_time_and_is_killed():
    # The engine sleeps a minute before its move; 5 s of wall leave room for its start-up
    # (boardsize, komi, clear_board are under the same limit) on a loaded machine.
    result = run_match("first", gtp_fixture("slow"), games=1, limit_cpu=5.0, limit_wall=5.0,
                       builtin_players=STUB_PLAYERS)
    record = result.records[0]
    assert (record["winner"], record["reason"]) == (rules.BLACK, END_TIME)
    assert record["detail"].startswith("took ") and record["detail"].endswith("limit 5 s")
    # The fixture's own command line, so engines of other test runs on the machine don't count.
    engine = gtp_fixture("slow")[len("gtp:"):]
    assert not [p for p in psutil.process_iter(["cmdline"])
                if " ".join(p.info["cmdline"] or []) == engine and alive(p.pid)]


def test_gtp_vertices_skip_the_letter_i():
    from littlego.referee.gtp_player import from_vertex, to_vertex
    assert [to_vertex(p) for p in [(0, 0), (4, 4), (2, 2), rules.PASS]] == [
        "A5", "E1", "C3", "pass"]
    assert from_vertex("J5") == (0, 8)  # letters jump from H to J
    assert from_vertex("PASS") == rules.PASS


GNUGO = shutil.which("gnugo", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (make gnugo)")
def test_gnu_go_plays_legal_games_under_our_referee():
    result = run_match("gtp:{} --mode gtp --level 1".format(GNUGO), "first", games=2, **FAST)
    for record in result.records:
        assert record["reason"] == judge.END_SCORE
        replay(record["moves"])


def test_near_best_keeps_the_moves_worth_three_quarters_of_the_best():
    from littlego.referee.gtp_player import near_best
    listed = [("D4", 39.66), ("B4", 39.66), ("D3", 30.0), ("B3", 22.68)]
    assert near_best(listed) == ["D4", "B4", "D3"]
    assert near_best([]) == []


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (make gnugo)")
def test_gnu_go_varied_opens_at_the_centre_and_its_seeded_games_differ():
    spec = "gtp-vary:{} --mode gtp --level 1".format(GNUGO)
    result = run_match(spec, "first", games=4, a_colour=rules.BLACK, **FAST)
    games = [tuple(record["moves"]) for record in result.records]
    for moves in games:
        replay(moves)
        assert moves[0] == "2,2"
    assert len(set(games)) > 1
    # Left alone, GNU Go seeds itself from the clock's second (its ties then list in another
    # order): the same seeds must give the same games a second later too.
    time.sleep(1.1)
    again = run_match(spec, "first", games=4, a_colour=rules.BLACK, **FAST)
    assert [tuple(record["moves"]) for record in again.records] == games


# ---- human play ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, action", [("2,2", (2, 2)), (" 1 , 3 ", (1, 3)), ("4 0", (4, 0)),
                                          ("PASS", rules.PASS), ("pass", rules.PASS)])
def test_human_entries(text, action):
    assert parse_entry(text) == action


def test_a_human_is_asked_again_after_a_refused_entry(tmp_path):
    entries = iter(["hello", "9,9", "2,2", "0,0"])
    said = []
    human = HumanPlayer(read_line=lambda prompt: next(entries), write=said.append)
    players = {rules.BLACK: human,
               rules.WHITE: make_player("first", MoveLimits(5.0, 5.0), STUB_PLAYERS)}
    with pytest.raises(StopIteration):
        play_game(players, {rules.BLACK: 0, rules.WHITE: 0}, str(tmp_path))
    # 2,2 was played; White took 0,0, so the human's 0,0 was refused before input ran out.
    assert said == ["type a row and a column such as 2,2, or pass",
                    "9,9 is refused: off the board",
                    "0,0 is refused: point is occupied"]


def test_host_play_in_a_terminal_session_ends_cleanly_on_eof():
    done = subprocess.run([PYTHON, HOST, "play", "--opponent", RANDOM_CMD, "--colour", "1",
                           "--seed", "5"], input=b"2,2\n2,2\n", stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "You are Black (X)" in out
    assert " 2  .  . [X] .  ." in out
    assert "2,2 is refused: point is occupied" in out
    assert out.rstrip().endswith("Game abandoned.")


def test_host_match_command_line_shows_boards_and_writes_files(tmp_path):
    out = tmp_path / "run"
    done = subprocess.run([PYTHON, HOST, "match", RANDOM_CMD, "cmd:echo 2,2 > output.txt",
                           "--games", "2", "--seed", "1", "--out", str(out), "--show"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    stdout = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "game 1 ply 1 [{}]".format(RANDOM_CMD) in stdout
    assert "Game end (illegal move: 2,2: point is occupied)" in stdout
    assert "[2/2]" in done.stderr.decode()
    assert [line.split()[0] for line in stdout.splitlines()].count("player") == 1
    assert sorted(os.listdir(str(out))) == ["game-0001.sgf", "game-0002.sgf", "games.jsonl",
                                            "summary.txt"]
