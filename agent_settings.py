"""The agent's settings: the LITTLEGO_* environment variables, their defaults and ranges, read once.

Start at `Settings`: the value a caller builds once at start-up from the environment
(`Settings(os.environ)`) and passes to every move; nothing changes it afterwards (`replace`
gives another) and it opens no file (the book it selects is agent.read_book's). A bad value is
a ValueError naming the variable and what it allows, which every program turns into one line on
stderr and exit 2. The settings (see the README's table):
- LITTLEGO_MOVE_CPU, LITTLEGO_GAME_CPU: CPU seconds per move and per game, the whole process
  tree's (DEFAULT_MOVE_CPU, DEFAULT_GAME_CPU: the tournament's);
- LITTLEGO_WORKERS: search processes (0, the default: one per usable core, at most MAX_WORKERS);
- LITTLEGO_SEED: seeds the search (`seed_setting`; the referee gives each game's players one);
- LITTLEGO_EXPLORATION: UCT's exploration constant (DEFAULT_EXPLORATION), for tuning;
- LITTLEGO_BOOK, LITTLEGO_SOLVER: 0 turns the book, the exact search off (to measure their
  worth); LITTLEGO_BOOK_PLIES: the book answers through this ply only (a strong opponent that
  finds the first only-moves and then plays on its own: the ladder's deep-* rungs);
- LITTLEGO_KNOWLEDGE: 1 turns the playout knowledge on (DEFAULT_KNOWLEDGE: off);
- LITTLEGO_LEAF_SOLVE_PLIES: K, the search's nodes at most K plies from the end are proven
  exactly (mcts.go_game.LeafSolver); 0, the default, turns it off.
Tools import this module for a default or the seed without loading the search: it imports
nothing of the agent. Standard library only, Python 3.7: it is on the grader's per-move path.
"""

import os

from course_io import SEED_ENV
from go_board import MAX_PLY

DEFAULT_MOVE_CPU = 8.5
DEFAULT_GAME_CPU = 55.0
# UCT's exploration constant for win/loss values: chosen by self-play matches against 0.3 and
# 0.9 (docs/strength.md, "Kept then"), so no opponent of the ladder tuned it.
DEFAULT_EXPLORATION = 0.5
# Uniform playouts unless asked for the knowledge (mcts/playout.py): uniform playouts are more
# than twice as fast (docs/benchmarks.md), and at the default budget the extra playouts outweigh
# the knowledge (the self-play match that decided it: docs/strength.md).
DEFAULT_KNOWLEDGE = False

# Every setting is an environment variable whose name starts so (see Settings).
SETTINGS_PREFIX = "LITTLEGO_"
# Settings outside these ranges (NaN and infinities included) are refused: (low, high).
MOVE_CPU_RANGE = (0.01, 3600.0)
GAME_CPU_RANGE = (0.01, 36000.0)
# Search processes at most (root parallelism gains little past the grader's few cores).
MAX_WORKERS = 4
WORKERS_RANGE = (0, MAX_WORKERS)  # 0, the default: one per usable core (`usable_cores`)
SEED_RANGE = (0, float("inf"))
# A switch (LITTLEGO_BOOK, ...) is 0 or 1, nothing else.
SWITCH_VALUES = {"0": False, "1": True}
EXPLORATION_RANGE = (0.0, 100.0)
LEAF_SOLVE_PLIES_RANGE = (0, MAX_PLY)
BOOK_PLIES_RANGE = (0, MAX_PLY)
# Search nodes this many plies from the end or fewer get a capped exact proof; 0: none.
DEFAULT_LEAF_SOLVE_PLIES = 0


def _flag(environ, name, default):
    """The LITTLEGO_ switch `name`: "0" is off, "1" on, `default` when unset; ValueError naming
    the variable and what it allows for anything else."""
    text = environ.get(name)
    if text is None:
        return default
    if text not in SWITCH_VALUES:
        raise ValueError("{}={!r}: allowed are 0 (off) and 1 (on)".format(name, text))
    return SWITCH_VALUES[text]


def _setting(environ, name, default, kind, bounds):
    """The LITTLEGO_ setting `name` as a `kind` (int or float) within `bounds`, `default` when
    unset; ValueError naming the variable and what it allows."""
    text = environ.get(name)
    if text is None:
        return default
    low, high = bounds
    allowed = "{} {}".format("a whole number" if kind is int else "a number",
                             "from {:g}".format(low) if high == float("inf")
                             else "in {:g}..{:g}".format(low, high))
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise ValueError("{}={!r}: allowed is {}".format(name, text, allowed))
    return value


def seed_setting(environ):
    """LITTLEGO_SEED (SEED_ENV), the seed our referee gives a game's players, as a whole number,
    None when unset; ValueError naming the variable and what it allows."""
    return _setting(environ, SEED_ENV, None, int, SEED_RANGE)


class Settings(object):
    """The LITTLEGO_* settings from `environ`, read once at start-up: a value that nothing
    changes afterwards (`replace` gives another) and that opens no file (the book it selects is
    `read_book`'s, which the caller opens once and passes along)."""

    def __init__(self, environ):
        seed = seed_setting(environ)
        self.__dict__.update(
            move_cpu=_setting(environ, "LITTLEGO_MOVE_CPU", DEFAULT_MOVE_CPU, float,
                              MOVE_CPU_RANGE),
            game_cpu=_setting(environ, "LITTLEGO_GAME_CPU", DEFAULT_GAME_CPU, float,
                              GAME_CPU_RANGE),
            workers=_setting(environ, "LITTLEGO_WORKERS", 0, int, WORKERS_RANGE) or usable_cores(),
            seed=int.from_bytes(os.urandom(4), "little") if seed is None else seed,
            use_book=_flag(environ, "LITTLEGO_BOOK", True),
            book_plies=_setting(environ, "LITTLEGO_BOOK_PLIES", MAX_PLY, int, BOOK_PLIES_RANGE),
            use_solver=_flag(environ, "LITTLEGO_SOLVER", True),
            knowledge=_flag(environ, "LITTLEGO_KNOWLEDGE", DEFAULT_KNOWLEDGE),
            exploration=_setting(environ, "LITTLEGO_EXPLORATION", DEFAULT_EXPLORATION, float,
                                 EXPLORATION_RANGE),
            leaf_solve_plies=_setting(environ, "LITTLEGO_LEAF_SOLVE_PLIES",
                                      DEFAULT_LEAF_SOLVE_PLIES, int, LEAF_SOLVE_PLIES_RANGE))

    def __setattr__(self, name, value):
        raise AttributeError("settings do not change after start-up (Settings.replace gives "
                             "new ones): {}".format(name))

    def replace(self, **changes):
        """New settings, these with `changes` (names of settings, such as seed=7)."""
        unknown = sorted(set(changes) - set(vars(self)))
        if unknown:
            raise TypeError("no such setting: {}".format(", ".join(unknown)))
        other = object.__new__(Settings)
        other.__dict__.update(vars(self), **changes)
        return other


def usable_cores():
    """Cores this process may run on (CPU affinity), capped at MAX_WORKERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))
