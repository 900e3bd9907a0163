"""The rules of docs/rules.md, one test per rule, boards written as ASCII."""

import random

import pytest

import course_io
import go_board
from go_board import BLACK, PASS, WHITE, IllegalMove, Position, from_coord
from littlego.bench.positions import game_positions

# Seeded games for the ko tests: captures of single stones whenever there is one.
KO_GAMES_SEED = 3
KO_GAME_POSITIONS = 4000
KO_GAMES_PASS_RATE = 0.05
KO_BANS_AT_LEAST = 50  # positions where ko forbids a point (77 with this seed)


def point(row, col):
    return from_coord(row, col)


def board(position):
    return go_board.board_to_text(position.black, position.white)


def ascii_board(text):
    return go_board.board_to_text(*go_board.parse_board(text))


def test_single_stone_capture():
    position = Position.from_text("""
        . X . . .
        X O X . .
        . . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=7)
    after = position.play(point(2, 1))
    assert board(after) == ascii_board("""
        . X . . .
        X . X . .
        . X . . .
        . . . . .
        . . . . .""")
    assert position.captures_by(point(2, 1)) == 1


def test_one_placement_captures_two_groups():
    position = Position.from_text("""
        O X . X O
        . O . O .
        . . . . .
        . . . . .
        . . . . .""", to_move=WHITE, ply=8)
    after = position.play(point(0, 2))
    assert board(after) == ascii_board("""
        O . O . O
        . O . O .
        . . . . .
        . . . . .
        . . . . .""")
    assert position.captures_by(point(0, 2)) == 2


def test_capture_of_a_two_stone_chain():
    position = Position.from_text("""
        . O O X .
        . X X . .
        . . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=7)
    after = position.play(point(0, 0))
    assert board(after) == ascii_board("""
        X . . X .
        . X X . .
        . . . . .
        . . . . .
        . . . . .""")


def test_single_stone_suicide_is_illegal():
    position = Position.from_text("""
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .""", to_move=WHITE, ply=4)
    with pytest.raises(IllegalMove) as raised:
        position.play(point(0, 0))
    assert raised.value.reason == go_board.SUICIDE
    assert point(0, 0) not in position.legal_placements()


def test_multi_stone_suicide_filling_own_last_liberty():
    position = Position.from_text("""
        O O . X .
        X X X . .
        . . . . .
        . . . . .
        . . . . .""", to_move=WHITE, ply=8)
    assert position.try_play(point(0, 2)) == go_board.SUICIDE


def test_capture_before_suicide_test_makes_the_move_legal():
    position = Position.from_text("""
        . X O . .
        X O . . .
        O . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=7)
    # (0,0) fills the last liberty of Black's own chain and captures nothing.
    assert position.try_play(point(0, 0)) == go_board.SUICIDE
    capturing = Position.from_text("""
        . O X . .
        O X . . .
        X . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=7)
    after = capturing.play(point(0, 0))
    assert board(after) == ascii_board("""
        X . X . .
        . X . . .
        X . . . .
        . . . . .
        . . . . .""")


def test_occupied_point_is_illegal():
    position = Position.from_text("""
        X . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""", to_move=WHITE, ply=2)
    assert position.try_play(point(0, 0)) == go_board.OCCUPIED
    assert position.try_play(25 + 1) == go_board.OFF_BOARD
    with pytest.raises(IllegalMove):
        from_coord(5, 0)


