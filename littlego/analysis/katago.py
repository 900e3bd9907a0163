"""`littlego analysis`: KataGo's JSON analysis engine protocol (`katago analysis`) for
Little-Go, so that GUIs built on it (KaTrain) show the exact values: one JSON object a line on
stdin (queries and actions) and on stdout (answers, in any order).

Start at `serve`: a thread reads the lines (`read_lines`), the main loop answers each at once
(`AnalysisEngine.handle`) and works on the open turns in slices of SLICE_SECONDS, the highest
`priority` first and, among equals, the one worked on least (so every turn gets its first
answer soon), then the earliest; a turn known without work (a stored position) is answered
before all of them. Each analysed turn (`Turn`) is the one analysis of its position
(live.py, sharing one exact search, exact.py, whose tables every position may use); its answers
are `answer`'s: during the search (`isDuringSearch` true) once the turn is first worked on and
then every `reportDuringSearchEvery` seconds, and exactly one final answer when the analysis is
complete, its `maxTime` of work is spent (the command's --max-time without one; seconds of
this process's CPU, so that a machine busy with other work, a GUI drawing beside it, does not
cut the exact search short), or a `terminate` names it (`noResults` when no work was done on
it).

The query's fields (KataGo's Analysis_Engine.md): `id` (a string: every answer carries it),
`moves` ([["B" or "W", vertex], ...]: C3, pass or "(x,y)"; either colour, the side to move
following the last move as GTP's `play` does), `initialStones` (the board at ply 1),
`initialPlayer`, `analyzeTurns` (default: after the last move), `rules`, `komi`, `boardXSize`,
`boardYSize`, `maxVisits` (the estimate's simulations), `overrideSettings` (`maxTime`, CPU
seconds of work; `reportAnalysisWinratesAs` BLACK, WHITE or SIDETOMOVE, default --report-as;
`maxVisits`), `reportDuringSearchEvery`, `includeOwnership`, `includeMovesOwnership`,
`includePolicy`, `avoidMoves` and `allowMoves` (their moves for the side to move at the
position: the first move only, so `untilDepth` beyond 1 has a warning), `priority`,
`priorities`. The actions: `query_version`, `clear_cache` (the exact search's tables emptied),
`terminate` (`terminateId`, optional `turnNumbers`), `terminate_all` (optional `turnNumbers`);
each is answered by echoing it (query_version adds `version` and `git_hash`).

What the engine cannot honour is answered in KataGo's shapes: a line that is not a JSON object,
an unknown action or a query it cannot analyse (a board other than 5x5, an illegal move, a move
after the end of the game, a bad field) is `{"error": ..., "field": ..., "id": ...}` for that
query alone, and the engine goes on; rules or komi other than Little-Go's, a field it does not
know and a setting it ignores are a `{"warning": ..., "field": ..., "id": ...}` line, and the
query is answered for Little-Go's rules (stones only, komi 2.5, at most 24 plies): a GUI's own
score counting differs from it.

An answer (`answer`): `moveInfos` (live.Report's moves, best first: `order` 0 is a best move
wherever the values are proven), each with `move`, `visits` (live.PROVEN_VISITS: the estimate's
simulations plus a million for a proven result and another for an exact margin), `winrate` (1
or 0 when proven), `scoreLead` = `scoreMean` = `scoreSelfplay` (the exact final margin, else
the estimate), `scoreStdev` (0 when exact; else the plies left after the move, never 0),
`prior` (uniform over the legal moves: there is no policy), `lcb`, `utility`, `pv` (the proven
best line to the end of the game, else the estimate's principal variation), `ownership` with
`includeMovesOwnership`; `rootInfo` (`winrate`, `scoreLead` = the position's value, so that a
GUI's point loss, root minus move, is exact; `scoreStdev`, `visits`, `currentPlayer`, `lcb`,
`utility`); `ownership` (`includeOwnership`): the final board of the position's line played
out, +1 a stone of the perspective's side at the end, -1 the other's, 0 empty, row by row from
the top left (A5); `ownershipStdev` beside it, 0 where the line is proven, 1 where it is the
estimate's; `policy` (`includePolicy`): the prior of each point, -1 where illegal, the pass
last. Values are for `reportAnalysisWinratesAs`'s side.

The engine never hangs its GUI: the end of stdin lets it finish the open turns (each within its
maxTime) and exit, at once with --quit-without-waiting (each open turn then gets its final
answer); it exits at once if its parent process goes away (a GUI killed without closing its
pipes), and a closed stdout ends it (SIGPIPE).
"""

