"""The exact searches the analysis asks (live.py), behind one face: the compiled solver
(`CompiledExact`: littlego.solver, C) and the Python exact search (`PythonExact`:
endgame.ExactSolver), two independent implementations of the same rules, so that each checks the
other (tests/test_analysis_exact.py).

Start at `engine()`, which picks the compiled solver when it is built (the package is loaded
by name, importlib and SOLVER_MODULE, when first asked, so that a test can put a fake in its
place in sys.modules), else the Python search. Both answer in slices: every question takes a
`deadline` on the engine's own `clock()` (the compiled solver's is the process's CPU, the Python
search's the wall clock; None is no limit) and raises clocks.OutOfTime when it passes first;
what a question proved stays in the engine's tables, so asking it again goes on from there.

Values are final stone differences for the side to move under perfect play (own stones minus
the opponent's when the game ends), the compiled solver's unit; go_board.margin turns one into
points. The questions:
- `position_value(position, deadline)`: the position's value;
- `move_value(position, move, guess, deadline)`: the value the mover keeps after `move`
  (`guess`, the value it is probably near, saves the compiled solver tests);
- `reaching_move(position, value, deadline)`: a move that keeps `value`, checked by its own
  test: asked at the position's value it is a best move, one step of a proven best line
  (`BestLine`, which walks such steps to the end of the game: the line `ownership` shows).
`covers(position)` says whether the engine can be asked at all: the Python search only within
endgame.EXACT_PLIES_LEFT plies of the end.
"""

import importlib
import time

import clocks
import endgame
import go_board

SOLVER_MODULE = "littlego.solver"
# The compiled solver's table for an analysis: 2**24 entries (128 MB), shared by every position
# the engine is asked about (its entries are exact bounds, true for any game).
TABLE_BITS = 24
# The Python search's kept proofs and margin bounds are dropped once either holds this many
# entries (a few hundred bytes each), which bounds its memory over a long session.
MAX_PYTHON_ENTRIES = 1000000
# Margins of the Python search are in half points (endgame's unit).
HALF_POINTS = 2


def compiled_solver():
    """The package `littlego.solver` (SOLVER_MODULE, loaded by name), or None when it is missing
    or not built."""
    try:
        solver = importlib.import_module(SOLVER_MODULE)
    except ImportError:
        return None
    return solver if solver.available() else None


def engine(table_bits=TABLE_BITS, position=None):
    """The compiled solver's engine when it is built, else the Python search's; for one
    `position`, its table no larger than a search of it needs (table_bits_for_position)."""
    solver = compiled_solver()
    if solver is None:
        return PythonExact()
    if position is not None:
        table_bits = min(table_bits, solver.table_bits_for_position(position))
    return CompiledExact(solver, table_bits)


def final_diff(position):
    """The side to move's stone difference as the stones stand (what ending the game gives)."""
    own, opp = position.mover_view()[:2]
    return go_board.popcount(own) - go_board.popcount(opp)


class CompiledExact(object):
    """The compiled solver (one littlego.solver.Solver, whose table every question shares);
    `close` frees the table."""

    name = "exact solver"

    def __init__(self, solver_module, table_bits=TABLE_BITS, solver=None):
        self.module, self.table_bits = solver_module, table_bits
        self.solver = solver_module.Solver(table_bits) if solver is None else solver

    @classmethod
    def around(cls, solver):
        """The engine on an open littlego.solver.Solver (its table as it is), which the caller
        closes."""
        return cls(None, solver=solver)

    @staticmethod
    def clock():
        return time.process_time()  # the solver's limits are the process's CPU

    @staticmethod
    def covers(position):
        return True

    def _left(self, deadline):
        """CPU seconds before `deadline` (None: no limit); OutOfTime when none are left."""
        if deadline is None:
            return None
        left = deadline - self.clock()
        if left <= 0:
            raise clocks.OutOfTime()
        return left

    def position_value(self, position, deadline):
        return self.solver.value(position, cpu_limit=self._left(deadline))

    def move_value(self, position, move, guess, deadline):
        return self.solver.value(position, move, cpu_limit=self._left(deadline), guess=guess)

    def reaching_move(self, position, value, deadline):
        move = self.solver.move_reaching(position, value, self._left(deadline))
        if move is not None and self.solver.at_least(position, value, move,
                                                      self._left(deadline)):
            return move
        for move in position.legal_moves():  # the table's move did not hold: ask each move
            if self.solver.at_least(position, value, move, self._left(deadline)):
                return move
        raise ValueError("no move keeps the value {} asked".format(value))

    def clear(self):
        """Empty the table (a new one of the same size)."""
        bits = self.table_bits
        self.solver.close()
        self.solver = self.module.Solver(bits)

    def close(self):
        self.solver.close()