KO_SHAPE = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . ."""


def test_ko_retake_refused_then_allowed_after_an_intervening_move():
    start = Position.from_text(KO_SHAPE, to_move=BLACK, ply=9)
    black_takes = start.play(point(1, 2))
    assert board(black_takes) == ascii_board("""
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . .""")
    with pytest.raises(IllegalMove) as raised:
        black_takes.play(point(1, 1))
    assert raised.value.reason == go_board.KO
    assert point(1, 1) not in black_takes.legal_placements()
    # White plays elsewhere, Black answers elsewhere: the ko may now be retaken.
    later = black_takes.play(point(4, 4)).play(point(4, 0))
    retaken = later.play(point(1, 1))
    assert not (retaken.black | retaken.white) & go_board.BIT[point(1, 2)]


def test_ko_compares_with_the_previous_board_given_by_the_referee():
    # The same shape with a previous board that is not the pre-capture one: no ko.
    current = """
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . ."""
    unrelated_previous = """
        . X O . .
        X . . O .
        . X O . .
        . . . . .
        . . . . ."""
    position = Position.from_text(current, to_move=WHITE, ply=10, previous=unrelated_previous)
    assert position.is_legal(point(1, 1))


def test_ko_point_is_where_a_retake_would_repeat_the_previous_board():
    black_takes = Position.from_text(KO_SHAPE, to_move=BLACK, ply=9).play(point(1, 2))
    assert go_board.ko_point(*black_takes.mover_view()) == point(1, 1)
    later = black_takes.play(point(4, 4)).play(point(4, 0))
    assert go_board.ko_point(*later.mover_view()) == go_board.NO_KO
    # The same stones after a pass (the previous board is the current one): no ban.
    passed = Position(black_takes.black, black_takes.white, WHITE, 10)
    assert go_board.ko_point(*passed.mover_view()) == go_board.NO_KO


def test_ko_point_agrees_with_place_stone_along_games_full_of_kos():
    # Every empty point where place_stone answers KO, on seeded games that take single stones
    # whenever they can: exactly ko_point's, and ko_ban_after's for the move that led there.
    rng = random.Random(KO_GAMES_SEED)
    bans = 0
    for position in game_positions(rng, KO_GAME_POSITIONS, KO_GAMES_PASS_RATE, 1.0, True):
        own, opp, prev_own, prev_opp = position.mover_view()
        refused = [p for p in go_board.points_of(go_board.FULL ^ own ^ opp)
                   if go_board.place_stone(own, opp, p, prev_own, prev_opp) == go_board.KO]
        ko = go_board.ko_point(own, opp, prev_own, prev_opp)
        assert refused == ([] if ko == go_board.NO_KO else [ko])
        placed = opp & ~prev_opp
        if prev_own & ~own and placed:
            assert go_board.ko_ban_after(placed.bit_length() - 1, prev_own & ~own, opp, own) == ko
        bans += bool(refused)
    assert bans >= KO_BANS_AT_LEAST


def test_needed_diff_is_the_smallest_winning_stone_difference():
    assert go_board.needed_diff(BLACK) == 3  # 3 - 2.5 > 0
    assert go_board.needed_diff(WHITE) == -2  # -2 + 2.5 > 0
    for colour in (BLACK, WHITE):
        needed = go_board.needed_diff(colour)
        assert go_board.margin(needed - 1, colour) < 0 < go_board.margin(needed, colour)


def test_pass_makes_previous_equal_current_and_a_second_pass_ends_the_game():
    position = Position.from_text("""
        . . . . .
        . X . . .
        . . O . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=3, previous="""
        . . . . .
        . X . . .
        . . . . .
        . . . . .
        . . . . .""")
    assert not position.pass_ends_game
    passed = position.play(PASS)
    assert (passed.to_move, passed.ply, passed.is_over) == (WHITE, 4, False)
    assert (passed.prev_black, passed.prev_white) == (passed.black, passed.white)
    assert passed.pass_ends_game
    ended = passed.play(PASS)
    assert ended.is_over
    assert ended.legal_moves() == []
    assert ended.try_play(point(0, 0)) == go_board.GAME_OVER


def test_black_pass_at_ply_one_ends_the_game_and_white_wins():
    ended = Position().play(PASS)
    assert ended.is_over
    assert ended.winner() == WHITE
    assert ended.score() == -2.5


def test_game_ends_after_ply_24_and_is_scored_with_komi():
    position = Position.from_text("""
        X X X X .
        X X X . X
        O O O O O
        O O O O .
        . . . . .""", to_move=WHITE, ply=24)
    final = position.play(point(4, 0))
    assert final.is_over and final.ply == 25
    # 8 black against 10 white + 2.5.
    assert final.score() == 8 - 10 - 2.5
    assert final.winner() == WHITE
    black_by_half = Position.from_text("""
        X X X X X
        X X X . .
        O O O O O
        . . . . .
        . . . . .""", ply=25)
    assert black_by_half.score() == 0.5 and black_by_half.winner() == BLACK


def test_exact_legal_move_set():
    position = Position.from_text("""
        . X O . O
        X X O O .
        O O O . O
        . . . . .
        X . . . .""", to_move=BLACK, ply=12)
    legal = sorted(go_board.to_coord(p) for p in position.legal_placements())
    # (0,0) fills Black's own last liberty; (0,3) and (1,4) are surrounded by White stones
    # that keep other liberties: all three are suicide.
    assert legal == [(2, 3), (3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4)]
    assert position.legal_moves()[-1] == PASS


def test_symmetries_map_boards_and_moves_consistently():
    position = Position.from_text("""
        X O . . .
        . X . . .
        . . . . .
        . . . . O
        . . . . .""", to_move=BLACK, ply=5)
    images = {position.transformed(s).key() for s in range(go_board.NUM_SYMMETRIES)}
    assert len(images) == 8
    for symmetry in range(go_board.NUM_SYMMETRIES):
        inverse = go_board.INVERSE_SYMMETRY[symmetry]
        image = position.transformed(symmetry)
        assert image.transformed(inverse) == position
        moved = position.play(point(2, 2)).transformed(symmetry)
        assert image.play(go_board.SYMMETRIC_POINT[symmetry][point(2, 2)]) == moved


