"""A GTP engine (e.g. `gnugo --mode gtp --level 10`) as a player under our referee.

Start at `GtpPlayer.move`. The engine lives for one game in its own session: it is told
`boardsize 5`, `komi 2.5` and `clear_board`, each of its turns replays the moves it has not
seen with `play` and asks `genmove`. Only the engine's answer is trusted: our referee judges
it (legality, ko, the 24-ply end, stones-only scoring), so `resign`, an illegal point or an
unparsable answer loses like bad output, and the per-move limits are those of command players.

An engine seeded alike every game (GNU Go with a fixed seed) plays one game again and again
against a fixed opponent. With `vary_moves` (the `gtp-vary:` spec), its own moves 2 to
1 + vary_moves are drawn instead, seeded by the game's seed, among its own near-best choices:
the moves `top_moves_<colour>` lists with a value of at least VARY_VALUE_SHARE of the best's.
Its first move stays its own (GNU Go opens at the centre). Its own random seed is set from the
game's too (`set_random_seed`): left alone, GNU Go's moves and values can vary from run to run.
"""

import os
import random
import select
import subprocess
import time

import course_io
from littlego.referee import judge, rules
from littlego.referee.proctree import kill_tree, spawn, watch
from littlego.referee.protocol import END_RESIGN, END_TIME, Player, Turn, time_limit_failure

# GTP columns skip the letter I; rows count from the bottom, starting at 1.
COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
COLOUR_LETTERS = {rules.BLACK: "b", rules.WHITE: "w"}
COLOUR_WORDS = {rules.BLACK: "black", rules.WHITE: "white"}
GTP_PASS = "pass"
GTP_RESIGN = "resign"
QUIT_GRACE_SECONDS = 1.0
# A varied move is drawn among the listed moves worth at least this share of the best one.
VARY_VALUE_SHARE = 0.75
TOP_MOVES_COMMAND = "top_moves_{}"  # GNU Go's extension: "vertex value vertex value ..."
SEED_COMMAND = "set_random_seed {}"  # GNU Go's extension, a non-negative int
ENGINE_SEED_MODULUS = 2 ** 31
READ_CHUNK = 4096


class GtpError(Exception):
    """The engine answered `? message`, closed its output, or sent something unreadable."""


def to_vertex(action):
    if action == rules.PASS:
        return GTP_PASS
    row, col = action
    return "{}{}".format(COLUMN_LETTERS[col], rules.SIZE - row)


def from_vertex(vertex):
    """PASS or (i, j) from a GTP vertex such as `C3`; raises GtpError if it is none."""
    text = vertex.strip().upper()
    if text == GTP_PASS.upper():
        return rules.PASS
    try:
        col = COLUMN_LETTERS.index(text[0])
        row = rules.SIZE - int(text[1:])
    except (ValueError, IndexError):
        raise GtpError("not a vertex: {!r}".format(vertex))
    return row, col


