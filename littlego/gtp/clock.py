"""The controller's clock in the GTP engine: `time_settings`, `kgs-time_settings`, `time_left`.

Start at `Clock.move_seconds`, the seconds a move of one colour may take by the clock (None
without a time limit); the engine caps the agent's own CPU budget with it, never raising it
(the Little-Go budget stays the most a move spends). A colour's clock is `(seconds, stones)` as
GTP's `time_left` gives it: stones 0 while in main time, else the stones to play (Canadian
overtime) or, for KGS's byo-yomi, the periods left (KGS's documented stand-in) in the seconds
left. Between two `time_left` the engine counts its own wall seconds off (`spent`).

A move's share: in main time, the time left over the colour's moves still to play in Little-Go
(at most 12), or one overtime stone's or period's worth when that is more; in Canadian overtime,
the time left over the stones left; in byo-yomi, one period. SHARE_SAFETY of it, less LAG for the
pipe and the controller, keeps the engine on the right side of the clock. Standard library
only, Python 3.7, like the engine.
"""

import go_board

# Time control kinds: GTP's time_settings is Canadian overtime (or absolute when its overtime
# is 0); KGS's byo-yomi periods each hold one move.
NO_LIMIT, CANADIAN, BYOYOMI = "none", "canadian", "byoyomi"
KGS_KINDS = ("none", "absolute", "canadian", "byoyomi")
SHARE_SAFETY = 0.8
LAG = 0.1


class ClockError(ValueError):
    """Arguments that are not a time control."""


def _numbers(args, count, counted=True):
    """`count` numbers >= 0: seconds as floats and, when `counted`, the last one (stones or
    periods) an int."""
    if len(args) != count:
        raise ClockError("syntax error")
    try:
        values = [float(word) for word in args[:count - counted]] + \
            [int(word) for word in args[count - counted:]]
    except ValueError:
        raise ClockError("syntax error")
    if any(value < 0 for value in values):
        raise ClockError("syntax error")
    return values


class Clock(object):
    def __init__(self):
        self.set(NO_LIMIT)

    def set(self, kind, main=0.0, overtime=0.0, stones=0):
        self.kind, self.main, self.overtime, self.stones = kind, main, overtime, stones
        self.restart()

    def restart(self):
        """Both clocks as at the start of a game."""
        start = (self.main, 0) if self.main > 0 or self.kind == NO_LIMIT else (
            self.overtime, self.stones)
        self.left = dict.fromkeys(go_board.COLOUR_NAMES, start)

    def time_settings(self, args):
        """GTP's `time_settings MAIN OVERTIME STONES`: overtime > 0 with 0 stones means no
        limit, and so do three zeros; 0 overtime means absolute time."""
        main, overtime, stones = _numbers(args, 3)
        if (overtime > 0 and stones == 0) or main == overtime == stones == 0:
            self.set(NO_LIMIT)
        else:
            self.set(CANADIAN, main, overtime, stones)

    def kgs_time_settings(self, args):
        """`kgs-time_settings none | absolute MAIN | canadian MAIN TIME STONES |
        byoyomi MAIN TIME PERIODS`."""
        if not args or args[0] not in KGS_KINDS:
            raise ClockError("syntax error")
        kind, rest = args[0], args[1:]
        if kind == "none":
            if rest:
                raise ClockError("syntax error")
            self.set(NO_LIMIT)
        elif kind == "absolute":
            main, = _numbers(rest, 1, counted=False)
            self.set(CANADIAN, main)
        else:
            main, overtime, count = _numbers(rest, 3)
            self.set(CANADIAN if kind == "canadian" else BYOYOMI, main, overtime, count)

    def time_left(self, colour, args):
        """GTP's `time_left COLOUR SECONDS STONES` (the colour already parsed)."""
        seconds, stones = _numbers(args, 2)
        self.left[colour] = seconds, stones

    def spent(self, colour, seconds):
        """Count `seconds` of wall time off `colour`'s clock, as the controller will."""
        if self.kind == NO_LIMIT:
            return
        left, stones = self.left[colour]
        left -= seconds
        if stones == 0 and left < 0 and self.overtime > 0:  # main time ran out: overtime
            left, stones = self.overtime + left, self.stones
        if stones > 0:
            if self.kind == BYOYOMI:
                left = self.overtime  # a period used in part comes back whole
            else:
                stones -= 1
                if stones == 0:  # the stones were played in time: a new period
                    left, stones = self.overtime, self.stones
        self.left[colour] = max(left, 0.0), stones

    def move_seconds(self, colour, ply):
        """The seconds `colour`'s move at `ply` may take by the clock, or None (no limit)."""
        if self.kind == NO_LIMIT:
            return None
        left, stones = self.left[colour]
        if stones > 0:
            share = left if self.kind == BYOYOMI else left / stones
        else:
            moves = (go_board.plies_left(ply) + 1) // 2
            share = left / max(moves, 1)
            if self.overtime > 0:
                share = max(share, self.overtime / (1 if self.kind == BYOYOMI else
                                                    max(self.stones, 1)))
        return max(share * SHARE_SAFETY - LAG, 0.0)
