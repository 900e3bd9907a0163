"""`host.py serve` without a browser: the session's game, its refusals, its saved SGF judged
again by the referee, the agent's decision read from its log, and the HTTP API.

The page itself, driven by clicks in headless chromium, is tests/test_browser.py.
"""

import json
import os
import select
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from sgfmill import sgf

import agent
import decision_log
import go_board
from littlego.analysis import live, move_results
from littlego.opponents import in_process
from littlego.referee import judge, rules
from littlego.referee.protocol import MoveLimits
from littlego.referee.sgf import game_to_sgf, sgf_moves
from littlego.web import server as serve
from littlego.web.server import AGENT_NAME, BoardSession, make_server

from referee_support import HOST, REPO_ROOT, STUB_PLAYERS

LIMITS = MoveLimits(10.0, 30.0)
PLAYER = os.path.join(REPO_ROOT, "my_player.py")


@pytest.fixture
def make_session(tmp_path):
    sessions = []

    def make(opponent, colour=rules.BLACK):
        session = BoardSession(opponent, LIMITS, str(tmp_path / "runs"), seed=3,
                               builtin_players=dict(STUB_PLAYERS,
                                                    **in_process.factories({"kotaker": KoTaker})))
        sessions.append(session)
        session.new_game(colour)
        return session
    yield make
    for session in sessions:
        session.close()


def rows(text):
    return [[{"X": 1, "O": 2, ".": 0}[char] for char in line.split()]
            for line in text.strip().splitlines()]


def referee_result(moves):
    """Winner and final board of `moves` (SGF points or None) judged by the referee's judge."""
    state = judge.opening_input()
    for ply, point in enumerate(moves, 1):
        verdict = judge.judge_step(state, rules.PASS if point is None else point, ply)
        state = verdict.next_input
    assert state is None, "the game did not end"
    return verdict.winner, verdict.board


def test_the_person_plays_and_the_opponent_answers(make_session):
    session = make_session("last")
    session.person_moves("2,2")
    state = session.state()
    assert state["board"] == rows("""
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . O""")
    assert (state["ply"], state["to_move"], state["last_move"]) == (3, rules.BLACK, "4,4")
    assert state["score"] == {"black": 1, "white": 1, "komi": 2.5, "result": "W+2.5"}
    assert state["decision"] is None and state["message"] is None


@pytest.mark.parametrize("move, message", [
    ("4,4", "4,4 is refused: point is occupied"),
    ("5,0", "5,0 is refused: off the board"),
    ("here", "'here' is not a move: click a point or Pass"),
])
def test_a_refused_move_says_the_rules_reason_and_changes_nothing(make_session, move, message):
    session = make_session("last")
    session.person_moves("2,2")
    before = session.state()
    assert (before["ply"], before["last_move"], before["message"]) == (3, "4,4", None)
    session.person_moves(move)
    after = session.state()
    assert after["message"] == message
    assert {key: after[key] for key in before if key != "message"} == {
        key: before[key] for key in before if key != "message"}


class KoTaker(object):
    """Black's side of rules.md's ko shape, one scripted point per turn: it takes at 1,2."""

    MOVES = [(0, 1), (1, 0), (2, 1), (4, 4), (1, 2)]

    def __init__(self, seed):
        self.turn = 0

    def choose_move(self, position):
        row, col = self.MOVES[self.turn]
        self.turn += 1
        return row * rules.SIZE + col


def test_a_ko_retake_and_a_suicide_are_refused(make_session):
    session = make_session("kotaker", rules.WHITE)
    for move in ("1,1", "0,2", "1,3", "2,2"):
        session.person_moves(move)
        assert session.state()["message"] is None
    state = session.state()
    assert state["board"] == rows("""
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . X""")
    assert state["captures"] == {"black": 1, "white": 0}
    session.person_moves("1,1")
    assert session.state()["message"] == \
        "1,1 is refused: ko: the board would repeat the previous board"
    session.person_moves("0,0")
    assert session.state()["message"] == "0,0 is refused: suicide"
    assert session.state()["board"] == state["board"]


