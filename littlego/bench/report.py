"""The benchmark set: re-creates docs/benchmarks.md with the figures and the commands.

Usage: littlego bench [--quick] [--book-only] [--reach-positions 30] [--driver-run DIR] [--ladder DIR ...]
                              [--time-use DIR ...] [--soak DIR]

Sections: the targets of the strength issue, each marked met or missed (by how much);
engine playouts per second (one core); search simulations per CPU second with 1 and 2
workers and the wall time of a move at a fixed CPU budget; the exact search's reach (CPU of the
win/loss proof on positions from recorded games, by plies left, in this Python and in the grader's
Python 3.7, see littlego/bench/solver_reach.py); the opening book's size and the CPU of a whole
call that plays a book move on Python 3.7, with the committed book and a synthetic one of 800,000
records (`--book-only` prints that section alone); how long a GUI waits for the analysis
(`littlego analysis`), by ply, on recorded games (littlego/bench/analysis_speed.py); and, when
given, the time use of a `littlego/grader/driver_match.py` run, the agent's time use over the
games of a default-budget ladder, and the ladders written by `littlego/bench/ladder.py` (a
compact win-rate table per ladder; each rung's full summary stays in its run directory, since
its players' commands name this machine's paths). Every speed figure is a median of repeats
measured side by side in this one run.
"""

import argparse
import collections
import datetime
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import agent_settings
import course_io
import go_board
import opening_book
from agent_settings import SETTINGS_PREFIX
from clocks import tree_cpu_seconds
from decision_log import SOURCE_BOOK, read_decisions
from littlego.bench import analysis_speed, solver_reach, solver_speed
from littlego.bench.engine_speed import playouts_per_second
from littlego.bench.ladder import ladder_results, ladder_rows, rate_text, time_use_rows
from littlego.grader import bundle
from littlego.grader.interpreters import grader_python
from littlego.paths import REPO_ROOT, RUNS_DIR
from littlego.progress import Progress, add_quiet_option
from littlego.referee.stats import wilson_interval
from littlego.solver import build_book, strategy
from mcts.go_game import GoState, PlayoutEvaluator
from mcts.parallel import root_parallel_search
from mcts.stopping import StopRules

DOC = os.path.join(REPO_ROOT, "docs", "benchmarks.md")
# A middle-game position: the book's main line, then plies 4-6 played out.
SEARCH_LINE = [(2, 2), (1, 2), (2, 1), (1, 1), (3, 2), (1, 3)]
QUICK_REACH_CAP_CPU = 2.0  # per proof, for --quick smoke runs
# Playouts per CPU second when the strength issue was opened (make bench-engine, Python 3.11).
ISSUE_START_PLAYOUTS = {"uniform random": 28690, "agent (knowledge)": 7831}
PLAYOUT_TARGET_RATIO = 1.5
GRADED_RUNGS = ("random", "greedy", "aggressive", "alphabeta")
# (rung, colours the rate is taken over, the target win rate): the issues' targets. A target is
# met when the 95% Wilson interval's lower bound reaches it (see `win_verdict`).
WIN_TARGETS = ([(rung, colour, 0.99) for rung in GRADED_RUNGS for colour in ("Black", "White")]
               + [("alphabeta4", "both", 0.90), ("gnugo", "both", 0.90),
                  ("previous", "both", 0.60), ("previous", "Black", 0.95),
                  ("agent-bare", "Black", 0.95), ("plain-uct", "Black", 0.95)])


def engine_rates(repeats, seconds):
    """{label: [playouts per CPU second of each repeat]}."""
    return {label: [playouts_per_second(seconds, knowledge, seed) for seed in range(repeats)]
            for knowledge, label in ((False, "uniform random"), (True, "agent (knowledge)"))}


def engine_section(rates):
    rows = ["| playouts | median per CPU second | min | max | issue start | ratio |",
            "| --- | --- | --- | --- | --- | --- |"]
    for label, values in rates.items():
        median = statistics.median(values)
        rows.append("| {} | {:,.0f} | {:,.0f} | {:,.0f} | {:,} | {:.2f}x |".format(
            label, median, min(values), max(values), ISSUE_START_PLAYOUTS[label],
            median / ISSUE_START_PLAYOUTS[label]))
    return rows