import argparse
import json
import math
import os
import queue
import sys
import threading
import time

import agent
import agent_settings
import go_board
import littlego
from littlego.analysis import exact, live, stored_values
from littlego.analysis.vertices import NotAVertex, parse_vertex, vertex_text, with_mover

SIZE = go_board.SIZE
# The slices the turns are worked in (wall seconds; the compiled solver's are CPU seconds):
# a terminate or a new query waits at most about this long.
SLICE_SECONDS = 0.1
# A turn's work without a maxTime (--max-time), and the estimate's simulations without a
# maxVisits (--max-visits): every turn ends, and its MCTS tree stays small.
DEFAULT_MAX_TIME = 60.0
DEFAULT_MAX_VISITS = 20000
# How often the idle engine looks whether its parent is still there.
IDLE_POLL_SECONDS = 1.0
# A query line longer than this is refused (a 24-move query is under 2 KB).
MAX_LINE_BYTES = 1 << 20
PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")
PLAYERS = {"B": go_board.BLACK, "W": go_board.WHITE}
PLAYER_LETTERS = {colour: letter for letter, colour in PLAYERS.items()}
# Rules that count as Little-Go's: KataGo's stone scoring (area scoring, territory taxed away:
# the stones alone count; simple ko; no suicide), as a name or as its JSON object.
STONE_SCORING_NAMES = ("stone_scoring", "stone-scoring", "stone scoring", "ancient_area",
                       "ancient-area", "ancient area")
STONE_SCORING_RULES = {"ko": "SIMPLE", "scoring": "AREA", "tax": "ALL", "suicide": False}
QUERY_FIELDS = ("id", "moves", "initialStones", "initialPlayer", "analyzeTurns", "rules", "komi",
                "boardXSize", "boardYSize", "maxVisits", "overrideSettings",
                "reportDuringSearchEvery", "includeOwnership", "includeMovesOwnership",
                "includePolicy", "avoidMoves", "allowMoves", "priority", "priorities")
ACTIONS = ("query_version", "clear_cache", "terminate", "terminate_all")
NOT_LITTLE_GO = ("Little-Go is played with stone scoring (the stones alone count), simple ko, "
                 "komi 2.5 and at most 24 plies: the analysis is for its rules, not for {}")
EOF_LINE = object()  # what the reading thread queues at the end of stdin


class QueryError(Exception):
    """A query that cannot be analysed: KataGo's `{"error", "field", "id"}`."""

    def __init__(self, message, field=None):
        Exception.__init__(self, message)
        self.field = field


def error_line(message, field=None, query_id=None):
    line = {"error": message}
    if field is not None:
        line["field"] = field
    if query_id is not None:
        line["id"] = query_id
    return line


def warning_line(message, field, query_id):
    return {"warning": message, "field": field, "id": query_id}


# ---- reading a query ------------------------------------------------------------------------

def parse_location(text):
    """A move from a KataGo location: a GTP vertex, `pass` or `(x,y)` (x the column, y the
    row from the top, from 0)."""
    if not isinstance(text, str):
        raise NotAVertex("{!r} is not a location".format(text))
    word = text.strip()
    if word.startswith("(") and word.endswith(")"):
        try:
            x, y = (int(part) for part in word[1:-1].split(","))
            return go_board.from_coord(y, x)
        except ValueError:
            raise NotAVertex("{} is not a point of the {}x{} board".format(text, SIZE, SIZE))
    return parse_vertex(word)


