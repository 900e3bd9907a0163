"""The strong reference opponent: iterative-deepening alpha-beta, like the course's "Championship".

The course's best agents are depth-4 alpha-beta searches; this one deepens one ply at a time
until its CPU budget for the move is spent (or the search reaches the end of the game), and
plays the best move of the deepest finished iteration. Around the plain negamax it has:
- a transposition table keyed by `Position.key()` (kept across the moves of a game);
- move ordering: table move, captures, saving a chain in atari, atari, killers, history;
- passes as ordinary search moves, so the two-passes rule and ply 1 are handled exactly;
- a capture-only quiescence search and a horizon-aware static value (`horizon_value`).
"""

import time

from go_board import BIT, FULL, MAX_PLY, PASS, dilate, group_of, points_of, popcount

from .common import (INFINITY, LIBERTY_WEIGHT, POINT_VALUE, WIN_VALUE, SeededPlayer,
                     liberty_margin, placements, stone_margin, terminal_value)

DEFAULT_TIME_LIMIT = 2.5  # CPU seconds per move; the grader allows 10.
# An iteration costs several times all the ones before it: don't start one unlikely to finish
# within the budget, since most of a cut-off iteration's work is wasted.
ITERATION_GROWTH = 4
QUIESCENCE_PLIES = 4
NODES_PER_CLOCK_CHECK = 64
TABLE_LIMIT = 1 << 20  # entries; a game rarely reaches it, a long-lived player might.
EXACT, LOWER, UPPER = 0, 1, 2


class IterationCutShort(Exception):
    """The move's CPU ran out inside an iteration: the deepest finished one decides."""


# Move ordering priorities, from most to least forcing.
TABLE_MOVE_PRIORITY = 1 << 30
CAPTURE_PRIORITY = 1000  # per stone captured
SAVE_PRIORITY = 600
ATARI_PRIORITY = 300
KILLER_PRIORITY = 200
HISTORY_CAP = KILLER_PRIORITY - 1
KILLERS_PER_PLY = 2


def horizon_value(position):
    """The static value for the side to move, aware of how many plies are left.

    With r plies left the side to move places ceil(r/2) more stones and its opponent
    floor(r/2): the mover's expected gain is the parity of r. This keeps a pass or a stone
    at the horizon worth exactly what it is worth at the end.
    """
    colour = position.to_move
    plies_left = MAX_PLY + 1 - position.ply
    return (stone_margin(position, colour) + POINT_VALUE * (plies_left % 2)
            + LIBERTY_WEIGHT * liberty_margin(position, colour))


def chain_liberties(stones, empty):
    """The liberties (a bitboard) of each chain of `stones`."""
    while stones:
        chain = group_of(stones, stones & -stones)
        stones ^= chain
        yield dilate(chain) & empty


def is_single(bits):
    return bits and not bits & (bits - 1)


def capture_points(own, opp):
    """The last liberties of `opp`'s chains in atari: where `own` captures."""
    empty = FULL ^ own ^ opp
    points = 0
    for liberties in chain_liberties(opp, empty):
        if is_single(liberties):
            points |= liberties
    return points


def forcing_points(own, opp):
    """(points saving an `own` chain in atari, points putting an `opp` chain in atari)."""
    empty = FULL ^ own ^ opp
    atari = 0
    for liberties in chain_liberties(opp, empty):
        if popcount(liberties) == 2:
            atari |= liberties
    return capture_points(opp, own), atari


