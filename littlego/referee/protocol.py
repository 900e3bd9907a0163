"""The player protocol: what the game loop asks of every kind of player, and what it gets back.

A `Player` has `start_game(directory, colour, seed)`, `move(game_input, ply, history) -> Turn`
and `end_game()`. A Turn carries output.txt's first line (or, when the player failed before
writing one, the reason its colour loses) and the CPU and wall seconds the move took; the game
loop (game.py) then judges the line exactly as judge mode would. The kinds of player live in
players.py (per-move commands, and the factory), gtp_player.py (GTP engines) and, brought by the
programs above the referee, littlego/opponents/in_process.py (the built-in opponents).
"""

import collections

# Reasons a player loses before its output is even judged (besides judge.END_BAD_OUTPUT).
END_TIME = "time"
END_RESIGN = "resign"

# The limits a move is judged by, unless a match says otherwise: the grader's CPU limit (the whole
# process tree, docs/rules.md) and ours on wall time, so a hung player cannot stall a match.
GRADER_MOVE_CPU = 10.0
DEFAULT_MOVE_WALL = 30.0

MoveLimits = collections.namedtuple("MoveLimits", "cpu wall")

# line: output.txt's first line, or None when `failure` (a reason like END_TIME) says why not.
Turn = collections.namedtuple("Turn", "line cpu wall failure detail")


def time_limit_failure(limits, cpu, wall):
    """The Turn detail for a move over a limit, or None when it was in time."""
    if cpu > limits.cpu:
        return "used {:.2f} s of CPU, limit {:g} s".format(cpu, limits.cpu)
    if wall > limits.wall:
        return "took {:.2f} s, limit {:g} s".format(wall, limits.wall)
    return None


class Player(object):
    """What the game loop asks of a player; `name` labels it in records and tables."""

    def __init__(self, name, limits):
        self.name = name
        self._limits = limits

    def start_game(self, directory, colour, seed):
        pass

    def move(self, game_input, ply, history):
        raise NotImplementedError

    def end_game(self):
        pass
