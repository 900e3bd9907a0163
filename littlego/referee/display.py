"""Boards as text for people: a 5x5 list board drawn with coordinates, last move marked.

Used by judge mode's `-v`, by `host.py match --show` and by `host.py play`. Standard library
only, Python 3.7 syntax (judge mode imports it).
"""

from littlego.referee.rules import BLACK, PASS, SIZE, WHITE

STONE_CHARS = {BLACK: "X", WHITE: "O"}
EMPTY_CHAR = "."
COLOUR_NAMES = {BLACK: "Black (X)", WHITE: "White (O)"}


def draw_board(board, mark=None):
    """Rows numbered i, columns j (the course's `i,j`); the point `mark` is drawn `[X]`."""
    lines = ["   " + "".join(" {} ".format(j) for j in range(SIZE))]
    for i in range(SIZE):
        cells = []
        for j in range(SIZE):
            char = STONE_CHARS.get(board[i][j], EMPTY_CHAR)
            cells.append("[{}]".format(char) if (i, j) == mark else " {} ".format(char))
        lines.append("{:2} ".format(i) + "".join(cells))
    return "\n".join(line.rstrip() for line in lines)


def describe_action(colour, action):
    """`Black (X) plays 2,2` / `White (O) passes`; action None means nothing readable."""
    if action is None:
        return "{} gave no move".format(COLOUR_NAMES[colour])
    if action == PASS:
        return "{} passes".format(COLOUR_NAMES[colour])
    return "{} plays {},{}".format(COLOUR_NAMES[colour], action[0], action[1])
