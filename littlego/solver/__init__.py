"""The compiled exact solver: Little-Go solved by an alpha-beta search in C (src/).

Reading guide: start at `Solver` (one C search context: its transposition table survives
between questions, so related questions get cheaper) and `analyse` (every legal move's result
as one JSON object, what `littlego solve` prints). This module is the one door from Python to
the C code (src/api.c): it loads build.LIBRARY_PATH with ctypes when first asked, never at
import, compiling it first (build.py) when it is missing, as in a fresh `pip install`, and owns
the scoring rule's komi through go_board (the C search only compares stone differences with a
threshold). Both sides of the door use the same words (`table_bits`, `winning_move`,
`symmetry_from`, `value_order`, PASS), and the door's codes (`Codes`) are read from the library,
which exports src/api.h's.
Offline only: the per-move path never imports it.

Why C through ctypes: the standard library loads it, so nothing but gcc is needed to build
and nothing at all to call it (no Cython or cffi build step, no Rust toolchain), and a plain C
search over 25-bit boards is where the speed is.

Values are final stone differences (own - opponent, stones on the board when the game ends)
seen from the side to move; a side wins when its difference is at least
`go_board.needed_diff(colour)` (komi 2.5 to White). Results are exact: a False is a proof too.
"""

import collections
import contextlib
import ctypes
import hashlib
import os
import sys
import time

import go_board
from clocks import OutOfTime
from endgame import PROVEN_LOSS, PROVEN_WIN
from go_board import BLACK, needed_diff
from littlego.solver import build
from littlego.solver.build import LIBRARY_PATH

# Table entries are 8 bytes from 2**21 entries (16 below: `table_bytes`): 2**24 is 128 MB,
# enough for a ply-7 proof; the book's jobs and its check take 2**26 (512 MB each, two at once
# on this 2-core, 24 GB machine), the full solve 2**25.
DEFAULT_TABLE_BITS = 24
BOOK_TABLE_BITS = 26
# The empty board's value table (`littlego bench-value`, `littlego value-table`): 2**26
# entries, 512 MB, the fastest of 2**25 to 2**27 there (docs/value.md), within its 2 GB.
VALUE_TABLE_BITS = 26
MAX_TABLE_BITS = 34
# A one-position search's table by its plies left (`table_bits_for`): 2 bits a ply, 2**24 for
# a ply-7 proof, between these bounds (2**16 entries is 1 MB). No more than 2**25 even for the
# empty board: more entries save nodes but their probes miss the caches, and a ply-3 win/loss
# solve took 1.6 times the CPU on 2**28 entries as on 2**25 (docs/value.md).
SIZED_TABLE_BITS = (16, 25)
SIZED_TABLE_BITS_AT_PLY_7 = 24
# The most nodes a CPU second of the compiled solver visits, with room (about 3 million on this
# machine, docs/value.md): a search cut at a CPU limit never fills a table of more entries, and
# zeroing 2**28 entries (4 GB then) alone took 5.9 CPU s, where the question had 0.2 s.
MAX_NODES_PER_CPU_SECOND = 1 << 23
# The door's codes (src/api.h), each read from the int the library exports as `lg_<name>`:
# the answers yes and no, aborted (the CPU limit passed first), illegal (a move the rules
# refuse), no_win (no move wins), and not_a_move (the `move` for the position itself).
Codes = collections.namedtuple("Codes", "yes no aborted illegal no_win not_a_move")
EXPORT_PREFIX = "lg_"
BUILDING = "littlego: compiling the exact solver (C) once, into {}"  # at its first use
NOT_BUILT = ("the compiled solver is missing and could not be built ({}): it needs a C compiler "
             "(gcc) and a package directory it may write; then run `littlego build-solver`")


class Unavailable(Exception):
    """The compiled library is missing and cannot be built (NOT_BUILT says what to do), or cannot
    be loaded."""


_library = None
_codes = None


