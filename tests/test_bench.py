"""The benchmark report's arithmetic: ladder win rates per colour and the targets' verdicts,
on the 95% Wilson interval."""

import json
import os
import random
import subprocess
import sys

import endgame
import go_board
import opening_book
from littlego.bench import ladder, report, solver_speed
from littlego.bench.positions import position_before_end
from littlego.paths import REPO_ROOT
from littlego.referee import stats

AGENT = "cmd:python3 my_player.py"


def write_rung(ladder, rung, records):
    os.makedirs(str(ladder / rung))
    with open(str(ladder / rung / "games.jsonl"), "w") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


def game(number, agent_black, agent_wins, opponent, reason="score"):
    black, white = (AGENT, opponent) if agent_black else (opponent, AGENT)
    # The fields of a referee GameRecord that the report reads.
    return {"game": number, "black": black, "white": white, "reason": reason,
            "winner_name": AGENT if agent_wins else opponent,
            "cpu": {"black": [], "white": []}, "wall": {"black": [], "white": []}}


def test_ladder_results_count_the_agent_per_colour_in_ladder_order(tmp_path):
    # Games finish out of order; the agent is Black in game 1 whatever the file order.
    write_rung(tmp_path, "alphabeta4", [game(2, False, True, "alphabeta4"),
                                        game(1, True, False, "alphabeta4"),
                                        game(3, True, True, "alphabeta4")])
    write_rung(tmp_path, "random", [game(1, True, True, "random"), game(2, False, True, "random")])
    results = ladder.ladder_results(str(tmp_path))
    assert list(results) == ["random", "alphabeta4"]
    assert results["alphabeta4"] == {"Black": (1, 2), "White": (1, 1), "both": (2, 3),
                                     "resigned": 0}


def test_in_a_forced_rung_the_agent_is_white_in_every_game(tmp_path):
    # docs/benchmarks.md showed these rungs as the opponent's wins as Black before.
    write_rung(tmp_path, "white-after-mistakes", [game(n, False, n != 2, "forced")
                                                  for n in range(1, 4)])
    results = ladder.ladder_results(str(tmp_path))
    assert results["white-after-mistakes"] == {"Black": (0, 0), "White": (2, 3), "both": (2, 3),
                                               "resigned": 0}
    assert ladder.time_use_rows(str(tmp_path))[-1].endswith("| 3 |")


def test_wins_by_the_opponents_resignation_have_their_own_column(tmp_path):
    write_rung(tmp_path, "gnugo", [game(1, True, True, "gnugo", reason="resign"),
                                   game(2, False, True, "gnugo"),
                                   game(3, True, False, "gnugo", reason="resign")])
    results = ladder.ladder_results(str(tmp_path))
    assert results["gnugo"]["resigned"] == 1
    assert ladder.ladder_rows(results)[2].endswith("| 1 |")


def test_rate_text_gives_the_wilson_interval():
    assert ladder.rate_text(50, 50) == "50/50 = 100.0% [92.9, 100.0]"
    assert ladder.rate_text(0, 0) == "-"  # the agent played one colour only


def test_targets_are_met_only_when_the_interval_lower_bound_reaches_them(tmp_path):
    write_rung(tmp_path, "alphabeta4", [game(n, n % 2 == 1, n <= 8, "alphabeta4")
                                        for n in range(1, 11)])
    write_rung(tmp_path, "random", [game(n, n % 2 == 1, True, "random") for n in range(1, 101)])
    rates = {"uniform random": [43035.0], "agent (knowledge)": [7831.0]}
    rows = report.targets_section(rates, [("L", ladder.ladder_results(str(tmp_path)))])
    verdicts = [row.rsplit("|", 2)[1].strip() for row in rows[2:]]
    # 50/50 per colour against random: [92.9, 100] does not reach 99%; 8/10: 80% < 90%.
    assert verdicts == ["met", "missed by 0.50x",
                        "not refuted (lower bound 92.9%)", "not refuted (lower bound 92.9%)",
                        "missed by 10.0 points"]