class AlphaBeta4Player(SeededPlayer):
    """Iterative deepening within `time_limit` CPU seconds (None: no limit) up to `max_depth`."""

    def __init__(self, seed, time_limit=DEFAULT_TIME_LIMIT, max_depth=None):
        SeededPlayer.__init__(self, seed)
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.table = {}
        self.history = {}
        self.killers = {}
        self.deadline = None
        self.nodes = 0
        self.depth_reached = 0
        self.root_best = None

    def choose_move(self, position):
        start = time.process_time()
        self.deadline = None if self.time_limit is None else start + self.time_limit
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self.killers = {}
        self.nodes = 0
        self.depth_reached = 0
        # Equally promising root moves are tried, and kept when equal, in a seeded random order.
        children = [(move, child) for move, child, _ in
                    self.ordered_children(position, None, self.rng.shuffle)]
        # The fallback, should the first iteration not finish: the most promising move.
        best_move = children[0][0]
        plies_left = MAX_PLY + 1 - position.ply
        max_depth = plies_left if self.max_depth is None else min(self.max_depth, plies_left)
        for depth in range(1, max_depth + 1):
            children.sort(key=lambda item: item[0] == best_move, reverse=True)
            self.root_best = None
            try:
                best_move, value = self.search_root(children, depth)
            except IterationCutShort:
                # The first root move is the previous best: anything kept after it is better.
                if self.root_best is not None:
                    best_move = self.root_best
                break
            self.depth_reached = depth
            spent = time.process_time() - start
            if abs(value) > WIN_VALUE or (self.deadline is not None and
                                          start + spent * ITERATION_GROWTH > self.deadline):
                break
        return best_move

    def search_root(self, children, depth):
        alpha = best_value = -INFINITY
        best_move = None
        for move, child in children:
            value = -self.negamax(child, depth - 1, -INFINITY, -alpha)
            if value > best_value:
                best_value, best_move = value, move
                self.root_best = move
                alpha = max(alpha, value)
        return best_move, best_value

    def negamax(self, position, depth, alpha, beta):
        """Fail-soft value of `position` for its side to move, searched `depth` plies."""
        if position.is_over:
            return terminal_value(position, position.to_move)
        if depth <= 0:
            return self.quiesce(position, alpha, beta, QUIESCENCE_PLIES)
        self.count_node()
        key = position.key()
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            entry_depth, value, bound, table_move = entry
            if entry_depth >= depth and (bound == EXACT or (bound == LOWER and value >= beta)
                                         or (bound == UPPER and value <= alpha)):
                return value
        original_alpha = alpha
        best_value, best_move = -INFINITY, PASS
        for move, child, _ in self.ordered_children(position, table_move):
            value = -self.negamax(child, depth - 1, -beta, -alpha)
            if value > best_value:
                best_value, best_move = value, move
                alpha = max(alpha, value)
                if alpha >= beta:
                    self.reward(position, move, depth)
                    break
        bound = (LOWER if best_value >= beta else UPPER if best_value <= original_alpha
                 else EXACT)
        self.table[key] = (depth, best_value, bound, best_move)
        return best_value

    def quiesce(self, position, alpha, beta, plies):
        """Captures only, on top of the static value the mover can stand on."""
        if position.is_over:
            return terminal_value(position, position.to_move)
        self.count_node()
        best_value = horizon_value(position)
        if plies == 0 or best_value >= beta:
            return best_value
        alpha = max(alpha, best_value)
        own = position.stones(position.to_move)
        targets = capture_points(own, position.black ^ position.white ^ own)
        for point in points_of(targets):
            child = position.try_play(point)
            if isinstance(child, str):  # ko
                continue
            value = -self.quiesce(child, -beta, -alpha, plies - 1)
            if value > best_value:
                best_value = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best_value

    def count_node(self):
        self.nodes += 1
        if (self.deadline is not None and self.nodes % NODES_PER_CLOCK_CHECK == 0
                and time.process_time() > self.deadline):
            raise IterationCutShort()

    def ordered_children(self, position, table_move, shuffle=None):
        """[(move, child, captured)] for every legal move, most promising first, PASS included.

        `shuffle`, when given, reorders the placements before the (stable) sort.
        """
        own = position.stones(position.to_move)
        opp = position.black ^ position.white ^ own
        saving, atari = forcing_points(own, opp)
        killers = self.killers.get(position.ply, ())
        colour = position.to_move

        def priority(item):
            move, _, captured = item
            if move == table_move:
                return TABLE_MOVE_PRIORITY
            bit = BIT[move]
            return (CAPTURE_PRIORITY * captured
                    + min(self.history.get((colour, move), 0), HISTORY_CAP)
                    + (SAVE_PRIORITY if bit & saving else 0)
                    + (ATARI_PRIORITY if bit & atari else 0)
                    + (KILLER_PRIORITY if move in killers else 0))

        children = placements(position)
        if shuffle is not None:
            shuffle(children)
        children.sort(key=priority, reverse=True)
        pass_child = (PASS, position.play(PASS), 0)
        if table_move == PASS:
            return [pass_child] + children
        return children + [pass_child]

    def reward(self, position, move, depth):
        """Remember a move that refuted a line, for ordering its siblings and cousins."""
        key = (position.to_move, move)
        self.history[key] = self.history.get(key, 0) + depth * depth
        killers = self.killers.setdefault(position.ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[KILLERS_PER_PLY:]