class GtpPlayer(Player):
    """One engine process per game; a failure to set it up aborts the match (GtpError)."""

    def __init__(self, name, command, limits, vary_moves=0):
        Player.__init__(self, name, limits)
        self._command = command
        self._vary_moves = vary_moves
        self._rng = None
        self._own_moves = 0
        self._process = None
        self._meter = None
        self._seen = 0  # how many moves of the game the engine has been told
        self._buffer = b""  # engine output not yet consumed as an answer

    def start_game(self, directory, colour, seed):
        with open(directory.rstrip(os.sep) + ".log", "ab") as log:
            self._process, self._meter = spawn(self._command, directory, dict(os.environ),
                                               log, stdin=subprocess.PIPE,
                                               stdout=subprocess.PIPE)
        self._seen = 0
        self._buffer = b""
        self._rng = random.Random(seed)
        self._own_moves = 0
        started = time.perf_counter()
        try:
            seeding = (SEED_COMMAND.format(seed % ENGINE_SEED_MODULUS),) \
                if self._vary_moves else ()
            for command in ("boardsize {}".format(rules.SIZE), "komi {}".format(rules.KOMI),
                            "clear_board") + seeding:
                self._ask(command, self._meter.sample(), started)
        except _OverLimit:
            raise GtpError("{!r} did not answer {!r} in time".format(self._command, command))

    def move(self, game_input, ply, history):
        cpu_before = self._meter.sample()
        started = time.perf_counter()
        try:
            for colour, action in history[self._seen:]:
                self._ask("play {} {}".format(COLOUR_LETTERS[colour], to_vertex(action)),
                          cpu_before, started)
            self._seen = len(history)
            answer = self._varied_move(game_input.colour, cpu_before, started)
            if answer is None:
                answer = self._ask("genmove " + COLOUR_LETTERS[game_input.colour], cpu_before,
                                   started)
        except GtpError as error:
            return self._turn(None, cpu_before, started, judge.END_BAD_OUTPUT, str(error))
        except _OverLimit:
            return self._turn(None, cpu_before, started, END_TIME, None)
        self._seen += 1  # the engine played its own move on its board
        self._own_moves += 1
        if answer.lower() == GTP_RESIGN:
            return self._turn(None, cpu_before, started, END_RESIGN, "the engine resigned")
        try:
            action = from_vertex(answer)
        except GtpError as error:
            return self._turn(None, cpu_before, started, judge.END_BAD_OUTPUT, str(error))
        return self._turn(course_io.format_output(action), cpu_before, started, None, None)

    def _varied_move(self, colour, cpu_before, started):
        """A vertex drawn among the engine's near-best moves and played on its board, or None
        (not a varied move, or the engine lists none)."""
        if not 1 <= self._own_moves <= self._vary_moves:
            return None
        listed = self._ask(TOP_MOVES_COMMAND.format(COLOUR_WORDS[colour]), cpu_before,
                           started).split()
        choices = near_best(list(zip(listed[::2], map(float, listed[1::2]))))
        if not choices:
            return None
        vertex = self._rng.choice(choices)
        self._ask("play {} {}".format(COLOUR_LETTERS[colour], vertex), cpu_before, started)
        return vertex

    def _turn(self, line, cpu_before, started, failure, detail):
        cpu = self._meter.sample() - cpu_before
        wall = time.perf_counter() - started
        if failure == END_TIME:
            detail = time_limit_failure(self._limits, cpu, wall)
        return Turn(line, cpu, wall, failure, detail)

    def _ask(self, command, cpu_before, started):
        """Send one command and return the text of its `=` answer.

        The limits are the move's: CPU since `cpu_before`, wall time since `started`.
        """
        try:
            self._process.stdin.write((command + "\n").encode("ascii"))
            self._process.stdin.flush()
        except OSError as error:
            raise GtpError("cannot send {!r} to the engine: {}".format(command, error))
        wall_left = self._limits.wall - (time.perf_counter() - started)
        if watch(self._meter, self._answer_ready, self._limits.cpu, wall_left, cpu_before):
            raise _OverLimit()
        answer, self._buffer = self._buffer.split(b"\n\n", 1)
        text = answer.decode("utf-8", "replace").strip()
        if not text.startswith("="):
            raise GtpError("engine answered {!r} to {!r}".format(text, command))
        return text[1:].strip()

    def _answer_ready(self):
        output = self._process.stdout.fileno()
        while select.select([output], [], [], 0)[0]:
            chunk = os.read(output, READ_CHUNK)
            if not chunk:
                raise GtpError("the engine closed its output")
            self._buffer += chunk.replace(b"\r", b"")
        return b"\n\n" in self._buffer

    def end_game(self):
        if self._process is None:
            return
        try:
            self._process.stdin.write(b"quit\n")
            self._process.stdin.flush()
            self._process.wait(QUIT_GRACE_SECONDS)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass  # it is killed just below either way
        kill_tree(self._process, self._meter)
        self._process.wait()
        self._process.stdin.close()
        self._process.stdout.close()
        self._process = None


def near_best(listed):
    """The vertices of `listed` ([(vertex, value)], best first) worth at least VARY_VALUE_SHARE
    of the best's value."""
    if not listed:
        return []
    best = listed[0][1]
    return [vertex for vertex, value in listed if value >= VARY_VALUE_SHARE * best]


class _OverLimit(Exception):
    """The engine passed the move's CPU or wall limit; the game loop makes that a loss."""
