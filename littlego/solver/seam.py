"""The seam: the book answers the knife edges just past its strategies.

Start at `answers` (what `littlego book` adds last) and `check` (what `littlego verify-book`
proves). Past a strategy's last ply the agent's own exact search decides (agent.exact_search,
in the position's canonical frame, go_board.canonical_symmetry). Its proof tries the root's
moves in a fixed order (`endgame.ExactSolver.root_moves` on a fresh table: biggest captures,
then the centre first) and must refute in full every move it tries before the first winning
one, and a strong opponent steers into exactly those knife edges. The compiled solver says which
moves win for a fraction of that, so every seam position (`positions`: every one the loser can
reach while the winner follows the book, at the winner's first ply past the strategy's last)
whose first move in that order loses gets a book answer (`losing_first`): the first winning move
in that order, the move the exact search would have found, without the search. An answer serves
every position with the same book key, and since the search runs in the canonical frame,
whatever the image the game shows, the answer is there for every image whose search would
refute a move first. What it costs the search where it does not answer: docs/strength.md.
"""

import time

import endgame
import go_board
import opening_book
from littlego.solver import strategy


def seam_ply(plan):
    """The winner's first ply past `plan`'s last (Black plays the odd plies)."""
    ply = plan.last_ply + 1
    return ply if ply % 2 == (plan.winner == go_board.BLACK) else ply + 1


def positions(book, plan, begins):
    """Every position at `plan`'s seam ply that the loser can reach from `begins` while the
    winner follows `book`, one per book key, in a fixed order (strategy.depth_first)."""
    last = seam_ply(plan)  # the winner's ply: only the winner's positions are there
    found = []

    def answer(position, key, symmetry, line):
        if position.ply == last:
            found.append(position)
            return None
        return book.lookup(position)
    strategy.depth_first(begins, last, plan.winner, answer)
    return found


def losing_first(search, position):
    """`(how many moves the agent's exact search refutes before its first winning one, that
    move in `position`'s frame)`: in the canonical frame, where the agent searches, the wins
    proven by the compiled `search`; StrategyBroken when no move wins."""
    symmetry = go_board.canonical_symmetry(position)
    framed = position.transformed(symmetry)
    for count, (move, _) in enumerate(endgame.ExactSolver().root_moves(framed)):
        if search.wins(framed, move):
            return count, go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][move]
    raise strategy.StrategyBroken("no move wins at the seam, ply {}:\n{}".format(
        position.ply, position))


def answers(book, search, slips, plans=None, log=None):
    """`({book key: move in the key's frame}, {plan name: stats})`: the answer of every seam
    position of `plans` (default: every strategy of the book, strategy.book_plans) whose exact search would refute a move first (`slips`: the
    repertoire's, AFTER_SLIPS' starts). Stats: seam positions, answers, nodes, CPU seconds."""
    found, stats = {}, {}
    for plan in plans or strategy.book_plans():
        started, nodes_before = time.process_time(), search.nodes
        seam = positions(book, plan, strategy.starts(plan, book, slips))
        answered = 0
        for position in seam:
            count, move = losing_first(search, position)
            if count:
                key, symmetry = opening_book.position_key(position)
                found.setdefault(key, go_board.SYMMETRIC_POINT[symmetry][move])
                answered += 1
        stats[plan.name] = {"ply": seam_ply(plan), "positions": len(seam), "answers": answered,
                            "nodes": search.nodes - nodes_before,
                            "cpu": round(time.process_time() - started, 1)}
        if log:
            log("seam {}: {}".format(plan.name, stats[plan.name]))
    return found, stats


def check(book, plan, search, slips):
    """`(checked, failures)` of `plan`'s seam in `book`: a position whose exact search would
    refute a move first must have a book answer, and every answer there must win (proven by
    the compiled `search`). Failures: `(position, book move or None)`."""
    checked, failures = 0, []
    for position in positions(book, plan, strategy.starts(plan, book, slips)):
        move = book.lookup(position)
        if move is None and not losing_first(search, position)[0]:
            continue
        checked += 1
        if move is None or not search.wins(position, move):
            failures.append((position, move))
    return checked, failures
