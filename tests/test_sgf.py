"""Our SGF files (referee/sgf.py) as a real reader sees them: sgfmill parses every game a match
writes and replays its main line on its own board, which must end as the referee's final board,
with the referee's result in RE (and, on the score, a margin that sgfmill's board and KM give).

sgfmill's board allows suicide and does not know ko, but a replay of moves our referee accepted
places stones and captures exactly as ours does.
"""

import pytest
from sgfmill import sgf, sgf_moves

from littlego.opponents import in_process
from littlego.referee import judge, rules
from littlego.referee.match import run_match
from littlego.referee.sgf import game_to_sgf
from littlego.referee.sgf import sgf_moves as our_sgf_moves

from referee_support import STUB_PLAYERS, ScriptedEngine, board

MOVE_CPU = 5.0
# The course's digits for sgfmill's colours (None: an empty point).
DIGITS = {None: "0", "b": str(rules.BLACK), "w": str(rules.WHITE)}
WINNER_LETTERS = {rules.BLACK: "b", rules.WHITE: "w"}


def sgfmill_replay(text):
    """`(game, rows)`: sgfmill's game and its final board after the main line, as the course's
    rows (`["00120", ...]`, row 0 at the top; sgfmill counts rows from the bottom)."""
    game = sgf.Sgf_game.from_string(text)
    goban, plays = sgf_moves.get_setup_and_moves(game)  # an sgfmill.boards.Board
    for colour, point in plays:
        if point is not None:
            goban.play(point[0], point[1], colour)
    size = goban.side
    rows = ["".join(DIGITS[goban.get(size - 1 - i, j)] for j in range(size))
            for i in range(size)]
    return game, rows


def assert_sgfmill_agrees(record):
    text = game_to_sgf(record)
    game, rows = sgfmill_replay(text)
    assert (game.get_size(), game.get_komi()) == (rules.SIZE, rules.KOMI)
    assert (game.get_player_name("b"), game.get_player_name("w")) == (
        record["black"], record["white"])
    assert rows == record["board"]
    assert game.get_winner() == WINNER_LETTERS[record["winner"]]
    assert len(game.get_main_sequence()) == 1 + len(record["moves"])
    result = game.get_root().get("RE")
    if record["reason"] == judge.END_SCORE:
        black = sum(row.count(DIGITS["b"]) for row in rows)
        white = sum(row.count(DIGITS["w"]) for row in rows)
        margin = black - white - game.get_komi()
        assert result == "{}+{:g}".format("B" if margin > 0 else "W", abs(margin))
    return result


def stones_played(record):
    return sum(1 for move in record["moves"] if move != rules.PASS)


def stones_on(record):
    """Stones on the referee's final board: fewer than were played after a capture."""
    return sum(len(row) - row.count(DIGITS[None]) for row in record["board"])


def test_every_game_of_a_match_replays_in_sgfmill_to_the_referees_board_and_result(tmp_path):
    result = run_match("random", "greedy", games=4, seed=11, limit_cpu=MOVE_CPU,
                       out_dir=str(tmp_path), builtin_players=in_process.players())
    for record in result.records:
        assert_sgfmill_agrees(record)
        with open(str(tmp_path / record["sgf"]), encoding="utf-8") as handle:
            assert handle.read() == game_to_sgf(record)  # the file is what was checked
    assert sum(stones_on(record) < stones_played(record) for record in result.records) >= 1


def test_passes_read_as_passes_and_a_passed_out_game_keeps_its_score():
    record = run_match("first", "passer", games=1, seed=0, limit_cpu=MOVE_CPU,
                       builtin_players=STUB_PLAYERS).records[0]
    assert record["moves"][:4] == ["0,0", rules.PASS, "0,1", rules.PASS]
    assert assert_sgfmill_agrees(record) == "B+9.5"
    assert our_sgf_moves(game_to_sgf(record))[:4] == [(0, 0), None, (0, 1), None]


def test_a_game_lost_by_an_illegal_move_reads_as_a_forfeit():
    players = dict(in_process.players(), **STUB_PLAYERS)
    record = run_match("first", "cmd:echo 0,0 > output.txt", games=1, seed=0,
                       limit_cpu=MOVE_CPU, builtin_players=players).records[0]
    assert record["reason"] == judge.END_ILLEGAL
    assert assert_sgfmill_agrees(record) == "B+Forfeit"
    assert record["board"] == ["10000"] + ["00000"] * 4


class CornerCapture(ScriptedEngine):
    """Black B5 (0,1), White A5 (0,0), Black A4 (1,0) takes it; then both fill the board."""

    def __init__(self, seed):
        ScriptedEngine.__init__(self, [1, 0, 5] + list(range(24, -1, -1)))


def test_a_capture_replays_to_the_same_board():
    record = run_match("corner", "corner (B)", games=1, seed=0, limit_cpu=MOVE_CPU,
                       builtin_players=in_process.factories({
                           "corner": CornerCapture, "corner (B)": CornerCapture})).records[0]
    assert record["moves"][:3] == ["0,1", "0,0", "1,0"]
    # Stones were taken on both sides as the board filled up.
    assert [[int(point) for point in row] for row in record["board"]] == board("""
        X X . . .
        X . . O O
        X X O O O
        X X O . O
        X O O O O""")
    assert stones_on(record) < stones_played(record)
    assert_sgfmill_agrees(record)


def test_our_reader_refuses_what_is_not_a_5x5_game():
    with pytest.raises(ValueError):
        our_sgf_moves("(;FF[4]SZ[9];B[cc])")
    with pytest.raises(ValueError):
        our_sgf_moves("not sgf")
