"""The GTP engine (littlego/gtp/engine.py, `littlego gtp`): exact transcripts, then real games.

The transcripts run the engine in-process on seeded settings; every answer is compared exactly.
The games run it as a `gtp:` player under our referee, which judges every move independently,
against the per-move agent and against GNU Go.
"""

import io
import itertools
import json
import os
import random
import select
import shutil
import subprocess
import sys
import time

import pytest
from test_agent import HOPELESS, HOPELESS_BEFORE

import agent
import agent_settings
import decision_log
import endgame
import go_board
import littlego
import opening_book
from littlego.analysis import live
from littlego.bench.positions import position_before_end
from littlego.gtp import engine as gtp_engine
from littlego.gtp import sgf_game
from littlego.referee import judge
from littlego.referee.match import run_match
from littlego.referee.protocol import END_RESIGN

from referee_support import LAST_PLY, LAST_PLY_BEFORE, REPO_ROOT

PLAYER = os.path.join(REPO_ROOT, "my_player.py")
ENGINE = (sys.executable,) + gtp_engine.COMMAND_WORDS
ENGINE_SPEC = "gtp:" + " ".join(ENGINE)
SMALL_BUDGET = {"LITTLEGO_WORKERS": "1", "LITTLEGO_MOVE_CPU": "0.3", "LITTLEGO_SEED": "7"}
GNUGO = shutil.which("gnugo", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")



def new_engine(environ=SMALL_BUDGET, book=None):
    """A GtpEngine on the settings of `environ`, with `book` (default: the one they select)."""
    settings = agent_settings.Settings(environ)
    return gtp_engine.GtpEngine(settings, agent.read_book(settings) if book is None else book)

def converse(commands, engine=None):
    """The engine's whole output for `commands`, one per line."""
    engine = engine or new_engine()
    out = io.StringIO()
    gtp_engine.serve(engine, io.StringIO("".join(line + "\n" for line in commands)), out)
    return out.getvalue()


def test_the_administrative_commands():
    assert converse(["protocol_version", "7 name", "version", "known_command genmove",
                     "known_command kgs-genmove_cleanup", "boardsize 19", "boardsize 5",
                     "komi 6.5", "komi 2.5", "komi x", "  # a comment line", "",
                     "list_commands", "quit", "name"]) == (
        "= 2\n\n"
        "=7 Little-Go\n\n"
        "= " + littlego.__version__ + "\n\n"
        "= true\n\n"
        "= false\n\n"
        "? unacceptable size\n\n"
        "=\n\n"
        "? Little-Go is played with komi 2.5\n\n"
        "=\n\n"
        "? syntax error\n\n"
        "= boardsize\nclear_board\nfinal_score\nfinal_status_list\ngenmove\nkata-analyze\n"
        "kgs-time_settings\n"
        "known_command\nkomi\nlist_commands\nlittlego-decision\nloadsgf\nlz-analyze\nname\n"
        "play\nprintsgf\nprotocol_version\nquit\nshowboard\ntime_left\ntime_settings\nundo\n"
        "version\n\n"
        "=\n\n")  # nothing after quit is read


# A ko fight, then refusals, then two passes end the game (vertices: column letter, row from 1
# at the bottom, so B5 is the course's 0,1).
KO_GAME = ["play b B5", "play w B4", "play b A4", "play w C5", "play b B3", "play w D4",
           "play b E1", "play w C3", "play b C4"]


# showboard after KO_GAME: Black has taken at C4; White may not retake at B4 at once.
BOARD_AFTER_THE_TAKE = (
    "   A B C D E\n"
    " 5 . X O . . 5\n"
    " 4 X . X O . 4\n"
    " 3 . X O . . 3\n"
    " 2 . . . . . 2\n"
    " 1 . . . . X 1\n"
    "   A B C D E\n")


def test_a_game_with_a_capture_ko_suicide_passes_and_the_score():
    answers = converse(["clear_board"] + KO_GAME + [
        "showboard",
        "play w B4",      # retaking the ko at once
        "play w A5",      # suicide
        "play w C4",      # occupied
        "play w F1",      # off the board
        "play white",     # malformed
        "frobnicate",     # unknown
        "play w pass", "play b pass",
        "play w D1",      # the two passes ended the game: not played
        "genmove b",      # a pass, whoever is asked
        "final_score", "showboard",
        "undo", "undo",   # the two moves after the end
        "undo", "final_score", "play b A1", "final_score",
    ]).split("\n\n")
    assert answers[:10] == ["="] * 10
    assert answers[10:] == [
        "= \n" + BOARD_AFTER_THE_TAKE
        + "ply 10 of 24, White to move; captured by Black 1, by White 0; score W+0.5",
        "? illegal move: ko: the board would repeat the previous board",
        "? illegal move: suicide",
        "? illegal move: point is occupied",
        "? illegal move: F1 is not a point of the 5x5 board",
        "? syntax error",
        "? unknown command",
        "=", "=",
        "=",
        "= pass",
        "= W+0.5",
        "= \n" + BOARD_AFTER_THE_TAKE
        + "game over after ply 11 (2 moves after the end not played); captured by Black 1, by"
        " White 0; score W+0.5",
        "=", "=", "=", "= W+0.5", "=", "= B+0.5", ""]


def test_genmove_plays_the_book_and_tells_its_decision():
    answers = converse(["genmove b", "littlego-decision", "play w A5", "genmove b",
                        "littlego-decision", "play w E1", "littlego-decision"]).split("\n\n")
    assert answers[0] == "= C3"  # the centre rule's 2,2
    decision = json.loads(answers[1][2:])
    assert {key: decision[key] for key in ("agent", "colour", "move", "ply", "source")} == {
        "agent": "my_player", "colour": "Black", "move": "2,2", "ply": 1,
        "source": decision_log.SOURCE_CENTRE_RULE}
    assert answers[2] == "="
    after_corner = go_board.Position().play(go_board.from_coord(2, 2)).play(
        go_board.from_coord(0, 0))
    book_answer = opening_book.read().lookup(after_corner)
    assert book_answer not in (None, go_board.from_coord(4, 4))
    assert answers[3] == "= " + gtp_engine.vertex_text(book_answer)
    assert json.loads(answers[4][2:])["source"] == "book"
    assert answers[5:] == ["=", "= {}", ""]  # a played move has no decision of the agent


def test_genmove_in_the_endgame_is_exact_and_keeps_the_solver_table():
    engine = new_engine()
    engine.position = go_board.Position.from_text(LAST_PLY, go_board.WHITE, go_board.MAX_PLY,
                                                  previous=LAST_PLY_BEFORE)
    answers = converse(["genmove w", "littlego-decision", "final_score", "genmove b"],
                       engine).split("\n\n")
    assert answers[0] == "= C5"
    decision = json.loads(answers[1][2:])
    assert (decision["move"], decision["source"]) == ("0,2", "exact")
    # 9 white stones + 2.5 komi against 11 black ones after the capture.
    proof_cpu = decision["details"].pop("proof_cpu")
    assert decision["details"] == {"proven": "win", "margin": 0.5} and 0 <= proof_cpu < 1
    assert answers[2:] == ["= W+0.5", "= pass", ""]  # the game is over after ply 24


def test_the_solver_table_lasts_until_a_new_game():
    engine = new_engine()
    # Five plies left: the exact search keeps proofs from three plies left up (the last two are
    # answered without the table).
    engine.position = go_board.Position.from_text(
        LAST_PLY, go_board.WHITE, go_board.MAX_PLY - 4, previous=LAST_PLY_BEFORE)
    table = engine.solver_table
    converse(["genmove w"], engine)
    assert engine.solver_table is table and table  # the search filled the kept table
    converse(["clear_board"], engine)
    assert engine.solver_table == {}


def test_an_oversized_solver_table_is_emptied_before_the_move(monkeypatch):
    monkeypatch.setattr(gtp_engine, "MAX_KEPT_SOLVER_ENTRIES", 2)
    engine = new_engine()
    engine.solver_table.update({"stale": 1, "old": 2, "entries": 3})
    assert converse(["genmove b"], engine) == "= C3\n\n"
    assert engine.solver_table == {}  # the book answered, so nothing new went in


def test_the_entry_point_speaks_gtp_and_logs_json_decisions():
    env = dict(os.environ, **SMALL_BUDGET)
    done = subprocess.run(list(ENGINE),
                          input="boardsize 5\ngenmove b\nshowboard\nquit\n", env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n\n")[:2] == ["=", "= C3"]
    assert done.stdout.endswith("=\n\n")
    [decision] = decision_log.read_decisions(done.stderr)
    assert (decision["move"], decision["source"]) == ("2,2", decision_log.SOURCE_CENTRE_RULE)


# ---- games under our referee ----------------------------------------------------------------

def play_one_game(monkeypatch, opponent):
    for key, value in SMALL_BUDGET.items():
        monkeypatch.setenv(key, value)
    [record] = run_match(ENGINE_SPEC, opponent, games=1, limit_cpu=10.0, limit_wall=30.0).records
    return record


def assert_a_whole_game(record):
    """Every move passed the referee and replays legally; a game ended on the score is over
    under go_board's rules too, with the same winner."""
    assert record["reason"] in (judge.END_SCORE, END_RESIGN), record
    assert len(record["moves"]) >= 2
    position = go_board.Position()
    for text in record["moves"]:
        move = go_board.PASS if text == "PASS" else go_board.from_coord(*map(int, text.split(",")))
        position = position.play(move)
    if record["reason"] == judge.END_SCORE:
        assert position.is_over and record["winner"] == position.winner()


@pytest.mark.slow
def test_the_engine_plays_the_per_move_agent_under_our_referee(monkeypatch):
    assert_a_whole_game(play_one_game(monkeypatch, "cmd:{} {}".format(sys.executable, PLAYER)))


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (make gnugo)")
def test_the_engine_plays_gnu_go_under_our_referee(monkeypatch):
    record = play_one_game(monkeypatch, "gtp:{} --mode gtp --level 1".format(GNUGO))
    assert_a_whole_game(record)  # GNU Go may resign a lost game
    assert record["moves"][0] == "2,2"  # the engine is Black in game 1 and opens from the book


# ---- lz-analyze -----------------------------------------------------------------------------

LINE_TIMEOUT = 60.0  # seconds a line of the engine may take on a loaded machine before we fail
INFO_FIELDS = ("move", "visits", "winrate", "prior", "order", "pv")


def parse_info_line(line):
    """The `info` blocks of one lz-analyze line as dicts, failing on anything out of format."""
    blocks = []
    for text in line.split("info ")[1:]:
        words = text.split()
        pv_at = words.index("pv")
        fields = dict(zip(words[:pv_at:2], words[1:pv_at:2]))
        assert tuple(words[:pv_at:2]) + ("pv",) == INFO_FIELDS, line
        blocks.append({"move": gtp_engine.parse_vertex(fields["move"]),
                       "visits": int(fields["visits"]), "winrate": int(fields["winrate"]),
                       "prior": int(fields["prior"]), "order": int(fields["order"]),
                       "pv": [gtp_engine.parse_vertex(word) for word in words[pv_at + 1:]]})
    return blocks


class EngineLines(object):
    """The engine's stdout a line at a time, each within LINE_TIMEOUT. It reads the file
    descriptor itself: select on a buffered stream misses lines already in its buffer."""

    def __init__(self, process):
        self.fd = process.stdout.fileno()
        self.buffer = b""

    def read_line(self):
        while b"\n" not in self.buffer:
            assert select.select([self.fd], [], [], LINE_TIMEOUT)[0], "the engine fell silent"
            chunk = os.read(self.fd, 4096)
            assert chunk, "the engine closed its output"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode() + "\n"


def test_lz_analyze_streams_info_lines_until_the_next_command():
    env = dict(os.environ, **SMALL_BUDGET)
    process = subprocess.Popen(list(ENGINE), env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, universal_newlines=True, bufsize=1)
    engine = EngineLines(process)
    try:
        process.stdin.write("lz-analyze 10\n")
        process.stdin.flush()
        assert engine.read_line() == "=\n"
        lines = [engine.read_line() for _ in range(3)]
        process.stdin.write("name\n")
        process.stdin.flush()
        rest = []
        while not rest or rest[-1] != "= Little-Go\n":
            rest.append(engine.read_line())
    finally:
        process.stdin.close()
        process.wait(LINE_TIMEOUT)
    # Lines already on their way may come before the empty line that ends the stream.
    assert rest[-2:] == ["\n", "= Little-Go\n"]
    lines += rest[:-2]
    legal = go_board.Position().legal_moves()
    for line in lines:
        assert line.endswith("\n") and line.startswith("info move ")
        blocks = parse_info_line(line)
        assert [block["order"] for block in blocks] == list(range(len(blocks)))
        assert len({block["move"] for block in blocks}) == len(blocks)
        for block in blocks:
            assert block["move"] in legal and block["pv"][0] == block["move"]
            assert block["visits"] >= 0 and 0 <= block["winrate"] <= 10000
            assert block["prior"] == 10000 // len(legal)
            assert all(move == go_board.PASS or 0 <= move < go_board.NUM_POINTS
                       for move in block["pv"])
        # The book's first move is a known win, listed first at 100%.
        assert (blocks[0]["move"], blocks[0]["winrate"]) == (go_board.from_coord(2, 2), 10000)
    assert sum(block["visits"] for block in parse_info_line(lines[-1])) > 0


# Every argument form of KataGo's GTP extensions document: colour, interval as a number or a
# key, minmoves, maxmoves; avoid and allow refused in one line.
ANALYZE_FORMS = [
    ("lz-analyze", "="), ("lz-analyze 10", "="), ("lz-analyze w 10", "="),
    ("lz-analyze B 50", "="), ("lz-analyze interval 50", "="), ("lz-analyze b interval 5", "="),
    ("lz-analyze 20 minmoves 10", "="), ("lz-analyze white interval 10 maxmoves 3", "="),
    ("lz-analyze interval 10 minmoves 5 maxmoves 8", "="),
    ("lz-analyze b 10 avoid b C3,D4 1", "? lz-analyze: avoid is not supported: every legal move "
                                        "is analysed"),
    ("lz-analyze allow w C3 2", "? lz-analyze: allow is not supported: every legal move is "
                                "analysed"),
    ("lz-analyze x", "? syntax error"), ("lz-analyze 0", "? syntax error"),
    ("lz-analyze interval", "? syntax error"), ("lz-analyze minmoves -1", "? syntax error"),
    ("lz-analyze maxmoves 0", "? syntax error"), ("lz-analyze 10 ownership true", "? syntax error"),
]


@pytest.mark.parametrize("command, answer", ANALYZE_FORMS)
def test_lz_analyze_argument_forms(command, answer):
    # In-process the next command is always waiting, so the stream ends before its first line.
    assert converse([command, "7 name"]) == answer + "\n\n=7 Little-Go\n\n"


def test_lz_analyze_lists_every_move_best_first_up_to_maxmoves():
    request = gtp_engine.AnalyzeRequest(["interval", "10", "minmoves", "7", "maxmoves", "4"])
    assert (request.interval, request.minmoves, request.maxmoves) == (0.1, 7, 4)
    position = go_board.Position()
    moves = [live.Known(12, live.WIN, None, 0.5, 1.0, 1000090, [12, 7], False),
             live.Known(7, None, None, -1.5, 0.25, 30, [7], False),
             live.Known(0, None, None, -1.5, 0.2, 5, [0, 12], False),
             live.Known(1, None, None, -1.5, 0.5, 0, [1], False),
             live.Known(2, None, None, -1.5, 0.5, 0, [2], False)]
    root = live.Known(None, live.WIN, None, 0.5, 1.0, 1000125, [12, 7], False)
    report = live.Report(position, live.SOURCE_BOOK, root, moves, None, False)
    listed = parse_info_line(gtp_engine.info_text(report))
    assert [(block["move"], block["visits"], block["winrate"]) for block in listed] == [
        (12, 1000090, 10000), (7, 30, 2500), (0, 5, 2000), (1, 0, 5000), (2, 0, 5000)]
    assert [block["order"] for block in listed] == [0, 1, 2, 3, 4]
    assert {block["prior"] for block in listed} == {10000 // 5}
    cut = parse_info_line(gtp_engine.info_text(report, request.maxmoves))
    assert [block["move"] for block in cut] == [12, 7, 0, 1]


def test_lz_analyze_for_the_colour_named():
    # White to analyse on the empty board: the book's White tries do not apply there, the
    # search does; Black's analysis names the centre a proven win.
    engine = new_engine()
    _, _, stream = engine.handle("lz-analyze w 10")
    assert stream.analysis.position.to_move == go_board.WHITE
    _, _, stream = engine.handle("lz-analyze b 10")
    assert stream.analysis.position.to_move == go_board.BLACK
    assert engine.position == go_board.Position()  # the game itself is untouched


def analysis_lines(engine, count):
    """The first `count` lines lz-analyze streams on `engine`'s position while no command
    comes."""
    _, _, stream = engine.handle("lz-analyze 10")
    return list(itertools.islice(stream.lines(lambda seconds: time.sleep(seconds) or False),
                                 count))


def assert_lost(lines, position):
    """Every line parses as before; every move is a proven loss (0)."""
    legal = position.legal_moves()
    for line in lines:
        blocks = parse_info_line(line)
        assert [block["order"] for block in blocks] == list(range(len(blocks)))
        assert {block["move"] for block in blocks} == set(legal)
        assert {block["winrate"] for block in blocks} == {0}
        assert {block["prior"] for block in blocks} == {10000 // len(legal)}


def test_lz_analyze_names_the_books_try_in_a_lost_position(tmp_path, capsys):
    # White to move at ply 4 after C3 C4 B3 (lost for White: the stored value table proves every
    # move lost), which a book written here answers with the try D3 (2,3), leaving Black 2
    # winning replies of its 22 legal moves.
    position = go_board.Position()
    for point in ((2, 2), (1, 2), (2, 1)):
        position = position.play(go_board.from_coord(*point))
    path = str(tmp_path / "book.txt")
    key, stored = opening_book.record(position, go_board.from_coord(2, 3))
    opening_book.write(path, {}, {}, tries={key: (stored, 2)})
    engine = new_engine(book=opening_book.read(path))
    assert converse(["play b C3", "play w C4", "play b B3", "lz-analyze 10", "name"],
                    engine) == "=\n\n=\n\n=\n\n=\n\n= Little-Go\n\n"
    note = "my_player: lz-analyze, ply 4, White to move: lost: Black must find 2 of 22 moves " \
           "(best try D3)\n"
    assert capsys.readouterr().err == note  # from the book: said before any line is due
    lines = analysis_lines(engine, 2)
    assert_lost(lines, position)
    assert capsys.readouterr().err == note  # once for this lz-analyze too


def test_lz_analyze_counts_the_exact_searchs_best_try_in_a_lost_endgame(capsys):
    # Black to move at ply 23, every move lost: the try (3,4), E2, leaves White 7 winning
    # replies of 7 (tests/test_agent.py).
    engine = new_engine()
    engine.position = go_board.Position.from_text(HOPELESS, go_board.BLACK, 23,
                                                  previous=HOPELESS_BEFORE)
    lines = analysis_lines(engine, 3)
    assert capsys.readouterr().err == (
        "my_player: lz-analyze, ply 23, Black to move: lost: White must find 7 of 7 moves "
        "(best try E2)\n")
    # The proofs and the count take a few slices; by the last line both are in.
    assert_lost(lines[-1:], engine.position)


def test_no_try_is_named_where_a_move_wins(capsys):
    engine = new_engine()
    engine.position = go_board.Position.from_text(LAST_PLY, go_board.WHITE, go_board.MAX_PLY,
                                                  previous=LAST_PLY_BEFORE)
    [line] = analysis_lines(engine, 1)
    assert parse_info_line(line)[0]["winrate"] == 10000
    assert capsys.readouterr().err == ""


def test_genmove_in_a_lost_endgame_logs_the_try_and_its_summary(capsys):
    # genmove's decision record (on stderr and through littlego-decision) already says it.
    engine = new_engine()
    engine.position = go_board.Position.from_text(HOPELESS, go_board.BLACK, 23,
                                                  previous=HOPELESS_BEFORE)
    answers = converse(["genmove b", "littlego-decision"], engine).split("\n\n")
    assert answers[0] == "= E2"
    [logged] = decision_log.read_decisions(capsys.readouterr().err)
    assert logged == json.loads(answers[1][2:])
    assert logged["details"]["summary"] == "lost: White must find 7 of 7 moves"


def test_showboard_counts_the_ply_about_to_be_played_from_1():
    assert converse(["showboard"]).endswith(
        "ply 1 of 24, Black to move; captured by Black 0, by White 0; score W+2.5\n\n")


# ---- GUIs and GNU Go ------------------------------------------------------------------------

SESSIONS = os.path.join(REPO_ROOT, "tests", "fixtures", "gtp_sessions")


def read_session(path):
    """`(commands, expected answers)` of a recorded session (tests/fixtures/gtp_sessions):
    `{fixtures}` is their folder, `{version}` the package's version."""
    commands, expected = [], []
    with open(path) as handle:
        for line in handle.read().format(fixtures=SESSIONS, version=littlego.__version__).splitlines():
            if line.startswith("#"):
                continue
            if line.startswith(">"):
                commands.append(line[2:])
                expected.append(None if not line[2:] else [])
            else:
                expected[-1].append(line)
    return commands, [answer if answer is None else "\n".join(answer) for answer in expected]


def answer_matches(answer, expected):
    if expected in ("=*", "?*"):
        return answer[:1] == expected[0]
    return answer == expected


@pytest.mark.parametrize("name", sorted(name for name in os.listdir(SESSIONS)
                                        if name.endswith(".gtp")))
def test_a_gui_session(name):
    commands, expected = read_session(os.path.join(SESSIONS, name))
    answers = converse(commands).split("\n\n")[:-1]
    expected = [answer for answer in expected if answer is not None]  # bare newlines
    assert len(answers) == len(expected)
    for command, answer, wanted in zip([c for c in commands if c], answers, expected):
        assert answer_matches(answer, wanted), (command, answer, wanted)


def test_out_of_turn_plays_set_up_a_position_and_undo_takes_them_back():
    answers = converse(["play b C3", "play b B2", "play w D4", "showboard", "undo", "undo",
                        "showboard", "final_status_list alive", "printsgf"]).split("\n\n")
    assert answers[:3] == ["="] * 3
    assert answers[3].endswith(
        " 4 . . . O . 4\n 3 . . X . . 3\n 2 . X . . . 2\n 1 . . . . . 1\n   A B C D E\n"
        "ply 4 of 24, Black to move; captured by Black 0, by White 0; score W+1.5")
    assert answers[4:6] == ["=", "="]
    assert answers[6].endswith("ply 2 of 24, Black to move; captured by Black 0, by White 0; "
                               "score W+1.5")  # Black's second stone taken back
    assert answers[7] == "= C3"
    assert answers[8].endswith("RU[Little-Go];B[cc])")


def test_genmove_for_the_colour_not_to_move():
    engine = new_engine()
    answers = converse(["play b C3", "genmove b", "littlego-decision", "genmove w"],
                       engine).split("\n\n")
    decision = json.loads(answers[2][2:])
    assert (decision["colour"], decision["ply"]) == ("Black", 2)
    assert [ply.before.to_move for ply in engine.plies] == [go_board.BLACK] * 2 + [
        go_board.WHITE]
    assert answers[1] == "= " + gtp_engine.vertex_text(engine.plies[1].move)


def decision_budget(commands, settings=SMALL_BUDGET):
    engine = new_engine(dict(settings, LITTLEGO_BOOK="0"))
    answers = converse(commands + ["genmove b", "littlego-decision"], engine).split("\n\n")
    assert answers[:-3] == ["="] * len(commands)
    return json.loads(answers[-2][2:])["budget"]


def test_the_clock_caps_the_budget_and_never_raises_it():
    free = decision_budget([])
    settings = agent_settings.Settings(SMALL_BUDGET)
    assert free == round(agent.move_budget(1, 0.0, settings, agent.read_book(settings)), 3)
    assert decision_budget(["time_settings 0 60 1"]) == free  # a minute a move: no more
    # 1 s a move by the clock: 0.7 s, above the budget; 0.4 s left: 0.22 s.
    assert decision_budget(["time_settings 0 1 1"]) == free
    assert decision_budget(["time_settings 0 1 1", "time_left b 0.4 1"]) == pytest.approx(0.22)
    assert decision_budget(["kgs-time_settings absolute 3"]) == pytest.approx(0.1)
    assert decision_budget(["kgs-time_settings absolute 3", "kgs-time_settings none"]) == free


def test_clock_commands_refuse_what_is_not_a_time_control():
    assert converse(["time_settings 1 2", "time_left x 1 0", "time_left b", "time_left",
                     "kgs-time_settings fischer 1 2", "time_left w 10 0"]) == (
        "? syntax error\n\n? syntax error: 'x' is not a colour\n\n? syntax error\n\n"
        "? syntax error\n\n? syntax error\n\n=\n\n")


def test_loadsgf_and_printsgf_through_files(tmp_path):
    saved = str(tmp_path / "saved.sgf")
    engine = new_engine()
    assert converse(["play b C3", "play w C4", "play b pass", "printsgf " + saved,
                     "clear_board", "loadsgf " + saved, "showboard"], engine).split(
        "\n\n")[3:6] == ["=", "=", "="]
    assert [ply.move for ply in engine.plies] == [go_board.from_coord(2, 2),
                                                 go_board.from_coord(1, 2), go_board.PASS]
    with open(saved) as handle:
        assert handle.read().endswith("RU[Little-Go];B[cc];W[cc];B[])\n".replace(
            "W[cc]", "W[cb]"))
    before = engine.position
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[5];B[cc];W[cc])")
    assert converse(["loadsgf " + str(bad), "loadsgf " + str(tmp_path / "none.sgf"),
                     "loadsgf", "loadsgf {} x".format(saved), "printsgf a b",
                     "printsgf " + str(tmp_path / "no" / "dir.sgf")], engine).split("\n\n")[:6] == [
        "? cannot load file: move 2, C3: point is occupied",
        "? cannot load file: [Errno 2] No such file or directory: '{}'".format(
            tmp_path / "none.sgf"),
        "? syntax error", "? syntax error", "? syntax error",
        "? cannot save file: [Errno 2] No such file or directory: '{}'".format(
            tmp_path / "no" / "dir.sgf")]
    assert engine.position == before  # a file that cannot be loaded changes nothing


def test_final_status_list_every_stone_alive_one_chain_a_line():
    assert converse(["play b C3", "play w D4", "play b C2", "play w E4", "play b A1",
                     "final_status_list alive", "final_status_list dead",
                     "final_status_list SEKI", "final_status_list"]).split("\n\n")[5:9] == [
        "= C3 C2\nA1\nD4 E4", "=", "=", "? syntax error"]


def gnugo_answers(commands):
    """GNU Go's answers to `commands` on a 5x5 board, komi 2.5, without their blank lines."""
    done = subprocess.run([GNUGO, "--mode", "gtp", "--boardsize", "5", "--komi", "2.5"],
                          input="".join(command + "\n" for command in commands + ["quit"]),
                          stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
    return [answer.rstrip(" ") for answer in done.stdout.split("\n\n")[:len(commands)]]


def gnugo_stones(commands):
    """GNU Go's black and white stones after `commands`, as sets of points."""
    answers = gnugo_answers(commands + ["list_stones black", "list_stones white"])
    return tuple({parse_vertex_or_none(word) for word in answer[2:].split()} - {None}
                 for answer in answers[-2:])


def parse_vertex_or_none(word):
    return gtp_engine.parse_vertex(word) if word else None


def our_stones(engine):
    return (set(go_board.points_of(engine.position.black)),
            set(go_board.points_of(engine.position.white)))


def stones(black, white):
    """Black's and White's stones as sets of points, from GTP vertices."""
    return tuple({gtp_engine.parse_vertex(word) for word in words.split()}
                 for words in (black, white))


# Commands whose answers GNU Go and we give alike: out-of-turn plays, clock commands, undo,
# final_status_list on stones GNU Go calls alive, and the failures.
SAME_AS_GNU_GO = ["boardsize 5", "clear_board", "komi 2.5", "play b C3", "play b B2",
                  "play w D4", "play w D3", "undo", "undo", "time_settings 60 10 5",
                  "time_left b 30 0", "time_left w 20 2", "final_status_list alive",
                  "final_status_list seki", "final_status_list undead", "play b C3",
                  "loadsgf /nonexistent/game.sgf", "undo", "undo", "undo", "play w C3"]


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (make gnugo)")
def test_answers_as_gnu_gos():
    ours = converse(SAME_AS_GNU_GO).split("\n\n")[:-1]
    theirs = gnugo_answers(SAME_AS_GNU_GO)
    # Success or failure, command by command: an unknown status, a play on a stone, a missing
    # file and an undo too many fail.
    expected = list("==============???==?=")
    assert [answer[:1] for answer in ours] == [answer[:1] for answer in theirs] == expected
    alive = SAME_AS_GNU_GO.index("final_status_list alive")
    assert sorted(ours[alive][2:].split("\n")) == sorted(theirs[alive][2:].split("\n")) == [
        "B2", "C3"]


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (make gnugo)")
def test_sgf_files_go_both_ways_with_gnu_go(tmp_path):
    # A game with a capture and an out-of-turn play, written by us, loaded by GNU Go.
    ours_file, theirs_file = str(tmp_path / "ours.sgf"), str(tmp_path / "theirs.sgf")
    moves = ["play b B5", "play w A5", "play b A4", "play b E1", "play w D1", "play b pass"]
    engine = new_engine()
    assert converse(moves + ["printsgf " + ours_file], engine) == "=\n\n" * (len(moves) + 1)
    # Black's A4 took White's A5; Black passed last.
    assert gnugo_stones(["loadsgf " + ours_file]) == our_stones(engine) == stones(
        "B5 A4 E1", "D1")
    # Written by GNU Go (its out-of-turn plays become setup stones), loaded by us, whole and
    # up to a move (the position before move 2: Black's B5 alone).
    gnugo_answers(["boardsize 5", "clear_board"] + moves + ["play w B4", "printsgf " +
                                                            theirs_file])
    assert converse(["loadsgf " + theirs_file], engine) == "=\n\n"
    assert our_stones(engine) == gnugo_stones(["loadsgf " + theirs_file]) == stones(
        "B5 A4 E1", "D1 B4")
    assert converse(["loadsgf {} 2".format(ours_file)], engine) == "=\n\n"
    assert our_stones(engine) == gnugo_stones(["loadsgf {} 2".format(ours_file)]) == stones(
        "B5", "")


# ---- an analysis stops at once, also on a busy machine --------------------------------------

STOP_TARGET = 0.1  # seconds from the next command to the blank line that ends the stream
STOP_TRIALS = 5
BURNER = "import time\nend = time.time() + 120\nwhile time.time() < end:\n    pass\n"


def seeded_game_file(path, plies, seed):
    """An SGF file of `plies` random legal placements from the empty board."""
    rng, position, moves = random.Random(seed), go_board.Position(), []
    for _ in range(plies):
        move = rng.choice(position.legal_placements())
        moves.append((position.to_move, move))
        position = position.play(move)
    with open(path, "w") as handle:
        handle.write(sgf_game.write_game(go_board.Position(), moves, "test"))


def stop_delays(process, lines, setup):
    """The seconds from `name` to the end of an lz-analyze stream, STOP_TRIALS times."""
    for command in setup:
        process.stdin.write(command + "\n")
        process.stdin.flush()
        assert lines.read_line() == "=\n" and lines.read_line() == "\n"
    delays = []
    for _ in range(STOP_TRIALS):
        process.stdin.write("lz-analyze b interval 5\n")
        process.stdin.flush()
        assert lines.read_line() == "=\n"
        time.sleep(0.5)  # the analysis under way (a proof may take long before its first line)
        started = time.monotonic()
        process.stdin.write("name\n")
        process.stdin.flush()
        while lines.read_line() != "\n":
            pass
        delays.append(time.monotonic() - started)
        assert lines.read_line() == "= Little-Go\n"
        assert lines.read_line() == "\n"
    return delays


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["search", "exact"])
def test_an_analysis_ends_within_a_tenth_of_a_second_on_a_busy_machine(phase, tmp_path):
    setup = []
    if phase == "exact":  # 14 plies left: the exact solver's proofs, slice by slice
        path = str(tmp_path / "late.sgf")
        seeded_game_file(path, go_board.MAX_PLY - 14, seed=5)
        setup = ["loadsgf " + path]
    burners = [subprocess.Popen([sys.executable, "-c", BURNER])
               for _ in range(os.cpu_count() or 1)]
    env = dict(os.environ, **SMALL_BUDGET)
    process = subprocess.Popen([sys.executable] + list(gtp_engine.COMMAND_WORDS), env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, universal_newlines=True, bufsize=1)
    try:
        delays = stop_delays(process, EngineLines(process), setup)
    finally:
        for burner in burners:
            burner.kill()
        process.stdin.close()
        process.wait(LINE_TIMEOUT)
    print("lz-analyze ({}) ended {} s after the next command, {} CPU burners".format(
        phase, " ".join("{:.3f}".format(delay) for delay in delays), len(burners)))
    assert sorted(delays)[STOP_TRIALS // 2] < STOP_TARGET, delays


def test_each_game_searches_on_its_own_seed_and_the_settings_stay_as_read():
    seed = int(SMALL_BUDGET["LITTLEGO_SEED"])
    engine = new_engine()
    assert engine.game_settings.seed == seed
    converse(["clear_board", "boardsize 5"], engine)
    assert engine.settings.seed == seed  # read once at start-up, never changed
    assert engine.game_settings.seed == seed + 2 * gtp_engine.GAME_SEED_STRIDE


# ---- kata-analyze ---------------------------------------------------------------------------

KATA_FIELDS = ("move", "visits", "winrate", "scoreMean", "scoreStdev", "scoreLead", "prior",
               "order", "pv")


def parse_kata_line(line):
    """The `info` blocks of one kata-analyze line as dicts of their words, failing on anything
    out of format."""
    blocks = []
    for text in line.split("info ")[1:]:
        words = text.split()
        pv_at = words.index("pv")
        assert tuple(words[:pv_at:2]) + ("pv",) == KATA_FIELDS, line
        blocks.append(dict(zip(words[:pv_at:2], words[1:pv_at:2]), pv=words[pv_at + 1:]))
    return blocks


def settled_kata_line(engine, settled):
    """The first kata-analyze line on `engine`'s position whose blocks are `settled` (a test
    of parse_kata_line's blocks), within LINE_TIMEOUT seconds of wall time, while no command
    comes."""
    _, _, stream = engine.handle("kata-analyze 10")
    deadline = time.monotonic() + LINE_TIMEOUT
    for line in stream.lines(lambda seconds: time.sleep(seconds) or False):
        blocks = parse_kata_line(line)
        if settled(blocks):
            return line
        assert time.monotonic() < deadline, line


def all_exact(blocks):
    return {block["scoreStdev"] for block in blocks} == {"0"}


def exact_scores(position):
    """`{GTP vertex: the mover's exact margin after it}` by endgame.ExactSolver.value."""
    solver = endgame.ExactSolver()
    scores = {}
    for move, child in solver.root_moves(position):
        if child is None:
            scores[gtp_engine.vertex_text(move)] = endgame.mover_margin(position)
        else:
            scores[gtp_engine.vertex_text(move)] = -solver.value(
                *(child + (endgame.WORST, -endgame.WORST))) / 2
    return scores


def test_kata_analyze_on_the_last_ply_gives_every_exact_margin():
    # White to move at ply 24: only C5 wins, by half a point (tests/test_agent.py's LAST_PLY).
    engine = new_engine()
    engine.position = go_board.Position.from_text(LAST_PLY, go_board.WHITE, go_board.MAX_PLY,
                                                  previous=LAST_PLY_BEFORE)
    line = settled_kata_line(engine, lambda blocks: all_exact(blocks) and all(
        block["visits"] != "0" for block in blocks))
    assert line == " ".join(
        "info move {} visits 2000000 winrate {} scoreMean {} scoreStdev 0 scoreLead {} prior 0.166667 "
        "order {} pv {}".format(move, winrate, score, score, order, move)
        for order, (move, winrate, score) in enumerate([
            ("C5", "1.000000", "0.5"), ("A3", "0.000000", "-0.5"), ("E2", "0.000000", "-0.5"),
            ("B1", "0.000000", "-0.5"), ("D1", "0.000000", "-0.5"),
            ("pass", "0.000000", "-1.5")]))
    assert {block["move"]: float(block["scoreLead"]) for block in parse_kata_line(line)} == \
        exact_scores(engine.position)


def test_kata_analyze_in_a_lost_endgame_gives_the_margins_the_exact_search_proves(capsys):
    # Black to move at ply 23, every move lost: by 11.5 (White answers in the one empty row),
    # passing by 12.5 (White fills too); the moves losing by the least in the board's order,
    # the pass last; the try E2 named on stderr.
    engine = new_engine()
    engine.position = go_board.Position.from_text(HOPELESS, go_board.BLACK, 23,
                                                  previous=HOPELESS_BEFORE)
    blocks = parse_kata_line(settled_kata_line(engine, lambda blocks: all_exact(blocks) and len(
        blocks) == 7))
    assert [(block["move"], block["winrate"], block["scoreLead"], block["scoreMean"],
             block["scoreStdev"]) for block in blocks] == [
        ("A2", "0.000000", "-11.5", "-11.5", "0"), ("B2", "0.000000", "-11.5", "-11.5", "0"),
        ("C2", "0.000000", "-11.5", "-11.5", "0"), ("D2", "0.000000", "-11.5", "-11.5", "0"),
        ("E2", "0.000000", "-11.5", "-11.5", "0"), ("E1", "0.000000", "-11.5", "-11.5", "0"),
        ("pass", "0.000000", "-12.5", "-12.5", "0")]
    assert {block["move"]: float(block["scoreLead"]) for block in blocks} == \
        exact_scores(engine.position)
    assert capsys.readouterr().err == (
        "my_player: kata-analyze, ply 23, Black to move: lost: White must find 7 of 7 moves "
        "(best try E2)\n")


def test_kata_analyze_six_plies_from_the_end_agrees_with_the_exact_search():
    # Black to move at ply 19 of a seeded game: A3 alone wins, by 2.5; the rest lose.
    position = position_before_end(random.Random(1), 6, 0.1, 0.5)
    engine = new_engine()
    engine.position = position
    scores = exact_scores(position)
    blocks = parse_kata_line(settled_kata_line(engine, lambda blocks: all_exact(blocks) and len(
        blocks) == len(scores)))
    assert scores == {"D1": -2.5, "C1": -2.5, "C2": -2.5, "B2": -2.5, "A3": 2.5, "B4": -2.5,
                      "D5": -2.5, "pass": -4.5}
    assert {block["move"]: float(block["scoreLead"]) for block in blocks} == scores
    assert {block["scoreStdev"] for block in blocks} == {"0"}
    best = max(scores.values())
    assert (blocks[0]["move"], blocks[0]["winrate"], float(blocks[0]["scoreLead"])) == (
        "A3", "1.000000", best)
    assert endgame.ExactSolver().best_move(position)[1] / 2 == best


def test_kata_analyze_marks_estimates_with_the_plies_left():
    # Ply 5 without the exact search (LITTLEGO_SOLVER=0) and off the stored table: every
    # placement's score is an estimate, the board after it (Black's three stones against
    # White's two and the komi: -1.5), marked by the 19 plies left after it; the pass ends the
    # game there (the previous board is the same, docs/rules.md): its score is exact.
    engine = new_engine(dict(SMALL_BUDGET, LITTLEGO_SOLVER="0"))
    engine.position = go_board.Position.from_text(EARLY_BOARD, go_board.BLACK, 5)
    blocks = parse_kata_line(settled_kata_line(engine, lambda blocks: sum(
        int(block["visits"]) for block in blocks) > 50))
    assert [block["order"] for block in blocks] == [str(order) for order in range(len(blocks))]
    legal = engine.position.legal_moves()
    assert len(blocks) == len(legal)
    for block in blocks:
        assert block["prior"] == "{:.6f}".format(1.0 / len(legal))
        assert (block["scoreLead"], block["scoreMean"], block["scoreStdev"]) == (
            ("-2.5", "-2.5", "0") if block["move"] == "pass" else ("-1.5", "-1.5", "19"))
    assert blocks[-1]["move"] == "pass"  # ranked by score: the estimates are above it


EARLY_BOARD = """
    . . . . .
    . X O . .
    . . X . .
    . . O . .
    . . . . ."""


# kata-analyze's forms: lz-analyze's, where `ownership true` is a switch of its own.
KATA_ANALYZE_FORMS = [
    (command.replace("lz-analyze", "kata-analyze"), answer.replace("lz-analyze", "kata-analyze"))
    for command, answer in ANALYZE_FORMS if "ownership" not in command] + [
    ("kata-analyze 10 ownership true", "="), ("kata-analyze b ownership false interval 5", "="),
    ("kata-analyze 10 ownership yes", "? syntax error")]


@pytest.mark.parametrize("command, answer", KATA_ANALYZE_FORMS)
def test_kata_analyze_argument_forms(command, answer):
    assert converse([command, "7 name"]) == answer + "\n\n=7 Little-Go\n\n"


def test_kata_analyze_ownership_is_the_final_board_of_the_best_line():
    # White to move at ply 24: C5 captures the black stone at B5 and wins; the board after it,
    # seen by White (+1 White's stones).
    engine = new_engine()
    engine.position = go_board.Position.from_text(LAST_PLY, go_board.WHITE, go_board.MAX_PLY,
                                                  previous=LAST_PLY_BEFORE)
    _, _, stream = engine.handle("kata-analyze 10 ownership true")
    line = next(stream.lines(lambda seconds: time.sleep(seconds) or False))
    blocks, ownership = line.split(" ownership ")
    assert parse_kata_line(blocks)[0]["move"] == "C5"
    end = engine.position.play(go_board.from_coord(0, 2))
    assert [float(value) for value in ownership.split()] == [
        1.0 if end.white >> point & 1 else -1.0 if end.black >> point & 1 else 0.0
        for point in range(go_board.NUM_POINTS)]
