"""Build opening_book.txt: the winning side's whole strategy, proven by the compiled solver.

Usage: littlego book [--jobs 2] [--ray ADDRESS] [--table-bits 26]
           [--cache runs/book-jobs] [--fresh] [--out opening_book.txt]

What it holds is solver/strategy.py's STRATEGIES: after Black's centre a proven winning Black
move for every position White can reach through ply 11; after each of Black's five losing first
moves a proven winning White move for every position Black can reach through ply 10; after the
centre, wherever Black's third move throws the win away, White's proven answers through ply 10;
and Black's first move, the centre (rules.md; docs/benchmarks.md's full solve proves it). Each
strategy is cut into jobs (solver.strategy.jobs) that run on --jobs local processes or the --ray
cluster, each on a solver of its own with a table of 2**--table-bits entries (16 bytes each). A
job's answers are saved in --cache as soon as it ends, in a folder named by the solver's sources
and the table size (`job_folder`), so an interrupted build resumes where it stopped and a
changed solver starts over; --fresh starts over too. Where two jobs answer the same position (a
transposition), the earlier job in STRATEGIES' order gives the answer: every answer is a proven
win, and that job walked every reply after it.

The book's bytes depend only on the rules, the solver and --table-bits: the same on every run,
whatever ran the jobs. The provenance (each job's answers per ply, nodes and CPU seconds) goes
to the sidecar opening_book.provenance.json, which no move reads.
"""

import argparse
import json
import os
import sys
import time

import course_io
import go_board
import opening_book
from go_board import BLACK, WHITE
from littlego import solver
from littlego.solver import executors, strategy

DEFAULT_CACHE = os.path.join("runs", "book-jobs")
# The book answers every position our book play can reach through these plies, per colour: the
# time manager counts those moves as free. White's strategies answer only after Black's losing
# first moves or Black's own mistakes after the centre (where White is lost otherwise and its
# moves are searched), so none is counted.
ANSWERED_PLIES = {BLACK: max(s.last_ply for s in strategy.STRATEGIES if s.winner == BLACK),
                  WHITE: 0}
FIRST_MOVE_SOURCE = "rules.md: every other first move loses (make solve-all proves it)"


def job_folder(cache, table_bits):
    """Where jobs found by this solver (its sources' digest) on this table size are saved."""
    return os.path.join(cache, "solver-{}-bits{}".format(solver.source_digest(), table_bits))


def job_name(job):
    """A file name for a job's cached result: its strategy, its last ply and line."""
    return "{}-to{}_{}.json".format(job.strategy.name, job.strategy.last_ply, "_".join(
        text.replace(",", "-") for text in job.line))


def job_strategy(name):
    """The strategy's name in a `job_name` (the provenance's keys)."""
    return name.split("-to")[0]


def read_cached(path):
    """A job's saved `(answers, stats)`, or None when there is none or it is unreadable."""
    try:
        with open(path) as handle:
            saved = json.load(handle)
        return {int(key): move for key, move in saved["answers"].items()}, saved["stats"]
    except (IOError, OSError, ValueError, KeyError, TypeError):
        return None


def save_cached(path, answers, stats):
    course_io.write_atomically(path, json.dumps(
        {"answers": {str(key): move for key, move in sorted(answers.items())}, "stats": stats},
        sort_keys=True))


def first_move_answer():
    empty = go_board.Position()
    return opening_book.record(empty, strategy.CENTRE)


def merge(ordered_results):
    """The book's answers from the jobs' `(answers, stats)` in STRATEGIES' order (the first
    answer of a position stays), plus Black's first move."""
    key, move = first_move_answer()
    book = {key: move}
    for answers, _ in ordered_results:
        for key, move in answers.items():
            book.setdefault(key, move)
    return book


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="local worker processes")
    parser.add_argument("--ray", metavar="ADDRESS", help="run the jobs on this Ray cluster")
    parser.add_argument("--table-bits", type=int, default=solver.BOOK_TABLE_BITS,
                        help="each job's table: 2**B entries of 16 bytes (default %(default)s)")
    parser.add_argument("--cache", default=DEFAULT_CACHE, help="each job's saved result")
    parser.add_argument("--fresh", action="store_true", help="ignore saved job results")
    parser.add_argument("--out", default=opening_book.BOOK_PATH)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if solver.missing("build_book"):
        return 2
    started = time.time()
    folder = job_folder(args.cache, args.table_bits)
    os.makedirs(folder, exist_ok=True)
    all_jobs = [job for plan in strategy.STRATEGIES for job in strategy.jobs(plan)]
    results = {}
    for job in all_jobs:
        cached = None if args.fresh else read_cached(os.path.join(folder, job_name(job)))
        if cached is not None:
            results[job] = cached
    todo = [(job, args.table_bits) for job in all_jobs if job not in results]
    print("{} jobs, {} saved, {} to run".format(len(all_jobs), len(results), len(todo)),
          flush=True)

    def done(arguments, result):
        job = arguments[0]
        answers, stats = result
        save_cached(os.path.join(folder, job_name(job)), answers, stats)
        results[job] = result
        print("{} {}: {} answers {} in {} CPU s, {} nodes".format(
            job.strategy.name, " ".join(job.line), stats["answers"], stats["per_ply"],
            stats["cpu"], stats["nodes"]), flush=True)
    try:
        executors.run(strategy.run_job, todo, args.jobs, args.ray, done)
    except KeyboardInterrupt:
        print("interrupted; the finished jobs are in {}: run the same command to resume".format(
            folder))
        return 130
    book = merge(results[job] for job in all_jobs)
    cpu = sum(results[job][1]["cpu"] for job in all_jobs)
    opening_book.write(args.out, book, {
        "answered_plies": ANSWERED_PLIES,
        "built_with": {"by": "littlego book", "table_bits": args.table_bits,
                       "strategies": {plan.name: plan.last_ply
                                      for plan in strategy.STRATEGIES}}},
        provenance={"first_move": FIRST_MOVE_SOURCE, "cpu_seconds": round(cpu, 1),
                    "jobs": {job_name(job): results[job][1] for job in all_jobs}})
    print("{} answers in {}; {:.0f} CPU s in the jobs (all runs), {:.0f} s wall this run".format(
        len(book), args.out, cpu, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
