"""The Little-Go agent: from a position and a CPU budget to a move, and the record of why.

Reading guide: start at `decide` (`choose_move`, guarded so that the move is always legal); its
pipeline, in the order it runs:
1. no legal placement -> PASS; the opponent passed and we lead -> PASS (`endgame.winning_pass`);
2. Black on the empty board -> the centre (a proven result);
3. a position of the opening book (`opening_book.Book.lookup`: the winning side's proven
   strategy, every position the loser can reach through the book's last ply) -> its answer;
4. few plies left -> exact search (`exact_search`, endgame.choose_endgame_move in the
   position's canonical frame: a proven win, the move of the largest margin it proves by the
   move's deadline, or the best try in a proven loss);
5. otherwise, or when those give nothing in time, root-parallel MCTS (`mcts.parallel`).
Every caller gets a move's budget the same way (`plan_move`: the time manager's `move_budget`,
from `cpu_spent_before`): an amount of CPU and its end, `cpu_deadline`, on the process tree's
CPU clock (clocks.py: `tree_cpu_seconds`, the clock the grader meters), which is what
`decide` takes; the exact search's deadline is on that clock too. The result is a `Decision`
(the move, its source, what backs it: decision_log.py, which also writes the JSON line callers
log and tools read back). Whatever fails inside `choose_move`, `decide` still gives a legal
move (the best known, else `safe_move`).

Callers: `my_player.py` (one move per process, the course's way: its move starts with the
process, at clocks.PROCESS_START_CPU) and `littlego/gtp/engine.py` (a GTP engine, one process
per game: a move starts when it is asked for); both read the settings (agent_settings.py: the
LITTLEGO_* variables, a value nothing changes afterwards that opens no file) and the book
(`read_book`) once, at start-up, and pass them to every move.
Standard library only, Python 3.7: it is the grader's per-move path.
"""

import collections

import endgame
import go_board
import opening_book
from clocks import tree_cpu_seconds
from decision_log import (PROOF_CPU_KEY, PROVEN_LOSS, PROVEN_WIN, SOURCE_BOOK, SOURCE_CENTRE_RULE,
                          SOURCE_EXACT, SOURCE_FALLBACK, SOURCE_MCTS, SOURCE_NO_PLACEMENT,
                          SOURCE_WINNING_PASS, Decision, log, try_details)
from go_board import BLACK, CENTRE, MAX_PLY, PASS, WHITE
from mcts import core
from mcts.stopping import StopRules

# CPU kept back for what follows the search: merging, writing files, interpreter exit.
EXIT_RESERVE_CPU = 0.25
MIN_SEARCH_CPU = 0.2
# A move the exact search may take costs about this share of a searched move.
SOLVER_MOVE_WEIGHT = 0.5
# Share of a move's budget the exact search may use before MCTS takes over, at its first ply
# (endgame.EXACT_PLIES_LEFT plies left), where MCTS still plays well when the proof runs long.
# Nearer the end (FULL_SOLVER_PLIES_LEFT plies left or fewer: every ply past the book, from
# White's ply 12 and Black's ply 13 on) the exact search gets all but MCTS's floor: there strong
# opponents steer into knife edges, where one move wins, the proof takes the longest and MCTS
# on what is left rarely finds that move (littlego handover, docs/strength.md).
SOLVER_SHARE = 0.6
FULL_SOLVER_PLIES_LEFT = endgame.EXACT_PLIES_LEFT - 1
# A search's wall limit (`wall_limit`) is its CPU share times this, plus WALL_SLACK seconds:
# a search worker's, and a proven win's margin search's. The CPU share is what stops a search;
# the wall limit only guards against a starved or stuck one (mcts/budget.py), which in play
# must not hold up the move.
WALL_PER_CPU = 1.5
WALL_SLACK = 0.5
# A root action whose playouts win this often, over this many simulations of one worker, is
# played at once: more CPU would not change the move, and the game's budget keeps it.
SURE_WIN_VALUE = 0.97
SURE_WIN_SIMULATIONS = 4000
# The decision's details list this many of the search's root candidates, most visited first.
TOP_CANDIDATES = 5

PROVEN_WORDS = {core.WIN: PROVEN_WIN, core.LOSS: PROVEN_LOSS}


def read_book(settings):
    """The opening book `settings` select: the file's (opening_book.read), or none when
    LITTLEGO_BOOK=0. Read once by each caller at start-up, then passed to every call."""
    return opening_book.read() if settings.use_book else opening_book.NO_BOOK


def cpu_spent_before(state, settings):
    """This game's CPU before this call; a lost ledger counts as a full share per earlier move."""
    if state.cpu_used is not None:
        return state.cpu_used
    earlier_moves = len(range(2 - state.ply % 2, state.ply, 2))
    return settings.game_cpu * earlier_moves / len(range(1, MAX_PLY + 1, 2))


