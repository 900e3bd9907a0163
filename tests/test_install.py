"""The project as others install it (pyproject.toml, setup.py): `pip install .` and
`pip install -e .` into fresh venvs, then the agent, the book and the command from elsewhere.

Slow (each install builds in its own venv, setuptools fetched by pip's build isolation):
`make test-slow`.
"""

import os
import subprocess
import sys

import pytest

from littlego.paths import REPO_ROOT

EMPTY_BOARD_INPUT = "1\n" + "00000\n" * 10
AFTER_THE_CORNER_INPUT = "2\n" + "00000\n" * 5 + "10000\n" + "00000\n" * 4
NOT_BUILT = "the compiled solver is not built: run `make solver` (or `littlego build-solver`)"

pytestmark = pytest.mark.slow


def run(command, cwd, env=None):
    return subprocess.run(command, cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=600)


def fresh_venv(path):
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=120)
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


def test_pip_install_dot_gives_the_agent_its_book_the_solver_and_the_command(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, ".")
    # From a directory that is not the checkout: only the installed files answer.
    move, log = move_of(bin_dir, tmp_path / "first", EMPTY_BOARD_INPUT)
    assert move == "2,2"
    move, log = move_of(bin_dir, tmp_path / "book", AFTER_THE_CORNER_INPUT)
    assert '"source": "book"' in log and move == "2,2"
    done = run([str(bin_dir / "littlego"), "--help"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("usage: littlego COMMAND")
    (tmp_path / "input.txt").write_text(EMPTY_BOARD_INPUT)
    done = run([str(bin_dir / "littlego"), "solve", "input.txt", "--cpu", "0.01"], tmp_path)
    assert done.stderr == "solve: not proven within 0.01 CPU seconds\n"  # built and loaded


def test_without_a_compiler_it_installs_and_the_solver_says_how_to_build_it(tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, ".", env=dict(os.environ, CC="false"))
    (tmp_path / "input.txt").write_text(EMPTY_BOARD_INPUT)
    done = run([str(bin_dir / "littlego"), "solve", "input.txt"], tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "solve: {}\n".format(NOT_BUILT)
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
