"""KaTrain itself on `littlego analysis` (`make test-katrain`, marker `katrain`; the extra
`.[katrain]`, and Debian's xvfb, xdotool and imagemagick for the window). Without the marker,
what needs no KaTrain: its configuration for Little-Go, and the one line when it is missing.

Headless, KaTrain's own engine class (katrain.core.engine.KataGoEngine, its app object a stub)
starts the engine as `littlego katrain` configures it (`exec .../littlego analysis`) and
analyses recorded games node by node, as KaTrain does: every node's score is the exact value,
and KaTrain's point loss of every move is `littlego review`'s "given away". Then what must not
hang it: a terminate mid-search answered, garbage answered by an error line, the engine killed
and restarted, and no engine left behind by a shutdown. Last, KaTrain's window under Xvfb on a
reviewed game, a screenshot kept as runs/katrain/katrain.png (docs/katrain.png is one), and no
engine outliving a KaTrain killed outright.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import psutil
import pytest

import go_board
from littlego.analysis import katrain, review, stored_values
from littlego.paths import REPO_ROOT, RUNS_DIR

from referee_support import exited

# Kivy (which KaTrain imports) reads these when first imported: no argument parsing, no console
# log, and its files in a scratch directory, never the user's ~/.kivy.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="littlego-kivy-"))

RECORDED = os.path.join(REPO_ROOT, "recorded_games", "ladder-alphabeta4-1s.jsonl")
# Game 1: the agent Black (the centre), thrown away by its 4th move; game 2: alphabeta4 Black
# (2,1), the agent White.
GAMES = (1, 2)
REVIEW_CPU = 120.0
MAX_TIME = 120.0  # KaTrain's max_time here: every node's exact value comes well within it
WAIT = 900.0


def recorded(number):
    with open(RECORDED) as handle:
        for line in handle:
            record = json.loads(line)
            if record["game"] == number:
                return record["moves"]
    raise KeyError(number)


class App(object):
    """KaTrain's app object as its engine class uses it: `log`, and calls for popups."""

    def __init__(self):
        self.logs = []

    def log(self, message, level=0):
        self.logs.append((level, str(message)))

    def __call__(self, *args, **options):
        self.logs.append(("call", args))

    def errors(self):
        from katrain.core.constants import OUTPUT_ERROR
        return [message for level, message in self.logs if level == OUTPUT_ERROR]


def engine_config(max_time=MAX_TIME):
    settings = katrain.config(katrain.package_config(), katrain.engine_command(), max_time)
    return dict(settings["engine"], allow_recovery=False)


@pytest.fixture
def engines():
    """`start(max_time)`: KaTrain's engine class on our engine; every one shut down after."""
    from katrain.core.engine import KataGoEngine
    started = []

    def start(max_time=MAX_TIME):
        app = App()
        started.append(KataGoEngine(app, engine_config(max_time)))
        started[-1].app = app
        return started[-1]
    yield start
    for engine in started:
        process = engine.katago_process
        engine.shutdown(finish=False)
        if process is not None:
            process.wait(10)


def main_line(sgf_text):
    from katrain.core.game import KaTrainSGF
    nodes = [KaTrainSGF.parse_sgf(sgf_text)]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    return nodes


def exact_root(node):
    root = node.analysis["root"]
    return root is not None and root.get("scoreStdev") == 0.0


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def black_margin(row_value, colour):
    """A review value (for the mover) as KaTrain's score (for Black)."""
    return row_value["margin"] if colour == "Black" else -row_value["margin"]