def move_budget(ply, cpu_used, settings, book):
    """CPU seconds for this whole call: the game's remaining CPU spread over our moves left.

    Book moves cost nothing and moves the exact search takes cost little, so the middle game,
    where the result is decided, gets the most.
    """
    our_plies = range(ply, MAX_PLY + 1, 2)
    weights = 0.0
    free_plies = min(book.answered_plies(BLACK if ply % 2 else WHITE),
                     settings.book_plies)
    for our_ply in our_plies:
        if our_ply <= free_plies:
            continue
        solver_takes_it = (settings.use_solver
                           and go_board.plies_left(our_ply) <= endgame.EXACT_PLIES_LEFT)
        weights += SOLVER_MOVE_WEIGHT if solver_takes_it else 1.0
    share = (settings.game_cpu - cpu_used) / max(weights, 1.0)
    return max(min(settings.move_cpu, share), MIN_SEARCH_CPU + EXIT_RESERVE_CPU)


# A move's budget (CPU seconds) and its end on the tree CPU clock (`tree_cpu_seconds`), which
# `decide` takes.
MovePlan = collections.namedtuple("MovePlan", "budget cpu_deadline")


def plan_move(ply, cpu_used, settings, book, started, cap=None):
    """The MovePlan of a move at `ply` after `cpu_used` seconds of this game's moves: the time
    manager's budget (`move_budget`; at most `cap` seconds when given, a controller's clock),
    ending that many seconds after `started` on the tree CPU clock (PROCESS_START_CPU for a
    per-move program, the clock's reading when the move was asked for in a long-lived one)."""
    budget = move_budget(ply, cpu_used, settings, book)
    if cap is not None:
        budget = min(budget, cap)
    return MovePlan(budget, started + budget)


def candidates(children, limit=TOP_CANDIDATES):
    """The most visited root actions as JSON values: move, visit share, mean value, proof."""
    total = sum(stats.visits for stats in children) or 1
    ranked = sorted(children, key=lambda stats: (stats.visits, stats.value_sum), reverse=True)
    listed = []
    for stats in ranked[:limit]:
        entry = {"move": go_board.move_to_text(stats.action),
                 "share": round(stats.visits / total, 4),
                 "value": round(stats.value_sum / stats.visits, 4) if stats.visits else None}
        if stats.solved is not None:
            entry["proven"] = PROVEN_WORDS[stats.solved]
        listed.append(entry)
    return listed


def search_move(position, cpu_deadline, settings, refuted=frozenset()):
    """Root-parallel MCTS until the tree's CPU reaches `cpu_deadline`: `(move or None, details)`;
    the move is none of `refuted` (moves the exact search proved losing) unless all are."""
    # Imported here, not above: a book move needs neither, and loading them cost about a sixth
    # of its CPU on Python 3.7 (docs/strength.md).
    from mcts.go_game import GoState, LeafSolver, PlayoutEvaluator
    from mcts.parallel import root_parallel_search
    available = cpu_deadline - EXIT_RESERVE_CPU - tree_cpu_seconds()
    if available < MIN_SEARCH_CPU:
        available = MIN_SEARCH_CPU
    per_worker = available / settings.workers
    children, simulations, workers_used = root_parallel_search(
        GoState(position), PlayoutEvaluator(settings.knowledge), settings.seed + position.ply,
        settings.workers, per_worker, wall_limit(per_worker), log=log,
        exploration=settings.exploration,
        stop=StopRules(sure_win=SURE_WIN_VALUE, sure_win_after=SURE_WIN_SIMULATIONS),
        leaf_solver=LeafSolver(settings.leaf_solve_plies) if settings.leaf_solve_plies else None)
    details = {"simulations": simulations, "workers": workers_used,
               "candidates": candidates(children)}
    if refuted:
        details["refuted"] = sorted(go_board.move_to_text(move) for move in refuted)
    return searched_move(position, children, refuted), details


def searched_move(position, children, refuted=frozenset()):
    """The move the search's merged root statistics choose: the best placement, a pass only
    when the pass rule allows it; None without children. Placements in `refuted` (proven
    losing) are left out while another placement is there; they never make a pass of it (the
    exact search tries the pass last, so in a lost position it is the one move it has not
    refuted yet, and passing would hand the opponent the win by passing back)."""
    placements = [stats for stats in children if stats.action != PASS]
    passing = [stats for stats in children if stats.action == PASS]
    # The search passes only when the pass is proven to win: a pass costs a point like a lost
    # stone, so a pass that merely looks good in playouts is never played.
    if passing and (not placements or passing[0].solved == core.WIN):
        return PASS
    alive = [stats for stats in placements if stats.action not in refuted] or placements
    return core.best_action(alive) if alive else None


def exact_details(position, exact):
    """The details of a decision of the exact search (an `endgame.ExactMove`)."""
    if exact.proven == PROVEN_LOSS:
        details = try_details(position, exact.move, exact.opponent_wins)
    else:
        details = {"proven": exact.proven}
        if exact.margin is not None:
            details["margin"] = exact.margin
        elif exact.margin_at_least is not None:
            details["margin_at_least"] = exact.margin_at_least
    if exact.proof_cpu is not None:
        details[PROOF_CPU_KEY] = round(exact.proof_cpu, 3)
    return details