def parse_player(value, field):
    if not isinstance(value, str) or value.upper() not in PLAYERS:
        raise QueryError("{!r} is not a player: B or W".format(value), field)
    return PLAYERS[value.upper()]


def parse_moves(value, field):
    """`[(colour, move)]` from KataGo's `[[player, location], ...]`."""
    if not isinstance(value, list):
        raise QueryError("must be a list of [player, location] pairs", field)
    moves = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise QueryError("{!r} is not a [player, location] pair".format(pair), field)
        try:
            moves.append((parse_player(pair[0], field), parse_location(pair[1])))
        except NotAVertex as error:
            raise QueryError(str(error), field)
    return moves


def number(query, field, default, kind=float, low=None):
    """`query[field]` as a number (a whole one when `kind` is int; above `low` when given), or
    `default` when absent."""
    if field not in query:
        return default
    value = query[field]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            kind is int and value != int(value)):
        raise QueryError("{!r} is not a {}".format(
            value, "whole number" if kind is int else "number"), field)
    if low is not None and value <= low:
        raise QueryError("{!r} is not above {}".format(value, low), field)
    return kind(value)


def flag(query, field):
    value = query.get(field, False)
    if not isinstance(value, bool):
        raise QueryError("{!r} is not true or false".format(value), field)
    return value


def start_position(query, moves):
    """The position at turn 0: `initialStones` on an empty board at ply 1, `initialPlayer`
    (else the first of `moves`' player, else Black) to move."""
    stones = parse_moves(query.get("initialStones", []), "initialStones")
    black = white = 0
    for colour, point in stones:
        if point == go_board.PASS or (black | white) >> point & 1:
            raise QueryError("stones must stand on distinct points", "initialStones")
        if colour == go_board.BLACK:
            black |= 1 << point
        else:
            white |= 1 << point
    if go_board.dead_group(black, white) is not None:
        raise QueryError("a group of these stones has no liberty", "initialStones")
    if "initialPlayer" in query:
        to_move = parse_player(query["initialPlayer"], "initialPlayer")
    else:
        to_move = moves[0][0] if moves else go_board.BLACK
    return go_board.Position(black, white, to_move)


def positions_of(query):
    """The position at every turn: turn 0, then after each move; QueryError for a move the
    rules refuse or one after the end of the game."""
    if "moves" not in query:
        raise QueryError("the query has no moves (an empty list for none)", "moves")
    moves = parse_moves(query["moves"], "moves")
    positions = [start_position(query, moves)]
    for number_, (colour, move) in enumerate(moves, 1):
        position = positions[-1]
        if position.is_over:
            raise QueryError("Illegal move {}: {}: the game is over (Little-Go ends after "
                             "ply {} or two passes in a row)".format(
                                 number_, vertex_text(move), go_board.MAX_PLY), "moves")
        try:
            positions.append(with_mover(position, colour).play(move))
        except go_board.IllegalMove as error:
            raise QueryError("Illegal move {}: {}: {}".format(
                number_, vertex_text(move), error.reason), "moves")
    return positions


