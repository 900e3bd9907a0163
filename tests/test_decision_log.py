"""The agent's decision record (decision_log.py): a Decision becomes one JSON line on stderr,
reading an agent's stderr gives back exactly its records, in order, whatever else it says, and
a try says what it asks of the opponent."""

import io
import json
from contextlib import redirect_stderr

from test_agent import HOPELESS, HOPELESS_BEFORE

import decision_log
from go_board import BLACK, PASS, WHITE, Position, from_coord


def test_a_decision_becomes_one_json_line_that_reads_back_the_same():
    position = Position.from_text(HOPELESS, BLACK, 23, previous=HOPELESS_BEFORE)
    decision = decision_log.Decision(from_coord(3, 4), decision_log.SOURCE_EXACT,
                                     {"proven": decision_log.PROVEN_LOSS, "best_try": True})
    record = decision_log.decision_record(decision, position, 0.1234, 8.5)
    assert record == {"agent": "my_player", "ply": 23, "colour": "Black", "move": "3,4",
                      "source": "exact", "details": {"proven": "loss", "best_try": True},
                      "cpu": 0.123, "budget": 8.5}
    written = io.StringIO()
    with redirect_stderr(written):
        decision_log.log("thinking")
        decision_log.log_decision(record)
    assert written.getvalue().splitlines()[0] == "my_player: thinking"
    assert json.loads(written.getvalue().splitlines()[1]) == record
    assert decision_log.read_decisions(written.getvalue()) == [record]


def test_only_the_agents_own_records_are_read_back_in_order():
    ours = [{"agent": "my_player", "ply": ply, "move": "PASS"} for ply in (3, 5)]
    text = "\n".join(["my_player: a message", json.dumps(ours[0]), "{not json",
                      json.dumps({"agent": "another", "ply": 4}), json.dumps([1, 2]),
                      "  " + json.dumps(ours[1]) + "  "])
    assert decision_log.read_decisions(text) == ours
    assert decision_log.read_decisions("") == []


def test_a_try_says_what_it_asks_of_the_opponent():
    # Lost whatever Black does: after (3,4) each of White's 7 replies wins (tests/test_agent.py).
    position = Position.from_text(HOPELESS, BLACK, 23, previous=HOPELESS_BEFORE)
    assert decision_log.try_details(position, from_coord(3, 4), 7) == {
        "proven": "loss", "best_try": True, "opponent_wins": 7, "opponent_moves": 7,
        "summary": "lost: White must find 7 of 7 moves"}
    # A pass after White's pass would end the game: nothing left to get wrong.
    after_pass = Position(position.black, position.white, BLACK, 23)
    assert decision_log.try_details(after_pass, PASS, None)["summary"] == "lost: the game ends"
    assert set(decision_log.TRY_KEYS) < set(decision_log.try_details(position, from_coord(3, 4), 7))


def test_the_words_of_a_try_name_the_opponent_and_count_its_moves():
    assert decision_log.lost_summary(BLACK, 1, 19) == "lost: Black must find 1 of 19 moves"
    assert decision_log.lost_summary(WHITE, 1, 1) == "lost: White must find 1 of 1 move"
    assert decision_log.lost_summary(WHITE, None, 0) == "lost: the game ends"
