"""Check the book against the winning side's strategies with the compiled solver.

Usage: littlego verify-book [--book opening_book.txt] [--lines N --seed S]
           [--from-ply P] [--table-bits B] [--jobs 2] [--ray ADDRESS] [--only NAME,...]

First White's repertoire after the centre (solver/repertoire.py's `check`, always whole): at
every position White reaches while Black keeps its win, through ply 10, the position is lost,
the book has a try, and the try's count of Black's winning replies is exact; it also lists
Black's slips along it. Then, for each strategy of solver/strategy.py and for AFTER_SLIPS
(every slip a start), every position the losing side can reach while the winning side follows
the book (or, with --lines, N seeded lines on which the loser plays at random) must have a book
answer that the solver proves winning (solver.strategy.check). Last, with the full check, each
strategy's seam (solver/seam.py's `check`, here): every position at the winner's first ply past
the strategy whose in-game exact search would refute a move first has a book answer, and every
book answer there wins.
The full check runs the build's jobs (solver.strategy.check_job) on --jobs local processes or
a Ray cluster; the repertoire and the sampled check run here. --only checks the named parts
alone (e.g. `--only white-repertoire,white-after-slips`, what a new repertoire adds; the
slips' check needs the repertoire's walk, which then runs but is reported only when named).
Prints one JSON object per strategy and one for the repertoire (positions checked, failures,
nodes, CPU seconds), and its progress on stderr (littlego/progress.py: a bar on a terminal, a
line per stage elsewhere, nothing with --quiet); exits 1 when any position fails, 2 when the
solver is not built.
"""

import argparse
import json
import random
import sys
import time

import go_board
import opening_book
from littlego import solver
from littlego.progress import Progress, add_quiet_option
from littlego.solver import executors, repertoire, seam, strategy

# `--only seam` checks the seams alone; each is reported as SEAM_PREFIX + its strategy's name.
SEAM_PART = "seam"
SEAM_PREFIX = "seam-"


def plans(only=None):
    """What the check walks after the repertoire: the strategies, then AFTER_SLIPS (those named
    in `only`, when given)."""
    return tuple(plan for plan in strategy.book_plans()
                 if only is None or plan.name in only)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--book", default=opening_book.BOOK_PATH)
    parser.add_argument("--lines", type=int, default=0,
                        help="seeded random lines of the loser per strategy (0: every reply)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-ply", type=int, default=1, help="prove positions from this ply")
    parser.add_argument("--table-bits", type=int, default=solver.BOOK_TABLE_BITS)
    parser.add_argument("--jobs", type=int, default=2, help="local worker processes (full check)")
    parser.add_argument("--ray", metavar="ADDRESS", help="run the full check's jobs on Ray")
    parser.add_argument("--only", type=lambda text: set(text.split(",")), metavar="NAMES",
                        help="check these parts only (default: all)")
    add_quiet_option(parser)
    return parser.parse_args(argv)


def checked_repertoire(args):
    """`(checked, failures, stats, slips)` of the book's repertoire, on a fresh solver."""
    with solver.Solver(args.table_bits) as search:
        started = time.process_time()
        checked, failures, slips = repertoire.check(opening_book.read(args.book),
                                                    repertoire.REPERTOIRE, search)
        failures = [(position, None if entry is None else entry.move)
                    for position, entry in failures]
        return checked, failures, {"nodes": search.nodes,
                                   "cpu": round(time.process_time() - started, 1)}, slips


def sampled(args, plan, slips):
    """`(checked, failures, stats)` of --lines seeded lines of `plan`, in this process."""
    rng = random.Random("{}:{}".format(args.seed, plan.name))
    return strategy.check_on_fresh_solver(opening_book.read(args.book), plan, args.table_bits,
                                          rng=rng, lines=args.lines, from_ply=args.from_ply,
                                          slips=slips)


def full(args, slips, progress):
    """{strategy name: (checked, failures, stats)} of every job, summed per strategy."""
    chosen = plans(args.only)
    totals = {plan.name: (0, [], {"nodes": 0, "cpu": 0.0}) for plan in chosen}

    def done(arguments, result):
        name = arguments[0].strategy.name
        stage.advance()
        checked, failures, stats = totals[name]
        totals[name] = (checked + result[0], failures + result[1],
                        {key: stats[key] + result[2][key] for key in stats})
    work = [job for plan in chosen if plan != strategy.AFTER_SLIPS
            for job in strategy.jobs(plan)]
    if strategy.AFTER_SLIPS in chosen:
        work += strategy.slip_jobs(slips)
    with progress.stage("verify-book", len(work), "jobs") as stage:
        executors.run(strategy.check_job, [(job, args.book, args.table_bits, args.from_ply)
                                            for job in work], args.jobs, args.ray, done)
    return totals


def checked_seams(args, slips):
    """`(seam part name, (checked, failures, stats))` of every strategy's seam in turn
    (solver/seam.py's `check`), each on a fresh solver, here."""
    book = opening_book.read(args.book)
    for plan in plans():
        with solver.Solver(args.table_bits) as search:
            started = time.process_time()
            checked, failures = seam.check(book, plan, search, slips)
            yield SEAM_PREFIX + plan.name, (checked, failures, {
                "nodes": search.nodes, "cpu": round(time.process_time() - started, 1)})


def report(name, checked, failures, stats):
    """One JSON line for a checked part of the book."""
    return json.dumps({"strategy": name, "checked": checked, "failures": [
        {"ply": position.ply, "board": go_board.board_to_digits(position.black, position.white),
         "book": None if move is None else go_board.move_to_text(move)}
        for position, move in failures], "nodes": stats["nodes"],
        "cpu": round(stats["cpu"], 1)}, sort_keys=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if (executors.ray_missing("littlego verify-book", args.ray)
            or solver.missing("littlego verify-book")):
        return 2
    progress = Progress(args.quiet)
    try:
        with progress.stage("repertoire", 1, "walks") as stage:
            checked, failures, stats, slips = checked_repertoire(args)
            stage.advance()
        failed = 0
        if args.only is None or repertoire.REPERTOIRE.name in args.only:
            print(report(repertoire.REPERTOIRE.name, checked, failures, stats), flush=True)
            failed = len(failures)
        results = None if args.lines else full(args, slips, progress)
        with progress.stage("strategies", len(plans(args.only)), "strategies") as stage:
            for plan in plans(args.only):
                checked, failures, stats = results[plan.name] if results else sampled(
                    args, plan, slips)
                failed += len(failures)
                stage.write(report(plan.name, checked, failures, stats))
                stage.advance()
        if not args.lines and (args.only is None or SEAM_PART in args.only):
            with progress.stage("seams", len(plans()), "strategies") as stage:
                for name, (checked, failures, stats) in checked_seams(args, slips):
                    failed += len(failures)
                    stage.write(report(name, checked, failures, stats))
                    stage.advance()
    except KeyboardInterrupt:
        print("littlego verify-book: interrupted", file=sys.stderr)
        return 130
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
