"""The agent in-process (agent.py): its time manager, each source of its decisions and what
each claims, and never an illegal move (its settings: tests/test_agent_settings.py).

Each decision source is driven on a position where its answer is known, and its details are
checked to the letter: a proof is claimed only where one exists (a proven loss says so, with its
best try), and margins are in points for the mover. Budgets are small and every seed is fixed.
Boards are ASCII, X Black, O White. The per-move program around it (input.txt, step files,
process trees) is tests/test_my_player.py's.
"""

import builtins
import collections
import random
from unittest import mock

import pytest
from test_endgame import TWO_REFUTED_NODES, knife_edge

import agent
import agent_settings
import clocks
import decision_log
import endgame
import go_board
import opening_book
from go_board import BLACK, KO, PASS, WHITE, Position, from_coord
from littlego.bench.positions import game_positions
from mcts import core, parallel

SEED = "561"
SMALL_BUDGET = {"LITTLEGO_MOVE_CPU": "0.4", "LITTLEGO_WORKERS": "2", "LITTLEGO_SEED": SEED}
ONE_WORKER = {"LITTLEGO_WORKERS": "1", "LITTLEGO_SEED": SEED}
SEARCH_CPU = 0.3


def decide_now(position, cpu=SEARCH_CPU, **environ):
    """choose_move on `position` with `cpu` seconds from now and the ONE_WORKER settings."""
    settings = agent_settings.Settings(dict(ONE_WORKER, **environ))
    return agent.choose_move(position, clocks.tree_cpu_seconds() + cpu, settings,
                             agent.read_book(settings))


# ---- settings ------------------------------------------------------------------------------

