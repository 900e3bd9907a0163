"""Black's slips and White's kept wins: the games of the centre rungs judged by exact proof.

Usage: littlego slips LADDER [--cpu 300] [--table-bits 24] [--records FILE]

Start at `judge_game`. A game is replayed from the empty board while following who wins it
under perfect play. Black's centre wins (the game is solved: docs/strength.md), so from ply 2
White is lost. A move of the side that wins either keeps the win or throws it away; a move of
the losing side can change nothing (every move of a lost side leaves the opponent winning).
So only the winner's moves are checked: the book's answer keeps the win (the book holds the
winner's proven strategy), and any other move is proven by the compiled solver on the position
after it. A game's verdict (`Verdict`): the ply of Black's first slip (None: Black never let
the win go), the plies where White gave a proven win back, the plies whose proof ran out of
CPU, and whether Black opened at the centre at all.

`main` judges the rungs of a ladder directory where the agent is White after the centre
(`ladder.AFTER_CENTRE_RUNGS`: the centre and deep rungs) and prints, per rung, the agent's wins,
how many distinct games were played, the plies of Black's first slips, and the games in which
White kept every win it was given; with --json, one line per game (its verdict and the moves up to Black's first slip).
"""

import argparse
import collections
import json

import go_board
import opening_book
from littlego import solver
from littlego.bench import ladder
from littlego.progress import Progress, add_quiet_option
from littlego.solver.strategy import CENTRE

Verdict = collections.namedtuple("Verdict", "centre first_slip thrown unproven")
DEFAULT_CPU = 300.0  # per proof; a ply-4 proof of a loss is the longest (the whole game's tree)


def judge_game(moves, book, prover, cpu_limit):
    """The Verdict of a game given as its moves (go_board points or PASS) from the empty
    board; `prover` is a solver.Solver (its table is kept between games)."""
    if not moves or moves[0] != CENTRE:
        return Verdict(False, None, [], [])
    position = go_board.Position().play(CENTRE)
    winner = go_board.BLACK  # the solved result
    first_slip, thrown, unproven = None, [], []
    for move in moves[1:]:
        mover, ply = position.to_move, position.ply
        if winner == mover and move != book.lookup(position):
            try:
                keeps = prover.wins(position, move, cpu_limit)
            except solver.OutOfTime:
                unproven.append(ply)
                winner = None  # unknown from here: nothing after it is judged
            else:
                if not keeps:
                    winner = go_board.other(mover)
                    if mover == go_board.BLACK and first_slip is None:
                        first_slip = ply
                    elif mover == go_board.WHITE:
                        thrown.append(ply)
        position = position.play(move)
    return Verdict(True, first_slip, thrown, unproven)


def game_moves(record):
    return [go_board.move_from_text(text) for text in record["moves"]]


def rung_summary(rung, verdicts, records, agent):
    """One rung's row: games, the agent's wins, distinct games, Black's first slips by ply,
    White's kept and thrown wins."""
    slips = collections.Counter(verdict.first_slip for verdict in verdicts
                                if verdict.first_slip is not None)
    return {
        "rung": rung,
        "games": len(records),
        "agent_wins": sum(1 for record in records if record["winner_name"] == agent),
        "distinct_games": len(set(tuple(record["moves"]) for record in records)),
        "not_centre": sum(1 for verdict in verdicts if not verdict.centre),
        "slipped": sum(slips.values()),
        "first_slip_plies": {str(ply): slips[ply] for ply in sorted(slips)},
        "kept_every_win": sum(1 for verdict in verdicts
                              if verdict.first_slip is not None and not verdict.thrown
                              and not verdict.unproven),
        "thrown": sum(len(verdict.thrown) for verdict in verdicts),
        "unproven": sum(len(verdict.unproven) for verdict in verdicts),
    }


def summary_rows(summaries):
    rows = ["| rung | agent (White) wins | distinct games | Black slipped (first slip: ply x games) "
            "| White kept every win after a slip | White wins thrown back | unproven |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for summary in summaries:
        plies = ", ".join("{} x {}".format(ply, count)
                          for ply, count in summary["first_slip_plies"].items()) or "-"
        rows.append("| {} | {} | {} | {} of {} ({}) | {} of {} | {} | {} |".format(
            summary["rung"], ladder.rate_text(summary["agent_wins"], summary["games"]),
            summary["distinct_games"], summary["slipped"], summary["games"], plies,
            summary["kept_every_win"], summary["slipped"], summary["thrown"],
            summary["unproven"]))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ladder", help="a `littlego ladder` output directory")
    parser.add_argument("--cpu", type=float, default=DEFAULT_CPU, help="CPU seconds per proof")
    parser.add_argument("--table-bits", type=int, default=solver.DEFAULT_TABLE_BITS)
    parser.add_argument("--records", metavar="FILE",
                        help="one JSON line per game, its verdict, to this file")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    if solver.missing("slips"):
        return 2
    book = opening_book.read()
    progress = Progress(args.quiet)
    summaries, lines = [], []
    with solver.Solver(args.table_bits) as prover:
        for rung, records, agent in ladder.rung_games(args.ladder):
            if rung not in ladder.AFTER_CENTRE_RUNGS:
                continue
            verdicts = []
            with progress.stage("slips " + rung, len(records), "games") as stage:
                for record in records:
                    verdict = judge_game(game_moves(record), book, prover, args.cpu)
                    verdicts.append(verdict)
                    # The moves up to Black's first slip: which of White's tries it answered.
                    upto = record["moves"][:verdict.first_slip or 0]
                    lines.append(json.dumps(dict(verdict._asdict(), rung=rung,
                                                 game=record["game"],
                                                 agent_won=record["winner_name"] == agent,
                                                 line_to_slip=upto)))
                    stage.advance()
            summaries.append(rung_summary(rung, verdicts, records, agent))
    if args.records:
        with open(args.records, "w") as handle:
            handle.write("".join(line + "\n" for line in lines))
    print("\n".join(summary_rows(summaries)))
    return 0
