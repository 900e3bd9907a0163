"""The agent as a GTP engine (Go Text Protocol, version 2): `littlego gtp`.

Reading guide: `serve` reads commands from stdin and writes answers to stdout; start at
`GtpEngine.handle`, which answers one command line, and at `GtpEngine.genmove`, which runs the
per-move program's own agent (`agent.decide`: book, exact search, MCTS) on the same CPU
budgets (`agent.move_budget`: per move, and per game from a ledger kept in memory).

The rules are Little-Go's (docs/rules.md), whatever a controller expects of 19x19 Go: the
board is 5x5 (`boardsize` accepts 5 only), komi is 2.5, the game ends after ply 24 or on two
passes in a row, simple ko, no suicide, and `final_score` counts stones only. Moves alternate
from Black: `play` or `genmove` for the colour not to move is an error. Once the game is over,
`genmove` answers `pass` and `play` is accepted without effect (`after_the_end`): controllers
that know neither end, such as gomill's ringmaster, play on until both pass, and `final_score`
stays the Little-Go result. Every error is a GTP failure (`? message`), never a crash.

Kept between moves, since this is one process: the exact solver's transposition table (its
entries hold for any game; it is emptied by `clear_board` or when it grows past
MAX_KEPT_SOLVER_ENTRIES) and the game's CPU ledger. The
MCTS tree is not kept: each move's search runs in forked workers, which leave nothing behind.
Each genmove logs the decision (`agent.decision_record`) as one JSON line on stderr, and
`littlego-decision` answers it, so a GUI or our browser board can show what the agent thought.
`lz-analyze` (Leela Zero's analysis command, as Sabaki and Lizzie send it) answers `=` and then
streams `info move ...` lines (`info_text`; the analysis itself is lz_analyze.py) until the
next command arrives, which `CommandReader.waiting` notices; an empty line ends the stream.
The `info` blocks keep Leela Zero's fields only (GUIs parse them strictly), so a position proven
lost with a known try says so on stderr, which GUIs show in their console: one line
(`try_note`, the words agent.try_details') once the analysis knows it, the try listed first.
Standard library only, Python 3.7 syntax: it runs wherever the per-move program runs.
"""

import argparse
import codecs
import io
import json
import os
import select
import sys
import time

import agent
import go_board
import littlego
from go_board import BLACK, PASS, SIZE, WHITE
from littlego.gtp import lz_analyze

# The words after a Python that start this engine (`python -m littlego gtp`, for players and GUIs).
COMMAND_WORDS = ("-m", "littlego", "gtp")
PROTOCOL_VERSION = "2"
ENGINE_NAME = "Little-Go"
# GTP columns skip the letter I; rows count from the bottom, starting at 1.
COLUMN_LETTERS = "ABCDEFGHJ"[:SIZE]
GTP_PASS = "pass"
COLOUR_WORDS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
# Each new game searches with fresh seeds, still reproducible under LITTLEGO_SEED.
GAME_SEED_STRIDE = 1000
# The kept solver table is emptied before a move once it holds this many entries, which bounds
# the engine's memory (a few hundred MB at most) over a long session; one game's proofs stay
# far below it, so within a game nothing proven is thrown away.
MAX_KEPT_SOLVER_ENTRIES = 1000000
# lz-analyze: its interval is in centiseconds; the analysis works in slices at most this long, so
# that a new command stops it promptly.
CENTISECONDS = 100.0
DEFAULT_ANALYZE_INTERVAL = 100
ANALYSIS_SLICE_SECONDS = 0.05
# Winrates and priors are written in hundredths of a percent.
LZ_SCALE = 10000
# lz-analyze's stderr line for a position proven lost with a known try.
TRY_NOTE = "lz-analyze, ply {ply}, {colour} to move: {summary} (best try {move})"
READ_CHUNK = 4096


class GtpFailure(Exception):
    """A command that fails: the message is the text after `?`."""


def vertex_text(move):
    """`C3` for a point, `pass` for PASS."""
    if move == PASS:
        return GTP_PASS
    row, col = go_board.to_coord(move)
    return "{}{}".format(COLUMN_LETTERS[col], SIZE - row)


