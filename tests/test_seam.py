"""solver/seam.py: the book's answers just past its strategies, where the in-game exact search
would refute a losing move before it finds a winning one.

Small strategies near the end of seeded games (tests/test_strategy.py's) give seams the
Python exact search (endgame.ExactSolver) checks on its own: every answer wins, every position
left unanswered is one whose first move in the search's order wins, and verify-book's check
finds the answers missing from a book without them.
"""

import random

import pytest
from test_endgame import knife_edge
from test_strategy import SEED, TABLE_BITS, small_strategy, walked

import endgame
import go_board
import opening_book
from go_board import BLACK, WHITE, from_coord
from littlego import solver
from littlego.bench import handover
from littlego.solver import seam, strategy

HEADER = {"answered_plies": {BLACK: 0, WHITE: 0}}


def test_the_seam_is_the_winners_first_ply_past_each_strategy():
    plies = {plan.name: seam.seam_ply(plan) for plan in strategy.book_plans()}
    assert plies == {"black": 13, "white-after-00": 12, "white-after-01": 12,
                     "white-after-02": 12, "white-after-11": 12, "white-after-12": 12,
                     "white-after-mistakes": 12, "white-after-slips": 12}


def test_the_knife_edge_refutes_eleven_moves_before_its_only_win():
    # In its canonical frame, its transpose, where (0,3) is the only win.
    with solver.Solver(TABLE_BITS) as search:
        assert seam.losing_first(search, knife_edge()) == (11, from_coord(3, 0))
        for symmetry in range(go_board.NUM_SYMMETRIES):
            image = knife_edge().transformed(symmetry)
            assert seam.losing_first(search, image) == (
                11, go_board.SYMMETRIC_POINT[symmetry][from_coord(3, 0)])


# Seed -> (seam positions, those answered): the compiled solver's counts, each position
# checked by the Python solver below.
SEAMS = {SEED: (186, 8), SEED + 1: (208, 22), SEED + 2: (160, 0)}


@pytest.mark.parametrize("seed", sorted(SEAMS))
def test_seam_answers_win_where_the_first_move_loses_and_only_there(tmp_path, seed):
    plan = small_strategy(seed)
    path = str(tmp_path / "book.txt")
    opening_book.write(path, walked(plan), HEADER)
    book = opening_book.read(path)
    with solver.Solver(TABLE_BITS) as search:
        found, stats = seam.answers(book, search, (), plans=(plan,))
        positions = seam.positions(book, plan, [strategy.position_after(plan.start)])
        assert stats[plan.name]["positions"] == len(positions) > 0
        assert stats[plan.name]["answers"] == len(found)
        assert {position.ply for position in positions} == {seam.seam_ply(plan)}
        answered = 0
        for position in positions:
            key, _ = opening_book.position_key(position)
            framed = position.transformed(go_board.canonical_symmetry(position))
            first_child = endgame.ExactSolver().root_moves(framed)[0][1]
            first_wins = endgame.ExactSolver().move_wins(framed, first_child)
            assert (key in found) == (not first_wins), position
            answered += key in found
        assert (len(positions), answered) == SEAMS[seed]
        # verify-book's check: the book without the seam misses exactly these answers.
        checked, failures = seam.check(book, plan, search, ())
        assert checked == len(failures) == len(found)
        assert all(move is None for _, move in failures)
        with_answers = walked(plan)
        with_answers.update(found)
        opening_book.write(path, with_answers, HEADER)
        with_seam = opening_book.read(path)
        assert seam.check(with_seam, plan, search, ()) == (len(found), [])
    for position in positions:
        move = with_seam.lookup(position)
        if move is not None:
            child = dict(endgame.ExactSolver().root_moves(position))[move]
            assert endgame.ExactSolver().move_wins(position, child), position


# ---- the committed book's seam --------------------------------------------------------------

def test_the_book_answers_the_knife_edge_with_its_only_winning_move():
    assert opening_book.read().lookup(knife_edge()) == from_coord(3, 0)


# Seeded lines to the committed book's seam after Black's centre, White (the loser) seeking
# knife edges: the seam positions the book answers there, each answer proven by the Python exact
# search.
SEAM_LINES = 24
SEAM_SEED = 36


def answered_seam_positions(lines, seed):
    book = opening_book.read()
    rng = random.Random(seed)
    plan = strategy.STRATEGIES[0]  # Black's: its seam holds two thirds of the answers
    found = []
    with solver.Solver(TABLE_BITS) as search:
        for _ in range(lines):
            position = strategy.position_after(plan.start)
            while position.ply < seam.seam_ply(plan) and not position.is_over:
                if position.to_move == plan.winner:
                    move = book.lookup(position)
                elif position.ply >= handover.ADVERSARY_FROM_PLY:
                    move = handover.adversary_move(search, position, rng)
                else:
                    move = rng.choice(position.legal_moves())
                position = position.play(move)
            if not position.is_over and book.lookup(position) is not None:
                found.append((position, book.lookup(position)))
    return found


def test_the_books_seam_answers_on_knife_edge_lines_win_for_the_python_solver():
    found = answered_seam_positions(SEAM_LINES, SEAM_SEED)
    assert len(found) >= 5
    for position, move in found:
        python = endgame.ExactSolver()
        assert python.move_wins(position, dict(python.root_moves(position))[move]), position
