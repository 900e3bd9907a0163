"""SGF for loadsgf and printsgf (littlego/gtp/sgf_game.py): the main line read, setup stones,
passes, errors in one line; what it writes, read back by itself and by sgfmill."""

import pytest
from sgfmill import sgf

import go_board
from go_board import BLACK, PASS, WHITE
from littlego.gtp import sgf_game


def point(row, col):
    return go_board.from_coord(row, col)


def test_the_main_line_with_passes_comments_and_variations():
    text = ("(;FF[4]GM[1]SZ[5]KM[6.5]C[a comment with \\] and ;(]"
            ";B[cc];W[dd]C[x](;B[];W[tt];B[ab])(;B[ee]))")
    game = sgf_game.read_game(text)
    assert (game.black, game.white, game.to_move) == (0, 0, BLACK)
    assert game.moves == [(BLACK, point(2, 2)), (WHITE, point(3, 3)), (BLACK, PASS),
                          (WHITE, PASS), (BLACK, point(1, 0))]


def test_setup_stones_a_rectangle_and_the_player_to_move():
    game = sgf_game.read_game("(;SZ[5]AB[aa:bb][ee]AW[ca]PL[W];W[dc])")
    assert go_board.points_of(game.black) == [point(0, 0), point(0, 1), point(1, 0), point(1, 1),
                                              point(4, 4)]
    assert go_board.points_of(game.white) == [point(0, 2)]
    assert game.to_move == WHITE and game.moves == [(WHITE, point(2, 3))]
    # FF[3]'s long property names; no PL: the first move's colour moves first.
    game = sgf_game.read_game("(;AddWhite[cc];W[bb])")
    assert (game.white, game.to_move) == (1 << point(2, 2), WHITE)


@pytest.mark.parametrize("text, reason", [
    ("(;SZ[19];B[cc])", "not a 5x5 game: SZ[19]"),
    ("(;B[ff])", "'ff' is not a point of the 5x5 board"),
    ("(;B[cc];AB[aa])", "setup stones after the first move"),
    ("(;AB[cc]AW[cc])", "a point with setup stones of both colours"),
    ("(;PL[X])", "PL[X] is not a colour"),
    ("(;B[cc] 5)", "not SGF near '5)'"), ("no game here", "no game in the file"),
    ("", "no game in the file"),
    ("([cc])", "a value outside a property"),
])
def test_what_cannot_be_loaded_says_why(text, reason):
    with pytest.raises(sgf_game.SgfError) as error:
        sgf_game.read_game(text)
    assert str(error.value) == reason


def test_what_it_writes_reads_back_here_and_in_sgfmill():
    start = go_board.Position(1 << point(0, 0), 1 << point(4, 4), WHITE)
    moves = [(WHITE, point(2, 2)), (BLACK, point(1, 2)), (WHITE, PASS), (WHITE, point(0, 1))]
    text = sgf_game.write_game(start, moves, "Little-Go:1", "W+2.5")
    assert text == ("(;FF[4]GM[1]CA[UTF-8]AP[Little-Go:1]SZ[5]KM[2.5]RU[Little-Go]AB[aa]AW[ee]"
                    "PL[W]RE[W+2.5];W[cc];B[cb];W[];W[ba])\n")
    game = sgf_game.read_game(text)
    assert (game.black, game.white, game.to_move, game.moves) == (
        start.black, start.white, WHITE, moves)
    read = sgf.Sgf_game.from_string(text)
    assert read.get_size() == 5 and read.get_komi() == 2.5
    assert [node.get_move() for node in read.get_main_sequence()[1:]] == [
        ("w", (2, 2)), ("b", (3, 2)), ("w", None), ("w", (4, 1))]  # sgfmill: row from the bottom
