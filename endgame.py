"""Endgame: exact play for the last plies, the rule for passing, and best tries when lost.

Start at `choose_endgame_move`, which returns one `ExactMove` (the move, the proven result
for the mover and, when known, the margin): the pass rule first (`winning_pass`), then, when
few plies are left, the win/loss proof (`ExactSolver.winning_move`, a boolean search), then in
a proven win the margin search (`ExactSolver.margin_steps`: null-window tests over the final
stone difference, from the proven winning move up to the move of the largest margin, anytime:
the largest proven so far is played when the move's CPU runs out), and in a proven loss the
move that gives the opponent the most chances to go wrong (`ExactSolver.best_try`).
`ExactSolver.best_move` runs the same margin search to its end from any position (the
reference the tests and tools compare with). Inside the search margins are in half points,
seen from the side to move: `2 * (own stones - opponent stones) -/+ 5`, positive when the mover
wins; ties cannot happen. An ExactMove's margin is in points.

A search node is `(own, opp, ko_own, ko_opp, diff, passed, plies_left)`: the bitboards seen from
the side to move; the previous board `(ko_own, ko_opp)` only when the last move can be retaken
as a ko (else NO_KO, which no board equals); `diff` = own stones - opponent stones; `passed`
when the last action was a pass (a pass now ends the game). The mover's colour follows from
`plies_left` (Black moves when an even number of plies is left). `node_key` packs a node into one
int for the tables: the previous board enters it only through the ko point, so positions reached
by different last moves share their entry.

Performance: raw bitboards, one-int keys, the last ply answered without recursion; near the end
(BOUNDS_MAX_PLIES) bounds decide many nodes and children without a move (`bounded`: what the
mover gets against an opponent who only passes, and the reverse); children ordered by the
killer, captures, then a history of the moves that refuted, which starts with the centre first
(CENTRE_FIRST); after a try that failed, the opponent's refutation of it is tried next (the key
point, `_raise_key_point`); and enhanced transposition cut-offs (a child already proven lost for
its mover proves the node without search). The proof's share of these, measured on 2,629 seam
positions and 40 of the costliest: docs/strength.md (issue 56).
Deadlines are on the process tree's CPU clock (clocks.py's `tree_cpu_seconds`, the agent's
one clock for a move) unless a caller injects another (`clock`: the analysis uses a thread's CPU
or the wall clock).
"""

import collections

import go_board
from clocks import OutOfTime, tree_cpu_seconds, wall_clock_seconds
from decision_log import PROVEN_LOSS, PROVEN_WIN
from go_board import (FULL, MAX_PLY, NO_KO, PASS, SIZE, group_of, ko_ban_after, neighbours_of,
                      place_stone, points_of, popcount)

# The exact search takes over this many plies from the end: the farthest point at which its
# win/loss proof usually fits in the solver's share of a default move (agent.SOLVER_SHARE) on
# the grader's Python 3.7, so proven play starts as early as the budget allows. When the proof
# does not finish in time, MCTS takes the move. The proof's CPU by plies left is the reach
# table of docs/benchmarks.md (`littlego solver-reach`).
EXACT_PLIES_LEFT = 14
# Margins are in half points, to stay integers. By `plies_left & 1` (even: Black moves), the
# mover's margin at an equal stone count (go_board.margin's komi) and the final stone
# difference (own - opponent) the mover needs to win.
MOVERS = (go_board.BLACK, go_board.WHITE)
MOVER_KOMI_HALF_POINTS = tuple(int(2 * go_board.margin(0, colour)) for colour in MOVERS)
NEEDED_DIFF = tuple(go_board.needed_diff(colour) for colour in MOVERS)
WORST = -(2 * go_board.NUM_POINTS + max(abs(komi) for komi in MOVER_KOMI_HALF_POINTS) + 1)
# The smallest winning margin: margins are odd (komi is a half point), so a win is at least 1.
WIN_MARGIN = 1
# How much a refutation at `plies_left` adds to its point's history score: a refutation far
# from the end cuts a larger subtree, so it outweighs any number of refutations nearer the end
# (the node counts of this weighting against plies_left**2: docs/benchmarks.md). Move ordering
# keys put the killer above captures above any history sum (KILLER_SHIFT, CAPTURE_SHIFT: bit
# positions).
HISTORY_WEIGHT = [3 ** plies for plies in range(MAX_PLY + 2)]
CAPTURE_SHIFT = 60
KILLER_SHIFT = 65
# Before any refutation the history tries the centre first and the edge last: each point's
# ring, 0 on the edge, 1 inside it, 2 at the centre (a tie-break: a refutation weighs 27 at
# least). Without it a fresh search tried the points from the highest, the corner first: the
# seam's proofs took 1.5 times the nodes (docs/strength.md, issue 56).
CENTRE_FIRST = [min(row, SIZE - 1 - row, col, SIZE - 1 - col)
                for row, col in (divmod(point, SIZE) for point in range(go_board.NUM_POINTS))]
