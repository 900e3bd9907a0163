"""The benchmark set: re-creates docs/benchmarks.md with the figures and the commands.

Usage: python3 tools/bench.py [--quick] [--driver-run DIR] [--ladder DIR]

Sections: engine playouts per second (one core); search simulations per CPU second with 1 and 2
workers and the wall time of a move at a fixed CPU budget; exact-solver CPU by plies left
(median and worst of 20 seeded positions each); and, when given, the time use of a
`tools/driver_match.py` run and the ladder tables written by `tools/ladder.py`. Every figure is a
median of repeats measured side by side in this one run.
"""

import argparse
import datetime
import glob
import os
import platform
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import endgame  # noqa: E402
import go_board  # noqa: E402
from mcts.go_game import GoState, PlayoutEvaluator  # noqa: E402
from mcts.parallel import root_parallel_search  # noqa: E402
from tools.bench_engine import playouts_per_second  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(REPO, "docs", "benchmarks.md")
# A middle-game position: the book's main line, then plies 4-6 played out.
SEARCH_LINE = [(2, 2), (1, 2), (2, 1), (1, 1), (3, 2), (1, 3)]
SOLVER_PLIES_LEFT = range(4, endgame.EXACT_PLIES_LEFT + 1)
SOLVER_CAP_CPU = 8.5  # the default move budget: slower than this is useless in a game


def engine_section(repeats, seconds):
    rows = ["| playouts | median per CPU second | min | max |", "| --- | --- | --- | --- |"]
    for knowledge, label in ((False, "uniform random"), (True, "agent (knowledge)")):
        rates = [playouts_per_second(seconds, knowledge, seed) for seed in range(repeats)]
        rows.append("| {} | {:,.0f} | {:,.0f} | {:,.0f} |".format(
            label, statistics.median(rates), min(rates), max(rates)))
    return rows


def search_position():
    position = go_board.Position()
    for row, col in SEARCH_LINE:
        position = position.play(go_board.from_coord(row, col))
    return position


def search_section(repeats, move_cpu):
    """Simulations per CPU second and wall per move for the same total CPU, 1 vs 2 workers."""
    position = search_position()
    rows = ["| workers | CPU per move (total) | simulations per CPU second | wall per move (s) |",
            "| --- | --- | --- | --- |"]
    for workers in (1, 2):
        rates, walls = [], []
        for repeat in range(repeats):
            started_wall = time.monotonic()
            started_cpu = _tree_cpu()
            _, simulations, used = root_parallel_search(
                GoState(position), PlayoutEvaluator(), seed=repeat, workers=workers,
                cpu_per_worker=move_cpu / workers, wall_seconds=3 * move_cpu)
            walls.append(time.monotonic() - started_wall)
            rates.append(simulations / (_tree_cpu() - started_cpu))
        rows.append("| {} | {:.1f} s | {:,.0f} | {:.2f} |".format(
            workers, move_cpu, statistics.median(rates), statistics.median(walls)))
    return rows


def _tree_cpu():
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def random_position(rng, ply):
    position = go_board.Position()
    while position.ply < ply:
        placements = position.legal_placements()
        position = position.play(rng.choice(placements) if placements else go_board.PASS)
        if position.is_over:
            position = go_board.Position()
    return position


def solver_section(samples):
    rng = random.Random(2026)
    # No move means: no win proven within the cap, nor exact margins within
    # endgame.MARGIN_SEARCH_CPU more (a lost position), so MCTS plays the move.
    rows = ["| plies left | median CPU (s) | worst CPU (s) | left to MCTS (cap {:.1f} s) |".format(
        SOLVER_CAP_CPU), "| --- | --- | --- | --- |"]
    for plies_left in SOLVER_PLIES_LEFT:
        times, unfinished = [], 0
        for _ in range(samples):
            position = random_position(rng, go_board.MAX_PLY + 1 - plies_left)
            started = time.process_time()
            if endgame.choose_endgame_move(position, started + SOLVER_CAP_CPU) is None:
                unfinished += 1
            times.append(time.process_time() - started)
        rows.append("| {} | {:.3f} | {:.3f} | {} of {} |".format(
            plies_left, statistics.median(times), max(times), unfinished, samples))
    return rows


def file_section(path):
    with open(path) as handle:
        return ["```"] + handle.read().rstrip().splitlines() + ["```"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke run")
    parser.add_argument("--driver-run", help="a tools/driver_match.py output directory")
    parser.add_argument("--ladder", action="append", default=[],
                        help="a tools/ladder.py output directory (repeatable)")
    parser.add_argument("--out", default=DOC)
    args = parser.parse_args()
    repeats, samples = (1, 3) if args.quick else (5, 20)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    lines = ["# Benchmarks", "",
             "Made by `make bench` (`python3 tools/bench.py{}`) on {} at commit {}, Python {}, {} "
             "cores. Medians of repeats measured side by side in this run.".format(
                 "".join(" " + arg for arg in sys.argv[1:]), datetime.date.today(), commit,
                 platform.python_version(), os.cpu_count()), ""]
    sections = [("Engine: playouts from the empty board to ply 24, one core",
                 lambda: engine_section(repeats, 2.0)),
                ("Search: the same CPU per move with 1 and 2 workers (merged visit counts)",
                 lambda: search_section(repeats, 4.0)),
                ("Exact endgame (`endgame.choose_endgame_move`), {} seeded random positions per row"
                 .format(samples), lambda: solver_section(samples))]
    if args.driver_run:
        sections.append(("Time use over a match under the course driver loop ({})".format(
            args.driver_run), lambda: file_section(os.path.join(args.driver_run, "summary.txt"))))
    for ladder in args.ladder:
        for summary in sorted(glob.glob(os.path.join(ladder, "*", "summary.txt"))):
            rung = os.path.basename(os.path.dirname(summary))
            sections.append(("Ladder ({}): {}".format(ladder, rung),
                             lambda path=summary: file_section(path)))
    for title, make_rows in sections:
        print(title, flush=True)
        rows = make_rows()
        print("\n".join(rows), flush=True)
        lines += ["## " + title, ""] + rows + [""]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as handle:
        handle.write("\n".join(lines))
    print("written to {}".format(args.out))


if __name__ == "__main__":
    main()
