"""`littlego serve` (`host.py serve`): the board in the browser, on 127.0.0.1 only.

Start at `main` (the command line), then `BoardSession`: one game between the person at the page
and an opponent, which is any player spec of players.py (by default the agent as a GTP engine),
played on go_board's rules so that a refused click says the rules' reason. After each of the
opponent's moves the session reads the agent's decision record from the player's log
(`decision_log.read_decisions`), which is what the page shows as "what the agent thought". A
finished game is saved as SGF under runs/board/, and every SGF under runs/ can be replayed move
by move (`replay`), with each move's exact value before and after it (`review_job`:
analysis/review.py's review on a thread). On the person's turn the page asks for the proven
results of their moves (`analysis_job`, once per position, on a thread of its own): the one
analysis (littlego/analysis/live.py) in the page's words (move_results.answer), at once what the
stored value table and the book prove, then the exact search's values as they come, until the
position changes.

`make_server` serves the page's files (web/static/) and a small JSON API:
    GET  /api/state           the game: board, ply, captures, score, result, the agent's decision
    GET  /api/analysis        on the person's turn, the proven result of each of their moves,
                              their margins and, when they are lost, the best try in words
                              (analysis/move_results.py's JSON) with "progress": {"solved",
                              "moves", "seconds", "done"} while the solver adds margins (null
                              when none are added), or {"pending": true} before the first answer
    POST /api/new   {colour}  a new game, the person playing `colour` (1 Black, 2 White)
    POST /api/move  {move}    the person's move, `i,j` or `PASS`; then the opponent's answer
    GET  /api/games           the SGF files under runs/
    GET  /api/replay?sgf=P    every position of that game, for the page's slider
    GET  /api/review?sgf=P    that game reviewed (analysis/review.py's JSON), or {"pending":
                              true, "progress": {"reviewed", "positions", "seconds"}} meanwhile
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import course_io
import decision_log
import go_board
import opening_book
from littlego.analysis import live, move_results, review
from littlego.analysis.vertices import result_text
from littlego.gtp.engine import COMMAND_WORDS
from littlego.opponents import in_process
from littlego.referee import judge
from littlego.referee.cli import PLAYER_HELP, add_referee_limits, program
from littlego.referee.players import LOG_SUFFIX, make_player
from littlego.referee.protocol import MoveLimits
from littlego.referee.sgf import game_to_sgf, sgf_moves

SERVE = "serve"  # the mode's word: `littlego serve`, `host.py serve`
HOST = "127.0.0.1"
DEFAULT_PORT = 8561
STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8", ".png": "image/png"}
SAVED_GAMES_DIR = "board"  # under the runs directory
PERSON = "you"
SGF_SUFFIX = ".sgf"
# How long a request waits for a position's first answer before answering "pending" (the page
# then asks again); the analysis works in slices of this many CPU seconds, a new position
# stopping the old work within one slice.
ANALYSIS_WAIT_SECONDS = 1.0
ANALYSIS_SLICE_CPU_SECONDS = 0.5
# A replayed game's review (GET /api/review): CPU seconds a position, the opening's stored
# values and the last plies' proofs being much quicker.
REVIEW_CPU_SECONDS = 3.0


AGENT_NAME = "Little-Go agent (littlego gtp)"  # the default opponent's name on the page


def default_opponent(python):
    """The agent as a GTP engine: one process for the game, keeping what it can between moves."""
    return "gtp:{} {}".format(python, " ".join(COMMAND_WORDS))


def board_rows(position):
    """The board as 5 lists of 0/1/2, `rows[i][j]` as the course writes it."""
    return [[int(char) for char in row]
            for row in go_board.board_to_digits(position.black, position.white)]


def describe_positions(moves):
    """For `moves` (go_board moves from the start), the view of every position along the way:
    board, ply, last move, captures and score. Stops at the first move the rules refuse."""
    position = go_board.Position()
    captured = {go_board.BLACK: 0, go_board.WHITE: 0}
    views = [position_view(position, None, captured)]
    for move in moves:
        try:
            after = position.play(move)
        except go_board.IllegalMove:
            break
        loser = go_board.other(position.to_move)
        captured[position.to_move] += (go_board.popcount(position.stones(loser))
                                       - go_board.popcount(after.stones(loser)))
        position = after
        views.append(position_view(position, move, captured))
    return views


def position_view(position, last_move, captured):
    black, white = go_board.popcount(position.black), go_board.popcount(position.white)
    return {"board": board_rows(position), "ply": position.ply, "max_ply": go_board.MAX_PLY,
            "to_move": position.to_move, "over": position.is_over,
            "last_move": None if last_move is None else go_board.move_to_text(last_move),
            "captures": {"black": captured[go_board.BLACK], "white": captured[go_board.WHITE]},
            "score": {"black": black, "white": white, "komi": go_board.KOMI,
                      "result": result_text(position)}}


class AnalysisJob(object):
    """One position's proven results, worked out on a daemon thread so that the server keeps
    answering: the one analysis (live.py, without an estimate: the page shows proofs), its
    answer published (move_results.answer) when it starts (the stored value table, the book's
    proofs) and after every slice of ANALYSIS_SLICE_CPU_SECONDS, so that `cancel` (a new
    position) stops it within a slice. `wait` gives the latest answer with its progress."""

    def __init__(self, position):
        self.answer = None
        self.counts = None  # (moves with a margin, legal moves) while the analysis works
        self.started = time.monotonic()
        self.first = threading.Event()  # the first answer is there (or failed)
        self.done = threading.Event()
        self.cancelled = threading.Event()
        threading.Thread(target=self.run, args=(position,), daemon=True).start()

    def run(self, position):
        analysis = None
        try:
            analysis = live.Analysis(position, move_results.SETTINGS, opening_book.read(),
                                     estimate=False)
            self.publish(analysis, analysis.complete())
            self.first.set()
            while not self.cancelled.is_set() and analysis.step(ANALYSIS_SLICE_CPU_SECONDS):
                self.publish(analysis, False)
        finally:
            if analysis is not None:
                analysis.close()
            self.first.set()
            self.done.set()

    def publish(self, analysis, settled):
        """The analysis's answer now, with its progress unless it was `settled` without work
        (the page, which stops asking at an answer without one, keeps asking)."""
        report = analysis.report()
        self.counts = None if settled else (
            sum(known.margin is not None for known in report.moves), len(report.moves))
        self.answer = move_results.answer(report)

    def cancel(self):
        self.cancelled.set()

    def wait(self, seconds):
        """`(started, answer)` after at most `seconds` waiting for the first answer: answer None
        when the analysis failed, else move_results' JSON with "progress": {"solved", "moves",
        "seconds" (since the job began), "done"}, or None when it needed no work."""
        if not self.first.wait(seconds):
            return False, None
        answer, counts, done = self.answer, self.counts, self.done.is_set()
        if answer is None:
            return True, None
        progress = None if counts is None else {
            "solved": counts[0], "moves": counts[1], "done": done,
            "seconds": round(time.monotonic() - self.started, 1)}
        return True, dict(answer, progress=progress)


class ReviewJob(object):
    """A saved game's review (analysis/review.py's, REVIEW_CPU_SECONDS a position) on a daemon
    thread; `state()` is its progress until it ends, then the review or its error. `cancel`
    stops it after the position at hand."""

    def __init__(self, moves):
        self.result = None
        self.counts = (0, len(moves))
        self.started = time.monotonic()
        self.cancelled = threading.Event()
        self.done = threading.Event()
        threading.Thread(target=self.run, args=(moves,), daemon=True).start()

    def run(self, moves):
        try:
            self.result = review.review(moves, REVIEW_CPU_SECONDS, reviewed=self.reviewed)
        except review.ReviewError as error:
            self.result = {"error": "cannot review: {}".format(error)}
        except ReviewCancelled:
            pass
        finally:
            self.done.set()

    def reviewed(self, done, total):
        self.counts = (done, total)
        if self.cancelled.is_set():
            raise ReviewCancelled()

    def cancel(self):
        self.cancelled.set()

    def state(self):
        """The review's JSON, or {"pending": true, "progress": {"reviewed", "positions",
        "seconds"}} while it works; {"error": ...} when it failed."""
        if not self.done.is_set():
            return {"pending": True, "progress": {
                "reviewed": self.counts[0], "positions": self.counts[1],
                "seconds": round(time.monotonic() - self.started, 1)}}
        return self.result if self.result is not None else {"error": "the review failed"}


class ReviewCancelled(Exception):
    """A review stopped because another game was asked for."""


def cancel_unfinished(jobs):
    """Stop the unfinished jobs of `jobs` (a dict of AnalysisJob or ReviewJob, which the page
    no longer waits for) and forget them; the finished ones stay."""
    for key, job in list(jobs.items()):
        if not job.done.is_set():
            job.cancel()
            del jobs[key]


class BoardSession(object):
    """The game at the page. Every method runs under `lock` (the server is threaded)."""

    def __init__(self, opponent_spec, limits, runs_dir, seed=0, builtin_players=None,
                 opponent_name=None):
        self.opponent_spec = opponent_spec
        self.opponent_name = opponent_name or opponent_spec  # on the page and in the SGF
        # The players known by name: the built-in opponents unless a test brings its own.
        self.builtin_players = in_process.players() if builtin_players is None \
            else builtin_players
        self.limits = limits
        self.runs_dir = runs_dir
        self.seed = seed
        self.lock = threading.Lock()
        self.work_dir = tempfile.mkdtemp(prefix="littlego-board-")
        self.games = 0
        self.opponent = None
        self.analyses = {}  # Position.key() -> AnalysisJob, for every game of the session
        self.reviews = {}  # a saved game's path under runs -> ReviewJob
        make_player(opponent_spec, limits, self.builtin_players)  # an unknown one fails at once

    def new_game(self, person_colour):
        self.end_opponent()
        self.cancel_analyses()
        self.games += 1
        self.person = person_colour
        self.moves = []
        self.position = go_board.Position()
        self.decision = None
        self.message = None
        self.result = None
        self.saved_as = None
        directory = os.path.join(self.work_dir, "game-{}".format(self.games))
        os.mkdir(directory)
        self.log_path = directory.rstrip(os.sep) + LOG_SUFFIX
        self.decisions_seen = 0
        self.opponent = make_player(self.opponent_spec, self.limits, self.builtin_players)
        self.opponent.start_game(directory, go_board.other(person_colour), self.seed + self.games)
        if self.position.to_move != person_colour:
            self.opponent_moves()

    def names(self):
        opponent = self.opponent_name
        return {go_board.BLACK: PERSON if self.person == go_board.BLACK else opponent,
                go_board.WHITE: PERSON if self.person == go_board.WHITE else opponent}

    def person_moves(self, text):
        """Play the person's move and the opponent's answer; a refusal is kept as the message."""
        if self.result is not None:
            self.message = "The game is over: start a new one."
            return
        if self.position.to_move != self.person:
            self.message = "It is not your turn."
            return
        try:
            move = go_board.move_from_text(text)
            self.position = self.position.play(move)
        except go_board.IllegalMove as error:
            self.message = "{} is refused: {}".format(text, error.reason)
            return
        except go_board.NotAMove:
            self.message = "{!r} is not a move: click a point or Pass".format(text)
            return
        self.message = None
        self.decision = None
        self.moves.append(move)
        self.cancel_analyses()  # the opponent's turn: its CPU, not the old position's margins
        if self.position.is_over:
            self.finish_on_score()
        else:
            self.opponent_moves()

    def opponent_moves(self):
        colour = self.position.to_move
        game_input = judge.GameInput(colour, board_rows(self.previous_position()),
                                     board_rows(self.position))
        history = [(go_board.BLACK if index % 2 == 0 else go_board.WHITE,
                    go_board.move_to_action(move))
                   for index, move in enumerate(self.moves)]
        turn = self.opponent.move(game_input, self.position.ply, history)
        self.decision = self.latest_decision()
        if turn.failure is not None:
            return self.finish(self.person, turn.failure, turn.detail)
        try:
            move = go_board.move_from_action(course_io.parse_action(turn.line))
            self.position = self.position.play(move)
        except (course_io.OutputError, go_board.IllegalMove) as error:
            return self.finish(self.person, judge.END_ILLEGAL, str(error))
        self.moves.append(move)
        if self.position.is_over:
            self.finish_on_score()

    def previous_position(self):
        """The board before the last action: what input.txt's lines 2-6 hold for the mover."""
        return go_board.Position(self.position.prev_black, self.position.prev_white)

    def latest_decision(self):
        """The agent's decision record for the move just played, or None (not our agent)."""
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as handle:
                records = decision_log.read_decisions(handle.read())
        except (IOError, OSError):
            return None
        if len(records) <= self.decisions_seen:
            return None
        self.decisions_seen = len(records)
        return records[-1]

    def finish_on_score(self):
        self.finish(self.position.winner(), judge.END_SCORE,
                    judge.score_detail(board_rows(self.position)))

    def finish(self, winner, reason, detail):
        names = self.names()
        record = {"black": names[go_board.BLACK], "white": names[go_board.WHITE],
                  "winner": winner, "winner_name": names[winner], "reason": reason,
                  "detail": detail, "plies": self.position.ply - 1,
                  "moves": [go_board.move_to_text(move) for move in self.moves],
                  "black_stones": go_board.popcount(self.position.black),
                  "white_stones": go_board.popcount(self.position.white)}
        self.result = {"winner": winner, "reason": reason, "detail": detail,
                       "you_win": winner == self.person}
        self.end_opponent()
        self.saved_as = self.save(record)

    def save(self, record):
        directory = os.path.join(self.runs_dir, SAVED_GAMES_DIR)
        os.makedirs(directory, exist_ok=True)
        handle, path = tempfile.mkstemp(prefix="game-", suffix=SGF_SUFFIX, dir=directory)
        with os.fdopen(handle, "w", encoding="utf-8") as sgf:
            sgf.write(game_to_sgf(record))
        return os.path.relpath(path, self.runs_dir)

    def end_opponent(self):
        if self.opponent is not None:
            self.opponent.end_game()
            self.opponent = None

    def close(self):
        self.end_opponent()
        self.cancel_analyses()
        shutil.rmtree(self.work_dir, ignore_errors=True)

    def state(self):
        view = describe_positions(self.moves)[-1]
        view.update(person=self.person, names={str(c): n for c, n in self.names().items()},
                    decision=self.decision, message=self.message, result=self.result,
                    saved_as=self.saved_as)
        return view

    def analysis_job(self):
        """The AnalysisJob of the current position (started on the first request), or None when
        it is not the person's turn."""
        position = self.position
        if self.result is not None or position.is_over or position.to_move != self.person:
            return None
        key = position.key()
        if key not in self.analyses:
            self.cancel_analyses()
            self.analyses[key] = AnalysisJob(position)
        return self.analyses[key]

    def cancel_analyses(self):
        """Stop the unfinished analyses (the position has changed); the finished ones stay,
        asked again at once."""
        cancel_unfinished(self.analyses)

    def saved_games(self):
        games = []
        for root, _, files in os.walk(self.runs_dir):
            for name in files:
                if name.endswith(SGF_SUFFIX):
                    games.append(os.path.relpath(os.path.join(root, name), self.runs_dir))
        return sorted(games)

    def replay(self, relative):
        if relative not in self.saved_games():
            raise KeyError(relative)
        with open(os.path.join(self.runs_dir, relative), encoding="utf-8") as handle:
            text = handle.read()
        moves = [go_board.PASS if point is None else go_board.from_coord(*point)
                 for point in sgf_moves(text)]
        return {"sgf": relative, "positions": describe_positions(moves)}

    def review_job(self, relative):
        """The ReviewJob of the saved game `relative` (started on the first request, stopping
        the review of any other game); KeyError for a game not under runs, ReviewError for one
        that cannot be read."""
        if relative not in self.saved_games():
            raise KeyError(relative)
        if relative not in self.reviews:
            cancel_unfinished(self.reviews)
            moves = review.read_game(os.path.join(self.runs_dir, relative))
            self.reviews[relative] = ReviewJob(moves)
        return self.reviews[relative]


