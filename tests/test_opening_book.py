"""The opening book: its packed format, and the committed book's answers.

The format: keys of known ASCII boards computed by hand, the ko and pass states, the record
codec, the move mapped back through all 8 symmetries, the binary search at both ends and
between records, and every way a file can be unusable (an empty book, one line on stderr,
never a crash). The committed book: the centre first, the proven third moves of rules.md,
legal answers only, in every image; and a seeded sample checked against a brute-force reading
of the file written here from the format's description alone.
"""

import collections
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

import agent_settings
import course_io
import decision_log
import go_board
import opening_book
from go_board import (BLACK, INVERSE_SYMMETRY, NUM_SYMMETRIES, PASS, SYMMETRIC_POINT, WHITE,
                      Position, from_coord)
from littlego import solver
from littlego.bench.positions import random_positions
from littlego.grader import bundle
from littlego.paths import REPO_ROOT
from littlego.referee import rules
from littlego.solver import repertoire, strategy

CENTRE = from_coord(2, 2)
BOOK = opening_book.read()
UNUSABLE = "opening_book: cannot use "


def held_positions(rng, count):
    """`count` positions the committed book answers, met along seeded games in which the side
    the book answers follows it and the other side plays uniformly at random."""
    held = []
    while len(held) < count:
        position = Position()
        while not position.is_over and len(held) < count:
            answer = BOOK.lookup(position)
            if answer is not None:
                held.append(position)
                position = position.play(answer)
            else:
                position = position.play(rng.choice(position.legal_moves()))
    return held


def key_after(position, move):
    return opening_book.position_key(position.play(move))[0]


def write_book(path, pairs, answered=None):
    """A book at `path` answering each `(position, move)`; returns the path as text."""
    answers = dict(opening_book.record(position, move) for position, move in pairs)
    opening_book.write(str(path), answers, {"answered_plies": answered or {}, "built_with": {}})
    return str(path)


def assert_one_line_on_stderr(capsys):
    logged = capsys.readouterr().err
    assert logged.count("\n") == 1 and logged.startswith(UNUSABLE), logged


# ---- keys -------------------------------------------------------------------------------------

# Black (0,0), White (0,1), Black to move at ply 3 after White's move: board3 = 1 + 2 * 3 = 7,
# the smallest image (only the diagonal mirror keeps (0,0), and it moves (0,1) to point 5).
CORNER_PAIR = Position.from_text("""
    X O . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .""", to_move=BLACK, ply=3, previous="""
    X . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .""")
# The same shape in the opposite corner: its image under the half turn is CORNER_PAIR.
OTHER_CORNER_PAIR = Position.from_text("""
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . O X""", to_move=BLACK, ply=3, previous="""
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . X""")
CORNER_PAIR_KEY = (7 * 24 + (3 - 1)) * 27 + 0


def test_the_key_of_a_known_board_is_computed_by_hand():
    assert opening_book.position_key(CORNER_PAIR) == (CORNER_PAIR_KEY, 0)


def test_symmetric_positions_share_a_key_and_each_names_its_own_symmetry():
    [half_turn] = [symmetry for symmetry in range(NUM_SYMMETRIES)
                   if SYMMETRIC_POINT[symmetry][24] == 0 and SYMMETRIC_POINT[symmetry][23] == 1]
    assert opening_book.position_key(OTHER_CORNER_PAIR) == (CORNER_PAIR_KEY, half_turn)
    for symmetry in range(NUM_SYMMETRIES):
        assert opening_book.position_key(CORNER_PAIR.transformed(symmetry))[0] == CORNER_PAIR_KEY


def test_the_empty_board_key_is_ply_one_with_a_game_ending_pass():
    # board3 0, ply 1, state 1: a pass at ply 1 ends the game.
    assert opening_book.position_key(Position()) == (1, 0)
    # As a record: (1 * 26 + 12 (the centre)) * 27 + 0 (a win) = 1026 = 16 * 64 + 2, "F1".
    assert opening_book.encode((1 * opening_book.MOVES + CENTRE) * opening_book.REPLY_COUNTS) \
        == "--------F1"


