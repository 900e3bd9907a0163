"""Opening book: answers for plies 1-6 without search, looked up under the 8 symmetries.

Start at `lookup`. The book (`opening_book.json`, written by `tools/build_book.py`) maps a
canonical position (the smallest of its 8 symmetric images) to the answer in that frame;
`lookup` maps the answer back to the board as given. A position the book does not hold
returns None and goes to search. Plies 1-3 are answered in full (known results, else a long
search); later plies only where an answer was learned from recorded games.
"""

import json
import os
import sys

import go_board

BOOK_PLIES = 6
BOOK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opening_book.json")
# A larger file is not read (time and memory): the book is a few kilobytes.
MAX_BOOK_BYTES = 4 * 1024 * 1024
MAX_REASON_CHARS = 200


def position_key(position):
    """The text key of one image: colour to move, then current and previous bitboards."""
    return "{}:{}:{}:{}:{}".format(position.to_move, position.black, position.white,
                                   position.prev_black, position.prev_white)


def canonical(position):
    """`(key, symmetry)`: the smallest image's key and the symmetry that produces it."""
    return min((position_key(position.transformed(symmetry)), symmetry)
               for symmetry in range(go_board.NUM_SYMMETRIES))


def _read(path):
    """The book file's JSON object; on any fault one line on stderr and an empty book."""
    try:
        content = json.loads(go_board.read_regular_file(path, MAX_BOOK_BYTES).decode("utf-8"))
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


def load(path=BOOK_PATH):
    """The book's entries, or an empty book when the file is missing or unreadable."""
    return _positions(_read(path))


def answered_plies(path=BOOK_PATH):
    """The last ply the book was built to answer (0 without a usable book): the time manager
    counts our moves up to it as free."""
    content = _read(path)
    built_with = content.get("built_with")
    max_ply = built_with.get("max_ply") if isinstance(built_with, dict) else None
    return min(max_ply, BOOK_PLIES) if isinstance(max_ply, int) and _positions(content) else 0


def lookup(position, book=None):
    """The book's move for `position` in the position's own frame, or None."""
    if book is None:
        book = load()
    key, symmetry = canonical(position)
    canonical_move = parse_answer(book.get(key))
    if canonical_move is None:
        return None
    return go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][canonical_move]


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
    """The `(key, answer)` pair that `lookup` will map back to `move` for `position`."""
    key, symmetry = canonical(position)
    return key, go_board.move_to_text(go_board.SYMMETRIC_POINT[symmetry][move])
