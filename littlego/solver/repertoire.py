"""The losing side's repertoire: one try at every position it reaches while the winner keeps
its win, chosen by a rule, each try's count of winning replies proven by the compiled solver.

Start at `REPERTOIRE` (White after Black's centre, through ply 10: the game strong opponents
give us, lost for White) and `walk` (depth first from the start: at the loser's positions the
rule's try, at the winner's every reply; the replies that keep the win are followed, the others
are the winner's slips, collected for solver/strategy.py to answer with proofs). `RULES` name
the ways to choose a try:
- "fewest": the move that leaves the winner the fewest winning replies; ties to the first move
  in legal-move order. What endgame.ExactSolver.best_try plays in the last plies.
- "model": an opponent model among the nearly fewest (at most MODEL_SLACK more winning replies
  than the fewest): the move after which a short plain MCTS search (MODEL_SIMULATIONS
  simulations, MODEL_SEEDS seeds, playout knowledge off) least often picks a winning reply;
  ties to fewer winning replies, then legal-move order. The cap keeps the repertoire (and the
  proofs after every slip) small enough to build; the model is fitted to our own search at a
  small budget and judged on the yardstick's other programs and budgets (docs/strength.md).
The book's rule is "model" (REPERTOIRE): both rules choose the same tries at plies 2 and 4 and
part at ply 6; with Black's book through ply 5 (the ladder's deep rungs), agent-bare and
plain-uct slipped in none of 40 games after the "fewest" tries and in all 40 after the model's,
at once (docs/strength.md, 2026-11-25, night).
A try's count is exact: every reply of the winner is proven (early stops only skip moves that
cannot be chosen). That every try leaves at least one winning reply proves each position lost
(its one not-quite-try, a move that ends the game, is checked apart); the start is lost by the
full solve (`littlego solve --empty`), so it is not proven again here (a proof at ply 2 costs
more than the whole repertoire). Answers are the same on every run: the same questions in the
same order, and the model's searches are seeded and stop on simulations, not on time.
"""

import collections
import random
import time

import agent_settings
import go_board
import opening_book
from go_board import WHITE
from littlego.solver import strategy

# The loser, its start (a line of move texts from the empty board) and the last ply at which the
# loser's try is stored (the in-game exact search plays the best try from ply 11 on, 14 plies
# left; White's next move is at ply 12).
Repertoire = collections.namedtuple("Repertoire", "name loser start last_ply rule")
# The model: plain MCTS (knowledge off) stopped at MODEL_SIMULATIONS, MODEL_SEEDS seeds. 500
# simulations picked a ply-7 only-move 2 times of 4 that agent-bare at the default budget found
# in 20 games of 20; from 2,000 on the model found it 4 of 4 (docs/strength.md). A move counts
# as a try when it leaves at most MODEL_SLACK more winning replies than the fewest.
MODEL_SIMULATIONS = 5000
MODEL_SEEDS = 6
MODEL_SLACK = 1
# The winner's slips from this ply on are collected; earlier ones (Black's ply 3) are answered
# by the white-after-mistakes strategy, which covers every White second move.
FIRST_SLIP_PLY = 5


class NotLost(Exception):
    """A position the repertoire must answer is not lost for the loser: its start is no loss."""


def winning_replies(search, after, at_most=None):
    """The mover's legal moves in `after` that win for it, in legal-move order (the list stops
    once it has `at_most`)."""
    found = []
    for reply in after.legal_moves():
        if search.wins(after, reply):
            found.append(reply)
            if len(found) == at_most:
                break
    return found


def candidates(position):
    """The legal moves of `position`, one per resulting position up to the symmetries, in
    legal-move order; a move that ends the game (nothing left for the winner to get wrong) is
    no try."""
    seen, moves = set(), []
    for move in position.legal_moves():
        after = position.play(move)
        key = opening_book.position_key(after)[0]
        if key not in seen and not after.is_over:
            seen.add(key)
            moves.append(move)
    return moves


def ends_won(position, loser):
    """Whether a move of `loser` that ends the game (no try: see `candidates`) wins for it."""
    return any(after.is_over and after.winner() == loser
               for after in map(position.play, position.legal_moves()))


def fewest(search, position):
    """`(move, winning replies)`: the "fewest" rule."""
    best = None
    for move in candidates(position):
        count = len(winning_replies(search, position.play(move),
                                    None if best is None else best[1]))
        if best is None or count < best[1]:
            best = move, count
    return best


def model_finds(after, wins):
    """How many of MODEL_SEEDS short searches in `after` pick a reply in `wins` (a set)."""
    from mcts import core  # the search is only needed by the model rule
    from mcts.budget import Budget
    from mcts.go_game import GoState, PlayoutEvaluator
    found = 0
    for seed in range(MODEL_SEEDS):
        result = core.search(GoState(after), PlayoutEvaluator(False), random.Random(seed),
                             Budget(max_simulations=MODEL_SIMULATIONS),
                             exploration=agent_settings.DEFAULT_EXPLORATION)
        found += core.best_action(result.children) in wins
    return found


