"""solver/strategy.py and littlego/solver/build_book.py on small strategies near the end of a game, where
the Python solver (endgame.ExactSolver) can check every answer independently.

A strategy there starts from a seeded game's position a few plies from the end and answers up to
a ply close after it: the walk must answer every position the loser can reach with a move the
Python solver proves winning, give the same answers on every run, and the builder must write
the same bytes twice, resume from its saved jobs, and refuse nothing it built.
"""

import concurrent.futures
import itertools
import json
import multiprocessing
import random

import pytest

import endgame
import go_board
import opening_book
from go_board import BLACK, WHITE, Position
from littlego import solver
from littlego.bench.positions import pick_move
from littlego.solver import build_book, repertoire, strategy, verify_book

SEED = 31
START_PLY = 17
LAST_PLY = 21
TABLE_BITS = 18


def seeded_line(seed):
    """A seeded game's first START_PLY - 1 moves as move texts, and its position."""
    rng = random.Random(seed)
    position, line = Position(), []
    while position.ply < START_PLY:
        move = pick_move(rng, position, pass_rate=0.0, capture_rate=0.5)
        line.append(go_board.move_to_text(move))
        position = position.play(move)
    return tuple(line), position


def small_strategy(seed, name="small"):
    """A strategy for whoever wins the seeded position, answering up to LAST_PLY."""
    line, position = seeded_line(seed)
    winner = position.to_move if endgame.ExactSolver().mover_wins(position) \
        else go_board.other(position.to_move)
    return strategy.Strategy(name, winner, line, LAST_PLY, False)


def walked(plan):
    answers = {}
    for job in strategy.jobs(plan):
        with solver.Solver(TABLE_BITS) as search:
            answers.update(strategy.walk(search, job)[0])
    return answers


def book_positions(plan, answers):
    """Every position of the strategy: the loser plays every move, the winner the answer."""
    positions, stack = [], [strategy.position_after(plan.start)]
    while stack:
        position = stack.pop()
        if position.is_over or position.ply > plan.last_ply:
            continue
        if position.to_move != plan.winner:
            stack.extend(position.play(move) for move in position.legal_moves())
            continue
        key, symmetry = opening_book.position_key(position)
        assert key in answers, position
        positions.append(position)
        move = go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answers[key]]
        stack.append(position.play(move))
    return positions


@pytest.mark.parametrize("seed", [SEED, SEED + 1, SEED + 2])
def test_every_answer_of_a_walk_is_a_win_for_the_python_solver(seed):
    plan = small_strategy(seed)
    answers = walked(plan)
    positions = book_positions(plan, answers)
    assert len(positions) >= 5
    for position in positions:
        key, symmetry = opening_book.position_key(position)
        move = go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answers[key]]
        python = endgame.ExactSolver()
        assert python.move_wins(position, dict(python.root_moves(position))[move]), position


def test_a_walk_gives_the_same_answers_every_time():
    plan = small_strategy(SEED)
    here = walked(plan)
    # One answer for every position of the strategy (book_positions follows it by the rules
    # alone), no more.
    assert set(here) == {opening_book.position_key(position)[0]
                         for position in book_positions(plan, here)}
    assert len(here) == 58
    # The builder's job runner in a fresh interpreter (spawned: its own load of the library, its
    # own addresses) gives the same answers.
    spawned = {}
    with concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn")) as pool:
        for answers, _ in pool.map(strategy.run_job, strategy.jobs(plan),
                                   itertools.repeat(TABLE_BITS)):
            spawned.update(answers)
    assert spawned == here


def test_a_position_the_winner_loses_breaks_the_walk():
    plan = small_strategy(SEED)
    loser = plan._replace(name="wrong side", winner=go_board.other(plan.winner))
    with pytest.raises(strategy.StrategyBroken):
        walked(loser)


def test_the_strategies_are_blacks_after_the_centre_and_whites_after_the_rest():
    assert [(plan.winner, plan.start, plan.last_ply, plan.after_mistakes)
            for plan in strategy.STRATEGIES] == [
        (BLACK, ("2,2",), 11, False), (WHITE, ("0,0",), 10, False),
        (WHITE, ("0,1",), 10, False), (WHITE, ("0,2",), 10, False),
        (WHITE, ("1,1",), 10, False), (WHITE, ("1,2",), 10, False),
        (WHITE, ("2,2",), 10, True)]
    # The six first points up to symmetry: the centre and the five losing ones.
    firsts = {opening_book.position_key(Position().play(go_board.move_from_text(move)))[0]
              for plan in strategy.STRATEGIES for move in plan.start}
    assert len(firsts) == 6