def parse_vertex(text):
    """A point or PASS from a GTP vertex; GtpFailure if it is not a vertex of the 5x5 board."""
    word = text.strip().upper()
    if word == GTP_PASS.upper():
        return PASS
    try:
        col = COLUMN_LETTERS.index(word[0])
        row = SIZE - int(word[1:])
        return go_board.from_coord(row, col)
    except (ValueError, IndexError):
        raise GtpFailure("illegal move: {} is not a point of the {}x{} board".format(
            text, SIZE, SIZE))


def parse_colour(text):
    try:
        return COLOUR_WORDS[text.lower()]
    except KeyError:
        raise GtpFailure("syntax error: {!r} is not a colour".format(text))


def score_text(position):
    """`B+0.5` or `W+2.5`: the stones-only result with komi, as GTP and SGF write it."""
    score = position.score()
    return "{}+{:g}".format("B" if score > 0 else "W", abs(score))


class Ply(object):
    """One action of the game: the position before it, the stones it captured, its CPU."""

    __slots__ = ("before", "captured", "cpu")

    def __init__(self, before, captured, cpu):
        self.before = before
        self.captured = captured
        self.cpu = cpu


class GtpEngine(object):
    """A game in memory, the agent's settings, and the state kept between moves."""

    def __init__(self, settings):
        self.settings = settings
        self.base_seed = settings.seed
        self.games = 0
        self.commands = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: ENGINE_NAME,
            "version": lambda args: littlego.__version__,
            "known_command": self.known_command,
            "list_commands": lambda args: "\n".join(sorted(self.commands)),
            "boardsize": self.boardsize,
            "clear_board": lambda args: self.new_game(),
            "komi": self.komi,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "showboard": lambda args: "\n" + self.board_text(),
            "final_score": lambda args: score_text(self.position),
            "littlego-decision": self.last_decision,
            "lz-analyze": self.lz_analyze,
            "quit": lambda args: "",
        }
        self.new_game()

    def new_game(self):
        self.position = go_board.Position()
        self.plies = []
        self.after_end = []  # moves a controller sent once the game was over (not played)
        self.decision = None
        self.solver_table = {}
        self.settings.seed = self.base_seed + GAME_SEED_STRIDE * self.games
        self.games += 1
        return ""

    def handle(self, line):
        """`(answer text, quit?, stream)` for one command line: the text with its `=`/`?`
        framing but not the blank line; `stream` is None or, for lz-analyze, the
        `AnalysisStream` that goes on after the `=` line."""
        words = line.split()
        command_id = ""
        if words and words[0].isdigit():
            command_id = words.pop(0)
        if not words:
            return None
        name, args = words[0], words[1:]
        handler = self.commands.get(name)
        try:
            if handler is None:
                raise GtpFailure("unknown command")
            answer = handler(args)
            if isinstance(answer, AnalysisStream):
                return "={}".format(command_id), False, answer
            return "={} {}".format(command_id, answer).rstrip(" "), name == "quit", None
        except GtpFailure as failure:
            return "?{} {}".format(command_id, failure), False, None

    def known_command(self, args):
        return "true" if args and args[0] in self.commands else "false"

    def boardsize(self, args):
        if args != [str(SIZE)]:
            raise GtpFailure("unacceptable size")
        return self.new_game()

    def komi(self, args):
        try:
            value = float(args[0])
        except (IndexError, ValueError):
            raise GtpFailure("syntax error")
        if value != go_board.KOMI:
            raise GtpFailure("Little-Go is played with komi {:g}".format(go_board.KOMI))
        return ""

    def check_turn(self, colour):
        if colour != self.position.to_move:
            raise GtpFailure("illegal move: it is {}'s turn".format(
                go_board.COLOUR_NAMES[self.position.to_move]))

    def record(self, move, cpu):
        """Play `move` (legal) on the game's position and remember how to undo it."""
        before = self.position
        self.position = before.play(move)
        opponent = go_board.other(before.to_move)
        captured = go_board.popcount(before.stones(opponent)) - go_board.popcount(
            self.position.stones(opponent))
        self.plies.append(Ply(before, captured, cpu))

    def play(self, args):
        if len(args) != 2:
            raise GtpFailure("syntax error")
        colour = parse_colour(args[0])
        move = parse_vertex(args[1])
        if self.position.is_over:
            return self.after_the_end(move)
        self.check_turn(colour)
        try:
            self.record(move, 0.0)
        except go_board.IllegalMove as error:
            raise GtpFailure("illegal move: " + error.reason)
        self.decision = None
        return ""

    def genmove(self, args):
        if len(args) != 1:
            raise GtpFailure("syntax error")
        colour = parse_colour(args[0])
        if self.position.is_over:
            self.after_the_end(PASS)
            return GTP_PASS
        self.check_turn(colour)
        spent = sum(ply.cpu for ply in self.plies)
        budget = agent.move_budget(self.position.ply, spent, self.settings)
        if len(self.solver_table) > MAX_KEPT_SOLVER_ENTRIES:
            self.solver_table.clear()
        start = agent.tree_cpu_seconds()
        decision = agent.decide(self.position, start + budget, self.settings,
                                self.solver_table)
        used = agent.tree_cpu_seconds() - start
        self.decision = agent.decision_record(decision, self.position, used, budget)
        agent.log_decision(self.decision)
        self.record(decision.move, used)
        return vertex_text(decision.move)

    def after_the_end(self, move):
        """A move once the game is over: kept for `undo` only; the board and score stay."""
        self.after_end.append(move)
        self.decision = None
        return ""

    def undo(self, args):
        if self.after_end:
            self.after_end.pop()
            return ""
        if not self.plies:
            raise GtpFailure("cannot undo")
        self.position = self.plies.pop().before
        self.decision = None
        return ""

    def lz_analyze(self, args):
        """`lz-analyze [colour] [INTERVAL]`: the analysis of the position for the side to move
        (a colour, if given, must be that side), a line every INTERVAL centiseconds."""
        if args and args[0].lower() in COLOUR_WORDS:
            if parse_colour(args[0]) != self.position.to_move:
                raise GtpFailure("cannot analyze for the side not to move")
            args = args[1:]
        try:
            interval = int(args[0]) if args else DEFAULT_ANALYZE_INTERVAL
        except ValueError:
            raise GtpFailure("syntax error")
        if interval <= 0 or len(args) > 1:
            raise GtpFailure("syntax error")
        if len(self.solver_table) > MAX_KEPT_SOLVER_ENTRIES:
            self.solver_table.clear()
        analysis = lz_analyze.Analysis(self.position, self.settings, self.solver_table)
        return AnalysisStream(analysis, interval / CENTISECONDS)

    def last_decision(self, args):
        """The decision record of the last genmove as one JSON line, `{}` after any other move."""
        return json.dumps(self.decision or {}, sort_keys=True)

    def board_text(self):
        """The board with GTP coordinates, then the ply, the captures and the score."""
        letters = "   " + " ".join(COLUMN_LETTERS)
        lines = [letters]
        for row, text in enumerate(go_board.board_to_text(self.position.black,
                                                          self.position.white).splitlines()):
            lines.append("{:2} {} {}".format(SIZE - row, text, SIZE - row))
        lines.append(letters)
        captured = {BLACK: 0, WHITE: 0}
        for ply in self.plies:
            captured[ply.before.to_move] += ply.captured
        state = "game over" if self.position.is_over else "{} to move".format(
            go_board.COLOUR_NAMES[self.position.to_move])
        if self.after_end:
            state += " ({} moves after the end not played)".format(len(self.after_end))
        lines.append("ply {} of {}, {}; captured by Black {}, by White {}; score {}".format(
            len(self.plies), go_board.MAX_PLY, state, captured[BLACK], captured[WHITE],
            score_text(self.position)))
        return "\n".join(lines)


