"""solver/repertoire.py on small repertoires near the end of a game, where the Python solver
(endgame.ExactSolver) checks every try, count and slip independently; and the book's build and
check with a repertoire in them.

A small repertoire starts from a seeded line whose side to move is lost (test_strategy's
`lost_line`) and stores tries through LAST_PLY.
"""

import collections
import json

import pytest
from test_strategy import (LAST_PLY, SEED, TABLE_BITS, small_repertoire, small_strategy,
                           use_small_repertoire)

import endgame
import go_board
import opening_book
from littlego import solver
from littlego.solver import build_book, repertoire, strategy, verify_book


def walked(plan):
    with solver.Solver(TABLE_BITS) as search:
        return repertoire.walk(search, plan)


def python_counts(position):
    """{candidate: the opponent's winning replies after it}, by the Python solver."""
    counts = {}
    for move in repertoire.candidates(position):
        after = position.play(move)
        python = endgame.ExactSolver()
        counts[move] = sum(python.move_wins(after, child)
                           for _, child in python.root_moves(after))
    return counts


def python_repertoire(plan, pick):
    """The repertoire walked with the Python solver alone: `(tries {key: (move in the
    position's frame, count)}, the slips' position keys)`; `pick(position, counts)` chooses."""
    tries, slips = {}, set()
    stack = [strategy.position_after(plan.start)]
    while stack:
        position = stack.pop()
        if position.is_over or position.ply > plan.last_ply:
            continue
        key = opening_book.position_key(position)[0]
        if key in tries or key in slips:
            continue
        python = endgame.ExactSolver()
        if position.to_move == plan.loser:
            assert not python.mover_wins(position)
            counts = python_counts(position)
            move = pick(position, counts)
            tries[key] = move, counts[move]
            stack.append(position.play(move))
        elif position.ply < plan.last_ply:
            for move, child in python.root_moves(position):
                after = position.play(move)
                if python.move_wins(position, child):
                    stack.append(after)
                elif not after.is_over:
                    slips.add(opening_book.position_key(after)[0])
    return tries, slips


def in_own_frame(position, key_frame_move):
    symmetry = opening_book.position_key(position)[1]
    return go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][key_frame_move]


def walked_positions(plan, tries):
    """The loser's positions of the repertoire, following its tries and every reply of the
    winner that keeps its win (by the Python solver)."""
    found, stack, seen = [], [strategy.position_after(plan.start)], set()
    while stack:
        position = stack.pop()
        key = opening_book.position_key(position)[0]
        if position.is_over or position.ply > plan.last_ply or key in seen:
            continue
        seen.add(key)
        if position.to_move == plan.loser:
            found.append(position)
            stack.append(position.play(in_own_frame(position, tries[key][0])))
        else:
            python = endgame.ExactSolver()
            stack.extend(position.play(move) for move, child in python.root_moves(position)
                         if python.move_wins(position, child))
    return found


def tries_by_python(plan, tries):
    """The walk's tries in each position's own frame, keyed as python_repertoire's."""
    found = {}
    for position in walked_positions(plan, tries):
        key = opening_book.position_key(position)[0]
        found[key] = in_own_frame(position, tries[key][0]), tries[key][1]
    return found


@pytest.mark.parametrize("seed", [SEED, SEED + 1])
def test_the_fewest_rule_agrees_with_the_python_solver_try_by_try_and_slip_by_slip(seed):
    plan = small_repertoire(seed)
    tries, slips, stats = walked(plan)

    def first_of_fewest(position, counts):
        return min(counts, key=lambda move: (counts[move], repertoire.candidates(
            position).index(move)))
    expected_tries, expected_slips = python_repertoire(plan, first_of_fewest)
    assert tries_by_python(plan, tries) == expected_tries
    assert {opening_book.position_key(strategy.position_after(line))[0]
            for line in slips} == expected_slips
    assert stats["tries"] == len(tries) >= 3 and stats["slips"] == len(slips) >= 1
    for line in slips:  # a slip hands the win to the loser
        after = strategy.position_after(line)
        assert after.to_move == plan.loser and endgame.ExactSolver().mover_wins(after)


def test_the_model_rule_stays_within_its_slack_of_the_fewest_and_repeats_itself():
    plan = small_repertoire(SEED, "model")
    tries, slips, stats = walked(plan)
    # The same tries and slips on a table 64 times smaller, its collisions elsewhere: what the
    # rule chose, not what the table happened to hold.
    with solver.Solver(TABLE_BITS - 6) as small_table:
        assert repertoire.walk(small_table, plan)[:2] == (tries, slips)
    # The Python solver, following the model's tries, finds the same counts and slips.
    counts_at = {}

    def the_models_try(position, counts):
        key = opening_book.position_key(position)[0]
        counts_at[key] = counts
        return in_own_frame(position, tries[key][0])
    expected_tries, expected_slips = python_repertoire(plan, the_models_try)
    assert tries_by_python(plan, tries) == expected_tries
    assert {opening_book.position_key(strategy.position_after(line))[0]
            for line in slips} == expected_slips
    assert stats["tries"] == len(tries) >= 3 and stats["slips"] == len(slips) >= 1
    for key, (move, count) in expected_tries.items():
        assert counts_at[key][move] == count <= min(counts_at[key].values()) \
            + repertoire.MODEL_SLACK


