"""Sanity check of the reference opponents' ladder: seeded in-process games, win rates printed.

    littlego roundrobin [--games N] [--seed S] [--pairs ladder|all]
                                         [--opponent-move-cpu SECONDS] [NAME ...]

Each pair plays N games, colours alternating, every player seeded from S and the game number.
`ladder` pairs each player with the next one in the given order (default: the registry's
order from weakest to strongest), `all` plays every pair. Expected: each rung beats the one
below it.
"""

import argparse
import itertools
import sys
import time

from go_board import BLACK, Position
from littlego.opponents import BUILTIN_PLAYERS
from littlego.opponents.alphabeta4 import DEFAULT_TIME_LIMIT, AlphaBeta4Player

# Seeds of the two players of one game must differ, and differ from game to game.
SEEDS_PER_GAME = 2


def play_game(black, white):
    """The winner's colour."""
    position = Position()
    while not position.is_over:
        player = black if position.to_move == BLACK else white
        position = position.play(player.choose_move(position))
    return position.winner()


def make_player(name, seed, opponent_move_cpu):
    if name == "alphabeta4":
        return AlphaBeta4Player(seed, time_limit=opponent_move_cpu)
    return BUILTIN_PLAYERS[name](seed)


def play_match(first, second, games, seed, opponent_move_cpu):
    """Wins of `first` over `games` games, half of them with Black, and the seconds taken."""
    wins = 0
    start = time.time()
    for game in range(games):
        base = (seed * games + game) * SEEDS_PER_GAME
        players = {first: make_player(first, base, opponent_move_cpu),
                   second: make_player(second, base + 1, opponent_move_cpu)}
        black, white = (first, second) if game % 2 == 0 else (second, first)
        winner = play_game(players[black], players[white])
        wins += (black if winner == BLACK else white) == first
    return wins, time.time() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(BUILTIN_PLAYERS), metavar="NAME",
                        help="players, weakest first (default: %(default)s)")
    parser.add_argument("--games", type=int, default=20, help="games per pair (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", choices=("ladder", "all"), default="ladder")
    parser.add_argument("--opponent-move-cpu", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help="alphabeta4's own CPU seconds per move, as `littlego opponent` "
                        "takes it (default %(default)s)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(BUILTIN_PLAYERS))
    if unknown:
        parser.error("unknown players {}; known: {}".format(unknown, sorted(BUILTIN_PLAYERS)))
    if args.pairs == "ladder":
        pairs = list(zip(args.names, args.names[1:]))
    else:
        pairs = list(itertools.combinations(args.names, 2))
    for weaker, stronger in pairs:
        wins, seconds = play_match(stronger, weaker, args.games, args.seed, args.opponent_move_cpu)
        print("{:>10} beats {:<10} {:3d}/{:<3d} = {:5.1f}%   ({:.0f} s)".format(
            stronger, weaker, wins, args.games, 100.0 * wins / args.games, seconds))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
