"""The compiled solver against the Python one, side by side on the same positions, and the
compiled solver's time to prove ply-7 positions of the book's lines.

Usage: littlego bench-solver [--positions 6] [--ply7 10] [--repeats 3] [--seed 1]
                                      [--rate-runs 5] [--json]

1. Nodes per second and time to prove: positions PLIES_LEFT plies from the end of seeded games
   (conftest's players: some captures, no passes), each proven from an empty table by the
   compiled solver (in this process, on the table `solver.table_bits_for` sizes for the row,
   COMPILED_PASSES times over, the mean per pass kept: a pass at 10 plies left is a few
   milliseconds) and by endgame.ExactSolver under every Python found: this interpreter, PyPy
   (`pypy3`) and the grader's 3.7 when installed, each in a fresh process; RATE_RUNS runs,
   alternated. The table prints both ratios, medians of the runs. The two searches count
   nodes differently (the compiled one decides many nodes near the end by bounds, and refutes
   children by bounds without visiting them), so the time to prove the same positions is the
   ratio that says how much faster the compiled solver is.
2. Ply 7: positions of Black's strategy at ply 7 (17 plies left: White's replies at random,
   Black's moves from the book), each proven by the compiled solver from an empty table
   `repeats` times, the proofs of one position one after another; per position its fastest
   proof (what the solver costs, without what else the machine did meanwhile: on this shared
   machine the same proof varies by a tenth or more), then the median and the worst over the
   positions, and the same over every proof.
Prints markdown tables (docs/benchmarks.md keeps the last run's) or, with --json, the figures.
"""

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time

import go_board
import opening_book
from littlego import solver
from littlego.bench.positions import position_before_end
from littlego.grader.interpreters import grader_python
from littlego.paths import REPO_ROOT
from littlego.solver import strategy

PLIES_LEFT = (10, 12)
PLY7 = 7
COMPILED_PASSES = 10
# Runs of each side-by-side row (PyPy's rate alone varies by a third from run to run).
RATE_RUNS = 5
CAPTURE_RATE = 0.3
def as_fields(position):
    return [position.black, position.white, position.prev_black, position.prev_white,
            position.to_move, position.ply]


def python_rate(python, positions):
    """`(nodes, cpu)` of endgame.ExactSolver proving `positions` under `python`
    (littlego/bench/python_solver_rate.py)."""
    done = subprocess.run([python, "-m", "littlego.bench.python_solver_rate"], cwd=REPO_ROOT,
                          input=json.dumps([as_fields(p) for p in positions]),
                          stdout=subprocess.PIPE, universal_newlines=True, check=True)
    figures = json.loads(done.stdout)
    return figures["nodes"], figures["cpu"]


def timed_proof(position, table_bits):
    """`(cpu, nodes)` of one compiled proof of `position` from an empty table of 2**table_bits
    entries (the table's allocation not timed)."""
    with solver.Solver(table_bits) as search:
        started = time.process_time()
        search.wins(position)
        return time.process_time() - started, search.nodes


def compiled_rate(positions, table_bits):
    """`(nodes, cpu)` of the compiled solver proving `positions` on tables of 2**table_bits
    entries, per pass (the mean of COMPILED_PASSES)."""
    proofs = [timed_proof(position, table_bits)
              for _ in range(COMPILED_PASSES) for position in positions]
    return (sum(nodes for _, nodes in proofs) / COMPILED_PASSES,
            sum(cpu for cpu, _ in proofs) / COMPILED_PASSES)


def pythons():
    """(label, interpreter) for every Python to compare."""
    found = [("CPython {}.{}".format(*sys.version_info[:2]), sys.executable)]
    pypy = shutil.which("pypy3")
    if pypy:
        found.append(("PyPy", pypy))
    grader = grader_python()
    if grader:
        found.append(("CPython 3.7 (grader)", grader))
    return found


def ply7_positions(rng, count, book):
    """Positions of Black's strategy at ply 7: White at random, Black from the book."""
    plan = strategy.STRATEGIES[0]
    positions = []
    while len(positions) < count:
        position = strategy.position_after(plan.start)
        while position.ply < PLY7:
            if position.to_move == plan.winner:
                position = position.play(book.lookup(position))
            else:
                position = position.play(rng.choice(position.legal_moves()))
        positions.append(position)
    return positions