def test_two_passes_end_the_game_and_the_sgf_is_judged_the_same_by_the_referee(make_session):
    session = make_session("passer")
    session.person_moves("2,2")   # the stub passes
    session.person_moves("PASS")  # and this pass ends the game
    state = session.state()
    assert state["result"]["winner"] == rules.WHITE and state["result"]["reason"] == "score"
    assert state["score"]["result"] == "W+1.5" and not state["result"]["you_win"]
    assert state["saved_as"].startswith("board" + os.sep)
    path = os.path.join(session.runs_dir, state["saved_as"])
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    moves = sgf_moves(text)  # read by sgfmill
    assert moves == [(2, 2), None, None]
    assert sgf.Sgf_game.from_string(text).get_root().get("RE") == "W+1.5"
    winner, board = referee_result(moves)
    assert winner == state["result"]["winner"]
    assert board == state["board"]
    replay = session.replay(state["saved_as"])
    assert [view["ply"] for view in replay["positions"]] == [1, 2, 3, 4]
    assert replay["positions"][1]["last_move"] == "2,2"
    assert replay["positions"][-1]["score"]["result"] == "W+1.5"
    session.person_moves("1,1")
    assert session.state()["message"] == "The game is over: start a new one."


def test_only_sgf_files_under_runs_can_be_replayed(make_session):
    session = make_session("passer")
    with pytest.raises(KeyError):
        session.replay(os.path.join("..", "..", "etc", "passwd"))


def test_sgf_moves_read_back_what_game_to_sgf_writes():
    record = {"black": "a", "white": "b]c", "winner": rules.WHITE, "reason": judge.END_SCORE,
              "detail": "x", "moves": ["2,2", "PASS", "0,4", "4,0"], "black_stones": 2,
              "white_stones": 1}
    assert sgf_moves(game_to_sgf(record)) == [(2, 2), None, (0, 4), (4, 0)]


def test_the_agents_decision_is_read_from_its_log(make_session, monkeypatch):
    for key, value in {"LITTLEGO_BOOK": "0", "LITTLEGO_MOVE_CPU": "0.3", "LITTLEGO_WORKERS": "1",
                       "LITTLEGO_SEED": "5"}.items():
        monkeypatch.setenv(key, value)
    session = make_session("cmd:{} {}".format(sys.executable, PLAYER))
    session.person_moves("2,2")
    decision = session.state()["decision"]
    assert decision["agent"] == decision_log.PLAYER_NAME and decision["ply"] == 2
    assert decision["source"] == decision_log.SOURCE_MCTS
    assert decision["move"] == session.state()["last_move"]
    candidates = decision["details"]["candidates"]
    assert 1 <= len(candidates) <= agent.TOP_CANDIDATES
    assert candidates[0]["move"] == decision["move"]


# Black's moves against "last" (which fills from 4,4 backwards) up to ply 19, where Black wins
# whatever it plays but by more at 3,3, 3,4 and 4,2.
LATE_MOVES = ["2,0", "2,1", "2,2", "2,3", "2,4", "3,0", "3,1", "3,2", "1,1"]
LATE_BOARD = """
    . . . . .
    . X . . .
    X X X X X
    X X X . .
    . . . O O"""


def test_the_proven_results_of_the_persons_moves(make_session):
    session = make_session("last")
    for move in LATE_MOVES:
        session.person_moves(move)
    assert (session.state()["board"], session.state()["ply"]) == (rows(LATE_BOARD), 19)
    job = session.analysis_job()
    assert job.done.wait(60)
    finished, answer = job.wait(0)
    assert finished
    progress = answer.pop("progress")
    assert {key: progress[key] for key in ("solved", "moves", "done")} == {
        "solved": 15, "moves": 15, "done": True}
    # The one analysis's answer: the same as move_results gives for the position.
    assert answer == move_results.move_results(session.position, 60.0)
    assert (answer["source"], answer["result"], answer["unknown"]) == (
        live.SOURCE_SOLVER, move_results.WIN, False)  # `make test` builds it
    assert {move: known["margin"] for move, known in answer["moves"].items()} == LATE_MARGINS
    assert answer["margin"] == 6.5 and answer["moves"]["PASS"] == {"result": "win", "margin": 3.5}


def test_a_stored_position_needs_no_work_and_says_so(make_session):
    session = make_session("last")  # the person plays Black: the empty board
    finished, answer = session.analysis_job().wait(30)
    assert finished and answer["progress"] is None
    assert (answer["source"], answer["margin"], len(answer["moves"])) == (
        live.SOURCE_TABLE, 0.5, 26)


def test_no_analysis_when_it_is_not_the_persons_turn(make_session):
    session = make_session("passer")
    session.person_moves("2,2")
    session.person_moves("PASS")
    assert session.state()["result"] is not None
    assert session.analysis_job() is None


