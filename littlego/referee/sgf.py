"""A finished game as SGF (FF[4]), readable by any Go viewer, and its moves read back.

`game_to_sgf(record)` takes a GameRecord (see game.py). Moves alternate from Black, passes
are empty values (`W[]`), and RE says how the game ended: `B+3.5` on the score, `W+Time`,
`B+Forfeit` (illegal move or bad output) or `B+Resign`; a comment gives the referee's words.
`sgf_moves(text)` reads the moves of the main line back with sgfmill, for replaying a game;
tests/test_sgf.py checks that sgfmill replays every game we write to the referee's final board.
"""

import course_io
from littlego.referee import judge, rules
from littlego.referee.protocol import END_RESIGN, END_TIME

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


def sgf_moves(text):
    """`(i, j)` or None (a pass) for each move of the main line, in order, read by sgfmill
    (a tools-only requirement, so it is imported here: matches write SGF without it).
    ValueError for text sgfmill cannot read or a board that is not 5x5."""
    from sgfmill import sgf
    from sgfmill import sgf_moves as sgfmill_moves
    game = sgf.Sgf_game.from_string(text)
    if game.get_size() != rules.SIZE:
        raise ValueError("not a {0}x{0} game: SZ[{1}]".format(rules.SIZE, game.get_size()))
    _, plays = sgfmill_moves.get_setup_and_moves(game)
    # sgfmill counts rows from the bottom; the course counts them from the top.
    return [None if point is None else (rules.SIZE - 1 - point[0], point[1])
            for _, point in plays]


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
