"""The winning side's whole strategy, proven by the compiled solver: what the book stores.

Start at `STRATEGIES` (what the book holds: each a winning side, a start and the last ply it
answers; and AFTER_SLIPS, White's answers after Black's slips along White's repertoire, whose
jobs the repertoire gives: solver/repertoire.py) and `walk` (one part of one strategy: every
position the losing side can reach from a start while the winning side follows its answers,
each answered with a proven winning move); `check` verifies a written book against a strategy
the same way. Both go through `depth_first`, the one traversal of "one side plays every move,
the other follows its answers, one visit per book key", which the repertoire (the loser's
tries, the winner's winning replies) and the seam (the positions just past a strategy) use
too.
`jobs` cuts the strategies into independent parts, one per start line, so that they run on local
processes or a Ray cluster (littlego/solver/executors.py) and give the same answers whatever runs
them. A strategy `after_mistakes` starts where its winner is lost: its jobs are every move of the
winner and every reply of the loser after it, and those whose reply was a mistake (the winner wins
after it) are walked; the others are proven losses and answered by nobody.

The answer at a position is the winning move the proof found (`Solver.winning_move`: the move
the table remembers, found in the search's order: captures, killer, history). It is chosen
that way because it is the cheapest proven choice. The move of the largest margin needs the
threshold climbed a stone at a time from the win's (a winning move at each) and ends with a
refutation of the whole position at the next stone: tried on white-after-00, whose walk takes
22 CPU s with the first winning move, it did not finish in 300 s with margins at ply 2 alone,
nor in over ten times the time with margins everywhere; and it buys nothing once every reply
of the loser is answered by a proof and the exact search finishes the game. The other choice,
the move that leaves the loser the fewest non-losing replies, does not separate winning moves
(after each, every reply loses: no draws with komi 2.5); read as the fewest replies to answer,
it needs every winning move proven and its whole strategy walked, the margins' cost again.
The same questions in the same order on the same table size give the same moves, so a job's
answers, and the book, are the same bytes on every run (tests/test_strategy.py).
"""

import collections
import time

import go_board
import opening_book
from go_board import BLACK, WHITE, Position, from_coord
from littlego import solver
from littlego.solver import build

