"""Helpers shared by the referee tests: ASCII boards, course files, host.py runs, stub players,
and whether a process that is not ours has exited (`exited`).

Boards are written as 5 rows of `X` (Black), `O` (White) and `.`, spaces ignored.
"""

import importlib.util
import os
import subprocess
import sys
import time

import psutil

import go_board
from littlego.opponents import in_process
from littlego.paths import REPO_ROOT

HOST = os.path.join(REPO_ROOT, "host.py")
FIXTURES = os.path.join(REPO_ROOT, "tests", "fixtures")
RANDOM_PLAYER = os.path.join(FIXTURES, "random_player.py")
CHARS = {"X": 1, "O": 2, ".": 0}
EMPTY = """
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""

# White to move at ply 24: 0,2 captures the black stone at 0,1, which the exact search finds.
LAST_PLY_BEFORE = """
O X . X X
O O X X X
. O X X X
O O X X .
O . . . O
"""
LAST_PLY = """
O X . X X
O O X X X
. O X X X
O O X X .
O . X . O
"""
# White to move: Black has just taken a ko at 1,2; retaking at 1,1 would repeat KO_BEFORE.
KO_BEFORE = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""
KO_AFTER_BLACK_TOOK = """
    . X O . .
    X . X O .
    . X O . .
    . . . . .
    . . . . .
"""


def load_fixture(name):
    """Import tests/fixtures/NAME.py as a module (the fixtures are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(FIXTURES, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def board(text):
    """A 5x5 list board from ASCII."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    assert len(rows) == 5 and all(len(row) == 5 for row in rows), text
    return [[CHARS[char] for char in row] for row in rows]


def input_text(colour, previous, current):
    """input.txt exactly as the course writes it, from two ASCII boards."""
    rows = ["".join(str(point) for point in row) for text in (previous, current)
            for row in board(text)]
    return "\n".join([str(colour)] + rows)


def run_host(directory, args, input_txt=None, output=None):
    """Run host.py in `directory` after writing the files; `output` is bytes or None (absent).

    Returns (exit code, stdout, stderr, input.txt's bytes afterwards or None).
    """
    input_path = os.path.join(directory, "input.txt")
    output_path = os.path.join(directory, "output.txt")
    if input_txt is not None:
        with open(input_path, "wb") as handle:
            handle.write(input_txt.encode("ascii"))
    if os.path.exists(output_path):
        os.remove(output_path)
    if output is not None:
        with open(output_path, "wb") as handle:
            handle.write(output)
    done = subprocess.run([sys.executable, HOST] + list(args), cwd=str(directory),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    after = None
    if os.path.exists(input_path):
        with open(input_path, "rb") as handle:
            after = handle.read()
    return done.returncode, done.stdout.decode(), done.stderr.decode(), after


class ScriptedEngine(object):
    """A stub built-in player: plays the first legal point of `preferences`, else PASS."""

    def __init__(self, preferences):
        self.preferences = preferences

    def choose_move(self, position):
        for point in self.preferences:
            if position.is_legal(point):
                return point
        return go_board.PASS


class FirstLegal(ScriptedEngine):
    """Fills the board from the top-left corner."""

    def __init__(self, seed):
        ScriptedEngine.__init__(self, range(25))


class LastLegal(ScriptedEngine):
    """Fills the board from the bottom-right corner."""

    def __init__(self, seed):
        ScriptedEngine.__init__(self, range(24, -1, -1))


class Passer(object):
    def __init__(self, seed):
        pass

    def choose_move(self, position):
        return go_board.PASS


class Broken(object):
    """Answers with something that is not a move at all."""

    def __init__(self, seed):
        pass

    def choose_move(self, position):
        return "2,2"


# The stub engines as the players a match knows by name (the referee's `builtin_players`).
STUB_PLAYERS = in_process.factories({"first": FirstLegal, "last": LastLegal, "passer": Passer,
                                     "broken": Broken})


def exited(process, seconds):
    """Whether the psutil `process` (another's child) exits within `seconds`: gone, or a zombie.
    An orphan may be re-parented to this process (the referee's process tree makes it a child
    subreaper: littlego/referee/proctree.py), so a zombie is reaped here when it is ours."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                try:
                    os.waitpid(process.pid, 0)
                except ChildProcessError:
                    pass  # not ours: init reaps it
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False
