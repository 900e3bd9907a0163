"""Where games were lost: the first move of a player that turned a proven win into a proven loss.

Usage: littlego blunders GAMES.jsonl [...] [--player-name SUBSTRING] [--plies-left 12]
                                 [--cpu 20] [--records FILE]

Start at `first_blunder`. Each recorded game (a `host.py match` games.jsonl line) is replayed;
from the first ply with at most --plies-left plies left, every position before a move of the
chosen player is solved exactly (`endgame.ExactSolver`, win/loss only, --cpu seconds at most per
position). A blunder is a move after which the mover's proven win became a proven loss. Games
lost without one were lost before the solver's reach (or the solver ran out of time): the
report says which, so a diagnosis can tell the middle game from the endgame. Games won from a
position already proven lost when first solved are the opponent's mistakes (what the agent's best
tries in lost positions are for, endgame.ExactSolver.best_try): `verdict` names each case. One
JSON line per game goes to --json; the table goes to stdout.
"""

import argparse
import collections
import json
import sys
import time

import clocks
import endgame
import go_board

UNKNOWN = None
WON = "won"
WON_FROM_LOSS = "won from a proven loss: the opponent went wrong"
LOST_BY_BLUNDER = "lost: blunder within reach"
LOST_BEFORE_REACH = "lost: already lost when first solved"
LOST_UNPROVEN = "lost: no blunder proven (positions left unsolved)"


def proven_win(position, cpu_seconds):
    """True/False: the side to move wins/loses under exact play; None when not proven in time."""
    try:
        return endgame.ExactSolver(time.process_time() + cpu_seconds,
                                   clock=time.process_time).mover_wins(position)
    except clocks.OutOfTime:
        return UNKNOWN


def replay(moves):
    """The positions before each move of a recorded game: [(position, move)]."""
    position, played = go_board.Position(), []
    for text in moves:
        move = go_board.move_from_text(text)
        played.append((position, move))
        position = position.play(move)
    return played


def first_blunder(record, player, plies_left, cpu_seconds):
    """A summary of one game for `player` (a substring of its name in the record)."""
    colour = go_board.BLACK if player in record["black"] else go_board.WHITE
    summary = {"game": record["game"], "colour": go_board.COLOUR_NAMES[colour],
               "won": player in (record.get("winner_name") or ""), "blunder_ply": None,
               "first_solved_ply": None, "unproven": 0}
    for position, move in replay(record["moves"]):
        if position.to_move != colour or go_board.plies_left(position.ply) > plies_left:
            continue
        before = proven_win(position, cpu_seconds)
        if before is UNKNOWN:
            summary["unproven"] += 1
            continue
        if summary["first_solved_ply"] is None:
            summary["first_solved_ply"] = position.ply
            summary["won_at_first_solved"] = before
        if before:
            after = position.play(move)
            if after.is_over:
                continue
            reply = proven_win(after, cpu_seconds)
            if reply is True:
                summary["blunder_ply"] = position.ply
                summary["blunder_move"] = go_board.move_to_text(move)
                break
    return summary


def verdict(summary):
    """How a game of `first_blunder`'s summary was won or lost (one of the constants above)."""
    if summary["won"]:
        return WON_FROM_LOSS if summary.get("won_at_first_solved") is False else WON
    if summary["blunder_ply"] is not None:
        return LOST_BY_BLUNDER
    if summary.get("won_at_first_solved") is False:
        return LOST_BEFORE_REACH
    return LOST_UNPROVEN


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_files", nargs="+", metavar="GAMES.jsonl")
    parser.add_argument("--player-name", default="/my_player.py", metavar="SUBSTRING",
                        help="a substring of the player's name in the records")
    parser.add_argument("--plies-left", type=int, default=endgame.EXACT_PLIES_LEFT)
    parser.add_argument("--cpu", type=float, default=20.0, help="CPU seconds per position")
    parser.add_argument("--records", metavar="FILE", help="write one JSON line per game here")
    args = parser.parse_args(argv)
    summaries = []
    for path in args.game_files:
        with open(path) as handle:
            for line in handle:
                record = json.loads(line)
                if args.player_name in record["black"] + record["white"]:
                    summaries.append(dict(first_blunder(record, args.player_name, args.plies_left,
                                                        args.cpu), file=path))
                    print(json.dumps(summaries[-1]), flush=True)
    print(dict(collections.Counter(verdict(summary) for summary in summaries)))
    if args.records:
        with open(args.records, "w") as handle:
            handle.writelines(json.dumps(summary) + "\n" for summary in summaries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