# `bounded` decides nodes this near the end (and their children): further out the bounds rarely
# decide and cost more than they save (4 to 8 measured alike).
BOUNDS_MAX_PLIES = 6
DEADLINE_CHECK_NODES = 1023
NO_NODE_CAP = 1 << 62

# What `choose_endgame_move` decides: `move`; `proven`, PROVEN_WIN or PROVEN_LOSS (then `move`
# is the best try); `margin`, the final margin in points for the mover under perfect play
# (komi included), or None when the margin search did not finish (always for a loss);
# `opponent_wins`, for a best try, how many of the opponent's replies still win for it (None
# for a win, or when the try ends the game); `margin_at_least`, for a win whose margin search
# did not finish, the margin in points the move is proven to reach (else None); `proof_cpu`, the
# CPU seconds (on the search's clock) from the start of the win/loss proof to its end (None for
# the winning pass, which needs no search): what a slower machine must still afford.
ExactMove = collections.namedtuple(
    "ExactMove", "move proven margin opponent_wins margin_at_least proof_cpu",
    defaults=(None, None, None))
# One step of the margin search of a proven win (`ExactSolver.margin_steps`): `move` is proven
# to reach `margin` (half points, for the mover) at least; `exact` when that is its margin and
# no move does better (the search's last step).
MarginStep = collections.namedtuple("MarginStep", "move margin exact")
# A try that ends the game lost leaves nothing to get wrong: it counts as more winning replies
# than a position can have.
ENDS_LOST = go_board.NUM_POINTS + 2


def margin_of(diff, plies_left):
    """The final margin in half points for the mover of a node with stone difference `diff`."""
    return 2 * diff + MOVER_KOMI_HALF_POINTS[plies_left & 1]


def node_key(own, opp, plies_left, passed, ko):
    """One int per node: equal keys mean the same future (see the module docstring); `ko` is the
    node's go_board.ko_point."""
    return own | opp << 25 | plies_left << 50 | passed << 55 | (ko + 1) << 56


def captures_reach(stones, empty, moves, wanted):
    """Whether the chains of `stones` with at most `moves` liberties (in `empty`) hold at least
    `wanted` stones: more than the other side can capture in `moves` placements while this side
    only passes, when False."""
    while wanted > 0 and popcount(stones) >= wanted:
        chain = group_of(stones, stones & -stones)
        stones &= ~chain
        if popcount(neighbours_of(chain) & empty) <= moves:
            wanted -= popcount(chain)
    return wanted <= 0


def bounded(own, opp, diff, plies_left, needed):
    """True or False when bounds alone decide whether the mover of a node reaches a final stone
    difference of `needed`, None when they do not (or more than BOUNDS_MAX_PLIES plies are
    left). Either side may always pass, so the result lies between two one-sided games: against
    an opponent who only passes the mover gains at most a stone a placement and the opponent's
    chains it can capture (too little: False); against a mover who only passes the opponent does
    the same (still enough: True)."""
    if plies_left > BOUNDS_MAX_PLIES:
        return None
    mover_moves, opponent_moves = (plies_left + 1) // 2, plies_left // 2
    empty = FULL ^ own ^ opp
    if diff + mover_moves < needed and not captures_reach(
            opp, empty, mover_moves, needed - diff - mover_moves):
        return False
    if diff - opponent_moves >= needed and not captures_reach(
            own, empty, opponent_moves, diff - opponent_moves - needed + 1):
        return True
    return None


