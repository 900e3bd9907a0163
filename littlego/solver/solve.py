"""Solve a position exactly with the compiled solver and print one JSON object.

Usage: littlego solve (INPUT | --empty) [--ply N] [--margins] [--cpu SECONDS] [--table-bits B]

INPUT is a course input.txt (the side to move, the previous board, the current board). N is the
ply about to be played (1-24); without it, the smallest ply the stones allow for the side to
move (step_storage's rule), which is the true ply unless stones were captured or passes made.
Prints `{"ply": 1, "result": "win", "moves": {"2,3": "win", "PASS": "loss", ...},
"margin": ..., "nodes": ..., "cpu": ...}` (solver.analyse): the ply it assumed, the side to
move's result, every legal move's result, with --margins the exact margins in points (komi
included) of the position and of each move, the nodes searched and the CPU seconds. Exit 2 with
one line on stderr for bad input, a solver that cannot be built, a table larger than the memory
available (the empty board's takes 256 MB: 2**25 entries, solver.table_bytes) or a CPU limit
reached.
"""

import argparse
import json
import sys

import psutil

import clocks
import course_io
import go_board
import step_storage
from littlego import solver

GIGABYTE = 1e9


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("input", nargs="?", help="a course input.txt")
    where.add_argument("--empty", action="store_true", help="the empty board, Black to move")
    parser.add_argument("--ply", type=int, help="the ply about to be played, 1-24")
    parser.add_argument("--margins", action="store_true",
                        help="exact margins of the position and of every move (slower)")
    parser.add_argument("--cpu", type=float, help="give up after this many CPU seconds")
    parser.add_argument("--table-bits", type=int,
                        help="2**B table entries (default: sized by the plies "
                        "left, solver.table_bits_for)")
    return parser.parse_args(argv)


def position_of(path, ply):
    """The Position of an input.txt at `ply` (None: inferred); ValueError naming the fault."""
    try:
        colour, previous, current = course_io.read_input(path)
    except course_io.InputError as error:
        raise ValueError(str(error))
    if ply is None:
        ply = step_storage.smallest_consistent_ply(colour, current)
    if not 1 <= ply <= go_board.MAX_PLY or (ply % 2 == 1) != (colour == go_board.BLACK):
        raise ValueError("ply {} is not a ply of {} in 1..{}".format(
            ply, go_board.COLOUR_NAMES[colour], go_board.MAX_PLY))
    return go_board.Position(current[0], current[1], colour, ply, previous[0], previous[1])


def check_memory(table_bits):
    """MemoryError, in words, when the table of 2**table_bits entries does not fit in the memory
    available now (the search would swap for hours or be killed)."""
    needed = solver.table_bytes(table_bits)
    available = psutil.virtual_memory().available
    if needed > available:
        raise MemoryError("the table (--table-bits {}) needs {:.1f} GB of memory, but {:.1f} GB is "
                          "available; give a smaller --table-bits (slower) or free memory".format(
                              table_bits, needed / GIGABYTE, available / GIGABYTE))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        position = go_board.Position() if args.empty else position_of(args.input, args.ply)
        table_bits = (solver.table_bits_for_position(position)
                      if args.table_bits is None else args.table_bits)
        check_memory(table_bits)
        with solver.Solver(table_bits) as search:
            report = solver.analyse(position, search, args.cpu, args.margins)
        report["ply"] = position.ply
    except (ValueError, solver.Unavailable, MemoryError) as error:
        sys.stderr.write("solve: {}\n".format(error))
        return 2
    except clocks.OutOfTime:
        sys.stderr.write("solve: not proven within {} CPU seconds\n".format(args.cpu))
        return 2
    print(json.dumps(report, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