CENTRE = from_coord(go_board.SIZE // 2, go_board.SIZE // 2)
# A strategy: the side that wins, the line of moves it starts after (go_board move texts), and
# the last ply at which the book answers for it (the in-game exact search starts after it).
Strategy = collections.namedtuple("Strategy", "name winner start last_ply after_mistakes")
# Black after its centre (docs/rules.md: the winning first move), through ply 11: at ply 11 (14
# plies left) the in-game exact search on the grader's Python 3.7 missed its share of the move on a
# fifth of the book's positions (littlego/bench/handover.py, docs/strength.md), at ply 13 it does
# not. White after each of Black's other first moves, one per symmetry class (all proven losses for
# Black), through ply 10 (the exact search takes ply 12, 13 plies left).
LOSING_FIRST_MOVES = ("0,0", "0,1", "0,2", "1,1", "1,2")
# After the centre White is lost; where Black's own third move throws the win away, White's
# answers through ply 10 as after the losing first moves. The 86 lines' proofs at ply 4 take
# most of their CPU: with the table they leave, ply 10 cost 6 CPU s more than ply 8 on a line
# of 70 s (docs/benchmarks.md). After a later slip of Black's along White's repertoire,
# AFTER_SLIPS answers through ply 10 too.
STRATEGIES = ((Strategy("black", BLACK, ("2,2",), 11, False),)
              + tuple(Strategy("white-after-" + move.replace(",", ""), WHITE, (move,), 10, False)
                      for move in LOSING_FIRST_MOVES)
              + (Strategy("white-after-mistakes", WHITE, ("2,2",), 10, True),))
AFTER_SLIPS = Strategy("white-after-slips", WHITE, ("2,2",), 10, True)


def book_plans():
    """Every strategy the book answers: STRATEGIES, then AFTER_SLIPS (read when called, so that
    tests may put small ones in their place)."""
    return STRATEGIES + (AFTER_SLIPS,)


# A job: one strategy's part below one reply of the loser to the start (or the start itself).
Job = collections.namedtuple("Job", "strategy line")


class StrategyBroken(Exception):
    """A position the winning side must answer is not won: the strategy's start is not a win."""


def position_after(line):
    """The Position after a line of move texts from the empty board."""
    position = Position()
    for text in line:
        position = position.play(go_board.move_from_text(text))
    return position


def _lines_below(line):
    """`line` extended by each legal move after it, one per position up to the symmetries."""
    position = position_after(line)
    seen, lines = set(), []
    for move in position.legal_moves():
        key = opening_book.position_key(position.play(move))[0]
        if key not in seen:
            seen.add(key)
            lines.append(line + (go_board.move_to_text(move),))
    return lines


def jobs(strategy):
    """The strategy cut below each of the loser's replies to its start, one per reply up to the
    board's symmetries (the loser moves first after Black's centre; after Black's losing first
    moves the winner, White, moves first and the whole strategy is one job). After mistakes:
    one job per move of the winner and reply of the loser."""
    if strategy.after_mistakes:
        return [Job(strategy, line) for own in _lines_below(strategy.start)
                for line in _lines_below(own)]
    if position_after(strategy.start).to_move == strategy.winner:
        return [Job(strategy, strategy.start)]
    return [Job(strategy, line) for line in _lines_below(strategy.start)]


def slip_jobs(lines):
    """AFTER_SLIPS' jobs: one per line (move texts) ending in the loser's slip."""
    return [Job(AFTER_SLIPS, tuple(line)) for line in lines]


def every_move(position, line):
    """`depth_first`'s default branches: every legal move, in legal-move order."""
    return position.legal_moves()


def depth_first(begins, last_ply, answering, answer, branches=every_move, seen=None):
    """Visit every position reachable from `begins` (Positions, in order) through `last_ply`,
    depth first, one visit per book key (opening_book.position_key: symmetric positions are
    one), finished games left out. At a position of `answering`, `answer(position, key,
    symmetry, line)` gives the one move followed (None: none); at the other side's,
    `branches(position, line)` the moves followed, in the order they are visited. `line` is the
    moves from the begin to the position; `seen`, the keys already visited (a caller may add
    its own). The order is fixed, so the questions asked of a solver are the same on every run
    (the book's bytes depend on it)."""
    seen = set() if seen is None else seen
    stack = [(position, ()) for position in reversed(begins)]
    while stack:
        position, line = stack.pop()
        if position.is_over or position.ply > last_ply:
            continue
        key, symmetry = opening_book.position_key(position)
        if key in seen:
            continue
        seen.add(key)
        if position.to_move == answering:
            move = answer(position, key, symmetry, line)
            moves = () if move is None else (move,)
        else:
            moves = branches(position, line)
        stack.extend((position.play(move), line + (move,)) for move in reversed(moves))


def walk(search, job, log=None):
    """Answer every position of `job` (see the module docstring): `(answers, stats)` where
    answers is {book key: move in the key's frame} and stats counts positions per ply, nodes
    and CPU. Depth first, in legal-move order, so the answers are the same on every run."""
    strategy = job.strategy
    started, nodes_before = time.process_time(), search.nodes
    answers, per_ply = {}, collections.Counter()

    def answer(position, key, symmetry, line):
        move = search.winning_move(position)
        if move is None:
            raise StrategyBroken("{}: the winner loses at ply {}:\n{}".format(
                strategy.name, position.ply, position))
        answers[key] = go_board.SYMMETRIC_POINT[symmetry][move]
        per_ply[position.ply] += 1
        if log and len(answers) % 1000 == 0:
            log("{} {}: {} answers, {:.0f} CPU s".format(
                strategy.name, " ".join(job.line), len(answers), time.process_time() - started))
        return move
    depth_first([position_after(job.line)], strategy.last_ply, strategy.winner, answer)
    stats = {"answers": len(answers), "per_ply": {str(ply): count for ply, count
                                                  in sorted(per_ply.items())},
             "nodes": search.nodes - nodes_before,
             "cpu": round(time.process_time() - started, 1)}
    return answers, stats


def starts(plan, book=None, slips=()):
    """The positions where the winner's answers begin: the strategy's start, or after mistakes
    each job's start, or for AFTER_SLIPS the positions after `slips` (lines of move texts: the
    repertoire's); with `book`, only those it answers (the others are the winner's losses)."""
    if not plan.after_mistakes:
        return [position_after(plan.start)]
    lines = slips if plan == AFTER_SLIPS else [job.line for job in jobs(plan)]
    found = [position_after(line) for line in lines]
    return [position for position in found if book is None or book.lookup(position) is not None]


def check(book, plan, search, rng=None, lines=0, from_ply=1, begins=None, slips=()):
    """Check `book` against strategy `plan` with the compiled solver: every position the loser
    can reach while the winner follows the book must have a book answer that wins.

    Without `rng`, every reply of the loser (depth first) from `begins` (default: the strategy's
    starts, `slips` for AFTER_SLIPS), and after mistakes every start the book leaves unanswered
    must be proven lost for the winner unless the game is over there (Black's pass after
    White's); with `rng`, `lines` seeded lines from answered starts on which the loser plays
    uniformly at random. Only positions from `from_ply` on are proven (earlier ones are still
    followed). Returns
    `(checked, failures)`, failures a list of `(position, book move or None)`."""
    checked, failures = [], []

    def answer(position, key, symmetry, line):
        move = book.lookup(position)
        if position.ply >= from_ply:
            checked.append(position)
            if move is None or not search.wins(position, move):
                failures.append((position, move))
                return None
        return move

    def replies(position, line):
        # Visited last to first (the order this check has always had); with `rng`, one.
        moves = position.legal_moves()
        return [rng.choice(moves)] if rng else moves[::-1]
    if rng:
        answered = starts(plan, book, slips)
        begins = [rng.choice(answered) for _ in range(lines)] if answered else []
    elif begins is None:
        begins = starts(plan, slips=slips)
    for start in begins:
        if book.lookup(start) is None and plan.after_mistakes and not start.is_over:
            checked.append(start)
            if search.wins(start):
                failures.append((start, None))
            continue
        depth_first([start], plan.last_ply, plan.winner, answer, replies)  # each start anew
    return len(checked), failures


def check_on_fresh_solver(book, plan, table_bits, **check_arguments):
    """`check` on a fresh solver of 2**table_bits entries: `(checked, failures, stats)`, stats
    with the nodes searched and the CPU seconds."""
    with solver.Solver(table_bits) as search:
        started = time.process_time()
        checked, failures = check(book, plan, search, **check_arguments)
        return checked, failures, {"nodes": search.nodes,
                                   "cpu": round(time.process_time() - started, 1)}


def check_job(job, book_path, table_bits, from_ply=1):
    """The full check of one job's part of its strategy (what a worker process or a Ray task
    runs), as `check_on_fresh_solver`. Jobs cover their strategy between them (positions that
    transpose across jobs are checked in each)."""
    build.build()  # a Ray worker's copy of the checkout comes without the library
    return check_on_fresh_solver(opening_book.read(book_path), job.strategy, table_bits,
                                 from_ply=from_ply, begins=[position_after(job.line)])


def run_job(job, table_bits):
    """One job on a fresh solver (what a worker process or a Ray task runs). After mistakes, a
    job whose loser's reply was no mistake gives no answers (its stats say "lost": true)."""
    build.build()  # a Ray worker's copy of the checkout comes without the library
    with solver.Solver(table_bits) as search:
        started = time.process_time()
        if job.strategy.after_mistakes and not search.wins(position_after(job.line)):
            answers, stats = {}, {"answers": 0, "per_ply": {}, "lost": True}
        else:
            answers, stats = walk(search, job)
        stats.update(nodes=search.nodes, cpu=round(time.process_time() - started, 1))
        return answers, stats