class ExactSolver(object):
    """Exact search over bitboards: `wins` (boolean) and `value` (alpha-beta over margins).

    A proof (`proven`) is stored only once its node is decided, and its key is the whole state
    that matters for the future, so the proofs may be kept for later searches (`table`), even
    after OutOfTime; the margin bounds, killers and history are per search.
    """

    def __init__(self, cpu_deadline=None, clock=tree_cpu_seconds, table=None, node_cap=None,
                 wall_deadline=None):
        self.proven = {} if table is None else table  # node key -> the mover wins
        self.bounds = {}  # node key -> (lower, upper, best move) of its margin
        self.history = CENTRE_FIRST + [0]  # the points, then PASS (never a child)
        self.killer = [None] * (MAX_PLY + 2)
        self.nodes = 0
        self.cpu_deadline = cpu_deadline
        self.clock = clock
        # On clocks.wall_clock_seconds: a guard against a search starved of CPU (None: none).
        self.wall_deadline = wall_deadline
        # OutOfTime once this many nodes are counted (the last two plies count loosely).
        self.node_cap = NO_NODE_CAP if node_cap is None else node_cap

    def _count_node(self):
        self.nodes += 1
        if self.nodes > self.node_cap:
            raise OutOfTime()
        if not self.nodes & DEADLINE_CHECK_NODES and (
                self.cpu_deadline is not None and self.clock() > self.cpu_deadline
                or self.wall_deadline is not None and wall_clock_seconds() > self.wall_deadline):
            raise OutOfTime()

    def children(self, own, opp, ko_own, ko_opp, plies_left):
        """`(point, own, opp, ko_own, ko_opp, diff gain, child key)` for every legal placement:
        the last refutation at this depth first (killer), then biggest captures, then by
        history. The child's boards are seen from its mover (the opponent); its ko board is ours
        when the placement can be retaken as a ko."""
        moves = []
        history = self.history
        killer = self.killer[plies_left]
        child_plies = plies_left - 1
        for point in points_of(FULL ^ own ^ opp):
            result = place_stone(own, opp, point, ko_own, ko_opp)
            if result.__class__ is not tuple:
                continue
            new_own, new_opp = result
            captured = opp ^ new_opp
            if not captured:
                moves.append(((point == killer) << KILLER_SHIFT | history[point], point, new_opp,
                              new_own, NO_KO, NO_KO, 1,
                              new_opp | new_own << 25 | child_plies << 50))
                continue
            retake = ko_ban_after(point, captured, new_own, new_opp)
            gain = 1 + popcount(captured)
            moves.append((gain << CAPTURE_SHIFT | (point == killer) << KILLER_SHIFT
                          | history[point], point, new_opp, new_own,
                          opp if retake != NO_KO else NO_KO,
                          own if retake != NO_KO else NO_KO,
                          gain, node_key(new_opp, new_own, child_plies, False, retake)))
        moves.sort(reverse=True)
        return [move[1:] for move in moves]

    def _refuted_by(self, point, plies_left):
        self.history[point] += HISTORY_WEIGHT[plies_left]
        self.killer[plies_left] = point

    # ---- the win/loss question ------------------------------------------------------------

    def wins(self, own, opp, ko_own, ko_opp, diff, passed, plies_left, key, bounds_known=False):
        """True when the mover of this node wins under perfect play; `key` is its node_key.
        `bounds_known`: the parent's `_unbounded` already found the bounds undecided here."""
        needed = NEEDED_DIFF[plies_left & 1]
        if passed and diff >= needed:
            return True  # passing ends the game, won
        self._count_node()
        if plies_left <= 1:
            if not plies_left:
                return diff >= needed  # only a root's child gets here
            return self._last_ply_wins(own, opp, ko_own, ko_opp, needed - diff)
        if not bounds_known:
            known = bounded(own, opp, diff, plies_left, needed)
            if known is not None:
                return known
        if plies_left == 2:
            return self._two_plies_wins(own, opp, ko_own, ko_opp, diff, passed)
        proven = self.proven
        known = proven.get(key)
        if known is not None:
            return known
        moves = self.children(own, opp, ko_own, ko_opp, plies_left)
        child_plies = plies_left - 1
        bounds_checked = child_plies <= BOUNDS_MAX_PLIES
        if bounds_checked:
            moves = self._unbounded(moves, diff, child_plies)
            if moves is None:  # a child the bounds show lost for its mover
                proven[key] = True
                return True
        for move in moves:
            if proven.get(move[6]) is False:
                proven[key] = True
                return True
        tried, count = 0, len(moves)
        while tried < count:
            point, child_own, child_opp, child_ko_own, child_ko_opp, gain, child_key = \
                moves[tried]
            if not self.wins(child_own, child_opp, child_ko_own, child_ko_opp, -diff - gain,
                             False, child_plies, child_key, bounds_checked):
                self._refuted_by(point, plies_left)
                proven[key] = True
                return True
            tried += 1
            self._raise_key_point(moves, tried, self.killer[child_plies])
        if passed:
            result = False  # diff < needed: the pass that ends the game loses
        else:
            result = not self.wins(opp, own, NO_KO, NO_KO, -diff, True, child_plies,
                                   node_key(opp, own, child_plies, True, NO_KO))
        proven[key] = result
        return result

    @staticmethod
    def _unbounded(moves, diff, child_plies):
        """`moves` (children's tuples) without those whose bounds show the child won for its
        mover; None when the bounds show one lost for its mover (the node's proof)."""
        needed = NEEDED_DIFF[child_plies & 1]
        kept = []
        for move in moves:
            known = bounded(move[1], move[2], -diff - move[5], child_plies, needed)
            if known is False:
                return None
            if known is None:
                kept.append(move)
        return kept

    @staticmethod
    def _raise_key_point(moves, start, point):
        """After a try that failed: the untried child at the opponent's refutation of it
        (`point`, the killer a ply down) is tried next, after any untried captures. The
        opponent's key point is often the mover's too: the seam's proofs took 12% fewer nodes
        (docs/strength.md, issue 56)."""
        for index in range(start, len(moves)):
            if moves[index][0] == point:
                break
        else:
            return
        if moves[index][5] != 1:
            return  # a capture keeps its place among the captures
        first = start
        while first < index and moves[first][5] > 1:
            first += 1
        moves.insert(first, moves.pop(index))

    def _two_plies_wins(self, own, opp, ko_own, ko_opp, diff, passed):
        """Two plies left, passing now not a win: without a table, is there a move after which
        the opponent's last ply cannot win?"""
        opp_needed = NEEDED_DIFF[1]
        empty = FULL ^ own ^ opp
        for point in points_of(empty):
            result = place_stone(own, opp, point, ko_own, ko_opp)
            if result.__class__ is not tuple:
                continue
            new_own, new_opp = result
            captured = opp ^ new_opp
            child_diff = -diff - 1 - (popcount(captured) if captured else 0)
            if child_diff >= opp_needed:
                continue  # the opponent passes and wins
            ko = captured and ko_ban_after(point, captured, new_own, new_opp) != NO_KO
            self.nodes += 1
            if not self._last_ply_wins(new_opp, new_own, opp if ko else NO_KO,
                                       own if ko else NO_KO, opp_needed - child_diff):
                return True
        if passed:
            return False  # the pass ends the game, lost
        self.nodes += 1
        return -diff < opp_needed and not self._last_ply_wins(opp, own, NO_KO, NO_KO,
                                                              opp_needed + diff)

    @staticmethod
    def _last_ply_wins(own, opp, ko_own, ko_opp, gain_needed):
        """The last ply: does passing (`gain_needed` <= 0) or some placement gain `gain_needed`
        stones (itself plus captures)? A point next to an empty point is always legal."""
        if gain_needed <= 0:
            return True
        empty = FULL ^ own ^ opp
        if gain_needed == 1:
            if empty & neighbours_of(empty):
                return True
            candidates = empty
        else:
            if gain_needed > 1 + popcount(opp):
                return False
            candidates = empty & neighbours_of(opp)
        for point in points_of(candidates):
            result = place_stone(own, opp, point, ko_own, ko_opp)
            if result.__class__ is tuple and (
                    gain_needed == 1 or 1 + popcount(opp ^ result[1]) >= gain_needed):
                return True
        return False

    # ---- exact margins ----------------------------------------------------------------------

    def value(self, own, opp, ko_own, ko_opp, diff, passed, plies_left, key, alpha, beta):
        """The exact margin for the mover if it is inside (alpha, beta), else a bound."""
        if plies_left == 0:
            return margin_of(diff, plies_left)
        self._count_node()
        if plies_left == 1:
            # The last ply: every child is final, so no table and no recursion.
            best = margin_of(diff, 1)
            for point in points_of(FULL ^ own ^ opp):
                result = place_stone(own, opp, point, ko_own, ko_opp)
                if result.__class__ is tuple:
                    best = max(best, margin_of(diff + 1 + popcount(opp ^ result[1]), 1))
            return best
        entry = self.bounds.get(key)
        best_first = None
        if entry is not None:
            lower, upper, best_first = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        original_alpha = alpha
        best, best_move = WORST, None
        moves = self.children(own, opp, ko_own, ko_opp, plies_left)
        if best_first is not None:
            moves.sort(key=lambda move: move[0] != best_first)
        child_plies = plies_left - 1
        for point, child_own, child_opp, child_ko_own, child_ko_opp, gain, child_key in moves:
            score = -self.value(child_own, child_opp, child_ko_own, child_ko_opp, -diff - gain,
                                False, child_plies, child_key, -beta, -alpha)
            if score > best:
                best, best_move = score, point
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._refuted_by(point, plies_left)
                        break
        if best < beta:
            if passed:
                score = margin_of(diff, plies_left)
            else:
                score = -self.value(opp, own, NO_KO, NO_KO, -diff, True, child_plies,
                                    node_key(opp, own, child_plies, True, NO_KO),
                                    -beta, -max(alpha, best))
            if score > best:
                best, best_move = score, PASS
        lower = best if best > original_alpha else WORST
        upper = best if best < beta else -WORST
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        self.bounds[key] = (lower, upper, best_move)
        return best

    # ---- root entry points ------------------------------------------------------------------

    @staticmethod
    def _root(position):
        """`(own, opp, ko_own, ko_opp, diff, passed, plies_left)` of a Position. The previous
        board is kept whole (no key is made for the root, so it costs nothing)."""
        own, opp, prev_own, prev_opp = position.mover_view()
        return (own, opp, prev_own, prev_opp, popcount(own) - popcount(opp),
                position.pass_ends_game, go_board.plies_left(position.ply))

    def root_moves(self, position):
        """`(move, child node + its key)` for every legal move of `position`, placements in
        search order, then PASS (whose child is None when passing ends the game)."""
        own, opp, ko_own, ko_opp, diff, passed, plies_left = self._root(position)
        moves = [(point, (child_own, child_opp, child_ko_own, child_ko_opp, -diff - gain, False,
                          plies_left - 1, child_key))
                 for point, child_own, child_opp, child_ko_own, child_ko_opp, gain, child_key
                 in self.children(own, opp, ko_own, ko_opp, plies_left)]
        pass_child = None if passed else (opp, own, NO_KO, NO_KO, -diff, True, plies_left - 1,
                                          node_key(opp, own, plies_left - 1, True, NO_KO))
        return moves + [(PASS, pass_child)]

    def move_wins(self, position, child):
        """True when the move leading to `child` (a `root_moves` entry) wins for the mover."""
        if child is None:
            return position.winner() == position.to_move
        return not self.wins(*child)

    def winning_move(self, position):
        """A move proven to win (a placement if any wins, else PASS), or None in a lost position."""
        for move, child in self.root_moves(position):
            if self.move_wins(position, child):
                return move
        return None

    def mover_wins(self, position):
        """The proof alone: True when the side to move wins `position` under perfect play."""
        return self.winning_move(position) is not None

    def best_move(self, position):
        """`(move, margin)`: the move of the largest exact margin (half points), PASS when it is
        no worse than every placement, else the first such placement in search order.

        The first move's margin is searched with a full window, then `margin_steps` runs to its
        end from there: every other move needs only null-window tests against the best so far.
        """
        first, child = self.root_moves(position)[0]
        margin = self._margin_above(position, child, WORST - 1, -WORST)
        for step in self.margin_steps(position, first, margin):
            pass
        return step.move, step.margin

    def margin_steps(self, position, leader, margin):
        """The anytime margin search: MarginStep after MarginStep, each a move and a margin
        (half points) it is proven to reach, the last one `exact`.

        `leader` is a move proven to reach `margin` (a proven winning move reaches WIN_MARGIN):
        the first step. Then null-window tests, each "does this move reach more?": the leader's
        margin is raised until a test fails (then it is exact); every other move in
        `root_moves` order is asked whether it beats the leader (or equals it, when it would
        win the tie: the pass wins ties, then the earlier move), and a move that does leads and
        is raised in turn. Every step is a proof, so whenever the deadline stops the search the
        last step yielded is a move proven to reach that margin; the last step of a whole run
        is the best move and its exact margin (margins are odd, so a test against an even
        `bound` separates `bound - 1` from `bound + 1`). The margin bounds found are kept for
        the later tests of the search.
        """
        moves = self.root_moves(position)
        tie_rank = {move: (move != PASS, index) for index, (move, _) in enumerate(moves)}
        yield MarginStep(leader, margin, False)
        leader_first = sorted(moves, key=lambda entry: entry[0] != leader)  # a stable sort
        for move, child in leader_first:
            if move != leader:  # every move but the first leader challenges the leader
                ties_won = tie_rank[move] < tie_rank[leader]
                reached = self._margin_above(position, child, margin - 1 if ties_won else margin)
                if reached is None:
                    continue
                leader, margin = move, reached
                yield MarginStep(leader, margin, False)
            while True:
                reached = self._margin_above(position, child, margin)
                if reached is None:
                    break
                margin = reached
                yield MarginStep(leader, margin, False)
        yield MarginStep(leader, margin, True)

    def _margin_above(self, position, child, bound, ceiling=None):
        """For the move leading to `child` (a `root_moves` entry): None when its margin is at
        most `bound`, else a margin it is proven to reach, above `bound`: one null-window test,
        or with a `ceiling` its exact margin when that lies below the ceiling. A pass that ends
        the game has its margin at once."""
        if child is None:
            _, _, _, _, diff, _, plies_left = self._root(position)
            reached = margin_of(diff, plies_left)
        else:
            reached = -self.value(*(child + (-(bound + 1 if ceiling is None else ceiling),
                                             -bound)))
        return reached if reached > bound else None

    def best_try(self, position):
        """`(move, opponent_wins)` in a position proven lost, or None when time ran out first.

        The move leaving the opponent the fewest winning replies (the most ways to go wrong),
        and how many it leaves (None when even the best ends the game); ties go to the earlier
        move in search order (captures, then the moves that refuted most often, PASS last). A
        pass that ends the game leaves none to get wrong, so it comes last (ENDS_LOST).
        Counting a move's replies stops once it has as many as the best so far. When the
        deadline passes, the best move among those fully counted is returned.
        """
        best, fewest = None, None
        try:
            for move, child in self.root_moves(position):
                after = position.play(move)
                count = 0 if child is not None and not after.is_over else ENDS_LOST
                if count == 0:
                    for _, grandchild in self.root_moves(after):
                        if self.move_wins(after, grandchild):
                            count += 1
                            if fewest is not None and count >= fewest:
                                break
                if fewest is None or count < fewest:
                    best, fewest = move, count
        except OutOfTime:
            pass
        if best is None:
            return None
        return best, None if fewest == ENDS_LOST else fewest


