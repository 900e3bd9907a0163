"""The hand-over check's worker: positions decided as the agent's per-move program decides them.

Usage: PYTHONPATH=AGENT_DIR python littlego/bench/decide_positions.py START_CPU < in > out

`littlego handover` runs it, once for this checkout's agent and, with --baseline, once more for
another checkout's (of version 1.0.0 or later, whose settings are agent_settings'), so it
imports nothing but the agent's per-move modules (`agent`, `agent_settings`, `clocks`,
`go_board`), found on PYTHONPATH (this file's folder, first on sys.path, holds none of their
names). It reads
a JSON list of positions, each `[black, white, prev_black, prev_white, to_move, ply]`, and
decides each as a fresh per-move process would: the time manager's plan for that ply with no
CPU spent earlier in the game (`agent.plan_move`), its move started START_CPU seconds before
this decision began (what a per-move process spends on the interpreter, its imports and
input.txt), a fresh exact-search table, `agent.decide`. It writes a JSON list, per position:
`[move text, source, cpu, budget, proof_cpu]`: the decision's CPU counted from the move's start
(START_CPU included), its budget, and the exact search's proof CPU from the decision's details
(`decision_log.PROOF_CPU_KEY`), null when the exact search did not decide. Standard library
only, Python 3.7: it runs on the grader's interpreter.
"""

import json
import os
import sys

import agent
import agent_settings
import go_board
from clocks import tree_cpu_seconds
from decision_log import PROOF_CPU_KEY


def decide_all(positions, start_cpu):
    """[[move text, source, cpu, budget, proof_cpu or None]] for `positions` (see above)."""
    settings = agent_settings.Settings(os.environ)
    book = agent.read_book(settings)
    decided = []
    for black, white, prev_black, prev_white, to_move, ply in positions:
        position = go_board.Position(black, white, to_move, ply, prev_black, prev_white)
        started = tree_cpu_seconds() - start_cpu
        plan = agent.plan_move(ply, 0.0, settings, book, started)
        decision = agent.decide(position, plan.cpu_deadline, settings, book)
        decided.append([go_board.move_to_text(decision.move), decision.source,
                        tree_cpu_seconds() - started, plan.budget,
                        decision.details.get(PROOF_CPU_KEY)])
    return decided


def main(argv):
    json.dump(decide_all(json.load(sys.stdin), float(argv[0])), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
