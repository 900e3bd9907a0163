"""The one analysis of a position, refined slice by slice: what every presenter shows (the
KataGo JSON engine, katago.py; GTP's `lz-analyze` and `kata-analyze`, littlego/gtp; the browser
board and `littlego review`, through move_results.py).

Start at `Analysis`. Built on a position it knows at once what needs no search: the moves that
end the game (their final score), the stored value table (stored_values.py: every move's exact
value and a best line, at the opening positions it holds) and the opening book's proofs
(`book_proofs`: its move a proven win, or a try: every move proven lost). `step(seconds)` then
does one slice of the rest, in this order:
1. the exact search (exact.py: the compiled solver when it is built, else the Python exact
   search within endgame.EXACT_PLIES_LEFT plies of the end): the position's value, then its
   best line to the end of the game (`exact.BestLine`), then every move's value (the moves
   asked `first`, then the line's, then the others best estimated first), then the best
   ranked move's line (when it is not the position's) and on request every move's best line
   in rank order (`move_lines`; where the exact search found the values: a stored position's
   moves have their lines only where the table holds the position after them);
   in a lost position, the best try (`endgame.best_try_in_time`: the move that leaves the
   opponent the fewest winning replies, the one the agent plays), within the Python search's
   reach;
2. an estimate, while any move's value is unknown: MCTS (mcts/core.py) in this process, one
   tree grown slice after slice up to `max_simulations` (at most MAX_SIMULATIONS, which bounds
   its memory), given ESTIMATE_SHARE of the time while the exact search has work, all of it
   when the exact search cannot reach the position.
`report()` is what is known now, one JSON-ready snapshot (`Report`'s fields) for every
presenter; `complete()` says nothing is left to do. Settings come from agent_settings.Settings
(LITTLEGO_SOLVER=0 turns the exact search off, LITTLEGO_BOOK=0 the book, through
agent.read_book).
Standard library only, Python 3.7 syntax, like the GTP engine that presents it.
"""

import collections
import random
import time

import clocks
import decision_log
import endgame
import go_board
from littlego.analysis import exact, stored_values
from mcts import core
from mcts.budget import Budget
from mcts.go_game import GoState, PlayoutEvaluator
from mcts.stopping import StopRules

WIN, LOSS = decision_log.PROVEN_WIN, decision_log.PROVEN_LOSS
# Where a proof came from, in the words the board shows ("from the exact solver").
SOURCE_TABLE, SOURCE_BOOK = "stored value table", "book"
SOURCE_SOLVER, SOURCE_SEARCH = exact.CompiledExact.name, exact.PythonExact.name
SOURCE_SCORE = "final score"  # moves that end the game
# Tree nodes take a few hundred bytes each: this many simulations stay within a few hundred MB.
MAX_SIMULATIONS = 400000
# The estimate's share of the time while the exact search still has work.
ESTIMATE_SHARE = 0.25
# A move's (and the position's) `visits`: the estimate's simulations, plus this many once its
# result is proven and as many again once its margin is, so that a client keeping the answer
# with the most visits (KaTrain does) keeps a proof over any estimate (MAX_SIMULATIONS less).
PROVEN_VISITS = 1000000
# Margins are whole stones plus komi's half point: a proven win is by at least this much.
CLOSEST_MARGIN = go_board.KOMI % 1

# What `report()` returns (JSON-ready but for the moves, go_board ints):
# - `position`; `source`: the most trusted source that proved something (SOURCE_*), or None;
# - `root`: the position as a `Known`, its `move` None;
# - `moves`: a `Known` per analysed move, best first: by score, then exact before estimated;
#   among equal exact margins the board's order (so every presenter ranks them alike, whatever
#   work found them), among equal estimates the most visited;
# - `best_try`: `(move, opponent_wins)` in a lost position when known (opponent_wins None: the
#   try ends the game), else None; `complete`: nothing is left to do.
Report = collections.namedtuple("Report", "position source root moves best_try complete")
# What is known of a move (or of the position): `result` WIN, LOSS or None for the mover;
# `margin` the exact final margin in points (komi included, positive wins) or None; `score` the
# margin, else the estimate (`estimate`); `winrate` 1 or 0 when proven, else the estimate's
# (0.5 before any); `visits` (see PROVEN_VISITS); `line` the moves from this move to the end
# of the game along a proven best line when `line_exact`, else the estimate's principal
# variation.
Known = collections.namedtuple("Known", "move result margin score winrate visits line line_exact")


def result_of(margin):
    return WIN if margin > 0 else LOSS


