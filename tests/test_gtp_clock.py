"""The GTP engine's clock (littlego/gtp/clock.py): time controls as GTP and KGS give them, and
the seconds a move may take by them."""

import pytest

from go_board import BLACK, WHITE
from littlego.gtp.clock import LAG, SHARE_SAFETY, Clock, ClockError


def by_clock(share):
    return pytest.approx(share * SHARE_SAFETY - LAG)


def test_no_time_control_is_no_limit():
    clock = Clock()
    assert clock.move_seconds(BLACK, 1) is None
    for args in (["0", "5", "0"], ["0", "0", "0"]):  # GTP's "no limit", and all zeros
        clock.time_settings(args)
        assert clock.move_seconds(BLACK, 1) is None
    clock.kgs_time_settings(["none"])
    assert clock.move_seconds(WHITE, 2) is None


def test_main_time_is_shared_over_the_colours_moves_left():
    clock = Clock()
    clock.time_settings(["120", "0", "0"])  # absolute: 2 minutes
    assert clock.move_seconds(BLACK, 1) == by_clock(120 / 12)  # Black's 12 moves
    assert clock.move_seconds(WHITE, 20) == by_clock(120 / 3)  # plies 20, 22, 24
    clock.time_left(BLACK, ["30", "0"])
    assert clock.move_seconds(BLACK, 23) == by_clock(30 / 1)
    clock.spent(BLACK, 10.0)  # counted off until the controller says otherwise
    assert clock.left[BLACK] == (20.0, 0)


def test_canadian_overtime_shares_its_period_over_its_stones():
    clock = Clock()
    clock.time_settings(["0", "60", "5"])  # straight into overtime: 5 stones in 60 s
    assert clock.left[BLACK] == (60.0, 5)
    assert clock.move_seconds(BLACK, 1) == by_clock(12)
    clock.time_left(WHITE, ["10", "2"])
    assert clock.move_seconds(WHITE, 2) == by_clock(5)
    for _ in range(5):
        clock.spent(BLACK, 1.0)
    assert clock.left[BLACK] == (60.0, 5)  # the stones played in time: a new period
    clock.time_settings(["10", "30", "3"])
    assert clock.move_seconds(BLACK, 1) == by_clock(30 / 3)  # more than 10 s over 12 moves
    clock.spent(BLACK, 12.0)  # main time ran out during the move: overtime's first stone
    assert clock.left[BLACK] == (28.0, 2)


def test_kgs_time_settings():
    clock = Clock()
    clock.kgs_time_settings(["absolute", "60"])
    assert clock.move_seconds(BLACK, 1) == by_clock(5)
    clock.kgs_time_settings(["canadian", "0", "50", "10"])
    assert clock.move_seconds(BLACK, 1) == by_clock(5)
    clock.kgs_time_settings(["byoyomi", "0", "7", "3"])
    assert clock.move_seconds(BLACK, 1) == by_clock(7)  # a period holds one move
    clock.time_left(BLACK, ["7", "2"])  # KGS gives the periods left for the stones
    assert clock.move_seconds(BLACK, 3) == by_clock(7)
    clock.spent(BLACK, 3.0)
    assert clock.left[BLACK] == (7.0, 2)  # a period used in part comes back whole


def test_a_clock_too_short_gives_no_seconds():
    clock = Clock()
    clock.time_settings(["0.5", "0", "0"])
    assert clock.move_seconds(BLACK, 1) == 0.0


def test_a_new_game_restarts_both_clocks():
    clock = Clock()
    clock.time_settings(["60", "0", "0"])
    clock.time_left(BLACK, ["3", "0"])
    clock.restart()
    assert clock.left == {BLACK: (60.0, 0), WHITE: (60.0, 0)}


@pytest.mark.parametrize("command, args", [
    ("time_settings", []), ("time_settings", ["1", "2"]), ("time_settings", ["a", "0", "0"]),
    ("time_settings", ["60", "0", "1.5"]), ("time_settings", ["-1", "0", "0"]),
    ("kgs_time_settings", []), ("kgs_time_settings", ["fischer", "60", "5"]),
    ("kgs_time_settings", ["absolute"]), ("kgs_time_settings", ["byoyomi", "60", "5"]),
    ("kgs_time_settings", ["none", "1"]),
])
def test_malformed_time_controls_are_refused(command, args):
    with pytest.raises(ClockError):
        getattr(Clock(), command)(args)
