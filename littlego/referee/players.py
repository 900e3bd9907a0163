"""Players a game can be played with, all behind one small interface (protocol.py's `Player`).

`make_player(spec, limits, builtin_players)` turns a player spec into a player:
- `cmd:<shell command>`: the course protocol, a fresh process per move in the player's own
  directory, which gets input.txt and loses output.txt before each call (see proctree);
- `gtp:<command>`: a GTP engine such as GNU Go (see gtp_player.py);
- `gtp-vary:<command>`: the same, its moves 2 to 1 + VARY_MOVES drawn by the game's seed among
  its own near-best choices (gtp_player.near_best), so that a deterministic engine's games differ;
- a built-in name ("random", "alphabeta4", ...): `builtin_players[name](name, limits)`, a
  Player the caller brings (the opponents', littlego/opponents/in_process.py, which host.py,
  the board and the ladder pass): the referee imports no player of its own.
"""

import os

import course_io
from littlego.referee import judge
from littlego.referee.protocol import END_TIME, Player, Turn, time_limit_failure

CMD_PREFIX = "cmd:"
GTP_PREFIX = "gtp:"
GTP_VARY_PREFIX = "gtp-vary:"
VARY_MOVES = 2  # Black's plies 3 and 5 (White's 4 and 6)
LOG_SUFFIX = ".log"


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


def make_player(spec, limits, builtin_players=None):
    """A player from its spec (see the module docstring); `builtin_players`: {name:
    factory(name, limits) -> Player}, none when not given."""
    if spec.startswith(CMD_PREFIX):
        return CommandPlayer(spec, spec[len(CMD_PREFIX):], limits)
    for prefix, vary_moves in ((GTP_PREFIX, 0), (GTP_VARY_PREFIX, VARY_MOVES)):
        if spec.startswith(prefix):
            from littlego.referee.gtp_player import GtpPlayer
            return GtpPlayer(spec, spec[len(prefix):], limits, vary_moves)
    known = builtin_players or {}
    if spec not in known:
        raise ValueError("unknown player {!r}: use {}cmd:COMMAND, gtp:COMMAND or "
                         "gtp-vary:COMMAND".format(spec, "".join(
                             name + ", " for name in sorted(known))))
    return known[spec](spec, limits)