def test_an_opponent_pass_is_part_of_the_key():
    # After White's pass Black's pass would end the game: a different future, a different key.
    played = strategy.position_after(["2,2", "2,1"])
    passed = strategy.position_after(["2,2", "PASS"])
    assert opening_book.position_key(passed)[0] % opening_book.STATES == \
        opening_book.STATE_PASS_ENDS_GAME
    assert opening_book.position_key(played)[0] % opening_book.STATES == opening_book.STATE_NORMAL


def ko_position():
    """Black (0,1),(1,0),(2,1) and White (0,2),(1,3),(2,2) around (1,1) and (1,2); White plays
    into (1,1), Black takes it from (1,2): White may not retake at once."""
    position = Position()
    for black, white in [((0, 1), (0, 2)), ((1, 0), (1, 3)), ((2, 1), (2, 2)), ((4, 4), (1, 1))]:
        position = position.play(from_coord(*black)).play(from_coord(*white))
    return position.play(from_coord(1, 2))


def test_a_ko_ban_is_part_of_the_key_in_the_images_frame():
    taken = ko_position()
    assert not taken.is_legal(from_coord(1, 1))
    assert go_board.ko_point(*taken.mover_view()) == from_coord(1, 1)
    for symmetry in range(NUM_SYMMETRIES):
        image = taken.transformed(symmetry)
        key, image_symmetry = opening_book.position_key(image)
        banned = SYMMETRIC_POINT[image_symmetry][SYMMETRIC_POINT[symmetry][from_coord(1, 1)]]
        assert key % opening_book.STATES == opening_book.STATE_KO_BAN + banned
    # The same stones without the ban (White passed instead, then Black passed): no ko state.
    same_stones = Position(taken.black, taken.white, WHITE, taken.ply, taken.black | 1, taken.white)
    assert go_board.ko_point(*same_stones.mover_view()) == go_board.NO_KO
    assert opening_book.position_key(same_stones)[0] % opening_book.STATES == 0
    assert opening_book.position_key(same_stones)[0] // opening_book.STATES == \
        opening_book.position_key(taken)[0] // opening_book.STATES


def test_transpositions_share_a_key():
    # The same stones reached in two orders: the previous boards differ, nothing else does.
    first = strategy.position_after(["2,2", "0,0", "2,3", "4,4"])
    second = strategy.position_after(["2,3", "4,4", "2,2", "0,0"])
    assert (first.prev_black, first.prev_white) != (second.prev_black, second.prev_white)
    assert opening_book.position_key(first) == opening_book.position_key(second)


def test_the_ply_is_part_of_the_key():
    later = Position(CORNER_PAIR.black, CORNER_PAIR.white, BLACK, 5, CORNER_PAIR.prev_black,
                     CORNER_PAIR.prev_white)
    assert opening_book.position_key(later)[0] == CORNER_PAIR_KEY + 2 * opening_book.STATES
    assert [opening_book.key_ply(opening_book.position_key(position)[0])
            for position in (CORNER_PAIR, later, Position())] == [3, 5, 1]


# ---- records ------------------------------------------------------------------------------

def test_every_code_fits_ten_characters_that_sort_as_the_numbers_do():
    assert opening_book.RECORD_CHARS == 10 and opening_book.CODE_LIMIT <= 64 ** 10
    assert opening_book.CODE_LIMIT == 3 ** 25 * 24 * 27 * 26 * 27
    rng = random.Random(5)
    codes = [0, 1, opening_book.CODE_LIMIT - 1] + [rng.randrange(opening_book.CODE_LIMIT)
                                                   for _ in range(2000)]
    texts = [opening_book.encode(code) for code in codes]
    assert all(len(text) == 10 for text in texts)
    assert [opening_book.decode(text) for text in texts] == codes
    assert sorted(texts) == [opening_book.encode(code) for code in sorted(codes)]
    assert opening_book.encode(0) == "----------"
    with pytest.raises(ValueError):
        opening_book.encode(opening_book.CODE_LIMIT)
    with pytest.raises(ValueError):
        opening_book.decode("----!-----")


def test_the_move_is_mapped_back_under_each_of_the_8_symmetries(tmp_path):
    move = from_coord(2, 3)
    book = opening_book.read(write_book(tmp_path / "book.txt", [(CORNER_PAIR, move)]))
    for symmetry in range(NUM_SYMMETRIES):
        assert book.lookup(CORNER_PAIR.transformed(symmetry)) == SYMMETRIC_POINT[symmetry][move]