def refuted_moves(position, table):
    """The moves of `position` that `table` (an ExactSolver's proofs, e.g. of a search that ran
    out of time) proves losing for the mover: a child proven won for the opponent."""
    solver = ExactSolver(table=table)
    refuted = set()
    for move, child in solver.root_moves(position):
        if child is not None and table.get(child[-1]) is True:
            refuted.add(move)
    return frozenset(refuted)


def best_try_in_time(position, cpu_deadline, table=None, clock=tree_cpu_seconds):
    """`(move, opponent_wins)`, ExactSolver.best_try of the lost `position`, when it
    counted every move by `cpu_deadline` (of `clock`), else None. Past its deadline best_try
    gives the best of the moves it counted so far, so only an answer read before the deadline is
    whole; the proofs it made stay in `table` for the next call."""
    solver = ExactSolver(cpu_deadline, clock=clock, table=table)
    found = solver.best_try(position)
    return found if clock() <= cpu_deadline else None


def winning_pass(position):
    """The opponent just passed and we are ahead: passing ends the game with our win."""
    return position.ply > 1 and position.pass_ends_game and position.winner() == position.to_move


def mover_margin(position):
    """The score now, in points for the side to move (komi included): what ending gives it."""
    return position.score() if position.to_move == go_board.BLACK else -position.score()


