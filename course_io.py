"""The course contract: the two files a player and the referee exchange once per ply.

Reading guide: start at `read_input` (input.txt: the colour to move, the previous board and the
current board, as go_board's `(black, white)` bitboards) and `write_output` (output.txt: `i,j`
or `PASS`). The referee's side reads and writes the same input.txt text as grids
(`parse_grid_input`, `format_grid_input`: rows of ints 0/1/2, as the file spells them) and reads
output.txt with the course's exact leniency (`read_output_line`, `parse_action`). Under both,
`read_regular_file` (a bounded read that never blocks) and `write_atomically` (a temporary file
and a rename: no reader ever sees half a file), which the agent's other files use as well.
The format, quirks included, is docs/rules.md.

The agent, the built-in opponents, the referee's judge and the tools all go through here; the
rules themselves live in go_board (the agent's) and referee.rules (the plain oracle). The
referee's side runs without go_board (its verdicts must not depend on the agent's engine), so
only the player's functions import it, when called.
Standard library only, Python 3.7: the agent reads its input through here on every move.
"""

import os
import stat

# The course's board, as the files spell it: SIZE rows of SIZE digits (go_board.SIZE and
# referee.rules.SIZE are the same board; tests/test_course_io.py checks it).
SIZE = 5
BLACK_DIGIT, WHITE_DIGIT = 1, 2
INPUT_FILE = "input.txt"
OUTPUT_FILE = "output.txt"
PASS_TEXT = "PASS"  # the same word as go_board.PASS_TEXT (the referee's side runs without go_board)
COLOUR_TEXTS = (str(BLACK_DIGIT), str(WHITE_DIGIT))
INPUT_LINES = 1 + 2 * SIZE
ROW_DIGITS = "012"
# The referee's input.txt is 61 bytes; this leaves room for CRLF and trailing spaces.
MAX_INPUT_BYTES = 4096
# The seed our referee gives every per-move program of a game (littlego.referee.players); the
# agent's settings and the opponents' run.py read it. The course's referee sets nothing.
SEED_ENV = "LITTLEGO_SEED"
# The grader's limit on the whole submission: the bundle and its helper files (the book) together.
MAX_SUBMISSION_BYTES = 8 * 1000 * 1000
# What a file written here may be read by: everyone, as open() makes it under the usual umask
# (write_atomically sets it whatever the umask).
WRITTEN_FILE_MODE = 0o644
# A temporary file's name ends in this many random bytes (hex); a name taken is drawn again.
TEMPORARY_NAME_BYTES = 6
TEMPORARY_NAME_TRIES = 100


class InputError(ValueError):
    """input.txt (or another file read here) is missing or malformed; the message says how."""


class OutputError(ValueError):
    """output.txt is missing, unreadable, or neither `PASS` nor `i,j`: the mover loses."""


# ---- files --------------------------------------------------------------------------------

def read_regular_file(path, max_bytes):
    """The bytes of `path`, only if it is a regular file of at most `max_bytes` bytes.

    Anything else raises InputError (OSError when it cannot be opened): a FIFO or a device
    could block the read or never end, and a huge file would cost time and memory. The open
    does not block either (O_NONBLOCK: a FIFO without a writer would).
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise InputError("{} is not a regular file".format(path))
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise InputError("{} is larger than {} bytes".format(path, max_bytes))
    return raw


def _create_temporary_beside(path):
    """`(descriptor, path)` of a new file in `path`'s folder, opened for writing, whose name no
    other file had (O_EXCL). Not tempfile.mkstemp: importing tempfile (random, hashlib, shutil,
    bz2, lzma) is a large share of a book move's CPU on Python 3.7 (docs/strength.md)."""
    prefix = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".")
    for _ in range(TEMPORARY_NAME_TRIES):
        temp_path = prefix + os.urandom(TEMPORARY_NAME_BYTES).hex()
        try:
            handle = os.open(temp_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, WRITTEN_FILE_MODE)
        except FileExistsError:
            continue
        return handle, temp_path
    raise FileExistsError("no free temporary name beside {}".format(path))


def write_atomically(path, text):
    """Write `text` (ASCII or UTF-8) so that a reader sees the old file or the whole new one:
    a temporary file in the same folder, then a rename. A failure leaves no temporary file."""
    handle, temp_path = _create_temporary_beside(path)
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(text.encode("utf-8"))
        os.chmod(temp_path, WRITTEN_FILE_MODE)
        os.replace(temp_path, path)
    except BaseException:
        if os.path.exists(temp_path):
            os.unlink(temp_path)
        raise


def read_text(path):
    """The whole text of `path`, or None when it is missing or not text: for the records of
    what a player was given and what it wrote."""
    try:
        with open(path) as handle:
            return handle.read()
    except (IOError, OSError, UnicodeDecodeError):
        return None


# ---- input.txt ----------------------------------------------------------------------------