def test_a_try_is_read_back_with_the_opponents_winning_replies_under_each_symmetry(tmp_path):
    move = from_coord(2, 3)
    key, stored = opening_book.record(CORNER_PAIR, move)
    won_key, won_move = opening_book.record(LONE_CORNER, CENTRE)
    path = str(tmp_path / "book.txt")
    opening_book.write(path, {won_key: won_move}, {"answered_plies": {}, "built_with": {}},
                       tries={key: (stored, 3)})
    book = opening_book.read(path)
    assert len(book) == 2
    for symmetry in range(NUM_SYMMETRIES):
        image = CORNER_PAIR.transformed(symmetry)
        assert book.entry(image) == opening_book.Entry(SYMMETRIC_POINT[symmetry][move], 3)
        assert book.lookup(image) is None  # a try is no winning move
    assert book.entry(LONE_CORNER) == opening_book.Entry(CENTRE, 0)
    assert book.lookup(LONE_CORNER) == CENTRE


@pytest.mark.parametrize("tries", [{"win": (0, 1)}, {"other": (0, 0)}, {"other": (0, 27)},
                                   {"other": (26, 1)}])
def test_a_try_that_is_also_a_win_or_out_of_range_is_refused(tmp_path, tries):
    key, move = opening_book.record(CORNER_PAIR, from_coord(2, 3))
    tries = {key if name == "win" else key + 1: value for name, value in tries.items()}
    with pytest.raises(ValueError):
        opening_book.write(str(tmp_path / "book.txt"), {key: move}, {}, tries=tries)
    assert not os.path.exists(str(tmp_path / "book.txt"))


# Black at (4,4) alone, White to move: two symmetries give the smallest key, Black at point 0
# (the half turn and the anti-diagonal mirror), so any move not on the diagonal is stored in
# one of two frames, and the reader must pick the writer's.
LONE_CORNER = Position().play(from_coord(4, 4))


def test_a_tie_between_symmetries_stores_and_reads_the_lowest_ones_frame(tmp_path):
    tied = [symmetry for symmetry in range(NUM_SYMMETRIES)
            if opening_book.image_key(LONE_CORNER, symmetry) ==
            opening_book.position_key(LONE_CORNER)[0]]
    assert len(tied) == 2 and opening_book.position_key(LONE_CORNER)[1] == tied[0] > 0
    for move in LONE_CORNER.legal_moves():
        book = opening_book.read(write_book(tmp_path / "book.txt", [(LONE_CORNER, move)]))
        assert book.lookup(LONE_CORNER) == move


def test_a_book_pass_is_read_back(tmp_path):
    after_centre = Position().play(CENTRE)
    book = opening_book.read(write_book(tmp_path / "book.txt", [(after_centre, PASS)]))
    assert book.lookup(after_centre) == PASS


def test_a_record_with_an_illegal_move_is_no_answer(tmp_path, capsys):
    key, symmetry = opening_book.position_key(CORNER_PAIR)
    occupied = SYMMETRIC_POINT[symmetry][from_coord(0, 1)]
    path = str(tmp_path / "book.txt")
    opening_book.write(path, {key: occupied}, {"answered_plies": {}, "built_with": {}})
    assert opening_book.read(path).lookup(CORNER_PAIR) is None
    assert capsys.readouterr().err == ""


def test_the_binary_search_finds_the_first_and_last_records_and_nothing_between(tmp_path):
    # 21 positions of distinct keys; the book holds every second one by key order, so the
    # smallest and largest keys fall before the first record and after the last.
    positions = {}
    for position in random_positions(random.Random(9), 200, 0.1):
        positions.setdefault(opening_book.position_key(position)[0], position)
    ordered = [positions[key] for key in sorted(positions)][:21]
    held = ordered[1::2]
    book = opening_book.read(write_book(
        tmp_path / "book.txt", [(position, position.legal_moves()[-2]) for position in held]))
    assert len(book) == 10
    for index, position in enumerate(ordered):
        expected = position.legal_moves()[-2] if index % 2 else None
        assert book.lookup(position) == expected, index


