"""A finished game as SGF (FF[4]), readable by any Go viewer, and its moves read back.

`game_to_sgf(record)` takes a GameRecord (see game.py). Moves alternate from Black, passes
are empty values (`W[]`), and RE says how the game ended: `B+3.5` on the score, `W+Time`,
`B+Forfeit` (illegal move or bad output) or `B+Resign`; a comment gives the referee's words.
`sgf_moves(text)` reads the moves of the main line back, for replaying a game.
"""

import re

import course_io
from referee import judge, rules
from referee.player import END_RESIGN, END_TIME

RESULT_WORDS = {END_TIME: "Time", END_RESIGN: "Resign", judge.END_ILLEGAL: "Forfeit",
                judge.END_BAD_OUTPUT: "Forfeit"}
COLOUR_LETTERS = {rules.BLACK: "B", rules.WHITE: "W"}


def escape(text):
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def sgf_point(move_text):
    """`cc` for the output.txt move `2,2`: column letter first, then row, from `a`."""
    if move_text == rules.PASS:
        return ""
    row, col = course_io.parse_action(move_text)
    return chr(ord("a") + col) + chr(ord("a") + row)


# A move node's B or W property; property values never hold `]` unescaped in our files.
MOVE_PROPERTY = re.compile(r";\s*(?:[A-Z]+\[(?:[^\]\\]|\\.)*\]\s*)*?([BW])\[([a-z]*)\]")
OLD_PASS = "tt"  # FF[3]'s pass on boards up to 19x19


def sgf_moves(text):
    """`(i, j)` or None (a pass) for each move of the main line, in order."""
    moves = []
    for _, value in MOVE_PROPERTY.findall(text):
        if value in ("", OLD_PASS):
            moves.append(None)
        elif len(value) == 2:
            moves.append((ord(value[1]) - ord("a"), ord(value[0]) - ord("a")))
        else:
            raise ValueError("not an SGF point: {!r}".format(value))
    return moves


def result_value(record):
    winner = COLOUR_LETTERS[record["winner"]]
    if record["reason"] == judge.END_SCORE:
        margin = abs(record["black_stones"] - record["white_stones"] - rules.KOMI)
        return "{}+{:g}".format(winner, margin)
    return "{}+{}".format(winner, RESULT_WORDS[record["reason"]])


def game_to_sgf(record):
    root = "FF[4]GM[1]CA[UTF-8]SZ[{}]KM[{:g}]PB[{}]PW[{}]RE[{}]C[{}: {}]".format(
        rules.SIZE, rules.KOMI, escape(record["black"]), escape(record["white"]),
        result_value(record), escape(record["reason"]), escape(record["detail"]))
    moves = "".join(";{}[{}]".format(COLOUR_LETTERS[rules.BLACK if n % 2 == 0 else rules.WHITE],
                                     sgf_point(text))
                    for n, text in enumerate(record["moves"]))
    return "(;{}\n{})\n".format(root, moves)