def test_blacks_strategy_is_cut_below_each_white_reply_up_to_symmetry():
    black = strategy.STRATEGIES[0]
    assert [job.line for job in strategy.jobs(black)] == [
        ("2,2", "0,0"), ("2,2", "0,1"), ("2,2", "0,2"), ("2,2", "1,1"), ("2,2", "1,2"),
        ("2,2", "PASS")]
    white = strategy.STRATEGIES[1]
    assert [job.line for job in strategy.jobs(white)] == [("0,0",)]


def test_after_mistakes_the_jobs_are_every_own_move_and_reply_up_to_symmetry():
    mistakes = strategy.STRATEGIES[-1]
    lines = [job.line for job in strategy.jobs(mistakes)]
    assert len(lines) == len(set(lines)) == 86
    assert {line[:2] for line in lines} == {line for line in (
        job.line for job in strategy.jobs(strategy.STRATEGIES[0]))}
    assert lines[0] == ("2,2", "0,0", "0,1")


def lost_line(seed):
    """A seeded line (as seeded_line) whose side to move loses but wins again after one of its
    moves and a mistake of the other side's, for the Python solver."""
    while True:
        line, position = seeded_line(seed)
        if not endgame.ExactSolver().mover_wins(position) and any(
                endgame.ExactSolver().mover_wins(position.play(own).play(reply))
                for own in position.legal_moves()
                for reply in position.play(own).legal_moves()):
            return line, position
        seed += 100


def test_after_mistakes_every_won_reply_is_answered_and_every_other_is_a_proven_loss():
    line, position = lost_line(SEED)
    plan = strategy.Strategy("mistakes", position.to_move, line, LAST_PLY, True)
    walked_jobs = 0
    for job in strategy.jobs(plan):
        answers, stats = strategy.run_job(job, TABLE_BITS)
        start = strategy.position_after(job.line)
        python_wins = endgame.ExactSolver().mover_wins(start)
        assert stats.get("lost", False) is not python_wins, start
        if python_wins:
            walked_jobs += 1
            sub_plan = plan._replace(start=job.line, after_mistakes=False)
            for answered in book_positions(sub_plan, answers):
                key, symmetry = opening_book.position_key(answered)
                move = go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answers[key]]
                python = endgame.ExactSolver()
                assert python.move_wins(answered, dict(python.root_moves(answered))[move])
    assert walked_jobs > 0


def test_a_mistake_that_ends_the_game_needs_no_answer_and_is_no_failure():
    # Found by the first full `make verify-book`: after the centre and White's pass, Black's pass
    # ends the game lost for Black (1 stone against komi 2.5); the book has nothing to answer.
    mistakes = strategy.STRATEGIES[-1]
    over = strategy.position_after(("2,2", "PASS", "PASS"))
    assert over.is_over and over.ply == 4
    book = opening_book.read()
    assert book.lookup(over) is None
    with solver.Solver(TABLE_BITS) as search:
        assert search.wins(over)
        assert strategy.check(book, mistakes, search, begins=[over]) == (0, [])


def small_repertoire(seed, rule="fewest"):
    """A repertoire (solver/repertoire.py) for the loser of a seeded `lost_line`."""
    line, position = lost_line(seed)
    return repertoire.Repertoire("small-" + rule, position.to_move, line, LAST_PLY, rule)


def use_small_repertoire(monkeypatch):
    """The build's repertoire and slips' strategy made small: the repertoire of `SEED`."""
    plan = small_repertoire(SEED)
    monkeypatch.setattr(repertoire, "REPERTOIRE", plan)
    monkeypatch.setattr(strategy, "AFTER_SLIPS", strategy.Strategy(
        "small-after-slips", plan.loser, plan.start, LAST_PLY, True))
    return plan


@pytest.fixture
def small_plans(monkeypatch):
    plans = (small_strategy(SEED, "first"), small_strategy(SEED + 1, "second"))
    monkeypatch.setattr(strategy, "STRATEGIES", plans)
    use_small_repertoire(monkeypatch)
    return plans