def test_the_same_answers_give_the_same_bytes_and_the_provenance_sits_beside(tmp_path):
    answers = {opening_book.position_key(position)[0]: index % opening_book.MOVES
               for index, position in enumerate(random_positions(random.Random(3), 50, 0.1))}
    header = {"answered_plies": {BLACK: 5, WHITE: 6}, "built_with": {"by": "a test"}}
    first, second = str(tmp_path / "first.txt"), str(tmp_path / "second.txt")
    opening_book.write(first, answers, header, provenance={"b": 1, "a": [2]})
    opening_book.write(second, dict(sorted(answers.items(), reverse=True)), header,
                       provenance={"a": [2], "b": 1})
    with open(first, "rb") as one, open(second, "rb") as two:
        assert one.read() == two.read()
    with open(str(tmp_path / "first.provenance.json")) as handle:
        assert handle.read() == json.dumps({"a": [2], "b": 1}, indent=0, sort_keys=True) + "\n"
    with open(first) as handle:
        header_line = handle.readline()
    assert json.loads(header_line) == {
        "answered_plies": {"1": 5, "2": 6}, "built_with": {"by": "a test"},
        "format": "littlego-book", "record_chars": 10, "records": len(answers), "version": 3}
    book = opening_book.read(first)
    assert (book.answered_plies(BLACK), book.answered_plies(WHITE)) == (5, 6)
    assert sorted(os.listdir(str(tmp_path))) == [
        "first.provenance.json", "first.txt", "second.provenance.json", "second.txt"]


def test_a_book_read_whole_gives_back_what_was_written_and_writes_the_same_bytes(tmp_path):
    keys = sorted({opening_book.position_key(position)[0]
                   for position in random_positions(random.Random(4), 40, 0.1)})
    answers = {key: index % opening_book.MOVES for index, key in enumerate(keys[:30])}
    tries = {key: (index % opening_book.MOVES, 1 + index % 5)
             for index, key in enumerate(keys[30:])}
    header = {"answered_plies": {"1": 5, "2": 6}, "built_with": {"by": "a test"}}
    first, second = str(tmp_path / "first.txt"), str(tmp_path / "second.txt")
    opening_book.write(first, answers, header, tries=tries)
    assert opening_book.entries(opening_book.read(first)) == (answers, tries)
    assert opening_book.read_header_fields(first) == header
    read_answers, read_tries = opening_book.entries(opening_book.read(first))
    opening_book.write(second, read_answers, opening_book.read_header_fields(first),
                       tries=read_tries)
    with open(first, "rb") as one, open(second, "rb") as two:
        assert one.read() == two.read()


def test_a_move_out_of_range_is_not_written(tmp_path):
    with pytest.raises(ValueError):
        opening_book.write(str(tmp_path / "book.txt"), {1: opening_book.MOVES},
                           {"answered_plies": {}, "built_with": {}})
    assert os.listdir(str(tmp_path)) == []


# ---- unusable files -----------------------------------------------------------------------

def valid_book(tmp_path):
    return write_book(tmp_path / "book.txt", [(Position(), CENTRE), (CORNER_PAIR, from_coord(2, 3))],
                      {BLACK: 1, WHITE: 0})


def replace_header(path, change):
    with open(path, "rb") as handle:
        header, _, records = handle.read().partition(b"\n")
    fields = json.loads(header.decode("ascii"))
    change(fields)
    with open(path, "wb") as handle:
        handle.write(json.dumps(fields).encode("ascii") + b"\n" + records)


def set_field(name, value):
    return lambda path: replace_header(path, lambda fields: fields.__setitem__(name, value))


def drop_field(name):
    return lambda path: replace_header(path, lambda fields: fields.pop(name))


def write_bytes(content):
    def write(path):
        with open(path, "wb") as handle:
            handle.write(content)
    return write


def append_bytes(content):
    def append(path):
        with open(path, "ab") as handle:
            handle.write(content)
    return append


def truncate_by(count):
    return lambda path: os.truncate(path, os.path.getsize(path) - count)


def oversized(path):
    os.truncate(path, opening_book.MAX_BOOK_BYTES + 1)


def fifo(path):
    os.unlink(path)
    os.mkfifo(path)


def missing(path):
    os.unlink(path)


