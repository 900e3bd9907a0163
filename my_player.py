"""Little-Go agent: one call, one move, from input.txt to output.txt.

Reading guide: `main` is the whole pipeline, in the order it runs:
1. read input.txt (`go_board.read_input`): a malformed file is one line on stderr, exit 2;
2. restore the ply and this game's CPU ledger (`step_storage.restore`);
3. `choose_move`: no legal placement -> PASS; the opponent passed and we lead -> PASS;
   plies 1-6 -> the opening book (`opening_book.lookup`); few plies left -> exact endgame
   search (`endgame`); otherwise, or when those give nothing in time, root-parallel MCTS
   (`mcts.parallel`) on the CPU budget from `move_budget`;
4. write output.txt atomically, then the step file with the CPU this call used.
Whatever fails inside step 3, a legal move is still written (the best known, else any).

Settings come from environment variables (see README): LITTLEGO_MOVE_CPU, LITTLEGO_GAME_CPU,
LITTLEGO_WORKERS, LITTLEGO_SEED, LITTLEGO_EXPLORATION (UCT's constant, for tuning), and
LITTLEGO_BOOK / LITTLEGO_SOLVER / LITTLEGO_KNOWLEDGE (0 turns a part off, for measuring what it
is worth).
"""

import os
import sys
import time

import endgame
import go_board
import opening_book
import step_storage
from go_board import BLACK, MAX_PLY, PASS
from mcts import core
from mcts.go_game import GoState, PlayoutEvaluator
from mcts.parallel import root_parallel_search, usable_cores

PLAYER_NAME = "my_player"
DEFAULT_MOVE_CPU = 8.5
DEFAULT_GAME_CPU = 55.0
# CPU kept back for what follows the search: merging, writing files, interpreter exit.
EXIT_RESERVE_CPU = 0.25
MIN_SEARCH_CPU = 0.2
# A move the exact search may take costs about this share of a searched move.
SOLVER_MOVE_WEIGHT = 0.5
# Share of a move's budget the exact search may use before MCTS takes over.
SOLVER_SHARE = 0.6
WALL_PER_CPU = 1.5
CENTRE = go_board.SIZE // 2
# A root action whose playouts win this often, over this many simulations of one worker, is
# played at once: more CPU would not change the move, and the game's budget keeps it.
SURE_WIN_VALUE = 0.97
SURE_WIN_SIMULATIONS = 4000


class Settings(object):
    def __init__(self, environ):
        self.move_cpu = float(environ.get("LITTLEGO_MOVE_CPU", DEFAULT_MOVE_CPU))
        self.game_cpu = float(environ.get("LITTLEGO_GAME_CPU", DEFAULT_GAME_CPU))
        self.workers = int(environ.get("LITTLEGO_WORKERS", 0)) or usable_cores()
        seed = environ.get("LITTLEGO_SEED")
        self.seed = int(seed) if seed else int.from_bytes(os.urandom(4), "little")
        self.use_book = environ.get("LITTLEGO_BOOK", "1") != "0"
        self.use_solver = environ.get("LITTLEGO_SOLVER", "1") != "0"
        self.knowledge = environ.get("LITTLEGO_KNOWLEDGE", "1") != "0"
        self.exploration = float(environ.get("LITTLEGO_EXPLORATION", core.DEFAULT_EXPLORATION))


def tree_cpu_seconds():
    """CPU of this process since it started (interpreter start-up included) plus reaped children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def log(message):
    sys.stderr.write("my_player: {}\n".format(message))


def cpu_spent_before(state, settings):
    """This game's CPU before this call; a lost ledger counts as a full share per earlier move."""
    if state.cpu_used is not None:
        return state.cpu_used
    earlier_moves = len(range(2 - state.ply % 2, state.ply, 2))
    return settings.game_cpu * earlier_moves / len(range(1, MAX_PLY + 1, 2))


def move_budget(ply, cpu_used, settings):
    """CPU seconds for this whole call: the game's remaining CPU spread over our moves left.

    Book moves cost nothing and moves the exact search takes cost little, so the middle game,
    where the result is decided, gets the most.
    """
    our_plies = range(ply, MAX_PLY + 1, 2)
    weights = 0.0
    free_plies = opening_book.answered_plies() if settings.use_book else 0
    for our_ply in our_plies:
        if our_ply <= free_plies:
            continue
        solver_takes_it = settings.use_solver and MAX_PLY + 1 - our_ply <= endgame.EXACT_PLIES_LEFT
        weights += SOLVER_MOVE_WEIGHT if solver_takes_it else 1.0
    share = (settings.game_cpu - cpu_used) / max(weights, 1.0)
    return max(min(settings.move_cpu, share), MIN_SEARCH_CPU + EXIT_RESERVE_CPU)


