"""Command lines of host.py: judge mode (the course's), `match` and `play` (host.py hands
`serve`, the browser board, to littlego/web/server.py, and brings the built-in opponents: the
referee knows nothing of the agent, its analysis or the opponents).

`main(argv, builtin_players)` picks the mode from the first argument and returns the process
exit code. Judge mode must run with the standard library alone on Python 3.7, so the match and
play modules (psutil among their imports) are imported only inside their handlers.
"""

import argparse
import os
import sys
import time

from littlego.referee.protocol import DEFAULT_MOVE_WALL, GRADER_MOVE_CPU

MATCH, PLAY = "match", "play"
JUDGE = "judge"  # the judge mode's word for `littlego judge`; host.py judges without it
DEFAULT_GAMES = 10
EXIT_INTERRUPTED = 130    # the shell's code for a Ctrl-C

PLAYER_HELP = ("a built-in player name (random, greedy, ...), 'cmd:SHELL COMMAND' run once "
               "per move with input.txt/output.txt, 'gtp:COMMAND' for a GTP engine, or "
               "'gtp-vary:COMMAND' (its early moves drawn among its near-best); "
               "commands run in the game's directory, so give absolute paths")


def add_referee_limits(parser):
    """--limit-cpu and --limit-wall: the referee's limits per move (args.limit_cpu, .limit_wall)."""
    parser.add_argument("--limit-cpu", type=float, default=GRADER_MOVE_CPU, metavar="SECONDS",
                        help="the referee's CPU limit per move, whole process tree; a player "
                             "over it loses (default %(default)s, the grader's). Not the "
                             "agent's budget: that is LITTLEGO_MOVE_CPU")
    parser.add_argument("--limit-wall", type=float, default=DEFAULT_MOVE_WALL, metavar="SECONDS",
                        help="the referee's wall-clock limit per move (default %(default)s)")


def program(*words):
    """The name usage lines give: host.py's or the `littlego` command's, then the mode's word."""
    return " ".join((os.path.basename(sys.argv[0]),) + words)


def judge_parser(prog):
    # The course's own two options, with its quirks: -v goes through bool(), so any
    # non-empty string (even "False") turns verbose on, and -m defaults to 0.
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Judge one ply of Little-Go: read input.txt and output.txt in the current "
                    "directory, write the next input.txt, exit 0 (game goes on) or with the "
                    "winner's colour (1 Black, 2 White); 3 if input.txt is unreadable.",
        epilog="Other modes: {0} match --help, {0} play --help, {0} serve --help.".format(
            program()))
    parser.add_argument("--move", "-m", type=int, default=0, help="number of the ply judged")
    parser.add_argument("--verbose", "-v", type=bool, default=False,
                        help="any non-empty value prints the board and messages")
    return parser


def match_parser():
    parser = argparse.ArgumentParser(
        prog=program(MATCH),
        description="Play games between players A and B, alternating colours (A is Black in "
                    "game 1), and report win rates with confidence intervals.")
    parser.add_argument("player_a", metavar="A", help=PLAYER_HELP)
    parser.add_argument("player_b", metavar="B", help="the other player, same forms as A")
    parser.add_argument("--games", "-n", type=int, default=DEFAULT_GAMES,
                        help="number of games (default %(default)s)")
    parser.add_argument("--parallel", "-j", type=int, default=1,
                        help="games played at once, one process each (default %(default)s)")
    add_referee_limits(parser)
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the built-in players (and LITTLEGO_SEED for commands)")
    parser.add_argument("--out", metavar="DIR",
                        help="where SGFs, games.jsonl and summary.txt go "
                             "(default runs/match-DATE-TIME)")
    parser.add_argument("--show", action="store_true", help="print the board after every move")
    parser.add_argument("--a-colour", type=int, choices=(1, 2),
                        help="A plays this colour in every game (1 Black, 2 White) instead of "
                             "alternating")
    return parser


def play_parser():
    parser = argparse.ArgumentParser(
        prog=program(PLAY),
        description="Play Little-Go against a player in the terminal: type i,j or pass.")
    parser.add_argument("--opponent", required=True, help=PLAYER_HELP)
    parser.add_argument("--colour", "--color", type=int, choices=(1, 2), default=1,
                        help="your colour: 1 Black (moves first) or 2 White (default 1)")
    parser.add_argument("--seed", type=int, help="the opponent's seed (default: random)")
    add_referee_limits(parser)
    return parser


def run_match_command(args, builtin_players):
    from littlego.referee.match import print_progress, run_match
    out_dir = args.out or "runs/match-" + time.strftime("%Y%m%d-%H%M%S")
    result = run_match(args.player_a, args.player_b, games=args.games,
                       parallel=args.parallel, limit_cpu=args.limit_cpu,
                       limit_wall=args.limit_wall, seed=args.seed, out_dir=out_dir,
                       show=args.show, builtin_players=builtin_players,
                       progress=print_progress, a_colour=args.a_colour)
    print(result.table)
    print("Games and summary written to {}".format(out_dir))
    return 0


def run_play_command(args, builtin_players):
    from littlego.referee.human import play_against
    return play_against(args.opponent, args.colour, args.seed, args.limit_cpu, args.limit_wall,
                        builtin_players)


def main(argv, builtin_players=None):
    """host.py's modes on `argv`, the players known by name `builtin_players` (host.py passes
    the opponents'): the exit code."""
    modes = {MATCH: (match_parser, run_match_command), PLAY: (play_parser, run_play_command)}
    if argv and argv[0] in modes:
        make_parser, run = modes[argv[0]]
        parser = make_parser()
        args = parser.parse_args(argv[1:])
        try:
            return run(args, builtin_players)
        except ValueError as error:  # an unknown player, a missing package
            parser.error(str(error))
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            return EXIT_INTERRUPTED
    from littlego.referee.judge import run_judge
    words = argv[:1] if argv[:1] == [JUDGE] else []
    args = judge_parser(program(*words)).parse_args(argv[len(words):])
    return run_judge(args.move, args.verbose)