def test_settings_open_no_file_and_the_caller_reads_the_book_they_select(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a file was opened")
    with monkeypatch.context() as patched:
        patched.setattr(builtins, "open", refuse)
        patched.setattr(opening_book, "read", refuse)
        with_book = agent_settings.Settings({})
        without = agent_settings.Settings({"LITTLEGO_BOOK": "0"})
    assert agent.read_book(without) is opening_book.NO_BOOK
    assert agent.read_book(with_book).answered_plies(BLACK) > 0  # the file's


def test_a_moves_deadline_is_its_budget_counted_from_its_start_on_the_tree_clock():
    settings, book = agent_settings.Settings(ONE_WORKER), opening_book.NO_BOOK
    budget = agent.move_budget(9, 3.0, settings, book)
    assert budget > 0.5
    assert agent.plan_move(9, 3.0, settings, book, clocks.PROCESS_START_CPU) == (budget, budget)
    assert agent.plan_move(9, 3.0, settings, book, 100.0) == (budget, 100.0 + budget)
    assert agent.plan_move(9, 3.0, settings, book, 100.0, cap=0.5) == (0.5, 100.5)


# ---- the opening book ---------------------------------------------------------------------

AFTER_BLACK_CENTRE = Position().play(from_coord(2, 2))


class FixedBook(object):
    """A stand-in for opening_book.Book: the same answer everywhere, free through the given
    plies ({colour: ply})."""

    def __init__(self, answer, answered=None, opponent_wins=0):
        self.answer = answer
        self.answered = answered or {}
        self.opponent_wins = opponent_wins

    def entry(self, position):
        return None if self.answer is None else opening_book.Entry(self.answer,
                                                                   self.opponent_wins)

    def answered_plies(self, colour):
        return self.answered.get(colour, 0)


def choose_with_book(position, book, cpu=0.3, **changes):
    """choose_move on `position` with `cpu` seconds from now, the ONE_WORKER settings with
    `changes`, and `book`."""
    settings = agent_settings.Settings(ONE_WORKER).replace(**changes)
    return agent.choose_move(position, clocks.tree_cpu_seconds() + cpu, settings, book)


def test_a_book_answer_that_is_not_a_legal_move_is_not_played():
    # Book.entry gives legal moves only; the agent checks again before playing.
    decision = choose_with_book(AFTER_BLACK_CENTRE, FixedBook(from_coord(2, 2)))  # occupied
    assert decision.source != decision_log.SOURCE_BOOK
    assert decision.move != PASS and AFTER_BLACK_CENTRE.is_legal(decision.move)


@pytest.mark.parametrize("answer", [from_coord(1, 1), PASS], ids=["placement", "PASS"])
def test_a_legal_book_answer_is_played_a_pass_too(answer):
    # The contrast for the test above. A book pass is a proven win (the book holds the winning
    # side's strategy), played even where the pass rule would not pass.
    assert not endgame.winning_pass(AFTER_BLACK_CENTRE)
    decision = choose_with_book(AFTER_BLACK_CENTRE, FixedBook(answer))
    assert decision == decision_log.Decision(answer, decision_log.SOURCE_BOOK, {})


def test_a_book_try_says_the_position_is_lost_and_what_it_asks_of_black():
    # White to move at ply 4 (the centre, White's (1,2), Black's (1,1)): a book try (2,1)
    # stored with Black's 2 winning replies; Black then has 22 legal moves (21 points, PASS).
    position = AFTER_BLACK_CENTRE.play(from_coord(1, 2)).play(from_coord(1, 1))
    decision = choose_with_book(position, FixedBook(from_coord(2, 1), opponent_wins=2))
    assert decision == decision_log.Decision(from_coord(2, 1), decision_log.SOURCE_BOOK, {
        "proven": "loss", "best_try": True, "opponent_wins": 2, "opponent_moves": 22,
        "summary": "lost: Black must find 2 of 22 moves"})


def test_the_book_answers_through_book_plies_only_and_frees_those_plies_alone():
    book = FixedBook(from_coord(1, 1), {BLACK: 11, WHITE: 10})
    after_white = AFTER_BLACK_CENTRE.play(from_coord(1, 2))
    assert choose_with_book(after_white, book, book_plies=3) == \
        decision_log.Decision(from_coord(1, 1), decision_log.SOURCE_BOOK, {})
    later = after_white.play(from_coord(1, 1)).play(from_coord(2, 1))
    assert choose_with_book(later, book, book_plies=3).source == decision_log.SOURCE_MCTS
    roomy = agent_settings.Settings(ONE_WORKER).replace(move_cpu=100.0, game_cpu=50.0)
    assert agent.move_budget(5, 0.0, roomy.replace(book_plies=3), book) < \
        agent.move_budget(5, 0.0, roomy, book)
    assert agent_settings.Settings({"LITTLEGO_BOOK_PLIES": "3"}).book_plies == 3
    assert agent_settings.Settings({}).book_plies == go_board.MAX_PLY
    with pytest.raises(ValueError):
        agent_settings.Settings({"LITTLEGO_BOOK_PLIES": "25"})


def test_black_never_passes_first_whatever_the_book_says():
    decision = choose_with_book(Position(), FixedBook(PASS))
    assert (decision.move, decision.source) == (from_coord(2, 2), decision_log.SOURCE_CENTRE_RULE)


def test_book_moves_are_free_through_the_plies_the_book_answers_for_the_mover():
    # Black's moves through ply 9 are free, White's none: with 50 s left, Black at ply 9 shares
    # them among its 7 later moves (plies 11-23, the last 7 weighing half with the solver on),
    # White at ply 10 among its 8 (plies 10-24).
    book = FixedBook(None, {BLACK: 9, WHITE: 0})
    settings = agent_settings.Settings(ONE_WORKER).replace(move_cpu=100.0, game_cpu=50.0)
    weight = agent.SOLVER_MOVE_WEIGHT
    solver_plies = [ply for ply in range(1, go_board.MAX_PLY + 1)
                    if go_board.plies_left(ply) <= endgame.EXACT_PLIES_LEFT]

    def weights(plies):
        return sum(weight if ply in solver_plies else 1.0 for ply in plies)
    assert agent.move_budget(9, 0.0, settings, book) == \
        pytest.approx(50.0 / weights(range(11, 24, 2)))
    assert agent.move_budget(10, 0.0, settings, book) == \
        pytest.approx(50.0 / weights(range(10, 25, 2)))



def test_the_fallback_for_blacks_first_move_is_the_centre(monkeypatch):
    # When the search fails at ply 1 (e.g. a malformed book entry makes lookup raise), the
    # fallback still decides the game: every first move but the centre is a proven loss.
    def broken_search(*args):
        raise ValueError("malformed book entry")
    monkeypatch.setattr(agent, "choose_move", broken_search)
    settings = agent_settings.Settings(SMALL_BUDGET)
    decision = agent.decide(Position(), clocks.tree_cpu_seconds() + 0.5, settings,
                            opening_book.NO_BOOK)
    assert decision == decision_log.Decision(from_coord(2, 2), decision_log.SOURCE_FALLBACK,
                                      {"error": "ValueError: malformed book entry"})


# ---- what each source of a decision claims -----------------------------------------------

# White to move at the last ply. Black's 3x3 block has one liberty, 3,0: taking it leaves
# White 6 stones to none, a win by 6 + 2.5 = 8.5. Any other placement or a pass leaves Black
# ahead (9 stones against 6 + 2.5, or 5 + 2.5): 3,0 is the one winning move.
ONE_CAPTURE_WINS = """
    X X X O .
    X X X O .
    X X X O .
    . O O . .
    . . . . ."""
# The board before Black's last stone, at 2,2.
ONE_CAPTURE_WINS_BEFORE = """
    X X X O .
    X X X O .
    X X . O .
    . O O . .
    . . . . ."""
LAST_PLY_CAPTURE = Position.from_text(ONE_CAPTURE_WINS, WHITE, 24, previous=ONE_CAPTURE_WINS_BEFORE)
THE_CAPTURE = from_coord(3, 0)
# Black to move at ply 23 with 4 stones against White's 13 + 2.5: every move loses.
HOPELESS = """
    O O O O O
    O . O . O
    O O O O O
    . . . . .
    X X X X ."""
HOPELESS_BEFORE = """
    O O O O O
    O . O . O
    O O O O O
    . . . . .
    X X X . ."""
# Black to move at ply 13 after White's pass: 10 stones against 6 + 2.5, so passing wins by 1.5.
WHITE_PASSED = """
    X X X . .
    X . X O O
    X X X O .
    . . X O O
    . . X O ."""


def test_a_winning_pass_claims_the_win_and_its_margin():
    position = Position.from_text(WHITE_PASSED, BLACK, 13)
    assert decide_now(position) == decision_log.Decision(
        PASS, decision_log.SOURCE_WINNING_PASS, {"proven": "win", "margin": 1.5})


def test_the_centre_rule_claims_the_win():
    assert decide_now(Position()) == decision_log.Decision(
        from_coord(2, 2), decision_log.SOURCE_CENTRE_RULE, {"proven": "win"})


def test_an_exact_win_claims_the_win_and_its_margin_in_points():
    assert decide_now(LAST_PLY_CAPTURE) == decision_log.Decision(
        THE_CAPTURE, decision_log.SOURCE_EXACT,
        {"proven": "win", "margin": 8.5, "proof_cpu": mock.ANY})


def test_an_exact_decision_says_what_its_proof_cost(monkeypatch):
    monkeypatch.setattr(endgame, "choose_endgame_move", lambda *args, **kwargs: endgame.ExactMove(
        THE_CAPTURE, decision_log.PROVEN_WIN, 8.5, proof_cpu=0.12345))
    assert decide_now(LAST_PLY_CAPTURE).details == {"proven": "win", "margin": 8.5,
                                                    decision_log.PROOF_CPU_KEY: 0.123}


def test_an_exact_win_whose_margin_search_ran_out_claims_the_margin_proven_so_far(monkeypatch):
    def out_of_time(solver, position, leader, margin):
        raise clocks.OutOfTime()
    monkeypatch.setattr(endgame.ExactSolver, "margin_steps", out_of_time)
    assert decide_now(LAST_PLY_CAPTURE) == decision_log.Decision(
        THE_CAPTURE, decision_log.SOURCE_EXACT, {"proven": "win", "margin_at_least": 0.5,
                                          "proof_cpu": mock.ANY})


def test_a_won_position_gets_its_margin_search_the_whole_move_but_the_exit_reserve(
        monkeypatch):
    deadlines = []

    def record(position, cpu_deadline=None, table=None, margin_deadline=None,
               margin_wall=None):
        deadlines.append((cpu_deadline, margin_deadline))
        assert margin_wall is agent.wall_limit
        return endgame.ExactMove(THE_CAPTURE, decision_log.PROVEN_WIN, 8.5)
    monkeypatch.setattr(endgame, "choose_endgame_move", record)
    settings = agent_settings.Settings(dict(ONE_WORKER))
    move_deadline = clocks.tree_cpu_seconds() + 5.0
    agent.choose_move(LAST_PLY_CAPTURE, move_deadline, settings, agent.read_book(settings))
    (proof_deadline, margin_deadline), = deadlines
    # One ply left: the proof gets all but MCTS's floor, the margins all but the exit reserve.
    assert margin_deadline == pytest.approx(move_deadline - agent.EXIT_RESERVE_CPU)
    assert proof_deadline == pytest.approx(
        move_deadline - agent.MIN_SEARCH_CPU - agent.EXIT_RESERVE_CPU, abs=0.05)


def test_an_exact_loss_claims_the_loss_and_plays_the_best_try():
    position = Position.from_text(HOPELESS, BLACK, 23, previous=HOPELESS_BEFORE)
    assert not endgame.ExactSolver().mover_wins(position)
    # Every White reply wins after each Black move: 8 of 8 after the placements on row 3 and
    # (4,4), 9 of 9 after the pass, 7 of 7 after (3,4) (the compiled solver counts the same).
    assert endgame.ExactSolver().best_try(position) == (from_coord(3, 4), 7)
    assert decide_now(position) == decision_log.Decision(
        from_coord(3, 4), decision_log.SOURCE_EXACT,
        {"proven": "loss", "best_try": True, "opponent_wins": 7, "opponent_moves": 7,
         "summary": "lost: White must find 7 of 7 moves", "proof_cpu": mock.ANY})


def test_the_search_claims_the_proofs_of_its_solver_for_each_candidate():
    # Without the exact search the MCTS solver proves the last ply's children itself: the
    # capture a win, every other move it listed a loss.
    decision = decide_now(LAST_PLY_CAPTURE, LITTLEGO_SOLVER="0")
    assert (decision.move, decision.source) == (THE_CAPTURE, decision_log.SOURCE_MCTS)
    candidates = decision.details["candidates"]
    assert candidates[0]["move"] == "3,0" and candidates[0]["proven"] == "win"
    assert len(candidates) == agent.TOP_CANDIDATES
    assert [candidate.get("proven") for candidate in candidates[1:]] == ["loss"] * 4


# Black to move at ply 15, White having just played (1,3): (0,1), (1,0), (2,0) and (2,1) each
# win by 4.5 points, the most any move gets (the compiled solver's values).
FOUR_BEST_MOVES = """
    . . O O O
    . X O O .
    . . X . .
    O X X X .
    . X . X ."""
FOUR_BEST_MOVES_BEFORE = """
    . . O O O
    . X O . .
    . . X . .
    O X X X .
    . X . X ."""


def test_the_exact_search_decides_every_image_of_a_position_alike():
    # Ties go to the earlier move in search order, which the canonical frame makes the same for
    # every image: the same move, mapped, and the same margin.
    position = Position.from_text(FOUR_BEST_MOVES, BLACK, 15, previous=FOUR_BEST_MOVES_BEFORE)
    for symmetry in range(go_board.NUM_SYMMETRIES):
        decision = decide_now(position.transformed(symmetry), cpu=5.0)
        assert decision.move == go_board.SYMMETRIC_POINT[symmetry][from_coord(2, 1)]
        assert (decision.source, decision.details["margin"]) == (decision_log.SOURCE_EXACT, 4.5)


# ---- the exact search's share, and what MCTS learns from it when it runs out ---------------

def test_past_its_first_ply_the_exact_search_gets_all_of_the_move_but_the_floor_of_mcts():
    floor = agent.MIN_SEARCH_CPU + agent.EXIT_RESERVE_CPU
    first = endgame.EXACT_PLIES_LEFT
    assert agent.exact_search_cpu(8.0, first) == pytest.approx(agent.SOLVER_SHARE * 8.0)
    assert agent.exact_search_cpu(8.0, first - 1) == pytest.approx(8.0 - floor)
    assert agent.exact_search_cpu(8.0, 3) == pytest.approx(8.0 - floor)
    assert agent.exact_search_cpu(floor / 2, 3) == 0.0
    assert agent.exact_search_cpu(floor / 2, first) == 0.0


def test_the_search_plays_no_move_the_exact_search_refuted_while_another_is_left():
    position = Position()
    liked, other = from_coord(4, 4), from_coord(3, 0)
    children = [core.ChildStats(liked, 90, 80.0, None), core.ChildStats(other, 10, 4.0, None)]
    assert agent.searched_move(position, children) == liked
    assert agent.searched_move(position, children, frozenset([liked])) == other
    assert agent.searched_move(position, children, frozenset([liked, other])) == liked
    # Every placement refuted, the pass not yet (the proof tries it last): still no pass.
    passing = core.ChildStats(PASS, 50, 45.0, None)
    assert agent.searched_move(position, children + [passing],
                               frozenset([liked, other])) == liked


def test_when_the_proof_runs_out_mcts_plays_none_of_the_moves_it_refuted(monkeypatch):
    def proof_cut_short(position, cpu_deadline=None, table=None, margin_deadline=None,
                        margin_wall=None):
        with pytest.raises(clocks.OutOfTime):
            endgame.ExactSolver(table=table, node_cap=TWO_REFUTED_NODES).winning_move(position)
    monkeypatch.setattr(endgame, "choose_endgame_move", proof_cut_short)
    # The search runs in the position's canonical frame, its transpose, where it refutes (1,1),
    # (4,4) and (4,3) within those nodes: (1,1), (4,4) and (3,4) here, and their images in
    # every image of the position.
    refuted = [from_coord(1, 1), from_coord(3, 4), from_coord(4, 4)]
    for symmetry in range(go_board.NUM_SYMMETRIES):
        image = knife_edge().transformed(symmetry)
        decision = decide_now(image, LITTLEGO_BOOK="0")  # the book answers this seam position
        assert decision.source == decision_log.SOURCE_MCTS
        mapped = [go_board.SYMMETRIC_POINT[symmetry][move] for move in refuted]
        assert decision.details["refuted"] == sorted(go_board.move_to_text(move)
                                                     for move in mapped)
        assert decision.move not in mapped


# ---- never an illegal move ---------------------------------------------------------------

def has_ko_point(position):
    """Some placement is illegal only because it would recreate the previous board."""
    empty = go_board.FULL ^ position.black ^ position.white
    return any(position.try_play(point) == KO for point in go_board.points_of(empty))


# Positions along seeded games that take single-stone captures when they can (kos), and pass
# now and then (positions where the next pass ends the game).
SAMPLE_PASS_RATE = 0.08
SAMPLE_CAPTURE_RATE = 0.9


def test_never_an_illegal_move_on_2000_random_reachable_positions(monkeypatch):
    # Tiny budgets keep this fast: the exact search gets a few milliseconds and the MCTS a
    # few more (MIN_SEARCH_CPU would otherwise give every search 0.2 s).
    monkeypatch.setattr(agent, "MIN_SEARCH_CPU", 0.003)
    settings = agent_settings.Settings(dict(ONE_WORKER, LITTLEGO_MOVE_CPU="0.01"))
    book = agent.read_book(settings)
    positions = game_positions(random.Random(2), 2000, SAMPLE_PASS_RATE, SAMPLE_CAPTURE_RATE,
                               single_captures=True)
    sample = collections.Counter()
    sources = collections.Counter()
    for position in positions:
        decision = agent.choose_move(position, clocks.tree_cpu_seconds() + 0.01, settings, book)
        move = decision.move
        assert move == PASS or position.is_legal(move), (position, go_board.move_to_text(move))
        sources[decision.source] += 1
        sample["black" if position.to_move == BLACK else "white"] += 1
        sample["ko"] += has_ko_point(position)
        sample["after a pass"] += position.ply > 1 and position.pass_ends_game
    # The sample really holds what it is meant to (counts for this seed: ko 21, after a pass
    # 140, Black 1002), and every branch of choose_move answered some of it.
    assert sample["ko"] >= 15 and sample["after a pass"] >= 100
    assert sample["black"] >= 900 and sample["white"] >= 900
    assert all(sources[source] >= 20 for source in ("book", "exact", "mcts", "winning pass")), \
        sources


# ---- the search ---------------------------------------------------------------------------

@pytest.mark.parametrize("plies, solver_plies", [("0", None), ("6", 6)])
def test_the_leaf_solve_setting_reaches_the_search(monkeypatch, plies, solver_plies):
    # K = 0 gives the search no leaf solver at all (the search as before); K > 0 a LeafSolver(K).
    seen = []

    def fake_search(*args, **kwargs):
        seen.append(kwargs["leaf_solver"])
        return [core.ChildStats(from_coord(1, 1), 1, 1.0, None)], 1, 1
    monkeypatch.setattr(parallel, "root_parallel_search", fake_search)
    settings = agent_settings.Settings(dict(ONE_WORKER, LITTLEGO_LEAF_SOLVE_PLIES=plies))
    move, _ = agent.search_move(AFTER_BLACK_CENTRE, clocks.tree_cpu_seconds() + SEARCH_CPU,
                                settings)
    assert move == from_coord(1, 1)
    assert [None if solver is None else solver.plies for solver in seen] == [solver_plies]
