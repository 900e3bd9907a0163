"""Opening book: answers without search, stored packed and looked up in place.

Start at `read` (the header only: how many records, and through which ply the book answers
everything our book play reaches, per colour) and `Book.entry` (a binary search over the
records on disk: a move reads about twenty records, never the whole file). `write` is the only
writer; `position_key` and `record` say what a record means.

An answer is an `Entry`: the move, and how many of the opponent's replies after it win for the
opponent (`opponent_wins`). 0 is a proven win for the mover: the winning side's strategy. More
is a proven loss played as a try: White's repertoire after Black's centre, a move that leaves
Black few winning replies (littlego/solver/repertoire.py says which), so "Black must find 1 of
22".

The file, `opening_book.txt` (a .txt: the grader accepts .py, .json and .txt files only):
- line 1: a JSON object, the header, then "\\n": {"format": FORMAT, "version": VERSION,
  "record_chars": RECORD_CHARS, "records": N, "answered_plies": {"1": ply, "2": ply},
  "built_with": {...}}. `answered_plies` is, per colour (1 Black, 2 White), the last ply
  through which the book answers every position our book play can reach (the time manager
  counts our moves up to it as free); `built_with` is a small note on the build.
- then N records of `record_chars` ASCII characters each, no separators, sorted ascending.
  A record is one integer, `(key * MOVES + move) * REPLY_COUNTS + opponent_wins`, written in
  base 64 with DIGITS, most significant digit first, padded on the left with DIGITS[0]. DIGITS
  is in ASCII order, so the records sort as text exactly as they do as numbers.
- `key` of a position (`position_key`): the smallest, over the 8 board symmetries, of
  `(board3 * MAX_PLY + (ply - 1)) * STATES + state`, where board3 = sum of 3**p * c(p) over
  the points p = row * 5 + col of the symmetric image, c(p) = 0 empty, 1 Black, 2 White; ply
  the position's ply (1..24, the one about to be played; the side to move follows from it:
  Black on odd plies); state = 0, or 1 when a pass would end the game, or 2 + q when simple ko
  forbids the point q (in the image's frame) to the side to move. Transpositions (the same
  stones, ply and state reached in another order) share a key and an answer.
- `move`: the answer in the frame of the minimising symmetry (the lowest-numbered one when
  several give the smallest key), 0..24 a point, 25 (go_board.PASS) a pass; `lookup` maps it
  back to the position's own frame.
- `opponent_wins`: 0..MOVES, the opponent's winning replies after the move (0: it wins).
  3**25 * 24 * 27 * 26 * 27 < 64**10: RECORD_CHARS = 10.
How the book was built (what proved its answers, at what cost) is kept offline in a sidecar
beside the book (`provenance_path`: `opening_book.provenance.json`), which `write` writes when
given and nothing on the per-move path reads.

A missing, corrupt or oversized book is one line on stderr and an empty book (NO_BOOK); a
record whose move is illegal in the position is no answer.
"""

import collections
import json
import os
import stat
import sys

import course_io
import go_board
from go_board import MAX_PLY, NO_KO, NUM_POINTS, NUM_SYMMETRIES, SIZE

