"""The benchmark set: re-creates docs/benchmarks.md with the figures and the commands.

Usage: python3 tools/bench.py [--quick] [--driver-run DIR] [--ladder DIR ...] [--time-use DIR ...]

Sections: the targets of the strength issue, each marked met or missed (by how much);
engine playouts per second (one core); search simulations per CPU second with 1 and 2
workers and the wall time of a move at a fixed CPU budget; exact-solver CPU by plies left
(median and worst of 20 seeded positions each); the opening book's size and CPU to load and
look up on Python 3.7; and, when given, the time use of a
`tools/driver_match.py` run, the agent's time use over the games of a default-budget ladder,
and the ladders written by `tools/ladder.py` (a compact win-rate table per ladder, then each
rung's full summary). Every speed figure is a median of repeats
measured side by side in this one run.
"""

import argparse
import datetime
import glob
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import endgame  # noqa: E402
import go_board  # noqa: E402
from mcts.go_game import GoState, PlayoutEvaluator  # noqa: E402
from mcts.parallel import root_parallel_search  # noqa: E402
from referee.stats import summary_rows, wilson_interval  # noqa: E402
from tools.bench_engine import playouts_per_second  # noqa: E402
from tools.ladder import RUNGS  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(REPO, "docs", "benchmarks.md")
# A middle-game position: the book's main line, then plies 4-6 played out.
SEARCH_LINE = [(2, 2), (1, 2), (2, 1), (1, 1), (3, 2), (1, 3)]
SOLVER_PLIES_LEFT = range(4, endgame.EXACT_PLIES_LEFT + 1)
SOLVER_CAP_CPU = 8.5  # the default move budget: slower than this is useless in a game
# Playouts per CPU second when the strength issue was opened (make bench-engine, Python 3.11).
ISSUE_START_PLAYOUTS = {"uniform random": 28690, "agent (knowledge)": 7831}
PLAYOUT_TARGET_RATIO = 1.5
GRADED_RUNGS = ("random", "greedy", "aggressive", "alphabeta")
# (rung, colours the rate is taken over, the target win rate): the issue's targets.
WIN_TARGETS = ([(rung, colour, 0.99) for rung in GRADED_RUNGS for colour in ("Black", "White")]
               + [("alphabeta4", "both", 0.90), ("seed-design", "both", 0.95),
                  ("gnugo", "both", 0.90)])


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


def rung_games(ladder):
    """(rung, records, the agent's name) per rung of a tools/ladder.py output directory.

    The agent is player A of every rung, so it is Black in game 1 (see referee/match.py).
    """
    for path in sorted(glob.glob(os.path.join(ladder, "*", "games.jsonl"))):
        with open(path) as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        if records:
            agent = min(records, key=lambda record: record["game"])["black"]
            yield os.path.basename(os.path.dirname(path)), records, agent


def agent_side(record, agent):
    return "black" if record["black"] == agent else "white"