def restriction(query, positions, turns, warnings):
    """`{turn: the moves to analyse there}` from avoidMoves and allowMoves (the side to move's
    first move only; a turn without one is not in it)."""
    found = {}
    for field, allow in (("avoidMoves", False), ("allowMoves", True)):
        entries = query.get(field)
        if entries is None:
            continue
        if not isinstance(entries, list) or (allow and len(entries) != 1):
            raise QueryError("must be a list of {{player, moves, untilDepth}} dicts{}".format(
                ", exactly one" if allow else ""), field)
        deep = False
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) != {"player", "moves", "untilDepth"}:
                raise QueryError("{!r} is not a {{player, moves, untilDepth}} dict".format(
                    entry), field)
            colour = parse_player(entry["player"], field)
            depth = number(entry, "untilDepth", None, int, 0)
            if depth is None:
                raise QueryError("untilDepth must be a whole number above 0", field)
            try:
                listed = {parse_location(text) for text in entry["moves"]}
            except (NotAVertex, TypeError) as error:
                raise QueryError(str(error), field)
            deep = deep or depth > 1
            for turn in turns:
                legal = positions[turn].legal_moves()
                if positions[turn].to_move != colour or not legal:
                    continue
                chosen = found.get(turn, legal)
                chosen = [move for move in chosen if (move in listed) == allow]
                if not chosen:
                    raise QueryError("no legal move is left to analyse at turn {}".format(
                        turn), field)
                found[turn] = chosen
        if deep:
            warnings.append(("only the first move is restricted: the values after it are "
                             "under perfect play", field))
    return found


def rules_warnings(query):
    """`[(message, field)]` for rules and komi other than Little-Go's."""
    warnings = []
    rules = query.get("rules")
    if rules is not None:
        if isinstance(rules, str):
            little_go = rules.strip().lower() in STONE_SCORING_NAMES
        else:
            little_go = isinstance(rules, dict) and all(
                str(rules.get(key, "")).upper() == str(value).upper()
                for key, value in STONE_SCORING_RULES.items())
        if not little_go:
            warnings.append((NOT_LITTLE_GO.format(json.dumps(rules)), "rules"))
    komi = number(query, "komi", None)
    if komi is not None and komi != go_board.KOMI:
        warnings.append((NOT_LITTLE_GO.format("komi {:g}".format(komi)), "komi"))
    return warnings


class Request(object):
    """A query read: `id`, its positions, the `turns` to analyse with their priorities and
    move restrictions, the answers' options, and the `warnings` to send; QueryError for what
    cannot be analysed."""

    def __init__(self, query, default_max_time, default_max_visits, default_perspective):
        self.id = query["id"]
        self.warnings = rules_warnings(query)
        for field in ("boardXSize", "boardYSize"):
            if number(query, field, SIZE, int) != SIZE:
                raise QueryError("Little-Go is played on the {}x{} board".format(SIZE, SIZE),
                                 field)
        self.warnings += [("unexpected or unused field: ignored", field)
                          for field in sorted(query) if field not in QUERY_FIELDS]
        self.positions = positions_of(query)
        turns = query.get("analyzeTurns", [len(self.positions) - 1])
        if not isinstance(turns, list) or not all(
                isinstance(turn, int) and not isinstance(turn, bool)
                and 0 <= turn < len(self.positions) for turn in turns):
            raise QueryError("must be a list of turn numbers from 0 to {}".format(
                len(self.positions) - 1), "analyzeTurns")
        self.turns = turns
        priority = number(query, "priority", 0, int)
        priorities = query.get("priorities", [priority] * len(turns))
        if not isinstance(priorities, list) or len(priorities) != len(turns) or not all(
                isinstance(value, int) and not isinstance(value, bool) for value in priorities):
            raise QueryError("must be a list of whole numbers, one for each analysed turn",
                             "priorities")
        self.priorities = priorities
        self.allowed = restriction(query, self.positions, turns, self.warnings)
        settings = query.get("overrideSettings", {})
        if not isinstance(settings, dict):
            raise QueryError("must be an object of settings", "overrideSettings")
        self.max_time = number(settings, "maxTime", default_max_time, float, 0)
        self.max_visits = number(settings, "maxVisits", number(
            query, "maxVisits", default_max_visits, int, 0), int, 0)
        perspective = settings.get("reportAnalysisWinratesAs", default_perspective)
        if perspective not in PERSPECTIVES:
            raise QueryError("reportAnalysisWinratesAs is one of {}".format(
                ", ".join(PERSPECTIVES)), "overrideSettings")
        self.perspective = perspective
        ignored = sorted(set(settings) - {"maxTime", "maxVisits", "reportAnalysisWinratesAs"})
        if ignored:
            self.warnings.append(("settings of KataGo's search that the exact analysis does "
                                  "not use, ignored: {}".format(", ".join(ignored)),
                                  "overrideSettings"))
        self.report_every = number(query, "reportDuringSearchEvery", None, float, 0)
        self.ownership = flag(query, "includeOwnership")
        self.moves_ownership = flag(query, "includeMovesOwnership")
        self.policy = flag(query, "includePolicy")


