"""littlego/bench/blunders.py: the first move that threw away a proven win, on seeded random games."""

import go_board
from littlego.bench import blunders
from littlego.opponents.simple import RandomPlayer


def random_game_record(seed):
    players = {go_board.BLACK: RandomPlayer(seed), go_board.WHITE: RandomPlayer(seed + 1)}
    position, moves = go_board.Position(), []
    while not position.is_over:
        move = players[position.to_move].choose_move(position)
        moves.append(go_board.move_to_text(move))
        position = position.play(move)
    winner = "black-player" if position.winner() == go_board.BLACK else "white-player"
    return {"game": seed, "black": "black-player", "white": "white-player",
            "winner_name": winner, "moves": moves}


def test_a_reported_blunder_turned_a_proven_win_into_a_proven_loss():
    found = 0
    for seed in range(12):
        record = random_game_record(seed)
        summary = blunders.first_blunder(record, "black-player", 6, 5.0)
        assert summary["colour"] == "Black"
        assert summary["unproven"] == 0
        assert summary["first_solved_ply"] in (19, 21)  # Black's first move with <= 6 plies left
        if summary["blunder_ply"] is None:
            continue
        found += 1
        positions = dict((position.ply, (position, move))
                         for position, move in blunders.replay(record["moves"]))
        before, move = positions[summary["blunder_ply"]]
        assert go_board.move_to_text(move) == summary["blunder_move"]
        assert blunders.proven_win(before, 5.0) is True
        assert blunders.proven_win(before.play(move), 5.0) is True  # now the opponent wins
    assert found >= 2  # random players throw away won endgames often


def test_a_game_won_from_a_proven_loss_is_named_the_opponents_mistake():
    verdicts = []
    for seed in range(24):
        record = random_game_record(seed)
        summary = blunders.first_blunder(record, "white-player", 6, 5.0)
        verdicts.append(blunders.verdict(summary))
        if verdicts[-1] != blunders.WON_FROM_LOSS:
            continue
        assert record["winner_name"] == "white-player"
        positions = dict((position.ply, position)
                         for position, _ in blunders.replay(record["moves"]))
        assert blunders.proven_win(positions[summary["first_solved_ply"]], 5.0) is False
    assert verdicts.count(blunders.WON_FROM_LOSS) == 2  # seeds 14 and 21
    assert verdicts.count(blunders.WON) == 20
