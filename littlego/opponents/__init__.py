"""Reference opponents: our rebuilds of the players the CSCI-561 grader pits an agent against.

`BUILTIN_PLAYERS` maps a name to a factory `factory(seed) -> player`; a player's
`choose_move(position)` takes a `go_board.Position` and returns a legal point or `PASS`, and
one player object is meant to play a whole game. The searching players (alphabeta4, plain-uct) also
take `time_limit`, their CPU seconds per move. `run.py` is the per-move program the way the course
grader runs a player.
"""

from littlego.paths import module_command

from .alphabeta import AlphaBetaPlayer
from .alphabeta4 import AlphaBeta4Player
from .plain_uct import PlainUctPlayer
from .simple import AggressivePlayer, GreedyPlayer, RandomPlayer

BUILTIN_PLAYERS = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "aggressive": AggressivePlayer,
    "alphabeta": AlphaBetaPlayer,
    "alphabeta4": AlphaBeta4Player,
    "plain-uct": PlainUctPlayer,
}


def run_command(python, *args):
    """The shell command of `run.py`, the per-move program, with these arguments (the player's
    name first), runnable from a game's directory."""
    return module_command(python, __name__ + ".run", *args)