def ladder_results(ladder):
    """{rung: {"Black"|"White"|"both": (wins, games)}} for the agent, from each games.jsonl."""
    results = {}
    for rung, records, agent in rung_games(ladder):
        results[rung] = {row["colour"]: (row["wins"], row["games"])
                         for row in summary_rows(records, [agent])}
    order = {rung: index for index, rung in enumerate(RUNGS)}
    return dict(sorted(results.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def percentile(values, share):
    """The nearest-rank percentile: the smallest value with `share` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def time_use_section(ladder):
    """The agent's CPU and wall per move (whole process tree, metered by the referee) and CPU
    per game, over every game of a ladder directory."""
    per_move = {"cpu": [], "wall": []}
    per_game = []
    for _, records, agent in rung_games(ladder):
        for record in records:
            side = agent_side(record, agent)
            for kind in per_move:
                per_move[kind] += record[kind][side]
            per_game.append(sum(record["cpu"][side]))
    rows = ["| measure | mean | 99th percentile | max | count |", "| --- | --- | --- | --- | --- |"]
    for label, values in (("CPU per move (s)", per_move["cpu"]), ("wall per move (s)", per_move["wall"]),
                          ("CPU per game, our moves (s)", per_game)):
        rows.append("| {} | {:.2f} | {:.2f} | {:.2f} | {} |".format(
            label, statistics.mean(values), percentile(values, 0.99), max(values), len(values)))
    return rows


def rate_text(wins, games):
    low, high = wilson_interval(wins, games)
    return "{}/{} = {:.1f}% [{:.1f}, {:.1f}]".format(
        wins, games, 100.0 * wins / games, 100 * low, 100 * high)


def ladder_section(results):
    rows = ["| opponent | agent as Black | agent as White | both |", "| --- | --- | --- | --- |"]
    for rung, counts in results.items():
        rows.append("| {} | {} |".format(rung, " | ".join(
            rate_text(*counts[colour]) for colour in ("Black", "White", "both"))))
    return rows


def targets_section(rates, ladders):
    """Each target of the issue: the measured figure, met or missed, and by how much."""
    rows = ["| target | measured | verdict |", "| --- | --- | --- |"]
    for label, values in rates.items():
        ratio = statistics.median(values) / ISSUE_START_PLAYOUTS[label]
        rows.append("| {} playouts >= {}x the issue's start ({:,}/s) | {:.2f}x | {} |".format(
            label, PLAYOUT_TARGET_RATIO, ISSUE_START_PLAYOUTS[label], ratio,
            _verdict(ratio, PLAYOUT_TARGET_RATIO, "x")))
    for ladder, results in ladders:
        for rung, colour, target in WIN_TARGETS:
            if rung not in results:
                continue
            wins, games = results[rung][colour]
            rows.append("| {} >= {:.0f}% against {} ({}) | {} | {} |".format(
                "win rate as " + colour if colour != "both" else "win rate", 100 * target, rung,
                ladder, rate_text(wins, games), _verdict(100.0 * wins / games, 100 * target, "%")))
    return rows


def _verdict(value, target, unit):
    if value >= target:
        return "met"
    if unit == "%":
        return "missed by {:.1f} points".format(target - value)
    return "missed by {:.2f}{}".format(target - value, unit)


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


# What a move costs the agent in book reading (my_player reads the file twice: `answered_plies`
# for the time manager, `lookup` for the move), then one lookup at ply 6, timed inside a fresh
# Python 3.7 (the grader's).
BOOK_TIMING_SCRIPT = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import go_board
started = time.process_time()
import opening_book
opening_book.answered_plies()
book = opening_book.load()
loaded = time.process_time()
position = go_board.Position()
for text in sys.argv[2].split():
    position = position.play(opening_book.parse_answer(text))
opening_book.lookup(position, book)
done = time.process_time()
print(json.dumps({"load": loaded - started, "lookup": done - loaded, "entries": len(book)}))
"""
BOOK_TIMING_LINE = "2,2 1,2 2,1 1,1 3,2"
BOOK_CPU_TARGET = 0.05


def grader_python():
    """The newest Python 3.7 on PATH or in pyenv, or None."""
    try:
        versions = subprocess.run(["pyenv", "versions", "--bare"], stdout=subprocess.PIPE,
                                  universal_newlines=True).stdout.split()
        found = sorted((v for v in versions if v.startswith("3.7.")),
                       key=lambda v: [int(part) for part in v.split(".")])
        if found:
            prefix = subprocess.run(["pyenv", "prefix", found[-1]], stdout=subprocess.PIPE,
                                    universal_newlines=True).stdout.strip()
            return os.path.join(prefix, "bin", "python")
    except OSError:
        pass
    return shutil.which("python3.7")


def book_section(repeats):
    """The opening book's size and its cost at move time on the grader's Python."""
    python = grader_python()
    path = os.path.join(REPO, "opening_book.json")
    if python is None:
        return ["Python 3.7 not found (pyenv or PATH): not measured."]
    runs = [json.loads(subprocess.run(
        [python, "-c", BOOK_TIMING_SCRIPT, REPO, BOOK_TIMING_LINE], stdout=subprocess.PIPE,
        check=True, universal_newlines=True).stdout) for _ in range(repeats)]
    load = statistics.median(run["load"] for run in runs)
    lookup = statistics.median(run["lookup"] for run in runs)
    return ["| entries | file size | reading it (twice) CPU (s) | lookup at ply 6 CPU (s) | total "
            "| target |",
            "| --- | --- | --- | --- | --- | --- |",
            "| {} | {:,} bytes | {:.4f} | {:.4f} | {:.4f} | <= {} s: {} |".format(
                runs[0]["entries"], os.path.getsize(path), load, lookup, load + lookup,
                BOOK_CPU_TARGET, _verdict(BOOK_CPU_TARGET - load - lookup, 0.0, " s"))]


def file_section(path):
    with open(path) as handle:
        return ["```"] + handle.read().rstrip().splitlines() + ["```"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, for a smoke run")
    parser.add_argument("--driver-run", help="a tools/driver_match.py output directory")
    parser.add_argument("--ladder", action="append", default=[],
                        help="a tools/ladder.py output directory (repeatable)")
    parser.add_argument("--time-use", action="append", default=[],
                        help="a tools/ladder.py output directory at the default budget: the agent's "
                        "CPU and wall per move and CPU per game over its games (repeatable)")
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
    rates = engine_rates(repeats, 2.0)
    ladders = [(ladder, ladder_results(ladder)) for ladder in args.ladder]
    sections = [("Targets of the strength issue", lambda: targets_section(rates, ladders)),
                ("Engine: playouts from the empty board to ply 24, one core",
                 lambda: engine_section(rates)),
                ("Search: the same CPU per move with 1 and 2 workers (merged visit counts)",
                 lambda: search_section(repeats, 4.0)),
                ("Exact endgame (`endgame.choose_endgame_move`), {} seeded random positions per row"
                 .format(samples), lambda: solver_section(samples)),
                ("Opening book at move time: a fresh Python 3.7 loads it and looks up a ply-6 "
                 "position (median of {})".format(repeats), lambda: book_section(repeats))]
    if args.driver_run:
        sections.append(("Time use over a match under the course driver loop ({})".format(
            args.driver_run), lambda: file_section(os.path.join(args.driver_run, "summary.txt"))))
    for ladder in args.time_use:
        sections.append(("Time use at the default budget, every game of {}".format(ladder),
                         lambda ladder=ladder: time_use_section(ladder)))
    for ladder, results in ladders:
        sections.append(("Ladder ({}): the agent's win rates, 95% intervals".format(ladder),
                         lambda results=results: ladder_section(results)))
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
