"""littlego/bench/slips.py: who wins a game, ply by ply, from the centre on; Black's first slip
and White's thrown wins. A scripted prover pins what is asked and when; the compiled solver,
checked against the Python exact search, judges a real slip."""

import random

import pytest

import endgame
import opening_book
from go_board import BLACK, WHITE, Position, from_coord, move_from_text
from littlego import solver
from littlego.bench import slips

CENTRE = from_coord(2, 2)


class ScriptedProver(object):
    """`wins(position, move)` from a table {ply: keeps}; every question recorded."""

    def __init__(self, answers):
        self.answers = answers
        self.asked = []

    def wins(self, position, move, cpu_limit):
        self.asked.append(position.ply)
        answer = self.answers[position.ply]
        if answer is solver.OutOfTime:
            raise solver.OutOfTime()
        return answer


class ScriptedBook(object):
    def __init__(self, answers):
        self.answers = answers  # {ply: the book's move}

    def lookup(self, position):
        return self.answers.get(position.ply)


def moves(*texts):
    return [move_from_text(text) for text in texts]


GAME = moves("2,2", "1,1", "1,2", "2,1", "3,2", "1,3", "3,1", "2,3", "0,1")


def test_only_the_winners_moves_off_the_book_are_proven():
    # Black wins from the centre; its ply-3 move is the book's, its ply-5 move is proven to
    # keep the win, its ply-7 move throws it away. Then White wins: its ply-8 move is proven.
    prover = ScriptedProver({5: True, 7: False, 8: True})
    book = ScriptedBook({3: move_from_text("1,2")})
    verdict = slips.judge_game(GAME, book, prover, 10.0)
    assert verdict == slips.Verdict(centre=True, first_slip=7, thrown=[], unproven=[])
    assert prover.asked == [5, 7, 8]  # White's moves while lost (2, 4, 6) are never asked


def test_a_win_given_back_and_taken_again():
    prover = ScriptedProver({3: False, 4: False, 5: True, 7: True, 9: False})
    verdict = slips.judge_game(GAME, opening_book.NO_BOOK, prover, 10.0)
    # 3: Black slips; 4: White gives it back; 5, 7: Black keeps it; 9: Black slips again.
    assert verdict == slips.Verdict(centre=True, first_slip=3, thrown=[4], unproven=[])
    assert prover.asked == [3, 4, 5, 7, 9]


def test_an_unfinished_proof_stops_the_judging():
    prover = ScriptedProver({3: solver.OutOfTime})
    verdict = slips.judge_game(GAME, opening_book.NO_BOOK, prover, 10.0)
    assert verdict == slips.Verdict(centre=True, first_slip=None, thrown=[], unproven=[3])
    assert prover.asked == [3]


def test_a_game_not_opened_at_the_centre_is_not_judged():
    prover = ScriptedProver({})
    verdict = slips.judge_game(moves("0,0", "2,2"), opening_book.NO_BOOK, prover, 10.0)
    assert verdict == slips.Verdict(centre=False, first_slip=None, thrown=[], unproven=[])
    assert prover.asked == []


def book_line_to(ply, rng, book):
    """Black's book moves from the centre against random White moves, to `ply`."""
    position = Position()
    line = []
    while position.ply < ply:
        if position.to_move == BLACK:
            move = book.lookup(position) if position.ply > 1 else CENTRE
        else:
            move = rng.choice(position.legal_placements())
        line.append(move)
        position = position.play(move)
    return position, line


@pytest.mark.skipif(not solver.available(), reason="the compiled solver is not built")
def test_a_real_slip_past_the_book_agrees_with_the_python_solver():
    book = opening_book.read()
    position, line = book_line_to(13, random.Random(7), book)
    assert position.to_move == BLACK and book.lookup(position) is None
    with solver.Solver(20) as prover:
        results = prover.move_results(position)
        losing = sorted(move for move, keeps in results.items() if not keeps)
        slip = losing[0]
        # The independent check: after the slip, White to move wins by the Python exact search.
        assert endgame.ExactSolver().mover_wins(position.play(slip))
        after = position.play(slip)
        answer = prover.winning_move(after)
        verdict = slips.judge_game(line + [slip, answer], book, prover, 60.0)
    assert verdict == slips.Verdict(centre=True, first_slip=13, thrown=[], unproven=[])
    assert after.to_move == WHITE and answer in after.legal_moves()