def test_every_image_of_a_position_has_the_same_canonical_image():
    # After Black's capture in the ko shape, simple ko forbids White (1,1): the ko point is part
    # of what the canonical frame compares, so every image lands on one position, ban included.
    black_takes = Position.from_text(KO_SHAPE, to_move=BLACK, ply=9).play(point(1, 2))
    canonical = set()
    for symmetry in range(go_board.NUM_SYMMETRIES):
        image = black_takes.transformed(symmetry)
        framed = image.transformed(go_board.canonical_symmetry(image))
        canonical.add((framed.black, framed.white, go_board.ko_point(*framed.mover_view())))
    assert len(canonical) == 1
    (black, white, ko), = canonical
    assert ko != go_board.NO_KO
    assert (black, white) == min((go_board.transform_bits(black_takes.black, symmetry),
                                  go_board.transform_bits(black_takes.white, symmetry))
                                 for symmetry in range(go_board.NUM_SYMMETRIES))
    # A position every symmetry keeps: the lowest, the identity.
    assert go_board.canonical_symmetry(Position().play(point(2, 2))) == 0


def liberties(chain, own, opp):
    """Every empty point next to the chain: the plain definition."""
    return go_board.dilate(chain) & ~(own | opp) & go_board.FULL


def _place_stone_by_definition(own, opp, point, ko_own, ko_opp):
    """place_stone's rule read straight from rules.md: whole chains, whole liberty sets."""
    bit = 1 << point
    if (own | opp) & bit:
        return go_board.OCCUPIED
    own |= bit
    captured = 0
    for neighbour in go_board.points_of(go_board.NEIGHBOURS[point] & opp):
        chain = go_board.group_of(opp, 1 << neighbour)
        if not liberties(chain, own, opp):
            captured |= chain
    opp &= ~captured
    if captured and own == ko_own and opp == ko_opp:
        return go_board.KO
    if not liberties(go_board.group_of(own, bit), own, opp):
        return go_board.SUICIDE
    return own, opp


def test_place_stone_agrees_with_its_definition_on_random_boards():
    # Any boards, reachable or not (chains without liberties included), every point; and each
    # capture again with its own result as the previous board, which must be ko.
    import random
    rng = random.Random(561)
    captures = 0
    for _ in range(3000):
        density = rng.random()
        own = opp = 0
        for p in range(go_board.NUM_POINTS):
            if rng.random() < density:
                if rng.random() < 0.5:
                    own |= 1 << p
                else:
                    opp |= 1 << p
        for p in range(go_board.NUM_POINTS):
            expected = _place_stone_by_definition(own, opp, p, -1, -1)
            assert go_board.place_stone(own, opp, p, -1, -1) == expected
            if isinstance(expected, tuple) and expected[1] != opp:
                captures += 1
                assert go_board.place_stone(own, opp, p, *expected) == go_board.KO
    assert captures > 1000


def test_plies_left_counts_the_next_ply_itself():
    # 24 plies at most: Black's first move has all 24 ahead, the last ply only itself.
    assert (go_board.plies_left(1), go_board.plies_left(go_board.MAX_PLY)) == (24, 1)
    assert go_board.plies_left(go_board.MAX_PLY + 1) == 0  # the game is over


# ---- the move codec -----------------------------------------------------------------------

def test_every_move_goes_to_text_and_back():
    moves = list(range(go_board.NUM_POINTS)) + [PASS]
    texts = [go_board.move_to_text(move) for move in moves]
    assert texts[:6] == ["0,0", "0,1", "0,2", "0,3", "0,4", "1,0"]
    assert texts[-2:] == ["4,4", "PASS"]
    assert [go_board.move_from_text(text) for text in texts] == moves


def test_every_move_goes_to_the_referees_action_and_back():
    moves = list(range(go_board.NUM_POINTS)) + [PASS]
    actions = [go_board.move_to_action(move) for move in moves]
    assert actions[:2] + actions[-2:] == [(0, 0), (0, 1), (4, 4), "PASS"]
    assert [go_board.move_from_action(action) for action in actions] == moves
    # What the referee's reading of output.txt gives (course_io.parse_action), off the board too.
    assert go_board.move_from_action(course_io.parse_action(" 2 , 3 ")) == from_coord(2, 3)
    with pytest.raises(IllegalMove) as raised:
        go_board.move_from_action(course_io.parse_action("5,0"))
    assert raised.value.reason == go_board.OFF_BOARD


@pytest.mark.parametrize("text", ["", "pass", "2", "2,2,2", "a,b", "2;2", None, 7, b"2,2"])
def test_text_that_names_no_move_is_not_a_move(text):
    with pytest.raises(go_board.NotAMove):
        go_board.move_from_text(text)


@pytest.mark.parametrize("text", ["5,0", "0,5", "-1,2"])
def test_a_point_off_the_board_is_an_illegal_move(text):
    with pytest.raises(IllegalMove) as raised:
        go_board.move_from_text(text)
    assert raised.value.reason == go_board.OFF_BOARD