# ---- an answer ------------------------------------------------------------------------------

def flip(perspective, position):
    """Whether values for the side to move are turned round for `perspective`."""
    if perspective == "SIDETOMOVE":
        return False
    return (position.to_move == go_board.BLACK) != (perspective == "BLACK")


def values(known, stdev, sign, flipped):
    """The KataGo fields of a live.Known, for the perspective (`sign` -1 turns scores
    round)."""
    winrate = 1.0 - known.winrate if flipped else known.winrate
    margin = 1.0 / math.sqrt(1.0 + known.visits) if known.result is None else 0.0
    score = sign * known.score
    return {"winrate": winrate, "scoreLead": score, "scoreMean": score, "scoreSelfplay": score,
            "scoreStdev": stdev, "visits": known.visits, "lcb": winrate - margin,
            "utility": 2.0 * winrate - 1.0}


def answer(request, turn, report, during):
    """The answer to `request` for `turn` from a live.Report (see the module docstring)."""
    position = report.position
    flipped = flip(request.perspective, position)
    sign = -1.0 if flipped else 1.0
    seen_by = {"BLACK": go_board.BLACK, "WHITE": go_board.WHITE}.get(
        request.perspective, position.to_move)
    legal = position.legal_moves()
    prior = 1.0 / len(legal) if legal else 0.0
    stdev_after = float(go_board.plies_left(position.ply + 1))
    infos = []
    for order, known in enumerate(report.moves):
        info = dict(values(known, 0.0 if known.margin is not None else stdev_after, sign,
                           flipped), move=vertex_text(known.move), order=order, prior=prior,
                    pv=[vertex_text(move) for move in known.line])
        if request.moves_ownership:
            info["ownership"] = live.ownership(position, known.line, seen_by)
            info["ownershipStdev"] = [0.0 if known.line_exact else 1.0] * go_board.NUM_POINTS
        infos.append(info)
    root = report.root
    root_info = values(root, 0.0 if root.margin is not None else float(
        go_board.plies_left(position.ply)), sign, flipped)
    root_info["currentPlayer"] = PLAYER_LETTERS[position.to_move]
    result = {"id": request.id, "turnNumber": turn, "isDuringSearch": during,
              "moveInfos": infos, "rootInfo": root_info}
    if request.ownership:
        result["ownership"] = live.ownership(position, root.line, seen_by)
        result["ownershipStdev"] = [0.0 if root.line_exact else 1.0] * go_board.NUM_POINTS
    if request.policy:
        result["policy"] = [prior if point in legal else -1.0
                            for point in range(go_board.NUM_POINTS)] + [
            prior if go_board.PASS in legal else -1.0]
    return result


# ---- the engine -----------------------------------------------------------------------------

class Turn(object):
    """One analysed turn of a request: its analysis and how much work it has had."""

    def __init__(self, request, turn, priority, sequence, analysis):
        self.request, self.turn, self.priority = request, turn, priority
        self.sequence = sequence
        self.analysis = analysis
        self.settled = analysis.complete()
        self.worked = 0.0  # CPU seconds of work
        self.steps = 0
        self.reported = None  # wall time of the last answer during the search

    def key(self):
        """The order turns are worked in: those known without work first (a stored position,
        the end of the game: answered at once, whatever their priority), then the highest
        priority, the least worked, the earliest."""
        return (not self.settled, -self.priority, self.worked, self.sequence)

    def final(self):
        if not self.steps:
            return {"id": self.request.id, "turnNumber": self.turn, "isDuringSearch": False,
                    "noResults": True}
        return answer(self.request, self.turn, self.analysis.report(), False)


