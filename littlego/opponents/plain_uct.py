"""plain-uct: the seed design's search, written plainly and apart from the agent, as a yardstick.

Start at `PlainUctPlayer.choose_move`. It shares nothing with the agent but the rules engine
(`go_board`): no book, no exact search, no solver backups, no early stop, no playout knowledge,
one process. What it is:
- UCT over placements (a pass only when no placement is legal), exploration constant 0.9 (the
  seed's), values in [0, 1] for the player who chose the node's move;
- leaves valued by one uniform random playout to the end of the game (ply 24 or two passes),
  scored with the real rule (stones, komi 2.5);
- the most visited root move, after searching until its CPU budget for the move is spent;
- the seed's pass rule: at plies 22 and 23, pass when ahead on the board as it stands.
The CPU budget counts from the call to `choose_move`; the ladder sets it to the agent's share of
a game (`littlego/bench/ladder.py`).
"""

import math
import time

from go_board import BLACK, FULL, MAX_PLY, PASS, black_wins, place_stone, points_of

from .common import SeededPlayer

EXPLORATION = 0.9
DEFAULT_TIME_LIMIT = 1.0  # CPU seconds of search per move
PASS_RULE_PLIES = (22, 23)
# The clock is read once per this many simulations (a simulation costs well under 1 ms).
CLOCK_INTERVAL = 16


def black_wins_playout(position, rng):
    """Play uniform random placements (a pass only when none is legal) to the end of the game;
    True when Black wins it."""
    black, white = position.black, position.white
    prev_black, prev_white = position.prev_black, position.prev_white
    to_move, ply = position.to_move, position.ply
    last_was_pass = position.pass_ends_game
    ended = position.is_over
    while not ended and ply <= MAX_PLY:
        if to_move == BLACK:
            own, opp, ko_own, ko_opp = black, white, prev_black, prev_white
        else:
            own, opp, ko_own, ko_opp = white, black, prev_white, prev_black
        empties = points_of(FULL ^ black ^ white)
        rng.shuffle(empties)
        after = None
        for point in empties:
            result = place_stone(own, opp, point, ko_own, ko_opp)
            if result.__class__ is tuple:
                after = result
                break
        prev_black, prev_white = black, white
        if after is None:
            ended = last_was_pass
            last_was_pass = True
        else:
            own, opp = after
            black, white = (own, opp) if to_move == BLACK else (opp, own)
            last_was_pass = False
        to_move = 3 - to_move
        ply += 1
    return black_wins(black, white)


class _Node(object):
    __slots__ = ("move", "position", "children", "untried", "visits", "wins")

    def __init__(self, move, position, rng):
        self.move = move
        self.position = position
        self.children = []
        self.untried = (position.legal_placements() or [PASS]) if not position.is_over else []
        rng.shuffle(self.untried)
        self.visits = 0
        self.wins = 0.0  # for the player who chose `move`


def _uct_child(node):
    log_visits = math.log(node.visits)
    return max(node.children, key=lambda child: child.wins / child.visits
               + EXPLORATION * math.sqrt(log_visits / child.visits))


def _simulate(root, rng):
    node, path = root, [root]
    while not node.untried and node.children:
        node = _uct_child(node)
        path.append(node)
    if node.untried:
        move = node.untried.pop()
        node = _Node(move, node.position.play(move), rng)
        path[-1].children.append(node)
        path.append(node)
    black_won = black_wins_playout(node.position, rng)
    for visited in path:
        visited.visits += 1
        # The player who chose a node's move is the one not to move in it.
        if black_won == (visited.position.to_move != BLACK):
            visited.wins += 1.0
    return len(path)


class PlainUctPlayer(SeededPlayer):
    """Plain UCT with uniform playouts; `time_limit` CPU seconds of search per move."""

    def __init__(self, seed, time_limit=DEFAULT_TIME_LIMIT):
        SeededPlayer.__init__(self, seed)
        self.time_limit = time_limit
        self.simulations = 0

    def choose_move(self, position):
        placements = position.legal_placements()
        if not placements:
            return PASS
        if position.ply in PASS_RULE_PLIES and position.winner() == position.to_move:
            return PASS
        deadline = time.process_time() + self.time_limit
        root = _Node(None, position, self.rng)
        self.simulations = 0
        while True:
            _simulate(root, self.rng)
            self.simulations += 1
            if not self.simulations % CLOCK_INTERVAL and time.process_time() >= deadline:
                break
        return max(root.children, key=lambda child: child.visits).move
