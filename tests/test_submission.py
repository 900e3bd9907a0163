"""The tournament bundle (littlego/grader/bundle.py): one file the course grader runs as it is.

The bundle is built into a temporary directory and run as the grader runs it: `python3
my_player3.py`, plainly, in a directory holding only the bundle and its helper file, in the
grader's environment of littlego/grader/environment.py (`python3` is Python 3.7 when this machine has it,
numpy and psutil cannot be imported, no LITTLEGO_* settings). The bundle must answer fixed
positions exactly as the package does, and win course-driver games against the random player
with every move's CPU, the whole process tree's, measured from outside by
littlego/grader/cpu_meter.py, within its budget.

The games under the course driver (one per colour, and the 20-game match of about 3 minutes)
are marked `slow`, which pyproject.toml's pytest settings leave out: run them with `make test-slow` or
`pytest -m slow tests/test_submission.py`.
"""

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import agent_settings
import decision_log
import go_board
import opening_book
from littlego import opponents
from littlego.grader import COURSE_DRIVER, bundle, environment, meter_command

from referee_support import EMPTY, HOST, LAST_PLY, LAST_PLY_BEFORE, REPO_ROOT, input_text

# A small budget keeps the match affordable.
MOVE_CPU = 0.75
# What a move may use beyond its budget: the interpreter's exit after the agent's last reading.
CPU_MARGIN = 0.1
GAMES_PER_COLOUR = 10


@pytest.fixture(scope="session")
def grader_env(tmp_path_factory):
    """The environment of a graded run: `python3` is 3.7, numpy and psutil do not import."""
    env = environment.grader_env(str(tmp_path_factory.mktemp("grader")))
    for name in environment.BLOCKED_MODULES:
        done = subprocess.run(["python3", "-c", "import " + name], env=env,
                              stderr=subprocess.DEVNULL)
        assert done.returncode == 1, "the {} blocker does not work".format(name)
    return env


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist") / "submission"
    bundle.build(REPO_ROOT, str(out))
    return out


def new_game_dir(tmp_path, bundle_dir):
    """A game directory holding the submission's files and nothing else, as the grader's."""
    game = tmp_path / "game"
    shutil.copytree(str(bundle_dir), str(game))
    return game


