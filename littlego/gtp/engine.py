"""The agent as a GTP engine (Go Text Protocol, version 2): `littlego gtp`.

Reading guide: `serve` reads commands from stdin and writes answers to stdout; start at
`GtpEngine.handle`, which answers one command line, and at `GtpEngine.genmove`, which runs the
per-move program's own agent (`agent.decide`: book, exact search, MCTS) on the same CPU
budgets, got the same way (`agent.plan_move`: per move, and per game from each colour's ledger
kept in memory; the move's deadline counted from when genmove arrived), capped by the
controller's clock when it sets one (`time_settings`, `kgs-time_settings`, `time_left`:
clock.py), never raised by it.

The rules are Little-Go's (docs/rules.md), whatever a controller expects of 19x19 Go: the
board is 5x5 (`boardsize` accepts 5 only), komi is 2.5, the game ends after ply 24 or on two
passes in a row, simple ko, no suicide, and `final_score` counts stones only (so
`final_status_list` calls every stone alive). `play` and `genmove` take any colour, as GNU Go
does: GUIs set up positions by playing one colour several times, and the side to move follows
the board (`with_mover`). `loadsgf FILE [N]` and `printsgf [FILE]` read and write SGF
(sgf_game.py); a game loaded from setup stones starts at ply 1. Once the game is over,
`genmove` answers `pass` and `play` is accepted without effect (`after_the_end`): controllers
that know neither end, such as gomill's ringmaster, play on until both pass, and `final_score`
stays the Little-Go result. Every error is a GTP failure (`? message`), never a crash.

Kept between moves, since this is one process: the exact solver's transposition table (its
entries hold for any game; it is emptied by `clear_board` or when it grows past
MAX_KEPT_SOLVER_ENTRIES) and the game's CPU ledger. The
MCTS tree is not kept: each move's search runs in forked workers, which leave nothing behind.
Each genmove logs the decision (`decision_log.decision_record`) as one JSON line on stderr, and
`littlego-decision` answers it, so a GUI or our browser board can show what the agent thought.
`lz-analyze` (Leela Zero's analysis command in every argument form KataGo documents, as Sabaki,
Lizzie and LizGoban send it: `AnalyzeRequest`) answers `=` and then streams `info move ...`
lines (`info_text`) until the next command or a bare newline arrives, which
`CommandReader.waiting` notices between slices; an empty line ends the stream. The analysis is
the project's one analysis (littlego/analysis/live.py: the stored value table, the book's
proofs, the exact search, an estimate), the same the JSON analysis engine, the browser board
and `littlego review` show, worked in slices of wall time on an exact search kept for the
session (`exact_engine`). Every legal move is listed, best first: ranked by value wherever the
values are proven (`maxmoves` cuts the list; `minmoves` is accepted and has nothing to add).
The `info` blocks keep Leela Zero's fields only (GUIs parse them strictly), so a position proven
lost with a known try (the move the agent would play: the one leaving the opponent the fewest
winning replies) says so on stderr, which GUIs show in their console: one line (`try_note`,
the words decision_log.try_details') once the analysis knows it.
`kata-analyze` takes the same arguments and streams KataGo's `info` blocks (`kata_info_text`):
winrate and prior in 0..1, and each move's score for the side to move after it, `scoreLead`
(and `scoreMean`, its older name), the exact final margin where it is proven with `scoreStdev
0`, else the analysis's estimate (the stones as they stand, within the move's proven result)
with `scoreStdev` the plies left after the move: never 0, so a GUI or a script tells the two
apart. `visits` counts the estimate's simulations and a million for each of a proven result
and an exact margin (live.PROVEN_VISITS). `ownership true` adds KataGo's `ownership` block: the
board at the end of the position's best line, +1 the side to move's stone, -1 the other's.
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
import agent_settings
import clocks
import decision_log
import go_board
import littlego
from go_board import BLACK, PASS, SIZE, WHITE
from littlego.analysis import exact, live, vertices
from littlego.analysis.vertices import (COLUMN_LETTERS, GTP_PASS, result_text, vertex_text,
                                        with_mover)
from littlego.gtp import sgf_game
from littlego.gtp.clock import Clock, ClockError

# The words after a Python that start this engine (`python -m littlego gtp`, for players and GUIs).
COMMAND_WORDS = ("-m", "littlego", "gtp")
PROTOCOL_VERSION = "2"
ENGINE_NAME = "Little-Go"
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
# The analysis commands: Leela Zero's (win rates) and KataGo's (win rates and scores).
LZ_ANALYZE, KATA_ANALYZE = "lz-analyze", "kata-analyze"
# An analysis command's stderr line for a position proven lost with a known try.
TRY_NOTE = "{command}, ply {ply}, {colour} to move: {summary} (best try {move})"
READ_CHUNK = 4096
# loadsgf reads at most this much of a file: a 24-ply game is a few hundred bytes.
MAX_SGF_BYTES = 1 << 20
# final_status_list: Little-Go counts stones as they stand, so every stone is alive.
STATUSES = ("alive", "dead", "seki")
# lz-analyze's key-value pairs (KataGo's GTP extensions document); avoid and allow are refused.
ANALYZE_KEYS = ("interval", "minmoves", "maxmoves")
REFUSED_ANALYZE_KEYS = ("avoid", "allow")
# kata-analyze's switch: the final board of the position's best line after the info blocks.
OWNERSHIP_KEY, SWITCH_WORDS = "ownership", {"true": True, "false": False}


class GtpFailure(Exception):
    """A command that fails: the message is the text after `?`."""


def parse_vertex(text):
    """A point or PASS from a GTP vertex; GtpFailure if it is not a vertex of the 5x5 board."""
    try:
        return vertices.parse_vertex(text)
    except vertices.NotAVertex as error:
        raise GtpFailure("illegal move: {}".format(error))


def parse_colour(text):
    try:
        return COLOUR_WORDS[text.lower()]
    except KeyError:
        raise GtpFailure("syntax error: {!r} is not a colour".format(text))


class Ply(object):
    """One action of the game: the position before it (its mover's turn), the move, the stones
    it captured, its CPU."""

    __slots__ = ("before", "move", "captured", "cpu")

    def __init__(self, before, move, captured, cpu):
        self.before = before
        self.move = move
        self.captured = captured
        self.cpu = cpu


def make_ply(before, move, cpu):
    """`(Ply, the position after it)` for `move` on `before`; go_board.IllegalMove if illegal."""
    after = before.play(move)
    opponent = go_board.other(before.to_move)
    captured = go_board.popcount(before.stones(opponent)) - go_board.popcount(
        after.stones(opponent))
    return Ply(before, move, captured, cpu), after


def chains(stones):
    """The chains of the bitboard `stones`, each a list of points."""
    found = []
    while stones:
        chain = go_board.group_of(stones, stones & -stones)
        found.append(go_board.points_of(chain))
        stones &= ~chain
    return found


class GtpEngine(object):
    """A game in memory, the agent's settings and book (read once at start-up, never changed:
    each game searches on `game_settings`, the same with the game's own seed), and the state
    kept between moves."""

    def __init__(self, settings, book):
        self.settings = settings
        self.book = book
        self.games = 0
        self.clock = Clock()
        self.exact_engine = None  # the analysis commands' exact search, made when first asked
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
            "final_score": lambda args: result_text(self.position),
            "final_status_list": self.final_status_list,
            "time_settings": lambda args: self.set_clock(self.clock.time_settings, args),
            "kgs-time_settings": lambda args: self.set_clock(self.clock.kgs_time_settings, args),
            "time_left": self.time_left,
            "loadsgf": self.loadsgf,
            "printsgf": self.printsgf,
            "littlego-decision": self.last_decision,
            LZ_ANALYZE: lambda args: self.analyze(LZ_ANALYZE, args),
            KATA_ANALYZE: lambda args: self.analyze(KATA_ANALYZE, args),
            "quit": lambda args: "",
        }
        self.new_game()

    def new_game(self):
        self.start = self.position = go_board.Position()  # start: after loadsgf's setup stones
        self.plies = []
        self.after_end = []  # moves a controller sent once the game was over (not played)
        self.decision = None
        self.solver_table = {}
        self.game_settings = self.settings.replace(
            seed=self.settings.seed + GAME_SEED_STRIDE * self.games)
        self.games += 1
        self.clock.restart()
        return ""

    def handle(self, line):
        """`(answer text, quit?, stream)` for one command line: the text with its `=`/`?`
        framing but not the blank line; `stream` is None or, for an analysis command, the
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

    def record(self, colour, move, cpu):
        """Play `move` for `colour` on the game's position and remember how to undo it;
        go_board.IllegalMove if the rules refuse it."""
        ply, self.position = make_ply(with_mover(self.position, colour), move, cpu)
        self.plies.append(ply)

    def play(self, args):
        """`play COLOUR VERTEX`, whichever colour is to move (see `with_mover`)."""
        if len(args) != 2:
            raise GtpFailure("syntax error")
        colour = parse_colour(args[0])
        move = parse_vertex(args[1])
        if self.position.is_over:
            return self.after_the_end(move)
        try:
            self.record(colour, move, 0.0)
        except go_board.IllegalMove as error:
            raise GtpFailure("illegal move: " + error.reason)
        self.decision = None
        return ""

    def genmove(self, args):
        """The agent's move for COLOUR, whichever colour is to move, on its budget: the
        Little-Go budget from this colour's CPU so far, capped by the controller's clock."""
        if len(args) != 1:
            raise GtpFailure("syntax error")
        colour = parse_colour(args[0])
        if self.position.is_over:
            self.after_the_end(PASS)
            return GTP_PASS
        position = with_mover(self.position, colour)
        spent = sum(ply.cpu for ply in self.plies if ply.before.to_move == colour)
        if len(self.solver_table) > MAX_KEPT_SOLVER_ENTRIES:
            self.solver_table.clear()
        wall_start, start = time.monotonic(), clocks.tree_cpu_seconds()
        plan = agent.plan_move(position.ply, spent, self.settings, self.book, start,
                               cap=self.clock.move_seconds(colour, position.ply))
        decision = agent.decide(position, plan.cpu_deadline, self.game_settings, self.book,
                                self.solver_table)
        used = clocks.tree_cpu_seconds() - start
        self.clock.spent(colour, time.monotonic() - wall_start)
        self.decision = decision_log.decision_record(decision, position, used, plan.budget)
        decision_log.log_decision(self.decision)
        self.record(colour, decision.move, used)
        return vertex_text(decision.move)

    def set_clock(self, parse, args):
        try:
            parse(args)
        except ClockError as error:
            raise GtpFailure(str(error))
        return ""

    def time_left(self, args):
        """`time_left COLOUR SECONDS STONES`: the controller's word on a colour's clock."""
        if not args:
            raise GtpFailure("syntax error")
        return self.set_clock(lambda rest: self.clock.time_left(parse_colour(args[0]), rest),
                              args[1:])

    def final_status_list(self, args):
        """Little-Go scores the stones as they stand: every stone is alive, none dead or in
        seki. One chain a line, as GNU Go lists them."""
        if len(args) != 1 or args[0].lower() not in STATUSES:
            raise GtpFailure("syntax error")
        if args[0].lower() != "alive":
            return ""
        return "\n".join(" ".join(vertex_text(point) for point in chain)
                         for colour in (BLACK, WHITE)
                         for chain in chains(self.position.stones(colour)))

    def loadsgf(self, args):
        """`loadsgf FILE [N]`: the game of an SGF file (5x5), through its whole main line or up
        to move N (the position before move N is played); the komi of the file is ignored, as
        Little-Go's is fixed. The game in memory stays when the file cannot be loaded."""
        if not 1 <= len(args) <= 2 or (len(args) == 2 and not args[1].isdigit()):
            raise GtpFailure("syntax error")
        try:
            with open(args[0], encoding="utf-8", errors="replace") as handle:
                game = sgf_game.read_game(handle.read(MAX_SGF_BYTES))
        except (OSError, sgf_game.SgfError) as error:
            raise GtpFailure("cannot load file: {}".format(error))
        moves = game.moves if len(args) == 1 else game.moves[:max(int(args[1]) - 1, 0)]
        start = position = go_board.Position(game.black, game.white, game.to_move)
        plies = []
        for number, (colour, move) in enumerate(moves, 1):
            try:
                ply, position = make_ply(with_mover(position, colour), move, 0.0)
            except go_board.IllegalMove as error:
                raise GtpFailure("cannot load file: move {}, {}: {}".format(
                    number, vertex_text(move), error.reason))
            plies.append(ply)
        self.new_game()
        self.start, self.plies, self.position = start, plies, position
        return ""

    def printsgf(self, args):
        """`printsgf [FILE]`: the game as SGF, as the answer or into FILE."""
        if len(args) > 1:
            raise GtpFailure("syntax error")
        text = sgf_game.write_game(
            self.start, [(ply.before.to_move, ply.move) for ply in self.plies],
            "{}:{}".format(ENGINE_NAME, littlego.__version__),
            result_text(self.position) if self.position.is_over else None)
        if not args:
            return text.rstrip("\n")
        try:
            with open(args[0], "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise GtpFailure("cannot save file: {}".format(error))
        return ""

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

    def analyze(self, command, args):
        """`lz-analyze` or `kata-analyze` (`command`) `[COLOUR] [INTERVAL] [interval N]
        [minmoves N] [maxmoves N]`: the analysis of the position for COLOUR (default: the side
        to move), a line every INTERVAL centiseconds with at least minmoves and at most
        maxmoves moves (`AnalyzeRequest`); kata-analyze's with each move's score."""
        request = AnalyzeRequest(args, command)
        colour = self.position.to_move if request.colour is None else request.colour
        if self.exact_engine is None:
            self.exact_engine = exact.engine()
        analysis = live.Analysis(with_mover(self.position, colour), self.game_settings,
                                 self.book, engine=self.exact_engine)
        return AnalysisStream(analysis, request)

    def last_decision(self, args):
        """The decision record of the last genmove as one JSON line, `{}` after any other move."""
        return json.dumps(self.decision or {}, sort_keys=True)

    def board_text(self):
        """The board with GTP coordinates, then the ply about to be played (or where the game
        ended), the captures and the score."""
        letters = "   " + " ".join(COLUMN_LETTERS)
        lines = [letters]
        for row, text in enumerate(go_board.board_to_text(self.position.black,
                                                          self.position.white).splitlines()):
            lines.append("{:2} {} {}".format(SIZE - row, text, SIZE - row))
        lines.append(letters)
        captured = {BLACK: 0, WHITE: 0}
        for ply in self.plies:
            captured[ply.before.to_move] += ply.captured
        # The ply about to be played, 1..24 as docs/rules.md counts them.
        if self.position.is_over:
            state = "game over after ply {}".format(self.position.ply - 1)
        else:
            state = "ply {} of {}, {} to move".format(
                self.position.ply, go_board.MAX_PLY,
                go_board.COLOUR_NAMES[self.position.to_move])
        if self.after_end:
            state += " ({} moves after the end not played)".format(len(self.after_end))
        lines.append("{}; captured by Black {}, by White {}; score {}".format(
            state, captured[BLACK], captured[WHITE], result_text(self.position)))
        return "\n".join(lines)


class AnalyzeRequest(object):
    """The arguments of `command` (lz-analyze or kata-analyze), every form KataGo's GTP
    extensions document: an optional colour, an optional interval in centiseconds, then
    key-value pairs (ANALYZE_KEYS; kata-analyze's `ownership true`); avoid and allow are
    refused. `maxmoves` None is no limit. GtpFailure for anything else."""

    def __init__(self, args, command=LZ_ANALYZE):
        self.command = command
        words = list(args)
        self.colour = None
        self.ownership = False
        if words and words[0].lower() in COLOUR_WORDS:
            self.colour = parse_colour(words.pop(0))
        options = {"interval": DEFAULT_ANALYZE_INTERVAL, "minmoves": 0, "maxmoves": None}
        if words and words[0].isdigit():
            options["interval"] = int(words.pop(0))
        while words:
            key = words.pop(0).lower()
            if key in REFUSED_ANALYZE_KEYS:
                raise GtpFailure("{}: {} is not supported: every legal move is "
                                 "analysed".format(command, key))
            if command == KATA_ANALYZE and key == OWNERSHIP_KEY and words and \
                    words[0].lower() in SWITCH_WORDS:
                self.ownership = SWITCH_WORDS[words.pop(0).lower()]
                continue
            if key not in ANALYZE_KEYS or not words or not words[0].isdigit():
                raise GtpFailure("syntax error")
            options[key] = int(words.pop(0))
        if options["interval"] <= 0 or options["maxmoves"] == 0:
            raise GtpFailure("syntax error")
        self.interval = options["interval"] / CENTISECONDS
        self.minmoves, self.maxmoves = options["minmoves"], options["maxmoves"]


def pv_text(known):
    return " ".join(vertex_text(move) for move in known.line)


def info_text(report, maxmoves=None):
    """One lz-analyze line for a live.Report: an `info` block per move, best first (the
    report's order), at most `maxmoves`, winrate and
    prior in 0..10000 for the side to move (the prior is uniform over the legal moves: there is
    no policy)."""
    prior = LZ_SCALE // max(len(report.moves), 1)
    return " ".join(
        "info move {} visits {} winrate {} prior {} order {} pv {}".format(
            vertex_text(known.move), known.visits, int(round(known.winrate * LZ_SCALE)), prior,
            order, pv_text(known))
        for order, known in enumerate(report.moves[:maxmoves]))


def kata_info_text(report, maxmoves=None, ownership=False):
    """One kata-analyze line for a live.Report: an `info` block per move as `info_text` lists
    them, winrate and prior in 0..1 for the side to move, and the move's score
    (live.Known.score) as `scoreMean` and `scoreLead`, with `scoreStdev` 0 when it is exact,
    else the plies left after the move (see the module docstring); with `ownership`, KataGo's
    `ownership` block after them: the final board of the position's best line
    (live.ownership), for the side to move."""
    prior = 1.0 / max(len(report.moves), 1)
    estimate_stdev = go_board.plies_left(report.position.ply + 1)
    blocks = []
    for order, known in enumerate(report.moves[:maxmoves]):
        blocks.append(
            "info move {} visits {} winrate {:.6f} scoreMean {:g} scoreStdev {} scoreLead {:g} "
            "prior {:.6f} order {} pv {}".format(
                vertex_text(known.move), known.visits, known.winrate, known.score,
                0 if known.margin is not None else estimate_stdev, known.score, prior, order,
                pv_text(known)))
    if ownership:
        position = report.position
        blocks.append("ownership " + " ".join("{:g}".format(value) for value in live.ownership(
            position, report.root.line, position.to_move)))
    return " ".join(blocks)


def try_note(command, position, best_try):
    """The line that says what the known try `(move, opponent_wins)` of the lost `position`
    asks of the opponent, in decision_log.try_details' words, for the analysis `command`."""
    move, opponent_wins = best_try
    details = decision_log.try_details(position, move, opponent_wins)
    return TRY_NOTE.format(command=command, ply=position.ply,
                           colour=go_board.COLOUR_NAMES[position.to_move],
                           summary=details["summary"], move=vertex_text(move))


class AnalysisStream(object):
    """What an analysis command streams after its `=` line: `lines(waiting)` yields an info
    line (`info_text` or `kata_info_text`) every `request.interval` seconds while the analysis
    works in slices of at most ANALYSIS_SLICE_SECONDS of wall time (live.Analysis.step), and
    ends as soon as
    `waiting(seconds)` says a command has arrived. Once the analysis knows the position's try,
    its `try_note` goes to stderr (decision_log.log), once."""

    def __init__(self, analysis, request):
        self.analysis = analysis
        self.interval = request.interval
        self.request = request
        self.told_try = False

    def lines(self, waiting):
        try:
            for line in self._lines(waiting):
                yield line
        finally:
            self.analysis.close()

    def _lines(self, waiting):
        while True:
            due = time.monotonic() + self.interval
            left = self.interval
            while left > 0:
                working = self.analysis.step(min(left, ANALYSIS_SLICE_SECONDS))
                if self.analysis.best_try is not None and not self.told_try:
                    decision_log.log(try_note(self.request.command, self.analysis.position,
                                       self.analysis.best_try))
                    sys.stderr.flush()  # Python before 3.9 buffers a redirected stderr
                    self.told_try = True
                if working:
                    if waiting(0):
                        return
                elif waiting(left):  # nothing left to think about: just wait
                    return
                left = due - time.monotonic()
            report = self.analysis.report()
            if self.request.command == KATA_ANALYZE:
                line = kata_info_text(report, self.request.maxmoves, self.request.ownership)
            else:
                line = info_text(report, self.request.maxmoves)
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
        settings = agent_settings.Settings(os.environ)
    except ValueError as error:
        decision_log.log("bad LITTLEGO_* setting: {}".format(error))
        return 2
    serve(GtpEngine(settings, agent.read_book(settings)))
    return 0
