"""Little-Go rules engine: Go on a 5x5 board exactly as the CSCI-561 referee plays it.

Reading guide: start at `Position` (an immutable game state with `play`, `legal_moves`,
`score`, `winner`), then `place_stone` (the one function that decides legality and captures;
search calls it directly) and `ko_point` (the point simple ko forbids now). The rule set is
docs/rules.md; each rule lives in one place here. The course files (input.txt,
output.txt) are course_io's.

Vocabulary
- Point: an index 0..24, `row * 5 + col`, row 0 at the top. `to_coord`/`from_coord` convert to
  and from the course's `(i, j)` = (row, column).
- Bitboard: a Python int whose bit `p` is set when point `p` holds a stone of one colour. A board
  is a pair of bitboards `(black, white)`.
- Move: a Point, or `PASS`. As text (`move_to_text`, `move_from_text`, the one codec for
  every file and record that names a move): `i,j` or `PASS`, the course's output.txt syntax.
- Colour: `BLACK` (1, "X", moves first) or `WHITE` (2, "O"); `EMPTY` is 0.
- Ply: the number of the action about to be played, 1..24. The game ends after ply 24
  (`MAX_PLY`), or when a player passes while the previous and current boards are equal (right
  after the opponent passed, or Black passing at ply 1).
- Position: stones, colour to move, ply, and the board before the last action (the "previous
  board" of input.txt, which is what simple ko compares against).

Performance: boards are bit-packed ints and neighbourhoods are precomputed shifts, because
search calls `place_stone` millions of times; readability is kept in `Position`.
"""

SIZE = 5
NUM_POINTS = SIZE * SIZE
MAX_PLY = NUM_POINTS - 1
KOMI = 2.5
EMPTY, BLACK, WHITE = 0, 1, 2
PASS = NUM_POINTS
# The centre point, (2, 2): Black's one winning first move (docs/rules.md).
CENTRE = SIZE // 2 * (SIZE + 1)
PASS_TEXT = "PASS"  # as output.txt spells a pass (course_io.PASS_TEXT, checked equal by its test)
COLOUR_NAMES = {BLACK: "Black", WHITE: "White"}
STONE_CHARS = {EMPTY: ".", BLACK: "X", WHITE: "O"}
NO_KO = -1  # ko_point's answer when simple ko forbids no point

FULL = (1 << NUM_POINTS) - 1
_LEFT_COLUMN = sum(1 << (row * SIZE) for row in range(SIZE))
_RIGHT_COLUMN = _LEFT_COLUMN << (SIZE - 1)
_NOT_LEFT = FULL ^ _LEFT_COLUMN
_NOT_RIGHT = FULL ^ _RIGHT_COLUMN

# Reasons carried by IllegalMove and returned by place_stone.
OFF_BOARD = "off the board"
OCCUPIED = "point is occupied"
SUICIDE = "suicide"
KO = "ko: the board would repeat the previous board"
GAME_OVER = "the game is over"


class IllegalMove(ValueError):
    """A move the referee would reject; `reason` is one of the reason constants."""

    def __init__(self, move, reason):
        ValueError.__init__(self, "illegal move {}: {}".format(move_to_text(move), reason))
        self.move = move
        self.reason = reason


class NotAMove(ValueError):
    """Text that names no move: neither `i,j` with two integers nor PASS_TEXT."""


def other(colour):
    return 3 - colour


def plies_left(ply):
    """The plies still to play when `ply` is the next one, itself included (1 at MAX_PLY)."""
    return MAX_PLY + 1 - ply


def to_coord(point):
    return divmod(point, SIZE)


def from_coord(row, col):
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise IllegalMove((row, col), OFF_BOARD)
    return row * SIZE + col


def move_to_text(move):
    """`i,j` or `PASS`, the course's output.txt syntax; an `(i, j)` tuple off the board (as an
    IllegalMove names it) is written the same way."""
    if move == PASS:
        return PASS_TEXT
    if isinstance(move, tuple):
        return "{},{}".format(*move)
    return "{},{}".format(*to_coord(move))


