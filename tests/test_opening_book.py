"""The opening book: the centre first, the proven third moves of rules.md, legal answers only.

The book stores one canonical image per position and `lookup` maps the answer back through the
board's 8 symmetries, so every claim is checked on every image. A book that cannot be read
must cost nothing but the book: an empty book, never a crash.
"""

import os
import shutil
import subprocess
import sys

import pytest

import agent
import course_io
import endgame
import go_board
import opening_book
from tools import build_book, make_submission
from go_board import BLACK, NUM_SYMMETRIES, SYMMETRIC_POINT, WHITE, Position, from_coord

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CENTRE = from_coord(2, 2)
# rules.md, "Known exact results": after B(2,2) and each White reply (up to symmetry), the
# third moves proven to win for Black.
PROVEN_THIRD_MOVES = {
    (0, 0): [(2, 3), (3, 2)],
    (0, 1): [(1, 2)],
    (1, 1): [(1, 2), (2, 1)],
    (1, 2): [(2, 1), (2, 3)],
}
BOOK = opening_book.read().entries
# The fields tools/build_book.py writes next to the move.
LINE, PLY, SOURCE = build_book.LINE, build_book.PLY, build_book.SOURCE
PROVEN_WIN, PROVEN_LOSS = build_book.PROVEN_WIN, build_book.PROVEN_LOSS
position_after = build_book.position_after


def book_position(key):
    """The Position a book entry stands for: its line played from the empty board."""
    return position_after(BOOK[key][LINE])


def canonical_after(position, move):
    return opening_book.canonical(position.play(move))[0]


def test_the_book_file_is_readable_and_not_empty():
    # Every other test here would pass vacuously on an empty book.
    assert BOOK and isinstance(BOOK, dict)


def test_black_opens_at_the_centre():
    # A pass here ends the game at once with White's win; every other opening is a proven loss.
    assert opening_book.lookup(Position(), BOOK) == CENTRE


def third_move_cases():
    for reply, answers in sorted(PROVEN_THIRD_MOVES.items()):
        for symmetry in range(NUM_SYMMETRIES):
            yield pytest.param(reply, answers, symmetry, id="W{}-sym{}".format(reply, symmetry))


@pytest.mark.parametrize("reply, answers, symmetry", list(third_move_cases()))
def test_the_third_move_is_a_proven_winner_in_every_image(reply, answers, symmetry):
    # The centre is fixed by every symmetry, so each image is B(2,2) and White's reply moved.
    white_point = SYMMETRIC_POINT[symmetry][from_coord(*reply)]
    position = Position().play(CENTRE).play(white_point)
    assert position.ply == 3 and position.to_move == BLACK
    winners = sorted(go_board.to_coord(SYMMETRIC_POINT[symmetry][from_coord(*answer)])
                     for answer in answers)
    move = opening_book.lookup(position, BOOK)
    assert move is not None, "no book answer after W{}".format(go_board.to_coord(white_point))
    assert go_board.to_coord(move) in winners


@pytest.mark.parametrize("key", sorted(BOOK))
def test_every_book_answer_is_legal_and_consistent_in_every_image(key):
    position = book_position(key)
    answer = opening_book.lookup(position, BOOK)
    assert position.is_legal(answer)
    for symmetry in range(NUM_SYMMETRIES):
        image = position.transformed(symmetry)
        image_answer = opening_book.lookup(image, BOOK)
        assert image.is_legal(image_answer)
        # The image's answer is the same move seen through the symmetry (up to the position's
        # own symmetries), so both lead to the same canonical position.
        assert canonical_after(image, image_answer) == canonical_after(position, answer)


@pytest.mark.parametrize("key", sorted(BOOK))
def test_every_entry_is_stored_under_its_canonical_key(key):
    # An entry under any other image's key could never be found by lookup; the line is
    # written in the key's frame, so it reaches the key's own image.
    position = book_position(key)
    assert opening_book.position_key(position) == key
    assert opening_book.canonical(position)[0] == key