def search_move(position, budget_end, settings, report):
    """Root-parallel MCTS until the tree's CPU reaches `budget_end`; returns a move or None."""
    available = budget_end - EXIT_RESERVE_CPU - tree_cpu_seconds()
    if available < MIN_SEARCH_CPU:
        available = MIN_SEARCH_CPU
    per_worker = available / settings.workers
    children, simulations, workers_used = root_parallel_search(
        GoState(position), PlayoutEvaluator(settings.knowledge), settings.seed + position.ply,
        settings.workers, per_worker, per_worker * WALL_PER_CPU + 0.5, log=log,
        exploration=settings.exploration, sure_win=SURE_WIN_VALUE,
        sure_win_after=SURE_WIN_SIMULATIONS)
    report["simulations"] = simulations
    report["workers"] = workers_used
    return searched_move(position, children)


def searched_move(position, children):
    """The move the search's merged root statistics choose (the book's builder uses it too):
    the best placement, a pass only when the pass rule allows it; None without children."""
    placements = [stats for stats in children if stats.action != PASS]
    passing = [stats for stats in children if stats.action == PASS]
    if passing and (not placements or endgame.search_may_pass(position, passing[0])):
        return PASS
    return core.best_action(placements) if placements else None


def choose_move(position, budget_end, settings, report):
    """The move for `position`; every branch returns a legal move."""
    placements = position.legal_placements()
    if not placements:
        report["source"] = "no placement"
        return PASS
    if endgame.winning_pass(position):
        report["source"] = "winning pass"
        return PASS
    if settings.use_book and position.ply <= opening_book.BOOK_PLIES:
        move = opening_book.lookup(position)
        if move is not None and position.is_legal(move):
            report["source"] = "book"
            return move
    if settings.use_solver:
        # The solver's share never eats the floor MCTS needs if the solver gives up.
        left = budget_end - tree_cpu_seconds()
        solver_cpu = min(SOLVER_SHARE * left, left - MIN_SEARCH_CPU - EXIT_RESERVE_CPU)
        deadline = time.process_time() + max(solver_cpu, 0.0)
        exact = endgame.choose_endgame_move(position, deadline)
        if exact is not None:
            report["source"] = "exact"
            report["margin"] = exact[1]
            return exact[0]
    move = search_move(position, budget_end, settings, report)
    report["source"] = "mcts"
    return move if move is not None else placements[0]


def safe_move(position):
    """A legal move without search: the biggest capture, ties to the point nearest the centre
    (Black's only winning first move), else PASS. Black at ply 1 always gets a placement."""
    placements = position.legal_placements()
    if not placements:
        return PASS

    def preference(point):
        row, col = go_board.to_coord(point)
        return position.captures_by(point), -abs(row - CENTRE) - abs(col - CENTRE)
    return max(placements, key=preference)


def decide(position, budget_end, settings, report):
    """`choose_move`, guarded: whatever goes wrong, the answer is a legal move."""
    try:
        move = choose_move(position, budget_end, settings, report)
    except Exception as error:  # the move must be written whatever went wrong in search
        log("search failed ({}: {}); playing a safe legal move".format(type(error).__name__, error))
        move = None
    black_opening_pass = move == PASS and position.ply == 1 and position.to_move == BLACK
    if move is None or black_opening_pass or not position.is_legal(move):
        report["source"] = "fallback"
        move = safe_move(position)
    return move


def write_output(move, path):
    """output.txt via a temporary file and a rename: the referee never sees half a line."""
    temp_path = path + ".tmp"
    with open(temp_path, "w") as handle:
        handle.write(go_board.format_output(move))
    os.replace(temp_path, path)


def main(directory="."):
    input_path = os.path.join(directory, "input.txt")
    output_path = os.path.join(directory, "output.txt")
    try:
        settings = Settings(os.environ)
    except ValueError as error:
        log("bad LITTLEGO_* setting: {}".format(error))
        return 2
    try:
        colour, previous, current = go_board.read_input(input_path)
    except go_board.InputError as error:
        log("bad input: {}".format(error))
        return 2
    state = step_storage.restore(colour, previous, current, directory, PLAYER_NAME)
    position = go_board.Position(current[0], current[1], colour, state.ply, previous[0], previous[1])
    spent_before = cpu_spent_before(state, settings)
    budget = move_budget(state.ply, spent_before, settings)
    report = {}
    move = decide(position, budget, settings, report)
    try:
        write_output(move, output_path)
    except (IOError, OSError) as error:
        log("cannot write {}: {}".format(output_path, error))
        return 1
    board_after = position.play(move) if move != PASS else position
    used = tree_cpu_seconds()
    try:
        step_storage.save(directory, PLAYER_NAME, colour, state.ply,
                          (board_after.black, board_after.white), spent_before + used)
    except (IOError, OSError) as error:
        log("cannot save the step file ({}); the next move will derive the ply".format(error))
    log("ply {} {} -> {} via {} ({}) cpu {:.2f}/{:.2f}s".format(
        state.ply, go_board.COLOUR_NAMES[colour], go_board.move_to_text(move),
        report.get("source"), ", ".join("{}={}".format(k, v) for k, v in sorted(report.items())
                                         if k != "source"), used, budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