@pytest.mark.katrain
@pytest.mark.parametrize("number", GAMES)
def test_katrains_analysis_is_exact_at_every_move_and_its_point_loss_is_the_reviews(
        engines, number):
    moves = recorded(number)
    reviewed = review.review(moves, REVIEW_CPU)
    rows = reviewed["moves"]
    assert len(rows) == len(moves)
    assert all(row["before"]["margin"] is not None and row["after"]["margin"] is not None
               for row in rows), "the review is not exact everywhere"
    nodes = main_line(review.sgf_text(moves, reviewed))
    assert len(nodes) == len(moves) + 1 and nodes[0].ruleset == "stone_scoring"
    engine = engines()
    started = time.monotonic()
    for node in nodes:
        node.analyze(engine)
    wait_until(lambda: all(exact_root(node) for node in nodes), WAIT,
               "KaTrain's nodes did not all get their exact values")
    print("game {}: every node's exact value in KaTrain after {:.1f} s".format(
        number, time.monotonic() - started))
    assert nodes[0].score == black_margin(rows[0]["before"], rows[0]["colour"])
    for node, row in zip(nodes[1:], rows):
        assert node.move.gtp().lower() == review_vertex(row["move"])
        assert node.score == black_margin(row["after"], row["colour"])
        assert node.points_lost == row["given_away"]
    assert not engine.app.errors()


def review_vertex(text):
    from littlego.analysis.vertices import vertex_text
    return vertex_text(go_board.move_from_text(text)).lower()


def ply_five(number=2):
    """The node at ply 5 of a recorded game (off the stored table: seconds of exact search)."""
    moves = recorded(number)[:4]
    assert stored_values.position_after(moves) not in stored_values.read()
    return main_line(review.sgf_text(moves, {"moves": [], "first_lost_win": None}))[-1]


@pytest.mark.katrain
def test_a_terminate_mid_search_gets_its_final_answer_at_once(engines):
    engine = engines(max_time=300.0)
    node = ply_five()
    answers = []
    engine.request_analysis(node, lambda result, partial: answers.append(partial),
                            report_every=0.2)
    wait_until(lambda: answers, 30, "no answer during the search")
    [query_id] = list(engine.queries)
    engine.terminate_query(query_id, ignore_further_results=False)
    terminated = time.monotonic()
    wait_until(engine.is_idle, 5, "the terminated query did not end")
    assert time.monotonic() - terminated < 2.0
    assert answers[0] is True and answers[-1] is False
    assert not engine.app.errors()


@pytest.mark.katrain
def test_garbage_gets_an_error_line_and_the_engine_goes_on(engines):
    engine = engines()
    engine.katago_process.stdin.write(b"\x00 this is no query {\n")
    engine.katago_process.stdin.flush()
    wait_until(lambda: engine.app.errors(), 30, "no error line for the garbage")
    assert "could not parse the line as JSON" in engine.app.errors()[0]
    node = ply_five()
    node.analyze(engine)
    wait_until(lambda: exact_root(node), WAIT, "no exact value after the garbage")


@pytest.mark.katrain
def test_a_killed_engine_is_noticed_and_a_restarted_one_answers(engines):
    engine = engines()
    killed = engine.katago_process
    killed.send_signal(signal.SIGKILL)
    killed.wait(10)
    wait_until(lambda: any("died" in message.lower() for message in engine.app.errors()), 30,
               "KaTrain did not notice the engine died")
    engine.restart()
    assert engine.katago_process.pid != killed.pid
    node = ply_five(2)
    node.analyze(engine)
    wait_until(lambda: exact_root(node), WAIT, "the restarted engine did not answer")


@pytest.mark.katrain
def test_a_shutdown_leaves_no_engine_behind(engines):
    engine = engines()
    process = psutil.Process(engine.katago_process.pid)
    # exec: the shell KaTrain starts becomes the engine itself (its command line then ends in
    # "analysis"); read before the exec, the pid's command line is still the shell's.
    wait_until(lambda: process.cmdline()[-1] == "analysis", 10,
               "the shell KaTrain started did not exec the engine")
    node = ply_five()
    node.analyze(engine)  # busy when KaTrain goes
    time.sleep(1.0)
    engine.shutdown(finish=False)
    process.wait(5)
    assert not process.is_running()


# ---- the window --------------------------------------------------------------------------

SCREENSHOT = os.path.join(RUNS_DIR, "katrain", "katrain.png")
SHOWN_GAME, SHOWN_MOVE = 1, 5  # the move after which the screenshot shows the board
DISPLAY = ":57"