class BoardHandler(BaseHTTPRequestHandler):
    session = None  # set by make_server

    def log_message(self, format, *args):
        pass  # the terminal shows the URL only

    def send_json(self, value, status=200):
        self.send_body(json.dumps(value).encode("utf-8"), "application/json", status)

    def send_body(self, body, content_type, status=200):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        session = self.session
        if url.path == "/api/state":
            with session.lock:
                return self.send_json(session.state())
        if url.path == "/api/analysis":
            return self.send_analysis()
        if url.path == "/api/review":
            return self.send_review(parse_qs(url.query).get("sgf", [""])[0])
        if url.path == "/api/games":
            return self.send_json(session.saved_games())
        if url.path == "/api/replay":
            try:
                return self.send_json(session.replay(parse_qs(url.query).get("sgf", [""])[0]))
            except (KeyError, IOError, OSError, ValueError) as error:
                return self.send_json({"error": "cannot replay: {}".format(error)}, 404)
        name = "index.html" if url.path == "/" else url.path.lstrip("/")
        path = os.path.join(STATIC_DIR, name)
        extension = os.path.splitext(name)[1]
        if "/" in name or extension not in STATIC_TYPES or not os.path.isfile(path):
            return self.send_json({"error": "not found"}, 404)
        with open(path, "rb") as handle:
            self.send_body(handle.read(), STATIC_TYPES[extension])

    def send_analysis(self):
        """The session lock is held only to find the job: the wait must not stop other requests."""
        with self.session.lock:
            job = self.session.analysis_job()
        if job is None:
            return self.send_json({"error": "it is not your turn: nothing to analyse"}, 409)
        finished, answer = job.wait(ANALYSIS_WAIT_SECONDS)
        if not finished:
            return self.send_json({"pending": True})
        if answer is None:
            return self.send_json({"error": "the analysis failed"}, 500)
        return self.send_json(answer)

    def send_review(self, relative):
        try:
            with self.session.lock:
                job = self.session.review_job(relative)
        except KeyError as error:
            return self.send_json({"error": "cannot review: no saved game {}".format(error)}, 404)
        except review.ReviewError as error:
            return self.send_json({"error": "cannot review: {}".format(error)}, 404)
        return self.send_json(job.state())

    def do_POST(self):
        session = self.session
        try:
            length = int(self.headers.get("Content-Length", 0))
            request = json.loads(self.rfile.read(length).decode("utf-8") or "{}")
        except ValueError:
            return self.send_json({"error": "the request is not JSON"}, 400)
        with session.lock:
            if self.path == "/api/new":
                colour = request.get("colour", go_board.BLACK)
                if colour not in (go_board.BLACK, go_board.WHITE):
                    return self.send_json({"error": "colour is 1 or 2"}, 400)
                session.new_game(colour)
            elif self.path == "/api/move":
                session.person_moves(str(request.get("move", "")))
            else:
                return self.send_json({"error": "not found"}, 404)
            return self.send_json(session.state())


