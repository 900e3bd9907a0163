"""When a search must stop: CPU seconds of this process, a wall deadline, or a count.

The grader meters CPU time (every process of the agent summed), so each worker stops on its
own CPU share; the wall deadline only guards against a starved or stuck worker.
"""

import time


class Budget(object):
    """What a search may spend; the rules for stopping early are apart (mcts/stopping.py)."""

    def __init__(self, cpu_seconds=None, wall_seconds=None, max_simulations=None):
        self.cpu_start = time.process_time()
        self.wall_start = time.monotonic()
        self.cpu_limit = None if cpu_seconds is None else self.cpu_start + cpu_seconds
        self.wall_limit = None if wall_seconds is None else self.wall_start + wall_seconds
        self.max_simulations = max_simulations

    def exhausted(self, simulations):
        if self.max_simulations is not None and simulations >= self.max_simulations:
            return True
        if self.cpu_limit is not None and time.process_time() >= self.cpu_limit:
            return True
        return self.wall_limit is not None and time.monotonic() >= self.wall_limit

    def simulations_left(self, simulations):
        """How many more simulations fit, at the rate seen so far (CPU rate, wall-capped)."""
        left = float("inf")
        if self.max_simulations is not None:
            left = self.max_simulations - simulations
        now_cpu, now_wall = time.process_time(), time.monotonic()
        if self.cpu_limit is not None and now_cpu > self.cpu_start:
            rate = simulations / (now_cpu - self.cpu_start)
            left = min(left, rate * (self.cpu_limit - now_cpu))
        if self.wall_limit is not None and now_wall > self.wall_start:
            rate = simulations / (now_wall - self.wall_start)
            left = min(left, rate * (self.wall_limit - now_wall))
        return left