def move_to_action(move):
    """The referee's action for `move` (course_io.parse_action's form): PASS_TEXT, or `(i, j)`."""
    return PASS_TEXT if move == PASS else to_coord(move)


def move_from_action(action):
    """The move of the referee's `action` (course_io.parse_action's): PASS, or the point of
    `(i, j)` (IllegalMove when it is off the board)."""
    return PASS if action == PASS_TEXT else from_coord(*action)


def move_from_text(text):
    """The move that `move_to_text` writes as `text`: NotAMove for text that names no move,
    IllegalMove (OFF_BOARD) for a point off the board."""
    if text == PASS_TEXT:
        return PASS
    try:
        row, col = (int(field) for field in text.split(","))
    except (AttributeError, TypeError, ValueError):
        raise NotAMove("{!r} is not a move (`i,j` or {})".format(text, PASS_TEXT))
    return from_coord(row, col)


def popcount(bits):
    return bin(bits).count("1")


# ---- scoring: stones on the board only, komi to White ---------------------------------------

def margin(stone_diff, colour):
    """`colour`'s final margin when its stones outnumber the opponent's by `stone_diff`: the
    komi counts against Black. Positive means `colour` wins; the komi is a half, so never 0."""
    return stone_diff - KOMI if colour == BLACK else stone_diff + KOMI


def needed_diff(colour):
    """The smallest final stone difference (own - opponent) with which `colour` wins: 3 for
    Black, -2 for White (komi 2.5)."""
    return min(diff for diff in range(-NUM_POINTS, NUM_POINTS + 1) if margin(diff, colour) > 0)


def black_wins(black, white):
    """Whether Black wins the game that ends on this board."""
    return margin(popcount(black) - popcount(white), BLACK) > 0


def points_of(bits):
    """The points set in a bitboard, lowest first."""
    points = []
    while bits:
        low = bits & -bits
        points.append(low.bit_length() - 1)
        bits ^= low
    return points


def neighbours_of(bits):
    """Every point orthogonally adjacent to a point of the bitboard (its own points included
    only where they touch each other)."""
    return (((bits << 1) & _NOT_LEFT) | ((bits >> 1) & _NOT_RIGHT)
            | ((bits << SIZE) & FULL) | (bits >> SIZE))


def dilate(bits):
    """The bitboard plus every point orthogonally adjacent to it."""
    return bits | neighbours_of(bits)


BIT = [1 << p for p in range(NUM_POINTS)]
NEIGHBOURS = [dilate(1 << p) ^ (1 << p) for p in range(NUM_POINTS)]
NEIGHBOUR_POINTS = [tuple((q, 1 << q) for q in points_of(NEIGHBOURS[p])) for p in range(NUM_POINTS)]


def group_of(stones, point_bit):
    """The chain of `stones` that contains the stone `point_bit`."""
    group = point_bit
    while True:
        grown = dilate(group) & stones
        if grown == group:
            return group
        group = grown


def chain_liberties(stones, bit, empty):
    """Liberties (in `empty`) of the chain of `stones` through the stone `bit`, exact up to one.

    Zero or one liberty comes back exactly; two or more come back as some two or more of them,
    found as soon as the flood fill (`group_of` and `dilate` written out, for speed) meets them.
    For `place_stone`'s suicide rule and the playouts' atari tests.
    """
    chain = bit
    while True:
        grown = (chain | ((chain << 1) & _NOT_LEFT) | ((chain >> 1) & _NOT_RIGHT)
                 | ((chain << SIZE) & FULL) | (chain >> SIZE))
        found = grown & empty
        if found & (found - 1):
            return found
        grown &= stones
        if grown == chain:
            return found
        chain = grown