def make_server(session, port=DEFAULT_PORT):
    """A threaded HTTP server on 127.0.0.1:`port` (0: any free port) serving `session`."""
    handler = type("Handler", (BoardHandler,), {"session": session})
    return ThreadingHTTPServer((HOST, port), handler)


def serve(opponent_spec, colour, port, runs_dir, limit_cpu, limit_wall, seed, announce=print,
          opponent_name=None):
    """Run the board until Ctrl-C or SIGTERM, then end the opponent and remove its files;
    returns the exit code."""
    def stop(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, stop)
    session = BoardSession(opponent_spec, MoveLimits(limit_cpu, limit_wall), runs_dir, seed,
                           opponent_name=opponent_name)
    server = make_server(session, port)
    try:
        with session.lock:
            session.new_game(colour)
        announce("The board is at http://{}:{}/ (Ctrl-C stops it)".format(
            HOST, server.server_address[1]))
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        session.close()
    return 0


def serve_parser():
    parser = argparse.ArgumentParser(
        prog=program(SERVE),
        description="Play Little-Go against a player in the browser, and replay the SGF games "
                    "saved under the runs directory. Listens on 127.0.0.1 only.")
    parser.add_argument("--opponent", help=PLAYER_HELP + " (default: this agent as a GTP "
                                                         "engine, littlego gtp)")
    parser.add_argument("--colour", "--color", type=int, choices=(1, 2), default=1,
                        help="your colour in the first game (default 1; the page can change it)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help="port on 127.0.0.1 (default %(default)s; 0 picks a free one)")
    parser.add_argument("--runs", default="runs", metavar="DIR",
                        help="where SGFs are listed for replay; games played on the page are "
                             "saved in DIR/board (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="the opponent's seed")
    add_referee_limits(parser)
    return parser


def main(argv):
    """`serve [options]` (the mode's word first, as host.py and `littlego` pass it): the exit
    code; a bad option or player is one line on stderr, exit 2."""
    parser = serve_parser()
    args = parser.parse_args(argv[1:])
    opponent = args.opponent or default_opponent(sys.executable)
    try:
        return serve(opponent, args.colour, args.port, args.runs, args.limit_cpu,
                     args.limit_wall, args.seed, announce=lambda line: print(line, flush=True),
                     opponent_name=None if args.opponent else AGENT_NAME)
    except ValueError as error:  # an unknown player, a missing package
        parser.error(str(error))
