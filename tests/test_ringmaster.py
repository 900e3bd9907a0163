"""littlego/gtp/ringmaster.py: our GTP engine under gomill's ringmaster against GNU Go, and the checks
of what ringmaster recorded. `make test` installs gomill (Python 2.7) and GNU Go first."""

import pytest

from littlego.gtp import ringmaster
from littlego.referee.match import run_match
from littlego.referee.sgf import game_to_sgf

from referee_support import STUB_PLAYERS


def summary(result, black="littlego", white="gnugo", little_go_result=None, refused=None):
    return {"file": "0_0.sgf", "black": black, "white": white, "result": result, "moves": 24,
            "little_go_plies": 24, "little_go_result": little_go_result,
            "refused_ply": refused}


def test_check_accepts_scored_resigned_and_opponent_forfeited_games():
    assert ringmaster.check([summary("B+0.5", little_go_result="B+0.5"),
                             summary("W+R", white="littlego", black="gnugo"),
                             summary("B+F")]) == []


def test_check_finds_void_games_our_forfeits_rule_breaks_and_wrong_scores():
    assert ringmaster.check([summary("Void"), summary("W+F"),
                             summary("B+R", refused=7),
                             summary("W+3.5", little_go_result="B+0.5")]) == [
        "0_0.sgf: void (move limit)", "0_0.sgf: our engine forfeited",
        "0_0.sgf: ply 7 breaks the Little-Go rules",
        "0_0.sgf: scored W+3.5, the Little-Go result is B+0.5"]


def test_a_record_is_replayed_up_to_the_little_go_end(tmp_path):
    record = run_match("first", "last", games=1, limit_cpu=5.0,
                       builtin_players=STUB_PLAYERS).records[0]
    text = game_to_sgf(record).rstrip().rstrip(")")
    path = tmp_path / "0_0.sgf"
    path.write_text(text + ";B[tt];W[aa];B[tt];W[tt])\n")  # ringmaster's play after ply 24
    found = ringmaster.summarise(str(path))
    assert (found["moves"], found["little_go_plies"], found["refused_ply"]) == (28, 24, None)
    assert found["little_go_result"] == "W+2.5"  # 12 stones each, komi


def test_two_games_under_ringmaster_end_cleanly(tmp_path):
    try:
        ringmaster.tools_needed()
    except ringmaster.RingmasterMissing as missing:
        pytest.skip(str(missing))
    summaries = ringmaster.run_tournament(str(tmp_path), games=2, timeout=300)
    assert [(s["file"], s["black"], s["white"]) for s in summaries] == [
        ("0_0.sgf", "littlego", "gnugo"), ("0_1.sgf", "gnugo", "littlego")]
    assert ringmaster.check(summaries) == []
    for found in summaries:
        assert found["result"][:2] in ("B+", "W+")  # recorded with a winner, not Void