class AnalysisEngine(object):
    """The engine's state: the open turns, the shared exact search, the book and settings;
    `write(dict)` sends one answer line. Options: `max_time` and `max_visits`, the defaults of
    a query without them; `perspective`, the default reportAnalysisWinratesAs."""

    def __init__(self, settings, book, write, max_time=DEFAULT_MAX_TIME,
                 max_visits=DEFAULT_MAX_VISITS, perspective="BLACK", values=None):
        self.settings, self.book, self.write = settings, book, write
        self.max_time, self.max_visits, self.perspective = max_time, max_visits, perspective
        self.values = stored_values.read() if values is None else values
        self.engine = None  # the exact search, made when first needed
        self.turns = []
        self.sequence = 0

    def handle(self, text):
        """Answer one input line: an action at once, a query queued (its warnings and errors
        at once)."""
        try:
            query = json.loads(text)
        except ValueError as error:
            return self.write(error_line("could not parse the line as JSON: {}".format(error)))
        if not isinstance(query, dict):
            return self.write(error_line("a query is a JSON object, one a line"))
        query_id = query.get("id")
        if not isinstance(query_id, str):
            return self.write(error_line("the query has no string id", "id"))
        try:
            if "action" in query:
                return self.act(query)
            request = Request(query, self.max_time, self.max_visits, self.perspective)
        except QueryError as error:
            return self.write(error_line(str(error), error.field, query_id))
        for message, field in request.warnings:
            self.write(warning_line(message, field, query_id))
        for turn, priority in zip(request.turns, request.priorities):
            self.queue(request, turn, priority)

    def queue(self, request, turn, priority):
        if self.engine is None and self.settings.use_solver:
            self.engine = exact.engine()
        analysis = live.Analysis(
            request.positions[turn], self.settings, self.book, self.values, self.engine,
            moves=request.allowed.get(turn), move_lines=request.moves_ownership,
            want_try=False, max_simulations=request.max_visits)
        self.sequence += 1
        self.turns.append(Turn(request, turn, priority, self.sequence, analysis))

    def act(self, query):
        action = query["action"]
        if action not in ACTIONS:
            raise QueryError("unknown action {!r}: {}".format(action, ", ".join(ACTIONS)),
                             "action")
        if action == "query_version":
            return self.write(dict(query, version=littlego.__version__, git_hash="<omitted>"))
        if action == "clear_cache":
            if self.engine is not None:
                self.engine.clear()
            return self.write(dict(query))
        numbers = query.get("turnNumbers")
        if numbers is not None and (not isinstance(numbers, list) or not all(
                isinstance(value, int) for value in numbers)):
            raise QueryError("must be a list of turn numbers", "turnNumbers")
        if action == "terminate":
            if not isinstance(query.get("terminateId"), str):
                raise QueryError("terminate needs the string id of the query to end",
                                 "terminateId")
        self.write(dict(query))
        self.terminate(lambda turn: (action == "terminate_all" or
                                     turn.request.id == query["terminateId"])
                       and (numbers is None or turn.turn in numbers))

    def terminate(self, chosen):
        """End the open turns `chosen(turn)` says, each with its final answer."""
        for turn in [turn for turn in self.turns if chosen(turn)]:
            self.finish(turn)

    def finish(self, turn):
        self.turns.remove(turn)
        self.write(turn.final())

    def work(self):
        """One slice on the turn first in line; its answer when one is due."""
        turn = min(self.turns, key=Turn.key)
        started = time.process_time()
        working = turn.analysis.step(SLICE_SECONDS)
        turn.steps += 1
        turn.worked += time.process_time() - started
        now = time.monotonic()
        if not working or turn.analysis.complete() or turn.worked >= turn.request.max_time:
            return self.finish(turn)
        every = turn.request.report_every
        if every is not None and (turn.reported is None or now - turn.reported >= every):
            turn.reported = now
            self.write(answer(turn.request, turn.turn, turn.analysis.report(), True))

    def close(self):
        if self.engine is not None:
            self.engine.close()