def capture(own, opp, lonely, empty_after, ko_own, ko_opp):
    """The captures of a placement, for `place_stone` and the playouts.

    `own` already holds the new stone, `empty_after` is the empty points after it, `lonely`
    the opponent stones next to it without an empty neighbour (only their chains can die).
    Returns `(own, opp)` after the captures, KO, or None when nothing is captured.
    """
    captured = 0
    while lonely:
        chain = lonely & -lonely
        while True:  # group_of and dilate written out, stopping at a liberty
            grown = (chain | ((chain << 1) & _NOT_LEFT) | ((chain >> 1) & _NOT_RIGHT)
                     | ((chain << SIZE) & FULL) | (chain >> SIZE))
            if grown & empty_after:
                break
            grown &= opp
            if grown == chain:
                captured |= chain
                break
            chain = grown
        lonely &= ~chain
    if not captured:
        return None
    opp ^= captured
    if own == ko_own and opp == ko_opp:
        return KO
    return own, opp


def place_stone(own, opp, point, ko_own, ko_opp):
    """Play a stone of the side `own` at `point`.

    Returns `(own, opp)` after the move and its captures, or a reason string (OCCUPIED,
    SUICIDE, KO) when the referee would refuse it. `(ko_own, ko_opp)` is the previous board seen
    from the mover: a capture that recreates it is ko. Captures are tested before suicide, as
    the referee does.
    """
    bit = BIT[point]
    if (own | opp) & bit:
        return OCCUPIED
    empty_after = FULL ^ own ^ opp ^ bit
    own |= bit
    # Only an opponent stone next to the point with no empty neighbour left can be captured.
    lonely = NEIGHBOURS[point] & opp & ~(
        empty_after | ((empty_after << 1) & _NOT_LEFT) | ((empty_after >> 1) & _NOT_RIGHT)
        | ((empty_after << SIZE) & FULL) | (empty_after >> SIZE))
    if lonely:
        result = capture(own, opp, lonely, empty_after, ko_own, ko_opp)
        if result is not None:
            return result
    if NEIGHBOURS[point] & empty_after or chain_liberties(own, bit, empty_after):
        return own, opp
    return SUICIDE


def ko_ban_after(point, captured, own, opp):
    """The point the opponent may not retake at once after `own` played `point` capturing
    `captured` (some stones; `own`, `opp`: the boards after the move), or NO_KO.

    A placement adds one stone and removes only opponent stones, so only one retake can recreate
    the previous board (what `place_stone` refuses as KO): of a single stone captured by a lone
    stone whose one liberty is the captured point. The exact search asks this at every capture
    it makes, hence bit tests rather than `place_stone` (rules.c's ko_ban_after is its twin).
    """
    if not captured & (captured - 1) and not NEIGHBOURS[point] & own \
            and NEIGHBOURS[point] & ~(own | opp) == captured:
        return captured.bit_length() - 1
    return NO_KO


def ko_point(own, opp, prev_own, prev_opp):
    """The point simple ko forbids to the side `own` now, or NO_KO: `ko_ban_after` the
    opponent's last placement, read from the previous board `(prev_own, prev_opp)` (seen from
    the same side), which is one placement before, as games give it."""
    taken = prev_own & ~own
    placed = opp & ~prev_opp
    if not taken or not placed or placed & (placed - 1) or own | taken != prev_own \
            or opp ^ placed != prev_opp:
        return NO_KO  # the last action was no placement that captured
    return ko_ban_after(placed.bit_length() - 1, taken, opp, own)


