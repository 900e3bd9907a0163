"""The one analysis, three presenters: the same position asked through GTP's kata-analyze
(littlego/gtp/engine.py), KataGo's JSON protocol (littlego/analysis/katago.py) and the browser
board's analysis job (littlego/web/server.py) gives the same numbers: every move's exact
margin, its result and winrate, the ranking, and the position's value. The positions: every
one the stored value table holds (plies 1 to 5) and plies 12 to 23 of recorded games, where
each presenter finishes in about a second."""

import json
import os
import time

import pytest

import agent_settings
import go_board
import opening_book
from littlego.analysis import katago, live, stored_values
from littlego.analysis.vertices import vertex_text
from littlego.gtp import engine as gtp_engine
from littlego.paths import REPO_ROOT
from littlego.web import server

SETTINGS = agent_settings.Settings({"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": "5"})
RECORDED = os.path.join(REPO_ROOT, "recorded_games", "ladder-alphabeta4-1s.jsonl")
GAMES = 3
PLIES = range(12, 24)
TIMEOUT = 60.0


def positions():
    """`[(moves from the empty board as texts)]`: the table's positions, then the recorded
    games' at PLIES."""
    lines = [record["line"] for record in stored_values.read().records]
    with open(RECORDED) as handle:
        games = [json.loads(line)["moves"] for line in handle][:GAMES]
    for moves in games:
        lines += [moves[:ply - 1] for ply in PLIES if ply - 1 <= len(moves)]
    return lines


LINES = positions()


def position_of(line):
    position = go_board.Position()
    for text in line:
        position = position.play(go_board.move_from_text(text))
    return position


def test_the_positions_are_many_and_reach_from_ply_1_to_23():
    plies = sorted({position_of(line).ply for line in LINES})
    assert len(LINES) >= 50 and plies[0] == 1 and plies[-1] == 23
    assert not any(position_of(line).is_over for line in LINES)


@pytest.fixture(scope="module")
def presenters():
    written = []
    json_engine = katago.AnalysisEngine(SETTINGS, opening_book.read(), written.append)
    gtp = gtp_engine.GtpEngine(SETTINGS, opening_book.read())
    yield json_engine, written, gtp
    json_engine.close()


def json_answer(json_engine, written, line):
    colours = "BW"
    json_engine.handle(json.dumps({
        "id": "q", "moves": [[colours[index % 2], vertex_text(go_board.move_from_text(text))]
                             for index, text in enumerate(line)],
        "overrideSettings": {"reportAnalysisWinratesAs": "SIDETOMOVE", "maxTime": TIMEOUT}}))
    while json_engine.turns:
        json_engine.work()
    [answer] = written
    del written[:]
    return answer


def gtp_blocks(gtp, position):
    """The blocks of the first kata-analyze line where every move is exact."""
    gtp.position = position
    _, _, stream = gtp.handle("kata-analyze 5")
    deadline = time.monotonic() + TIMEOUT
    for text in stream.lines(lambda seconds: time.sleep(seconds) or False):
        blocks = []
        for chunk in text.split("info ")[1:]:
            words = chunk.split()
            pv_at = words.index("pv")
            blocks.append(dict(zip(words[:pv_at:2], words[1:pv_at:2])))
        if all(block["scoreStdev"] == "0" for block in blocks):
            return blocks
        assert time.monotonic() < deadline


def board_answer(position):
    job = server.AnalysisJob(position)
    assert job.done.wait(TIMEOUT)
    return job.wait(0)[1]


@pytest.mark.parametrize("index", range(len(LINES)))
def test_gtp_json_and_the_board_give_the_same_numbers(presenters, index):
    json_engine, written, gtp = presenters
    position = position_of(LINES[index])
    answer = json_answer(json_engine, written, LINES[index])
    blocks = gtp_blocks(gtp, position)
    board = board_answer(position)
    infos = answer["moveInfos"]
    assert [info["move"] for info in infos] == [block["move"] for block in blocks]
    legal = position.legal_moves()
    assert len(infos) == len(legal) == len(board["moves"]) and not board["unknown"]
    for info, block in zip(infos, blocks):
        proven = board["moves"][go_board.move_to_text(
            katago.parse_location(info["move"]))]
        assert info["scoreStdev"] == 0.0
        assert info["scoreLead"] == float(block["scoreLead"]) == proven["margin"]
        assert info["winrate"] == float(block["winrate"]) == (
            1.0 if proven["result"] == "win" else 0.0)
        # The estimate's simulations differ from run to run; the proofs' part does not.
        assert int(block["visits"]) >= 2 * live.PROVEN_VISITS <= info["visits"]
    assert answer["rootInfo"]["scoreLead"] == board["margin"] == infos[0]["scoreLead"]
    assert answer["rootInfo"]["winrate"] == (1.0 if board["result"] == "win" else 0.0)
