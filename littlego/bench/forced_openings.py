"""Forced-opening self-play: the agent as White after each of Black's 24 losing first moves,
Black the agent itself from its second move on.

Usage: littlego forced-openings [--player COMMAND] [--games-per-move 3] [--parallel 2]
                                [--seed 1] [--out runs/forced-openings]
       littlego forced-openings --play I,J COMMAND ...   (one move, run by the referee)

Start at `main`. Every first move of Black's but the centre is a proven loss (docs/rules.md),
and White's book holds the proofs through ply 10; past that White's own search must keep the
win against a Black that searches as hard as it does. Each first move is one match
(referee.match.run_match, the player run once per move as the grader runs it): Black is
`--play I,J --player`, which plays I,J on the empty board and hands every later move to the
player (`play`), White the player itself. The player defaults to the agent's per-move program
on the grader's Python 3.7. Prints one JSON line per first move (White's wins, the agent's
largest CPU of a move as White) and the total with its 95% Wilson interval; exits 1 when White
lost a game.
"""

import argparse
import concurrent.futures
import json
import os
import shlex
import sys

import course_io
import go_board
from go_board import BLACK, WHITE
from littlego.grader.interpreters import grader_python
from littlego.paths import MY_PLAYER, RUNS_DIR, module_command
from littlego.referee.match import run_match
from littlego.referee.stats import wilson_interval

FIRST_MOVES = [point for point in range(go_board.NUM_POINTS) if point != go_board.CENTRE]


def play(first_move, command):
    """One move: `first_move` as Black's on the empty board, else the move of `command` (run in
    this process's place, so the referee meters it as one player)."""
    colour, previous, current = course_io.read_input()
    if colour == BLACK and current == previous == (0, 0):
        course_io.write_output(first_move)
        return 0
    os.execvp(command[0], command)


def black_spec(first_move, player):
    return "cmd:" + module_command(sys.executable, __name__, "--play",
                                   go_board.move_to_text(first_move), *shlex.split(player))


def one_first_move(first_move, args):
    """`(first move text, the match's records)`: White (the player) after `first_move`."""
    text = go_board.move_to_text(first_move)
    out = os.path.join(args.out, text.replace(",", "-"))
    result = run_match(black_spec(first_move, args.player), "cmd:" + args.player,
                       games=args.games_per_move, seed=args.seed, out_dir=out, a_colour=BLACK)
    return text, result.records


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--play", type=go_board.move_from_text, metavar="I,J",
                        help="one move as Black forced to open at I,J (the rest: the command)")
    parser.add_argument("--player", help="the agent's per-move command (default: my_player.py "
                        "on the grader's Python 3.7)")
    parser.add_argument("--games-per-move", type=int, default=3, help="games (seeds) per move")
    parser.add_argument("--parallel", type=int, default=2, help="first moves played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(RUNS_DIR, "forced-openings"))
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="with --play: the player's command, after every option")
    args = parser.parse_args(argv)
    if args.play is not None:
        if not args.command:
            parser.error("--play needs the player's command after it")
        return play(args.play, args.command)
    if args.command:
        parser.error("a command goes with --play only")
    if args.player is None:
        python = grader_python() or sys.executable
        args.player = "{} {}".format(shlex.quote(python), shlex.quote(MY_PLAYER))
    wins = games = 0
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        for text, records in pool.map(lambda move: one_first_move(move, args), FIRST_MOVES):
            won = sum(record["winner"] == WHITE for record in records)
            wins, games = wins + won, games + len(records)
            print(json.dumps({"first_move": text, "white_wins": won, "games": len(records),
                              "max_white_cpu": max(max(record["cpu"]["white"] or [0.0])
                                                   for record in records)}), flush=True)
    low, high = wilson_interval(wins, games)
    print(json.dumps({"white_wins": wins, "games": games,
                      "wilson_95": [round(low, 4), round(high, 4)]}))
    return 0 if wins == games else 1


if __name__ == "__main__":
    sys.exit(main())