def model(search, position):
    """`(move, winning replies)`: the "model" rule."""
    counted = []  # (move, its winning replies: complete whenever it is within the bound)
    bound = None
    for move in candidates(position):
        wins = winning_replies(search, position.play(move), None if bound is None else bound + 1)
        counted.append((move, wins))
        if bound is None or len(wins) + MODEL_SLACK < bound:
            bound = len(wins) + MODEL_SLACK
    if bound == MODEL_SLACK:  # a move leaves no winning reply: it wins, and no rule applies
        move, wins = min(counted, key=lambda pair: len(pair[1]))
        return move, 0
    ranked = [(model_finds(position.play(move), set(wins)), len(wins), order, move)
              for order, (move, wins) in enumerate(counted) if len(wins) <= bound]
    finds, count, _, move = min(ranked)
    return move, count


RULES = {"fewest": fewest, "model": model}


def rule_tag(rule):
    """The rule with what its answers depend on besides the solver: the model's settings (a
    saved repertoire of another model is not reused)."""
    if rule == "model":
        return "model{}x{}s{}".format(MODEL_SIMULATIONS, MODEL_SEEDS, MODEL_SLACK)
    return rule
REPERTOIRE = Repertoire("white-repertoire", WHITE, ("2,2",), 10, "model")


def traverse(search, plan, answer):
    """strategy.depth_first over `plan`'s positions: at the loser's, `answer(position, key,
    symmetry, line)` gives the move to follow (None: stop there); at the winner's (before
    `plan.last_ply`) every reply that keeps its win is followed. Returns the lines (move texts)
    that end in the winner's slips from FIRST_SLIP_PLY on, one per position up to the
    symmetries."""
    slips, seen = [], set()

    def winning(position, line):
        if position.ply >= plan.last_ply:
            return []  # the loser's next move is past the repertoire
        followed = []
        for reply in reversed(position.legal_moves()):  # the solver is asked last to first
            after = position.play(reply)
            if search.wins(position, reply):
                followed.append(reply)
            elif position.ply >= FIRST_SLIP_PLY and not after.is_over:
                slip_key = opening_book.position_key(after)[0]
                if slip_key not in seen:
                    seen.add(slip_key)
                    slips.append(tuple(plan.start) + tuple(
                        go_board.move_to_text(move) for move in line + (reply,)))
        return followed[::-1]
    strategy.depth_first([strategy.position_after(plan.start)], plan.last_ply, plan.loser,
                         answer, winning, seen)
    return slips


def walk(search, plan, log=None):
    """`(tries, slips, stats)` of repertoire `plan` (see the module docstring): tries
    {book key: (move in the key's frame, the winner's winning replies)}, slips the lines (move
    texts) after which the winner threw its win away (`traverse`), and stats (tries per ply,
    slips, nodes, CPU). NotLost when a position the loser must answer is won for it."""
    choose = RULES[plan.rule]
    started, nodes_before = time.process_time(), search.nodes
    tries, per_ply = {}, collections.Counter()

    def answer(position, key, symmetry, line):
        move, count = choose(search, position)
        if not count or ends_won(position, plan.loser):
            raise NotLost("{}: the loser wins at ply {}:\n{}".format(
                plan.name, position.ply, position))
        tries[key] = go_board.SYMMETRIC_POINT[symmetry][move], count
        per_ply[position.ply] += 1
        if log:
            log("{} ply {}: {} leaves {} winning replies, {:.0f} CPU s".format(
                plan.name, position.ply, go_board.move_to_text(move), count,
                time.process_time() - started))
        return move
    slips = traverse(search, plan, answer)
    stats = {"tries": len(tries), "slips": len(slips),
             "per_ply": {str(ply): count for ply, count in sorted(per_ply.items())},
             "slips_per_ply": {str(ply): count for ply, count in sorted(collections.Counter(
                 len(line) for line in slips).items())},
             "nodes": search.nodes - nodes_before,
             "cpu": round(time.process_time() - started, 1)}
    return tries, slips, stats


def run(plan, table_bits):
    """`walk` on a fresh solver of 2**table_bits entries (what the book's build runs)."""
    from littlego import solver
    from littlego.solver import build
    build.build()  # a Ray worker's copy of the checkout comes without the library
    with solver.Solver(table_bits) as search:
        return walk(search, plan)


def check(book, plan, search):
    """Check the book's repertoire `plan` with the compiled solver: at every position the loser
    reaches while the winner keeps its win (through `plan.last_ply`), the book has a try there,
    and the try's count is the winner's number of winning replies after it. Each such position
    is lost for the loser: a proven winning reply of the winner led to it (the start is lost by
    the full solve: `littlego solve --empty`). Returns `(checked, failures, slips)`: failures a list of `(position, book Entry or
    None)`, slips `traverse`'s lines, for solver/strategy.py's AFTER_SLIPS to check (the book
    must answer them with proofs)."""
    failures, checked = [], []

    def answer(position, key, symmetry, line):
        checked.append(position)
        entry = book.entry(position)
        if entry is None or not entry.opponent_wins or \
                len(winning_replies(search, position.play(entry.move))) != entry.opponent_wins:
            failures.append((position, entry))
            return None
        return entry.move
    slips = traverse(search, plan, answer)
    return len(checked), failures, slips
