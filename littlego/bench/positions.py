"""Seeded random positions, for the tests and the solver's benchmark.

Start at `pick_move`, the one random policy: sometimes a pass (never Black's first move, which
would end the game at once), often a capture when asked (ko retakes included), else a uniform
placement. The generators play it from the empty board: `game_positions` (every position along
whole games), `random_positions` (one position a game, at a random stage) and
`position_before_end` (one a given number of plies from the end). Every generator takes the
caller's seeded `random.Random`, so each test replays exactly.
"""

from go_board import MAX_PLY, PASS, Position


def pick_move(rng, position, pass_rate, capture_rate=0.0, single_captures=False):
    """PASS at `pass_rate` (or when no placement is legal); a capture at `capture_rate` when
    there is one (`single_captures`: of exactly one stone, the kind that makes a ko); else a
    uniform legal placement."""
    placements = position.legal_placements()
    if not placements or (position.ply > 1 and rng.random() < pass_rate):
        return PASS
    if capture_rate:
        captures = [point for point in placements
                    if (position.captures_by(point) == 1 if single_captures
                        else position.captures_by(point))]
        if captures and rng.random() < capture_rate:
            return rng.choice(captures)
    return rng.choice(placements)


def game_positions(rng, count, pass_rate, capture_rate=0.0, single_captures=False):
    """The first `count` positions met along seeded games played to their end, in order."""
    positions = []
    while len(positions) < count:
        position = Position()
        while not position.is_over and len(positions) < count:
            positions.append(position)
            position = position.play(pick_move(rng, position, pass_rate, capture_rate,
                                               single_captures))
    return positions


def random_positions(rng, count, pass_rate):
    """`count` positions of seeded games, each stopped after a random number of plies (0 to
    MAX_PLY - 1) and kept unless the game ended."""
    positions = []
    while len(positions) < count:
        position = Position()
        for _ in range(rng.randrange(MAX_PLY)):
            position = position.play(pick_move(rng, position, pass_rate))
            if position.is_over:
                break
        if not position.is_over:
            positions.append(position)
    return positions


def position_before_end(rng, plies_left, pass_rate, capture_rate):
    """A position `plies_left` plies from the end of a seeded game (restarted if it ended)."""
    while True:
        position = Position()
        while position.ply < MAX_PLY + 1 - plies_left and not position.is_over:
            position = position.play(pick_move(rng, position, pass_rate, capture_rate))
        if not position.is_over:
            return position
