"""The built-in opponents as players of a match, in this process, behind the referee's protocol.

Start at `players`: each built-in name (BUILTIN_PLAYERS) with a factory `factory(name, limits)`
of an `InProcessPlayer`, the `builtin_players` the referee's `make_player` takes (host.py, the
board in the browser and the ladder pass them: the referee imports none of this). An
InProcessPlayer reads the game the referee hands every player, decoded once into a
go_board.Position by the course files' codec (`course_io.player_view`), asks its opponent's
`choose_move`, checks the move's CPU and wall time against the limits afterwards, and answers
output.txt's line (`go_board.move_to_text`), which the referee judges as it judges every
player's.
"""

import functools
import time

import course_io
import go_board
from littlego.opponents import BUILTIN_PLAYERS
from littlego.referee.judge import END_BAD_OUTPUT
from littlego.referee.protocol import END_TIME, Player, Turn, time_limit_failure


class InProcessPlayer(Player):
    """An opponent of `engine_factory(seed) -> engine` (engine.choose_move(go_board.Position)
    gives a point or go_board.PASS), one engine a game, run in this process."""

    def __init__(self, name, limits, engine_factory):
        Player.__init__(self, name, limits)
        self._engine_factory = engine_factory
        self._engine = None

    def start_game(self, directory, colour, seed):
        self._engine = self._engine_factory(seed)

    def move(self, game_input, ply, history):
        colour, previous, current = course_io.player_view(*game_input)
        position = go_board.Position(current[0], current[1], colour, ply, previous[0],
                                     previous[1])
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        move = self._engine.choose_move(position)
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - wall_start
        late = time_limit_failure(self._limits, cpu, wall)
        if late:
            return Turn(None, cpu, wall, END_TIME, late)
        if not (isinstance(move, int) and 0 <= move <= go_board.PASS):
            return Turn(None, cpu, wall, END_BAD_OUTPUT, "choose_move returned {!r}".format(move))
        return Turn(go_board.move_to_text(move), cpu, wall, None, None)

    def end_game(self):
        self._engine = None


def factories(engines):
    """{name: factory(name, limits) of an InProcessPlayer} for `engines`, {name:
    engine_factory(seed)}; picklable, as a match's parallel games need."""
    return {name: functools.partial(InProcessPlayer, engine_factory=engine)
            for name, engine in engines.items()}


def players():
    """The built-in opponents as the referee's `builtin_players`."""
    return factories(BUILTIN_PLAYERS)