class PythonExact(object):
    """endgame.ExactSolver, its proofs (`table`) and margin bounds kept between questions."""

    name = "exact search"

    def __init__(self, table=None):
        self.table = {} if table is None else table
        self.search = endgame.ExactSolver(table=self.table, clock=self.clock)

    @staticmethod
    def clock():
        return time.monotonic()

    @staticmethod
    def covers(position):
        return go_board.plies_left(position.ply) <= endgame.EXACT_PLIES_LEFT

    def _children(self, position, deadline):
        if len(self.table) > MAX_PYTHON_ENTRIES or len(self.search.bounds) > MAX_PYTHON_ENTRIES:
            self.clear()
        self.search.cpu_deadline = deadline
        return self.search.root_moves(position)

    def _diff(self, position, margin):
        """The mover's stone difference from its margin in half points."""
        plies_left = go_board.plies_left(position.ply)
        return (margin - endgame.MOVER_KOMI_HALF_POINTS[plies_left & 1]) // HALF_POINTS

    def position_value(self, position, deadline):
        return max(self.move_value(position, move, None, deadline)
                   for move in position.legal_moves())

    def move_value(self, position, move, guess, deadline):
        child = dict(self._children(position, deadline))[move]
        if child is None:  # a pass that ends the game
            return final_diff(position)
        return self._diff(position, -self.search.value(
            *(child + (endgame.WORST, -endgame.WORST))))

    def reaching_move(self, position, value, deadline):
        wanted = endgame.margin_of(value, go_board.plies_left(position.ply))
        for move, child in self._children(position, deadline):
            if child is None:
                if final_diff(position) >= value:
                    return move
            elif -self.search.value(*(child + (-wanted, 1 - wanted))) >= wanted:
                return move  # a null-window test: the margin is at least the value's
        raise ValueError("no move keeps the value {} asked".format(value))

    def clear(self):
        """Forget every proof and bound."""
        self.table.clear()
        self.search = endgame.ExactSolver(table=self.table, clock=self.clock)

    def close(self):
        pass


class BestLine(object):
    """A proven best line from `position`, whose value for its side to move is `value`: one
    `reaching_move` after another until the game ends, resumable (`advance` goes on from the
    moves found so far). `moves` is the line so far; `finished()` once it reaches the end."""

    def __init__(self, position, value):
        self.start = position
        self.position = position
        self.value = value
        self.moves = []

    def finished(self):
        return self.position.is_over

    def advance(self, engine, deadline):
        """Walk on until the end or OutOfTime at `deadline` (the engine's clock; None: no
        limit); True when the line is whole."""
        while not self.position.is_over:
            move = engine.reaching_move(self.position, self.value, deadline)
            self.moves.append(move)
            self.position = self.position.play(move)
            self.value = -self.value
        return True


def best_line(engine, position, value, deadline=None):
    """The whole proven best line from `position` (value `value`): a list of moves."""
    line = BestLine(position, value)
    line.advance(engine, deadline)
    return line.moves