def _load():
    """`(library, codes)`, loaded once, the library built first when it is missing (one line on
    stderr says so); Unavailable when it cannot be built or loaded."""
    global _library, _codes
    if _library is None:
        if not os.path.exists(LIBRARY_PATH):
            sys.stderr.write(BUILDING.format(LIBRARY_PATH) + "\n")
            try:
                build.build(LIBRARY_PATH)
            except build.BuildError as error:
                raise Unavailable(NOT_BUILT.format(error))
        try:
            library = ctypes.CDLL(LIBRARY_PATH)
        except OSError as error:
            raise Unavailable("cannot load {}: {}".format(LIBRARY_PATH, error))
        library.lg_new.restype = ctypes.c_void_p
        library.lg_new.argtypes = [ctypes.c_int]
        library.lg_free.argtypes = [ctypes.c_void_p]
        library.lg_nodes.restype = ctypes.c_ulonglong
        library.lg_nodes.argtypes = [ctypes.c_void_p]
        library.lg_table_bytes.restype = ctypes.c_ulonglong
        library.lg_table_bytes.argtypes = [ctypes.c_int]
        library.lg_set_symmetry_from.argtypes = [ctypes.c_void_p, ctypes.c_int]
        library.lg_set_value_order.argtypes = [ctypes.c_void_p, ctypes.c_int]
        library.lg_at_least.restype = ctypes.c_int
        library.lg_at_least.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 4 + [
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_double]
        library.lg_value.restype = ctypes.c_int
        library.lg_value.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 4 + [
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_double,
            ctypes.POINTER(ctypes.c_int)]
        library.lg_winning_move.restype = ctypes.c_int
        library.lg_winning_move.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 4 + [
            ctypes.c_int, ctypes.c_int, ctypes.c_double]
        _codes = Codes(*(ctypes.c_int.in_dll(library, EXPORT_PREFIX + name).value
                         for name in Codes._fields))
        _library = library
    return _library, _codes


def table_bytes(table_bits):
    """The memory a table of 2**table_bits entries takes, in bytes (src/table.c: 8 bytes an
    entry, 16 in tables under 2**21 entries); Unavailable as `available` says."""
    library, _ = _load()
    return library.lg_table_bytes(table_bits)


def available():
    """Whether the compiled solver can be used here."""
    try:
        _load()
    except Unavailable:
        return False
    return True


def source_digest():
    """A fingerprint of the C sources (12 hex digits): answers found by another version of the
    search may differ (still proven), so saved results name the version that found them."""
    digest = hashlib.sha256()
    for path in build.dependencies():
        digest.update(os.path.basename(path).encode())
        with open(path, "rb") as handle:
            digest.update(handle.read())
    return digest.hexdigest()[:12]


def missing(command):
    """For a command that needs the solver: False when it is built, else True after one line on
    stderr naming `command` and what to run."""
    try:
        _load()
    except Unavailable as error:
        sys.stderr.write("{}: {}\n".format(command, error))
        return True
    return False


def table_bits_for(plies_left):
    """The table (log2 of its entries) for searching one position `plies_left` plies from the
    end (go_board.plies_left: 18 at ply 7). Much larger than the search is slower, not faster:
    probes spread over a big table miss the caches, and at 10 and 12 plies left (a few thousand
    nodes) 2**24 entries took 1.8x and 1.25x the CPU of 2**16 (docs/strength.md); from 13 plies
    on, a few bits either way changed the time by less than a tenth."""
    low, high = SIZED_TABLE_BITS
    bits = SIZED_TABLE_BITS_AT_PLY_7 + 2 * (plies_left - go_board.plies_left(7))
    return max(low, min(high, bits))


def table_bits_for_position(position, cpu_limit=None):
    """`table_bits_for` the plies left after `position`'s ply, but no more entries than a search
    of `cpu_limit` CPU seconds can visit (None: no limit)."""
    bits = table_bits_for(go_board.plies_left(position.ply))
    if cpu_limit is None:
        return bits
    visited = max(1, int(cpu_limit * MAX_NODES_PER_CPU_SECOND))
    return max(SIZED_TABLE_BITS[0], min(bits, (visited - 1).bit_length()))  # 2**bits >= visited