BOOK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opening_book.txt")
# The sidecar of `book.txt` is `book.provenance.json` (built from the book's path, never from
# __file__ directly, so the submission does not bundle it).
PROVENANCE_SUFFIX = ".provenance.json"
FORMAT = "littlego-book"
VERSION = 3
MOVES = NUM_POINTS + 1  # the points, then go_board.PASS
REPLY_COUNTS = MOVES + 1  # an answer's opponent_wins: 0..MOVES
STATES = 2 + NUM_POINTS  # normal, a pass ends the game, then one per ko-banned point
STATE_NORMAL, STATE_PASS_ENDS_GAME, STATE_KO_BAN = 0, 1, 2
DIGITS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
BASE = len(DIGITS)
DIGIT_VALUES = {char: value for value, char in enumerate(DIGITS)}
KEY_LIMIT = 3 ** NUM_POINTS * MAX_PLY * STATES  # every position key is below this
CODE_LIMIT = KEY_LIMIT * MOVES * REPLY_COUNTS  # and every record's code below this
RECORD_CHARS = next(width for width in range(1, 32) if BASE ** width >= CODE_LIMIT)
COLOURS = (go_board.BLACK, go_board.WHITE)
# A larger book is refused: the grader's limit is on the whole submission, bundle and book
# (littlego/grader/bundle.py checks the total).
MAX_BOOK_BYTES = course_io.MAX_SUBMISSION_BYTES
MAX_HEADER_BYTES = 4096
MAX_REASON_CHARS = 200
ROW_SHIFT = 3 ** SIZE
# A book answer: the move in the position's frame, and the opponent's winning replies after it
# (0: the move wins; more: a try in a lost position).
Entry = collections.namedtuple("Entry", "move opponent_wins")


def _spread3():
    """[sum of 3**col over the set bits of `bits`, for every row's bits]: built by doubling, in
    microseconds (the agent imports this module on every move)."""
    table = [0]
    for col in range(SIZE):
        table += [value + 3 ** col for value in table]
    return table


SPREAD3 = _spread3()


def board3(black, white):
    """sum of 3**p * c(p): c = 0 empty, 1 Black, 2 White."""
    value = 0
    for shift in range((SIZE - 1) * SIZE, -1, -SIZE):
        value = value * ROW_SHIFT + SPREAD3[black >> shift & 31] + 2 * SPREAD3[white >> shift & 31]
    return value


def image_key(position, symmetry, ko=NO_KO):
    """The key of one symmetric image of `position` (`ko`: its go_board.ko_point, in its own
    frame)."""
    if position.pass_ends_game:
        state = STATE_PASS_ENDS_GAME
    elif ko == NO_KO:
        state = STATE_NORMAL
    else:
        state = STATE_KO_BAN + go_board.SYMMETRIC_POINT[symmetry][ko]
    stones = board3(go_board.transform_bits(position.black, symmetry),
                    go_board.transform_bits(position.white, symmetry))
    return (stones * MAX_PLY + position.ply - 1) * STATES + state


def position_key(position):
    """`(key, symmetry)`: the smallest image key, and the lowest symmetry that gives it."""
    ko = go_board.ko_point(*position.mover_view())
    return min((image_key(position, symmetry, ko), symmetry) for symmetry in range(NUM_SYMMETRIES))


def key_ply(key):
    """The ply of the positions a key stands for (the key's `ply - 1` field, see above)."""
    return key // STATES % MAX_PLY + 1


def record(position, move):
    """`(key, move in the key's frame)`: what `write` stores so that `lookup` gives `move`."""
    key, symmetry = position_key(position)
    return key, go_board.SYMMETRIC_POINT[symmetry][move]


def encode(code):
    """A code as a record: RECORD_CHARS base-64 digits, most significant first."""
    if not 0 <= code < CODE_LIMIT:
        raise ValueError("code {} out of range".format(code))
    digits = []
    for _ in range(RECORD_CHARS):
        code, digit = divmod(code, BASE)
        digits.append(DIGITS[digit])
    return "".join(reversed(digits))


def decode(text):
    """A record's code; ValueError for a character outside DIGITS."""
    code = 0
    for char in text:
        value = DIGIT_VALUES.get(char)
        if value is None:
            raise ValueError("not a record: {!r}".format(text))
        code = code * BASE + value
    return code


def provenance_path(path):
    return os.path.splitext(path)[0] + PROVENANCE_SUFFIX


def header_text(records, header_fields):
    header = dict(header_fields, format=FORMAT, version=VERSION, record_chars=RECORD_CHARS,
                  records=records)
    plies = header.get("answered_plies", {})
    header["answered_plies"] = {str(colour): int(plies.get(colour, plies.get(str(colour), 0)))
                                for colour in COLOURS}
    text = json.dumps(header, sort_keys=True, separators=(",", ":")) + "\n"
    if len(text) > MAX_HEADER_BYTES:
        raise ValueError("the book's header is over {} bytes".format(MAX_HEADER_BYTES))
    return text


