"""The project as others install it (pyproject.toml, setup.py, MANIFEST.in): the release files
(`python -m build`: an sdist and a pure-Python wheel, `twine check`), the sdist installed into
fresh venvs on this Python and on the grader's 3.7 without extras, then every subcommand run
from elsewhere; `pip install .` and `pip install -e .`.

Slow (each install builds in its own venv, setuptools fetched by pip's build isolation):
`make test-slow`.
"""

import os
import shlex
import subprocess
import sys
import zipfile

import pytest
import test_docs

import littlego
from littlego import cli
from littlego.grader import interpreters
from littlego.paths import REPO_ROOT

EMPTY_BOARD_INPUT = "1\n" + "00000\n" * 10
AFTER_THE_CORNER_INPUT = "2\n" + "00000\n" * 5 + "10000\n" + "00000\n" * 4
BUILDING = "littlego: compiling the exact solver (C) once, into {}\n"
SDIST = "littlego-{}.tar.gz".format(littlego.__version__)
WHEEL = "littlego-{}-py3-none-any.whl".format(littlego.__version__)

pytestmark = pytest.mark.slow


def run(command, cwd, env=None, stdin=None):
    return subprocess.run(command, cwd=str(cwd), env=env, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=600)


def fresh_venv(path, python=sys.executable):
    subprocess.run([python, "-m", "venv", str(path)], check=True, timeout=120)
    return path / "bin"


def install(bin_dir, *arguments, env=None):
    done = run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet"] + list(arguments),
               REPO_ROOT, env)
    assert done.returncode == 0, done.stderr


def move_of(bin_dir, game_dir, input_text):
    game_dir.mkdir()
    (game_dir / "input.txt").write_text(input_text)
    done = run([str(bin_dir / "python"), "-m", "my_player"], game_dir)
    assert done.returncode == 0, done.stderr
    return (game_dir / "output.txt").read_text(), done.stderr


