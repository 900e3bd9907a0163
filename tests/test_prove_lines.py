"""tools/prove_lines.py: proven wins past the book, on positions near the end of seeded games.

The tool's real positions (plies 7-9) take seconds of PyPy each; here the same code runs from
ply 15 (10 plies left), where the exact solver is instant, and every stored move is checked by a
separate proof of the position it leads to.
"""

import argparse
import concurrent.futures
import os
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import endgame  # noqa: E402
import go_board  # noqa: E402
import opening_book  # noqa: E402
from opponents.simple import RandomPlayer  # noqa: E402
from tools import build_book, prove_lines  # noqa: E402

FROM_PLY = 15
CAP = 20.0
RANK_SIMULATIONS = 500
SEED = 7


def mover_wins(position):
    return endgame.ExactSolver().mover_wins(position)


def lines_at(ply, count, want_win):
    """`count` lines of seeded random games reaching a position at `ply` that its mover (Black
    at odd plies) wins (`want_win`) or loses under exact play, no two with the same first move."""
    found, seed, firsts = [], 0, set()
    while len(found) < count:
        seed += 1
        player, position, line = RandomPlayer(seed), go_board.Position(), []
        while position.ply < ply and not position.is_over:
            move = player.choose_move(position)
            line.append(go_board.move_to_text(move))
            position = position.play(move)
        if position.ply == ply and not position.is_over and line[0] not in firsts \
                and mover_wins(position) == want_win:
            found.append(line)
            firsts.add(line[0])
    return found


def test_a_won_position_gets_a_proven_winning_move_and_the_likely_replies_to_it():
    [line] = lines_at(FROM_PLY, 1, True)
    entry, next_lines = prove_lines.prove_job(line, None, CAP, 3, RANK_SIMULATIONS, True, SEED)
    position = build_book.position_after(line)
    move = opening_book.parse_answer(entry[build_book.MOVE])
    assert (entry[build_book.PLY], entry[build_book.LINE]) == (FROM_PLY, line)
    assert entry[build_book.SOURCE] == build_book.PROVEN_WIN
    after = position.play(move)
    assert not mover_wins(after)  # White, to move after it, loses
    assert len(next_lines) == 3
    replies = [next_line[-1] for next_line in next_lines]
    assert len(set(replies)) == 3
    for next_line in next_lines:
        assert next_line[:-1] == line + [entry[build_book.MOVE]]
        assert after.is_legal(opening_book.parse_answer(next_line[-1]))


def test_a_known_answer_is_played_unproven_and_expanded():
    [line] = lines_at(FROM_PLY, 1, True)
    position = build_book.position_after(line)
    known = go_board.move_to_text(position.legal_placements()[0])
    entry, next_lines = prove_lines.prove_job(line, known, CAP, 2, RANK_SIMULATIONS, True, SEED)
    assert entry is None
    assert [next_line[:-1] for next_line in next_lines] == [line + [known]] * 2


def test_a_lost_position_is_neither_stored_nor_expanded():
    [line] = lines_at(FROM_PLY, 1, False)
    assert prove_lines.prove_job(line, None, CAP, 3, RANK_SIMULATIONS, True, SEED) == (None, [])


def test_the_ranking_spends_exactly_its_simulations_and_repeats():
    [line] = lines_at(FROM_PLY, 1, True)
    position = build_book.position_after(line)
    _, simulations, _ = build_book.agent_search(position, 60.0, 1, SEED,
                                                simulations=RANK_SIMULATIONS)
    assert simulations == RANK_SIMULATIONS
    first = prove_lines.likely_replies(position, 3, RANK_SIMULATIONS, SEED)
    assert len(first) == 3
    assert prove_lines.likely_replies(position, 3, RANK_SIMULATIONS, SEED) == first


class InlineExecutor(object):
    """The executor interface, each job run at once in this process."""

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        future.set_result(function(*args))
        return future