@pytest.fixture
def display():
    """A virtual X display (Xvfb) as big as KaTrain's window."""
    assert shutil.which("Xvfb") and shutil.which("xdotool") and shutil.which("import"), \
        "xvfb, xdotool and imagemagick are missing: make test-katrain installs them"
    server = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "{}x{}x24".format(
        *katrain.WINDOW)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    yield dict(os.environ, DISPLAY=DISPLAY)
    server.terminate()
    server.wait(10)


def engine_children(process):
    return [child for child in psutil.Process(process.pid).children(recursive=True)
            if child.cmdline()[-1:] == ["analysis"]]


def idle(process, seconds):
    """Whether `process` used less than a tenth of a CPU second over `seconds`."""
    before = sum(process.cpu_times()[:2])
    time.sleep(seconds)
    return sum(process.cpu_times()[:2]) - before < 0.1


@pytest.mark.katrain
def test_katrains_window_shows_a_reviewed_game_and_no_engine_outlives_it(display, tmp_path):
    moves = recorded(SHOWN_GAME)
    game = tmp_path / "reviewed.sgf"
    assert review.main([RECORDED, str(SHOWN_GAME), "--cpu", str(REVIEW_CPU), "--sgf",
                        str(game)]) == 0
    gui = subprocess.Popen([sys.executable, "-m", "littlego", "katrain", str(game), "--dir",
                            str(tmp_path / "katrain")], env=display, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: engine_children(gui), 60, "KaTrain did not start its engine")
        [engine] = engine_children(gui)
        # Every node analysed: the engine has gone quiet.
        wait_until(lambda: idle(engine, 3.0), WAIT, "the engine never went quiet")
        katrain_python = psutil.Process(gui.pid).children()[0]
        window = subprocess.run(["xdotool", "search", "--pid", str(katrain_python.pid)],
                                env=display, stdout=subprocess.PIPE, universal_newlines=True,
                                check=True).stdout.split()[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=display, check=True)
        for _ in range(SHOWN_MOVE):
            subprocess.run(["xdotool", "key", "--window", window, "Right"], env=display,
                           check=True)
            time.sleep(0.3)
        time.sleep(2.0)
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        subprocess.run(["import", "-window", "root", SCREENSHOT], env=display, check=True)
        assert os.path.getsize(SCREENSHOT) > 50000  # a drawn window, not a blank screen
        assert len(moves) == 24
        # KaTrain killed outright: its engine, orphaned, ends by itself.
        katrain_python.send_signal(signal.SIGKILL)
        assert exited(engine, 10)
    finally:
        for process in psutil.Process(gui.pid).children(recursive=True):
            process.kill()
        gui.kill()
        gui.wait(10)


# ---- without KaTrain -----------------------------------------------------------------------

BASE = {"engine": {"backend": "", "altcommand": "", "max_time": 8.0, "max_visits": 500},
        "game": {"size": "19", "komi": 6.5, "rules": "japanese", "handicap": 0},
        "general": {"load_sgf_rewind": True}, "ui_state": {"size": []}}


def test_the_configuration_is_little_go_s_and_the_engine_is_exec_d():
    settings = katrain.config(BASE, "exec /x/littlego analysis", 12.0)
    assert settings["engine"] == {"backend": "custom", "altcommand": "exec /x/littlego analysis",
                                  "max_time": 12.0, "max_visits": 500, "wide_root_noise": 0.0,
                                  "_enable_ownership": True}
    assert settings["game"] == {"size": "5", "komi": 2.5, "rules": "stone_scoring",
                                "handicap": 0}
    assert settings["ui_state"]["size"] == katrain.WINDOW
    assert BASE["game"]["size"] == "19"  # KaTrain's own configuration is left as it was
    command = katrain.engine_command()
    assert command.startswith("exec ") and command.endswith(" analysis")


def test_without_katrain_the_command_says_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(katrain, "package_config", lambda: None)
    assert katrain.main(["--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == katrain.NOT_INSTALLED + "\n"
    assert not os.listdir(str(tmp_path))  # nothing written
