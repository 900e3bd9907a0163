"""SGF (FF[4]) for the GTP engine's `loadsgf` and `printsgf`: one game's main line on the 5x5
board, read and written with the standard library (the engine runs where the agent runs; the
referee's records are littlego/referee/sgf.py's, read back there with sgfmill).

Start at `read_game(text)`: the setup stones (AB, AW: before the first move only), the side to
move after them (PL, else the first move's colour, else Black) and the moves (B, W; `B[]` or
`B[tt]` a pass), taken from the main line, which is every node before the first `)` (each first
variation comes first in the text). `write_game(start, moves, result)` writes the same back.
A point is two letters from `a`, column then row from the top: `cc` is the centre, the course's
2,2. Anything else, or a board that is not 5x5, is an SgfError with a one-line reason.
"""

import collections
import re

import go_board
from go_board import BLACK, PASS, SIZE, WHITE

SGF_COLOURS = {"B": BLACK, "W": WHITE}
SETUP = {"AB": BLACK, "AW": WHITE}
OLD_PASS = "tt"  # FF[3]'s pass, still written by some programs for boards up to 19x19
# One token: a bracket or semicolon, a property name, or a value (`\]` and `\\` escaped).
TOKEN = re.compile(r"\s*(?:([();])|([A-Za-z]+)|\[((?:[^\\\]]|\\.)*)\])", re.S)
HEADER = "(;FF[4]GM[1]CA[UTF-8]AP[{application}]SZ[{size}]KM[{komi:g}]RU[Little-Go]"

# black, white: bitboards of the setup stones; to_move: the colour to move after them;
# moves: [(colour, move)] in order.
Game = collections.namedtuple("Game", "black white to_move moves")


class SgfError(ValueError):
    """Text that is not an SGF game this engine can load; the message says why."""


def main_line(text):
    """The nodes of the main line, each {property: [values]}."""
    nodes, name, at = [], None, 0
    text = text.strip()
    while at < len(text):
        match = TOKEN.match(text, at)
        if match is None:
            raise SgfError("not SGF near {!r}".format(text[at:at + 20].strip()))
        at = match.end()
        bracket, ident, value = match.groups()
        if bracket == ")":
            break
        if bracket == ";":
            nodes.append({})
        elif ident is not None:
            name = "".join(char for char in ident if char.isupper())  # FF[3]'s AddBlack -> AB
        elif value is not None:
            if not nodes or name is None:
                raise SgfError("a value outside a property")
            nodes[-1].setdefault(name, []).append(re.sub(r"\\(.)", r"\1", value, flags=re.S))
    if not nodes:
        raise SgfError("no game in the file")
    return nodes


def parse_point(value, allow_pass):
    if allow_pass and value in ("", OLD_PASS):
        return PASS
    if len(value) != 2 or not all("a" <= char < chr(ord("a") + SIZE) for char in value):
        raise SgfError("{!r} is not a point of the {}x{} board".format(value, SIZE, SIZE))
    return go_board.from_coord(ord(value[1]) - ord("a"), ord(value[0]) - ord("a"))


def setup_points(value):
    """The points of an AB/AW value: one point, or a rectangle `aa:cc`."""
    corners = [parse_point(text, False) for text in value.split(":")]
    (top, left), (bottom, right) = (go_board.to_coord(corners[0]),
                                    go_board.to_coord(corners[-1]))
    return [go_board.from_coord(row, col) for row in range(min(top, bottom), max(top, bottom) + 1)
            for col in range(min(left, right), max(left, right) + 1)]


def read_game(text):
    """The Game of SGF `text`'s main line."""
    nodes = main_line(text)
    size = nodes[0].get("SZ", [str(SIZE)])[0]
    if size.strip() != str(SIZE):
        raise SgfError("not a {0}x{0} game: SZ[{1}]".format(SIZE, size))
    stones = {BLACK: 0, WHITE: 0}
    to_move, moves = None, []
    for node in nodes:
        for name, colour in SETUP.items():
            for value in node.get(name, []):
                if moves:
                    raise SgfError("setup stones after the first move")
                for point in setup_points(value):
                    stones[colour] |= 1 << point
        if "PL" in node and not moves:
            to_move = SGF_COLOURS.get(node["PL"][0].strip().upper()[:1])
            if to_move is None:
                raise SgfError("PL[{}] is not a colour".format(node["PL"][0]))
        for name, colour in SGF_COLOURS.items():
            for value in node.get(name, []):
                moves.append((colour, parse_point(value.strip(), True)))
    if stones[BLACK] & stones[WHITE]:
        raise SgfError("a point with setup stones of both colours")
    if to_move is None:
        to_move = moves[0][0] if moves else BLACK
    return Game(stones[BLACK], stones[WHITE], to_move, moves)


def point_text(move):
    """`cc` for the centre, the empty value for PASS."""
    if move == PASS:
        return ""
    row, col = go_board.to_coord(move)
    return chr(ord("a") + col) + chr(ord("a") + row)


def write_game(start, moves, application, result=None):
    """SGF text of a game from Position `start` (its stones as setup, its side to move as PL
    when they are there) through `moves` [(colour, move)]; RE[result] when given."""
    parts = [HEADER.format(application=application, size=SIZE, komi=go_board.KOMI)]
    for name, colour in sorted(SETUP.items()):
        points = go_board.points_of(start.stones(colour))
        if points:
            parts.append(name + "".join("[{}]".format(point_text(point)) for point in points))
    if start.black or start.white:
        parts.append("PL[{}]".format("B" if start.to_move == BLACK else "W"))
    if result is not None:
        parts.append("RE[{}]".format(result))
    for colour, move in moves:
        parts.append(";{}[{}]".format("B" if colour == BLACK else "W", point_text(move)))
    return "".join(parts) + ")\n"