class HeldAnalysis(object):
    """live.Analysis's face, held in its making until `released` is set, counting the
    positions it is made for; nothing proven, nothing to do."""

    def __init__(self):
        self.calls = []
        self.released = threading.Event()

    def __call__(self, position, settings, book, **options):
        self.calls.append(position.ply)
        self.released.wait(30)
        return ScriptedAnalysis(position, [], threading.Event())


class ScriptedAnalysis(object):
    """live.Analysis's face: each `step`, once `stepped` is set, proves the next of `moves`
    (a win by 1.5); `closed` is set by `close`."""

    def __init__(self, position, moves, stepped):
        self.position, self.moves, self.stepped = position, moves, stepped
        self.proven = 0
        self.closed = threading.Event()

    def complete(self):
        return self.proven == len(self.moves)

    def step(self, seconds):
        if self.complete():
            return False
        if self.stepped.wait(0.05):
            self.stepped.clear()
            self.proven += 1
        return True

    def report(self):
        moves = [live.Known(go_board.move_from_text(text), move_results.WIN if index <
                            self.proven else None, 1.5 if index < self.proven else None, 0.0,
                            0.5, 0, [], False) for index, text in enumerate(self.moves)]
        root = live.Known(None, None, None, 0.0, 0.5, 0, [], False)
        return live.Report(self.position, live.SOURCE_SOLVER, root, moves, None,
                           self.complete())

    def close(self):
        self.closed.set()


@pytest.fixture
def running(make_session):
    """`start(opponent)`: a new session served over HTTP on a free port; returns its URL."""
    servers = []

    def start(opponent):
        server = make_server(make_session(opponent), port=0)
        thread = threading.Thread(target=server.serve_forever)
        thread.start()
        servers.append((server, thread))
        return "http://{}:{}".format(*server.server_address)
    yield start
    for server, thread in servers:
        server.shutdown()
        server.server_close()
        thread.join(10)