def choose_move(position, cpu_deadline, settings, book, solver_table=None):
    """The Decision for `position` by `cpu_deadline` on the tree CPU clock (a MovePlan's),
    under `settings` with `book` (read_book's); every branch's move is legal.

    `solver_table` is the exact search's transposition table to reuse (a long-lived caller such
    as the GTP engine keeps one across moves); None starts an empty one.
    """
    placements = position.legal_placements()
    if not placements:
        return Decision(PASS, SOURCE_NO_PLACEMENT, {})
    if endgame.winning_pass(position):
        return Decision(PASS, SOURCE_WINNING_PASS,
                        {"proven": PROVEN_WIN, "margin": endgame.mover_margin(position)})
    if position.to_move == BLACK and not position.black | position.white:
        # Proven: every other first move loses (rules.md).
        return Decision(CENTRE, SOURCE_CENTRE_RULE, {"proven": PROVEN_WIN})
    entry = book.entry(position) if position.ply <= settings.book_plies else None
    # A book pass is a proven winning one; Black's first move, a losing pass, never gets here.
    if entry is not None and (entry.move == PASS or entry.move in placements):
        details = {} if not entry.opponent_wins else try_details(position, entry.move,
                                                                 entry.opponent_wins)
        return Decision(entry.move, SOURCE_BOOK, details)
    refuted = frozenset()
    if settings.use_solver:
        exact, refuted = exact_search(position, cpu_deadline, solver_table)
        if exact is not None:
            return Decision(exact.move, SOURCE_EXACT, exact_details(position, exact))
    move, details = search_move(position, cpu_deadline, settings, refuted)
    return Decision(move if move is not None else placements[0], SOURCE_MCTS, details)


def exact_search(position, cpu_deadline, solver_table=None):
    """`(ExactMove or None, the moves it proved losing)`: the exact search of `position`
    (endgame.choose_endgame_move) by `cpu_deadline`, its proof given `exact_search_cpu` of the
    time left, its margins all but EXIT_RESERVE_CPU, in `solver_table` (None: a new one).

    It runs in the position's canonical frame (go_board.canonical_symmetry), its moves mapped
    back: every symmetric image of a position gets the same proof at the same cost, so the
    book's seam, built in that frame (littlego/solver/seam.py), answers each image whose search
    would be slow, not only the image it met."""
    symmetry = go_board.canonical_symmetry(position)
    back = go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]]
    framed = position.transformed(symmetry)
    table = {} if solver_table is None else solver_table
    now = tree_cpu_seconds()
    solver_cpu = exact_search_cpu(cpu_deadline - now, go_board.plies_left(position.ply))
    exact = endgame.choose_endgame_move(framed, now + solver_cpu, table,
                                        margin_deadline=cpu_deadline - EXIT_RESERVE_CPU,
                                        margin_wall=wall_limit)
    if exact is not None:
        return exact._replace(move=back[exact.move]), frozenset()
    return None, frozenset(back[move] for move in endgame.refuted_moves(framed, table))


def wall_limit(cpu_seconds):
    """The wall seconds a search given `cpu_seconds` of CPU may run before it is stopped as
    starved or stuck (WALL_PER_CPU, WALL_SLACK)."""
    return cpu_seconds * WALL_PER_CPU + WALL_SLACK


def exact_search_cpu(left, plies_left):
    """CPU the exact search's proof may use of the `left` seconds of this call, `plies_left`
    plies from the end (see SOLVER_SHARE); it never eats the floor MCTS needs if the proof does
    not end. Once a win is proven, its margin search may use the whole call but
    EXIT_RESERVE_CPU (`choose_move`; and `wall_limit` of that in wall time): MCTS is not needed
    any more."""
    floor = left - MIN_SEARCH_CPU - EXIT_RESERVE_CPU
    if plies_left > FULL_SOLVER_PLIES_LEFT:
        return max(min(SOLVER_SHARE * left, floor), 0.0)
    return max(floor, 0.0)


def safe_move(position):
    """A legal move without search: the biggest capture, ties to the point nearest the centre
    (Black's only winning first move), else PASS. Black at ply 1 always gets a placement."""
    placements = position.legal_placements()
    if not placements:
        return PASS

    centre_row, centre_col = go_board.to_coord(CENTRE)

    def preference(point):
        row, col = go_board.to_coord(point)
        return position.captures_by(point), -abs(row - centre_row) - abs(col - centre_col)
    return max(placements, key=preference)


def decide(position, cpu_deadline, settings, book, solver_table=None):
    """`choose_move`, guarded: whatever goes wrong, the Decision's move is legal."""
    try:
        decision = choose_move(position, cpu_deadline, settings, book, solver_table)
    except Exception as error:  # the move must be written whatever went wrong in search
        log("search failed ({}: {}); playing a safe legal move".format(type(error).__name__, error))
        return Decision(safe_move(position), SOURCE_FALLBACK,
                        {"error": "{}: {}".format(type(error).__name__, error)})
    move = decision.move
    black_opening_pass = move == PASS and position.ply == 1 and position.to_move == BLACK
    if black_opening_pass or not position.is_legal(move):
        return Decision(safe_move(position), SOURCE_FALLBACK,
                        {"refused": go_board.move_to_text(move), "from": decision.source})
    return decision


