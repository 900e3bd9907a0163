"""A game reviewed by its exact values: `littlego review GAME`.

Usage: littlego review GAME.sgf | GAMES.jsonl N [--cpu SECONDS] [--from-ply P] [--json]
                       [--sgf OUT]

Start at `review(moves, cpu_limit, book, from_ply)`. The game is replayed from the empty board
(`read_game`: the main line of an SGF file, or the game numbered N of a `littlego match`
games.jsonl record); before each move from ply P on, move_results.move_results answers the
position within --cpu CPU seconds (the one analysis, live.py: the stored value table, the
book's proofs, the exact search; one exact search for the whole game, whose positions share
its proofs), until the position's margin and the played move's are exact. Each move gets:
- `before`: the position's value for the mover under perfect play, a result (win or loss) and,
  when proven, the exact final margin in points (komi included, positive wins); where the
  answer has no margin, the move before's `after` turned round (the same position);
- `after`: the value the move kept, the same two for the mover: the played move's own entry
  in that answer, else the next position's value turned round (a book proof of the reply
  counts; a record that stops before the game ended, a crash or a timeout, has its last
  position answered too), else, for a move that ends the game, the final score;
- `given_away`: the points the move gave away (`before` minus `after`, 0 for a perfect move),
  when both margins are known.
The first move that threw a win away (a proven win before, a proven loss after) is named.
The table goes to stdout; `--json` writes the same as one JSON document instead. `--sgf OUT`
also writes the game as SGF (`sgf_text`), each reviewed move's values and the points it gave
away as its comment, the first win thrown away marked, so that any SGF viewer (Sabaki,
KaTrain, GoGui) shows the review. A file that cannot be read or written, a game that is not
there or a move the rules refuse is one line on stderr and exit 2. Games with setup stones are not reviewed: the SGF reader replays moves only.
"""

import argparse
import json
import sys

import course_io
import endgame
import go_board
import littlego
import opening_book
from littlego.analysis import exact, move_results
from littlego.analysis.vertices import result_text
from littlego.referee.sgf import escape, sgf_moves, sgf_point

WIN, LOSS = move_results.WIN, move_results.LOSS
OTHER_RESULT = {WIN: LOSS, LOSS: WIN, None: None}
DEFAULT_CPU = 10.0  # CPU seconds per position: every position past the opening's first plies
JSONL_SUFFIX = ".jsonl"
COLOUR_LETTERS = {go_board.BLACK: "B", go_board.WHITE: "W"}
SGF_ROOT_COMMENT = (
    "Reviewed by littlego review under Little-Go's rules (5x5, the stones on the board alone "
    "count, komi 2.5, at most 24 plies): each move's comment gives its player's value before "
    "and after it (win or loss, and the exact final margin in points where it is proven) and "
    "the points it gave away. A viewer's own score counting differs.")
HEADER = ("ply", "colour", "move", "before", "after", "given away", "source")
ROW = "{:>3}  {:<6} {:<5} {:<11} {:<11} {:>10}  {}"


class ReviewError(Exception):
    """A game that cannot be reviewed; the message says why in one line."""