def info_text(candidates, moves):
    """One lz-analyze line: an `info` block per candidate, best first; winrate and prior in
    0..10000 for the side to move (the prior is uniform: the search has no policy). `moves` is
    the number of legal moves."""
    blocks = []
    for order, candidate in enumerate(candidates):
        blocks.append("info move {} visits {} winrate {} prior {} order {} pv {}".format(
            vertex_text(candidate.move), candidate.visits,
            int(round(candidate.value * LZ_SCALE)), LZ_SCALE // max(moves, 1), order,
            " ".join(vertex_text(move) for move in candidate.pv)))
    return " ".join(blocks)


def try_note(position, best_try):
    """The line that says what the known try `(move, opponent_wins)` of the lost `position`
    asks of the opponent, in agent.try_details' words."""
    move, opponent_wins = best_try
    return TRY_NOTE.format(ply=position.ply, colour=go_board.COLOUR_NAMES[position.to_move],
                           summary=agent.try_details(position, move, opponent_wins)["summary"],
                           move=vertex_text(move))


class AnalysisStream(object):
    """What lz-analyze streams after its `=` line: `lines(waiting)` yields an info line every
    `interval` seconds while the analysis works in short slices, and ends as soon as
    `waiting(seconds)` says a command has arrived. Once the analysis knows the position's try,
    its `try_note` goes to stderr (agent.log), once."""

    def __init__(self, analysis, interval):
        self.analysis = analysis
        self.interval = interval
        self.told_try = False

    def lines(self, waiting):
        while True:
            due = time.monotonic() + self.interval
            left = self.interval
            while left > 0:
                working = self.analysis.step(min(left, ANALYSIS_SLICE_SECONDS))
                if self.analysis.best_try is not None and not self.told_try:
                    agent.log(try_note(self.analysis.position, self.analysis.best_try))
                    sys.stderr.flush()  # Python before 3.9 buffers a redirected stderr
                    self.told_try = True
                if working:
                    if waiting(0):
                        return
                elif waiting(left):  # nothing left to think about: just wait
                    return
                left = due - time.monotonic()
            line = info_text(self.analysis.candidates(), len(self.analysis.moves))
            if line:
                yield line


