"""Every legal move's proven result and margin in the browser board's words (web/server.py,
GET /api/analysis), and `littlego review`'s at every position of a game: the one analysis
(live.py) written as the page's JSON.

Start at `answer(report)`, a live.Report as that JSON, and `move_results(position, cpu_limit)`,
the analysis run for a budget of CPU seconds (of the calling thread: `clock`, time.thread_time,
so that a server thread's budget does not count the other threads' work) with no estimate: the
stored value table, the book's proofs, the exact search, in live.py's order. With `first` it
stops as soon as the position's margin and those moves' are exact (the review needs no more).

The answer, results seen from the side to move:
    {"source": live.SOURCE_* or None,      the most trusted source that proved something
     "result": WIN | LOSS | None,          the position under best play, when proven
     "margin": points or None,             the position's exact final margin, when known
     "moves": {"i,j" or "PASS": {"result": WIN | LOSS, "margin": points (only when known)}},
     "unknown": bool,                      some legal move has no result
     "best_try": None or {"move": "i,j" or "PASS", "opponent_wins": n or None (the try ends
                 the game), "opponent_moves": n, "summary": "lost: Black must find 1 of 19
                 moves"}}                  in a lost position, when a try is known
Only legal moves are listed, only proven ones in "moves". Margins are in points (komi
included) for the mover: positive wins.
"""

import time

import agent_settings
import decision_log
import go_board
import opening_book
from littlego.analysis import live

WIN, LOSS = live.WIN, live.LOSS
# The slices the analysis is run in, CPU seconds.
SLICE_SECONDS = 0.25
# The settings of an analysis without an estimate: the tournament's (the exact search on).
SETTINGS = agent_settings.Settings({})


def answer(report):
    """The board's JSON of a live.Report (see the module docstring)."""
    moves = {}
    for known in report.moves:
        if known.result is not None:
            entry = {"result": known.result}
            if known.margin is not None:
                entry["margin"] = known.margin
            moves[go_board.move_to_text(known.move)] = entry
    return {"source": report.source if moves or report.root.margin is not None else None,
            "result": report.root.result, "margin": report.root.margin, "moves": moves,
            "unknown": len(moves) < len(report.moves),
            "best_try": try_words(report.position, report.best_try)
            if report.root.result == LOSS else None}


def try_words(position, best_try):
    """The answer's `best_try` for `(move, opponent_wins)` (None: not known)."""
    if best_try is None:
        return None
    move, opponent_wins = best_try
    details = decision_log.try_details(position, move, opponent_wins)
    return dict({key: details[key] for key in decision_log.TRY_KEYS},
                move=go_board.move_to_text(move))


def move_results(position, cpu_limit, book=None, values=None, engine=None, first=None,
                 want_try=True, clock=time.thread_time):
    """The board's JSON for `position` after at most `cpu_limit` CPU seconds of `clock` (see
    the module docstring). `book`: an opening_book.Book (default: the file's); `values`: a
    stored_values.StoredValues (default: the package's); `engine`: an exact.py engine (default:
    a new one for this call); `first`: moves whose margins are all the caller needs;
    `want_try`: find a lost position's best try."""
    book = opening_book.read() if book is None else book
    analysis = live.Analysis(position, SETTINGS, book, values, engine, first=first or (),
                             want_try=want_try, estimate=False)
    try:
        deadline = clock() + cpu_limit
        while True:
            if first is not None and analysis.knows(first) and not analysis.seeking_try():
                break
            left = deadline - clock()
            if left <= 0 or not analysis.step(min(SLICE_SECONDS, left)):
                break
        return answer(analysis.report())
    finally:
        analysis.close()
