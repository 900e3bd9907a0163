"""The strength ladder: the agent against every reference opponent, tables per colour.

Usage: python3 tools/ladder.py [--games 100] [--move-cpu 8.5] [--game-cpu 55] [--parallel 1]
                               [--opponents random,greedy,...] [--out runs/ladder]

Each rung is a `host.py match` (referee.match.run_match) of the agent, run as a per-move
command like the grader runs it, against one opponent; half the games as each colour. Rungs:
the graded opponents (random, greedy, aggressive, alphabeta), the depth-4+ alpha-beta
(alphabeta4), the seed design (plain UCT with uniform playouts, no book, no solver, one
process, at the same CPU per move) and GNU Go level 10 over GTP. Each rung's SGFs, games.jsonl
and summary.txt go to OUT/<rung>/; `tools/bench.py --ladder OUT` copies the tables into
docs/benchmarks.md. A reduced --move-cpu makes a long ladder affordable: say so with the figures.
"""

import argparse
import os
import shlex
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from referee.match import run_match  # noqa: E402

SEED_DESIGN_ENV = "LITTLEGO_BOOK=0 LITTLEGO_SOLVER=0 LITTLEGO_KNOWLEDGE=0 LITTLEGO_WORKERS=1"
RUNGS = ["random", "greedy", "aggressive", "alphabeta", "alphabeta4", "seed-design", "gnugo"]
# The grader's limit per move; our agent's own budget is --move-cpu, well inside it.
REFEREE_MOVE_CPU = 10.0


def agent_command(move_cpu, game_cpu, extra_env=""):
    return "cmd:env LITTLEGO_MOVE_CPU={} LITTLEGO_GAME_CPU={} {} {} {}".format(
        move_cpu, game_cpu, extra_env, shlex.quote(sys.executable),
        shlex.quote(os.path.join(REPO, "my_player.py")))


def opponent_spec(rung, args):
    if rung == "seed-design":
        return agent_command(args.move_cpu, args.game_cpu, SEED_DESIGN_ENV)
    if rung == "gnugo":
        return "gtp:/usr/games/gnugo --mode gtp --level 10"
    return rung


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--move-cpu", type=float, default=8.5)
    parser.add_argument("--game-cpu", type=float, default=55.0)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default=",".join(RUNGS))
    parser.add_argument("--out", default=os.path.join(REPO, "runs", "ladder"))
    args = parser.parse_args()
    agent = agent_command(args.move_cpu, args.game_cpu)
    for rung in args.opponents.split(","):
        out_dir = os.path.join(args.out, rung)
        print("== agent against {} ({} games, {} s CPU per move)".format(
            rung, args.games, args.move_cpu), flush=True)
        result = run_match(agent, opponent_spec(rung, args), games=args.games,
                           parallel=args.parallel, move_cpu=REFEREE_MOVE_CPU,
                           move_wall=max(30.0, 4 * args.move_cpu), seed=args.seed,
                           out_dir=out_dir)
        print(result.table, flush=True)


if __name__ == "__main__":
    main()
