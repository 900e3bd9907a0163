"""tools/prove_lines.py: proven wins past the book, on positions near the end of seeded games.

The tool's real positions (plies 7-9) take seconds of PyPy each; here the same code runs from
ply 15 (10 plies left), where the exact solver is instant, and every stored move is checked by a
separate proof of the position it leads to.
"""

import argparse
import concurrent.futures
import json
import os
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import endgame  # noqa: E402
import go_board  # noqa: E402
import opening_book  # noqa: E402
from opponents.simple import RandomPlayer  # noqa: E402
from tools import build_book, prove_lines  # noqa: E402

FROM_PLY = 15
CAP = 20.0
RANK_CPU = 0.05
SEED = 7


def mover_wins(position):
    return endgame.ExactSolver().mover_wins(position)


def black_lines(ply, count, want_win):
    """`count` lines of seeded random games reaching a Black position at `ply` that Black
    wins (`want_win`) or loses under exact play."""
    found, seed = [], 0
    while len(found) < count:
        seed += 1
        player, position, line = RandomPlayer(seed), go_board.Position(), []
        while position.ply < ply and not position.is_over:
            move = player.choose_move(position)
            line.append(go_board.move_to_text(move))
            position = position.play(move)
        if position.ply == ply and not position.is_over and mover_wins(position) == want_win:
            found.append(line)
    return found


def test_a_won_position_gets_a_proven_winning_move_and_the_likely_replies_to_it():
    [line] = black_lines(FROM_PLY, 1, True)
    entry, next_lines = prove_lines.prove_job(line, None, CAP, 3, RANK_CPU, True, SEED)
    position = build_book.position_after(line)
    move = opening_book.parse_answer(entry[opening_book.MOVE])
    assert (entry[build_book.PLY], entry[build_book.LINE]) == (FROM_PLY, line)
    assert entry[build_book.SOURCE] == build_book.PROVEN_WIN
    after = position.play(move)
    assert not mover_wins(after)  # White, to move after it, loses
    assert len(next_lines) == 3
    replies = [next_line[-1] for next_line in next_lines]
    assert len(set(replies)) == 3
    for next_line in next_lines:
        assert next_line[:-1] == line + [entry[opening_book.MOVE]]
        assert after.is_legal(opening_book.parse_answer(next_line[-1]))


def test_a_known_answer_is_played_unproven_and_expanded():
    [line] = black_lines(FROM_PLY, 1, True)
    position = build_book.position_after(line)
    known = go_board.move_to_text(position.legal_placements()[0])
    entry, next_lines = prove_lines.prove_job(line, known, CAP, 2, RANK_CPU, True, SEED)
    assert entry is None
    assert [next_line[:-1] for next_line in next_lines] == [line + [known]] * 2


def test_a_lost_position_is_neither_stored_nor_expanded():
    [line] = black_lines(FROM_PLY, 1, False)
    assert prove_lines.prove_job(line, None, CAP, 3, RANK_CPU, True, SEED) == (None, [])


class InlineExecutor(object):
    """The executor interface, each job run at once in this process."""

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        future.set_result(function(*args))
        return future


def test_extend_stores_proven_wins_two_plies_past_the_start_under_canonical_keys(tmp_path):
    starts = black_lines(FROM_PLY, 2, True)
    positions = {}
    for line in starts:
        position = build_book.position_after(line)
        move = endgame.ExactSolver().winning_move(position)
        key, answer = opening_book.entry(position, move)
        positions[key] = {build_book.PLY: FROM_PLY, build_book.LINE: line,
                          opening_book.MOVE: answer, build_book.SOURCE: build_book.PROVEN_WIN}
    book_path = tmp_path / "book.json"
    book_path.write_text(json.dumps({"built_with": {"max_ply": 6}, "positions": positions}))
    args = argparse.Namespace(book=str(book_path), from_ply=FROM_PLY, to_ply=FROM_PLY + 2,
                              replies=2, rank_cpu=RANK_CPU, cap=CAP)
    logged = []
    counts = prove_lines.extend(args, InlineExecutor(), log=logged.append)
    book = opening_book.read(str(book_path))
    assert book.answered_plies == 6  # the plies answered in full are not the tool's to change
    added = {key: entry for key, entry in book.entries.items() if key not in positions}
    # After a winning move every White reply is still won for Black, so all are proven.
    assert counts == {FROM_PLY: [0, 2], FROM_PLY + 2: [len(added), len(added)]}
    assert 2 <= len(added) <= 4 and len(logged) == len(added) + 2
    for key, entry in added.items():
        position = build_book.position_after(entry[build_book.LINE])
        assert position.ply == entry[build_book.PLY] == FROM_PLY + 2
        assert opening_book.canonical(position)[0] == key
        for symmetry in range(go_board.NUM_SYMMETRIES):
            image = position.transformed(symmetry)
            assert not mover_wins(image.play(opening_book.lookup(image, book.entries)))
