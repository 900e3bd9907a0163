"""When a search must stop: CPU seconds of this process, a wall deadline, or a count; and the
CPU clocks of the per-move path, read here only.

Two clocks, two uses. `tree_cpu_seconds` is what the grader meters: the CPU of the agent's
whole process tree since the interpreter started, this process and its reaped children; a
move's deadline is on it (agent.plan_move, agent.decide, endgame's exact search).
`own_cpu_seconds` is one process's own CPU: each search worker stops on its own share of the
move (`Budget`); the wall deadline (on `wall_clock_seconds`) only guards against a starved or
stuck worker, and against a margin search starved of CPU holding up a move that already has its
proven win.
"""

import os
import time


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


class Budget(object):
    """What a search may spend; the rules for stopping early are apart (mcts/stopping.py)."""

    def __init__(self, cpu_seconds=None, wall_seconds=None, max_simulations=None):
        self.cpu_start = own_cpu_seconds()
        self.wall_start = wall_clock_seconds()
        self.cpu_limit = None if cpu_seconds is None else self.cpu_start + cpu_seconds
        self.wall_limit = None if wall_seconds is None else self.wall_start + wall_seconds
        self.max_simulations = max_simulations

    def exhausted(self, simulations):
        if self.max_simulations is not None and simulations >= self.max_simulations:
            return True
        if self.cpu_limit is not None and own_cpu_seconds() >= self.cpu_limit:
            return True
        return self.wall_limit is not None and wall_clock_seconds() >= self.wall_limit

    def simulations_left(self, simulations):
        """How many more simulations fit, at the rate seen so far (CPU rate, wall-capped)."""
        left = float("inf")
        if self.max_simulations is not None:
            left = self.max_simulations - simulations
        now_cpu, now_wall = own_cpu_seconds(), wall_clock_seconds()
        if self.cpu_limit is not None and now_cpu > self.cpu_start:
            rate = simulations / (now_cpu - self.cpu_start)
            left = min(left, rate * (self.cpu_limit - now_cpu))
        if self.wall_limit is not None and now_wall > self.wall_start:
            rate = simulations / (now_wall - self.wall_start)
            left = min(left, rate * (self.wall_limit - now_wall))
        return left