def test_a_start_the_loser_wins_is_refused():
    plan = small_repertoire(SEED)
    winner_line = plan.start[:-1]  # one ply earlier the other side was to move, and won
    wrong = plan._replace(start=winner_line, loser=go_board.other(plan.loser))
    assert endgame.ExactSolver().mover_wins(strategy.position_after(winner_line))
    with pytest.raises(repertoire.NotLost):
        walked(wrong)


def written_book(path, answers, tries):
    opening_book.write(str(path), answers, {"answered_plies": {}, "built_with": {}},
                       tries=tries)
    return opening_book.read(str(path))


def test_the_check_passes_the_walks_tries_and_names_a_wrong_count_or_a_missing_try(tmp_path):
    plan = small_repertoire(SEED)
    tries, slips, _ = walked(plan)
    with solver.Solver(TABLE_BITS) as search:
        book = written_book(tmp_path / "book.txt", {}, tries)
        checked, failures, found_slips = repertoire.check(book, plan, search)
        assert (checked, failures, found_slips) == (len(tries), [], slips)
        key = max(tries)
        move, count = tries[key]
        wrong = dict(tries)
        wrong[key] = move, count + 1
        book = written_book(tmp_path / "wrong.txt", {}, wrong)
        [at] = [position for position in walked_positions(plan, tries)
                if opening_book.position_key(position)[0] == key]
        assert [(position.key(), entry.opponent_wins)
                for position, entry in repertoire.check(book, plan, search)[1]] == [
            (at.key(), count + 1)]
        missing = {other: value for other, value in tries.items() if other != key}
        book = written_book(tmp_path / "missing.txt", {}, missing)
        assert [entry for _, entry in repertoire.check(book, plan, search)[1]] == [None]


@pytest.fixture
def small_book_plans(monkeypatch):
    """One small strategy, a small repertoire and its slips' strategy, as the build sees them."""
    plans = (small_strategy(SEED + 2, "first"),)
    monkeypatch.setattr(strategy, "STRATEGIES", plans)
    return plans, use_small_repertoire(monkeypatch)


def build(tmp_path, *extra):
    out = tmp_path / "book.txt"
    argv = ["--jobs", "1", "--table-bits", str(TABLE_BITS), "--cache",
            str(tmp_path / "jobs"), "--out", str(out)] + list(extra)
    assert build_book.main(argv) == 0
    return out.read_bytes()


def test_the_built_book_holds_the_tries_and_proven_answers_after_every_slip(
        tmp_path, small_book_plans, capsys):
    _, plan = small_book_plans
    first = build(tmp_path)
    assert build(tmp_path, "--fresh") == first
    tries, slips, _ = walked(plan)
    book = opening_book.read(str(tmp_path / "book.txt"))
    for position in walked_positions(plan, tries):
        move, count = tries[opening_book.position_key(position)[0]]
        assert book.entry(position) == opening_book.Entry(in_own_frame(position, move), count)
    answered = collections.Counter()
    for line in slips:
        after = strategy.position_after(line)
        move = book.lookup(after)
        python = endgame.ExactSolver()
        assert python.move_wins(after, dict(python.root_moves(after))[move]), after
        answered[after.ply] += 1
    assert sum(answered.values()) == len(slips) >= 1
    header = json.loads((tmp_path / "book.txt").read_text().splitlines()[0])
    assert header["built_with"]["repertoire"] == {"name": plan.name, "rule": "fewest",
                                                  "last_ply": LAST_PLY}
    capsys.readouterr()
    code = verify_book.main(["--book", str(tmp_path / "book.txt"), "--jobs", "1",
                             "--table-bits", str(TABLE_BITS)])
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [(report["strategy"], report["failures"]) for report in reports] == [
        (plan.name, []), ("first", []), ("small-after-slips", []), ("seam-first", []),
        ("seam-small-after-slips", [])]
    assert reports[0]["checked"] == len(tries) and reports[2]["checked"] >= len(slips)


def test_verify_book_only_checks_the_named_parts(tmp_path, small_book_plans, capsys):
    _, plan = small_book_plans
    build(tmp_path)
    capsys.readouterr()
    code = verify_book.main(["--book", str(tmp_path / "book.txt"), "--jobs", "1",
                             "--table-bits", str(TABLE_BITS), "--only", "small-after-slips"])
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and [report["strategy"] for report in reports] == ["small-after-slips"]
    assert reports[0]["checked"] >= len(walked(plan)[1]) and reports[0]["failures"] == []
