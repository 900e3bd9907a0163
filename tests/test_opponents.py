"""Tests of the reference opponents (`opponents/`) and of their per-move program `run.py`."""

import os
import random
import subprocess
import sys

import pytest

import go_board
import opening_book
from course_io import format_input
from go_board import BIT, BLACK, MAX_PLY, PASS, WHITE, Position, from_coord
from littlego import opponents
from littlego.bench.positions import random_positions
from littlego.opponents import BUILTIN_PLAYERS, alphabeta4
from littlego.opponents.alphabeta import BRANCHING, AlphaBetaPlayer
from littlego.opponents.alphabeta4 import AlphaBeta4Player
from littlego.opponents.plain_uct import PlainUctPlayer, black_wins_playout
from littlego.opponents.run import move_seed
from littlego.opponents.simple import AggressivePlayer, GreedyPlayer, RandomPlayer

SEEDS = range(5)
PASS_CHANCE = 0.05

# Black to move: capturing at 1,3 takes two stones, at 3,0 one.
TWO_CAPTURES = """
. X O O X
. . X . .
. . . . .
. . . . .
O X . . .
"""
# Black to move: 4,4 captures one stone but leaves the top chain of three to be captured;
# 0,3 saves it, and White then has no capture.
CAPTURE_OR_SAVE = """
X X X . O
O O O X .
. . . . .
. . . X .
. . X O .
"""
# No White placement is legal: both empty points are one-point eyes of Black's chain.
NO_PLACEMENT = """
X X X X X
X . X X X
X X X X X
X X X . X
X X X X X
"""
# Black to move: 2,2 ataris both White stones; White saves one, Black takes the other.
DOUBLE_ATARI = """
. . X . .
. X O . .
. O . X .
. X . . .
. . . . .
"""
# Black to move: 1,3 starts a ladder along the top edge that captures the White stone.
LADDER = """
. . . . .
. X O . .
. . X . .
. . . . .
. . . . .
"""
# White to move at ply 24, behind by half a point unless it captures at 3,2.
LAST_PLY_CAPTURE = """
X . X . X
. . . . .
X . . . X
. . . . .
. O X O .
"""
# Black to move at ply 23 after White's pass, behind by half a point: passing loses at once,
# only the capture at 3,2 wins.
MUST_CAPTURE_AFTER_PASS = """
X . X . X
. . . O .
X . O O .
. . . . .
. X O X .
"""
# White to move at ply 20 after Black's pass, ahead: passing ends the game and wins.
AHEAD_AFTER_PASS = """
. X . . .
. . . . .
. . O . .
. . . . .
. . . . .
"""


def after_white_placed(board, ply, row, col):
    """Black to move on `board`, White's last move being the stone at (row, col).

    `Position.from_text` without a previous board means White just passed, and passing back
    would end the game: a search could then win or lose at once.
    """
    position = Position.from_text(board, BLACK, ply)
    return Position(position.black, position.white, BLACK, ply, position.black,
                    position.white ^ BIT[from_coord(row, col)])


def test_registry_names_and_seeded_replay():
    assert sorted(BUILTIN_PLAYERS) == ["aggressive", "alphabeta", "alphabeta4", "greedy",
                                       "plain-uct", "random"]
    # The players draw from their seeds and from nothing else: the same seeds give the same
    # game whatever the global random state, other seeds another game.
    def game(name, seeds, global_seed):
        random.seed(global_seed)
        black, white = (BUILTIN_PLAYERS[name](seed) for seed in seeds)
        position, moves = Position(), []
        while not position.is_over:
            moves.append((black if position.to_move == BLACK else white).choose_move(position))
            position = position.play(moves[-1])
        return moves
    saved = random.getstate()
    try:
        for name in ("random", "greedy", "aggressive", "alphabeta"):
            first, again, other = game(name, (7, 8), 1), game(name, (7, 8), 2), \
                game(name, (9, 10), 1)
            assert first == again != other, name
            assert len(first) == len(other) == MAX_PLY, name
    finally:
        random.setstate(saved)