def book_proofs(position, book):
    """What `book` proves at `position` (this package's one reading of a book entry):
    `({move: WIN or LOSS}, try)`. The book holds the winning side's proven strategy, so its move
    is a proven win (try None); a try of the book (the loser's repertoire) proves every legal
    move lost, and the try is `(move, opponent_wins)`. `({}, None)` when the book has no legal
    answer there."""
    entry = book.entry(position)
    moves = position.legal_moves()
    if entry is None or entry.move not in moves:
        return {}, None
    if entry.opponent_wins:
        return dict.fromkeys(moves, LOSS), (entry.move, entry.opponent_wins)
    return {entry.move: WIN}, None


def estimate(position, move, result):
    """The mover's margin after `move` with the stones as they stand, moved to the nearest
    margin a proven `result` allows (WIN, LOSS or None): a win is by at least CLOSEST_MARGIN, a
    loss by at least as much the other way."""
    points = -endgame.mover_margin(position.play(move))
    if result == WIN:
        return max(points, CLOSEST_MARGIN)
    if result == LOSS:
        return min(points, -CLOSEST_MARGIN)
    return points


def line_end(position, line):
    """The position after playing `line` from `position` (as far as its moves are legal)."""
    for move in line:
        if not position.is_legal(move):
            break
        position = position.play(move)
    return position


def ownership(position, line, seen_by):
    """The final board of `line` played out from `position`, +1 a stone of `seen_by`, -1 the
    other's, 0 empty, point by point (row by row from the top left): what GUIs draw as the
    expected territory."""
    end = line_end(position, line)
    own, other = end.stones(seen_by), end.stones(go_board.other(seen_by))
    return [1.0 if own >> point & 1 else -1.0 if other >> point & 1 else 0.0
            for point in range(go_board.NUM_POINTS)]