def parse_grid_input(text):
    """`(colour, previous, current)` from input.txt's text, boards as SIZE rows of SIZE ints.

    Accepts CRLF, trailing spaces and a final newline; raises InputError naming the fault.
    This is all the course referee checks: any digits 0-2 make a board.
    """
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) != INPUT_LINES:
        raise InputError("expected {} lines (colour, previous board, current board), found {}"
                         .format(INPUT_LINES, len(lines)))
    if lines[0] not in COLOUR_TEXTS:
        raise InputError("line 1: colour must be 1 or 2, found {!r}".format(lines[0]))
    boards = []
    for first in (1, 1 + SIZE):
        board = []
        for number in range(first, first + SIZE):
            row = lines[number]
            if len(row) != SIZE or any(char not in ROW_DIGITS for char in row):
                raise InputError("line {}: a row is {} digits 0-2, found {!r}"
                                 .format(number + 1, SIZE, row))
            board.append([int(char) for char in row])
        boards.append(board)
    return int(lines[0]), boards[0], boards[1]


def grid_rows(board):
    """A grid's rows as input.txt spells them: `["00120", ...]`."""
    return ["".join(str(point) for point in row) for row in board]


def format_grid_input(colour, previous, current):
    """input.txt's exact text from grids (rows of ints, or of digit strings): colour, previous
    rows, current rows; LF endings and no final newline, as the referee writes it."""
    return "\n".join([str(colour)] + grid_rows(previous) + grid_rows(current))


def read_grid_input(path):
    """parse_grid_input of the file at `path`, read with `read_regular_file`."""
    try:
        raw = read_regular_file(path, MAX_INPUT_BYTES)
    except (IOError, OSError) as error:
        raise InputError("cannot read {}: {}".format(path, error.strerror or error))
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise InputError("{} is not ASCII text".format(path))
    return parse_grid_input(text)


def _bitboards(grid, name):
    """`(black, white)` of a grid; a chain without liberties is an InputError: no game
    reaches such a board, and the agent's search assumes none."""
    import go_board
    black = white = 0
    for row, points in enumerate(grid):
        for col, point in enumerate(points):
            if point == BLACK_DIGIT:
                black |= go_board.BIT[row * SIZE + col]
            elif point == WHITE_DIGIT:
                white |= go_board.BIT[row * SIZE + col]
    dead = go_board.dead_group(black, white)
    if dead is not None:
        raise InputError("{} board: the group at {} has no liberty".format(
            name, go_board.move_to_text(dead)))
    return black, white


def player_view(colour, previous, current):
    """`(colour, previous, current)` with the grids of input.txt's form (what the referee's
    GameInput holds) as `(black, white)` bitboards: what a player reads."""
    return colour, _bitboards(previous, "previous"), _bitboards(current, "current")


def parse_input(text):
    """`(colour, previous, current)` from input.txt's text, boards as `(black, white)`."""
    return player_view(*parse_grid_input(text))


def read_input(path=INPUT_FILE):
    """parse_input of the file at `path`: what a player reads at the start of its move."""
    return player_view(*read_grid_input(path))


def format_input(colour, previous, current):
    """input.txt's exact text from `(black, white)` boards."""
    import go_board
    return format_grid_input(colour, go_board.board_to_digits(*previous),
                             go_board.board_to_digits(*current))


# ---- output.txt ---------------------------------------------------------------------------

def format_output(action):
    """output.txt's line for an action: `(i, j)` or PASS_TEXT."""
    return PASS_TEXT if action == PASS_TEXT else "{},{}".format(*action)


def write_output(move, path=OUTPUT_FILE):
    """output.txt for a go_board move (a point or go_board.PASS), written atomically in the
    move codec's text (`go_board.move_to_text`)."""
    import go_board
    write_atomically(path, go_board.move_to_text(move))


def read_output_line(path):
    """The first line of output.txt, read as the course reads it (universal newlines)."""
    try:
        with open(path, "r", encoding="utf-8") as handle:
            return handle.readline()
    except (IOError, OSError) as error:
        raise OutputError("{} not found or unreadable: {}".format(
            OUTPUT_FILE, error.strerror or error))
    except UnicodeDecodeError:
        raise OutputError("{} is not UTF-8 text".format(OUTPUT_FILE))


def parse_action(line):
    """PASS_TEXT or `(i, j)` from output.txt's first line, with the course's exact leniency.

    The line is stripped and split on commas; a first field of exactly `PASS` is a pass (so
    `PASS,x` is one too), otherwise the first two fields go through int(), which itself
    accepts surrounding spaces, a sign and digit underscores. Extra fields are ignored, and
    `(i, j)` may be off the board: that is the rules' verdict, not the format's.
    """
    fields = line.strip().split(",")
    if fields[0] == PASS_TEXT:
        return PASS_TEXT
    try:
        return int(fields[0]), int(fields[1])
    except (ValueError, IndexError):
        raise OutputError("{} must hold `i,j` or `PASS`, found {!r}".format(OUTPUT_FILE, line))
