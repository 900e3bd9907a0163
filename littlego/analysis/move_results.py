"""Proven results of every legal move, for the board page (board/server.py, GET /api/analysis).

Start at `move_results(position, cpu_limit)`. It asks four sources in turn and the first that
proves something answers; the others are not asked:
0. the stored value table (stored_values.py): every legal move's exact margin at the opening
   positions it holds, read from a file, where the solver would take minutes.
1. the compiled exact solver (`solver_moves`): the package `littlego.solver`, loaded by name
   (importlib, SOLVER_MODULE) when first asked, so that a test can put a fake in its place in
   sys.modules; used when it is built (`solver.available()`); it answers for every move at once.
2. the Python exact search (`search_moves`, endgame.ExactSolver) when at most
   endgame.EXACT_PLIES_LEFT plies are left: win or loss of each move, then each move's exact
   margin (winning moves first) while the CPU lasts. What it proved before the CPU ran out is
   kept. `ExactMargins` is the same search resumable slice after slice (GTP's kata-analyze,
   through live.py).
3. the opening book (`book_moves`): the book holds the winning side's proven strategy, so its
   move is a proven win and the other moves stay unknown; a try of the book (the loser's
   repertoire) proves the position lost, every move with it.
In a lost position the answer also names the best try, the move the agent would play there
(`best_try`): the book's, else the exact search's (endgame.best_try_in_time, with what is
left of the CPU), with what it asks of the opponent in agent.try_details' words.

`SolverMargins` then fills in the margins the first answer lacks, one move at a time on the
compiled solver, so that a caller with time (the board's server) can show them as they come.

The answer is plain JSON, results seen from the side to move:
    {"source": SOURCE_TABLE | SOURCE_SOLVER | SOURCE_SEARCH | SOURCE_BOOK | None,
     "result": WIN | LOSS | None,          the position under best play, when proven
     "margin": points or None,             the position's exact final margin, when known
     "moves": {"i,j" or "PASS": {"result": WIN | LOSS, "margin": points (only when known)}},
     "unknown": bool,                      some legal move has no result
     "best_try": None or {"move": "i,j" or "PASS", "opponent_wins": n or None (the try ends
                 the game), "opponent_moves": n, "summary": "lost: Black must find 1 of 19
                 moves"}}                  in a lost position, when a try is known
Only legal moves are listed. Margins are in points (komi included) for the mover: positive
wins. `cpu_limit` is CPU seconds of the calling thread (time.thread_time), so that a server
thread's budget does not count the other threads' work.
"""

import importlib
import time

import agent
import endgame
import go_board
import opening_book
from littlego.analysis import stored_values

WIN, LOSS = endgame.PROVEN_WIN, endgame.PROVEN_LOSS
SOURCE_TABLE = "stored value table"
SOURCE_SOLVER, SOURCE_SEARCH, SOURCE_BOOK = "exact solver", "exact search", "book"
SOLVER_MODULE = "littlego.solver"
HALF_POINTS = 2.0  # endgame's margins are in half points
# SolverMargins' table: at most 2**24 entries (128 MB), littlego.solver.table_bits_for's below it.
ON_DEMAND_TABLE_BITS = 24


def move_results(position, cpu_limit, book=None, clock=time.thread_time, values=None):
    """The proven results of `position`'s legal moves (see the module docstring) within
    `cpu_limit` CPU seconds of `clock`. `book`: an opening_book.Book (default: the file's);
    `values`: a stored_values.StoredValues (default: the file's)."""
    legal = [go_board.move_to_text(move) for move in position.legal_moves()]
    if not legal:
        return summary(None, legal, {}, None)
    book = opening_book.read() if book is None else book
    values = stored_values.read() if values is None else values
    deadline = clock() + cpu_limit
    table = {}  # the Python search's proofs, for the best try's count
    source, found = SOURCE_TABLE, table_moves(position, values)
    if not found:
        source, found = SOURCE_SOLVER, solver_moves(position, cpu_limit)
    if not found:
        source, found = SOURCE_SEARCH, search_moves(position, deadline, clock, table)
    if not found:
        source, found = SOURCE_BOOK, book_moves(position, book)
    answer = summary(source, legal, *(found or ({}, None)))
    if answer["result"] == LOSS:
        answer["best_try"] = best_try(position, book, deadline, clock, table)
    return answer


