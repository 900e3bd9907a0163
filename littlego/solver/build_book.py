"""Build opening_book.txt: the winning side's whole strategy, proven by the compiled solver.

Usage: littlego book [--jobs 2] [--ray ADDRESS] [--table-bits 26]
           [--cache runs/book-jobs] [--fresh] [--rule fewest|model] [--out opening_book.txt]
           [--seam-only]

What it holds is solver/strategy.py's STRATEGIES: after Black's centre a proven winning Black
move for every position White can reach through ply 11; after each of Black's five losing first
moves a proven winning White move for every position Black can reach through ply 10; after the
centre, wherever Black's third move throws the win away, White's proven answers through ply 10;
and Black's first move, the centre (docs/rules.md; docs/benchmarks.md's full solve proves it).
After the centre White is lost, and solver/repertoire.py's REPERTOIRE gives its tries (--rule
chooses them) at every position Black can reach through ply 10 while it keeps its win; each of
Black's slips along it from ply 5 on is a job of AFTER_SLIPS, White's proven answers through
ply 10. The repertoire is built first (its slips are the later jobs). Each strategy is cut
into jobs (solver.strategy.jobs) that run on --jobs local processes or the --ray cluster, each
on a solver of its own with a table of 2**--table-bits entries (solver.table_bytes: 512 MB for
the default 2**26). A job's answers (and the repertoire) are saved in --cache as soon as it
ends, in a folder named by the solver's sources and the table size (`job_folder`), so an
interrupted build resumes where it stopped and a changed solver starts over; --fresh starts
over too. Where two jobs answer the same position (a transposition), the earlier job in
STRATEGIES' order (AFTER_SLIPS last) gives the answer: every answer is a proven win, and that
job walked every reply after it. A try's position is lost for
White, so no winning answer can share it (the build stops if one does).
Last, the seam (solver/seam.py): at the winner's first ply past each strategy, the positions
whose in-game exact search would refute a losing move before finding a winning one get the
winning move it would find (`add_seam`, in place of any answers at the seam's plies; --seam-only
runs this stage alone on the book at --out, e.g. after a change of the seam's rule or of the
in-game search's order, with the slips of the book's own repertoire).

The book's bytes depend only on the rules, the solver, --table-bits and --rule (the model's
searches are seeded and counted in simulations): the same on every run, whatever ran the jobs. The provenance (each job's answers per ply, nodes and CPU seconds) goes
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
from littlego.progress import Progress, add_quiet_option
from littlego.solver import executors, repertoire, seam, strategy

DEFAULT_CACHE = os.path.join("runs", "book-jobs")
# The book answers every position our book play can reach through these plies, per colour: the
# time manager counts those moves as free. White: after Black's losing first moves its
# strategies, after the centre the repertoire's tries and, after any slip of Black's (plies 3 to
# 9), the proofs of white-after-mistakes and AFTER_SLIPS, all through ply 10.
ANSWERED_PLIES = {BLACK: max(s.last_ply for s in strategy.STRATEGIES if s.winner == BLACK),
                  WHITE: min([repertoire.REPERTOIRE.last_ply, strategy.AFTER_SLIPS.last_ply]
                             + [s.last_ply for s in strategy.STRATEGIES if s.winner == WHITE])}
FIRST_MOVE_SOURCE = "rules.md: every other first move loses (make solve-all proves it)"


def job_folder(cache, table_bits):
    """Where jobs found by this solver (its sources' digest) on this table size are saved."""
    return os.path.join(cache, "solver-{}-bits{}".format(solver.source_digest(), table_bits))


def job_name(job):
    """A file name for a job's cached result: its strategy, its last ply and line."""
    return "{}-to{}_{}.json".format(job.strategy.name, job.strategy.last_ply, "_".join(
        text.replace(",", "-") for text in job.line))


def repertoire_name(plan):
    """A file name for the repertoire's cached result: its name, rule (`rule_tag`) and last
    ply."""
    return "{}-{}-to{}.json".format(plan.name, repertoire.rule_tag(plan.rule), plan.last_ply)


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


def merge(ordered_results, tries=None):
    """The book's answers from the jobs' `(answers, stats)` in STRATEGIES' order (the first
    answer of a position stays), plus Black's first move; ValueError when one of `tries` (the
    repertoire's) is also a winning answer."""
    key, move = first_move_answer()
    book = {key: move}
    for answers, _ in ordered_results:
        for key, move in answers.items():
            book.setdefault(key, move)
    both = set(book) & set(tries or {})
    if both:
        raise ValueError("{} positions are both tries and wins, e.g. key {}".format(
            len(both), min(both)))
    return book


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="local worker processes")
    parser.add_argument("--ray", metavar="ADDRESS", help="run the jobs on this Ray cluster")
    parser.add_argument("--table-bits", type=int, default=solver.BOOK_TABLE_BITS,
                        help="each job's table: 2**B entries (default %(default)s)")
    parser.add_argument("--cache", default=DEFAULT_CACHE, help="each job's saved result")
    parser.add_argument("--fresh", action="store_true", help="ignore saved job results")
    parser.add_argument("--rule", choices=sorted(repertoire.RULES),
                        default=repertoire.REPERTOIRE.rule,
                        help="how White's tries after the centre are chosen (default %(default)s)")
    parser.add_argument("--out", default=opening_book.BOOK_PATH)
    parser.add_argument("--seam-only", action="store_true",
                        help="only the last stage: the seam's answers, in place of those "
                        "of the book at --out")
    add_quiet_option(parser)
    return parser.parse_args(argv)


