"""What the agent decided and why, in one vocabulary: the `Decision`, its record, its log.

Start at `Decision` (the move, its `source`, one of the SOURCE_* names, and `details`, JSON
values whose keys are named here) and `decision_record`, the JSON object a decision becomes:
the line the agent logs on stderr (`log_decision`) and tools and tests read back
(`read_decisions`), never the prose of other messages (`log`). The words of a proven result
(PROVEN_WIN, PROVEN_LOSS) are the exact search's, the pass rule's, the centre rule's and the
MCTS solver's alike; a lost position's try says what it asks of the opponent in
`try_details`' words. Tools import this module to read or write decisions without loading the
search: it imports only the rules (go_board). Standard library only, Python 3.7: it is on the
grader's per-move path.
"""

import collections
import json
import sys

import go_board

# The agent's name: its step files (`my_player_step_<colour>.json`, step_storage), its log
# lines and the `agent` key of its decision records.
PLAYER_NAME = "my_player"
# The JSON log line of a decision carries this key, naming the agent.
LOG_AGENT_KEY = "agent"
# A proven result for the side to move, in the words the decisions log.
PROVEN_WIN, PROVEN_LOSS = "win", "loss"

# What the agent decided (agent.choose_move). `source` is one of the SOURCE_* names; `details` holds JSON values.
# A source that rests on a proof says so: `proven` is PROVEN_WIN or PROVEN_LOSS for the mover
# (the winning pass and the centre rule: a win; the exact search: either, a loss played as its
# `best_try`: true), and `margin` the final margin in points for the mover (komi included) when
# it is known; an exact win whose margin search ran out of time gives `margin_at_least`, the
# margin its move is proven to reach, instead. The exact search also gives `proof_cpu`
# (PROOF_CPU_KEY), the CPU seconds its win/loss proof took (endgame.ExactMove's): what a slower
# machine must still afford, where the rest of the move is margins that fill what the budget
# leaves. A best try (the exact search's, or the book's repertoire after Black's centre) says
# what it asks of the opponent (`try_details`): `opponent_wins` of its `opponent_moves` legal
# replies still win for it, and `summary` says so in words ("lost: Black must find 1 of 19
# moves"). MCTS gives `simulations`, `workers` and `candidates`, a list of {"move": "i,j",
# "share": visit share, "value": mean value for the mover, "proven": the solver's proof, if any}.
# A book answer that wins claims nothing more (details {}); a book try is a proven loss.
Decision = collections.namedtuple("Decision", "move source details")
SOURCE_NO_PLACEMENT = "no placement"
SOURCE_WINNING_PASS = "winning pass"
SOURCE_CENTRE_RULE = "centre rule"
SOURCE_BOOK = "book"
SOURCE_EXACT = "exact"
SOURCE_MCTS = "mcts"
SOURCE_FALLBACK = "fallback"
PROOF_CPU_KEY = "proof_cpu"


def lost_summary(opponent, opponent_wins, opponent_moves):
    """The words for what a try asks: "lost: Black must find 1 of 19 moves"."""
    if opponent_wins is None:
        return "lost: the game ends"
    return "lost: {} must find {} of {} move{}".format(
        go_board.COLOUR_NAMES[opponent], opponent_wins, opponent_moves,
        "" if opponent_moves == 1 else "s")


# What a try's details say beyond the proven loss (`try_details`): what it asks of the opponent.
TRY_KEYS = ("opponent_wins", "opponent_moves", "summary")


def try_details(position, move, opponent_wins):
    """The details of a best try `move` in the proven loss `position`, after which
    `opponent_wins` of the opponent's replies win (None: the game ends)."""
    after = position.play(move)
    opponent_moves = 0 if after.is_over else len(after.legal_moves())
    return {"proven": PROVEN_LOSS, "best_try": True, "opponent_wins": opponent_wins,
            "opponent_moves": opponent_moves,
            "summary": lost_summary(after.to_move, opponent_wins, opponent_moves)}


def log(message):
    sys.stderr.write("{}: {}\n".format(PLAYER_NAME, message))


def decision_record(decision, position, cpu, budget):
    """The decision as one JSON object: what the agent logs and the GTP engine remembers."""
    return {LOG_AGENT_KEY: PLAYER_NAME, "ply": position.ply,
            "colour": go_board.COLOUR_NAMES[position.to_move],
            "move": go_board.move_to_text(decision.move), "source": decision.source,
            "details": decision.details, "cpu": round(cpu, 3), "budget": round(budget, 3)}


def log_decision(record):
    sys.stderr.write(json.dumps(record, sort_keys=True) + "\n")


def read_decisions(text):
    """Every decision record logged in `text` (an agent's stderr), in order."""
    records = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get(LOG_AGENT_KEY) == PLAYER_NAME:
            records.append(record)
    return records