def summary(source, legal, moves, margin):
    """The answer's dict from one source's `{move text: {"result", ["margin"]}}` and the
    position's margin (None when unknown); moves that are not legal are left out. No best try
    yet (`best_try`)."""
    moves = {move: moves[move] for move in legal if move in moves}
    results = [moves[move]["result"] for move in moves]
    if WIN in results:
        result = WIN
    elif results and len(moves) == len(legal):
        result = LOSS
    else:
        result = None
    return {"source": source if moves else None, "result": result, "margin": margin,
            "moves": moves, "unknown": len(moves) < len(legal), "best_try": None}


def book_proofs(position, book):
    """What `book` proves at `position` (this module's and live.py's one reading of a book
    entry): `({move: WIN or LOSS}, try)`. The book holds the winning side's proven strategy, so
    its move is a proven win (try None); a try of the book (the loser's repertoire) proves every
    legal move lost, and the try is `(move, opponent_wins)`. `({}, None)` when the book has no
    legal answer there."""
    entry = book.entry(position)
    moves = position.legal_moves()
    if entry is None or entry.move not in moves:
        return {}, None
    if entry.opponent_wins:
        return dict.fromkeys(moves, LOSS), (entry.move, entry.opponent_wins)
    return {entry.move: WIN}, None


def best_try(position, book, deadline, clock, table):
    """The answer's `best_try` for the lost `position`: the book's try, else, when few plies
    are left, the exact search's if it counts every move by `deadline`; None when neither
    knows it."""
    found = book_proofs(position, book)[1]
    if found is None and go_board.plies_left(position.ply) <= endgame.EXACT_PLIES_LEFT:
        found = endgame.best_try_in_time(position, deadline, table, clock)
    if found is None:
        return None
    move, opponent_wins = found
    details = agent.try_details(position, move, opponent_wins)
    return dict({key: details[key] for key in agent.TRY_KEYS}, move=go_board.move_to_text(move))


def margin_moves(margins):
    """`(moves, margin)` from `{move text: exact margin}` for every legal move: a move wins when
    its margin is positive (a draw cannot happen: the komi is half a point)."""
    moves = {move: {"result": WIN if points > 0 else LOSS, "margin": points}
             for move, points in margins.items()}
    return moves, max(margins.values())


def table_moves(position, values):
    """`(moves, margin)` from the stored value table `values`, or None when it does not hold
    `position`."""
    margins = values.lookup(position)
    return None if margins is None else margin_moves(margins)


def compiled_solver():
    """The package `littlego.solver` (SOLVER_MODULE, loaded by name), or None when it is missing
    or not built."""
    try:
        solver = importlib.import_module(SOLVER_MODULE)
    except ImportError:
        return None
    return solver if solver.available() else None


def solver_moves(position, cpu_limit):
    """`(moves, margin)` from the compiled solver, or None when it is missing, not built or out
    of time: every move's result first, then, with what is left of `cpu_limit`, every move's
    exact margin and the position's (kept without them when they do not finish)."""
    solver = compiled_solver()
    if solver is None:
        return None
    deadline = time.process_time() + cpu_limit  # the solver's limits are process CPU
    try:
        answer = solver.analyse(position, cpu_limit=cpu_limit)
    except endgame.OutOfTime:
        return None
    moves = {move: {"result": result} for move, result in answer["moves"].items()
             if result in (WIN, LOSS)}
    left = deadline - time.process_time()
    if left <= 0:
        return moves, None
    try:
        detailed = solver.analyse(position, cpu_limit=left, margins=True)
    except endgame.OutOfTime:
        return moves, None
    for move, points in detailed["move_margins"].items():
        if move in moves:
            moves[move]["margin"] = points
    return moves, detailed["margin"]


def solver_margins(position, first):
    """A SolverMargins filling in the margins that `first` (move_results' answer for
    `position`) lacks, or None when it lacks none or the compiled solver is not there."""
    if not first["unknown"] and all("margin" in known for known in first["moves"].values()):
        return None
    solver = compiled_solver()
    return None if solver is None else SolverMargins(position, first, solver)