class Position(object):
    """An immutable game state. `play` returns a new Position; nothing mutates one."""

    __slots__ = ("black", "white", "to_move", "ply", "prev_black", "prev_white", "ended")

    def __init__(self, black=0, white=0, to_move=BLACK, ply=1, prev_black=None,
                 prev_white=None, ended=False):
        self.black = black
        self.white = white
        self.to_move = to_move
        self.ply = ply
        self.prev_black = black if prev_black is None else prev_black
        self.prev_white = white if prev_white is None else prev_white
        self.ended = ended

    @classmethod
    def from_text(cls, text, to_move=BLACK, ply=1, previous=None):
        """A position from an ASCII board (see `parse_board`); `previous` is another one."""
        black, white = parse_board(text)
        prev_black, prev_white = parse_board(previous) if previous is not None else (black, white)
        return cls(black, white, to_move, ply, prev_black, prev_white)

    def stones(self, colour):
        return self.black if colour == BLACK else self.white

    @property
    def is_over(self):
        return self.ended or self.ply > MAX_PLY

    @property
    def pass_ends_game(self):
        """A pass now ends the game: the opponent just passed, or Black is at ply 1."""
        return self.black == self.prev_black and self.white == self.prev_white

    def mover_view(self):
        """`(own, opp, previous own, previous opp)` bitboards, seen from the side to move."""
        if self.to_move == BLACK:
            return self.black, self.white, self.prev_black, self.prev_white
        return self.white, self.black, self.prev_white, self.prev_black

    def try_play(self, move):
        """The Position after `move`, or the reason string when it is illegal."""
        if self.is_over:
            return GAME_OVER
        if move == PASS:
            return Position(self.black, self.white, other(self.to_move), self.ply + 1,
                            self.black, self.white, self.pass_ends_game)
        if not (isinstance(move, int) and 0 <= move < NUM_POINTS):
            return OFF_BOARD
        own, opp, ko_own, ko_opp = self.mover_view()
        result = place_stone(own, opp, move, ko_own, ko_opp)
        if isinstance(result, str):
            return result
        own, opp = result
        black, white = (own, opp) if self.to_move == BLACK else (opp, own)
        return Position(black, white, other(self.to_move), self.ply + 1, self.black, self.white)

    def play(self, move):
        """The Position after `move`; raises IllegalMove with the referee's reason."""
        result = self.try_play(move)
        if isinstance(result, str):
            raise IllegalMove(move, result)
        return result

    def is_legal(self, move):
        return not isinstance(self.try_play(move), str)

    def legal_placements(self):
        """Every point the side to move may play on, in point order."""
        if self.is_over:
            return []
        own, opp, ko_own, ko_opp = self.mover_view()
        return [p for p in points_of(FULL ^ own ^ opp)
                if not isinstance(place_stone(own, opp, p, ko_own, ko_opp), str)]

    def legal_moves(self):
        """Legal placements then PASS, which the referee always accepts while the game runs."""
        if self.is_over:
            return []
        return self.legal_placements() + [PASS]

    def captures_by(self, move):
        """The number of opponent stones `move` would capture (0 for a pass)."""
        after = self.play(move)
        return popcount(self.stones(other(self.to_move))) - popcount(after.stones(other(self.to_move)))

    def score(self):
        """Black stones minus (white stones + komi): positive means Black is ahead."""
        return margin(popcount(self.black) - popcount(self.white), BLACK)

    def winner(self):
        """The colour the referee would declare if the game ended now. Ties are impossible."""
        return BLACK if black_wins(self.black, self.white) else WHITE

    def key(self):
        """A hashable key: equal keys mean the same future under the rules."""
        return (self.black, self.white, self.to_move, self.ply, self.prev_black,
                self.prev_white, self.ended)

    def transformed(self, symmetry):
        """The same position seen through one of the 8 board symmetries (0 is identity)."""
        return Position(transform_bits(self.black, symmetry), transform_bits(self.white, symmetry),
                        self.to_move, self.ply, transform_bits(self.prev_black, symmetry),
                        transform_bits(self.prev_white, symmetry), self.ended)

    def __eq__(self, other_position):
        return isinstance(other_position, Position) and self.key() == other_position.key()

    def __ne__(self, other_position):
        return not self == other_position

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "Position(ply={}, to_move={}, ended={},\n{})".format(
            self.ply, COLOUR_NAMES[self.to_move], self.ended, board_to_text(self.black, self.white))


