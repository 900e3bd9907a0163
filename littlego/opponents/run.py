"""Per-move program of a built-in opponent, run the way the course grader runs a player.

    littlego opponent NAME [--seed S] [--opponent-move-cpu SECONDS] [--first-move I,J]
                           [--mistake] [--book-through PLY]

Run in the game directory: reads input.txt, writes output.txt (`i,j` or `PASS`) and exits.
The referee never tells the ply, so `step_storage` keeps it in `opponent_NAME_step_COLOUR.json`.
`--first-move` makes Black's first move that point, whatever the player would choose (the
ladder's white-after-* rungs: the agent as White after each of Black's losing first moves).
`--mistake` makes Black's second move (ply 3) one after which the book answers for White, a move
that throws Black's win away (the white-after-mistakes rung, with --first-move 2,2), drawn with
the move's seed; the player's own choice when there is none.
`--book-through` makes the player's moves through that ply the book's proven winning ones where
the book has one (the ladder's deep-* rungs: a strong Black that finds its first only-moves,
then plays on as itself).
A malformed input.txt or LITTLEGO_SEED prints one line to stderr and exits with status 2.
"""

import argparse
import os
import random
import sys

import agent_settings
import opening_book
from course_io import InputError, read_input, write_output
from go_board import MAX_PLY, Position, move_from_text
from littlego.opponents import BUILTIN_PLAYERS
from step_storage import restore_ply, save_after_move

STORAGE_PREFIX = "opponent_"
SEED_BYTES = 8
INPUT_ERROR_STATUS = 2
TIMED_PLAYERS = ("alphabeta4", "plain-uct")
MAX_MOVE_CPU = 60.0
MISTAKE_PLY = 3


def move_seed(seed, ply):
    """One seed per move: each move is a fresh process, and the same stream every move would
    make the same draws, e.g. the random player picking the same rank of the legal list."""
    return seed * (MAX_PLY + 1) + ply


def main(argv=None):
    try:
        environment_seed = agent_settings.seed_setting(os.environ)
    except ValueError as error:
        sys.stderr.write("littlego opponent: {}\n".format(error))
        return INPUT_ERROR_STATUS
    parser = argparse.ArgumentParser(description="Play one move of a built-in opponent.")
    parser.add_argument("name", choices=sorted(BUILTIN_PLAYERS))
    parser.add_argument("--seed", type=int, default=environment_seed,
                        help="replay exactly (default: $LITTLEGO_SEED, which the referee sets "
                        "per game, else os.urandom)")
    parser.add_argument("--opponent-move-cpu", type=float, metavar="SECONDS",
                        help="the opponent's own CPU budget per move, for the players that "
                        "search ({}); not the referee's limit".format(", ".join(TIMED_PLAYERS)))
    parser.add_argument("--first-move", type=move_from_text, metavar="I,J",
                        help="Black's first move, instead of the player's choice")
    parser.add_argument("--mistake", action="store_true",
                        help="Black's second move: one the book answers for White")
    parser.add_argument("--book-through", type=int, default=0, metavar="PLY",
                        help="through this ply, the book's proven winning move where it has one")
    args = parser.parse_args(argv)
    try:
        colour, previous, current = read_input()
    except InputError as error:
        sys.stderr.write("{}: {}\n".format(args.name, error))
        return INPUT_ERROR_STATUS
    directory = os.getcwd()
    storage_name = STORAGE_PREFIX + args.name
    ply = restore_ply(colour, previous, current, directory, storage_name)
    position = Position(current[0], current[1], colour, ply, previous[0], previous[1])
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(SEED_BYTES), "big")
    options = {}
    if args.opponent_move_cpu is not None:
        if args.name not in TIMED_PLAYERS or not 0 < args.opponent_move_cpu < MAX_MOVE_CPU:
            sys.stderr.write("{}: --opponent-move-cpu needs a searching player and 0 < SECONDS < {}\n"
                             .format(args.name, MAX_MOVE_CPU))
            return INPUT_ERROR_STATUS
        options["time_limit"] = args.opponent_move_cpu
    mistakes, book_move = [], None
    if args.mistake and ply == MISTAKE_PLY:
        book = opening_book.read()
        mistakes = [move for move in position.legal_moves()
                    if book.lookup(position.play(move)) is not None]
    elif ply <= args.book_through:
        book_move = opening_book.read().lookup(position)
    if args.first_move is not None and ply == 1:
        move = args.first_move
    elif book_move is not None:
        move = book_move
    elif mistakes:
        move = random.Random(move_seed(seed, ply)).choice(mistakes)
    else:
        move = BUILTIN_PLAYERS[args.name](move_seed(seed, ply), **options).choose_move(position)
    after = position.play(move)
    save_after_move(directory, storage_name, colour, ply, (after.black, after.white))
    write_output(move)
    return 0


if __name__ == "__main__":
    sys.exit(main())