def rate_row(sample, plies_left, rate_runs):
    """One row of the side by side: `rate_runs` runs, each the compiled solver then every
    Python on `sample`. Per solver its nodes (the searches are deterministic) and median CPU;
    per Python the median, min and max over the runs of the two ratios of that run."""
    table_bits = solver.table_bits_for(plies_left)
    compiled, found = [], {}  # (nodes, cpu) per run; per Python label, the same
    for _ in range(rate_runs):
        compiled.append(compiled_rate(sample, table_bits))
        for label, python in pythons():
            found.setdefault(label, []).append(python_rate(python, sample))
    row = {"plies_left": plies_left, "positions": len(sample), "runs": rate_runs,
           "compiled": {"nodes": int(compiled[0][0]),
                        "cpu": round(statistics.median(cpu for _, cpu in compiled), 4),
                        "table_bits": table_bits}}
    for label, runs in found.items():
        rate_ratios = [(nodes / cpu) / (python_nodes / python_cpu)
                       for (nodes, cpu), (python_nodes, python_cpu) in zip(compiled, runs)]
        time_ratios = [python_cpu / cpu for (_, cpu), (_, python_cpu) in zip(compiled, runs)]
        row[label] = {"nodes": runs[0][0],
                      "cpu": round(statistics.median(cpu for _, cpu in runs), 3),
                      "rate_ratio": [round(statistics.median(rate_ratios), 1),
                                     round(min(rate_ratios), 1), round(max(rate_ratios), 1)],
                      "time_ratio": [round(statistics.median(time_ratios)),
                                     round(min(time_ratios)), round(max(time_ratios))]}
    return row


def figures(positions=6, ply7=10, repeats=3, seed=1, rate_runs=RATE_RUNS):
    """The benchmark's figures: nodes and CPU per row and Python, and the ply-7 proofs."""
    rng = random.Random(seed)
    rows = []
    for plies_left in PLIES_LEFT:
        sample = [position_before_end(rng, plies_left, 0.0, CAPTURE_RATE) for _ in range(positions)]
        rows.append(rate_row(sample, plies_left, rate_runs))
    runs = []  # per position: (CPU seconds, nodes) of each proof
    table_bits = solver.table_bits_for(go_board.plies_left(PLY7))
    for position in ply7_positions(rng, ply7, opening_book.read()):
        runs.append([timed_proof(position, table_bits) for _ in range(repeats)])
    fastest = [min(cpu for cpu, _ in position_runs) for position_runs in runs]
    every = [cpu for position_runs in runs for cpu, _ in position_runs]
    proofs = {"positions": len(runs), "repeats": repeats, "table_bits": table_bits,
              "median_cpu": round(statistics.median(fastest), 3),
              "worst_cpu": round(max(fastest), 3),
              "median_cpu_every_proof": round(statistics.median(every), 3),
              "worst_cpu_every_proof": round(max(every), 3),
              # a position's proofs all visit the same nodes: the search is deterministic
              "median_nodes": int(statistics.median(position_runs[0][1]
                                                    for position_runs in runs))}
    return {"rates": rows, "ply7": proofs}


def table(found):
    """`figures` as markdown lines (what docs/benchmarks.md shows)."""
    labels = [label for label in found["rates"][0]
              if label not in ("plies_left", "positions", "runs", "compiled")]
    lines = ["| plies left | positions | compiled nodes/s | compiled CPU s | " + " | ".join(
        "{0} nodes/s | compiled nodes/s / {0} nodes/s | {0} CPU s | {0} time / compiled time"
        .format(label) for label in labels) + " |",
        "|" + " --- |" * (4 + 4 * len(labels))]
    for row in found["rates"]:
        cells = ["{:,.0f}".format(row["compiled"]["nodes"] / row["compiled"]["cpu"]),
                 "{:.4f}".format(row["compiled"]["cpu"])]
        for label in labels:
            cells += ["{:,.0f}".format(row[label]["nodes"] / row[label]["cpu"]),
                      "{:.0f}x ({:.0f}-{:.0f})".format(*row[label]["rate_ratio"]),
                      "{:.3f}".format(row[label]["cpu"]),
                      "{:.0f}x ({:.0f}-{:.0f})".format(*row[label]["time_ratio"])]
        lines.append("| {} | {} | {} |".format(row["plies_left"], row["positions"],
                                               " | ".join(cells)))
    lines += ["", "Each row: {} runs, each the compiled solver and then every Python on the same "
              "positions; CPU and nodes per second are medians over the runs, each ratio the "
              "median of the runs' own ratios (min-max in brackets).".format(
                  found["rates"][0]["runs"]),
              "", "The compiled solver's tables (`solver.table_bits_for`): {}; 2**{} entries at "
              "ply 7.".format(", ".join("2**{} entries at {} plies left".format(
                  row["compiled"]["table_bits"], row["plies_left"]) for row in found["rates"]),
                  found["ply7"]["table_bits"]),
              "", "Ply 7 of Black's strategy (17 plies left), {positions} positions, each proven "
              "{repeats} times from an empty table: per position the fastest proof, median "
              "{median_cpu} s, worst {worst_cpu} s; every proof, median {median_cpu_every_proof} "
              "s, worst {worst_cpu_every_proof} s; median {median_nodes:,} nodes.".format(
                  **found["ply7"])]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--ply7", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3, help="proofs of each ply-7 position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate-runs", type=int, default=RATE_RUNS,
                        help="runs of each side-by-side row, medians kept")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = figures(args.positions, args.ply7, args.repeats, args.seed, args.rate_runs)
    print(json.dumps(found, sort_keys=True) if args.json else "\n".join(table(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