def test_a_one_colour_run_gets_no_verdict_over_both_colours(tmp_path):
    write_rung(tmp_path, "alphabeta4", [game(n, True, True, "alphabeta4") for n in range(1, 6)])
    write_rung(tmp_path, "agent-bare", [game(n, True, True, "agent-bare") for n in range(1, 6)])
    rows = report.targets_section({}, [("L", ladder.ladder_results(str(tmp_path)))])
    assert [row.split("|")[1].strip() for row in rows[2:]] == [
        "win rate as Black >= 95% against agent-bare (L)"]


def test_win_verdicts_on_the_interval():
    # 300/300 has the interval [98.7, 100]: not yet 99%; 400/400 [99.0, 100] is.
    assert report.win_verdict(300, 300, 0.99) == "not refuted (lower bound 98.7%)"
    assert report.win_verdict(400, 400, 0.99) == "met"
    assert report.win_verdict(19, 20, 0.95) == "not refuted (lower bound 76.4%)"
    assert report.win_verdict(18, 20, 0.95) == "missed by 5.0 points"


def test_time_use_takes_the_agents_side_of_every_game(tmp_path):
    first = game(1, True, True, "alphabeta4")
    first.update(cpu={"black": [1.0, 3.0], "white": [9.0, 9.0]}, wall={"black": [0.5, 1.5], "white": [9.0, 9.0]})
    second = game(2, False, True, "alphabeta4")
    second.update(cpu={"black": [9.0], "white": [2.0]}, wall={"black": [9.0], "white": [1.0]})
    write_rung(tmp_path, "alphabeta4", [first, second])
    assert ladder.time_use_rows(str(tmp_path))[2:] == [
        "| CPU per move (s) | 2.00 | 3.00 | 3.00 | 3 |",
        "| wall per move (s) | 1.00 | 1.50 | 1.50 | 3 |",
        "| CPU per game, our moves (s) | 3.00 | 4.00 | 4.00 | 2 |"]


def test_the_99th_percentile_is_a_nearest_rank():
    assert stats.percentile(list(range(1, 201)), 0.99) == 198
    assert stats.percentile([5.0], 0.99) == 5.0


def test_reach_rows_show_median_worst_cap_and_node_rate():
    rows = [{"python": "3.11.7", "plies_left": 14, "seconds": [1.0, 2.0, 6.0], "over_cap": 0,
             "nodes": 900000, "positions": 3},
            {"python": "3.7.16", "plies_left": 16, "seconds": [4.0, 30.0, 30.0], "over_cap": 2,
             "nodes": 6400000, "positions": 3}]
    assert report.reach_section(rows, 30.0)[2:] == [
        "| 3.11.7 | 14 | 3 | 2.000 | 6.000 | 0 | 100,000 |",
        "| 3.7.16 | 16 | 3 | 30.000 | > cap | 2 | 100,000 |"]


def test_reach_positions_come_from_recorded_games_at_the_ply_asked():
    from littlego.bench import solver_reach
    positions = solver_reach.recorded_positions(14, 5)
    assert len(positions) == 5 and len({position.key() for position in positions}) == 5
    assert all(position.ply == 11 and not position.is_over for position in positions)


def test_the_book_lookup_worker_times_the_books_answer_in_a_fresh_interpreter():
    # White's answer to Black's corner opening: the book's, as the agent would read it.
    [cpu] = report.book_lookup_cpu(sys.executable, opening_book.BOOK_PATH, 1)
    assert 0 <= cpu < 1
    line = " ".join(report.BOOK_BENCH_LINE)
    done = subprocess.run([sys.executable, "-m", "littlego.bench.book_lookup",
                           opening_book.BOOK_PATH, line], cwd=REPO_ROOT, check=True,
                          stdout=subprocess.PIPE, universal_newlines=True)
    position = go_board.Position()
    for text in line.split():
        position = position.play(go_board.move_from_text(text))
    assert json.loads(done.stdout)["move"] == opening_book.read().lookup(position)


def test_the_python_solver_worker_counts_the_same_nodes_as_the_search_here():
    positions = [position_before_end(random.Random(seed), 6, 0.1, 0.5) for seed in range(3)]
    nodes, cpu = solver_speed.python_rate(sys.executable, positions)
    expected = 0
    for position in positions:
        search = endgame.ExactSolver()
        search.mover_wins(position)
        expected += search.nodes
    assert nodes == expected > 0 and cpu >= 0
