"""What solved leaves cost: one capped leaf proof, and a search's simulations per second with them.

Usage: littlego leaf-solve-cost [--plies-left 4 5 ... 10] [--caps 300 1000 3000]
                                         [--search-plies-left 14 16] [--leaf-plies 0 6 8]
Prints one JSON line per row, as it finishes (all CPU in seconds of this process):
- {"row": "solve", "python", "plies_left", "cap", "positions", "median", "p99", "mean",
  "proven"}: `mcts.go_game.LeafSolver` (a fresh one, no earlier proofs) on positions from
  recorded games (littlego/bench/solver_reach.py's sample) `plies_left` plies from the end;
- {"row": "playout", "python", "plies_left", "mean"}: one uniform playout from the same positions,
  the unit a leaf proof is worth paying in;
- {"row": "search", "python", "leaf_plies", "cap", "positions", "simulations", "cpu", "rate",
"proven_children", "leaf_proofs"}: searches of `--search-cpu` each from positions
`--search-plies-left` from the end, the same seeds and positions for every `leaf_plies` (0: no leaf
solver), run interleaved so that every setting sees the same machine. Python 3.7 and the standard
library, like the agent: run it in the grader's interpreter too.
"""

import argparse
import json
import platform
import random
import sys
import time

import agent_settings
from littlego.bench.solver_reach import recorded_positions
from littlego.referee.stats import percentile
from mcts import core
from mcts.budget import Budget
from mcts.go_game import LEAF_SOLVE_NODE_CAP, GoState, LeafSolver, PlayoutEvaluator
from mcts.stopping import StopRules

PLIES_LEFT = (4, 5, 6, 7, 8, 9, 10)
POSITIONS = 60
PLAYOUTS_PER_POSITION = 20
SEARCH_PLIES_LEFT = (14, 16)
SEARCH_POSITIONS = 6
SEARCH_CPU = 1.0
LEAF_PLIES = (0, 6, 8)
SEED = 4


def solve_row(plies_left, cap, count):
    seconds, proven = [], 0
    positions = recorded_positions(plies_left, count)
    for position in positions:
        solver = LeafSolver(plies_left, cap)
        started = time.process_time()
        proof = solver(GoState(position))
        seconds.append(time.process_time() - started)
        proven += proof is not None
    return {"row": "solve", "python": platform.python_version(), "plies_left": plies_left,
            "cap": cap, "positions": len(positions), "median": percentile(seconds, 0.5),
            "p99": percentile(seconds, 0.99), "mean": sum(seconds) / len(seconds),
            "proven": proven}


def playout_row(plies_left, count):
    evaluator = PlayoutEvaluator(knowledge=False)
    rng = random.Random(SEED)
    positions = recorded_positions(plies_left, count)
    started = time.process_time()
    for position in positions:
        for _ in range(PLAYOUTS_PER_POSITION):
            evaluator.evaluate(GoState(position), rng)
    spent = time.process_time() - started
    return {"row": "playout", "python": platform.python_version(), "plies_left": plies_left,
            "mean": spent / (len(positions) * PLAYOUTS_PER_POSITION)}


class CountingSolver(object):
    """A leaf solver that counts the proofs it gave."""

    def __init__(self, solve):
        self.solve = solve
        self.proofs = 0

    def __call__(self, state):
        answer = self.solve(state)
        self.proofs += answer is not None
        return answer


def search_rows(plies_lefts, leaf_plies, cap, count, cpu):
    """Every setting on every position in turn; one row per setting."""
    # simulations, cpu, proven root children, root children, leaf proofs
    totals = {plies: [0, 0.0, 0, 0, 0] for plies in leaf_plies}
    positions = [position for plies_left in plies_lefts
                 for position in recorded_positions(plies_left, count)]
    for index, position in enumerate(positions):
        for plies in leaf_plies:
            solver = CountingSolver(LeafSolver(plies, cap)) if plies else None
            started = time.process_time()
            result = core.search(GoState(position), PlayoutEvaluator(knowledge=False),
                                 random.Random(SEED + index), Budget(cpu_seconds=cpu),
                                 exploration=agent_settings.DEFAULT_EXPLORATION,
                                 stop=StopRules(when_decided=False), leaf_solver=solver)
            total = totals[plies]
            total[0] += result.simulations
            total[1] += time.process_time() - started
            total[2] += sum(stats.solved is not None for stats in result.children)
            total[3] += len(result.children)
            if solver is not None:
                total[4] += solver.proofs
    return [{"row": "search", "python": platform.python_version(), "leaf_plies": plies,
             "cap": cap, "positions": len(positions), "simulations": total[0],
             "cpu": round(total[1], 3), "rate": round(total[0] / total[1]),
             "proven_children": "{}/{}".format(total[2], total[3]), "leaf_proofs": total[4]}
            for plies, total in sorted(totals.items())]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies-left", type=int, nargs="*", default=list(PLIES_LEFT))
    parser.add_argument("--caps", type=int, nargs="+", default=[LEAF_SOLVE_NODE_CAP])
    parser.add_argument("--positions", type=int, default=POSITIONS)
    parser.add_argument("--search-plies-left", type=int, nargs="*",
                        default=list(SEARCH_PLIES_LEFT))
    parser.add_argument("--search-positions", type=int, default=SEARCH_POSITIONS)
    parser.add_argument("--search-cpu", type=float, default=SEARCH_CPU)
    parser.add_argument("--leaf-plies", type=int, nargs="+", default=list(LEAF_PLIES))
    args = parser.parse_args(argv)
    for plies_left in args.plies_left:
        print(json.dumps(playout_row(plies_left, args.positions)), flush=True)
        for cap in args.caps:
            print(json.dumps(solve_row(plies_left, cap, args.positions)), flush=True)
    if args.search_plies_left:
        for cap in args.caps:
            for row in search_rows(args.search_plies_left, args.leaf_plies, cap,
                                   args.search_positions, args.search_cpu):
                print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
