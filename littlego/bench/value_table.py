"""The value of Little-Go: the empty board's value table (every first move's exact margin)
beside its win/loss solve, and White's replies to the centre with their values.

Usage: littlego bench-value [--table-bits B] [--no-replies] [--json]

Start at `figures`. Three searches, one after another, each timed in CPU seconds and nodes:
1. the win/loss solve: every first move's result (Solver.move_results) from an empty table;
2. the value table: every first move's final stone difference under perfect play
   (Solver.move_values: the win/loss tests, then threshold tests from a guess, the value of
   the move before) from another empty table, its results checked equal to the win/loss solve's;
3. unless --no-replies, on the value table's solver (its table kept): White's replies to
   Black's centre, one from each class of symmetric replies, each a best reply (Black's value
   stays the centre's: one threshold test) or not (Black gets more: a bound, not searched).
The two tables are never held at once (the first is freed before the second is made), so the
process's peak resident memory is one table's and the interpreter's. Prints markdown
(docs/value.md keeps a run's) or, with --json, the figures. Minutes of CPU: run it alone.
"""

import argparse
import json
import resource
import sys
import time

import go_board
from go_board import NUM_SYMMETRIES, SYMMETRIC_POINT, Position
from littlego import solver
from littlego.solver.strategy import CENTRE

KIB = 1024  # ru_maxrss is in KiB on Linux
GIB = 1024 ** 3


def symmetric_classes(position, moves):
    """`moves` grouped by the symmetries that leave `position` unchanged: lists of moves, each
    class in `moves`' order, classes by their first move."""
    keeping = [s for s in range(NUM_SYMMETRIES) if position.transformed(s) == position]
    classes, seen = [], set()
    for move in moves:
        if move in seen:
            continue
        images = sorted({SYMMETRIC_POINT[s][move] for s in keeping} & set(moves),
                        key=moves.index)
        seen.update(images)
        classes.append(images)
    return classes


def timed(search, work):
    """`(answer, cpu, nodes)` of `work(search)`."""
    started, nodes = time.process_time(), search.nodes
    answer = work(search)
    return answer, round(time.process_time() - started, 2), search.nodes - nodes


def value_rows(position, values):
    """One row a class of symmetric moves: the moves, their value and margin for the side to
    move, best first."""
    moves = list(values)
    rows = [{"moves": [go_board.move_to_text(move) for move in group],
             "value": values[group[0]],
             "margin": go_board.margin(values[group[0]], position.to_move)}
            for group in symmetric_classes(position, moves)]
    return sorted(rows, key=lambda row: -row["value"])


def reply_rows(search, after, value):
    """One row a class of symmetric replies in `after` (the position after a move whose value,
    for the side that made it, is `value`), best replies first: a best reply holds that side to
    `value` (the replier's value is `-value`, one threshold test); any other leaves the replier
    `-value - 1` or less (its exact value is not searched: tests near a losing value cost the
    most, docs/value.md)."""
    rows = []
    for group in symmetric_classes(after, after.legal_moves()):
        best = search.at_least(after, -value, group[0])
        replier = -value if best else -value - 1
        rows.append({"moves": [go_board.move_to_text(move) for move in group], "best": best,
                     "value": replier, "margin": go_board.margin(replier, after.to_move)})
    return sorted(rows, key=lambda row: not row["best"])


def figures(table_bits, position=None, first=CENTRE):
    """The figures of the three searches (the module's docstring) from `position` (None: the
    empty board), the replies after its move `first` (None: none), and the peak memory."""
    position = Position() if position is None else position
    with solver.Solver(table_bits) as search:
        results, wl_cpu, wl_nodes = timed(search, lambda s: s.move_results(position))
    with solver.Solver(table_bits) as search:
        values, value_cpu, value_nodes = timed(search, lambda s: s.move_values(position))
        needed = go_board.needed_diff(position.to_move)
        if {move: value >= needed for move, value in values.items()} != results:
            raise AssertionError("the value table and the win/loss solve disagree")
        found = {"table_bits": table_bits,
                 "win_loss": {"cpu": wl_cpu, "nodes": wl_nodes},
                 "value_table": {"cpu": value_cpu, "nodes": value_nodes,
                                 "rows": value_rows(position, values)}}
        if first is not None:
            after = position.play(first)
            rows, cpu, nodes = timed(search, lambda s: reply_rows(s, after, values[first]))
            found["replies"] = {"first": go_board.move_to_text(first), "cpu": cpu,
                                "nodes": nodes, "rows": rows}
    found["peak_rss_gib"] = round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KIB / GIB, 2)
    return found


def _value_table_lines(rows, mover):
    lines = ["| moves | {} final stone difference | {} margin (points) |".format(mover, mover),
             "| --- | --- | --- |"]
    for row in rows:
        worse = "" if row.get("best", True) else " or less"
        lines.append("| {} | {:+d}{} | {:+.1f}{} |".format(
            " ".join(row["moves"]), row["value"], worse, row["margin"], worse))
    return lines


def table(found):
    """`figures` as markdown lines."""
    lines = ["| search | CPU s | nodes |", "| --- | --- | --- |",
             "| win/loss solve (every first move's result) | {cpu} | {nodes:,} |".format(
                 **found["win_loss"]),
             "| value table (every first move's exact margin) | {cpu} | {nodes:,} |".format(
                 **found["value_table"])]
    if "replies" in found:
        lines.append("| then the replies to {first}, same table | {cpu} | {nodes:,} |"
                     .format(**found["replies"]))
    lines += ["", "Tables of 2**{} entries, one at a time; peak resident memory "
              "{} GiB.".format(found["table_bits"], found["peak_rss_gib"]),
              "", "The first moves (one row a class of symmetric moves):", ""]
    lines += _value_table_lines(found["value_table"]["rows"], "the mover's")
    if "replies" in found:
        lines += ["", "The replies to {}:".format(found["replies"]["first"]), ""]
        lines += _value_table_lines(found["replies"]["rows"], "the replier's")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table-bits", type=int, default=solver.VALUE_TABLE_BITS,
                        help="2**B entries per table (default %(default)s)")
    parser.add_argument("--no-replies", action="store_true",
                        help="skip White's replies to the centre")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if solver.missing("bench-value"):
        return 2
    try:
        found = figures(args.table_bits, first=None if args.no_replies else CENTRE)
    except (ValueError, MemoryError) as error:
        sys.stderr.write("bench-value: {}\n".format(error))
        return 2
    print(json.dumps(found, sort_keys=True) if args.json else "\n".join(table(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
