"""How long a GUI waits for the analysis, by ply: `littlego bench-analysis`.

Usage: littlego bench-analysis [--games 4] [--cap 300] [--records FILE]

Every position of the first GAMES games of recorded_games/ladder-alphabeta4-1s.jsonl (the
agent's own games, so a review's positions), each asked of a fresh `littlego analysis` process
as KaTrain asks (reportDuringSearchEvery 0.1 s, the turn's maxTime the cap in CPU seconds),
once the process has started (a query_version answered): the wall time from the query to the
first answer, to the position's exact value (rootInfo's scoreStdev 0: what a GUI's score graph
and point loss need) and to every move's exact margin (every moveInfo's scoreStdev 0: the top
moves' hints), or "> cap" when the cap came first. `table` prints the rows by ply, medians and
worst, and how many positions the stored value table answered; `--json` also writes every
position's figures.
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import time

import go_board
from littlego.analysis import stored_values
from littlego.analysis.vertices import vertex_text
from littlego.paths import REPO_ROOT
from littlego.progress import Progress, add_quiet_option

GAMES_FILE = os.path.join(REPO_ROOT, "recorded_games", "ladder-alphabeta4-1s.jsonl")
GAMES = 4
CAP_CPU = 300.0
REPORT_EVERY = 0.1
# Figure = one position: its ply, whether the table holds it, and the wall seconds to the first
# answer, to the exact value and to every exact margin (None: not within the cap).
Figure = collections.namedtuple("Figure", "ply stored first value margins")


def positions(games=GAMES):
    """`[moves]`: the moves (course texts) reaching every position of the first `games`
    recorded games, the finished ones left out."""
    with open(GAMES_FILE) as handle:
        records = [json.loads(line)["moves"] for line in handle][:games]
    found = []
    for moves in records:
        position = go_board.Position()
        for index, text in enumerate(moves):
            found.append(moves[:index])
            position = position.play(go_board.move_from_text(text))
    return found


def exact(entry):
    return entry.get("scoreStdev") == 0.0


def measure(moves, cap):
    """The Figure of the position after `moves`, from a fresh engine."""
    position = stored_values.position_after(moves)
    engine = subprocess.Popen([sys.executable, "-m", "littlego", "analysis", "--max-time",
                               str(cap)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              universal_newlines=True, bufsize=1)
    try:
        engine.stdin.write(json.dumps({"id": "v", "action": "query_version"}) + "\n")
        engine.stdin.flush()
        engine.stdout.readline()
        query = {"id": "q", "reportDuringSearchEvery": REPORT_EVERY,
                 "moves": [["BW"[index % 2], vertex_text(go_board.move_from_text(text))]
                           for index, text in enumerate(moves)]}
        started = time.monotonic()
        engine.stdin.write(json.dumps(query) + "\n")
        engine.stdin.flush()
        first = value = margins = None
        while True:
            answer = json.loads(engine.stdout.readline())
            now = round(time.monotonic() - started, 3)
            first = now if first is None else first
            if value is None and exact(answer["rootInfo"]):
                value = now
            if margins is None and all(exact(info) for info in answer["moveInfos"]):
                margins = now
            if not answer["isDuringSearch"]:
                break
        return Figure(position.ply, position in stored_values.read(), first, value, margins)
    finally:
        engine.stdin.close()
        engine.wait(60)


def seconds_text(values, cap):
    """`median / worst` of `values` (None counts as over the cap)."""
    known = [value for value in values if value is not None]
    if not known:
        return "> cap"
    median = statistics.median([value if value is not None else float("inf")
                                for value in values])
    worst = "> cap" if len(known) < len(values) else "{:.2f}".format(max(known))
    return "{} / {}".format("> cap" if median == float("inf") else "{:.2f}".format(median),
                            worst)


def table(figures, cap):
    """The markdown table of `figures` by ply."""
    by_ply = collections.defaultdict(list)
    for figure in figures:
        by_ply[figure.ply].append(figure)
    lines = ["| ply | positions | stored | first answer (s) | exact value (s) | every margin (s) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for ply in sorted(by_ply):
        rows = by_ply[ply]
        lines.append("| {} | {} | {} | {} | {} | {} |".format(
            ply, len(rows), sum(row.stored for row in rows),
            seconds_text([row.first for row in rows], cap),
            seconds_text([row.value for row in rows], cap),
            seconds_text([row.margins for row in rows], cap)))
    lines += ["", "Wall seconds from the query to the answer, median / worst; \"> cap\": not "
              "within the turn's {:g} CPU seconds.".format(cap)]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="littlego bench-analysis",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES,
                        help="recorded games whose positions are asked (default %(default)s)")
    parser.add_argument("--cap", type=float, default=CAP_CPU,
                        help="the turn's maxTime, CPU seconds (default %(default)s)")
    parser.add_argument("--records", metavar="FILE",
                        help="write every position's figures here, a JSON line each")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    asked = positions(args.games)
    figures = []
    with Progress(args.quiet).stage("bench-analysis", len(asked), "positions") as stage:
        for moves in asked:
            figures.append(measure(moves, args.cap))
            stage.write("ply {}: {}".format(figures[-1].ply, figures[-1]))
            stage.advance()
    if args.records:
        with open(args.records, "w") as handle:
            for moves, figure in zip(asked, figures):
                handle.write(json.dumps(dict(figure._asdict(), moves=moves)) + "\n")
    print("\n".join(table(figures, args.cap)))
    return 0