@pytest.mark.parametrize("key", sorted(BOOK))
def test_past_the_book_plies_every_entry_is_a_proven_win_after_black_centre(key):
    # tools/prove_lines.py's entries: the mover's proven wins after B(2,2), nothing searched.
    position = book_position(key)
    assert position.ply == BOOK[key][PLY]
    if position.ply > opening_book.BOOK_PLIES:
        assert BOOK[key][SOURCE] == PROVEN_WIN and after_black_centre(key)


# The keys of tools/prove_lines.py's entries.
PROVEN_LINES = [key for key in BOOK if BOOK[key][PLY] > opening_book.BOOK_PLIES]


def proven_line_entries(count, colour):
    """The `count` entries of `colour` past the book plies whose proofs took the least CPU."""
    ours = [key for key in PROVEN_LINES if book_position(key).to_move == colour]
    return sorted(ours, key=lambda key: (BOOK[key][build_book.CPU_USED], key))[:count]


def test_the_book_holds_proven_lines_past_its_plies():
    # What the test below samples from (the committed build proved hundreds).
    assert len(PROVEN_LINES) >= 100
    plies = {BOOK[key][PLY] for key in PROVEN_LINES}
    # Black's plies and White's up to prove_lines.SIDES' last plies.
    assert 7 in plies and plies <= {7, 8, 9, 10}


@pytest.mark.parametrize("key", proven_line_entries(2, BLACK) + proven_line_entries(2, WHITE))
def test_a_proven_line_answer_leaves_the_opponent_lost(key):
    # Checked again by the solver here (the quickest proofs: Python 3.11 is slower than the
    # PyPy the tool runs under), in an image other than the stored one.
    position = book_position(key).transformed(5)
    answer = opening_book.lookup(position, BOOK)
    assert not endgame.ExactSolver().mover_wins(position.play(answer))


def after_black_centre(key):
    line = BOOK[key][LINE]
    return bool(line) and line[0] == "2,2"


@pytest.mark.parametrize("key", sorted(BOOK))
def test_no_proof_in_the_book_contradicts_rules_md(key):
    # After B(2,2) Black wins whatever White does; after any other first move White wins.
    # White's proven lines past the book plies are the exception by design: they start where
    # Black's reply left the win (tools/prove_lines.py), so the rule does not say who wins them.
    position = book_position(key)
    white_late = position.ply > opening_book.BOOK_PLIES and position.to_move == WHITE
    if position.ply == 1 or white_late:
        return
    winner = BLACK if after_black_centre(key) else WHITE
    source = BOOK[key][SOURCE]
    if source == PROVEN_WIN:
        assert position.to_move == winner
    if source == PROVEN_LOSS:
        assert position.to_move != winner


def test_the_book_answers_every_position_through_the_ply_it_claims():
    # Coverage by construction: every opponent reply to our own book moves, passes included,
    # through answered_plies (the whole window once the build is complete).
    claimed = opening_book.read().answered_plies
    assert claimed >= 1
    for level in build_book.reachable(BOOK, claimed).values():
        for key, (line, position) in level.items():
            assert key in BOOK, line
            assert opening_book.lookup(position, BOOK) is not None, line


MIDGAME = Position.from_text("""
    . O X . .
    O O X X .
    . X X O .
    . X O O .
    . . . . .""", to_move=BLACK, ply=13)


def test_a_position_the_book_does_not_hold_gives_none():
    # Eleven stones cannot stand on the board by ply 6, so no book can hold this.
    assert opening_book.lookup(MIDGAME, BOOK) is None
    # And an entry for a different position does not answer this one.
    other_key = opening_book.canonical(MIDGAME.play(from_coord(4, 4)))[0]
    assert opening_book.lookup(MIDGAME, {other_key: {"move": "0,0"}}) is None


def test_the_default_book_is_the_file_next_to_the_module():
    assert opening_book.lookup(Position()) == CENTRE
    assert opening_book.lookup(MIDGAME) is None


