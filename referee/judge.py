"""The course referee's judge mode: one ply, from input.txt + output.txt to an exit code.

Start at `judge_step`: given the state input.txt describes, the action the mover wrote and the
ply number, it returns a `Verdict` (the next input.txt's state, or the winner and why). Around
it: the course file formats (`parse_input`/`format_input` for input.txt, `read_output_line` and
`parse_action` for output.txt) and `run_judge`, which is `python3 host.py -m N -v V`. The match
engine calls the same functions, so a match is judged exactly as the course judges a game.

Standard library only, Python 3.7 syntax: this is what runs under the course's Python.
"""

import collections
import os

from referee import rules
from referee.display import COLOUR_NAMES, describe_action, draw_board
from referee.rules import PASS

INPUT_FILE = "input.txt"
OUTPUT_FILE = "output.txt"
INPUT_LINES = 1 + 2 * rules.SIZE

# Exit codes of judge mode: 0 = the game goes on, 1/2 = that colour won. The course referee
# crashes (exit 1, "Black won") on a garbled input.txt; ours says so and uses a code no
# winner can have.
EXIT_CONTINUE = 0
EXIT_BAD_INPUT = 3

# Why a game ended. The first three are the judge's; the match engine adds its own.
END_SCORE = "score"
END_ILLEGAL = "illegal move"
END_BAD_OUTPUT = "bad output"

# The state input.txt describes: the colour to move, lines 2-6 and lines 7-11.
GameInput = collections.namedtuple("GameInput", "colour previous current")

# `board` is the board after the action (the current one when the action was refused);
# `next_input` is None when the game is over, and then `winner`, `reason`, `detail` say how.
Verdict = collections.namedtuple("Verdict", "board next_input winner reason detail")


class InputFileError(ValueError):
    """input.txt is missing or is not a colour and two boards."""


class OutputFileError(ValueError):
    """output.txt is missing, unreadable, or neither `PASS` nor `i,j`: the mover loses."""


def opening_input():
    """The input.txt the driver copies in before Black's first move."""
    return GameInput(rules.BLACK, rules.empty_board(), rules.empty_board())


# ---- input.txt ----------------------------------------------------------------------------

def parse_input(text):
    """A GameInput from input.txt's text; CRLF, trailing spaces and a final newline are fine."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) != INPUT_LINES:
        raise InputFileError("{} has {} lines, expected {} (colour, previous board, current "
                             "board)".format(INPUT_FILE, len(lines), INPUT_LINES))
    if lines[0] not in ("1", "2"):
        raise InputFileError("{} line 1 must be 1 or 2, found {!r}".format(INPUT_FILE, lines[0]))
    boards = []
    for first in (1, 1 + rules.SIZE):
        board = []
        for number in range(first, first + rules.SIZE):
            row = lines[number]
            if len(row) != rules.SIZE or any(char not in "012" for char in row):
                raise InputFileError("{} line {} must be {} digits 0-2, found {!r}".format(
                    INPUT_FILE, number + 1, rules.SIZE, row))
            board.append([int(char) for char in row])
        boards.append(board)
    return GameInput(int(lines[0]), boards[0], boards[1])


def read_input(path):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except (IOError, OSError) as error:
        raise InputFileError("cannot read {}: {}".format(path, error.strerror or error))
    try:
        return parse_input(raw.decode("ascii"))
    except UnicodeDecodeError:
        raise InputFileError("{} is not ASCII text".format(path))


def format_input(game_input):
    """input.txt's exact text: colour, previous rows, current rows; LF, no final newline."""
    lines = [str(game_input.colour)]
    for board in (game_input.previous, game_input.current):
        lines.extend("".join(str(point) for point in row) for row in board)
    return "\n".join(lines)


def write_input(path, game_input):
    with open(path, "wb") as handle:
        handle.write(format_input(game_input).encode("ascii"))


# ---- output.txt ---------------------------------------------------------------------------