def write(path, answers, header_fields, provenance=None, tries=None):
    """Write the book: `answers` {key: move in the key's frame} (see `record`: proven wins),
    `tries` {key: (move in the key's frame, the opponent's winning replies, 1..MOVES)} (proven
    losses; a key in both is refused), the header's `answered_plies` ({colour: ply}) and
    `built_with` in `header_fields`; `provenance`, a JSON object, goes to the sidecar. Atomic;
    the same arguments give the same bytes."""
    entries = {key: (move, 0) for key, move in answers.items()}
    for key, (move, opponent_wins) in (tries or {}).items():
        if key in entries:
            raise ValueError("key {} is both a win and a try".format(key))
        if not (isinstance(opponent_wins, int) and 1 <= opponent_wins <= MOVES):
            raise ValueError("key {}: {!r} winning replies is not 1..{}".format(
                key, opponent_wins, MOVES))
        entries[key] = move, opponent_wins
    for key, (move, _) in entries.items():
        if not (isinstance(move, int) and 0 <= move < MOVES):
            raise ValueError("key {}: move {!r} is not 0..{}".format(key, move, MOVES - 1))
    records = "".join(encode((key * MOVES + entries[key][0]) * REPLY_COUNTS + entries[key][1])
                      for key in sorted(entries))
    text = header_text(len(entries), header_fields) + records
    if len(text) > MAX_BOOK_BYTES:
        raise ValueError("the book would be {} bytes, over {}".format(len(text), MAX_BOOK_BYTES))
    if provenance is not None:
        course_io.write_atomically(provenance_path(path),
                                   json.dumps(provenance, indent=0, sort_keys=True) + "\n")
    course_io.write_atomically(path, text)


class Book(object):
    """An opened book file: its header, and `lookup`, which searches the records on disk."""

    def __init__(self, path=None, records=0, start=0, answered_plies=None):
        self.path = path
        self.records = records
        self.start = start  # the first record's byte offset
        self.answered = answered_plies or {}

    def __len__(self):
        return self.records

    def answered_plies(self, colour):
        """The last ply through which the book answers all our book play reaches (0: none)."""
        return self.answered.get(colour, 0) if self.records else 0

    def lookup(self, position):
        """The book's proven winning move for `position`, in its own frame, or None (no
        winning entry: see `entry`, which gives tries too)."""
        found = self.entry(position)
        return None if found is None or found.opponent_wins else found.move

    def entry(self, position):
        """The book's `Entry` for `position`, its move in the position's own frame, or None (no
        record, an illegal move, or a file that went bad since `read`: one line on stderr)."""
        if not self.records:
            return None
        key, symmetry = position_key(position)
        try:
            code = self._first_at_least(key * MOVES * REPLY_COUNTS)
        except (IOError, OSError, ValueError) as error:
            _complain(self.path, error)
            return None
        if code is None or code // (MOVES * REPLY_COUNTS) != key:
            return None
        answer, opponent_wins = divmod(code, REPLY_COUNTS)
        move = go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answer % MOVES]
        return Entry(move, opponent_wins) if position.is_legal(move) else None

    def _first_at_least(self, code):
        """The smallest record code >= `code`, or None: a binary search, one read per probe."""
        width = RECORD_CHARS
        target = encode(code).encode("ascii")
        low, high = 0, self.records
        handle, size = _open_regular(self.path)
        with handle:
            if size != self.start + self.records * width:
                raise ValueError("the book changed since it was read")

            def at(index):
                handle.seek(self.start + index * width)
                text = handle.read(width)
                if len(text) != width:
                    raise ValueError("the book ends before record {}".format(index))
                return text
            while low < high:
                middle = (low + high) // 2
                if at(middle) < target:
                    low = middle + 1
                else:
                    high = middle
            return decode(at(low).decode("ascii")) if low < self.records else None


