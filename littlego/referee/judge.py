"""The course referee's judge mode: one ply, from input.txt + output.txt to an exit code.

Start at `judge_step`: given the state input.txt describes, the action the mover wrote and the
ply number, it returns a `Verdict` (the next input.txt's state, or the winner and why). Around
it: input.txt as a GameInput (`read_input`, `write_input`; the files' codec is course_io's) and
`run_judge`, which is `python3 host.py -m N -v V`. The match engine calls the same functions,
so a match is judged exactly as the course judges a game.

Standard library only, Python 3.7 syntax: this is what runs under the course's Python.
"""

import collections
import os

import course_io
from course_io import INPUT_FILE, OUTPUT_FILE
from littlego.referee import rules
from littlego.referee.display import COLOUR_NAMES, describe_action, draw_board
from littlego.referee.rules import PASS

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


def opening_input():
    """The input.txt the driver copies in before Black's first move."""
    return GameInput(rules.BLACK, rules.empty_board(), rules.empty_board())


# ---- the course files, as GameInput (the codec is course_io's) ---------------------------

def read_input(path):
    return GameInput(*course_io.read_grid_input(path))


def format_input(game_input):
    """input.txt's exact text for a GameInput."""
    return course_io.format_grid_input(*game_input)


def write_input(path, game_input):
    course_io.write_atomically(path, format_input(game_input))


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
                           "{}: {}".format(course_io.format_output(action), refusal))
        game_over = move_number >= rules.MAX_MOVE
        following = GameInput(rules.other(colour), rules.copy_board(current), board)
    if game_over:
        return Verdict(board, None, rules.winner(board), END_SCORE, score_detail(board))
    return Verdict(board, following, None, None, None)


def score_detail(board):
    """The verdict's detail of a game that ended on `board`: the stones and the komi, in the
    course referee's words."""
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
    except course_io.InputError as error:
        print("referee: bad {}: {}".format(INPUT_FILE, error))
        return EXIT_BAD_INPUT
    action = None
    try:
        action = course_io.parse_action(
            course_io.read_output_line(os.path.join(directory, OUTPUT_FILE)))
        verdict = judge_step(game_input, action, move_number)
    except course_io.OutputError as error:
        verdict = forfeit(game_input, error)
    if verbose:
        print(describe_verdict(game_input.colour, action, verdict))
    elif verdict.next_input is None:
        print(end_message(verdict))
    if verdict.next_input is not None:
        write_input(os.path.join(directory, INPUT_FILE), verdict.next_input)
        return EXIT_CONTINUE
    return verdict.winner