class SolverMargins(object):
    """Every legal move's exact margin from the compiled solver, one move at a time, for a
    caller that shows them as they come (the board's server). `advance(cpu_limit)` works on the
    next move whose margin `first` lacks (legal order, the pass last) for at most `cpu_limit`
    CPU seconds of the process (the solver's clock) and says whether it found it; the solver's
    table is kept between calls, so a move cut short goes on from what its tests proved.
    `answer()` is `first` with the margins found so far (a move's result comes with its
    margin); `solved` of `total` legal moves have their margin. `close` frees the table."""

    def __init__(self, position, first, solver):
        self.position = position
        self.first = first
        self.legal = [go_board.move_to_text(move) for move in position.legal_moves()]
        self.todo = [move for move in position.legal_moves()
                     if "margin" not in first["moves"].get(go_board.move_to_text(move), {})]
        self.total = len(self.legal)
        self.found = {}
        self.search = solver.Solver(min(solver.table_bits_for_position(position),
                                        ON_DEMAND_TABLE_BITS))

    @property
    def solved(self):
        return self.total - len(self.todo)

    def finished(self):
        return not self.todo

    def advance(self, cpu_limit):
        move = self.todo[0]
        try:
            value = self.search.value(self.position, move, cpu_limit)
        except endgame.OutOfTime:
            return False
        self.todo.pop(0)
        self.found[go_board.move_to_text(move)] = go_board.margin(value, self.position.to_move)
        return True

    def answer(self):
        if not self.found:
            return self.first
        moves = dict(self.first["moves"], **margin_moves(self.found)[0])
        margins = [moves[move].get("margin") for move in self.legal if move in moves]
        complete = len(margins) == self.total and None not in margins
        answer = summary(SOURCE_SOLVER, self.legal, moves, max(margins) if complete else None)
        answer["best_try"] = self.first["best_try"]
        return answer

    def close(self):
        self.search.close()


def search_moves(position, deadline, clock, table=None):
    """`(moves, margin)` from endgame.ExactSolver, or None when too many plies are left or
    nothing was proven by `deadline`. The margin is the position's, or None when unknown.
    `table`: where the proofs are kept (see ExactSolver)."""
    if go_board.plies_left(position.ply) > endgame.EXACT_PLIES_LEFT:
        return None
    search = ExactMargins(position, table)
    search.advance(deadline, clock)
    return search.answer()


class ExactMargins(object):
    """The Python exact search of one position, resumable: `advance(deadline, clock)` works
    until the deadline, first each move's win or loss, then each move's exact margin, winning
    moves first (by how much one wins is what a player most needs); the next call goes on
    where it stopped, since the solver, its proofs (`table`) and its margin bounds are kept.
    `moves` is `{move text: {"result", ["margin"]}}` so far; `answer()` is search_moves'.
    `bounds()` counts the kept margin bounds, which grow with the work done (a caller that
    runs it for long caps them)."""

    def __init__(self, position, table=None):
        self.position = position
        self.solver = endgame.ExactSolver(table=table)
        self.root = [(go_board.move_to_text(move), child)
                     for move, child in self.solver.root_moves(position)]
        self.moves = {}

    def finished(self):
        return len(self.moves) == len(self.root) and all(
            "margin" in known for known in self.moves.values())

    def bounds(self):
        return len(self.solver.bounds)

    def advance(self, deadline, clock):
        """Work until `deadline` of `clock` (or the end); True when every margin is known."""
        self.solver.cpu_deadline, self.solver.clock = deadline, clock
        moves = self.moves
        try:
            for move, child in self.root:
                if move not in moves:
                    moves[move] = {"result": WIN if self.solver.move_wins(self.position, child)
                                   else LOSS}
            for move, child in sorted(self.root, key=lambda item: moves[item[0]]["result"] != WIN):
                if "margin" not in moves[move]:
                    moves[move]["margin"] = \
                        exact_margin(self.solver, self.position, child) / HALF_POINTS
        except endgame.OutOfTime:
            pass
        return self.finished()

    def answer(self):
        """`(moves, margin)` as search_moves gives them, None when nothing is proven yet."""
        if not self.moves:
            return None
        # The position's margin is its best move's: a winning one's when any wins (losing
        # moves' margins are negative), so the losing moves' margins are not needed then.
        wins = [known for known in self.moves.values() if known["result"] == WIN]
        margins = [known.get("margin") for known in (wins or self.moves.values())]
        complete = len(self.moves) == len(self.root) and None not in margins
        return dict(self.moves), max(margins) if complete else None


def exact_margin(solver, position, child):
    """The mover's exact final margin in half points after the move leading to `child` (a
    `root_moves` entry; None for the pass that ends the game)."""
    if child is None:
        own, opp = position.mover_view()[:2]
        return endgame.margin_of(go_board.popcount(own) - go_board.popcount(opp),
                                 go_board.plies_left(position.ply))
    return -solver.value(*(child + (endgame.WORST, -endgame.WORST)))


def book_moves(position, book):
    """`({book move: win}, None)` when `book` answers `position` with a win, `({every legal
    move: loss}, None)` when it answers with a try, else None (`book_proofs`; the book keeps no
    margins: they stay offline, in its provenance)."""
    proofs = book_proofs(position, book)[0]
    if not proofs:
        return None
    return {go_board.move_to_text(move): {"result": result}
            for move, result in proofs.items()}, None
