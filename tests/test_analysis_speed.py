"""littlego/bench/analysis_speed.py (`littlego bench-analysis`): the positions of recorded games,
one measured through a real `littlego analysis` process, and the table by ply."""

from littlego.bench import analysis_speed
from littlego.bench.analysis_speed import Figure


def test_every_position_of_the_games_is_asked():
    moves = analysis_speed.positions(2)
    assert moves[0] == [] and len(moves) == 48  # two games of 24 plies
    assert [len(line) for line in moves[:24]] == list(range(24))


def test_a_late_position_is_exact_within_its_first_answers():
    game = analysis_speed.positions(1)[20]  # ply 21
    figure = analysis_speed.measure(game, 30.0)
    assert (figure.ply, figure.stored) == (21, False)
    assert 0 < figure.first <= figure.value <= figure.margins < 30.0


def test_the_table_gives_medians_and_the_worst_by_ply_and_says_what_passed_the_cap():
    figures = [Figure(1, True, 0.01, 0.01, 0.01), Figure(1, True, 0.03, 0.03, 0.03),
               Figure(5, False, 0.1, 5.0, 12.0), Figure(5, False, 0.2, 7.0, None),
               Figure(5, False, 0.1, 6.0, 20.0)]
    assert analysis_speed.table(figures, 300.0)[2:4] == [
        "| 1 | 2 | 2 | 0.02 / 0.03 | 0.02 / 0.03 | 0.02 / 0.03 |",
        "| 5 | 3 | 0 | 0.10 / 0.20 | 6.00 / 7.00 | 20.00 / > cap |"]
