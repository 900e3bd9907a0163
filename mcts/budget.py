"""When a search must stop: CPU seconds of this process, a wall deadline, or a count.

Each search worker stops on its own share of the move (`own_cpu_seconds`: one process's CPU);
the wall deadline only guards against a starved or stuck worker. The clocks are clocks.py's.
"""

from clocks import own_cpu_seconds, wall_clock_seconds


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