def run_move(command, cwd, env, input_txt, **settings):
    """One agent call; returns (exit code, stderr, output.txt's text or None)."""
    (cwd / "input.txt").write_text(input_txt)
    env = dict(env, **{agent_settings.SETTINGS_PREFIX + key.upper(): str(value)
                       for key, value in settings.items()})
    done = subprocess.run(command, cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    output = cwd / "output.txt"
    return done.returncode, done.stderr, output.read_text() if output.exists() else None


# ---- building ------------------------------------------------------------------------------

def test_bundle_is_one_file_plus_the_book(bundle_dir):
    assert sorted(os.listdir(str(bundle_dir))) == ["my_player3.py", "opening_book.txt"]
    with open(os.path.join(REPO_ROOT, "opening_book.txt"), "rb") as handle:
        assert (bundle_dir / "opening_book.txt").read_bytes() == handle.read()
    header = (bundle_dir / "my_player3.py").read_text()[:2000]
    assert bundle.GENERATED_MARK in header
    assert "make submission" in header


def test_the_submission_stays_within_the_graders_size_limit(bundle_dir, tmp_path, monkeypatch):
    total = sum(os.path.getsize(str(bundle_dir / name)) for name in os.listdir(str(bundle_dir)))
    assert total <= bundle.MAX_SUBMISSION_BYTES
    monkeypatch.setattr(bundle, "MAX_SUBMISSION_BYTES", total - 1)
    with pytest.raises(bundle.BuildError, match="over the grader's"):
        bundle.build(REPO_ROOT, str(tmp_path / "too_big"))
    assert not (tmp_path / "too_big").exists()


def test_bundle_embeds_every_module_the_agent_loads():
    modules, _ = bundle.discover(REPO_ROOT)
    probe = ("import json, sys; import my_player; print(json.dumps("
             "{name: getattr(module, '__file__', None) for name, module in sys.modules.items()}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                          universal_newlines=True, check=True, timeout=60)
    # Repository modules only: a virtualenv inside the repository holds modules too.
    loaded = set(name for name, path in json.loads(done.stdout).items()
                 if path and (bundle.module_path(REPO_ROOT, name) or ("",))[0] == path)
    assert "my_player" in loaded
    assert loaded <= set(modules)


def test_build_is_deterministic(tmp_path, bundle_dir):
    # Built again by two fresh interpreters with other string hashes (another order for any
    # set of names), the same two files, byte for byte, as the bundle built here.
    names = sorted(os.listdir(str(bundle_dir)))
    assert names == ["my_player3.py", "opening_book.txt"]
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        done = subprocess.run([sys.executable, "-m", "littlego", "submission", "--out", str(out)],
                              cwd=str(tmp_path), env=dict(os.environ, PYTHONHASHSEED=hash_seed),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert sorted(os.listdir(str(out))) == names
        for name in names:
            assert (out / name).read_bytes() == (bundle_dir / name).read_bytes(), name


def test_out_directory_is_replaced_only_when_it_holds_a_bundle(tmp_path):
    out = tmp_path / "out"
    bundle.build(REPO_ROOT, str(out))
    (out / "stale.txt").write_text("from an earlier build")
    bundle.build(REPO_ROOT, str(out))
    assert sorted(os.listdir(str(out))) == ["my_player3.py", "opening_book.txt"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(bundle.BuildError, match="no earlier bundle"):
        bundle.build(REPO_ROOT, str(other))
    assert os.listdir(str(other)) == ["notes.txt"]


@pytest.mark.parametrize("text", [
    '"""doc"""\nx = "a\\\\b"\n',
    "'''single''' and \"\"\"double\"\"\"\n",
    "ends with quotes''",
    'ends with quotes""',
    "tab\tcarriage\r return, NUL \x00, non-ASCII \xe9 \u20ac \U0001f600\n",
    "\\\n trailing backslash \\",
    "",
])
def test_embedded_literal_holds_the_text_exactly(text):
    literal = bundle.embedded_literal(text)
    assert ast.literal_eval(literal) == text
    assert literal.isascii()


SMALL_REPO = {
    "my_player.py": """
import json
import os
import sys

import helper
from pkg import sub
from pkg.inner import deep


def command(argv):
    import lazy
    report = {"argv": argv, "data": helper.load(), "relative": sub.VALUE}
    for name in ("my_player", "helper", "lazy", "pkg", "pkg.sub", "pkg.inner", "pkg.inner.deep"):
        module = sys.modules[name]
        report[name] = [module.__package__, os.path.relpath(module.__file__, helper.HERE),
                        hasattr(module, "__path__")]
    print(json.dumps(report, sort_keys=True))
    return 7
""",
    "helper.py": """
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data.json")


def load():
    with open(DATA) as handle:
        return json.load(handle)
""",
    "data.json": '{"answer": 42}',
    "lazy.py": "",
    "unused.py": "import numpy\n",
    "pkg/__init__.py": "from . import sub\n",
    "pkg/sub.py": "from .inner.deep import NAME\nVALUE = 'sub sees ' + NAME\n",
    "pkg/inner/__init__.py": "",
    "pkg/inner/deep.py": "NAME = 'deep'\n",
}


def write_repo(repo, files):
    repo.mkdir()
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)


def test_importer_gives_modules_their_names_packages_and_files(tmp_path, grader_env):
    repo = tmp_path / "repo"
    write_repo(repo, SMALL_REPO)
    out = tmp_path / "out"
    bundle.build(str(repo), str(out))
    assert sorted(os.listdir(str(out))) == ["data.json", "my_player3.py"]
    text = (out / "my_player3.py").read_text()
    assert "sources outside git" in text
    assert sorted(re.findall(r"^SOURCES\['([\w.]+)'\]", text, re.M)) == [
        "helper", "lazy", "my_player", "pkg", "pkg.inner", "pkg.inner.deep", "pkg.sub"]
    # Run from elsewhere: helper files are found beside the bundle, not in the current directory.
    done = subprocess.run(["python3", str(out / "my_player3.py"), "x"], cwd=str(tmp_path),
                          env=grader_env, stdout=subprocess.PIPE, universal_newlines=True,
                          timeout=60)
    assert done.returncode == 7
    assert json.loads(done.stdout) == {
        "argv": ["x"],
        "data": {"answer": 42},
        "relative": "sub sees deep",
        "my_player": ["", "my_player.py", False],
        "helper": ["", "helper.py", False],
        "lazy": ["", "lazy.py", False],
        "pkg": ["pkg", "pkg/__init__.py", True],
        "pkg.sub": ["pkg", "pkg/sub.py", False],
        "pkg.inner": ["pkg.inner", "pkg/inner/__init__.py", True],
        "pkg.inner.deep": ["pkg.inner", "pkg/inner/deep.py", False],
    }


BESIDE = "import os\nBOOK = os.path.join(os.path.dirname(__file__), 'book.json')\n"
# The same file named through module-level names, as opening_book.py may write it.
BESIDE_BY_NAMES = ("import os\nHERE = os.path.dirname(os.path.abspath(__file__))\n"
                   "NAME = 'book.json'\nBOOK = os.path.join(HERE, NAME)\n")


@pytest.mark.parametrize("files, message", [
    ({}, "no my_player.py in "),
    ({"my_player.py": "from . import x\n"}, "relative import beyond the top package"),
    ({"my_player.py": "import ns.mod\n", "ns/mod.py": ""}, "in a directory without __init__.py"),
    ({"my_player.py": BESIDE}, "reads book.json beside itself, but there is no "),
    ({"my_player.py": BESIDE, "book.json": "{"}, "book.json is not valid JSON"),
    ({"my_player.py": "import pkg\n", "pkg/__init__.py": BESIDE, "pkg/book.json": "{}"},
     "reads book.json from its package directory"),
    ({"my_player.py": BESIDE_BY_NAMES}, "reads book.json beside itself, but there is no "),
    ({"my_player.py": BESIDE.replace("json", "bin"), "book.bin": ""},
     "my_player.py:2: opens book.bin beside itself, but the grader accepts only .json, .txt"),
    ({"my_player.py": "import os\ndef path(name):\n"
                      "    return os.path.join(os.path.dirname(__file__), name)\n"},
     "my_player.py:3: opens a file beside itself whose name is not a string literal"),
], ids=["no entry", "relative beyond top", "namespace package", "missing helper",
        "corrupt helper", "helper in a package", "helper named by names",
        "helper of a refused kind",
        "helper name unreadable"])
def test_build_refuses_what_cannot_be_bundled(tmp_path, files, message):
    repo = tmp_path / "repo"
    write_repo(repo, files)
    with pytest.raises(bundle.BuildError, match=re.escape(message)):
        bundle.build(str(repo), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_the_graders_python_builds_the_same_bytes(tmp_path, bundle_dir, grader_env):
    """3.7 parses string literals as ast.Str, 3.8+ as ast.Constant: the helper file must be found
    either way, so the submission is the same whichever Python builds it."""
    env = dict(grader_env, PYTHONPATH=REPO_ROOT)
    version = subprocess.run(["python3", "-c", "import sys; print(sys.version_info[:2])"], env=env,
                             stdout=subprocess.PIPE, universal_newlines=True, check=True)
    if version.stdout != "(3, 7)\n":
        pytest.skip("the grader's Python 3.7 is not installed (make python37)")
    out = tmp_path / "built-on-3.7"
    done = subprocess.run(["python3", "-m", "littlego", "submission", "--out", str(out)],
                          cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(str(out))) == sorted(os.listdir(str(bundle_dir))) == [
        "my_player3.py", "opening_book.txt"]
    for name in os.listdir(str(out)):
        assert (out / name).read_bytes() == (bundle_dir / name).read_bytes(), name


def test_a_helper_the_bundle_cannot_carry_is_one_line_and_exit_1(tmp_path, monkeypatch, capsys):
    repo = tmp_path / "repo"
    write_repo(repo, {"my_player.py": BESIDE.replace("json", "bin"), "book.bin": ""})
    monkeypatch.setattr(bundle, "REPO_ROOT", str(repo))
    assert bundle.main(["--out", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "littlego submission: {}:2: opens book.bin beside itself, but the grader accepts only "
        ".json, .txt helper files\n".format(repo / "my_player.py"))


def test_the_bundle_takes_no_arguments_and_says_where_gtp_is(tmp_path, bundle_dir, grader_env):
    game = new_game_dir(tmp_path, bundle_dir)
    (game / "input.txt").write_text(input_text(1, EMPTY, EMPTY))
    done = subprocess.run(["python3", "my_player3.py", "--gtp"], cwd=str(game), env=grader_env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "my_player: takes no arguments (--gtp): it plays one move from input.txt in the working "
        "directory; the GTP engine is `littlego gtp`\n")
    assert not (game / "output.txt").exists()


def test_python37_syntax_and_library_by_vermin(bundle_dir):
    if importlib.util.find_spec("vermin") is None:
        pytest.skip("vermin is not installed (pip install vermin)")
    modules, _ = bundle.discover(REPO_ROOT)
    files = [str(bundle_dir / "my_player3.py")] + sorted(module.path for module in modules.values())
    done = subprocess.run([sys.executable, "-c", "import sys; from vermin import main; "
                           "sys.exit(main())", "--target=3.7-", "--no-tips", "--violations"]
                          + files, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=120)
    assert done.returncode == 0, done.stdout


# ---- the bundle answers as the package does -------------------------------------------------

# White's last move (ply 24, told by Black's 12 stones): a plain stone loses by half a point,
# taking the black stone in atari at 0,2 wins by half a point.
# Black passed; White leads 2 + 2.5 komi against 3, so passing ends the game with White's win.
BLACK_PASSED = """
. . . . .
. X . O .
. . X . .
. O X . .
. . . . .
"""


# White's first turn after Black's centre: an answer from the book.
CORNER_STONE = """
X . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""


# White's answer to Black's losing corner opening, as the committed book has it (make book).
BOOK_ANSWER_TO_CORNER = go_board.move_to_text(
    opening_book.read().lookup(go_board.Position().play(go_board.from_coord(0, 0))))


@pytest.mark.parametrize("colour, previous, current, move, source", [
    (1, EMPTY, EMPTY, "2,2", "centre rule"),
    (2, EMPTY, CORNER_STONE, BOOK_ANSWER_TO_CORNER, "book"),
    (2, LAST_PLY_BEFORE, LAST_PLY, "0,2", "exact"),
    (2, BLACK_PASSED, BLACK_PASSED, "PASS", "winning pass"),
], ids=["first move", "opening book", "last-ply capture", "pass after a pass"])
def test_bundle_answers_as_the_package(tmp_path, bundle_dir, grader_env, colour, previous, current,
                                       move, source):
    text = input_text(colour, previous, current)
    package_dir = tmp_path / "package"
    package_dir.mkdir()
    answers = []
    for command, cwd in ((["python3", "my_player3.py"], new_game_dir(tmp_path, bundle_dir)),
                         (["python3", os.path.join(REPO_ROOT, "my_player.py")], package_dir)):
        code, stderr, output = run_move(command, cwd, grader_env, text, seed=1, move_cpu=0.5)
        assert code == 0, stderr
        answers.append((output, [record["source"]
                                 for record in decision_log.read_decisions(stderr)]))
    assert answers[0] == answers[1] == (move, [source])


def test_malformed_input_is_one_line_and_exit_2(tmp_path, bundle_dir, grader_env):
    package_dir = tmp_path / "package"
    package_dir.mkdir()
    results = []
    for command, cwd in ((["python3", "my_player3.py"], new_game_dir(tmp_path, bundle_dir)),
                         (["python3", os.path.join(REPO_ROOT, "my_player.py")], package_dir)):
        results.append(run_move(command, cwd, grader_env, "1\n00000\n00000"))
    assert results[0] == results[1] == (2, "my_player: bad input: expected 11 lines (colour, "
                                           "previous board, current board), found 3\n", None)


MIDDLE_GAME_BEFORE = """
. . . . .
. . O . .
. X X . .
. . O . .
. . . . .
"""
MIDDLE_GAME = """
. . . . .
. . O . .
. X X O .
. . O . .
. . . . .
"""


def test_search_forks_its_workers_inside_the_bundle(tmp_path, bundle_dir, grader_env):
    game = new_game_dir(tmp_path, bundle_dir)
    code, stderr, output = run_move(["python3", "my_player3.py"], game, grader_env,
                                    input_text(1, MIDDLE_GAME_BEFORE, MIDDLE_GAME),
                                    seed=1, move_cpu=1.0, workers=2)
    assert code == 0, stderr
    [decision] = decision_log.read_decisions(stderr)
    assert decision["source"] == decision_log.SOURCE_MCTS, stderr
    assert decision["details"]["workers"] == 2 and decision["details"]["simulations"] > 0, stderr
    black, white = go_board.parse_board(MIDDLE_GAME)
    prev_black, prev_white = go_board.parse_board(MIDDLE_GAME_BEFORE)
    position = go_board.Position(black, white, go_board.BLACK, 7, prev_black, prev_white)
    assert output == "PASS" or position.is_legal(go_board.from_coord(*map(int, output.split(","))))


# ---- a match under the course driver --------------------------------------------------------

def play_driver_game(game_dir, env, our_colour, seed):
    """One game of the bundle against the random player; returns (winner, stderr, moves)."""
    log = game_dir.parent / "moves-{}-{}.jsonl".format(our_colour, seed)
    ours = "{} python3 my_player3.py".format(meter_command("python3", log))
    random_player = opponents.run_command("python3", "random")  # seeded by LITTLEGO_SEED
    black, white = (ours, random_player) if our_colour == go_board.BLACK else (random_player, ours)
    env = dict(env, LITTLEGO_SEED=str(seed), LITTLEGO_MOVE_CPU=str(MOVE_CPU))
    done = subprocess.run(["sh", COURSE_DRIVER, black, white, HOST], cwd=str(game_dir), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=600)
    moves = [json.loads(line) for line in log.read_text().splitlines()]
    return int(done.stdout), done.stderr, moves


def check_match(game_dir, env, games_per_colour):
    """Games against random as each colour: all won by score, every move written, legal in
    form and within budget, no trouble in any log line; returns the largest CPU of a move."""
    max_cpu = 0.0
    for our_colour in (go_board.BLACK, go_board.WHITE):
        for seed in range(1, games_per_colour + 1):
            winner, stderr, moves = play_driver_game(game_dir, env, our_colour, seed)
            summary = "colour {} seed {}:\n{}".format(our_colour, seed, stderr)
            assert winner == our_colour, summary
            assert len(re.findall(r"^Game end \(score: ", stderr, re.M)) == 1, summary
            assert len(moves) == len(decision_log.read_decisions(stderr)), summary
            assert len(moves) >= 6, summary
            for move in moves:
                assert move["exit"] == 0, summary
                assert environment.wellformed_output(move["output"]), summary
                assert move["cpu"] <= MOVE_CPU + CPU_MARGIN, summary
                max_cpu = max(max_cpu, move["cpu"])
            for trouble in ("Traceback", "search failed", "derived from the stones"):
                assert trouble not in stderr, summary
    return max_cpu


@pytest.mark.slow
def test_one_game_per_colour_under_the_course_driver(tmp_path, bundle_dir, grader_env):
    check_match(new_game_dir(tmp_path, bundle_dir), grader_env, 1)


@pytest.mark.slow
def test_twenty_games_against_random_under_the_course_driver(tmp_path, bundle_dir, grader_env):
    # One directory for all games: files survive from game to game, as in the course.
    max_cpu = check_match(new_game_dir(tmp_path, bundle_dir), grader_env, GAMES_PER_COLOUR)
    print("max CPU per move: {:.3f}s (budget {}s)".format(max_cpu, MOVE_CPU))
