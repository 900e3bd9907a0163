"""Moves and positions in the words Go GUIs use, for the engines that talk to them (GTP,
littlego/gtp; KataGo's JSON analysis protocol, katago.py): GTP vertices (`vertex_text`,
`parse_vertex`: `C3`, `pass`; columns skip the letter I, rows count from the bottom, from 1)
the side to move as GUIs set it (`with_mover`) and a result as GTP and SGF write it
(`result_text`).
Standard library only, Python 3.7 syntax, like the GTP engine.
"""

import go_board
from go_board import PASS, SIZE

COLUMN_LETTERS = "ABCDEFGHJ"[:SIZE]
GTP_PASS = "pass"


class NotAVertex(ValueError):
    """Text that names no point of the board and no pass."""


def vertex_text(move):
    """`C3` for a point, `pass` for PASS."""
    if move == PASS:
        return GTP_PASS
    row, col = go_board.to_coord(move)
    return "{}{}".format(COLUMN_LETTERS[col], SIZE - row)


def parse_vertex(text):
    """A point or PASS from a GTP vertex (any case); NotAVertex if it is not a vertex of the
    5x5 board."""
    word = text.strip().upper()
    if word == GTP_PASS.upper():
        return PASS
    try:
        col = COLUMN_LETTERS.index(word[0])
        row = SIZE - int(word[1:])
        return go_board.from_coord(row, col)
    except (ValueError, IndexError):
        raise NotAVertex("{} is not a point of the {}x{} board".format(text, SIZE, SIZE))


def with_mover(position, colour):
    """`position` with `colour` to move. GUIs set up positions by playing one colour several
    times, as GNU Go allows: the side to move follows the board, not the alternation."""
    if colour == position.to_move:
        return position
    return go_board.Position(position.black, position.white, colour, position.ply,
                             position.prev_black, position.prev_white, position.ended)


def result_text(position):
    """`B+0.5` or `W+2.5`: the stones-only result with komi, as GTP and SGF write it."""
    score = position.score()
    return "{}+{:g}".format("B" if score > 0 else "W", abs(score))