class Analysis(object):
    """The analysis of `position` (see the module docstring). `settings`: an
    agent_settings.Settings (the estimate's seed, knowledge and exploration; `use_solver`); `book`: an opening_book.Book;
    `values`: a stored_values.StoredValues (default: the package's); `engine`: an exact.py
    engine, shared by the caller's analyses (default: a new `exact.engine` sized for the
    position, closed by `close`); `moves`: the moves to analyse (default: every legal move);
    `first`: moves whose values are wanted before the others; `move_lines`: find every move's
    best line too; `want_try`: find a lost position's best try; `estimate`: run the estimate
    (MCTS); `max_simulations`: its cap."""

    def __init__(self, position, settings, book, values=None, engine=None, moves=None,
                 first=(), move_lines=False, want_try=True, estimate=True,
                 max_simulations=None):
        self.position = position
        self.settings = settings
        self.legal = position.legal_moves()
        self.moves = [move for move in self.legal if moves is None or move in moves]
        self.restricted = len(self.moves) < len(self.legal)
        self.first = [move for move in first if move in self.moves]
        self.move_lines, self.want_try = move_lines, want_try
        self.own_engine = engine is None and settings.use_solver
        self.engine = exact.engine(position=position) if self.own_engine else \
            engine if settings.use_solver else None
        self.values = {}  # move -> the mover's exact final stone difference after it
        self.results = {}  # move -> WIN or LOSS, proven without the value
        self.lines = {}  # move -> a proven best line starting with it
        self.walks = {}  # move (None: the position) -> its unfinished exact.BestLine
        self.root_value = self.root_line = self.best_try = None
        self.sources = set()
        self.by_engine = True  # the exact search finds the moves' lines (not a stored position)
        self.estimating = estimate
        self.max_simulations = min(max_simulations or MAX_SIMULATIONS, MAX_SIMULATIONS)
        self.rng = random.Random(settings.seed + position.ply)
        self.evaluator = PlayoutEvaluator(settings.knowledge)
        self.tree = None
        self.simulations = 0
        self.try_table = {}
        self.worked = self.estimated = 0.0  # wall seconds of all work, of the estimate's
        self._known_without_search(book, stored_values.read() if values is None else values)

    def _known_without_search(self, book, values):
        position = self.position
        if position.is_over:
            self.root_value, self.root_line = exact.final_diff(position), []
            return
        for move in self.legal:
            after = position.play(move)
            if after.is_over:  # its final score
                self.values[move] = -exact.final_diff(after)
                self.lines[move] = [move]
                self.sources.add(SOURCE_SCORE)
        stored = values.stone_values(position)
        if stored is not None:
            self.sources.add(SOURCE_TABLE)
            self.by_engine = False
            self.values.update(stored)
            self.root_value = max(stored.values())
            self._line_found(None, values.best_line(position))
            for move in self.legal:
                after = position.play(move)
                if move not in self.lines and not after.is_over:
                    line = values.best_line(after)
                    self._line_found(move, None if line is None else [move] + line)
        proofs, self.best_try = book_proofs(position, book)
        if proofs:
            self.sources.add(SOURCE_BOOK)
            self.results.update(proofs)
        self._settle()

    def _settle(self):
        """What follows from the moves known: once every legal move has its value, the
        position's value is their best, and its line a best move's when that is known."""
        if not all(move in self.values for move in self.legal):
            return
        if self.root_value is None:
            self.root_value = max(self.values.values())
        if self.root_line is None:
            best = [move for move in self.legal if self.values[move] == self.root_value]
            lined = [move for move in best if move in self.lines]
            if lined:
                self.root_line = self.lines[lined[0]]

    def _line_found(self, move, line):
        """`line`, a proven best line from the position (`move` None) or after `move` (then
        starting with it), found (None: not known)."""
        if line is None:
            return
        if move is None:
            self.root_line = line
            if line:
                self.lines.setdefault(line[0], line)
                self.values.setdefault(line[0], self.root_value)
        else:
            self.lines[move] = line

    def close(self):
        """Free the exact search's tables when they are this analysis's own."""
        if self.own_engine and self.engine is not None:
            self.engine.close()

    # ---- the work ---------------------------------------------------------------------------

    def _exact_task(self):
        """The next piece of exact work, a callable taking its seconds (None when there is
        none): see the module docstring's order."""
        engine = self.engine
        if engine is None or self.position.is_over or not engine.covers(self.position):
            return self._try_task()
        if self.root_value is None and not self.restricted:
            return self._root_value
        if self.root_value is not None and self.root_line is None and self.by_engine:
            return lambda seconds: self._walk(None, self.position, self.root_value, seconds)
        unvalued = [move for move in self._value_order() if move not in self.values]
        if unvalued:
            return lambda seconds: self._move_value(unvalued[0], seconds)
        if self.by_engine:
            ranked = [known.move for known in self._ranked()]
            for move in ranked if self.move_lines else ranked[:1]:
                if move not in self.lines:
                    return lambda seconds: self._walk(move, self.position.play(move),
                                                      -self.values[move], seconds)
        return self._try_task()

    def _try_task(self):
        countable = go_board.plies_left(self.position.ply) <= endgame.EXACT_PLIES_LEFT
        if not (self.want_try and self.best_try is None and countable and
                self.settings.use_solver and self._result(None) == LOSS):
            return None
        return self._count_try

    def _value_order(self):
        line = self.root_line[:1] if self.root_line else []
        rest = [known.move for known in self._ranked()]
        order = []
        for move in self.first + line + rest:
            if move not in order:
                order.append(move)
        return order

    def _deadline(self, seconds):
        return self.engine.clock() + seconds

    def _root_value(self, seconds):
        self.root_value = self.engine.position_value(self.position, self._deadline(seconds))
        self.sources.add(self.engine.name)

    def _move_value(self, move, seconds):
        self.values[move] = self.engine.move_value(self.position, move, self.root_value,
                                                   self._deadline(seconds))
        self.sources.add(self.engine.name)

    def _walk(self, move, position, value, seconds):
        walk = self.walks.setdefault(move, exact.BestLine(position, value))
        walk.advance(self.engine, self._deadline(seconds))
        del self.walks[move]
        self._line_found(move, walk.moves if move is None else [move] + walk.moves)

    def _count_try(self, seconds):
        """The best try (its proofs kept in `try_table` from slice to slice)."""
        found = endgame.best_try_in_time(self.position, time.monotonic() + seconds,
                                         self.try_table, clock=time.monotonic)
        if found is None:
            raise clocks.OutOfTime()
        self.best_try = found

    def _estimating(self):
        """Whether the estimate has work: some move's value is unknown and its cap is not
        reached."""
        if not self.estimating or self.simulations >= self.max_simulations:
            return False
        if self.tree is not None and self.tree.solved is not None:
            return False
        return any(move not in self.values for move in self.moves)

    def step(self, seconds):
        """Work for about `seconds` (the exact search's on its own clock, the estimate's on the
        wall clock); False when there is nothing left to do."""
        started = time.monotonic()
        task = self._exact_task()
        if self._estimating() and (task is None or
                                   self.estimated < ESTIMATE_SHARE * self.worked):
            self._grow_tree(seconds)
            self.estimated += time.monotonic() - started
        elif task is not None:
            try:
                task(seconds)
            except clocks.OutOfTime:
                pass
            self._settle()
        else:
            return False
        self.worked += time.monotonic() - started
        return True

    def complete(self):
        return self._exact_task() is None and not self._estimating()

    def seeking_try(self):
        """Whether the best try of a lost position is still to be found."""
        return self._try_task() is not None

    def knows(self, moves=()):
        """Whether the position's margin and those of `moves` are exact."""
        return self._root_diff() is not None and all(move in self.values for move in moves)

    def _grow_tree(self, seconds):
        result = core.search(GoState(self.position), self.evaluator, self.rng,
                             Budget(wall_seconds=seconds,
                                    max_simulations=self.max_simulations - self.simulations),
                             exploration=self.settings.exploration,
                             stop=StopRules(when_decided=False), root=self.tree)
        self.tree = result.root
        self.simulations += result.simulations

    # ---- what is known ----------------------------------------------------------------------

    def _root_diff(self):
        """The value of the analysed moves' best, exact, or None."""
        if not self.restricted:
            if self.root_value is None and self.moves and all(
                    move in self.values for move in self.moves):
                return max(self.values[move] for move in self.moves)
            return self.root_value
        if all(move in self.values for move in self.moves):
            return max(self.values[move] for move in self.moves)
        return None

    def _result(self, move):
        """WIN, LOSS or None: of `move`, or of the position (None)."""
        if move is None:
            diff = self._root_diff()
            if diff is not None:
                return result_of(go_board.margin(diff, self.position.to_move))
            results = [self._result(each) for each in self.moves]
            if WIN in results:
                return WIN
            return LOSS if results and all(result == LOSS for result in results) else None
        if move in self.values:
            return result_of(go_board.margin(self.values[move], self.position.to_move))
        if move in self.results:
            return self.results[move]
        child = self._children().get(move)
        if child is not None and child.solved is not None:
            return WIN if child.solved == core.WIN else LOSS
        return None

    def _children(self):
        return {child.action: child for child in self.tree.children} if self.tree else {}

    def _ranked(self):
        """A `Known` per analysed move, best first (see `Report`)."""
        children = self._children()
        colour = self.position.to_move
        root_diff = self.root_value
        ceiling = None if root_diff is None else go_board.margin(root_diff, colour)
        known = []
        for index, move in enumerate(self.moves):
            child = children.get(move)
            visits = child.visits if child is not None else 0
            result = self._result(move)
            margin = go_board.margin(self.values[move], colour) if move in self.values else None
            if margin is None:
                score = estimate(self.position, move, result)
                score = score if ceiling is None else min(score, ceiling)
            else:
                score = margin
            if result is not None:
                winrate = 1.0 if result == WIN else 0.0
            else:
                winrate = child.mean() if visits else 0.5
            visits += PROVEN_VISITS * ((result is not None) + (margin is not None))
            line = self.lines.get(move)
            estimated = [move] + (core.principal_variation(child) if child is not None else [])
            # Among equal exact margins the board's order (whatever work found them); among
            # equal estimates, the most visited.
            known.append((score, margin is not None, 0 if margin is not None else visits,
                          -index, Known(move, result, margin, score, winrate, visits,
                                        line or estimated, line is not None)))
        known.sort(key=lambda entry: entry[:4], reverse=True)
        return [entry[-1] for entry in known]

    def report(self):
        """What is known now: a `Report`."""
        moves = self._ranked()
        colour = self.position.to_move
        diff = self._root_diff()
        margin = None if diff is None else go_board.margin(diff, colour)
        result = self._result(None)
        if margin is not None:
            score = margin
        elif moves:
            score = moves[0].score
        else:
            score = 0.0
        winrate = {WIN: 1.0, LOSS: 0.0}.get(result, moves[0].winrate if moves else 0.5)
        visits = self.simulations + PROVEN_VISITS * ((result is not None) + (margin is not None))
        if not self.restricted and self.root_line is not None:
            line, exact_line = self.root_line, True
        elif moves:
            line, exact_line = moves[0].line, moves[0].line_exact and margin is not None
        else:
            line, exact_line = [], margin is not None
        root = Known(None, result, margin, score, winrate, visits, line, exact_line)
        source = next((name for name in (SOURCE_TABLE, SOURCE_SOLVER, SOURCE_SEARCH,
                                         SOURCE_BOOK, SOURCE_SCORE) if name in self.sources),
                      None)
        return Report(self.position, source, root, moves, self.best_try, self.complete())