def test_random_plays_only_legal_placements():
    player = RandomPlayer(1)
    for position in random_positions(random.Random(11), 300, PASS_CHANCE):
        legal = position.legal_placements()
        move = player.choose_move(position)
        assert move in legal if legal else move == PASS


def test_players_pass_only_without_placements():
    position = Position.from_text(NO_PLACEMENT, WHITE, MAX_PLY)
    assert position.legal_placements() == []
    for player_class in (RandomPlayer, GreedyPlayer, AggressivePlayer, AlphaBetaPlayer):
        assert player_class(0).choose_move(position) == PASS
    black_to_move = Position.from_text(NO_PLACEMENT, BLACK, MAX_PLY - 1)
    for player_class in (RandomPlayer, GreedyPlayer, AggressivePlayer, AlphaBetaPlayer):
        assert player_class(0).choose_move(black_to_move) in (from_coord(1, 1), from_coord(3, 3))


def test_greedy_takes_the_biggest_capture():
    position = Position.from_text(TWO_CAPTURES, BLACK, 9)
    assert {GreedyPlayer(seed).choose_move(position) for seed in SEEDS} == {from_coord(1, 3)}


def test_greedy_without_capture_plays_any_placement():
    position = Position.from_text(DOUBLE_ATARI, BLACK, 11)
    player = GreedyPlayer(3)
    moves = [player.choose_move(position) for _ in range(400)]
    assert set(moves) == set(position.legal_placements())


def test_aggressive_avoids_the_capture_that_loses_more():
    position = Position.from_text(CAPTURE_OR_SAVE, BLACK, 9)
    assert {GreedyPlayer(seed).choose_move(position) for seed in SEEDS} == {from_coord(4, 4)}
    assert {AggressivePlayer(seed).choose_move(position) for seed in SEEDS} == {from_coord(0, 3)}


def test_alphabeta_wins_with_a_capture_at_the_last_ply():
    position = Position.from_text(LAST_PLY_CAPTURE, WHITE, MAX_PLY)
    assert len(position.legal_placements()) > BRANCHING
    assert {AlphaBetaPlayer(seed).choose_move(position) for seed in SEEDS} == {from_coord(3, 2)}
    assert position.play(from_coord(3, 2)).winner() == WHITE


def test_alphabeta_searches_at_most_branching_moves_per_node():
    player = AlphaBetaPlayer(5)
    widths = []
    leaves = []
    candidates, search = player.candidates, player.search

    def counting_candidates(position):
        kept = candidates(position)
        widths.append(len(kept))
        return kept

    def counting_search(position, depth, alpha, beta):
        if depth == 0:
            leaves.append(position)
        return search(position, depth, alpha, beta)

    player.candidates, player.search = counting_candidates, counting_search
    root = Position()
    move = player.choose_move(root)
    assert widths[0] == BRANCHING and max(widths) == BRANCHING
    assert 0 < len(leaves) <= BRANCHING * BRANCHING
    assert move in root.legal_placements()


def test_alphabeta4_finds_the_double_atari():
    position = after_white_placed(DOUBLE_ATARI, 11, 2, 1)
    for seed in SEEDS:
        assert AlphaBeta4Player(seed, time_limit=None, max_depth=4).choose_move(position) \
            == from_coord(2, 2)
    # The tactic is real: whatever White does next, Black captures a stone.
    after = position.play(from_coord(2, 2))
    for reply in after.legal_moves():
        answer = after.play(reply)
        assert max(answer.captures_by(p) for p in answer.legal_placements()) >= 1


def test_alphabeta4_starts_the_ladder():
    position = after_white_placed(LADDER, 7, 1, 2)
    for seed in SEEDS:
        assert AlphaBeta4Player(seed, time_limit=None, max_depth=4).choose_move(position) \
            == from_coord(1, 3)


