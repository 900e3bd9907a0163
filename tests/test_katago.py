"""littlego/analysis/katago.py, `littlego analysis`: KataGo's JSON analysis protocol. In
process: the answer's fields (exact values, ownership of the proven line, the policy, the
perspective), every turn answered once, errors and warnings in KataGo's shapes, the actions,
the restrictions, priorities; as a process, as a GUI runs it: the first answer within a second,
a terminate answered at once, garbage answered with an error line, the end of stdin and the
death of its parent ending it."""

import io
import json
import os
import random
import select
import signal
import subprocess
import sys
import time

import psutil
import pytest

import agent
import agent_settings
import endgame
import go_board
from littlego.analysis import katago, live, stored_values
from littlego.analysis.vertices import vertex_text
from littlego.bench.positions import pick_move

from referee_support import exited

SETTINGS = agent_settings.Settings({"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "11"})
ENGINE = [sys.executable, "-m", "littlego", "analysis"]
LINE_TIMEOUT = 60.0
# Ply 5, Black to move, off the stored table: the exact search takes seconds here.
EARLY_MOVES = [["B", "C3"], ["W", "A5"], ["B", "B4"], ["W", "D2"]]


def engine(**options):
    written = []
    return katago.AnalysisEngine(SETTINGS, agent.read_book(SETTINGS), written.append,
                                 **options), written


def run(queries, **options):
    """Every line the engine writes for `queries` (dicts or text), the input then ending."""
    analysis, written = engine(**options)
    text = "".join((query if isinstance(query, str) else json.dumps(query)) + "\n"
                   for query in queries)
    katago.serve(analysis, io.BytesIO(text.encode()))
    analysis.close()
    return written


def query(**fields):
    return dict({"id": "q", "moves": [], "rules": "stone_scoring", "komi": 2.5,
                 "boardXSize": 5, "boardYSize": 5}, **fields)


def moves_of(position_moves):
    """KataGo's moves for go_board moves from the empty board, colours alternating."""
    return [["BW"[index % 2], vertex_text(move)] for index, move in enumerate(position_moves)]


def test_the_empty_board_is_answered_exactly_from_the_table():
    [answer] = run([query(includeOwnership=True, includeMovesOwnership=True,
                          includePolicy=True)])
    assert (answer["id"], answer["turnNumber"], answer["isDuringSearch"]) == ("q", 0, False)
    root = answer["rootInfo"]
    assert (root["winrate"], root["scoreLead"], root["scoreStdev"], root["currentPlayer"]) == (
        1.0, 0.5, 0.0, "B")
    infos = answer["moveInfos"]
    assert len(infos) == 26 and [info["order"] for info in infos] == list(range(26))
    best = infos[0]
    assert (best["move"], best["winrate"], best["scoreLead"], best["scoreMean"],
            best["scoreStdev"], best["lcb"], best["utility"]) == ("C3", 1.0, 0.5, 0.5, 0.0, 1.0,
                                                                  1.0)
    assert best["pv"][0] == "C3" and len(best["pv"]) >= 20
    assert all(info["scoreStdev"] == 0.0 for info in infos)
    assert [info["scoreLead"] for info in infos] == sorted(
        (info["scoreLead"] for info in infos), reverse=True)
    assert all(info["prior"] == 1 / 26 for info in infos)
    assert answer["policy"] == [1 / 26] * 26
    # The ownership: the board at the end of the proven line, Black's stones +1.
    line = [go_board.move_from_text(text) for text in
            stored_values.read().records[0]["pv"]]  # the empty board's record
    assert root_line(answer) == line
    end = live.line_end(go_board.Position(), line)
    assert answer["ownership"] == [1.0 if end.black >> point & 1 else -1.0 if end.white >> point
                                   & 1 else 0.0 for point in range(25)]
    assert answer["ownershipStdev"] == [0.0] * 25
    assert sum(answer["ownership"]) == 3  # Black ends 3 stones ahead: +0.5 with the komi
    for info in infos:
        assert len(info["ownership"]) == 25 and info["ownershipStdev"] == [0.0] * 25


def root_line(answer):
    return [go_board.move_from_text(go_board.move_to_text(katago.parse_location(text)))
            for text in answer["moveInfos"][0]["pv"]]


def test_every_turn_asked_is_answered_once_with_its_number_and_the_perspective_asked():
    black, white, mover = (run([query(moves=[["B", "C3"], ["W", "C4"]], analyzeTurns=[0, 1, 2],
                                      overrideSettings={"reportAnalysisWinratesAs": side})])
                           for side in ("BLACK", "WHITE", "SIDETOMOVE"))
    assert sorted(answer["turnNumber"] for answer in black) == [0, 1, 2]
    by_turn = {side: {answer["turnNumber"]: answer for answer in answers}
               for side, answers in (("B", black), ("W", white), ("S", mover))}
    # Turn 1, White to move after the centre: Black wins by 0.5 whatever White does best.
    assert by_turn["B"][1]["rootInfo"]["scoreLead"] == 0.5
    assert by_turn["W"][1]["rootInfo"]["scoreLead"] == -0.5
    assert by_turn["S"][1]["rootInfo"]["scoreLead"] == -0.5
    assert by_turn["W"][1]["rootInfo"]["winrate"] == 0.0
    assert by_turn["S"][2]["rootInfo"]["scoreLead"] == by_turn["B"][2]["rootInfo"]["scoreLead"]
    position = go_board.Position()
    for turn, played in zip((0, 1, 2), ("C3", "C4", None)):
        black_infos = by_turn["B"][turn]["moveInfos"]
        white_infos = by_turn["W"][turn]["moveInfos"]
        assert sorted(info["move"] for info in black_infos) == sorted(
            vertex_text(move) for move in position.legal_moves())
        assert [info["move"] for info in black_infos] == [info["move"] for info in white_infos]
        assert [info["scoreLead"] for info in black_infos] == [
            -info["scoreLead"] for info in white_infos]
        if played:
            position = position.play(katago.parse_location(played))


def seeded_game(seed, plies):
    """`(moves, position)`: `plies` moves of a seeded game (captures often) and where they
    lead."""
    rng, position, moves = random.Random(seed), go_board.Position(), []
    while len(moves) < plies:
        move = pick_move(rng, position, 0.0, 0.3)
        moves.append(move)
        position = position.play(move)
    return moves, position


def test_late_positions_give_the_exact_search_s_margins():
    # Seeded late positions: every move's scoreLead (for the side to move) is its exact margin,
    # by endgame.ExactSolver; the root's is the best.
    for seed in (1, 2, 3):
        moves, position = seeded_game(seed, 17)
        [answer] = run([query(moves=moves_of(moves), overrideSettings={
            "reportAnalysisWinratesAs": "SIDETOMOVE"})])
        expected = exact_margins(position)
        assert {info["move"]: info["scoreLead"] for info in answer["moveInfos"]} == expected
        assert answer["rootInfo"]["scoreLead"] == max(expected.values())
        assert answer["moveInfos"][0]["scoreLead"] == max(expected.values())


def exact_margins(position):
    solver = endgame.ExactSolver()
    margins = {}
    for move, child in solver.root_moves(position):
        margins[vertex_text(move)] = endgame.mover_margin(position) if child is None else \
            -solver.value(*(child + (endgame.WORST, -endgame.WORST))) / 2.0
    return margins


def test_the_end_of_the_game_is_its_score():
    moves = [["B", "C3"], ["W", "pass"], ["B", "pass"]]
    [answer] = run([query(moves=moves, includeOwnership=True)])
    assert answer["moveInfos"] == []
    assert (answer["rootInfo"]["scoreLead"], answer["rootInfo"]["scoreStdev"]) == (-1.5, 0.0)
    assert answer["ownership"] == [1.0 if point == 12 else 0.0 for point in range(25)]


@pytest.mark.parametrize("fields, field, message", [
    ({"boardXSize": 9, "boardYSize": 9}, "boardXSize", "Little-Go is played on the 5x5 board"),
    ({"moves": [["B", "C3"], ["W", "C3"]]}, "moves", "Illegal move 2: C3: point is occupied"),
    ({"moves": [["B", "C3"], ["W", "pass"], ["B", "pass"], ["W", "C4"]]}, "moves",
     "Illegal move 4: C4: the game is over"),
    ({"moves": [["B", "Z9"]]}, "moves", "Z9 is not a point of the 5x5 board"),
    ({"moves": [["X", "C3"]]}, "moves", "'X' is not a player"),
    ({"analyzeTurns": [3]}, "analyzeTurns", "must be a list of turn numbers from 0 to 0"),
    ({"overrideSettings": {"maxTime": -1}}, "maxTime", "-1 is not above 0"),
    ({"overrideSettings": {"reportAnalysisWinratesAs": "BOTH"}}, "overrideSettings",
     "reportAnalysisWinratesAs is one of BLACK, WHITE, SIDETOMOVE"),
    ({"includeOwnership": "yes"}, "includeOwnership", "'yes' is not true or false"),
    ({"initialStones": [["B", "A1"], ["W", "A2"], ["W", "B1"]]}, "initialStones",
     "a group of these stones has no liberty"),
    ({"allowMoves": [{"player": "B", "moves": ["C3"], "untilDepth": 1}] * 2}, "allowMoves",
     "exactly one"),
])
def test_what_cannot_be_analysed_is_an_error_for_that_query_and_the_engine_goes_on(
        fields, field, message):
    bad = query(**fields)
    bad["id"] = "bad"
    first, answer = run([bad, query()])
    assert first["id"] == "bad" and first["field"] == field and message in first["error"]
    assert set(first) == {"error", "field", "id"}
    assert answer["id"] == "q" and not answer["isDuringSearch"]


def test_other_rules_komi_and_fields_are_warnings_and_the_answer_is_little_go_s():
    warned = query(rules="japanese", komi=6.5, whiteHandicapBonus="N",
                   overrideSettings={"wideRootNoise": 0.04, "maxTime": 5})
    *warnings, answer = run([warned])
    assert [(warning["field"], warning["id"]) for warning in warnings] == [
        ("rules", "q"), ("komi", "q"), ("whiteHandicapBonus", "q"), ("overrideSettings", "q")]
    assert "komi 6.5" in warnings[1]["warning"] and "wideRootNoise" in warnings[3]["warning"]
    assert answer["rootInfo"]["scoreLead"] == 0.5  # Little-Go's komi, 2.5
    assert run([query(rules={"ko": "SIMPLE", "scoring": "AREA", "tax": "ALL",
                             "suicide": False})])[0]["rootInfo"]["scoreLead"] == 0.5


@pytest.mark.parametrize("line, message", [
    ("not json", "could not parse the line as JSON"), ("[1, 2]", "a query is a JSON object"),
    ('{"moves": []}', "the query has no string id"),
    ('{"id": "a", "action": "ponder"}', "unknown action 'ponder'"),
])
def test_a_line_that_is_no_query_is_an_error_line(line, message):
    first, answer = run([line, query()])
    assert message in first["error"]
    assert answer["id"] == "q"


def test_the_actions_are_echoed():
    version, cleared = run([{"id": "v", "action": "query_version"},
                            {"id": "c", "action": "clear_cache"}])
    assert version == {"id": "v", "action": "query_version", "version": katago.littlego
                       .__version__, "git_hash": "<omitted>"}
    assert cleared == {"id": "c", "action": "clear_cache"}


def test_a_turn_terminated_before_any_work_has_no_results_and_the_others_go_on():
    analysis, written = engine()
    analysis.handle(json.dumps(query(id="a", analyzeTurns=[0])))
    analysis.handle(json.dumps(query(id="b", moves=EARLY_MOVES, analyzeTurns=[2, 4])))
    analysis.handle(json.dumps({"id": "t", "action": "terminate", "terminateId": "b",
                                "turnNumbers": [4]}))
    assert written == [{"id": "t", "action": "terminate", "terminateId": "b",
                        "turnNumbers": [4]},
                       {"id": "b", "turnNumber": 4, "isDuringSearch": False, "noResults": True}]
    assert sorted((turn.request.id, turn.turn) for turn in analysis.turns) == [("a", 0),
                                                                               ("b", 2)]
    analysis.handle(json.dumps({"id": "all", "action": "terminate_all"}))
    assert [line.get("turnNumber") for line in written[2:]] == [None, 0, 2]
    assert analysis.turns == []
    analysis.close()


def test_during_the_search_answers_come_then_exactly_one_final():
    answers = run([query(moves=EARLY_MOVES, reportDuringSearchEvery=0.2,
                         overrideSettings={"maxTime": 1.5})])
    assert [answer["isDuringSearch"] for answer in answers[:-1]] == [True] * (len(answers) - 1)
    assert not answers[-1]["isDuringSearch"] and len(answers) >= 3
    for answer in answers:
        for info in answer["moveInfos"]:
            exact = info["scoreStdev"] == 0.0
            assert exact == (info["visits"] >= 2 * live.PROVEN_VISITS) or info["move"] == "pass"
            assert exact or info["scoreStdev"] == go_board.plies_left(6)
    # Visits never fall from one answer to the next: a client keeping the most visited keeps
    # the proofs.
    for earlier, later in zip(answers, answers[1:]):
        before = {info["move"]: info["visits"] for info in earlier["moveInfos"]}
        assert all(info["visits"] >= before[info["move"]] for info in later["moveInfos"])


def test_avoided_and_allowed_moves_leave_the_first_move_only():
    avoid = [{"player": "B", "moves": ["C3", "B3"], "untilDepth": 1},
             {"player": "W", "moves": ["D4"], "untilDepth": 3}]
    warning, answer = run([query(avoidMoves=avoid)])
    assert warning["field"] == "avoidMoves" and "first move" in warning["warning"]
    assert {"C3", "B3"}.isdisjoint(info["move"] for info in answer["moveInfos"])
    assert len(answer["moveInfos"]) == 24
    # Without the centre Black loses: the root is the best allowed move's value.
    assert answer["rootInfo"]["scoreLead"] == answer["moveInfos"][0]["scoreLead"] == -2.5
    [allowed] = run([query(allowMoves=[{"player": "B", "moves": ["A1", "pass"],
                                         "untilDepth": 1}])])
    assert sorted(info["move"] for info in allowed["moveInfos"]) == ["A1", "pass"]
    assert allowed["rootInfo"]["scoreLead"] == -2.5  # the pass: White wins by the komi


def test_the_highest_priority_is_worked_on_first():
    answers = run([query(id="low", moves=EARLY_MOVES, priority=-5,
                         overrideSettings={"maxTime": 0.5}),
                   query(id="high", moves=EARLY_MOVES[:3], priority=10,
                         overrideSettings={"maxTime": 0.5})])
    assert [answer["id"] for answer in answers] == ["high", "low"]


# ---- as a process ----------------------------------------------------------------------------

class Engine(object):
    """`littlego analysis` as a GUI starts it, its answers read a line at a time."""

    def __init__(self, *args, command=None):
        self.process = subprocess.Popen(command or ENGINE + list(args), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""

    def send(self, line):
        self.process.stdin.write((line if isinstance(line, str) else json.dumps(line))
                                 .encode() + b"\n")
        self.process.stdin.flush()

    def answer(self, timeout=LINE_TIMEOUT):
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0 and select.select([fd], [], [], left)[0], "no answer in time"
            chunk = os.read(fd, 65536)
            assert chunk, "the engine closed its output"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def process():
    started = []

    def start(*args, **options):
        started.append(Engine(*args, **options))
        return started[-1]
    yield start
    for engine_process in started:
        engine_process.close()


def test_the_first_answer_comes_within_a_second_and_a_terminate_ends_the_search(process):
    analysis = process()
    analysis.send({"id": "v", "action": "query_version"})
    assert analysis.answer()["version"]  # started: its imports done
    sent = time.monotonic()
    analysis.send(query(id="e", moves=EARLY_MOVES, reportDuringSearchEvery=0.5))
    first = analysis.answer()
    assert time.monotonic() - sent < 1.0 and first["isDuringSearch"]
    analysis.send({"id": "t", "action": "terminate", "terminateId": "e"})
    sent = time.monotonic()
    answers = [analysis.answer()]
    while answers[-1].get("isDuringSearch", True) or answers[-1].get("id") == "t":
        answers.append(analysis.answer())
    assert time.monotonic() - sent < 1.0
    assert {"id": "t", "action": "terminate", "terminateId": "e"} in answers
    final = answers[-1]
    assert (final["id"], final["isDuringSearch"], len(final["moveInfos"])) == ("e", False, 22)


def test_garbage_gets_an_error_line_and_the_end_of_input_ends_the_engine(process):
    analysis = process()
    analysis.send("\x00\xff garbage {")
    analysis.send(query(id="after"))
    assert "error" in analysis.answer()
    assert analysis.answer()["id"] == "after"
    analysis.send(query(id="last", moves=EARLY_MOVES[:2]))
    analysis.process.stdin.close()
    assert analysis.answer()["id"] == "last"  # the open turn finished first
    assert analysis.process.wait(LINE_TIMEOUT) == 0
    assert analysis.process.stderr.read() == b""


def test_without_waiting_the_end_of_input_ends_the_open_turns_at_once(process):
    analysis = process("--quit-without-waiting")
    analysis.send(query(id="e", moves=EARLY_MOVES, overrideSettings={"maxTime": 300}))
    time.sleep(0.5)
    ended = time.monotonic()
    analysis.process.stdin.close()
    final = analysis.answer()
    assert final["id"] == "e" and not final["isDuringSearch"]
    assert analysis.process.wait(LINE_TIMEOUT) == 0 and time.monotonic() - ended < 2.0


def test_the_engine_ends_when_its_parent_goes_away(process):
    # A shell that forks the engine (`; true` keeps it from exec'ing), killed as a GUI's
    # terminate kills its child: the engine, now an orphan whose pipes stay open, must go.
    shell = process(command=["sh", "-c", " ".join(ENGINE) + "; true"])
    shell.send({"id": "v", "action": "query_version"})
    assert shell.answer()["id"] == "v"  # started, as a GUI's engine is when it goes
    shell.send(query(id="e", moves=EARLY_MOVES, overrideSettings={"maxTime": 300}))
    [child] = psutil.Process(shell.process.pid).children()
    shell.process.send_signal(signal.SIGKILL)
    shell.process.wait(10)
    assert exited(child, 5 * katago.IDLE_POLL_SECONDS)


def test_a_stored_position_is_answered_before_a_search_of_higher_priority():
    answers = run([query(id="search", moves=EARLY_MOVES, priority=10,
                         overrideSettings={"maxTime": 0.5}),
                   query(id="stored", priority=-10)])
    assert [answer["id"] for answer in answers] == ["stored", "search"]