def read_game(path, number=None):
    """The moves of the game in `path` (`i,j` or `PASS` texts): an SGF file's main line, or
    the record whose `game` is `number` in a games.jsonl file. ReviewError when not readable."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise ReviewError("cannot read {}: {}".format(path, error.strerror))
    if not path.endswith(JSONL_SUFFIX):
        if number is not None:
            raise ReviewError("a game number is for a games.jsonl record, not an SGF file")
        try:
            return [go_board.PASS_TEXT if point is None else "{},{}".format(*point)
                    for point in sgf_moves(text)]
        except ValueError as error:
            raise ReviewError("{}: not a 5x5 SGF game: {}".format(path, error))
    if number is None:
        raise ReviewError("{} holds many games: name one by its number".format(path))
    for line_number, line in enumerate(text.splitlines(), 1):
        try:
            record = json.loads(line)
            found = record["game"] == number
        except (ValueError, TypeError, KeyError):
            raise ReviewError("{}, line {}: not a game record".format(path, line_number))
        if found:
            return list(record["moves"])
    raise ReviewError("{} has no game {}".format(path, number))


def replay(moves):
    """`[(position before, move)]` for the move texts; ReviewError for a move the rules refuse."""
    position, played = go_board.Position(), []
    for number, text in enumerate(moves, 1):
        if position.is_over:
            raise ReviewError("move {} ({}) comes after the end of the game".format(number, text))
        try:
            move = go_board.move_from_text(text)
            played.append((position, move))
            position = position.play(move)
        except (go_board.NotAMove, go_board.IllegalMove) as error:
            raise ReviewError("move {} ({}) is illegal: {}".format(
                number, text, getattr(error, "reason", error)))
    return played


def value(result, margin):
    return {"result": result, "margin": margin}


def turned(answer):
    """The value of the position `answer` is for, seen by the other side."""
    margin = answer["margin"]
    return value(OTHER_RESULT[answer["result"]], None if margin is None else -margin)


def review(moves, cpu_limit=DEFAULT_CPU, book=None, from_ply=1, reviewed=None):
    """The review of the game of `moves` (see the module docstring) as a JSON-ready dict:
    `{"moves": [{"ply", "colour", "move", "before", "after", "given_away", "source"}],
    "first_lost_win": the first such entry that threw a win away, or None}`; moves before
    `from_ply` are replayed only. `reviewed(done, total)`, when given, is called after each
    position is answered (the board's progress)."""
    book = opening_book.read() if book is None else book
    played = [(position, move) for position, move in replay(moves) if position.ply >= from_ply]
    asked = [position for position, _ in played]
    last = played[-1][0].play(played[-1][1]) if played else None
    if last is not None and not last.is_over:
        asked.append(last)  # a record cut short: its last position too
    answers = []
    engine = exact.engine()  # one table for the whole game: its positions share proofs
    try:
        for index, position in enumerate(asked):
            first = [played[index][1]] if index < len(played) else []
            answers.append(move_results.move_results(position, cpu_limit, book, engine=engine,
                                                     first=first, want_try=False))
            if reviewed is not None:
                reviewed(len(answers), len(asked))
    finally:
        engine.close()
    rows = []
    for index, (position, move) in enumerate(played):
        answer, text = answers[index], go_board.move_to_text(move)
        after_position = position.play(move)
        known = answer["moves"].get(text, {})
        if after_position.is_over:
            margin = -endgame.mover_margin(after_position)
            after = value(WIN if margin > 0 else LOSS, margin)
        else:
            after = turned(answers[index + 1])
        after = value(known.get("result", after["result"]), known.get("margin", after["margin"]))
        before = value(answer["result"], answer["margin"])
        if before["margin"] is None and rows and rows[-1]["after"]["margin"] is not None:
            before = turned(rows[-1]["after"])  # the same position, valued by the move before
        given = None if None in (before["margin"], after["margin"]) else \
            before["margin"] - after["margin"]
        rows.append({"ply": position.ply, "colour": go_board.COLOUR_NAMES[position.to_move],
                     "move": text, "before": before, "after": after, "given_away": given,
                     "source": answer["source"]})
    lost = [row for row in rows if (row["before"]["result"], row["after"]["result"]) == (WIN, LOSS)]
    return {"moves": rows, "first_lost_win": lost[0] if lost else None}


def value_text(known):
    """`win +1.5`, `loss -2.5`, `win` (margin unknown) or `?`."""
    if known["result"] is None:
        return "?"
    if known["margin"] is None:
        return known["result"]
    return "{} {:+g}".format(known["result"], known["margin"])


def table_text(reviewed):
    lines = [ROW.format(*HEADER)]
    for row in reviewed["moves"]:
        lines.append(ROW.format(
            row["ply"], row["colour"], row["move"], value_text(row["before"]),
            value_text(row["after"]), "" if row["given_away"] is None else
            "{:g}".format(row["given_away"]), row["source"] or "unproven"))
    lost = reviewed["first_lost_win"]
    if lost is None:
        lines.append("No move is proven to throw a win away.")
    else:
        lines.append("The first win thrown away: ply {}, {} {} ({} before, {} after).".format(
            lost["ply"], lost["colour"], lost["move"], value_text(lost["before"]),
            value_text(lost["after"])))
    return "\n".join(lines) + "\n"


def move_comment(row, first_lost):
    """The SGF comment of a reviewed move."""
    text = "{} {} at ply {}: {} before, {} after".format(
        row["colour"], row["move"], row["ply"], value_text(row["before"]),
        value_text(row["after"]))
    if row["given_away"] is not None:
        text += "; gave away {:g} point{}".format(row["given_away"],
                                                 "" if row["given_away"] == 1 else "s")
    text += " ({}).".format(row["source"] or "unproven")
    if first_lost:
        text += "\nThe first win thrown away."
    return text


def sgf_text(moves, reviewed):
    """The game of `moves` as SGF (FF[4], stones-only rules named RU[stone_scoring], komi 2.5)
    with the review of each reviewed move as its comment (`move_comment`); a move that gave
    points away is marked bad (BM[1]), the first win thrown away very bad (BM[2]); the root
    comment says what the values mean, and RE the result when the game ended."""
    rows = {row["ply"]: row for row in reviewed["moves"]}
    lost = reviewed["first_lost_win"]
    end = go_board.Position()
    nodes = []
    for ply, text in enumerate(moves, 1):
        colour = COLOUR_LETTERS[end.to_move]
        end = end.play(go_board.move_from_text(text))
        node = ";{}[{}]".format(colour, sgf_point(text))
        row = rows.get(ply)
        if row is not None:
            first_lost = lost is not None and lost["ply"] == ply
            if first_lost or row["given_away"]:
                node += "BM[{}]".format(2 if first_lost else 1)
            node += "C[{}]".format(escape(move_comment(row, first_lost)))
        nodes.append(node)
    result = "RE[{}]".format(result_text(end)) if end.is_over else ""
    root = ("FF[4]GM[1]CA[UTF-8]AP[Little-Go:{}]SZ[{}]KM[{:g}]RU[stone_scoring]{}C[{}]".format(
        littlego.__version__, go_board.SIZE, go_board.KOMI, result, escape(SGF_ROOT_COMMENT)))
    return "(;{}\n{})\n".format(root, "".join(nodes))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="littlego review", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="an SGF file, or a games.jsonl record of littlego match")
    parser.add_argument("number", nargs="?", type=int,
                        help="for a games.jsonl record: the game's number (its `game` field)")
    parser.add_argument("--cpu", type=float, default=DEFAULT_CPU,
                        help="CPU seconds per position (default %(default)s)")
    parser.add_argument("--from-ply", type=int, default=1,
                        help="review the moves from this ply on (default: the first)")
    parser.add_argument("--json", action="store_true", help="JSON instead of the table")
    parser.add_argument("--sgf", metavar="OUT",
                        help="also write the game with the review as SGF comments to OUT")
    args = parser.parse_args(argv)
    if args.cpu <= 0 or not 1 <= args.from_ply <= go_board.MAX_PLY:
        sys.stderr.write("review: --cpu must be positive and --from-ply 1 to {}\n".format(
            go_board.MAX_PLY))
        return 2
    try:
        moves = read_game(args.game, args.number)
        reviewed = review(moves, args.cpu, from_ply=args.from_ply)
        if args.sgf:
            course_io.write_atomically(args.sgf, sgf_text(moves, reviewed))
    except ReviewError as error:
        sys.stderr.write("review: {}\n".format(error))
        return 2
    except OSError as error:
        sys.stderr.write("review: cannot write {}: {}\n".format(args.sgf, error.strerror))
        return 2
    sys.stdout.write(json.dumps(reviewed, indent=1) + "\n" if args.json
                     else table_text(reviewed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
