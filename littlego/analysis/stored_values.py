"""The stored value table: every legal move's exact value at the opening positions, where the
compiled solver would take minutes (`littlego value-table` builds it; docs/value.md says what it
holds and what it cost).

Start at `read` (the file, once per process) and `StoredValues.lookup(position)`: every legal
move's exact final margin in points for the side to move, or None when the position is not
stored. move_results.py asks it before any search. `build` (the command's work) solves the
positions of `opening_lines` one after another on one compiled solver, whose table they share,
and rewrites the file after each, so an interrupted build resumes where it stopped.

This module is the one home of the file's format, `stored_values.jsonl` beside it:
- line 1, the header: {"format": FORMAT, "version": VERSION, "solver": the C sources' digest
  (littlego.solver.source_digest) of the last build run, "table_bits": its table}; values are
  exact whichever version found them, so a resumed build keeps the records it finds.
- then one JSON object a position: {"line": ["2,2", "1,2"] (the moves from the empty board that
  reach it, as go_board.move_to_text writes them), "values": {"i,j" or "PASS": the side to
  move's final stone difference (own - opponent's stones when the game ends) after that move,
  under perfect play, for every legal move}, "pv": a proven best line from the position to the
  end of the game (move texts, each move keeping the position's value: what the analysis's
  `ownership` plays out; a build adds it where it is missing), "pv_cpu": the line's CPU
  seconds, "cpu": CPU seconds, "nodes": the solver's nodes (the values').
Values are stone differences, not points, so that the komi has its one home (go_board.margin).
A line is checked when it is read: its moves are legal, it ends the game, and the game ends with
the position's value.
Positions are found up to the board's 8 symmetries and transpositions: the reader replays each
line and files its values under the book's position key (opening_book.position_key, whose key
also holds the ply, the ko ban and whether a pass ends the game), in the key's frame; a lookup
maps them back to the asking position's frame.
"""

import argparse
import json
import os
import sys
import time

import course_io
import go_board
import opening_book
from go_board import SYMMETRIC_POINT
from littlego import solver
from littlego.analysis import exact
from littlego.progress import Progress, add_quiet_option

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stored_values.jsonl")
FORMAT = "littlego-stored-values"
VERSION = 1


class StoredValuesError(ValueError):
    """A file that is not a stored value table; the message says where, in one line."""


class StoredValues(object):
    """The positions of one file: `{position key: {move in the key's frame: stone difference}}`,
    and the records as read (`records`, in the file's order)."""

    def __init__(self, records=(), header=None):
        self.header = header
        self.records = []
        self.values = {}
        self.lines = {}  # position key -> its best line, in the key's frame
        for record in records:
            self.add(record)

    def __len__(self):
        return len(self.records)

    def add(self, record):
        position = position_after(record["line"])
        key, symmetry = opening_book.position_key(position)
        legal = {go_board.move_to_text(move): move for move in position.legal_moves()}
        if set(record["values"]) != set(legal):
            raise StoredValuesError("the values after {} are not its legal moves".format(
                " ".join(record["line"]) or "the empty board"))
        self.values[key] = {SYMMETRIC_POINT[symmetry][legal[text]]: value
                            for text, value in record["values"].items()}
        if "pv" in record:
            self.file_line(record)
        self.records.append(record)

    def file_line(self, record):
        """File the best line of `record` ("pv"), checked (`checked_line`)."""
        position = position_after(record["line"])
        line = checked_line(position, record["pv"], max(record["values"].values()))
        key, symmetry = opening_book.position_key(position)
        self.lines[key] = [SYMMETRIC_POINT[symmetry][move] for move in line]

    def __contains__(self, position):
        return opening_book.position_key(position)[0] in self.values

    def stone_values(self, position):
        """`{move: the side to move's final stone difference after it}` for every legal move
        of `position`, or None when it is not stored."""
        key, symmetry = opening_book.position_key(position)
        stored = self.values.get(key)
        if stored is None:
            return None
        return {move: stored[SYMMETRIC_POINT[symmetry][move]] for move in position.legal_moves()}

    def best_line(self, position):
        """A proven best line from `position` to the end of the game (a list of moves), or
        None when it is not stored."""
        key, symmetry = opening_book.position_key(position)
        line = self.lines.get(key)
        if line is None:
            return None
        back = go_board.INVERSE_SYMMETRY[symmetry]
        return [SYMMETRIC_POINT[back][move] for move in line]

    def lookup(self, position):
        """`{"i,j" or "PASS": the side to move's exact final margin in points}` for every legal
        move of `position`, or None when it is not stored."""
        values = self.stone_values(position)
        if values is None:
            return None
        return {go_board.move_to_text(move): go_board.margin(value, position.to_move)
                for move, value in values.items()}


