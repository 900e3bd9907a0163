"""Playouts: finish a game fast, to value a leaf of the search.

`playout(position, random)` plays to the real end (ply 24 or two passes) and returns the final
`(black, white)` bitboards. With `knowledge=False` every ply is uniform over the legal
placements (the random player's policy and the engine's speed figure); with knowledge it first
answers the last move (capture a chain it left in atari, save our chain it put in atari) and
then plays a random placement that is not a self-atari. Under stones-only scoring filling one's
own territory is good, so there is no eye rule: the self-atari test already keeps the last two
eyes of a group.

Performance: the game runs on local bitboards, not Positions; `place_stone` is the only rule.
"""

import go_board
from go_board import BIT, FULL, MAX_PLY, NEIGHBOURS, dilate, group_of, place_stone, points_of


def _is_self_atari(result, point, opp_before):
    """The placement left its own chain with one liberty without capturing anything."""
    own, opp = result
    if opp != opp_before:
        return False
    empty = FULL ^ own ^ opp
    free = NEIGHBOURS[point] & empty
    if free & (free - 1):
        return False
    liberties = dilate(group_of(own, BIT[point])) & empty
    return not liberties & (liberties - 1)


def _single_point(bits):
    """The point of a one-point bitboard, or None when it holds zero or several points."""
    if bits and not bits & (bits - 1):
        return bits.bit_length() - 1
    return None


def _urgent_reply(own, opp, prev_own, prev_opp, last_bit):
    """`(point, result)` capturing the chain of the last move or saving ours next to it."""
    empty = FULL ^ own ^ opp
    point = _single_point(dilate(group_of(opp, last_bit)) & empty)
    if point is not None:
        result = place_stone(own, opp, point, prev_own, prev_opp)
        if result.__class__ is tuple:
            return point, result
    touching = dilate(last_bit) & own
    while touching:
        chain = group_of(own, touching & -touching)
        touching &= ~chain
        point = _single_point(dilate(chain) & empty)
        if point is not None:
            result = place_stone(own, opp, point, prev_own, prev_opp)
            if result.__class__ is tuple and not _is_self_atari(result, point, opp):
                return point, result
    return None


def playout(position, random, knowledge=True):
    """Play `position` to the end with `random` (a `random.random`); return `(black, white)`."""
    if position.is_over:
        return position.black, position.white
    own, opp, prev_own, prev_opp = position.mover_view()
    black_to_move = position.to_move == go_board.BLACK
    empties = points_of(FULL ^ own ^ opp)
    last_bit = opp & ~prev_opp
    last_bit &= -last_bit
    for _ in range(position.ply, MAX_PLY + 1):
        reply = _urgent_reply(own, opp, prev_own, prev_opp, last_bit) if knowledge and last_bit else None
        if reply is not None:
            point, result = reply
        else:
            point = result = fallback = None
            count = len(empties)
            while count:
                index = int(random() * count)
                candidate = empties[index]
                outcome = place_stone(own, opp, candidate, prev_own, prev_opp)
                if outcome.__class__ is tuple:
                    if not knowledge or not _is_self_atari(outcome, candidate, opp):
                        point, result = candidate, outcome
                        break
                    if fallback is None:
                        fallback = candidate, outcome
                count -= 1
                empties[index] = empties[count]
                empties[count] = candidate
            if result is None and fallback is not None:
                point, result = fallback
        if result is None:
            if own == prev_own and opp == prev_opp:
                break
            own, opp, prev_own, prev_opp = opp, own, opp, own
            black_to_move = not black_to_move
            last_bit = 0
            continue
        new_own, new_opp = result
        empties.remove(point)
        if new_opp != opp:
            empties.extend(points_of(opp ^ new_opp))
        own, opp, prev_own, prev_opp = new_opp, new_own, opp, own
        black_to_move = not black_to_move
        last_bit = BIT[point]
    return (own, opp) if black_to_move else (opp, own)


def black_wins(black, white):
    return go_board.popcount(black) - go_board.popcount(white) > go_board.KOMI
