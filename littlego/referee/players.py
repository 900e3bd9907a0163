"""Players a game can be played with, all behind one small interface.

`make_player(spec, limits)` turns a player spec into a player:
- a built-in name ("random", "greedy", ...): `opponents.BUILTIN_PLAYERS[name](seed)`, whose
  `choose_move(go_board.Position)` returns a point 0..24 or go_board.PASS; run in-process;
- `cmd:<shell command>`: the course protocol, a fresh process per move in the player's own
  directory, which gets input.txt and loses output.txt before each call (see proctree);
- `gtp:<command>`: a GTP engine such as GNU Go (see gtp_player.py);
- `gtp-vary:<command>`: the same, its moves 2 to 1 + VARY_MOVES drawn by the game's seed among
  its own near-best choices (gtp_player.near_best), so that a deterministic engine's games differ.

Every player follows the protocol of player.py (`Player`, `Turn`, `MoveLimits`).
"""

import os
import time

import course_io
import go_board
from littlego.referee import judge, rules
from littlego.referee.protocol import END_TIME, Player, Turn, time_limit_failure

CMD_PREFIX = "cmd:"
GTP_PREFIX = "gtp:"
GTP_VARY_PREFIX = "gtp-vary:"
VARY_MOVES = 2  # Black's plies 3 and 5 (White's 4 and 6)
LOG_SUFFIX = ".log"


def go_board_position(game_input, ply):
    """The go_board.Position the built-in players read: exact boards, colour and ply."""
    def bits(board):
        return go_board.parse_board("\n".join("".join(str(p) for p in row) for row in board))

    black, white = bits(game_input.current)
    prev_black, prev_white = bits(game_input.previous)
    return go_board.Position(black, white, game_input.colour, ply, prev_black, prev_white)


class BuiltinPlayer(Player):
    """An in-process player from opponents.BUILTIN_PLAYERS; its limits are checked afterwards."""

    def __init__(self, name, factory, limits):
        Player.__init__(self, name, limits)
        self._factory = factory
        self._engine = None

    def start_game(self, directory, colour, seed):
        self._engine = self._factory(seed)

    def move(self, game_input, ply, history):
        position = go_board_position(game_input, ply)
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        point = self._engine.choose_move(position)
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - wall_start
        late = time_limit_failure(self._limits, cpu, wall)
        if late:
            return Turn(None, cpu, wall, END_TIME, late)
        if point == go_board.PASS:
            return Turn(rules.PASS, cpu, wall, None, None)
        if isinstance(point, int) and 0 <= point < go_board.NUM_POINTS:
            return Turn(course_io.format_output(divmod(point, rules.SIZE)), cpu, wall, None, None)
        return Turn(None, cpu, wall, judge.END_BAD_OUTPUT,
                    "choose_move returned {!r}".format(point))

    def end_game(self):
        self._engine = None


class CommandPlayer(Player):
    """A program run once per move, as the grader runs `python3 my_player3.py`."""

    def __init__(self, name, command, limits):
        Player.__init__(self, name, limits)
        self._command = command
        self._directory = None
        self._env = None
        self._log = None

    def start_game(self, directory, colour, seed):
        self._directory = directory
        self._log = directory.rstrip(os.sep) + LOG_SUFFIX
        self._env = dict(os.environ)
        self._env[course_io.SEED_ENV] = str(seed)

    def move(self, game_input, ply, history):
        from littlego.referee.proctree import run_limited
        output_path = os.path.join(self._directory, course_io.OUTPUT_FILE)
        if os.path.lexists(output_path):
            os.remove(output_path)
        judge.write_input(os.path.join(self._directory, course_io.INPUT_FILE), game_input)
        run = run_limited(self._command, self._directory, self._env, self._limits.cpu,
                          self._limits.wall, self._log)
        if run.over_limit:
            return Turn(None, run.cpu, run.wall, END_TIME,
                        time_limit_failure(self._limits, run.cpu, run.wall))
        try:
            line = course_io.read_output_line(output_path)
        except course_io.OutputError as error:
            return Turn(None, run.cpu, run.wall, judge.END_BAD_OUTPUT,
                        "{} (exit status {})".format(error, run.exit_status))
        return Turn(line, run.cpu, run.wall, None, None)


def load_builtin_players():
    """opponents.BUILTIN_PLAYERS, imported only when a built-in player is asked for."""
    try:
        from littlego.opponents import BUILTIN_PLAYERS
    except ImportError as error:
        raise ValueError("built-in players need the opponents package: {}".format(error))
    return BUILTIN_PLAYERS


def make_player(spec, limits, builtin_players=None):
    """A player from its spec; `builtin_players` replaces opponents.BUILTIN_PLAYERS (tests)."""
    if spec.startswith(CMD_PREFIX):
        return CommandPlayer(spec, spec[len(CMD_PREFIX):], limits)
    for prefix, vary_moves in ((GTP_PREFIX, 0), (GTP_VARY_PREFIX, VARY_MOVES)):
        if spec.startswith(prefix):
            from littlego.referee.gtp_player import GtpPlayer
            return GtpPlayer(spec, spec[len(prefix):], limits, vary_moves)
    factories = load_builtin_players() if builtin_players is None else builtin_players
    if spec not in factories:
        raise ValueError("unknown player {!r}: use one of {}, or cmd:COMMAND, gtp:COMMAND or "
                         "gtp-vary:COMMAND".format(spec, ", ".join(sorted(factories))))
    return BuiltinPlayer(spec, factories[spec], limits)