def read_lines(stream, lines):
    """Put each line of the binary `stream` on the queue `lines` (text, or an error dict for a
    line too long), then EOF_LINE at its end."""
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            lines.put(EOF_LINE)
            return
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_LINE_BYTES)
            lines.put(error_line("a query line is at most {} bytes".format(MAX_LINE_BYTES)))
            continue
        lines.put(raw.decode("utf-8", "replace"))


def serve(engine, stream, quit_without_waiting=False, parent=None):
    """Answer the lines of the binary `stream` until its end (then the open turns are
    finished, or ended at once with `quit_without_waiting`) or until the parent process
    `parent` (a pid; None: not watched) goes away."""
    lines = queue.Queue()
    threading.Thread(target=read_lines, args=(stream, lines), daemon=True).start()
    ended = False
    while True:
        if parent is not None and os.getppid() != parent:
            return  # the GUI went away without closing our pipes: no one reads the answers
        arrived = []
        if not ended:
            try:  # idle: wait for a line (a while only, to look at the parent again)
                arrived.append(lines.get(timeout=IDLE_POLL_SECONDS) if not engine.turns
                               else lines.get_nowait())
                while True:
                    arrived.append(lines.get_nowait())
            except queue.Empty:
                pass
        for line in arrived:
            if line is EOF_LINE:
                ended = True
            elif isinstance(line, dict):
                engine.write(line)
            elif line.strip():
                engine.handle(line)
        if ended and quit_without_waiting:
            engine.terminate(lambda turn: True)
        if engine.turns:
            engine.work()
        elif ended:
            return


def main(argv=None):
    """`littlego analysis [--max-time S] [--max-visits N] [--report-as SIDE]
    [--quit-without-waiting]`: the exit code."""
    parser = argparse.ArgumentParser(
        prog="littlego analysis",
        description="KataGo's JSON analysis engine protocol on stdin and stdout, for Little-Go "
                    "(5x5, stones only, komi 2.5, at most 24 plies), exact wherever the "
                    "position is solved: for GUIs such as KaTrain.")
    parser.add_argument("--max-time", type=float, default=DEFAULT_MAX_TIME, metavar="S",
                        help="CPU seconds of work on a turn whose query sets no maxTime "
                             "(default %(default)s)")
    parser.add_argument("--max-visits", type=int, default=DEFAULT_MAX_VISITS, metavar="N",
                        help="the estimate's simulations for a query without maxVisits "
                             "(default %(default)s)")
    parser.add_argument("--report-as", choices=PERSPECTIVES, default="BLACK",
                        help="reportAnalysisWinratesAs for a query without it "
                             "(default %(default)s)")
    parser.add_argument("--quit-without-waiting", action="store_true",
                        help="at the end of stdin, end the open turns at once")
    args = parser.parse_args(argv)
    if args.max_time <= 0 or args.max_visits <= 0:
        parser.error("--max-time and --max-visits must be positive")
    try:
        settings = agent_settings.Settings(os.environ)
    except ValueError as error:
        sys.stderr.write("analysis: bad LITTLEGO_* setting: {}\n".format(error))
        return 2

    def write(line):
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()

    engine = AnalysisEngine(settings, agent.read_book(settings), write, args.max_time,
                            args.max_visits, args.report_as)
    parent = os.getppid()
    try:
        serve(engine, sys.stdin.buffer, args.quit_without_waiting,
              None if parent == 1 else parent)
    except KeyboardInterrupt:
        return 130
    finally:
        engine.close()
    return 0
