"""Opening book: answers without search, looked up under the 8 symmetries.

Start at `read` (one parse of the file per move: the entries and how many plies they answer in
full) and `lookup`. The book (`opening_book.json`, written by `tools/build_book.py`) maps a
canonical position (the smallest of its 8 symmetric images, see `position_key`) to an entry
whose "move" is the answer in that frame; `lookup` maps the answer back to the board as given.
The builder answers every position our own book moves can reach through ply 6 against every
opponent reply, so a miss (None, the move goes to search) means the book is partial or the
game left the book's lines through a position the build has not reached yet. Past ply 6 the
book holds only proven wins of the side to move, Black's and (after Black's centre) White's
(`tools/prove_lines.py`: the likely lines, solved offline), so there a miss is the rule. Each
entry also says where its answer came from (exact proof or search, with the budget); `lookup`
reads only the move, `proven_win` the move when it is a proven win.
"""

import collections
import json
import os
import sys

import course_io
import go_board
from go_board import KO, place_stone

BOOK_PLIES = 6
BOOK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opening_book.json")
# A larger file is not read (time and memory): the full book is well under a megabyte.
MAX_BOOK_BYTES = 4 * 1024 * 1024
MAX_REASON_CHARS = 200
# The entry field `lookup` reads: the answer as output.txt writes it (`i,j` or PASS).
MOVE = "move"
# Where an answer came from (`proven_win` reads it): rules.md's known results, an exact proof of
# a win (or, in a lost position, of the loss), or our search.
SOURCE = "source"
KNOWN, PROVEN_WIN, PROVEN_LOSS, SEARCHED = "known (rules.md)", "proven win", "proven loss", "searched"
WINNING_SOURCES = (KNOWN, PROVEN_WIN)
# The state part of a key: what the previous board changes about the future (see `position_key`).
OPPONENT_PASSED = "p"
KO_BAN = "k"


def ko_point(position):
    """The empty point simple ko forbids to the side to move now, or None.

    A placement repeats the previous board only by re-taking the single stone just captured
    from the mover, so the point is that stone's, and only when the ko rule is what forbids it.
    """
    own, opp, prev_own, prev_opp = position.mover_view()
    lost = prev_own & ~own
    if not lost or lost & (lost - 1):
        return None
    point = lost.bit_length() - 1
    return point if place_stone(own, opp, point, prev_own, prev_opp) == KO else None


def position_key(position, symmetry=0):
    """The text key of one image: colour to move, the bitboards, then the state.

    The previous board matters only through what it forbids or ends: the state is
    OPPONENT_PASSED when a pass would end the game, KO_BAN and the point when simple ko forbids
    one, else empty. Positions that differ only in a previous board that changes nothing
    (transpositions) share a key and an answer.
    """
    if position.pass_ends_game:
        state = OPPONENT_PASSED
    else:
        point = ko_point(position)
        state = "" if point is None else KO_BAN + str(go_board.SYMMETRIC_POINT[symmetry][point])
    return "{}:{}:{}:{}".format(position.to_move, go_board.transform_bits(position.black, symmetry),
                                go_board.transform_bits(position.white, symmetry), state)


def canonical(position):
    """`(key, symmetry)`: the smallest image's key and the symmetry that produces it."""
    return min((position_key(position, symmetry), symmetry)
               for symmetry in range(go_board.NUM_SYMMETRIES))


def _read(path):
    """The book file's JSON object; on any fault one line on stderr and an empty book."""
    try:
        content = json.loads(course_io.read_regular_file(path, MAX_BOOK_BYTES).decode("utf-8"))
    except (IOError, OSError, ValueError, RecursionError) as error:
        reason = "{}: {}".format(type(error).__name__, error)
    else:
        if isinstance(content, dict):
            return content
        reason = "not a JSON object"
    sys.stderr.write("opening_book: cannot use {} ({}); playing without the book\n".format(
        path, reason[:MAX_REASON_CHARS]))
    return {}


def _positions(content):
    positions = content.get("positions")
    return positions if isinstance(positions, dict) else {}


# The book as a move reads it: `entries` maps keys to entries; `answered_plies` is the last ply
# through which it answers every position our book moves can reach (the time manager counts our
# moves up to it as free).
Book = collections.namedtuple("Book", "entries answered_plies")
NO_BOOK = Book({}, 0)


def read(path=BOOK_PATH):
    """The book file as a `Book` (one parse: a move keeps it, see my_player.Settings); NO_BOOK
    when it is missing or unreadable.

    `answered_plies` is `built_with.max_ply`, which a partial build keeps up to date, within
    0..BOOK_PLIES, and 0 without entries."""
    content = _read(path)
    entries = _positions(content)
    built_with = content.get("built_with")
    max_ply = built_with.get("max_ply") if isinstance(built_with, dict) else None
    if not entries or not isinstance(max_ply, int):
        return Book(entries, 0)
    return Book(entries, max(0, min(max_ply, BOOK_PLIES)))


def lookup(position, entries=None):
    """The move `entries` (a Book's, by default the book file's) give `position`, in the
    position's own frame, or None."""
    if entries is None:
        entries = read().entries
    key, symmetry = canonical(position)
    found = entries.get(key)
    canonical_move = parse_answer(found.get(MOVE)) if isinstance(found, dict) else None
    if canonical_move is None:
        return None
    return go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][canonical_move]


def proven_win(position, entries):
    """The book's move for `position` when its entry is a proven win for the side to move
    (a known result or an exact proof), else None: what the GTP engine's analysis reports as
    certain."""
    move = lookup(position, entries)
    found = entries.get(canonical(position)[0])
    return move if move is not None and found.get(SOURCE) in WINNING_SOURCES else None


def parse_answer(answer):
    """A move's text (`i,j` or `PASS`, as the book and game records write it) as a move; None
    for a missing or malformed one (treated as absent)."""
    if answer == "PASS":
        return go_board.PASS
    try:
        row, col = (int(field) for field in answer.split(","))
        return go_board.from_coord(row, col)
    except (AttributeError, TypeError, ValueError):
        return None


def entry(position, move):
    """The `(key, answer text)` pair that `lookup` will map back to `move` for `position`."""
    key, symmetry = canonical(position)
    return key, go_board.move_to_text(go_board.SYMMETRIC_POINT[symmetry][move])