def read_output_line(path):
    """The first line of output.txt, read as the course reads it (universal newlines)."""
    try:
        with open(path, "r", encoding="utf-8") as handle:
            return handle.readline()
    except (IOError, OSError) as error:
        raise OutputFileError("{} not found or unreadable: {}".format(
            OUTPUT_FILE, error.strerror or error))
    except UnicodeDecodeError:
        raise OutputFileError("{} is not UTF-8 text".format(OUTPUT_FILE))


def parse_action(line):
    """PASS or (i, j) from output.txt's first line, with the course's exact leniency.

    The line is stripped and split on commas; a first field of exactly `PASS` is a pass (so
    `PASS,x` is one too), otherwise the first two fields go through int(), which itself
    accepts surrounding spaces, a sign and digit underscores. Extra fields are ignored.
    """
    fields = line.strip().split(",")
    if fields[0] == PASS:
        return PASS
    try:
        return int(fields[0]), int(fields[1])
    except (ValueError, IndexError):
        raise OutputFileError("{} must hold `i,j` or `PASS`, found {!r}".format(
            OUTPUT_FILE, line))


def action_to_text(action):
    """The output.txt line that means `action`."""
    return PASS if action == PASS else "{},{}".format(*action)


# ---- one ply ------------------------------------------------------------------------------

def judge_step(game_input, action, move_number):
    """Apply the mover's `action` at ply `move_number` and say what happens next."""
    colour, previous, current = game_input
    if action == PASS:
        board = rules.copy_board(current)
        # A pass ends the game when the opponent's last action was a pass too: the referee
        # then wrote previous = current. At ply 1 both boards are empty, so it ends as well.
        game_over = previous == current or move_number >= rules.MAX_MOVE
        following = GameInput(rules.other(colour), board, rules.copy_board(board))
    else:
        board, refusal = rules.try_place(previous, current, action[0], action[1], colour)
        if refusal is not None:
            return Verdict(current, None, rules.other(colour), END_ILLEGAL,
                           "{}: {}".format(action_to_text(action), refusal))
        game_over = move_number >= rules.MAX_MOVE
        following = GameInput(rules.other(colour), rules.copy_board(current), board)
    if game_over:
        return Verdict(board, None, rules.winner(board), END_SCORE, score_text(board))
    return Verdict(board, following, None, None, None)


def score_text(board):
    return "Black {} - White {} + {} komi".format(
        rules.count_stones(board, rules.BLACK), rules.count_stones(board, rules.WHITE),
        rules.KOMI)


def end_message(verdict):
    return "Game end ({}: {}). The winner is {}.".format(
        verdict.reason, verdict.detail, COLOUR_NAMES[verdict.winner])


def describe_verdict(colour, action, verdict):
    """Who did what (action None: nothing readable), the board after it, and any result."""
    lines = [describe_action(colour, action)]
    placed = action not in (None, PASS) and verdict.reason in (None, END_SCORE)
    lines.append(draw_board(verdict.board, action if placed else None))
    if verdict.next_input is None:
        lines.append(end_message(verdict))
    return "\n".join(lines)


def forfeit(game_input, error):
    """The verdict when the mover's output.txt could not be read as an action."""
    return Verdict(game_input.current, None, rules.other(game_input.colour), END_BAD_OUTPUT,
                   str(error))


# ---- judge mode ---------------------------------------------------------------------------

def run_judge(move_number, verbose, directory="."):
    """`python3 host.py -m N -v V`: judge one ply in `directory`; return the exit code."""
    try:
        game_input = read_input(os.path.join(directory, INPUT_FILE))
    except InputFileError as error:
        print("referee: {}".format(error))
        return EXIT_BAD_INPUT
    action = None
    try:
        action = parse_action(read_output_line(os.path.join(directory, OUTPUT_FILE)))
        verdict = judge_step(game_input, action, move_number)
    except OutputFileError as error:
        verdict = forfeit(game_input, error)
    if verbose:
        print(describe_verdict(game_input.colour, action, verdict))
    elif verdict.next_input is None:
        print(end_message(verdict))
    if verdict.next_input is not None:
        write_input(os.path.join(directory, INPUT_FILE), verdict.next_input)
        return EXIT_CONTINUE
    return verdict.winner