def targets_section(rates, ladders):
    """Each target: the measured figure and its verdict (win rates on the 95% interval)."""
    rows = ["| target | measured | verdict |", "| --- | --- | --- |"]
    for label, values in rates.items():
        ratio = statistics.median(values) / ISSUE_START_PLAYOUTS[label]
        verdict = "met" if ratio >= PLAYOUT_TARGET_RATIO else "missed by {:.2f}x".format(
            PLAYOUT_TARGET_RATIO - ratio)
        rows.append("| {} playouts >= {}x the issue's start ({:,}/s) | {:.2f}x | {} |".format(
            label, PLAYOUT_TARGET_RATIO, ISSUE_START_PLAYOUTS[label], ratio, verdict))
    for ladder, results in ladders:
        for rung, colour, target in WIN_TARGETS:
            if rung not in results:
                continue
            wins, games = results[rung][colour]
            one_colour = not results[rung]["Black"][1] or not results[rung]["White"][1]
            if not games or (colour == "both" and one_colour):
                continue  # a rate over both colours needs games of both
            rows.append("| {} >= {:.0f}% against {} ({}) | {} | {} |".format(
                "win rate as " + colour if colour != "both" else "win rate", 100 * target, rung,
                ladder, rate_text(wins, games), win_verdict(wins, games, target)))
    return rows


def win_verdict(wins, games, target):
    """"met" when the 95% Wilson lower bound reaches `target`; "not refuted" when only the
    point estimate does (the upper bound is then above it too); else missed, by how much."""
    low, _ = wilson_interval(wins, games)
    rate = wins / games
    if low >= target:
        return "met"
    if rate >= target:
        return "not refuted (lower bound {:.1f}%)".format(100 * low)
    return "missed by {:.1f} points".format(100 * (target - rate))


def search_position():
    position = go_board.Position()
    for row, col in SEARCH_LINE:
        position = position.play(go_board.from_coord(row, col))
    return position


def search_section(repeats, move_cpu):
    """Simulations per CPU second and wall per move for the same CPU budget, 1 vs 2 workers, with
    the agent's default playouts and every early stop off, so both spend the whole budget; the
    CPU actually used is shown beside it (the whole tree: the parent and its reaped workers)."""
    position = search_position()
    rows = ["| workers | CPU budget per move | CPU used (median) | simulations per CPU second "
            "| wall per move (s) |", "| --- | --- | --- | --- | --- |"]
    for workers in (1, 2):
        rates, walls, used = [], [], []
        for repeat in range(repeats):
            started_wall = time.monotonic()
            started_cpu = tree_cpu_seconds()
            _, simulations, _ = root_parallel_search(
                GoState(position), PlayoutEvaluator(agent_settings.DEFAULT_KNOWLEDGE), seed=repeat,
                workers=workers,
                cpu_per_worker=move_cpu / workers, wall_seconds=3 * move_cpu,
                stop=StopRules(when_decided=False), exploration=agent_settings.DEFAULT_EXPLORATION)
            walls.append(time.monotonic() - started_wall)
            used.append(tree_cpu_seconds() - started_cpu)
            rates.append(simulations / used[-1])
        rows.append("| {} | {:.1f} s | {:.2f} s | {:,.0f} | {:.2f} |".format(
            workers, move_cpu, statistics.median(used), statistics.median(rates),
            statistics.median(walls)))
    return rows