# ---- symmetries ---------------------------------------------------------------------------

def _symmetric_point(point, symmetry):
    row, col = to_coord(point)
    if symmetry & 4:
        row, col = col, row
    if symmetry & 2:
        row = SIZE - 1 - row
    if symmetry & 1:
        col = SIZE - 1 - col
    return row * SIZE + col


NUM_SYMMETRIES = 8
SYMMETRIC_POINT = [[_symmetric_point(p, s) for p in range(NUM_POINTS)] + [PASS]
                   for s in range(NUM_SYMMETRIES)]
INVERSE_SYMMETRY = [next(t for t in range(NUM_SYMMETRIES)
                         if all(SYMMETRIC_POINT[t][SYMMETRIC_POINT[s][p]] == p
                                for p in range(NUM_POINTS)))
                    for s in range(NUM_SYMMETRIES)]
# One lookup per row instead of one per stone: _ROW_IMAGE[s][row][row_bits] is a bitboard.
_ROW_IMAGE = [[[sum(1 << SYMMETRIC_POINT[s][row * SIZE + col]
                    for col in range(SIZE) if row_bits >> col & 1)
                for row_bits in range(1 << SIZE)]
               for row in range(SIZE)]
              for s in range(NUM_SYMMETRIES)]


def transform_bits(bits, symmetry):
    image = 0
    for row_table in _ROW_IMAGE[symmetry]:
        image |= row_table[bits & 31]
        bits >>= SIZE
    return image


def canonical_symmetry(position):
    """The symmetry that shows `position` in its canonical frame: the lowest one whose image has
    the smallest `(black, white, ko point)`. Every symmetric image of a position has the same
    canonical image, and the ko point is all of the previous board that its future depends on,
    so a search run in that frame plays every image alike."""
    ko = ko_point(*position.mover_view())
    return min(range(NUM_SYMMETRIES), key=lambda symmetry: (
        transform_bits(position.black, symmetry), transform_bits(position.white, symmetry),
        NO_KO if ko == NO_KO else SYMMETRIC_POINT[symmetry][ko], symmetry))


# ---- text boards ---------------------------------------------------------------------------

def parse_board(text):
    """`(black, white)` from 5 rows of `X`, `O`, `.` (spaces ignored) or of digits 0/1/2."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a board is {0} rows of {0} points: {1!r}".format(SIZE, text))
    black = white = 0
    for row, line in enumerate(rows):
        for col, char in enumerate(line):
            if char in "X1":
                black |= BIT[row * SIZE + col]
            elif char in "O2":
                white |= BIT[row * SIZE + col]
            elif char not in ".0":
                raise ValueError("unknown point {!r} in board {!r}".format(char, text))
    return black, white


def board_to_text(black, white):
    """The board as `parse_board` reads it: rows of STONE_CHARS, points apart by a space."""
    rows = []
    for row in range(SIZE):
        rows.append(" ".join(
            STONE_CHARS[BLACK if black & BIT[row * SIZE + col] else
                        WHITE if white & BIT[row * SIZE + col] else EMPTY]
            for col in range(SIZE)))
    return "\n".join(rows)


def board_to_digits(black, white):
    """The 5 rows of the course files, `0`/`1`/`2` per point."""
    return ["".join("1" if black & BIT[row * SIZE + col] else "2" if white & BIT[row * SIZE + col]
                    else "0" for col in range(SIZE)) for row in range(SIZE)]


# ---- reachable boards ------------------------------------------------------------------

def dead_group(black, white):
    """A point of some chain without liberties, or None: no reachable board has one."""
    empty = FULL ^ black ^ white
    for stones in (black, white):
        unchecked = stones
        while unchecked:
            chain = group_of(stones, unchecked & -unchecked)
            if not dilate(chain) & empty:
                return points_of(chain)[0]
            unchecked &= ~chain
    return None
