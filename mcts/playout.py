"""Playouts: finish a game fast, to value a leaf of the search.

`playout(position, random)` plays to the real end (ply 24 or two passes) and returns the final
`(black, white)` bitboards. Without knowledge (the agent's default) every ply is uniform over the
legal placements (the random player's policy and the engine's speed figure); with knowledge it
first answers the last move (capture a chain it left in atari, save our chain it put in atari)
and then plays a random placement that is not a self-atari. Under stones-only scoring filling
one's own territory is good, so there is no eye rule: the self-atari test already keeps the
last two eyes of a group.

Performance: the game runs on local bitboards, not Positions. `go_board.capture` (place_stone's
own capture and ko rule) decides a placement next to an opponent stone that has no other empty
neighbour; any other placement captures nothing, so the loop decides it from its empty
neighbours and, only when it has at most one, from its chain's liberties. The liberty tests
look at a stone's own empty neighbours first: a stone with two of them proves its chain is out
of atari without a flood fill. tests/test_playout.py replays seeded games against the policy
written plainly with `place_stone`.
"""

import go_board
from go_board import (BIT, FULL, MAX_PLY, NEIGHBOUR_POINTS, NEIGHBOURS, NUM_POINTS, SIZE, capture,
                      chain_liberties, place_stone, points_of)

_NOT_LEFT = go_board._NOT_LEFT
_NOT_RIGHT = go_board._NOT_RIGHT
_POINTS = range(NUM_POINTS)


def _is_self_atari(own, point, empty):
    """The chain of `own` through `point` has at most one liberty in `empty`.

    For a placement that captured nothing: `own` and `empty` are the board after it.
    """
    free = NEIGHBOURS[point] & empty
    if free & (free - 1):
        return False
    if not NEIGHBOURS[point] & own:
        return True
    liberties = chain_liberties(own, BIT[point], empty)
    return not liberties & (liberties - 1)


def _atari_point(stones, point, empty):
    """The one liberty of the chain of `stones` through `point`, as a point, or -1."""
    free = NEIGHBOURS[point] & empty
    if free & (free - 1):
        return -1
    liberties = chain_liberties(stones, BIT[point], empty)
    if liberties and not liberties & (liberties - 1):
        return liberties.bit_length() - 1
    return -1


def _urgent_reply(own, opp, prev_own, prev_opp, last_point, empty):
    """`(point, result)` capturing the chain of the last move or saving ours next to it."""
    point = _atari_point(opp, last_point, empty)
    if point >= 0:
        result = place_stone(own, opp, point, prev_own, prev_opp)
        if result.__class__ is tuple:
            return point, result
    # Our chains next to the last move, lowest stone first; a chain met twice answers the same.
    for neighbour, bit in NEIGHBOUR_POINTS[last_point]:
        if bit & own:
            point = _atari_point(own, neighbour, empty)
            if point >= 0:
                result = place_stone(own, opp, point, prev_own, prev_opp)
                if result.__class__ is tuple and (
                        result[1] != opp or not _is_self_atari(result[0], point, FULL ^ result[0] ^ opp)):
                    return point, result
    return None


def playout(position, random, knowledge):
    """Play `position` to the end with `random` (a `random.random`), with the knowledge or
    uniformly (`knowledge`: the agent's is agent_settings.DEFAULT_KNOWLEDGE); return
    `(black, white)`."""
    if position.is_over:
        return position.black, position.white
    own, opp, prev_own, prev_opp = position.mover_view()
    empty = FULL ^ own ^ opp
    empties = [p for p in _POINTS if empty >> p & 1]
    last_bit = opp & ~prev_opp
    last_point = (last_bit & -last_bit).bit_length() - 1
    ply = first_ply = position.ply
    for ply in range(first_ply, MAX_PLY + 1):
        count = len(empties)
        fallback = None
        if knowledge and last_point >= 0:
            # Nothing is urgent unless the last stone has at most one empty neighbour or
            # touches one of ours.
            around = NEIGHBOURS[last_point]
            free = around & empty
            if around & own or not free & (free - 1):
                reply = _urgent_reply(own, opp, prev_own, prev_opp, last_point, empty)
                if reply is not None:
                    point, (new_own, new_opp) = reply
                    count = -1
        while count > 0:
            index = int(random() * count)
            candidate = empties[index]
            bit = BIT[candidate]
            neighbours = NEIGHBOURS[candidate]
            after = empty ^ bit
            lonely = neighbours & opp
            if lonely:
                # Only an opponent stone with no empty neighbour left may be captured.
                lonely &= ~(after | ((after << 1) & _NOT_LEFT) | ((after >> 1) & _NOT_RIGHT)
                            | ((after << SIZE) & FULL) | (after >> SIZE))
            outcome = capture(own | bit, opp, lonely, after, prev_own, prev_opp) if lonely else None
            if outcome is not None:
                if outcome.__class__ is tuple:  # a capture: legal, and never a self-atari
                    new_own, new_opp = outcome
                    point = candidate
                    break
            else:
                # Nothing captured: legal when the placed stone's chain has a liberty.
                new_own = own | bit
                new_opp = opp
                free = neighbours & after
                if free and (not knowledge or free & (free - 1)):
                    point = candidate
                    break
                if neighbours & own:
                    free = chain_liberties(new_own, bit, after)
                if free:
                    if not knowledge or free & (free - 1):
                        point = candidate
                        break
                    if fallback is None:
                        fallback = candidate, new_own, opp
            count -= 1
            empties[index] = empties[count]
            empties[count] = candidate
        else:
            if count == 0:
                # No candidate taken (an urgent reply sets count to -1).
                if fallback is None:
                    if own == prev_own and opp == prev_opp:
                        break
                    own, opp, prev_own, prev_opp = opp, own, opp, own
                    last_point = -1
                    continue
                point, new_own, new_opp = fallback
        empties.remove(point)
        if new_opp != opp:
            empties.extend(points_of(opp ^ new_opp))
            empty = FULL ^ new_own ^ new_opp
        else:
            empty ^= BIT[point]
        own, opp, prev_own, prev_opp = new_opp, new_own, opp, own
        last_point = point
    else:
        ply = MAX_PLY + 1
    # Every ply before `ply` changed sides (a break leaves the ply that ended the game).
    if (ply - first_ply) % 2 == (position.to_move != go_board.BLACK):
        return own, opp
    return opp, own

