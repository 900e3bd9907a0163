"""Live analysis: what the agent makes of every move of one position, refined slice by slice;
the GTP engine presents it as `lz-analyze` (Leela Zero's command as Sabaki and Lizzie use it)
and `kata-analyze` (KataGo's, with each move's score) until the controller sends its next
command.

Start at `Analysis.step`, one slice of work, and `Analysis.candidates`, what is known after it.
Certainties come first: the opening book's entry (move_results.book_proofs: its move a proven
win; or a try, the position proven lost and every move with it), and, at most
endgame.EXACT_PLIES_LEFT plies from the end, the exact solver's proof of each move in turn (an
unfinished proof resumes in the next slice from the kept solver table); when every move is
proven lost, the exact search's best try (`endgame.best_try_in_time`, slice after slice until it
has counted every move). A lost position's try is `Analysis.best_try`, the move to play, ranked
first among the proven losses; the engine says what it asks of the opponent (agent.try_details).
Then MCTS (mcts/core.py) in this process, one tree grown slice after slice: its root children
give visits and mean values, and the most visited path below each its principal variation. A
move proven either way (by the book, the solver or the search's own solver backups) has value 1
or 0. The tree stops growing at MAX_SIMULATIONS, which bounds its memory.
With `margins` (kata-analyze), each move's exact final margin too, once its result is proven
and before MCTS: move_results.ExactMargins, resumed slice after slice, at most
endgame.EXACT_PLIES_LEFT plies from the end and until it keeps MAX_MARGIN_BOUNDS bounds.
`Analysis.score` is a move's margin, exact or, where it is not known, estimated (`estimate`).
Standard library only, Python 3.7 syntax, like the engine.
"""

import collections
import random
import time

import endgame
import go_board
from littlego.analysis import move_results
from mcts import core
from mcts.budget import Budget
from mcts.go_game import GoState, PlayoutEvaluator
from mcts.stopping import StopRules

# Tree nodes take a few hundred bytes each: this many simulations stay within a few hundred MB.
MAX_SIMULATIONS = 400000

# The exact margin search stops once it keeps this many bounds (a few hundred bytes each): its
# moves without a margin stay estimated.
MAX_MARGIN_BOUNDS = 1000000
# Margins are whole stones plus komi's half point: a proven win is by at least this much.
CLOSEST_MARGIN = go_board.KOMI % 1

# The book's proofs (move_results.book_proofs) as the search's values.
BOOK_VALUES = {move_results.WIN: core.WIN, move_results.LOSS: core.LOSS}
# One move's analysis: `value` for the side to move in [0, 1] (exact when `proven`), `pv` the
# moves from this one on.
Candidate = collections.namedtuple("Candidate", "move visits value proven pv")


class Analysis(object):
    """The analysis of `position` under the agent's `settings` and `book` (agent.read_book's),
    proofs kept in `solver_table`.
    `best_try` is `(move, opponent_wins)` once the position is known lost with a try (as
    endgame.ExactSolver.best_try gives it), else None."""

    def __init__(self, position, settings, book, solver_table, margins=False):
        self.position = position
        self.settings = settings
        self.solver_table = solver_table
        self.moves = position.legal_moves()  # none once the game is over
        proofs, self.best_try = move_results.book_proofs(position, book)
        # move -> core.WIN or core.LOSS for the side to move
        self.proofs = {move: BOOK_VALUES[result] for move, result in proofs.items()}
        exact = settings.use_solver and \
            go_board.plies_left(position.ply) <= endgame.EXACT_PLIES_LEFT
        self.unproven = [move for move in self.moves if move not in self.proofs] if exact else []
        self.seeking_try = False  # every move is proven lost, the best try not yet counted
        self.margins = move_results.ExactMargins(position, solver_table) \
            if margins and exact else None
        self.rng = random.Random(settings.seed + position.ply)
        self.evaluator = PlayoutEvaluator(settings.knowledge)
        self.root = None
        self.simulations = 0

    def step(self, seconds):
        """Work for about `seconds` of wall time (every part's deadline is on the wall clock, so
        that a busy machine does not stretch a slice); False when there is nothing left to do."""
        if self.unproven:
            self._prove(seconds)
            return True
        if self.seeking_try:
            self.best_try = endgame.best_try_in_time(self.position, time.monotonic() + seconds,
                                                     self.solver_table, clock=time.monotonic)
            self.seeking_try = self.best_try is None
            return True
        if self.margins is not None and not self.margins.finished() and \
                self.margins.bounds() < MAX_MARGIN_BOUNDS:
            self.margins.advance(time.monotonic() + seconds, time.monotonic)
            return True
        done = self.root is not None and self.root.solved is not None
        if not self.moves or done or self.simulations >= MAX_SIMULATIONS:
            return False
        result = core.search(GoState(self.position), self.evaluator, self.rng,
                             Budget(wall_seconds=seconds,
                                    max_simulations=MAX_SIMULATIONS - self.simulations),
                             self.settings.exploration, StopRules(when_decided=False),
                             root=self.root)
        self.root = result.root
        self.simulations += result.simulations
        return True

    def _prove(self, seconds):
        solver = endgame.ExactSolver(time.monotonic() + seconds, clock=time.monotonic,
                                     table=self.solver_table)
        children = dict(solver.root_moves(self.position))
        try:
            while self.unproven:
                move = self.unproven[0]
                wins = solver.move_wins(self.position, children[move])
                self.proofs[move] = core.WIN if wins else core.LOSS
                self.unproven.pop(0)
        except endgame.OutOfTime:
            return  # the next slice goes on from the table
        self.seeking_try = core.WIN not in self.proofs.values()

    def candidates(self):
        """The moves searched or proven so far: proven wins first, then by visits, proven
        losses last, the best try first among them."""
        searched = {child.action: child for child in self.root.children} if self.root else {}
        found = []
        for move in self.moves:
            child = searched.get(move)
            proof = self.proofs.get(move)
            if proof is None and child is not None:
                proof = child.solved
            if child is None and proof is None:
                continue
            value = proof if proof is not None else child.mean()
            pv = [move] + (core.principal_variation(child) if child is not None else [])
            found.append(Candidate(move, child.visits if child is not None else 0, value,
                                   proof is not None, pv))
        rank = {core.WIN: 2, None: 1, core.LOSS: 0}
        try_move = self.best_try[0] if self.best_try is not None else None
        found.sort(key=lambda candidate: (
            rank[candidate.value if candidate.proven else None], candidate.move == try_move,
            candidate.visits, candidate.value), reverse=True)
        return found

    def score(self, candidate):
        """`(points, exact)`: the side to move's final margin after the `candidate`'s move
        (komi included, positive wins), exact when the margin search proved it or the move ends
        the game, else `estimate`'s."""
        move = candidate.move
        after = self.position.play(move)
        if after.is_over:
            return -endgame.mover_margin(after), True
        known = self.margins.moves.get(go_board.move_to_text(move), {}) \
            if self.margins is not None else {}
        if "margin" in known:
            return known["margin"], True
        return estimate(self.position, move, candidate.value if candidate.proven else None), \
            False


def estimate(position, move, proof):
    """The mover's margin after `move` with the stones as they stand, moved to the nearest
    margin a proof allows (`proof`: core.WIN, core.LOSS or None): a proven win is by at least
    CLOSEST_MARGIN, a proven loss by at least as much the other way."""
    points = -endgame.mover_margin(position.play(move))
    if proof == core.WIN:
        return max(points, CLOSEST_MARGIN)
    if proof == core.LOSS:
        return min(points, -CLOSEST_MARGIN)
    return points