class Solver(object):
    """One search context of the C solver; `close` (or `with`) frees its table.

    `symmetry_from`: nodes with at least this many plies left are stored under the smallest of
    their 8 symmetric images, in every question (None: the C defaults, 6 in win/loss questions
    and 2 in value questions, src/search.c); more than 24 turns the images off, a check that the
    symmetric table changes no answer."""

    def __init__(self, table_bits=DEFAULT_TABLE_BITS, symmetry_from=None):
        self._handle = None
        if not 2 <= table_bits <= MAX_TABLE_BITS:
            raise ValueError("table_bits {} is not in 2..{}".format(table_bits, MAX_TABLE_BITS))
        self._lib, self._codes = _load()
        self._handle = self._lib.lg_new(table_bits)
        if not self._handle:
            raise MemoryError("no memory for a table of 2**{} entries".format(table_bits))
        if symmetry_from is not None:
            self._lib.lg_set_symmetry_from(self._handle, symmetry_from)

    def close(self):
        if self._handle:
            self._lib.lg_free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        self.close()

    def _live(self):
        """The C context; ValueError once closed (the C side would read freed memory)."""
        if not self._handle:
            raise ValueError("the solver is closed")
        return self._handle

    @property
    def nodes(self):
        """Nodes searched since the context was made or cleared."""
        return self._lib.lg_nodes(self._live())

    def at_least(self, position, threshold, move=None, cpu_limit=None):
        """Whether the side to move of `position` (after playing `move`, when given) can end
        the game `threshold` or more stones ahead. OutOfTime after `cpu_limit` CPU seconds;
        ValueError for an illegal move."""
        result = self._lib.lg_at_least(
            self._live(), position.black, position.white, position.prev_black,
            position.prev_white, _search_ply(position),
            self._codes.not_a_move if move is None else move, threshold, cpu_limit or 0.0)
        return self._checked(result, move) == self._codes.yes

    @contextlib.contextmanager
    def _value_order(self):
        """The value questions' order of tries: the opponent's key point raised after a failed
        try, self-ataris tried late and never as the killer (src/search.c; the empty board's
        value table took 35% and then 14% fewer nodes), their symmetric keys from 2 plies left
        (28% fewer) and a cache of their latest stores asked before the table (3% fewer). Win/loss
        questions keep the searches the committed book was built from: `make book` must still
        make that book."""
        self._lib.lg_set_value_order(self._live(), 1)
        try:
            yield
        finally:
            if self._handle:
                self._lib.lg_set_value_order(self._handle, 0)

    def _checked(self, result, move):
        """`result`, a door's answer about `move`: OutOfTime when the CPU limit passed first,
        ValueError when the move is illegal."""
        if result == self._codes.aborted:
            raise OutOfTime()
        if result == self._codes.illegal:
            raise ValueError("{} is not a legal move here".format(go_board.move_to_text(move)))
        return result

    def winning_move(self, position, cpu_limit=None):
        """A move that wins for the side to move (the one the proof found), or None when the
        position is lost. Deterministic: the same questions in the same order on a table of the
        same size give the same move."""
        return self.move_reaching(position, needed_diff(position.to_move), cpu_limit)

    def move_reaching(self, position, threshold, cpu_limit=None):
        """A move after which the side to move can end the game `threshold` or more stones
        ahead (the one the proof found: the table's move where it proved that bound), or None
        when no move can. Asked at the position's value, it is a best move: a step of a
        proven best line (analysis/exact.py checks each step with `at_least`)."""
        result = self._lib.lg_winning_move(
            self._live(), position.black, position.white, position.prev_black,
            position.prev_white, _search_ply(position), threshold, cpu_limit or 0.0)
        if result == self._codes.aborted:
            raise OutOfTime()
        return None if result == self._codes.no_win else result

    def wins(self, position, move=None, cpu_limit=None):
        """Whether the side to move wins `position` (after `move`, when given) under perfect
        play."""
        return self.at_least(position, needed_diff(position.to_move), move, cpu_limit)

    def value(self, position, move=None, cpu_limit=None, guess=None):
        """The final stone difference for the side to move under perfect play (after `move`):
        threshold tests sharing the table (src/search.c's `search_value`), the first at `guess`
        (None: the side's win threshold, which a solved table answers at once), then away from
        it a stone at a time, then in doubling steps, then bisections of the bounds the tests
        showed: the nearer the guess, the fewer tests. OutOfTime after `cpu_limit` CPU seconds;
        ValueError for an illegal move."""
        with self._value_order():
            return self._value(position, move, cpu_limit, guess)

    def _value(self, position, move, cpu_limit, guess):
        """`value` in the order of tries already set (`move_values` sets it for all its
        questions)."""
        if guess is None:
            guess = needed_diff(position.to_move)
        value = ctypes.c_int()
        result = self._lib.lg_value(
            self._live(), position.black, position.white, position.prev_black,
            position.prev_white, _search_ply(position),
            self._codes.not_a_move if move is None else move, guess, cpu_limit or 0.0,
            ctypes.byref(value))
        self._checked(result, move)
        return value.value

    def move_results(self, position, cpu_limit=None):
        """`{move: True when it wins for the side to move}` for every legal move, pass last."""
        deadline = None if cpu_limit is None else time.process_time() + cpu_limit
        return {move: self.wins(position, move, _left(deadline))
                for move in position.legal_moves()}

    def move_values(self, position, cpu_limit=None):
        """`{move: the side to move's final stone difference after it}` for every legal move,
        pass last: the value table (a move wins when its value reaches `go_board.needed_diff`).
        The win/loss results first (`move_results`): the cheap refutations of the losing moves
        first train the move ordering's history for the costly proof of the winning one (on
        the empty board, the centre's proof took half the nodes after them). Then each move's
        `value`, guessed to be the value of the move before it (the first move's: the win
        threshold, which the table answers at once): moves of one position are often worth
        alike, and a near guess saves the costly tests near a value (docs/value.md)."""
        deadline = None if cpu_limit is None else time.process_time() + cpu_limit
        with self._value_order():  # the win/loss round too: its answers stay here
            results = self.move_results(position, _left(deadline))
            values, guess = {}, None
            for move in results:
                values[move] = guess = self._value(position, move, _left(deadline), guess)
        return values