def job_count(plans):
    """The build's jobs: the strategies', then one per slip of the small repertoire."""
    with solver.Solver(TABLE_BITS) as search:
        slips = repertoire.walk(search, repertoire.REPERTOIRE)[1]
    return sum(len(strategy.jobs(plan)) for plan in plans) + len(slips)


def build(tmp_path, *extra):
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "book.txt"
    argv = ["--jobs", "1", "--table-bits", str(TABLE_BITS), "--cache",
            str(tmp_path / "jobs"), "--out", str(out)] + list(extra)
    assert build_book.main(argv) == 0
    return out.read_bytes()


def check_built_book(tmp_path, plans):
    """The book `build(tmp_path)` wrote answers every position of `plans` with a move the Python
    solver proves winning, and the empty board with the centre."""
    book = opening_book.read(str(tmp_path / "book.txt"))
    for plan in plans:
        for position in book_positions(plan, walked(plan)):
            move = book.lookup(position)
            python = endgame.ExactSolver()
            assert python.move_wins(position, dict(python.root_moves(position))[move])
    assert book.lookup(Position()) == strategy.CENTRE


def test_the_builder_writes_the_same_bytes_twice_and_resumes(tmp_path, small_plans, capsys):
    count = job_count(small_plans)
    first = build(tmp_path)
    assert "{} jobs, 0 saved, {} to run".format(count, count) in capsys.readouterr().out
    check_built_book(tmp_path, small_plans)
    assert build(tmp_path, "--fresh") == first
    assert build(tmp_path) == first
    assert "{} saved, 0 to run".format(count) in capsys.readouterr().out


def test_jobs_saved_by_another_version_of_the_solver_are_not_reused(tmp_path, small_plans,
                                                                    monkeypatch, capsys):
    count = job_count(small_plans)
    first = build(tmp_path)
    check_built_book(tmp_path, small_plans)
    monkeypatch.setattr(solver, "source_digest", lambda: "another")
    capsys.readouterr()
    assert build(tmp_path) == first
    assert "{} jobs, 0 saved, {} to run".format(count, count) in capsys.readouterr().out


def verified(book_path, capsys):
    """verify_book's exit code and its JSON per strategy, the full check on one process."""
    capsys.readouterr()
    code = verify_book.main(["--book", str(book_path), "--jobs", "1",
                             "--table-bits", str(TABLE_BITS)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_full_check_passes_the_built_book_and_names_a_losing_answer(tmp_path, small_plans,
                                                                        capsys):
    build(tmp_path)
    book_path = tmp_path / "book.txt"
    code, reports = verified(book_path, capsys)
    assert code == 0
    parts = [plan.name for plan in small_plans] + [strategy.AFTER_SLIPS.name]
    assert [report["strategy"] for report in reports] == [repertoire.REPERTOIRE.name] + parts + [
        verify_book.SEAM_PREFIX + name for name in parts]
    assert [report["failures"] for report in reports[-len(parts):]] == [[]] * len(parts)
    for plan, report in zip(small_plans, reports[1:]):
        assert report["failures"] == []
        distinct = {opening_book.position_key(position)[0]
                    for position in book_positions(plan, walked(plan))}
        assert report["checked"] >= len(distinct) >= 5
    # One answer of the first strategy replaced by a move the Python solver proves losing.
    answers = walked(small_plans[0])
    answers.update(walked(small_plans[1]))
    python = endgame.ExactSolver()
    spoiled = next((position, move) for position in book_positions(small_plans[0], answers)
                   for move, child in python.root_moves(position)
                   if not python.move_wins(position, child))
    key, move = opening_book.record(*spoiled)
    answers[key] = move
    opening_book.write(str(book_path), answers, {})
    code, reports = verified(book_path, capsys)
    position = spoiled[0]
    assert code == 1
    assert {"ply": position.ply, "board": go_board.board_to_digits(position.black, position.white),
            "book": go_board.move_to_text(spoiled[1])} in reports[1]["failures"]


@pytest.mark.ray
def test_the_builder_on_a_local_ray_instance_writes_the_same_bytes(tmp_path, small_plans):
    # `make test-ray`: needs Ray (`make install-cluster`).
    pytest.importorskip("ray")
    local = build(tmp_path / "local")
    check_built_book(tmp_path / "local", small_plans)
    assert build(tmp_path / "ray", "--ray", "local") == local
