"""The clocks a move is timed on, and what a search raises when it runs past its deadline.

Two CPU clocks, two uses. `tree_cpu_seconds` is what the grader meters: the CPU of the agent's
whole process tree since the interpreter started, this process and its reaped children; a
move's deadline is on it (agent.plan_move, agent.decide, endgame's exact search), and a
per-move program's move starts at PROCESS_START_CPU on it. `own_cpu_seconds` is one process's
own CPU: each search worker stops on its own share of the move (mcts/budget.py). The wall clock
(`wall_clock_seconds`) only guards against a starved or stuck search, and against a margin
search starved of CPU holding up a move that already has its proven win.

The module below every search: the exact search (endgame.py), MCTS (mcts/) and the agent read
their clocks here, and nothing here imports them. Standard library only, Python 3.7.
"""

import os
import time

# The tree CPU clock when a process starts: a per-move program's move starts there, so that the
# interpreter's start-up counts, as the grader counts it.
PROCESS_START_CPU = 0.0


class OutOfTime(Exception):
    """A search passed its CPU deadline (or node cap) before it finished: what it was working
    on is not proven. The one such exception of the agent's searches: the exact search
    (endgame.py) and the compiled solver's binding (littlego/solver) raise it."""


def tree_cpu_seconds():
    """CPU of this process since it started (interpreter start-up included) plus reaped children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def own_cpu_seconds():
    """CPU of this process alone, since it started."""
    return time.process_time()


def wall_clock_seconds():
    """The wall clock of the guards against a starved or stuck search (monotonic seconds)."""
    return time.monotonic()