def get(url):
    """`(HTTP status, JSON answer)` of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, json.loads(answer.read().decode())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode())


def test_the_http_api_serves_the_page_and_the_game(running):
    base = running("last")
    assert base.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(base + "/", timeout=10) as page:
        assert b"<title>Little-Go</title>" in page.read()
    request = urllib.request.Request(base + "/api/move", data=b'{"move": "1,1"}', method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        state = json.loads(answer.read().decode())
    assert (state["ply"], state["last_move"]) == (3, "4,4")
    assert get(base + "/api/games") == (200, [])
    for path in ("/board.py", "/../serve.py", "/nothing.js"):
        assert get(base + path) == (404, {"error": "not found"})


def test_the_analysis_api_answers_pending_then_the_result_once_per_position(running,
                                                                            monkeypatch):
    held = HeldAnalysis()
    monkeypatch.setattr(live, "Analysis", held)
    monkeypatch.setattr(serve, "ANALYSIS_WAIT_SECONDS", 0.05)
    base = running("passer")
    assert get(base + "/api/analysis") == (200, {"pending": True})
    assert get(base + "/api/state")[0] == 200  # the held analysis blocks no other request
    held.released.set()
    expected = {"source": None, "result": None, "margin": None, "moves": {}, "unknown": False,
                "best_try": None, "progress": None}
    monkeypatch.setattr(serve, "ANALYSIS_WAIT_SECONDS", 30)
    assert get(base + "/api/analysis") == (200, expected)
    assert get(base + "/api/analysis") == (200, expected)
    assert held.calls == [1]
    request = urllib.request.Request(base + "/api/move", data=b'{"move": "PASS"}', method="POST")
    urllib.request.urlopen(request, timeout=10).close()  # Black's pass at ply 1 ends the game
    assert get(base + "/api/analysis") == (
        409, {"error": "it is not your turn: nothing to analyse"})


def late_session(make_session):
    """A game against "last" at ply 19, LATE_BOARD, Black (the person) to move."""
    session = make_session("last")
    for move in LATE_MOVES:
        session.person_moves(move)
    return session


LATE_MARGINS = {"0,0": 4.5, "0,1": 4.5, "0,2": 4.5, "0,3": 4.5, "0,4": 4.5, "1,0": 4.5,
                "1,2": 4.5, "1,3": 4.5, "1,4": 4.5, "4,0": 4.5, "4,1": 4.5, "3,3": 6.5,
                "3,4": 6.5, "4,2": 6.5, "PASS": 3.5}


def test_the_api_reports_the_analysis_as_it_goes_and_a_move_stops_it(running, monkeypatch):
    scripted = []

    def analysis(position, settings, book, **options):
        time.sleep(0.3)  # an analysis slow to start (its table): the first answer still comes
        scripted.append(ScriptedAnalysis(position, ["0,0", "0,1", "PASS"], threading.Event()))
        return scripted[-1]
    monkeypatch.setattr(live, "Analysis", analysis)
    base = running("last")
    status, answer = get(base + "/api/analysis")
    assert status == 200 and answer["moves"] == {}
    progress = answer["progress"]
    assert (progress["solved"], progress["moves"], progress["done"]) == (0, 3, False)
    scripted[0].stepped.set()
    deadline = time.monotonic() + 10
    while get(base + "/api/analysis")[1]["progress"]["solved"] < 1:
        assert time.monotonic() < deadline
    answer = get(base + "/api/analysis")[1]
    assert answer["moves"] == {"0,0": {"result": move_results.WIN, "margin": 1.5}}
    assert (answer["progress"]["solved"], answer["progress"]["done"]) == (1, False)
    request = urllib.request.Request(base + "/api/move", data=b'{"move": "2,2"}', method="POST")
    urllib.request.urlopen(request, timeout=10).close()  # a new position: the old work stops
    assert scripted[0].closed.wait(10)
    answer = get(base + "/api/analysis")[1]
    assert answer["progress"]["solved"] == 0 and len(scripted) == 2  # the new position's
    scripted[1].stepped.set()


def saved_game(runs_dir, moves):
    """An SGF of `moves` under `runs_dir`, as the board saves its games; its path under it."""
    os.makedirs(runs_dir, exist_ok=True)
    record = {"black": "a", "white": "b", "winner": rules.WHITE, "reason": judge.END_SCORE,
              "detail": "x", "moves": moves, "black_stones": 0, "white_stones": 0}
    with open(os.path.join(runs_dir, "game.sgf"), "w", encoding="utf-8") as handle:
        handle.write(game_to_sgf(record))
    return "game.sgf"


def test_the_review_api_gives_each_replayed_moves_values(running, make_session, tmp_path):
    base = running("passer")
    name = saved_game(str(tmp_path / "runs"), ["0,0"])  # a corner: the win thrown away
    deadline = time.monotonic() + 60
    status, answer = get(base + "/api/review?sgf=" + name)
    while answer.get("pending"):
        assert set(answer["progress"]) == {"reviewed", "positions", "seconds"}
        assert time.monotonic() < deadline
        time.sleep(0.05)
        status, answer = get(base + "/api/review?sgf=" + name)
    row = {"ply": 1, "colour": "Black", "move": "0,0",
           "before": {"result": move_results.WIN, "margin": 0.5},
           "after": {"result": move_results.LOSS, "margin": -5.5}, "given_away": 6.0,
           "source": live.SOURCE_TABLE}
    assert (status, answer) == (200, {"moves": [row], "first_lost_win": row})
    assert get(base + "/api/review?sgf=../../etc/passwd.sgf") == (
        404, {"error": "cannot review: no saved game '../../etc/passwd.sgf'"})


def broken_analysis(position, settings, book, **options):
    raise ZeroDivisionError("a bug")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_failed_analysis_is_an_error_not_a_wait(running, monkeypatch):
    monkeypatch.setattr(live, "Analysis", broken_analysis)
    assert get(running("passer") + "/api/analysis") == (500, {"error": "the analysis failed"})


def test_host_py_serve_plays_the_agent_by_default_on_localhost(tmp_path):
    server = subprocess.Popen([sys.executable, HOST, "serve", "--port", "0", "--colour", "2",
                               "--runs", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, env=dict(os.environ, LITTLEGO_SEED="1"))
    try:
        ready, _, _ = select.select([server.stdout], [], [], 30)
        assert ready, "no announcement within 30 s"
        words = server.stdout.readline().split()
        url = words[words.index("at") + 1]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "api/state", timeout=10) as answer:
            state = json.loads(answer.read().decode())
    finally:
        server.terminate()
        server.wait(10)
        server.stdout.close()
        server.stderr.close()
    # The agent is Black and opened by its centre rule; its decision record came from its log.
    assert state["names"] == {"1": AGENT_NAME, "2": "you"}
    assert (state["ply"], state["last_move"]) == (2, "2,2")
    assert (state["decision"]["source"], state["decision"]["move"]) == ("centre rule", "2,2")


def test_the_empty_board_is_ply_1():
    view = serve.describe_positions([])[0]
    assert (view["ply"], view["max_ply"], view["over"]) == (1, 24, False)