CORRUPT_BOOKS = [
    pytest.param(b"{\"positions\": {\"1:0:0:p\": {\"move\": \"2,2\"}", id="truncated"),
    pytest.param(b"not json at all", id="not json"),
    pytest.param(b"", id="empty file"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\xff\xfe", id="binary"),
    pytest.param(b"[]", id="top level list"),
    pytest.param(b"\"positions\"", id="top level string"),
    pytest.param(b"{\"built_with\": {}}", id="no positions"),
    # A well-formed file whose positions are not a mapping (fixed in 280f83f: it used to
    # crash lookup, or with null make lookup fall back to the default book).
    pytest.param(b"{\"positions\": []}", id="positions a list"),
    pytest.param(b"{\"positions\": null}", id="positions null"),
    pytest.param(b"{\"positions\": \"2,2\"}", id="positions a string"),
]


FIFO = "fifo"


def test_a_missing_book_file_is_an_empty_book(tmp_path):
    book = opening_book.read(str(tmp_path / "no_such_book.json"))
    assert book == opening_book.NO_BOOK
    assert opening_book.lookup(Position(), book.entries) is None


@pytest.mark.parametrize("content", CORRUPT_BOOKS)
def test_a_corrupt_book_file_is_an_empty_book(tmp_path, content):
    path = tmp_path / "opening_book.json"
    path.write_bytes(content)
    book = opening_book.read(str(path))
    assert book == opening_book.NO_BOOK
    assert opening_book.lookup(Position(), book.entries) is None


@pytest.mark.parametrize("content", [
    pytest.param(b"[" * 100000 + b"]" * 100000, id="nested 100,000 deep"),
    pytest.param(b"{\"positions\": {}}" + b" " * opening_book.MAX_BOOK_BYTES, id="too large"),
    pytest.param(FIFO, id="a FIFO"),
    pytest.param(None, id="missing"),
])
def test_an_unreadable_book_file_is_an_empty_book_and_one_line_on_stderr(tmp_path, capsys,
                                                                          content):
    path = tmp_path / "opening_book.json"
    if content == FIFO:
        os.mkfifo(str(path))
    elif content is not None:
        path.write_bytes(content)
    assert opening_book.read(str(path)) == opening_book.NO_BOOK
    logged = capsys.readouterr().err
    assert logged.count("\n") == 1 and logged.startswith("opening_book: cannot use "), logged


EMPTY_BOARD_KEY = "1:0:0:p"


def test_the_empty_board_key_is_black_to_move_with_a_game_ending_pass():
    assert opening_book.canonical(Position()) == (EMPTY_BOARD_KEY, 0)
    assert opening_book.lookup(Position(), {EMPTY_BOARD_KEY: {"move": "2,2"}}) == CENTRE


@pytest.mark.parametrize("entry", [{"move": "9,9"}, {"move": "-1,0"}, {"move": "2,2,1"},
                                   {"move": "x"}, {"move": 22}, {}, "2,2", ["2,2"], None])
def test_a_malformed_entry_is_treated_as_absent(entry):
    # One bad line in the book file must cost that entry, not the move.
    assert opening_book.lookup(Position(), {EMPTY_BOARD_KEY: entry}) is None


def test_transpositions_share_a_key():
    # The same stones reached in two orders: the previous boards differ, nothing else does.
    first = position_after(["2,2", "0,0", "2,3", "4,4"])
    second = position_after(["2,3", "4,4", "2,2", "0,0"])
    assert (first.prev_black, first.prev_white) != (second.prev_black, second.prev_white)
    assert opening_book.canonical(first) == opening_book.canonical(second)


def test_a_ko_ban_is_part_of_the_key():
    # Black (0,1),(1,0),(2,1) and White (0,2),(1,3),(2,2) around (1,1) and (1,2); White plays
    # into (1,1), Black takes it from (1,2): White may not retake at once.
    position = Position()
    for black, white in [((0, 1), (0, 2)), ((1, 0), (1, 3)), ((2, 1), (2, 2)), ((4, 4), (1, 1))]:
        position = position.play(from_coord(*black)).play(from_coord(*white))
    taken = position.play(from_coord(1, 2))
    assert taken.white & (1 << from_coord(1, 1)) == 0
    # White may not retake at (1,1) at once: simple ko.
    assert not taken.is_legal(from_coord(1, 1))
    assert opening_book.ko_point(taken) == from_coord(1, 1)
    assert opening_book.position_key(taken).endswith(":k{}".format(from_coord(1, 1)))
    # The same stones without the ban (White passed instead, then Black passed): no ko state.
    same_stones = Position(taken.black, taken.white, WHITE, taken.ply, taken.black | 1, taken.white)
    assert opening_book.ko_point(same_stones) is None
    assert opening_book.position_key(same_stones).endswith(":")


def test_an_opponent_pass_is_part_of_the_key():
    # After White's pass Black's pass would end the game: a different future, a different key.
    played = position_after(["2,2", "2,1"])
    passed = position_after(["2,2", "PASS"])
    assert opening_book.position_key(passed).endswith(":p")
    assert opening_book.position_key(played).endswith(":")


# The files and folders of the modules the submission bundles.
AGENT_SOURCES = sorted({module.rel_path.split("/")[0]
                        for module in make_submission.discover(REPO_ROOT)[0].values()})
OPENING_INPUT = b"1\n" + b"\n".join([b"00000"] * 10)


WHITE_FIRST_INPUT = b"2\n" + b"\n".join([b"00000"] * 7 + [b"00100"] + [b"00000"] * 2)
UNUSABLE_BOOKS = [
    pytest.param(None, id="missing"),
    pytest.param(b"{\"positions\": {\"1:0:0:0", id="truncated"),
    pytest.param(b"[" * 100000 + b"]" * 100000, id="nested 100,000 deep"),
    pytest.param(b"{\"positions\": {\"2:4096:0:0:0\": " + b"[" * 100000 + b"]" * 100000 + b"}}",
                 id="an answer nested 100,000 deep"),
    pytest.param(b"{\"built_with\": {\"max_ply\": 1e400}, \"positions\": {\"2:4096:0:0:0\": "
                 b"\"1e400,NaN\"}}", id="1e400 and NaN"),
    pytest.param(b"{\"built_with\": {\"max_ply\": Infinity}, \"positions\": {\"2:4096:0:0:0\": "
                 b"Infinity}}", id="Infinity"),
    pytest.param(b"{\"positions\": {\"2:4096:0:0:0\": \"PASS\", \"1:0:0:0:0\": \"PASS\"}}",
                 id="PASS answers"),
    pytest.param(FIFO, id="a FIFO"),
]


# Every move reads the book once (agent.Settings); White's first move then looks it up, Black's
# never does (the centre is a rule), so two broken books are enough there.
AGENT_RUNS = [pytest.param(book.values[0], WHITE_FIRST_INPUT, id="White first, " + book.id)
              for book in UNUSABLE_BOOKS] + \
             [pytest.param(book.values[0], OPENING_INPUT, id="Black first, " + book.id)
              for book in UNUSABLE_BOOKS[:2]]


@pytest.mark.parametrize("book_bytes, input_bytes", AGENT_RUNS)
def test_the_agent_without_a_usable_book_still_opens_with_a_placement(tmp_path, book_bytes,
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
    if book_bytes == FIFO:
        os.mkfifo(str(agent_dir / "opening_book.json"))  # no writer: a plain open would block
    elif book_bytes is not None:
        (agent_dir / "opening_book.json").write_bytes(book_bytes)
    (game_dir / "input.txt").write_bytes(input_bytes)
    env = {key: value for key, value in os.environ.items() if not key.startswith(agent.SETTINGS_PREFIX)}
    env.update(LITTLEGO_MOVE_CPU="0.3", LITTLEGO_WORKERS="1", LITTLEGO_SEED="561")
    result = subprocess.run([sys.executable, str(agent_dir / "my_player.py")], cwd=str(game_dir),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    output = (game_dir / "output.txt").read_bytes().decode("ascii")
    move = go_board.move_from_text(output)
    colour, previous, current = course_io.parse_input(input_bytes.decode("ascii"))
    position = Position(current[0], current[1], colour, colour, previous[0], previous[1])
    assert move != go_board.PASS and position.is_legal(move)
    if input_bytes == OPENING_INPUT:
        assert output == "2,2"  # the centre is a rule, not the book's answer
    # The book was not used, so the move came from somewhere else (search or fallback).
    [decision] = agent.read_decisions(result.stderr.decode())
    assert decision["source"] != agent.SOURCE_BOOK
    assert decision["move"] == output
