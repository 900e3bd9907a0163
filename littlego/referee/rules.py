"""The course referee's rules, written as plainly as possible: the executable form of rules.md.

A board is a 5x5 list of lists of ints (0 empty, 1 Black, 2 White), indexed `board[i][j]`.
Start at `try_place`: it applies the four legality steps of rules.md in their order and is the
only place a stone is ever put on a board. `winner` is the stones-only scoring.

This module deliberately shares no code with go_board.py: the differential test plays the two
against each other, so a bug has to be made twice, in two different styles, to go unnoticed.
Standard library only, Python 3.7 syntax: judge mode runs on the course's Python.
"""

SIZE = 5
EMPTY, BLACK, WHITE = 0, 1, 2
MAX_MOVE = SIZE * SIZE - 1  # the course's max_move: the game ends after this ply
KOMI = SIZE / 2
PASS = "PASS"  # the action that places nothing; any other action is a point (i, j)

# Why a placement is refused (the order is the order of the checks).
OFF_BOARD = "off the board"
OCCUPIED = "point is occupied"
SUICIDE = "suicide"
KO = "ko: the board would repeat the previous board"


def other(colour):
    return 3 - colour


def empty_board():
    return [[EMPTY] * SIZE for _ in range(SIZE)]


def copy_board(board):
    return [row[:] for row in board]


def neighbours(i, j):
    points = []
    for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        ni, nj = i + di, j + dj
        if 0 <= ni < SIZE and 0 <= nj < SIZE:
            points.append((ni, nj))
    return points


# Looked up, not recomputed: the differential test calls try_place millions of times.
NEIGHBOURS = {(i, j): neighbours(i, j) for i in range(SIZE) for j in range(SIZE)}


def group_at(board, i, j):
    """Every point of the chain through (i, j), found with an explicit stack."""
    colour = board[i][j]
    group = {(i, j)}
    stack = [(i, j)]
    while stack:
        point = stack.pop()
        for ni, nj in NEIGHBOURS[point]:
            if board[ni][nj] == colour and (ni, nj) not in group:
                group.add((ni, nj))
                stack.append((ni, nj))
    return group


def has_liberty(board, group):
    for point in group:
        for ni, nj in NEIGHBOURS[point]:
            if board[ni][nj] == EMPTY:
                return True
    return False


def remove_dead_groups(board, colour):
    """Take every chain of `colour` without a liberty off `board`; return how many stones."""
    checked = set()
    dead = set()
    for i in range(SIZE):
        for j in range(SIZE):
            if board[i][j] == colour and (i, j) not in checked:
                group = group_at(board, i, j)
                checked |= group
                if not has_liberty(board, group):
                    dead |= group
    for i, j in dead:
        board[i][j] = EMPTY
    return len(dead)


def try_place(previous, current, i, j, colour):
    """Put a stone of `colour` at (i, j) on `current`, as the referee checks and plays it.

    Returns `(board_after, None)` for a legal move (captures done, inputs untouched) or
    `(None, reason)`. `previous` is the board of input.txt's lines 2-6, used only for ko.
    """
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        return None, OFF_BOARD
    if current[i][j] != EMPTY:
        return None, OCCUPIED
    board = copy_board(current)
    board[i][j] = colour
    if has_liberty(board, group_at(board, i, j)):
        # The referee stops checking here; an opponent chain can still have lost its last
        # liberty to this stone, and it is removed all the same.
        remove_dead_groups(board, other(colour))
        return board, None
    remove_dead_groups(board, other(colour))
    if not has_liberty(board, group_at(board, i, j)):
        return None, SUICIDE
    if board == previous:
        return None, KO
    return board, None


def legal_placements(previous, current, colour):
    """Every (i, j) the referee would accept from `colour`, row by row."""
    return [(i, j) for i in range(SIZE) for j in range(SIZE)
            if try_place(previous, current, i, j, colour)[1] is None]


def count_stones(board, colour):
    return sum(row.count(colour) for row in board)


def winner(board):
    """Stones on the board only; White gets the komi, so there is never a tie."""
    return BLACK if count_stones(board, BLACK) > count_stones(board, WHITE) + KOMI else WHITE