def installed_library(bin_dir):
    done = run([str(bin_dir / "python"), "-c", "from littlego.solver import build; "
                "print(build.LIBRARY_PATH)"], bin_dir)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """The directory `python -m build` wrote the release files into."""
    out = tmp_path_factory.mktemp("release")
    done = run([sys.executable, "-m", "build", "--outdir", str(out), REPO_ROOT], REPO_ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_the_release_files_build_and_pass_twine_check(release):
    assert sorted(os.listdir(str(release))) == sorted([SDIST, WHEEL])
    done = run([sys.executable, "-m", "twine", "check", "--strict", SDIST, WHEEL], release)
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(str(release / WHEEL)) as wheel:
        names = wheel.namelist()
        metadata = wheel.read("littlego-{}.dist-info/METADATA".format(
            littlego.__version__)).decode("utf-8")
        tags = wheel.read("littlego-{}.dist-info/WHEEL".format(littlego.__version__)).decode()
    # Pure Python, honestly: the C sources travel, no compiled library does.
    assert "Root-Is-Purelib: true" in tags and "Tag: py3-none-any" in tags
    assert not [name for name in names if name.endswith((".so", ".o"))]
    assert {"littlego/solver/src/search.c", "opening_book.txt", "my_player.py",
            "littlego-{}.dist-info/licenses/LICENSE".format(littlego.__version__)} <= set(names)
    assert "\nLicense: MIT\n" in metadata
    requires = sorted(line.split(":", 1)[1].strip() for line in metadata.splitlines()
                      if line.startswith("Requires-Dist:") and "extra ==" not in line)
    assert requires == ["psutil>=5.9", "sgfmill>=1.1", "tqdm>=4.62"]


# What each subcommand runs in the installed package beyond its --help: a short form that
# imports what the command imports at run time. {python} is the venv's, {dir} a scratch directory.
SHORT_FORMS = {
    "match": ["cmd:{python} -m littlego opponent random", "random", "--games", "1", "--seed", "1",
              "--out", "{dir}/match"],
    "opponent": ["random", "--seed", "1"],
    "solve": ["input.txt", "--cpu", "0.01"],
    "build-solver": [],
    "submission": ["--out", "{dir}/submission"],
}


def test_the_sdist_installs_without_extras_and_every_subcommand_runs(release, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, str(release / SDIST))
    littlego_command = str(bin_dir / "littlego")
    work = tmp_path / "work"  # not the checkout: only the installed files answer
    work.mkdir()
    (work / "input.txt").write_text(EMPTY_BOARD_INPUT)
    for name, command in cli.COMMANDS.items():
        done = run([littlego_command, name, "--help"], work)
        assert done.returncode == 0 and done.stderr == "", (name, done.stderr)
        assert done.stdout.startswith("usage: littlego {}".format(name)), name
        # The example its --help ends with, parsed by the installed command (test_docs).
        example = shlex.split(command.example)
        done = test_docs.parse_only(["-m"] + example, bin_dir / "python", work)
        assert done.stdout == "parsed by littlego {}\n".format(name), done.stderr
    answers = {}
    for name, words in SHORT_FORMS.items():
        arguments = [word.format(python=bin_dir / "python", dir=tmp_path) for word in words]
        answers[name] = run([littlego_command, name] + arguments, work)
    assert answers["match"].returncode == 0, answers["match"].stderr
    assert "Games and summary written to {}/match".format(tmp_path) in answers["match"].stdout
    assert answers["opponent"].returncode == 0 and (work / "output.txt").exists()
    library = installed_library(bin_dir)
    assert (answers["solve"].returncode, answers["solve"].stderr) == (
        2, BUILDING.format(library) + "solve: not proven within 0.01 CPU seconds\n")
    assert answers["build-solver"].stdout == "{}: up to date\n".format(library)
    assert answers["submission"].returncode == 0, answers["submission"].stderr
    assert sorted(os.listdir(str(tmp_path / "submission"))) == ["my_player3.py",
                                                                "opening_book.txt"]
    # GTP and the SGF reader (sgfmill), as the browser board's replay uses it.
    done = run([littlego_command, "gtp"], work, stdin="version\nquit\n")
    assert done.stdout == "= {}\n\n=\n\n".format(littlego.__version__)
    done = run([str(bin_dir / "python"), "-c", "from littlego.referee import sgf; "
                "print(sgf.sgf_moves('(;SZ[5];B[cc];W[])'))"], work)
    assert done.stdout == "[(2, 2), None]\n", done.stderr
    # The stored value table, as the board and `littlego review` read it.
    done = run([str(bin_dir / "python"), "-c", "import go_board; from littlego.analysis import "
                "stored_values; print(stored_values.read().lookup(go_board.Position())['2,2'])"],
               work)
    assert done.stdout == "0.5\n", done.stderr
    assert run([littlego_command, "--version"], work).stdout == "littlego {}\n".format(
        littlego.__version__)


def test_the_sdist_builds_and_installs_on_the_graders_python(release, tmp_path):
    """The oldest supported Python: its setuptools (68) builds the wheel from the sdist."""
    python37 = interpreters.grader_python()
    if python37 is None:
        pytest.skip("the grader's Python 3.7 is not installed (make python37)")
    bin_dir = fresh_venv(tmp_path / "venv", python37)
    install(bin_dir, str(release / SDIST))
    move, log = move_of(bin_dir, tmp_path / "book", AFTER_THE_CORNER_INPUT)
    assert '"source": "book"' in log and move == "2,2"
    done = run([str(bin_dir / "littlego"), "--version"], tmp_path)
    assert done.stdout == "littlego {}\n".format(littlego.__version__), done.stderr


def test_pip_install_dot_gives_the_agent_its_book_and_the_command(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, ".")
    move, log = move_of(bin_dir, tmp_path / "first", EMPTY_BOARD_INPUT)
    assert move == "2,2"
    move, log = move_of(bin_dir, tmp_path / "book", AFTER_THE_CORNER_INPUT)
    assert '"source": "book"' in log and move == "2,2"
    done = run([str(bin_dir / "littlego"), "--help"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("usage: littlego COMMAND")


def test_without_a_compiler_the_solver_says_in_one_line_what_to_do(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, ".")
    (tmp_path / "input.txt").write_text(EMPTY_BOARD_INPUT)
    done = run([str(bin_dir / "littlego"), "solve", "input.txt"], tmp_path,
               env=dict(os.environ, CC="false"))
    library = installed_library(bin_dir)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == BUILDING.format(library) + (
        "solve: the compiled solver is missing and could not be built (false failed with exit "
        "status 1 building {}): it needs a C compiler (gcc) and a package directory it may write; "
        "then run `littlego build-solver`\n".format(library))
    move, _ = move_of(bin_dir, tmp_path / "game", EMPTY_BOARD_INPUT)
    assert move == "2,2"


def test_pip_install_editable_runs_the_checkout(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, "-e", ".")
    done = run([str(bin_dir / "python"), "-c", "import go_board, littlego.paths; "
                "print(go_board.__file__); print(littlego.paths.REPO_ROOT)"], tmp_path)
    assert done.stdout.split() == [os.path.join(REPO_ROOT, "go_board.py"), REPO_ROOT]
    done = run([str(bin_dir / "littlego"), "match", "random", "greedy", "--games", "2",
                "--out", str(tmp_path / "runs")], tmp_path)
    assert done.returncode == 0, done.stderr
