"""littlego/analysis/vertices.py: GTP vertices both ways over the whole board, what is no vertex,
the side to move as GUIs set it, and a result as GTP and SGF write it."""

import pytest

import go_board
from littlego.analysis import vertices


def test_every_point_and_the_pass_go_both_ways():
    assert vertices.vertex_text(go_board.from_coord(0, 0)) == "A5"
    assert vertices.vertex_text(go_board.from_coord(4, 4)) == "E1"
    assert vertices.vertex_text(go_board.PASS) == "pass"
    for move in range(go_board.NUM_POINTS + 1):
        text = vertices.vertex_text(move)
        assert vertices.parse_vertex(text) == vertices.parse_vertex(text.lower()) == move
    assert vertices.parse_vertex(" PASS ") == go_board.PASS


@pytest.mark.parametrize("text", ["I3", "F1", "A6", "A0", "C", "", "3C", "pas"])
def test_what_names_no_point_of_the_board_is_refused(text):
    with pytest.raises(vertices.NotAVertex):
        vertices.parse_vertex(text)


def test_the_side_to_move_follows_the_colour_played():
    position = go_board.Position().play(go_board.from_coord(2, 2))
    assert vertices.with_mover(position, go_board.WHITE) is position
    black_again = vertices.with_mover(position, go_board.BLACK)
    assert (black_again.to_move, black_again.ply, black_again.black) == (
        go_board.BLACK, position.ply, position.black)


def test_the_result_is_written_as_gtp_and_sgf_write_it():
    assert vertices.result_text(go_board.Position()) == "W+2.5"
    centre = go_board.Position().play(go_board.from_coord(2, 2))
    assert vertices.result_text(centre) == "W+1.5"
