"""The hand-over from the book to the in-game exact search, measured on the grader's Python.

Usage: littlego handover [--lines 40] [--seed 1] [--python PATH]

For each strategy of solver/strategy.py, seeded lines on which the loser plays at random and
the winner follows the book past its last ply, to the winner's first move without a book
answer (ply 13 for Black, ply 12 for White; after mistakes each line starts at a mistake the
book answers, solver.strategy.starts; after slips along White's repertoire, at a slip:
solver/repertoire.py's `check` lists them). Then White's repertoire itself: every ply-12
position it reaches while Black keeps its win, lost for White, where the search must find its
best try in the same share. There the agent's exact search
(endgame.choose_endgame_move, a fresh table as in a new per-move process) runs under the
grader's Python 3.7 (or --python) with the share of a default move the agent gives it
(agent.SOLVER_SHARE of agent.DEFAULT_MOVE_CPU). Prints, per strategy, how many positions the
search decided within that share, the median and worst CPU seconds, and whether each decision
is the proven win the compiled solver says it must be (for the repertoire: the proven loss it
is, played as a try).
"""

import argparse
import json
import random
import statistics
import subprocess
import sys

import agent
import opening_book
from littlego import solver
from littlego.grader.interpreters import grader_python
from littlego.paths import REPO_ROOT
from littlego.progress import Progress, add_quiet_option
from littlego.solver import repertoire, strategy

SHARE_CPU = agent.SOLVER_SHARE * agent.DEFAULT_MOVE_CPU
# Decides each position given as JSON on stdin with a fresh exact search and the CPU share of
# argv[1]; prints, per position, the move (null when undecided) and the CPU seconds.
DECIDE_SCRIPT = """
import json, sys, time
import endgame, go_board
share = float(sys.argv[1])
out = []
for black, white, prev_black, prev_white, to_move, ply in json.load(sys.stdin):
    position = go_board.Position(black, white, to_move, ply, prev_black, prev_white)
    started = time.process_time()
    exact = endgame.choose_endgame_move(position, started + share)
    out.append([None if exact is None else exact.move, time.process_time() - started])
print(json.dumps(out))
"""


def handover_positions(book, plan, rng, lines, begins):
    """The winner's first positions past the book on `lines` seeded lines of `plan` from
    `begins`."""
    positions = []
    for _ in range(lines):
        position = rng.choice(begins)
        while not position.is_over:
            if position.to_move == plan.winner:
                move = book.lookup(position)
                if move is None:
                    positions.append(position)
                    break
            else:
                move = rng.choice(position.legal_moves())
            position = position.play(move)
    return positions


def repertoire_handover(book, search):
    """`(every ply-12 position of the book's repertoire, the lines of Black's slips along it)`:
    White's tries followed, Black's winning replies (the compiled solver's) all followed."""
    plan = repertoire.REPERTOIRE
    slips = repertoire.check(book, plan, search)[2]
    past = plan._replace(last_ply=plan.last_ply + 2)
    reached = []

    def answer(position, key, symmetry):
        if position.ply > plan.last_ply:
            reached.append(position)
            return None
        return book.entry(position).move
    repertoire.traverse(search, past, answer)
    return reached, slips


def decide(python, positions):
    fields = [[p.black, p.white, p.prev_black, p.prev_white, p.to_move, p.ply] for p in positions]
    done = subprocess.run([python, "-c", DECIDE_SCRIPT, str(SHARE_CPU)], cwd=REPO_ROOT,
                          input=json.dumps(fields), stdout=subprocess.PIPE,
                          universal_newlines=True, check=True)
    return json.loads(done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=40, help="seeded lines per strategy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", help="the interpreter (default: the grader's 3.7)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    python = args.python or grader_python()
    if solver.missing("handover"):
        return 2
    if python is None:
        sys.stderr.write("handover: the grader's Python 3.7 is not installed (pyenv install 3.7)\n")
        return 2
    book = opening_book.read()
    worst_all, undecided_all, lost_all = 0.0, 0, 0
    with solver.Solver() as search:
        tries, slips = repertoire_handover(book, search)
        parts = [(plan.name, handover_positions(
            book, plan, random.Random("{}:{}".format(args.seed, plan.name)), args.lines,
            strategy.starts(plan, book, slips)))
            for plan in strategy.STRATEGIES + (strategy.AFTER_SLIPS,)]
        parts.append((repertoire.REPERTOIRE.name, tries))
        with Progress(args.quiet).stage("handover", sum(len(positions) for _, positions in parts),
                                        "positions") as stage:
            for name, positions in parts:
                decided = decide(python, positions)
                stage.advance(len(positions))
                times = [seconds for _, seconds in decided]
                undecided = sum(move is None for move, _ in decided)
                lost = 0 if name == repertoire.REPERTOIRE.name else sum(  # tries: lost anyway
                    move is not None and not search.wins(position, move)
                    for position, (move, _) in zip(positions, decided))
                worst_all = max(worst_all, max(times))
                undecided_all += undecided
                lost_all += lost
                stage.write(json.dumps({"strategy": name, "positions": len(positions),
                                        "plies": sorted({p.ply for p in positions}),
                                        "undecided": undecided, "not_winning": lost,
                                        "median_cpu": round(statistics.median(times), 3),
                                        "worst_cpu": round(max(times), 3)}))
    print(json.dumps({"python": python, "share_cpu": SHARE_CPU, "worst_cpu": round(worst_all, 3),
                      "undecided": undecided_all, "not_winning": lost_all}))
    return 1 if undecided_all or lost_all else 0


if __name__ == "__main__":
    sys.exit(main())