# Without a previous board the opponent has just passed: passing back ends the game.
@pytest.mark.parametrize("board, to_move, ply, expected", [
    (LAST_PLY_CAPTURE, WHITE, MAX_PLY, from_coord(3, 2)),
    (MUST_CAPTURE_AFTER_PASS, BLACK, MAX_PLY - 1, from_coord(3, 2)),
    (AHEAD_AFTER_PASS, WHITE, MAX_PLY - 4, PASS),
])
def test_alphabeta4_plays_the_winning_move_near_the_end(board, to_move, ply, expected):
    position = Position.from_text(board, to_move, ply)
    for seed in SEEDS:
        assert AlphaBeta4Player(seed, time_limit=None, max_depth=4).choose_move(position) \
            == expected


def test_alphabeta4_only_returns_legal_moves(monkeypatch):
    # No time and a clock check at every node: the first iteration is cut off (unless every
    # move ends the game, which needs no node) and the move is the fallback.
    monkeypatch.setattr(alphabeta4, "NODES_PER_CLOCK_CHECK", 1)
    hurried = AlphaBeta4Player(3, time_limit=0.0)
    player = AlphaBeta4Player(2, time_limit=None, max_depth=2)
    for position in random_positions(random.Random(12), 60, PASS_CHANCE):
        assert hurried.choose_move(position) in position.legal_moves()
        assert hurried.depth_reached == (1 if position.ply == MAX_PLY else 0)
        assert player.choose_move(position) in position.legal_moves()


def test_plain_uct_finds_the_winning_capture_at_the_last_ply():
    position = Position.from_text(LAST_PLY_CAPTURE, WHITE, MAX_PLY)
    # At the last ply every playout is the real result, so the winning child gathers the visits.
    assert {PlainUctPlayer(seed, time_limit=0.2).choose_move(position) for seed in SEEDS} == {
        from_coord(3, 2)}


def test_plain_uct_passes_at_plies_22_and_23_when_ahead_and_only_then():
    ahead = """
X X X . .
X . X . .
X X X . .
. . . O .
. . . . .
"""
    for ply, to_move, expected_pass in ((22, WHITE, False), (23, BLACK, True),
                                        (21, BLACK, False), (24, WHITE, False)):
        position = Position.from_text(ahead, to_move, ply)
        move = PlainUctPlayer(1, time_limit=0.05).choose_move(position)
        assert (move == PASS) == expected_pass, (ply, to_move)
    assert PlainUctPlayer(1).choose_move(Position.from_text(NO_PLACEMENT, WHITE, MAX_PLY)) == PASS


def test_plain_uct_playouts_end_the_game_and_replay_from_a_seed():
    # White has no placement and Black just passed: White's pass ends the game, Black ahead.
    position = Position.from_text(NO_PLACEMENT, WHITE, 20)
    assert black_wins_playout(position, random.Random(0)) is True
    start = Position().play(from_coord(2, 2))
    # A playout depends on its seed alone: the seeds in the other order give the same results.
    results = [black_wins_playout(start, random.Random(seed)) for seed in range(40)]
    backwards = [black_wins_playout(start, random.Random(seed)) for seed in reversed(range(40))]
    assert backwards[::-1] == results
    assert 0 < sum(results) < 40  # uniform play from ply 2 is no sure thing for either side