BREAKAGES = [
    pytest.param(missing, id="missing"),
    pytest.param(truncate_by(1), id="truncated by a byte"),
    pytest.param(truncate_by(9), id="truncated by a record"),
    pytest.param(append_bytes(b"---------"), id="a record more than the header says"),
    pytest.param(set_field("records", 3), id="records over the file"),
    pytest.param(set_field("records", True), id="records a boolean"),
    pytest.param(set_field("records", -1), id="records negative"),
    pytest.param(set_field("record_chars", 8), id="another record width"),
    pytest.param(set_field("version", 1), id="another version"),
    pytest.param(set_field("format", "a dictionary"), id="another format"),
    pytest.param(drop_field("answered_plies"), id="no answered plies"),
    pytest.param(set_field("answered_plies", {"1": 25, "2": 0}), id="answered plies past the game"),
    pytest.param(set_field("answered_plies", {"1": "6", "2": 0}), id="answered plies as text"),
    pytest.param(set_field("answered_plies", [6, 6]), id="answered plies a list"),
    pytest.param(write_bytes(b"{\"format\": \"littlego-book\""), id="no header line"),
    pytest.param(write_bytes(b"[" * 100000 + b"]" * 100000 + b"\n"), id="nested 100,000 deep"),
    pytest.param(write_bytes(b"not json\n---------"), id="not JSON"),
    pytest.param(write_bytes(b"[]\n"), id="header a list"),
    pytest.param(write_bytes(b" " * opening_book.MAX_HEADER_BYTES + b"{}\n"), id="header too long"),
    pytest.param(write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe"), id="binary"),
    pytest.param(write_bytes(b""), id="empty file"),
    pytest.param(write_bytes(b"{\"built_with\": {\"max_ply\": 6}, \"positions\": {\"1:0:0:p\": "
                             b"{\"move\": \"2,2\"}}}"), id="the JSON book of version 1"),
    pytest.param(oversized, id="over the size limit"),
    pytest.param(fifo, id="a FIFO"),
]


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_an_unusable_book_file_is_an_empty_book_and_one_line_on_stderr(tmp_path, capsys,
                                                                        breakage):
    path = valid_book(tmp_path)
    assert opening_book.read(path).lookup(Position()) == CENTRE  # usable before
    breakage(path)
    book = opening_book.read(path)
    assert book is opening_book.NO_BOOK and len(book) == 0
    assert_one_line_on_stderr(capsys)
    assert book.lookup(Position()) is None
    assert (book.answered_plies(BLACK), book.answered_plies(WHITE)) == (0, 0)


def test_a_book_spoilt_after_it_was_opened_costs_the_lookup_only(tmp_path, capsys):
    path = valid_book(tmp_path)
    book = opening_book.read(path)
    with open(path, "r+b") as handle:
        handle.seek(-opening_book.RECORD_CHARS, os.SEEK_END)
        handle.write(b"~" * opening_book.RECORD_CHARS)  # CORNER_PAIR's, the larger key
    assert book.lookup(CORNER_PAIR) is None
    assert_one_line_on_stderr(capsys)
    truncate_by(opening_book.RECORD_CHARS)(path)
    assert book.lookup(CORNER_PAIR) is None
    assert_one_line_on_stderr(capsys)
    os.unlink(path)
    assert book.lookup(Position()) is None
    assert_one_line_on_stderr(capsys)
    os.mkfifo(path)  # no writer: a plain open would block
    assert book.lookup(Position()) is None
    assert_one_line_on_stderr(capsys)


# ---- the committed book: the winning side's strategies (solver/strategy.py) ------------------

SAMPLE_LINES = 8
SAMPLE_FROM_PLY = 9


def test_the_header_claims_blacks_moves_through_ply_11_and_whites_through_ply_10():
    assert (BOOK.answered_plies(BLACK), BOOK.answered_plies(WHITE)) == (11, 10)
    assert BOOK.lookup(Position()) == CENTRE


REPERTOIRE_LINES = 300


def test_after_the_centre_white_has_an_entry_wherever_black_takes_it_through_ply_10():
    # White's claim of ply 10 after the centre, on seeded lines where Black plays at random
    # and White follows the book: a try where Black kept its win, a proven win after any slip
    # (the whole proof is `make verify-book`). The tries' first two: (1,2) leaving Black 2
    # winning replies, then one leaving 1 (docs/strength.md).
    rng = random.Random("book:repertoire")
    tries, wins = collections.Counter(), 0
    for _ in range(REPERTOIRE_LINES):
        position = Position().play(CENTRE)
        while not position.is_over and position.ply <= repertoire.REPERTOIRE.last_ply:
            if position.to_move == WHITE:
                entry = BOOK.entry(position)
                assert entry is not None, position
                if entry.opponent_wins:
                    tries[position.ply, entry.opponent_wins] += 1
                else:
                    wins += 1
                move = entry.move
            else:
                move = rng.choice(position.legal_moves())
            position = position.play(move)
    assert tries[2, 2] == REPERTOIRE_LINES and tries[4, 1] > 0 and wins > 1000
    assert {ply for ply, _ in tries} <= {2, 4, 6, 8, 10}
    first = BOOK.entry(Position().play(CENTRE))
    assert go_board.to_coord(first.move) in ((1, 2), (2, 1), (2, 3), (3, 2))


@pytest.mark.parametrize("plan", strategy.STRATEGIES, ids=lambda plan: plan.name)
def test_seeded_lines_of_each_strategy_are_answered_with_proven_wins(plan):
    # The whole check is `make verify-book`; here seeded lines of the loser, every winner
    # position answered by a move the plain referee rules accept, the late ones proven by the
    # compiled solver.
    rng = random.Random("book:" + plan.name)
    with solver.Solver() as search:
        checked, failures = strategy.check(BOOK, plan, search, rng, SAMPLE_LINES,
                                           min(SAMPLE_FROM_PLY, plan.last_ply))
    assert checked >= SAMPLE_LINES // 2 and failures == []  # a line may end early (passes)
    answered_starts = strategy.starts(plan, BOOK)
    for _ in range(SAMPLE_LINES):
        position = rng.choice(answered_starts)
        while not position.is_over and position.ply <= plan.last_ply:
            move = BOOK.lookup(position) if position.to_move == plan.winner \
                else rng.choice(position.legal_moves())
            assert move is not None, position
            board = [[rules_cell(position, row, col) for col in range(5)] for row in range(5)]
            before = [[rules_cell(position, row, col, previous=True) for col in range(5)]
                      for row in range(5)]
            if move != PASS:
                after, refusal = rules.try_place(before, board, *go_board.to_coord(move),
                                                 colour=position.to_move)
                assert refusal is None, position
            position = position.play(move)


def rules_cell(position, row, col, previous=False):
    black = position.prev_black if previous else position.black
    white = position.prev_white if previous else position.white
    bit = go_board.BIT[go_board.from_coord(row, col)]
    return BLACK if black & bit else WHITE if white & bit else 0


# ---- the committed file, read by brute force ----------------------------------------------

ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def brute_force_records(path):
    """`(header, {key: stored move})` from the whole file, as the format describes it (the
    opponent's winning replies, the last factor, checked to be 0..26)."""
    with open(path, "rb") as handle:
        header_line, _, body = handle.read().partition(b"\n")
    header = json.loads(header_line.decode("ascii"))
    width = header["record_chars"]
    texts = [body[start:start + width].decode("ascii") for start in range(0, len(body), width)]
    assert texts == sorted(set(texts)) and len(texts) == header["records"]
    records = {}
    for text in texts:
        code = 0
        for char in text:
            code = code * 64 + ALPHABET.index(char)
        code, opponent_wins = divmod(code, 27)
        assert 0 <= opponent_wins <= 26
        key, move = divmod(code, 26)
        assert key not in records
        records[key] = move
    return header, records


def brute_force_key(position):
    """`(key, symmetry)`, the smallest image with the lowest symmetry, point by point."""
    best = None
    for symmetry in range(NUM_SYMMETRIES):
        image = position.transformed(symmetry)
        board = sum(3 ** point * (1 if image.black >> point & 1 else 2 if image.white >> point & 1
                                  else 0) for point in range(25))
        banned = [point for point in range(25) if image.try_play(point) == go_board.KO]
        state = 1 if image.pass_ends_game else 2 + banned[0] if banned else 0
        key = (board * 24 + image.ply - 1) * 27 + state
        if best is None or key < best[0]:
            best = (key, symmetry)
    return best


def test_a_seeded_sample_of_lookups_matches_a_brute_force_reading_of_the_file():
    header, records = brute_force_records(opening_book.BOOK_PATH)
    assert header["records"] == len(BOOK) == len(records)
    rng = random.Random(17)
    held = [position.transformed(rng.randrange(NUM_SYMMETRIES))
            for position in held_positions(rng, 150)]
    others = random_positions(rng, 150, 0.2)
    found = 0
    for position in held + others:
        key, symmetry = brute_force_key(position)
        expected = None
        if key in records:
            move = SYMMETRIC_POINT[INVERSE_SYMMETRY[symmetry]][records[key]]
            expected = move if position.is_legal(move) else None
        assert BOOK.lookup(position) == expected
        found += expected is not None
    assert found >= len(held)


# ---- the agent without a usable book ------------------------------------------------------

# The files and folders of the modules the submission bundles.
AGENT_SOURCES = sorted({module.rel_path.split("/")[0]
                        for module in bundle.discover(REPO_ROOT)[0].values()})
OPENING_INPUT = b"1\n" + b"\n".join([b"00000"] * 10)
WHITE_FIRST_INPUT = b"2\n" + b"\n".join([b"00000"] * 7 + [b"00100"] + [b"00000"] * 2)
AFTER_CENTRE = Position().play(CENTRE)


def illegal_answers(path):
    # White's answer to the centre is the occupied centre itself.
    key, symmetry = opening_book.position_key(AFTER_CENTRE)
    opening_book.write(path, {key: SYMMETRIC_POINT[symmetry][CENTRE]},
                       {"answered_plies": {BLACK: 6, WHITE: 6}, "built_with": {}})


UNUSABLE_BOOKS = [pytest.param(missing, id="missing"),
                  pytest.param(truncate_by(1), id="truncated"),
                  pytest.param(write_bytes(b"[" * 100000 + b"]" * 100000 + b"\n"),
                               id="nested 100,000 deep"),
                  pytest.param(set_field("records", 1e400), id="1e400"),
                  pytest.param(write_bytes(b"{\"format\": \"littlego-book\", \"version\": 2, "
                                           b"\"record_chars\": 9, \"records\": NaN, "
                                           b"\"answered_plies\": Infinity}\n"),
                               id="NaN and Infinity"),
                  pytest.param(illegal_answers, id="an illegal answer"),
                  pytest.param(fifo, id="a FIFO")]
AGENT_RUNS = [pytest.param(book.values[0], WHITE_FIRST_INPUT, id="White first, " + book.id)
              for book in UNUSABLE_BOOKS] + \
             [pytest.param(book.values[0], OPENING_INPUT, id="Black first, " + book.id)
              for book in UNUSABLE_BOOKS[:2]]


@pytest.mark.parametrize("breakage, input_bytes", AGENT_RUNS)
def test_the_agent_without_a_usable_book_still_opens_with_a_placement(tmp_path, breakage,
                                                                      input_bytes):
    # As submitted: the agent's sources in one folder, its book file missing or broken.
    agent_dir, game_dir = tmp_path / "agent", tmp_path / "game"
    agent_dir.mkdir()
    game_dir.mkdir()
    for name in AGENT_SOURCES:
        source = os.path.join(REPO_ROOT, name)
        if os.path.isdir(source):
            shutil.copytree(source, str(agent_dir / name),
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, str(agent_dir / name))
    book_path = str(agent_dir / os.path.basename(opening_book.BOOK_PATH))
    shutil.copy(opening_book.BOOK_PATH, book_path)
    breakage(book_path)
    (game_dir / "input.txt").write_bytes(input_bytes)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(agent_settings.SETTINGS_PREFIX)}
    env.update(LITTLEGO_MOVE_CPU="0.3", LITTLEGO_WORKERS="1", LITTLEGO_SEED="561")
    result = subprocess.run([sys.executable, str(agent_dir / "my_player.py")], cwd=str(game_dir),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    output = (game_dir / "output.txt").read_bytes().decode("ascii")
    assert output != "PASS"
    row, col = (int(field) for field in output.split(","))
    colour, previous, current = course_io.parse_input(input_bytes.decode("ascii"))
    position = Position(current[0], current[1], colour, colour, previous[0], previous[1])
    assert position.is_legal(from_coord(row, col))
    if input_bytes == OPENING_INPUT:
        assert output == "2,2"  # the centre is a rule, not the book's answer
    # The book was not used, so the move came from somewhere else (search or fallback).
    [decision] = decision_log.read_decisions(result.stderr.decode())
    assert decision["source"] != decision_log.SOURCE_BOOK
    assert decision["move"] == output