def position_after(line):
    """The position reached by the move texts of `line` from the empty board."""
    position = go_board.Position()
    for text in line:
        position = position.play(go_board.move_from_text(text))
    return position


def checked_line(position, texts, value):
    """The moves of the line `texts` from `position`; StoredValuesError unless they are legal,
    end the game and end it with the side to move `value` stones ahead."""
    moves, end = [], position
    try:
        for text in texts:
            moves.append(go_board.move_from_text(text))
            end = end.play(moves[-1])
    except (go_board.NotAMove, go_board.IllegalMove) as error:
        raise StoredValuesError("the line {} is not legal: {}".format(" ".join(texts), error))
    own, opp = end.stones(position.to_move), end.stones(go_board.other(position.to_move))
    if not end.is_over or go_board.popcount(own) - go_board.popcount(opp) != value:
        raise StoredValuesError("the line {} does not end the game {} stones ahead".format(
            " ".join(texts), value))
    return moves


def load(path):
    """The table in `path` (an empty one when there is no file); StoredValuesError when it is
    not one."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        return StoredValues()
    except OSError as error:
        raise StoredValuesError("cannot read {}: {}".format(path, error.strerror))
    try:
        header = json.loads(lines[0])
        if (header.get("format"), header.get("version")) != (FORMAT, VERSION):
            raise ValueError("not format {} version {}".format(FORMAT, VERSION))
        return StoredValues([json.loads(line) for line in lines[1:]], header)
    except (IndexError, ValueError, KeyError, TypeError, AttributeError,
            go_board.NotAMove, go_board.IllegalMove) as error:
        raise StoredValuesError("{} is not a stored value table: {}".format(path, error))


_read = {}


def read(path=PATH):
    """`load(path)`, read once per process (the board asks at every position)."""
    if path not in _read:
        _read[path] = load(path)
    return _read[path]


def write(path, table, header):
    """The whole file, atomically (course_io.write_atomically)."""
    course_io.write_atomically(path, "".join(
        json.dumps(entry, sort_keys=True) + "\n" for entry in [header] + table.records))


def next_to_centre(move):
    """Whether `move` is one of the eight points around the centre."""
    if move == go_board.PASS:
        return False
    row, col = go_board.to_coord(move)
    centre_row, centre_col = go_board.to_coord(go_board.CENTRE)
    return max(abs(row - centre_row), abs(col - centre_col)) == 1


def opening_lines(book):
    """The lines of the positions to store, most wanted first (each once up to symmetry):
    1. the empty board;
    2. after Black's centre (a person White against the agent);
    3. after each first move and the book's answer (a person Black against the agent);
    4. after the centre, each White reply and the book's answer;
    5. after each other first move;
    6. after the centre and each White reply (the agent's games as Black, reviewed: the first
       position it is asked about there);
    7. after the centre, the book's White answer and each Black second move (a person Black
       against the agent, after their second move);
    8. after the centre, each of White's best replies (next to the centre or diagonal to it,
       which lose by half a point, docs/value.md: what strong opponents play), the book's
       answer and each White second move (a person White against the agent after their second
       move; the agent's games as Black, reviewed, at ply 5);
    9. after 7's, the book's answer (a person Black against the agent, at their third move).
    A line whose book answer is missing is left out."""
    empty = go_board.Position()
    centre = empty.play(go_board.CENTRE)
    firsts, replies = empty.legal_moves(), centre.legal_moves()

    def answered(line):
        """`line` and the book's answer after it, or None when the book has none."""
        after = position_after(go_board.move_to_text(move) for move in line)
        entry = None if after.is_over else book.entry(after)
        return None if entry is None else line + [entry.move]

    def extended(line):
        """`line` and each legal move after it."""
        after = position_after(go_board.move_to_text(move) for move in line)
        return [line + [move] for move in after.legal_moves()]

    answered_replies = [answered([go_board.CENTRE, move]) for move in replies]
    answered_replies = [line for line in answered_replies if line is not None]
    black_seconds = []
    answer = book.entry(centre)
    if answer is not None:
        black_seconds = extended([go_board.CENTRE, answer.move])
    wanted = [[], [go_board.CENTRE]]
    wanted += [answered([move]) for move in firsts]
    wanted += answered_replies
    wanted += [[move] for move in firsts if move != go_board.CENTRE]
    wanted += [[go_board.CENTRE, move] for move in replies]
    wanted += black_seconds
    wanted += [line for answered_reply in answered_replies if next_to_centre(answered_reply[1])
               for line in extended(answered_reply)]
    wanted += [answered(line) for line in black_seconds]
    lines, seen = [], set()
    for line in wanted:
        if line is None:
            continue
        texts = [go_board.move_to_text(move) for move in line]
        position = position_after(texts)
        key = opening_book.position_key(position)[0]
        if key not in seen and not position.is_over:
            seen.add(key)
            lines.append(texts)
    return lines


def build(path, lines, search, header, progress, limit=None):
    """Solve every position of `lines` not yet in the file at `path` on `search` (a
    littlego.solver.Solver), and find the best line of every stored position that lacks one,
    rewriting the file after each; at most `limit` new positions (None: all). Returns the
    table."""
    table = load(path)
    engine = exact.CompiledExact.around(search)
    unlined = [record for record in table.records if "pv" not in record]
    todo = [line for line in lines if position_after(line) not in table][:limit]
    with progress.stage("value-table", len(unlined) + len(todo), "positions") as stage:
        for record in unlined:
            add_line(table, record, engine)
            write(path, table, header)
            stage.write("{}: its best line, {} CPU s".format(
                " ".join(record["line"]) or "the empty board", record["pv_cpu"]))
            stage.advance()
        for line in todo:
            position = position_after(line)
            started, nodes = time.process_time(), search.nodes
            values = search.move_values(position)
            record = {"line": line, "cpu": round(time.process_time() - started, 2),
                      "nodes": search.nodes - nodes,
                      "values": {go_board.move_to_text(move): value
                                 for move, value in values.items()}}
            table.add(record)
            add_line(table, record, engine)
            write(path, table, header)
            stage.write("{}: {} CPU s, {:,} nodes, its best line {} CPU s".format(
                " ".join(line) or "the empty board", record["cpu"], record["nodes"],
                record["pv_cpu"]))
            stage.advance()
    return table


def add_line(table, record, engine):
    """Find the best line of the stored `record` (its "pv", and "pv_cpu" what it cost) on the
    compiled solver's `engine` and file it in `table`."""
    position = position_after(record["line"])
    started = time.process_time()
    line = exact.best_line(engine, position, max(record["values"].values()))
    record["pv"] = [go_board.move_to_text(move) for move in line]
    record["pv_cpu"] = round(time.process_time() - started, 2)
    table.file_line(record)


def main(argv=None):
    """`littlego value-table [--positions N] [--table-bits B] [--out PATH]`: the exit code."""
    parser = argparse.ArgumentParser(
        prog="littlego value-table",
        description="Build or resume the stored value table of the opening positions "
                    "(every legal move's exact value) with the compiled solver.")
    parser.add_argument("--positions", type=int, default=None, metavar="N",
                        help="solve at most N positions not yet stored, then stop (default: all)")
    parser.add_argument("--table-bits", type=int, default=solver.VALUE_TABLE_BITS,
                        help="the solver's table, 2**B entries (default %(default)s)")
    parser.add_argument("--out", default=PATH, help="the file (default: the package's)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    if solver.missing("value-table"):
        return 2
    try:
        lines = opening_lines(opening_book.read())
        header = {"format": FORMAT, "version": VERSION, "solver": solver.source_digest(),
                  "table_bits": args.table_bits}
        with solver.Solver(args.table_bits) as search:
            table = build(args.out, lines, search, header, Progress(args.quiet), args.positions)
    except (StoredValuesError, OSError, ValueError, MemoryError) as error:
        sys.stderr.write("value-table: {}\n".format(error))
        return 2
    print("{} of {} positions stored in {} ({:,} bytes)".format(
        len(table), len(lines), args.out, os.path.getsize(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
