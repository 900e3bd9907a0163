"""Reach of the exact search: CPU of the win/loss proof on positions from recorded games.

Usage: littlego solver-reach [--plies-left 10 12 ...] [--positions 30] [--cap 30]
Prints one JSON line per row, as it finishes: {"python": version, "plies_left", "seconds" (per
position, capped ones at the cap), "over_cap", "nodes", "positions"}. `littlego/bench/report.py`
runs it in this interpreter and, as a subprocess, in the grader's Python 3.7 (found through pyenv),
so this file sticks to Python 3.7 and the standard library.

The positions: every game of recorded_games/*.jsonl (the agent's recorded games) long enough to
reach the ply, played to `plies_left` plies from the end; distinct positions, a seeded sample.
"""

import argparse
import glob
import json
import os
import platform
import random
import sys
import time

import clocks
import endgame
import go_board
from littlego.paths import REPO_ROOT

GAME_RECORDS = os.path.join(REPO_ROOT, "recorded_games", "*.jsonl")
PLIES_LEFT = (10, 12, 13, 14, 15, 16)
POSITIONS = 30
CAP_CPU = 30.0
SAMPLE_SEED = 10


def recorded_positions(plies_left, count, seed=SAMPLE_SEED):
    """Up to `count` distinct positions `plies_left` plies from the end of recorded games."""
    positions = {}
    for path in sorted(glob.glob(GAME_RECORDS)):
        with open(path) as handle:
            for line in handle:
                moves = json.loads(line)["moves"] if line.strip() else []
                if len(moves) < go_board.MAX_PLY - plies_left:
                    continue
                position = go_board.Position()
                for text in moves[:go_board.MAX_PLY - plies_left]:
                    position = position.play(go_board.move_from_text(text))
                if not position.is_over:
                    positions.setdefault(position.key(), position)
    ordered = [positions[key] for key in sorted(positions)]
    random.Random(seed).shuffle(ordered)
    return ordered[:count]


def measure_row(plies_left, count, cap):
    """The proof's CPU and nodes on each position of a row; a capped proof counts the cap."""
    seconds, nodes, over_cap = [], 0, 0
    positions = recorded_positions(plies_left, count)
    for position in positions:
        started = time.process_time()
        solver = endgame.ExactSolver(started + cap, clock=time.process_time)
        try:
            solver.mover_wins(position)
        except clocks.OutOfTime:
            over_cap += 1
        seconds.append(min(time.process_time() - started, cap))
        nodes += solver.nodes
    return {"python": platform.python_version(), "plies_left": plies_left, "seconds": seconds,
            "over_cap": over_cap, "nodes": nodes, "positions": len(positions)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies-left", type=int, nargs="+", default=list(PLIES_LEFT))
    parser.add_argument("--positions", type=int, default=POSITIONS)
    parser.add_argument("--cap", type=float, default=CAP_CPU, help="CPU seconds per proof")
    args = parser.parse_args(argv)
    for plies_left in args.plies_left:
        print(json.dumps(measure_row(plies_left, args.positions, args.cap)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
