"""Step storage: what a stateless per-move program remembers between its calls.

The referee never says which ply it is, and a player is a fresh process every move, so the
ply and the CPU spent so far in this game live in a small JSON file in the game directory,
one per player name and colour, so two copies of a player can share a game directory (self-play
under the course's driver loop). Start at `restore`: it tells the ply from the input boards and
that file; `save` writes the file atomically after the move. Files survive across games and
crashes, so a new game is recognised from the boards, never from the file's absence, and
whatever a file holds is checked before it is believed (`_read_record`).
"""

import json
import os
import sys

import course_io
import go_board

FORMAT_VERSION = 1
# A record is under 200 bytes; a larger file is not read.
MAX_STEP_BYTES = 4096
# A CPU ledger above this many seconds is not one of ours: the estimate replaces it.
MAX_LEDGER_CPU = 3600.0


class GameState(object):
    """Where this call stands in its game.

    `ply` is the ply about to be played; `cpu_used` the CPU seconds this player spent on its
    earlier moves of this game, or None when that ledger was lost; `recovered` says the ply
    was derived from the stones because no matching record was found.
    """

    __slots__ = ("ply", "cpu_used", "recovered")

    def __init__(self, ply, cpu_used, recovered=False):
        self.ply = ply
        self.cpu_used = cpu_used
        self.recovered = recovered

    def __repr__(self):
        return "GameState(ply={}, cpu_used={}, recovered={})".format(
            self.ply, self.cpu_used, self.recovered)


def step_file(directory, name, colour):
    return os.path.join(directory, "{}_step_{}.json".format(name, colour))


def smallest_consistent_ply(colour, current):
    """The smallest ply of `colour`'s parity at which the current stones could stand.

    Before ply p Black has acted ceil((p-1)/2) times and White floor((p-1)/2) times, and each
    action adds at most one stone of its colour.
    """
    black_stones = go_board.popcount(current[0])
    white_stones = go_board.popcount(current[1])
    ply = 1 if colour == go_board.BLACK else 2
    while ply + 2 <= go_board.MAX_PLY and (ply // 2 < black_stones or (ply - 1) // 2 < white_stones):
        ply += 2
    return ply


def _is_int(value):
    return type(value) is int  # JSON's true and false are no ints here


def _read_record(path):
    """`(colour, ply, board_after, cpu_used)` from the step file, or `(None, reason)`.

    `cpu_used` is None when the ledger is not a sane number but the rest of the record is.
    """
    try:
        record = json.loads(course_io.read_regular_file(path, MAX_STEP_BYTES).decode("ascii"))
    except (IOError, OSError, ValueError, RecursionError) as error:
        return None, "no readable record in {} ({})".format(path, type(error).__name__)
    if not isinstance(record, dict) or record.get("version") != FORMAT_VERSION:
        return None, "no record of format {} in {}".format(FORMAT_VERSION, path)
    colour, ply = record.get("colour"), record.get("ply")
    board, cpu_used = record.get("board_after"), record.get("cpu_used")
    if not (_is_int(colour) and colour in (go_board.BLACK, go_board.WHITE)
            and _is_int(ply) and 1 <= ply <= go_board.MAX_PLY
            and isinstance(board, list) and len(board) == 2
            and all(_is_int(bits) and 0 <= bits <= go_board.FULL for bits in board)
            and not board[0] & board[1]):
        return None, "the record in {} is not a move of this game".format(path)
    if not ((_is_int(cpu_used) or type(cpu_used) is float)
            and 0.0 <= cpu_used <= MAX_LEDGER_CPU):
        cpu_used = None  # NaN and infinities fail the comparison too
    return (colour, ply, (board[0], board[1]), cpu_used), None


def restore(colour, previous, current, directory, name, log=sys.stderr):
    """The GameState for this call; boards are `(black, white)` bitboard pairs, `name` the
    player's (decision_log.PLAYER_NAME for the agent)."""
    if colour == go_board.BLACK and previous == (0, 0) and current == (0, 0):
        return GameState(1, 0.0)
    if (colour == go_board.WHITE and previous == (0, 0) and current[1] == 0
            and go_board.popcount(current[0]) == 1):
        return GameState(2, 0.0)
    path = step_file(directory, name, colour)
    record, why = _read_record(path)
    floor = smallest_consistent_ply(colour, current)
    if record is not None:
        stored_colour, stored_ply, board_after, cpu_used = record
        ply = stored_ply + 2
        if stored_colour == colour and board_after == previous and floor <= ply <= go_board.MAX_PLY:
            if cpu_used is None:
                log.write("step_storage: the CPU ledger in {} is not a number of seconds in "
                          "0..{:g}; this game's CPU is estimated\n".format(path, MAX_LEDGER_CPU))
            return GameState(ply, cpu_used)
        why = "the record in {} does not continue this game".format(path)
    log.write("step_storage: {}; ply {} derived from the stones\n".format(why, floor))
    return GameState(floor, None, recovered=True)


def save(directory, name, colour, ply, board_after, cpu_used):
    """Record this player's move atomically: a crash leaves the old file or the new one."""
    record = {"version": FORMAT_VERSION, "colour": colour, "ply": ply,
              "board_after": [board_after[0], board_after[1]], "cpu_used": round(cpu_used, 4)}
    course_io.write_atomically(step_file(directory, name, colour), json.dumps(record))


def restore_ply(colour, previous, current, directory, name, log=sys.stderr):
    """Just the ply, for players that keep no CPU ledger."""
    return restore(colour, previous, current, directory, name, log).ply


def save_after_move(directory, name, colour, ply, board_after):
    save(directory, name, colour, ply, board_after, 0.0)