NO_BOOK = Book()


def entries(book):
    """`(answers, tries)` of an opened `book`, as `write` takes them: every record read at once
    (offline tools that rewrite a book; a move reads about twenty records, never this)."""
    answers, tries = {}, {}
    handle, _ = _open_regular(book.path)
    with handle:
        handle.seek(book.start)
        text = handle.read(book.records * RECORD_CHARS).decode("ascii")
    for start in range(0, len(text), RECORD_CHARS):
        answer, opponent_wins = divmod(decode(text[start:start + RECORD_CHARS]), REPLY_COUNTS)
        key, move = divmod(answer, MOVES)
        if opponent_wins:
            tries[key] = move, opponent_wins
        else:
            answers[key] = move
    return answers, tries


def read_header_fields(path):
    """The header of the book at `path` without what `write` derives (format, version, record
    width and count): what `write` takes to write it again."""
    header = _header(path)[0]
    return {name: value for name, value in header.items()
            if name not in ("format", "version", "record_chars", "records")}


def _complain(path, error):
    reason = "{}: {}".format(type(error).__name__, error)
    sys.stderr.write("opening_book: cannot use {} ({}); playing without the book\n".format(
        path, reason[:MAX_REASON_CHARS]))


def _open_regular(path):
    """`(unbuffered binary file, size)` of `path`; ValueError unless it is a regular file of at
    most MAX_BOOK_BYTES. The open does not block (a FIFO without a writer would)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    handle = os.fdopen(descriptor, "rb", buffering=0)
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_BOOK_BYTES:
        handle.close()
        raise ValueError("not a regular file of at most {} bytes".format(MAX_BOOK_BYTES))
    return handle, status.st_size


def _header(path):
    """`(header dict, its length in bytes, file size)`; raises on any fault."""
    handle, size = _open_regular(path)
    with handle:
        line, newline, _ = handle.read(MAX_HEADER_BYTES + 1).partition(b"\n")
    if not newline or len(line) >= MAX_HEADER_BYTES:
        raise ValueError("no header line of at most {} bytes".format(MAX_HEADER_BYTES))
    header = json.loads(line.decode("ascii"))
    if not isinstance(header, dict):
        raise ValueError("the header is not a JSON object")
    return header, len(line) + 1, size


def _whole_number(header, name, low, high):
    value = header.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError("header {}={!r} is not a whole number in {}..{}".format(
            name, value, low, high))
    return value


def read(path=BOOK_PATH):
    """The book file at `path` opened as a `Book` (its header read and checked against the file
    size; the records stay on disk); NO_BOOK, after one line on stderr, when it is missing or
    corrupt."""
    try:
        header, start, size = _header(path)
        if (header.get("format"), header.get("version")) != (FORMAT, VERSION):
            raise ValueError("not a {} version {} file".format(FORMAT, VERSION))
        # Another width would be another version: this one's records are RECORD_CHARS wide.
        width = _whole_number(header, "record_chars", RECORD_CHARS, RECORD_CHARS)
        records = _whole_number(header, "records", 0, MAX_BOOK_BYTES)
        if start + records * width != size:
            raise ValueError("{} records of {} characters need {} bytes, the file has {}".format(
                records, width, start + records * width, size))
        plies = header.get("answered_plies")
        if not isinstance(plies, dict):
            raise ValueError("no answered_plies object")
        answered = {colour: _whole_number(plies, str(colour), 0, MAX_PLY) for colour in COLOURS}
    except (IOError, OSError, ValueError, RecursionError) as error:
        _complain(path, error)
        return NO_BOOK
    return Book(path, records, start, answered)


def parse_answer(answer):
    """A move's text (`i,j` or `PASS`, as game records and the book's provenance write it) as a
    move; None for a missing or malformed one (treated as absent)."""
    try:
        return go_board.move_from_text(answer)
    except (AttributeError, TypeError, ValueError):  # NotAMove, or a point off the board
        return None