def read_repertoire(path):
    """The saved `(tries, slips, stats)` of a repertoire, or None."""
    try:
        with open(path) as handle:
            saved = json.load(handle)
        tries = {int(key): (move, count) for key, (move, count) in saved["tries"].items()}
        return tries, [tuple(line) for line in saved["slips"]], saved["stats"]
    except (IOError, OSError, ValueError, KeyError, TypeError):
        return None


def save_repertoire(path, tries, slips, stats):
    course_io.write_atomically(path, json.dumps(
        {"tries": {str(key): list(tries[key]) for key in sorted(tries)},
         "slips": [list(line) for line in slips], "stats": stats}, sort_keys=True))


def build_repertoire(args, folder, progress):
    """The repertoire of --rule, saved or built (one job, on the executor like the others)."""
    plan = repertoire.REPERTOIRE._replace(rule=args.rule)
    path = os.path.join(folder, repertoire_name(plan))
    found = None if args.fresh else read_repertoire(path)
    if found is None:
        with progress.stage("repertoire " + plan.name, 1, "jobs") as stage:
            def done(arguments, result):
                save_repertoire(path, *result)
                stage.advance()
            executors.run(repertoire.run, [(plan, args.table_bits)], 1, args.ray, done)
        found = read_repertoire(path)
    stats = found[2]
    print("repertoire {} ({}): {} tries {}, {} slips {}, {} CPU s".format(
        plan.name, plan.rule, stats["tries"], stats["per_ply"], stats["slips"],
        stats["slips_per_ply"], stats["cpu"]), flush=True)
    return plan, found


def add_seam(path, slips, table_bits, progress):
    """The build's last stage: the book at `path` rewritten with the seam's answers
    (solver/seam.py) in place of any it held at the seam's plies (an earlier seam's, whose rule
    may have been another: the strategies answer no position there), their figures in its
    provenance and header."""
    book = opening_book.read(path)
    answers, tries = opening_book.entries(book)
    seam_plies = {seam.seam_ply(plan) for plan in strategy.book_plans()}
    answers = {key: move for key, move in answers.items()
               if opening_book.key_ply(key) not in seam_plies}
    with solver.Solver(table_bits) as search, \
            progress.stage("seam", len(strategy.book_plans()), "strategies") as stage:
        def log(line):
            stage.write(line)
            stage.advance()
        found, stats = seam.answers(book, search, slips, log=log)
    for key, move in found.items():
        answers.setdefault(key, move)
    fields = opening_book.read_header_fields(path)
    fields["built_with"]["seam"] = {name: each["ply"] for name, each in stats.items()}
    with open(opening_book.provenance_path(path)) as handle:
        provenance = json.load(handle)
    provenance["seam"] = stats
    opening_book.write(path, answers, fields, provenance=provenance, tries=tries)
    print("seam: {} answers; the book has {} records".format(
        sum(each["answers"] for each in stats.values()), len(answers) + len(tries)), flush=True)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if executors.ray_missing("littlego book", args.ray) or solver.missing("littlego book"):
        return 2
    progress = Progress(args.quiet)
    if args.seam_only:
        with solver.Solver(args.table_bits) as search:  # the slips of the book's repertoire
            slips = repertoire.check(opening_book.read(args.out), repertoire.REPERTOIRE,
                                     search)[2]
        add_seam(args.out, slips, args.table_bits, progress)
        return 0
    started = time.time()
    folder = job_folder(args.cache, args.table_bits)
    os.makedirs(folder, exist_ok=True)
    try:
        plan, (tries, slips, repertoire_stats) = build_repertoire(args, folder, progress)
    except KeyboardInterrupt:
        print("interrupted while building the repertoire: run the same command to start it again")
        return 130
    all_jobs = [job for each in strategy.STRATEGIES for job in strategy.jobs(each)] \
        + strategy.slip_jobs(slips)
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
        stage.advance()
        stage.write("{} {}: {} answers {} in {} CPU s, {} nodes".format(
            job.strategy.name, " ".join(job.line), stats["answers"], stats["per_ply"],
            stats["cpu"], stats["nodes"]))
    try:
        with progress.stage("book", len(todo), "jobs") as stage:
            executors.run(strategy.run_job, todo, args.jobs, args.ray, done)
    except KeyboardInterrupt:
        print("interrupted; the finished jobs are in {}: run the same command to resume".format(
            folder))
        return 130
    book = merge((results[job] for job in all_jobs), tries)
    cpu = sum(results[job][1]["cpu"] for job in all_jobs) + repertoire_stats["cpu"]
    opening_book.write(args.out, book, {
        "answered_plies": ANSWERED_PLIES,
        "built_with": {"by": "littlego book", "table_bits": args.table_bits,
                       "strategies": {each.name: each.last_ply for each
                                      in strategy.book_plans()},
                       "repertoire": {"name": plan.name, "rule": plan.rule,
                                      "last_ply": plan.last_ply}}},
        provenance={"first_move": FIRST_MOVE_SOURCE, "cpu_seconds": round(cpu, 1),
                    "repertoire": repertoire_stats,
                    "jobs": {job_name(job): results[job][1] for job in all_jobs}},
        tries=tries)
    print("{} answers and {} tries in {}; {:.0f} CPU s in the jobs (all runs), {:.0f} s wall "
          "this run".format(len(book), len(tries), args.out, cpu, time.time() - started))
    add_seam(args.out, slips, args.table_bits, progress)
    return 0


if __name__ == "__main__":
    sys.exit(main())