def run_program(directory, input_text, *arguments):
    with open(os.path.join(directory, "input.txt"), "w") as handle:
        handle.write(input_text)
    return subprocess.run(opponents.run_command(sys.executable, *arguments), shell=True,
                          cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


def test_run_py_writes_the_move_in_the_game_directory(tmp_path):
    position = Position.from_text(TWO_CAPTURES, BLACK, 9)
    previous = (position.black, position.white)
    result = run_program(str(tmp_path), format_input(BLACK, previous, previous), "greedy",
                         "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "output.txt").read_bytes() == b"1,3"
    assert (tmp_path / "opponent_greedy_step_1.json").exists()


def test_run_py_takes_a_cpu_budget_only_for_searching_players(tmp_path):
    empty = format_input(BLACK, (0, 0), (0, 0))
    result = run_program(str(tmp_path), empty, "plain-uct", "--seed", "1", "--opponent-move-cpu", "0.2")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "output.txt").exists()
    (tmp_path / "output.txt").unlink()
    for player, budget in (("random", "1"), ("plain-uct", "nan"), ("plain-uct", "0")):
        result = run_program(str(tmp_path), empty, player, "--opponent-move-cpu", budget)
        assert result.returncode == 2
        assert len(result.stderr.decode().splitlines()) == 1
        assert not (tmp_path / "output.txt").exists()


def test_run_py_rejects_a_malformed_input(tmp_path):
    result = run_program(str(tmp_path), "1\n00000\n", "random", "--seed", "1")
    assert result.returncode == 2
    assert len(result.stderr.decode().splitlines()) == 1
    assert b"Traceback" not in result.stderr
    assert not (tmp_path / "output.txt").exists()


def test_run_py_mistake_throws_blacks_win_away_at_ply_3_only(tmp_path):
    # After the centre and White's corner, only (0,4), its mirror (4,0), (4,4) and the pass
    # lose for Black (docs/strength.md); the book answers White after each.
    book = opening_book.read()
    centre = Position().play(go_board.move_from_text("2,2"))
    after_corner = centre.play(go_board.move_from_text("0,0"))
    previous, stones = (centre.black, centre.white), (after_corner.black, after_corner.white)
    chosen = set()
    for seed in range(8):
        (tmp_path / str(seed)).mkdir()
        result = run_program(str(tmp_path / str(seed)), format_input(BLACK, previous, stones),
                             "greedy", "--seed", str(seed), "--mistake")
        assert result.returncode == 0, result.stderr
        move = go_board.move_from_text((tmp_path / str(seed) / "output.txt").read_text())
        assert book.lookup(after_corner.play(move)) is not None
        chosen.add(move)
    assert {go_board.move_to_text(move) for move in chosen} <= {"0,4", "4,0", "4,4", "PASS"}
    assert len(chosen) > 1
    # Black's first move is its own choice with --mistake alone.
    empty = format_input(BLACK, (0, 0), (0, 0))
    for name, extra in (("plain", ()), ("mistaken", ("--mistake",))):
        (tmp_path / name).mkdir()
        result = run_program(str(tmp_path / name), empty, "greedy", "--seed", "1", *extra)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "plain" / "output.txt").read_bytes() == \
        (tmp_path / "mistaken" / "output.txt").read_bytes() == \
        go_board.move_to_text(GreedyPlayer(move_seed(1, 1)).choose_move(Position())).encode()


def test_run_py_plays_the_books_winning_moves_through_the_given_ply_only(tmp_path):
    # After the centre and White's (1,2), Black's only winning replies are (2,1) and (2,3)
    # (docs/strength.md): the book's answer is one of them; at ply 5 the player is itself.
    centre = Position().play(go_board.move_from_text("2,2"))
    after_white = centre.play(go_board.move_from_text("1,2"))
    book_move = opening_book.read().lookup(after_white)
    assert go_board.move_to_text(book_move) in ("2,1", "2,3")
    previous, stones = (centre.black, centre.white), (after_white.black, after_white.white)
    for name, extra in (("booked", ("--book-through", "3")), ("short", ("--book-through", "2")),
                        ("own", ())):
        (tmp_path / name).mkdir()
        result = run_program(str(tmp_path / name), format_input(BLACK, previous, stones),
                             "greedy", "--seed", "1", *extra)
        assert result.returncode == 0, result.stderr
    outputs = {name: (tmp_path / name / "output.txt").read_text() for name in
               ("booked", "short", "own")}
    assert outputs["booked"] == go_board.move_to_text(book_move)
    assert outputs["short"] == outputs["own"] != outputs["booked"]


def test_run_py_forces_blacks_first_move_and_nothing_after(tmp_path):
    empty = format_input(BLACK, (0, 0), (0, 0))
    result = run_program(str(tmp_path), empty, "greedy", "--seed", "1", "--first-move", "0,1")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "output.txt").read_bytes() == b"0,1"
    # Black's third ply: the player's own choice (greedy takes the capture at 1,3).
    position = Position.from_text(TWO_CAPTURES, BLACK, 9)
    later = (position.black, position.white)
    result = run_program(str(tmp_path), format_input(BLACK, later, later), "greedy",
                         "--seed", "4", "--first-move", "0,1")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "output.txt").read_bytes() == b"1,3"