def choose_endgame_move(position, cpu_deadline=None, table=None, margin_deadline=None,
                       clock=tree_cpu_seconds, margin_wall=None):
    """The `ExactMove` for `position` under exact play, or None when the search is not
    affordable (too many plies left, or `cpu_deadline` passed before a proof).

    First win or loss (the boolean search, by `cpu_deadline`). In a proven win, the margin
    search (`ExactSolver.margin_steps`) until `margin_deadline` (when None, `cpu_deadline`;
    both None: no limit) picks the move of the largest margin (passing when it is at least as good as
    every placement); when it does not finish, the move of the largest margin proven so far is
    played with margin None and that margin as `margin_at_least`, so a proven win is played
    whenever the time runs out. In a proven loss the best try (`ExactSolver.best_try`) is
    played, margin None. Black never passes at ply 1 (that loses at once), which the exact
    search already says. `table`: the proofs of earlier searches to reuse and extend (see
    ExactSolver); None starts empty. Deadlines are on `clock`. `margin_wall(cpu seconds)`, when
    given, is the wall time the margin search may take for the CPU it has (agent.wall_limit):
    starved of CPU, it stops there as at its deadline, so optional work never holds up a move.
    """
    if winning_pass(position):
        return ExactMove(PASS, PROVEN_WIN, mover_margin(position))
    if go_board.plies_left(position.ply) > EXACT_PLIES_LEFT:
        return None
    solver = ExactSolver(cpu_deadline, clock=clock, table=table)
    started = clock()
    try:
        winner = solver.winning_move(position)
    except OutOfTime:
        return None
    now = clock()
    proof_cpu = now - started
    if winner is None:
        best_try = solver.best_try(position)
        return None if best_try is None else ExactMove(best_try[0], PROVEN_LOSS, None,
                                                       best_try[1], proof_cpu=proof_cpu)
    if margin_deadline is not None:
        solver.cpu_deadline = margin_deadline
    step = MarginStep(winner, WIN_MARGIN, False)
    if solver.cpu_deadline is None or now < solver.cpu_deadline:
        if margin_wall is not None and solver.cpu_deadline is not None:
            solver.wall_deadline = wall_clock_seconds() + margin_wall(solver.cpu_deadline - now)
        try:
            for step in solver.margin_steps(position, winner, WIN_MARGIN):
                pass
        except OutOfTime:
            pass
    if step.exact:
        return ExactMove(step.move, PROVEN_WIN, step.margin / 2.0, proof_cpu=proof_cpu)
    return ExactMove(step.move, PROVEN_WIN, None, margin_at_least=step.margin / 2.0,
                     proof_cpu=proof_cpu)