def book_of(tmp_path, starts, ply):
    """A book file holding each start line's position at `ply` with a proven winning answer."""
    positions = {}
    for line in starts:
        position = build_book.position_after(line)
        move = endgame.ExactSolver().winning_move(position)
        key, entry = build_book.in_key_frame(position, line, {
            build_book.PLY: ply, build_book.LINE: line, build_book.MOVE: go_board.move_to_text(move),
            build_book.SOURCE: build_book.PROVEN_WIN})
        positions[key] = entry
    book_path = str(tmp_path / "book.txt")
    build_book.write_book(book_path, {"built_with": {"max_ply": 6}, "positions": positions})
    return book_path, positions


def extend_args(book_path, from_ply, replies, after=""):
    return argparse.Namespace(book=book_path, from_ply=from_ply, to_ply=from_ply + 2, after=after,
                              replies=replies, rank_simulations=RANK_SIMULATIONS, cap=CAP)


# Black's lines from ply 15, White's from ply 16: the tool is the same for both sides.
@pytest.mark.parametrize("from_ply", [FROM_PLY, FROM_PLY + 1])
def test_extend_stores_proven_wins_two_plies_past_the_start_under_canonical_keys(tmp_path,
                                                                                 from_ply):
    book_path, positions = book_of(tmp_path, lines_at(from_ply, 2, True), from_ply)
    logged = []
    counts = prove_lines.extend(extend_args(book_path, from_ply, 2), InlineExecutor(),
                                log=logged.append)
    book = opening_book.read(book_path)
    # The plies answered in full are not the tool's to change.
    assert (book.answered_plies(go_board.BLACK), book.answered_plies(go_board.WHITE)) == (6, 6)
    entries = build_book.read_provenance(book_path)["positions"]
    assert len(book) == len(entries)
    added = {key: entry for key, entry in entries.items() if key not in positions}
    # After a winning move every reply is still won for the mover, so all are proven.
    assert counts == {from_ply: [0, 2], from_ply + 2: [len(added), len(added)]}
    assert 2 <= len(added) <= 4 and len(logged) == len(added) + 2
    for key, entry in added.items():
        position = build_book.position_after(entry[build_book.LINE])
        assert position.ply == entry[build_book.PLY] == from_ply + 2
        assert position.to_move == (go_board.BLACK if from_ply % 2 else go_board.WHITE)
        assert build_book.book_key(position) == key
        for symmetry in range(go_board.NUM_SYMMETRIES):
            image = position.transformed(symmetry)
            assert not mover_wins(image.play(book.lookup(image)))


def test_extend_starts_only_from_the_lines_beginning_with_after(tmp_path):
    starts = lines_at(FROM_PLY + 1, 2, True)
    book_path, positions = book_of(tmp_path, starts, FROM_PLY + 1)
    # Lines are matched as the book stores them, in their key's frame.
    stored = [positions[build_book.book_key(build_book.position_after(line))][build_book.LINE]
              for line in starts]
    assert stored[0][0] != stored[1][0]
    args = extend_args(book_path, FROM_PLY + 1, 1, after=stored[1][0])
    counts = prove_lines.extend(args, InlineExecutor(), log=lambda message: None)
    added = [entry for key, entry in build_book.read_provenance(book_path)["positions"].items()
             if key not in positions]
    assert counts == {FROM_PLY + 1: [0, 1], FROM_PLY + 3: [1, 1]}
    # The stored line is in its key's frame: it starts from an image of the chosen start.
    [entry] = added
    start_key = build_book.book_key(build_book.position_after(starts[1]))
    prefix = build_book.position_after(entry[build_book.LINE][:len(starts[1])])
    assert build_book.book_key(prefix) == start_key


def test_each_side_has_its_defaults_and_an_option_given_wins():
    black = prove_lines.parse_args([])
    assert (black.from_ply, black.to_ply, black.after, black.cap) == (5, 9, "", 300.0)
    white = prove_lines.parse_args(["--side", "white", "--cap", "5"])
    assert (white.from_ply, white.to_ply, white.after, white.cap) == (6, 10, "2,2", 5.0)