def reach_rows(positions, cap):
    """littlego/bench/solver_reach.py's rows: in this interpreter, then in the grader's as a subprocess."""
    rows = [solver_reach.measure_row(plies_left, positions, cap)
            for plies_left in solver_reach.PLIES_LEFT]
    python37 = grader_python()
    if python37 is not None:
        output = subprocess.run([python37, "-m", solver_reach.__name__,
                                 "--positions", str(positions), "--cap", str(cap)], cwd=REPO_ROOT,
                                stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        rows += [json.loads(line) for line in output.splitlines() if line.strip()]
    return rows


def reach_section(rows, cap):
    """Median and worst CPU of the win/loss proof per row, capped proofs counted, node rates."""
    table = ["| Python | plies left | positions | median CPU (s) | worst CPU (s) | over the {:g} s cap "
             "| nodes per CPU second |".format(cap), "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        seconds = row["seconds"]
        worst = max(seconds)
        table.append("| {} | {} | {} | {:.3f} | {} | {} | {:,.0f} |".format(
            row["python"], row["plies_left"], row["positions"], statistics.median(seconds),
            "> cap" if row["over_cap"] else "{:.3f}".format(worst), row["over_cap"],
            row["nodes"] / sum(seconds)))
    return table


# What a book move costs: the whole per-move call, interpreter start-up and exit included, of
# the bundle (littlego/grader/bundle.py) under the grader's Python 3.7, as White answering Black's
# losing corner opening, CPU from the rusage of the reaped child. With the committed book, and with
# a synthetic book of BOOK_BENCH_RECORDS random records around the same answer (generated, never
# kept): the size the proven strategy will reach.
BOOK_BENCH_LINE = ["0,0"]
# The synthetic book is as large as a book may be (opening_book.MAX_BOOK_BYTES).
BOOK_BENCH_RECORDS = (opening_book.MAX_BOOK_BYTES - opening_book.MAX_HEADER_BYTES) \
    // opening_book.RECORD_CHARS
BOOK_BENCH_SEED = 1
BOOK_CPU_TARGET = 0.1
BOOK_TITLE = ("Opening book at move time: the whole call of the bundle playing a book move on "
              "Python 3.7, start-up included (median of {})")


def synthetic_book(path, records, position, move):
    """A book at `path` of `records` records: the answer `move` for `position`, the rest random."""
    rng = random.Random(BOOK_BENCH_SEED)
    answers = dict([opening_book.record(position, move)])
    while len(answers) < records:
        answers.setdefault(rng.randrange(opening_book.KEY_LIMIT),
                           rng.randrange(opening_book.MOVES))
    committed = opening_book.read()
    opening_book.write(path, answers, {
        "answered_plies": {colour: committed.answered_plies(colour) for colour in opening_book.COLOURS},
        "built_with": {"by": "littlego bench", "records": "random", "seed": BOOK_BENCH_SEED}})


def book_move_cpu(python, bundle_dir, position, repeats):
    """CPU seconds of each whole call of the bundle in `bundle_dir` that plays a book move."""
    text = course_io.format_input(position.to_move, (position.prev_black, position.prev_white),
                                  (position.black, position.white))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(SETTINGS_PREFIX)}
    seconds = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as game:
            with open(os.path.join(game, course_io.INPUT_FILE), "w") as handle:
                handle.write(text)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([python, os.path.join(bundle_dir, bundle.BUNDLE_NAME)],
                                  cwd=game, env=env, stderr=subprocess.PIPE,
                                  universal_newlines=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        [decision] = read_decisions(done.stderr)
        if decision["source"] != SOURCE_BOOK:
            raise RuntimeError("the benchmark's move did not come from the book: {}".format(
                decision))
        seconds.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return seconds


def book_lookup_cpu(python, book_path, repeats):
    """CPU seconds of each `read` and `lookup` of the benchmark position in a fresh Python
    (littlego/bench/book_lookup.py)."""
    runs = [json.loads(subprocess.run(
        [python, "-m", "littlego.bench.book_lookup", os.path.abspath(book_path),
         " ".join(BOOK_BENCH_LINE)],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, check=True, universal_newlines=True).stdout)
        for _ in range(repeats)]
    if any(run["move"] is None for run in runs):
        raise RuntimeError("{} does not answer the benchmark position".format(book_path))
    return [run["cpu"] for run in runs]


def book_section(repeats):
    """The whole per-move call of a book move on the grader's Python, for the committed book and
    a synthetic one of BOOK_BENCH_RECORDS records, and the file size per 100,000 records."""
    python = grader_python()
    if python is None:
        return ["Python 3.7 not found (pyenv or PATH): not measured."]
    position = go_board.Position()
    for text in BOOK_BENCH_LINE:
        position = position.play(opening_book.parse_answer(text))
    move = opening_book.read().lookup(position)
    rows = ["| book | records | file size (bytes) | bytes per 100,000 records | submission "
            "(bytes) | CPU of the whole call, median (s) | max (s) | target | of which `read` and "
            "`lookup`, median (s) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as work:
        committed_dir, synthetic_dir = (os.path.join(work, name) for name in ("committed", "synthetic"))
        bundle.build(REPO_ROOT, committed_dir)
        shutil.copytree(committed_dir, synthetic_dir)
        book_name = os.path.basename(opening_book.BOOK_PATH)
        synthetic_book(os.path.join(synthetic_dir, book_name), BOOK_BENCH_RECORDS, position, move)
        for label, bundle_dir in (("committed", committed_dir),
                                  ("synthetic, random records", synthetic_dir)):
            book_path = os.path.join(bundle_dir, book_name)
            records = len(opening_book.read(book_path))
            with open(book_path, "rb") as handle:
                header_bytes = len(handle.readline())
            size = os.path.getsize(book_path)
            total = sum(os.path.getsize(os.path.join(bundle_dir, name))
                        for name in os.listdir(bundle_dir))
            seconds = book_move_cpu(python, bundle_dir, position, repeats)
            median = statistics.median(seconds)
            lookup = statistics.median(book_lookup_cpu(python, book_path, repeats))
            rows.append("| {} | {:,} | {:,} | {:,.0f} | {:,} | {:.3f} | {:.3f} | <= {} s: {} | "
                        "{:.4f} |".format(
                            label, records, size, (size - header_bytes) * 100000.0 / records,
                            total, median, max(seconds), BOOK_CPU_TARGET,
                            "met" if median <= BOOK_CPU_TARGET else "missed", lookup))
    return rows


def soak_section(soak_dir):
    """The figures of a `make soak` run (its summary.json): the issue's counts and CPU per move."""
    with open(os.path.join(soak_dir, "summary.json")) as handle:
        summary = json.load(handle)
    rows = ["| measure | value |", "| --- | --- |"]
    rows.append("| agent moves (games) | {} ({}) |".format(summary["moves"], summary["games"]))
    rows.append("| moves by opponent | {} |".format(", ".join(
        "{} {}".format(name, count) for name, count in sorted(summary["moves_by_opponent"].items()))))
    for key, label in (("cpu_exact_meter", "CPU per move, exact meter (s)"),
                       ("cpu_time_rusage", "CPU per move, rusage of the reaped tree (s)")):
        rows.append("| {} | max {:.2f}, 99th percentile {:.2f}, mean {:.2f} |".format(
            label, summary[key]["max"], summary[key]["p99"], summary[key]["mean"]))
    for key, label in (("over_target", "moves over 9.0 s"), ("missing_outputs", "missing outputs"),
                       ("illegal_moves", "illegal moves"),
                       ("leftover_processes", "leftover processes")):
        rows.append("| {} | {} |".format(label, summary[key]))
    return rows


def book_build_section(path):
    """Each job's answers per ply, nodes and CPU, from the book's provenance sidecar; the jobs
    of a strategy after mistakes summed in one row (most of them are lost starts, no answer)."""
    with open(path) as handle:
        provenance = json.load(handle)
    after_mistakes = {plan.name for plan in strategy.STRATEGIES if plan.after_mistakes}
    rows = collections.OrderedDict()
    for name, stats in sorted(provenance["jobs"].items()):
        plan_name = build_book.job_strategy(name)
        row = rows.setdefault(plan_name if plan_name in after_mistakes else name[:-len(".json")],
                              {"jobs": 0, "lost": 0, "answers": 0, "nodes": 0, "cpu": 0.0,
                               "per_ply": collections.Counter()})
        row["jobs"] += 1
        row["lost"] += bool(stats.get("lost"))
        row["answers"] += stats["answers"]
        row["nodes"] += stats["nodes"]
        row["cpu"] += stats["cpu"]
        row["per_ply"].update({int(ply): count for ply, count in stats["per_ply"].items()})
    lines = ["| job | answers | per ply | nodes | CPU s |", "| --- | --- | --- | --- | --- |"]
    for label, row in rows.items():
        if label in after_mistakes:
            label += " (its {} jobs, {} of them lost starts)".format(row["jobs"], row["lost"])
        lines.append("| {} | {:,} | {} | {:,} | {:.1f} |".format(
            label, row["answers"], ", ".join(
                "{}: {:,}".format(ply, count) for ply, count in sorted(row["per_ply"].items())),
            row["nodes"], row["cpu"]))
    lines += ["", "{:,.0f} CPU s in all.".format(provenance["cpu_seconds"])]
    return lines


ANALYSIS_TITLE = ("The analysis as a GUI waits for it, by ply: `littlego analysis` on the "
                  "positions of recorded games (littlego/bench/analysis_speed.py)")


def analysis_section(quick):
    """bench-analysis's table: every position of 4 recorded games (1 with --quick, its cap
    30 CPU s instead of 300)."""
    games, cap = (1, 30.0) if quick else (analysis_speed.GAMES, analysis_speed.CAP_CPU)
    figures = [analysis_speed.measure(moves, cap) for moves in analysis_speed.positions(games)]
    return analysis_speed.table(figures, cap)


def file_section(path):
    with open(path) as handle:
        return ["```"] + handle.read().rstrip().splitlines() + ["```"]


SOLVE_ALL_RESULT = os.path.join(RUNS_DIR, "solve-all", "result.json")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke run")
    parser.add_argument("--reach-positions", type=int, default=solver_reach.POSITIONS,
                        help="recorded positions per row of the reach table (default %(default)s; "
                        "rows far from the end can take up to the cap each)")
    parser.add_argument("--driver-run", help="a littlego/grader/driver_match.py output directory")
    parser.add_argument("--ladder", action="append", default=[],
                        help="a littlego/bench/ladder.py output directory (repeatable)")
    parser.add_argument("--time-use", action="append", default=[],
                        help="a littlego/bench/ladder.py output directory at the default budget: the agent's "
                        "CPU and wall per move and CPU per game over its games (repeatable)")
    parser.add_argument("--soak", help="a littlego/grader/soak.py output directory (summary.json)")
    parser.add_argument("--out", default=DOC)
    parser.add_argument("--book-only", action="store_true",
                        help="print the opening book's section only, write nothing")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    repeats, reach_positions, reach_cap = ((1, 3, QUICK_REACH_CAP_CPU) if args.quick
                                           else (5, args.reach_positions, solver_reach.CAP_CPU))
    if args.book_only:
        print(BOOK_TITLE.format(repeats))
        print("\n".join(book_section(repeats)))
        return 0
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    lines = ["# Benchmarks", "",
             "Made by `make bench` (`littlego bench{}`) on {} at commit {}, Python {}, {} "
             "cores. Medians of repeats measured side by side in this run.".format(
                 "".join(" " + arg for arg in sys.argv[1:]), datetime.date.today(), commit,
                 platform.python_version(), os.cpu_count()), ""]
    rates = engine_rates(repeats, 2.0)
    ladders = [(ladder, ladder_results(ladder)) for ladder in args.ladder]
    sections = [("Targets of the strength issue", lambda: targets_section(rates, ladders)),
                ("Engine: playouts from the empty board to ply 24, one core",
                 lambda: engine_section(rates)),
                ("Search: the same CPU per move with 1 and 2 workers, early stops off (merged visit counts)",
                 lambda: search_section(repeats, 4.0)),
                ("Exact search reach: the win/loss proof on {} positions from recorded games per row"
                 .format(reach_positions), lambda: reach_section(
                     reach_rows(reach_positions, reach_cap), reach_cap)),
                (BOOK_TITLE.format(repeats), lambda: book_section(repeats)),
                ("The compiled solver against the Python solver, side by side on the same "
                 "positions (littlego/bench/solver_speed.py)",
                 lambda: solver_speed.table(solver_speed.figures())),
                ("The book's build: the jobs of littlego/solver/build_book.py (its provenance)",
                 lambda: book_build_section(opening_book.provenance_path(opening_book.BOOK_PATH))),
                (ANALYSIS_TITLE, lambda: analysis_section(args.quick))]
    if os.path.exists(SOLVE_ALL_RESULT):
        sections.append(("Little-Go solved from the empty board (`make solve-all`)",
                         lambda: file_section(SOLVE_ALL_RESULT)))
    if args.driver_run:
        sections.append(("Time use over a match under the course driver loop ({})".format(
            args.driver_run), lambda: file_section(os.path.join(args.driver_run, "summary.txt"))))
    if args.soak:
        sections.append(("The soak ({}): agent moves at the default budget under the course "
                         "driver loop".format(args.soak), lambda: soak_section(args.soak)))
    for ladder in args.time_use:
        sections.append(("Time use at the default budget, every game of {}".format(ladder),
                         lambda ladder=ladder: time_use_rows(ladder)))
    for ladder, results in ladders:
        sections.append(("Ladder ({}): the agent's win rates, 95% intervals".format(ladder),
                         lambda results=results: ladder_rows(results)))
    with Progress(args.quiet).stage("bench", len(sections), "sections") as stage:
        for title, make_rows in sections:
            rows = make_rows()
            stage.write("\n".join([title] + rows))
            stage.advance()
            lines += ["## " + title, ""] + rows + [""]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as handle:
        handle.write("\n".join(lines))
    print("written to {}".format(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