def _search_ply(position):
    """The ply the C search gets: the position's, or for a game ended by two passes the first
    ply past the end with the side to move's parity (Black moves on odd plies)."""
    if not position.ended:
        return position.ply
    return go_board.MAX_PLY + (1 if position.to_move == BLACK else 2)


def _left(deadline):
    """CPU seconds left before `deadline` (None: no limit); OutOfTime when none are."""
    if deadline is None:
        return None
    left = deadline - time.process_time()
    if left <= 0:
        raise OutOfTime()
    return left


def analyse(position, solver=None, cpu_limit=None, margins=False):
    """Every legal move's exact result for the side to move, as one JSON-ready dict:
    `{"result": "win"|"loss", "moves": {"2,3": "win", "PASS": "loss", ...}, "margin": points
    or None, "nodes": ..., "cpu": ...}`; with `margins`, the position's margin (perfect play)
    and each move's in `"move_margins"` (from the value table, `Solver.move_values`, whose values
    also give the results). OutOfTime after `cpu_limit` CPU seconds in all."""
    own = solver is None
    solver = Solver(table_bits_for_position(position, cpu_limit)) if own else solver
    start_cpu, start_nodes = time.process_time(), solver.nodes
    deadline = None if cpu_limit is None else start_cpu + cpu_limit
    try:
        colour = position.to_move
        if margins:
            move_values = solver.move_values(position, _left(deadline))
            results = {move: value >= needed_diff(colour) for move, value in move_values.items()}
        else:
            results = solver.move_results(position, _left(deadline))
        report = {"result": PROVEN_WIN if any(results.values()) else PROVEN_LOSS,
                  "moves": {go_board.move_to_text(move): PROVEN_WIN if won else PROVEN_LOSS
                            for move, won in results.items()},
                  "margin": None}
        if margins:
            report["move_margins"] = {go_board.move_to_text(move): go_board.margin(value, colour)
                                      for move, value in move_values.items()}
            report["margin"] = go_board.margin(max(move_values.values()), colour)
        report["nodes"] = solver.nodes - start_nodes
        report["cpu"] = round(time.process_time() - start_cpu, 3)
        return report
    finally:
        if own:
            solver.close()
