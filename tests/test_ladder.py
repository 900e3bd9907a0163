"""The ladder's rungs (littlego/bench/ladder.py): names and game counts, each rung's player spec, and the
previous release built from git."""

import os
import re

import pytest

from littlego.bench import ladder


class Args(object):
    agent_move_cpu = 8.5
    agent_game_cpu = 55.0

    def __init__(self, out):
        self.out = out


def test_rungs_take_their_own_game_counts_and_a_scale():
    assert ladder.parse_rungs("previous:20,alphabeta4,gnugo:10", 100, 1.0) == [
        ("previous", 20), ("alphabeta4", 100), ("gnugo", 10)]
    assert ladder.parse_rungs("previous:20,gnugo:10", 100, 2.5) == [("previous", 50), ("gnugo", 25)]
    with pytest.raises(ValueError):
        ladder.parse_rungs("seed-design", 10, 1.0)


def test_plain_uct_gets_the_agents_even_share_of_a_game():
    assert ladder.plain_uct_move_cpu(8.5, 55.0) == pytest.approx(55.0 / 12)
    assert ladder.plain_uct_move_cpu(1.0, 24.0) == 1.0


def check_bare_agent(spec):
    """`spec` is the agent itself at Args' budget, the book, the exact search and the playout
    knowledge off, on one worker."""
    assert spec.startswith("cmd:env LITTLEGO_MOVE_CPU=8.5 LITTLEGO_GAME_CPU=55.0 ")
    for setting in ("LITTLEGO_BOOK=0", "LITTLEGO_SOLVER=0", "LITTLEGO_KNOWLEDGE=0",
                    "LITTLEGO_WORKERS=1"):
        assert setting in spec.split()
    assert spec.endswith(os.sep + "my_player.py")


def check_gnugo(spec, prefix):
    """`spec` plays GNU Go at level 10 over GTP, under `prefix` (gtp: or gtp-vary:)."""
    assert re.fullmatch(re.escape(prefix) + r"\S*gnugo --mode gtp --level 10", spec), spec


def test_rung_specs(tmp_path):
    args = Args(str(tmp_path / "ladder"))
    check_bare_agent(ladder.opponent_spec("agent-bare", args))
    assert ladder.opponent_spec("plain-uct", args).endswith("plain-uct --opponent-move-cpu 4.583")
    check_gnugo(ladder.opponent_spec("gnugo", args), "gtp:")
    assert ladder.opponent_spec("alphabeta4", args) == "alphabeta4"
    # The agent as White after each of Black's losing first moves, and after the centre and a
    # mistake: alphabeta4 forced there.
    assert sorted(ladder.FORCED_OPENINGS) == ["white-after-00", "white-after-01",
                                             "white-after-02", "white-after-11",
                                             "white-after-12", "white-after-mistakes"]
    assert ladder.opponent_spec("white-after-12", args).endswith(
        "-m littlego.opponents.run alphabeta4 --first-move 1,2")
    assert ladder.opponent_spec("white-after-mistakes", args).endswith(
        "-m littlego.opponents.run alphabeta4 --first-move 2,2 --mistake")


def test_previous_is_the_pinned_release_built_from_git(tmp_path):
    commit = ladder.release_commit()
    assert len(commit) == 40
    spec = ladder.opponent_spec("previous", Args(str(tmp_path / "ladder")))
    release = tmp_path / ("release-" + commit[:12])
    assert spec.endswith(str(release / "my_player.py"))
    assert (release / "my_player.py").exists() and (release / "opening_book.json").exists()
    assert not (release / ".git").exists()


def test_centre_rungs_open_at_the_centre_with_the_agent_white(tmp_path):
    args = Args(str(tmp_path / "ladder"))
    assert sorted(ladder.CENTRE_RUNGS) == ["centre-agent-bare", "centre-alphabeta4",
                                          "centre-gnugo", "centre-plain-uct", "centre-previous"]
    assert ladder.WHITE_RUNGS == frozenset(ladder.FORCED_OPENINGS) | frozenset(
        ladder.CENTRE_RUNGS) | frozenset(ladder.DEEP_RUNGS)
    # The built-in players are forced to the centre; the agents and GNU Go choose it (GNU Go
    # draws its moves at plies 3 and 5 among its near-best: it is deterministic).
    assert ladder.opponent_spec("centre-alphabeta4", args).endswith(
        "-m littlego.opponents.run alphabeta4 --first-move 2,2")
    assert ladder.opponent_spec("centre-plain-uct", args).endswith(
        "-m littlego.opponents.run plain-uct --opponent-move-cpu 4.583 --first-move 2,2")
    assert ladder.opponent_spec("centre-agent-bare", args) == ladder.opponent_spec(
        "agent-bare", args)
    check_bare_agent(ladder.opponent_spec("centre-agent-bare", args))
    assert ladder.opponent_spec("centre-gnugo", args) == "gtp-vary:" + ladder.opponent_spec(
        "gnugo", args)[len("gtp:"):]
    check_gnugo(ladder.opponent_spec("centre-gnugo", args), "gtp-vary:")


def test_deep_rungs_play_the_books_moves_through_ply_5_then_their_own(tmp_path):
    args = Args(str(tmp_path / "ladder"))
    assert sorted(ladder.DEEP_RUNGS) == ["deep-agent-bare", "deep-plain-uct"]
    assert ladder.opponent_spec("deep-plain-uct", args).endswith(
        "-m littlego.opponents.run plain-uct --opponent-move-cpu 4.583 --first-move 2,2 "
        "--book-through 5")
    assert " LITTLEGO_BOOK_PLIES=5 LITTLEGO_SOLVER=0 LITTLEGO_KNOWLEDGE=0 LITTLEGO_WORKERS=1 " \
        in ladder.opponent_spec("deep-agent-bare", args)
