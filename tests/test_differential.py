"""The plain referee (referee.rules + referee.judge) against go_board.py, ply by ply.

Seeded random games, over 100,000 plies in all. At every ply both engines must agree on the
fate of all 25 points (legal, or refused for the same reason), on the board each legal
placement leads to, and, after the action played, on the next input.txt (exact bytes) or
on the end of the game and its winner. Illegal actions (occupied, suicide, ko, off the board)
are probed at every ply where one exists: both must make the mover lose. A third of the games
prefer captures and retake every ko they can, so ko refusals are frequent; the test counts
them and fails if the kinds of refusal it is meant to cover did not occur.
"""

import collections
import random

import course_io
import go_board
from littlego.referee import judge, rules

SEED = 561
MIN_PLIES = 100000
STYLES = ("uniform", "captures", "ko hunter")
PASS_RATE = {"uniform": 0.06, "captures": 0.02, "ko hunter": 0.02}
CAPTURE_RATE = {"uniform": 0.0, "captures": 0.85, "ko hunter": 0.95}
# How often a refused point is submitted anyway: every ko, the common kinds more rarely.
PROBE_RATE = {rules.KO: 1.0, rules.SUICIDE: 0.5, rules.OCCUPIED: 0.02, rules.OFF_BOARD: 0.03}
OFF_BOARD_TEXTS = ("5,0", "0,5", "-1,2", "3,-1", "9,9", "1_0,0")

REASONS = {go_board.OCCUPIED: rules.OCCUPIED, go_board.SUICIDE: rules.SUICIDE,
           go_board.KO: rules.KO, go_board.OFF_BOARD: rules.OFF_BOARD}
POINTS = [(i, j) for i in range(rules.SIZE) for j in range(rules.SIZE)]


def bits(board):
    """(black, white) bitboards of a list board, in go_board's point numbering."""
    flat = [point for row in board for point in row]
    return (sum(1 << k for k, point in enumerate(flat) if point == rules.BLACK),
            sum(1 << k for k, point in enumerate(flat) if point == rules.WHITE))


def compare_all_points(state, position):
    """Both engines' verdict on each of the 25 points.

    Returns `(legal, refusals)`: {(i, j): board after} and {(i, j): reason}.
    """
    legal, refusals = {}, {}
    for point, (i, j) in enumerate(POINTS):
        board, refusal = rules.try_place(state.previous, state.current, i, j, state.colour)
        theirs = position.try_play(point)
        if isinstance(theirs, str):
            assert refusal == REASONS[theirs], (state, i, j, refusal, theirs)
            refusals[(i, j)] = refusal
        else:
            assert refusal is None, (state, i, j, refusal)
            assert bits(board) == (theirs.black, theirs.white), (state, i, j)
            legal[(i, j)] = board
    return legal, refusals


def probe_illegal(state, position, ply, text, counts):
    """Submit an illegal action to both; each must end the game with the mover losing."""
    action = course_io.parse_action(text)
    verdict = judge.judge_step(state, action, ply)
    assert verdict.next_input is None and verdict.reason == judge.END_ILLEGAL, (state, text)
    assert verdict.winner == rules.other(state.colour)
    try:
        position.play(go_board.from_coord(*action))
    except go_board.IllegalMove as error:
        counts[REASONS[error.reason]] += 1
        assert verdict.detail.endswith(REASONS[error.reason]), (verdict.detail, error.reason)
    else:
        raise AssertionError("go_board accepted {} in {}".format(text, state))


def choose_action(rng, style, state, legal):
    """The action to play: PASS, a capture (by style), or a uniform legal placement."""
    if not legal or rng.random() < PASS_RATE[style]:
        return rules.PASS
    opponent = rules.other(state.colour)
    before = rules.count_stones(state.current, opponent)
    captures = [point for point, board in legal.items()
                if rules.count_stones(board, opponent) < before]
    if captures and rng.random() < CAPTURE_RATE[style]:
        return rng.choice(sorted(captures))
    return rng.choice(sorted(legal))


def play_game(rng, style, counts):
    state = judge.opening_input()
    position = go_board.Position()
    for ply in range(1, rules.MAX_MOVE + 1):
        legal, refusals = compare_all_points(state, position)
        for point in sorted(refusals):
            if rng.random() < PROBE_RATE[refusals[point]]:
                probe_illegal(state, position, ply, course_io.format_output(point), counts)
        if rng.random() < PROBE_RATE[rules.OFF_BOARD]:
            probe_illegal(state, position, ply, rng.choice(OFF_BOARD_TEXTS), counts)

        action = choose_action(rng, style, state, legal)
        verdict = judge.judge_step(state, course_io.parse_action(course_io.format_output(action)), ply)
        position = position.play(go_board.PASS if action == rules.PASS
                                 else go_board.from_coord(*action))
        counts["plies"] += 1
        counts["passes"] += action == rules.PASS
        assert bits(verdict.board) == (position.black, position.white)
        if verdict.next_input is None:
            assert position.is_over and verdict.reason == judge.END_SCORE
            assert verdict.winner == position.winner()
            counts["ended by passes" if ply < rules.MAX_MOVE else "ended at ply 24"] += 1
            counts["black wins"] += verdict.winner == rules.BLACK
            return
        assert not position.is_over
        state = verdict.next_input
        assert judge.format_input(state) == course_io.format_input(
            position.to_move, (position.prev_black, position.prev_white),
            (position.black, position.white))
    raise AssertionError("the game did not end after ply {}".format(rules.MAX_MOVE))


def test_plain_referee_and_go_board_agree_on_random_games():
    rng = random.Random(SEED)
    counts = collections.Counter()
    games = 0
    while counts["plies"] < MIN_PLIES:
        play_game(rng, STYLES[games % len(STYLES)], counts)
        games += 1
    # Every kind of refusal happened many times, and games ended both ways.
    assert counts[rules.KO] >= 500, counts
    assert counts[rules.SUICIDE] >= 500, counts
    assert counts[rules.OCCUPIED] >= 1000, counts
    assert counts[rules.OFF_BOARD] >= 1000, counts
    assert counts["ended by passes"] >= 100, counts
    assert counts["ended at ply 24"] >= 1000, counts
    assert 0.1 < counts["black wins"] / games < 0.9, counts