class CommandReader(object):
    """Command lines from the controller. `waiting(seconds)` says, within that time, whether a
    whole line (or the end of input) has come; it reads the file descriptor itself, since a
    buffered text stream would hide a waiting command from select. A stream without one (a
    test's StringIO) is read a line at a time, so there a command is always waiting."""

    def __init__(self, stream):
        self.stream = stream
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.buffer = ""
        self.ended = False

    def _read(self, timeout):
        if self.fd is None:
            line = self.stream.readline()
            self.buffer += line
            self.ended = not line
        elif select.select([self.fd], [], [], timeout)[0]:
            chunk = os.read(self.fd, READ_CHUNK)
            self.buffer += self.decoder.decode(chunk, final=not chunk)
            self.ended = not chunk

    def waiting(self, seconds):
        if "\n" not in self.buffer and not self.ended:
            self._read(seconds)
        return "\n" in self.buffer or self.ended

    def __iter__(self):
        while True:
            while "\n" not in self.buffer and not self.ended:
                self._read(None)
            if "\n" in self.buffer:
                line, self.buffer = self.buffer.split("\n", 1)
            elif self.buffer:
                line, self.buffer = self.buffer, ""
            else:
                return
            yield line


def serve(engine, read=sys.stdin, write=sys.stdout):
    """Answer commands until `quit` or the end of input."""
    commands = CommandReader(read)
    for raw in commands:
        line = raw.split("#", 1)[0].replace("\t", " ").strip()
        answer = engine.handle(line)
        if answer is None:
            continue
        text, done, stream = answer
        if stream is None:
            write.write(text + "\n\n")
        else:
            write.write(text + "\n")
            write.flush()
            for info in stream.lines(commands.waiting):
                write.write(info + "\n")
                write.flush()
            write.write("\n")
        write.flush()
        if done:
            return


def main(argv=None):
    """`littlego gtp`: a GTP engine on stdin and stdout."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    try:
        settings = agent.Settings(os.environ)
    except ValueError as error:
        agent.log("bad LITTLEGO_* setting: {}".format(error))
        return 2
    serve(GtpEngine(settings))
    return 0
