"""Build opening_book.json: an answer for every position our own book play reaches through ply 6.

Usage: python3 tools/build_book.py [--jobs 2] [--ray ADDRESS] [--max-ply 6]
           [--solver-cpu PLY=SECONDS,...] [--search-cpu PLY=SECONDS,...] [--fresh] [--out FILE]

Start at `build`. The positions (`reachable`): Black's first move, and White's answer to each
Black first move; then, for each position we answer, every opponent reply (passes included)
after our answer, as long as the ply is within --max-ply. Positions are folded under the 8
symmetries and transpositions (`opening_book.canonical`). Later positions follow from earlier
answers, so positions are answered lowest ply first, each as soon as the answer before it is
known; a ply's size is printed as soon as it is final (every earlier ply answered).

Each answer (`answer_job`, one job per position): the known results of ../shared/rules.md
(Black's centre, Black's proven third moves) as they are; otherwise the exact solver gets the
ply's --solver-cpu first, and a proven win is played (for Black every win the budget proves is
taken); a proven loss goes to `answer_lost_position`; else the agent's own search
(root-parallel MCTS with the agent's evaluator and settings) gets the ply's --search-cpu per
worker. Every entry records where its answer came from (see ENTRY FIELDS below).

Jobs run through one executor: local processes (--jobs N, default 2) or a Ray cluster
(--ray ADDRESS, `make install-cluster`). The book file is rewritten atomically after every
answer, so it is valid at every moment and an interrupted build resumes where it stopped: run
the same command again. Answers already in the file are kept (--fresh starts over). The
default budgets fit about 3 CPU hours (each ply's ceiling is printed before it starts); a user
with a cluster raises them per ply (`--search-cpu 6=16`).
"""

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import signal
import sys
import time
import zlib

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import course_io  # noqa: E402
import endgame  # noqa: E402
import go_board  # noqa: E402
import my_player  # noqa: E402
import opening_book  # noqa: E402
# An entry's source field and its values (the book format's, read by the GTP engine's analysis).
from opening_book import KNOWN, PROVEN_LOSS, PROVEN_WIN, SEARCHED, SOURCE  # noqa: E402
from go_board import from_coord  # noqa: E402
from mcts.go_game import GoState, PlayoutEvaluator  # noqa: E402
from mcts.parallel import root_parallel_search  # noqa: E402
from mcts.stopping import StopRules  # noqa: E402

CENTRE = from_coord(2, 2)
# rules.md, "Known exact results": Black's winning third move after B(2,2) and W's reply (one
# per symmetry class; rules.md's second move in a class is this one's mirror image).
KNOWN_THIRD_MOVES = {(0, 0): (2, 3), (0, 1): (1, 2), (1, 1): (1, 2), (1, 2): (2, 1)}
# Default CPU seconds per position and ply. The search's is per worker (one worker per job by
# default: the jobs fill the cores). A move in play gets at most my_player.DEFAULT_MOVE_CPU.
# Positions per ply in the default build: 1, 6, 6 (4 known), 73, 117, 910. Ply 6 gets what a
# ply-6 move gets in play (8.5 s, there split over two workers) in one tree; the solver proves
# nothing 18 plies from the end, so its share there is a token. These defaults come to 11,400
# CPU s (3.2 h) at most; the committed book's plies 4-6 took 6,242 in the jobs (under pypy3;
# plies 2-3 were searched by an earlier build), the searches' early stops saving the rest.
DEFAULT_SOLVER_CPU = {2: 20.0, 3: 20.0, 4: 1.0, 5: 1.0, 6: 0.25}
DEFAULT_SEARCH_CPU = {2: 130.0, 3: 130.0, 4: 12.0, 5: 12.0, 6: 8.25}
# The search stops on its CPU budget; the wall limit only guards against a stuck job, and is
# generous because a build under `nice` may get a small share of a busy machine.
WALL_PER_CPU = 50.0

# ENTRY FIELDS, besides opening_book.MOVE (the answer, in the key's frame):
PLY = "ply"
LINE = "line"            # moves from the empty board to the position, in the key's frame
MARGIN = "margin"        # proven sources: the exact final margin in points for the mover
                         # (None when the budget proved the result but not the margin)
SOLVER_CPU = "solver_cpu"  # the solver's budget (0 for known results)
SEARCH = "search"        # searched answers (proven losses too, when the solver could not
                         # rank the losing moves): budget, simulations, visit share, value
CPU_USED = "cpu_used"    # CPU seconds the job took


def our_positions():
    """`(line, position)` for the positions we answer without a book answer before them:
    Black's first move and, as White, every Black first move but the pass (it ends the game)."""
    empty = go_board.Position()
    return [([], empty)] + [([go_board.move_to_text(move)], empty.play(move))
                            for move in empty.legal_placements()]


def reachable(book, max_ply):
    """{ply: {key: (line, position)}}: every position our book answers lead to, through max_ply.

    A position without an answer yet is listed but not expanded: its replies follow once it
    is answered.
    """
    by_ply = {}
    frontier = our_positions()
    while frontier:
        line, position = frontier.pop()
        if position.ply > max_ply or position.is_over:
            continue
        key = opening_book.canonical(position)[0]
        level = by_ply.setdefault(position.ply, {})
        if key in level:
            continue
        level[key] = (line, position)
        move = opening_book.lookup(position, book)
        if move is None:
            continue
        after = position.play(move)
        if after.is_over:
            continue
        line = line + [go_board.move_to_text(move)]
        for reply in after.legal_moves():
            frontier.append((line + [go_board.move_to_text(reply)], after.play(reply)))
    return by_ply


def known_answer(position):
    """rules.md's move for the position, or None."""
    if position.ply == 1:
        return CENTRE
    if position.ply == 3 and position.black == 1 << CENTRE and position.white:
        for symmetry in range(go_board.NUM_SYMMETRIES):
            image = position.transformed(symmetry)
            reply = go_board.to_coord(image.white.bit_length() - 1)
            if reply in KNOWN_THIRD_MOVES:
                answer = from_coord(*KNOWN_THIRD_MOVES[reply])
                return go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answer]
    return None


def position_after(line):
    position = go_board.Position()
    for text in line:
        position = position.play(opening_book.parse_answer(text))
    return position


def proof(position, cpu):
    """`(source, move, margin)` from the exact solver within `cpu` seconds, or None.

    A proven win is played: the move with the best exact margin when the budget allows it, else
    the first winning move found (a placement if any wins, else the pass).
    A proven loss gets its move from `answer_lost_position` (None: the search chooses).
    """
    solver = endgame.ExactSolver(time.process_time() + cpu)
    try:
        winner = solver.winning_move(position)
    except endgame.OutOfTime:
        return None
    if winner is None:
        return (PROVEN_LOSS,) + answer_lost_position(solver, position)
    try:
        move, half_points = solver.best_move(position)
    except endgame.OutOfTime:
        return PROVEN_WIN, winner, None
    return PROVEN_WIN, move, half_points / 2.0


def answer_lost_position(solver, position):
    """`(move, margin)` for a position every move loses: the exact search's best try (the move
    leaving the opponent the fewest winning replies), margin unknown; `(None, None)` leaves the
    choice to the search when the budget ran out first."""
    return solver.best_try(position), None


def agent_search(position, cpu, workers, seed, stop=None, simulations=None):
    """root_parallel_search's `(children, simulations, workers_used)` for `position`: the
    agent's own search (its evaluator and settings) with `cpu` seconds per worker, and at most
    `simulations` per worker when given (then the same seed gives the same statistics)."""
    settings = my_player.Settings({"LITTLEGO_BOOK": "0"})  # the search's settings; no book to read
    return root_parallel_search(
        GoState(position), PlayoutEvaluator(settings.knowledge), seed, workers, cpu,
        cpu * WALL_PER_CPU + 60.0, exploration=settings.exploration, stop=stop,
        max_simulations=simulations)


def searched(position, cpu, workers, seed):
    """`(move, search record)`: the agent's own search with `cpu` seconds per worker."""
    children, simulations, workers_used = agent_search(
        position, cpu, workers, seed,
        stop=StopRules(sure_win=my_player.SURE_WIN_VALUE,
                       sure_win_after=my_player.SURE_WIN_SIMULATIONS))
    move = my_player.searched_move(position, children)
    if move is None:
        move = position.legal_placements()[0]
    chosen = [stats for stats in children if stats.action == move]
    visits = sum(stats.visits for stats in children)
    record = {"cpu_per_worker": cpu, "workers": workers_used, "simulations": simulations,
              "visit_share": round(chosen[0].visits / visits, 4) if chosen and visits else None,
              "value": round(chosen[0].value_sum / chosen[0].visits, 4)
              if chosen and chosen[0].visits else None}
    return move, record


def answer_job(line, solver_cpu, search_cpu, workers, seed):
    """The book entry for the position `line` reaches (in that frame). Runs in a worker."""
    started = my_player.tree_cpu_seconds()
    position = position_after(line)
    entry = {PLY: position.ply, LINE: list(line), SOLVER_CPU: 0.0}
    move = known_answer(position)
    if move is not None:
        entry.update({SOURCE: KNOWN, MARGIN: None})
    else:
        entry[SOLVER_CPU] = solver_cpu
        proven = proof(position, solver_cpu) if solver_cpu > 0 else None
        if proven is not None:
            entry[SOURCE], move, entry[MARGIN] = proven
        if move is None:
            move, entry[SEARCH] = searched(position, search_cpu, workers, seed)
            entry.setdefault(SOURCE, SEARCHED)
    entry[opening_book.MOVE] = go_board.move_to_text(move)
    entry[CPU_USED] = round(my_player.tree_cpu_seconds() - started, 2)
    return entry


def in_key_frame(position, line, entry):
    """`(key, entry)` with the move and the line mapped into the canonical key's frame."""
    key, symmetry = opening_book.canonical(position)
    image = go_board.SYMMETRIC_POINT[symmetry]
    mapped = dict(entry)
    mapped[LINE] = [go_board.move_to_text(image[opening_book.parse_answer(text)]) for text in line]
    mapped[opening_book.MOVE] = go_board.move_to_text(
        image[opening_book.parse_answer(entry[opening_book.MOVE])])
    return key, mapped


def coverage(book, by_ply):
    """{ply: [answered, total known so far]}; a ply's total is final once every ply before it
    is fully answered."""
    return {ply: [sum(key in book for key in level), len(level)]
            for ply, level in sorted(by_ply.items())}


def complete_through(counts, max_ply):
    """The last ply through which every reachable position is answered, from `coverage`."""
    for ply in range(1, max_ply + 1):
        answered, total = counts.get(ply, (0, 0))
        if answered < total:
            return ply - 1
    return max_ply


def write_book(path, content):
    course_io.write_atomically(path, json.dumps(content, indent=0, sort_keys=True))


def read_existing(path):
    """The answers of an earlier (possibly interrupted) build, else {}."""
    try:
        with open(path) as handle:
            content = json.load(handle)
    except (IOError, OSError, ValueError):
        return {}
    positions = content.get("positions") if isinstance(content, dict) else None
    if not isinstance(positions, dict):
        return {}
    return {key: entry for key, entry in positions.items()
            if isinstance(entry, dict) and SOURCE in entry}


class Build(object):
    """One build's book, settings and progress; `save` writes the file as it stands."""

    def __init__(self, args, book, log):
        self.args = args
        self.book = book
        self.log = log
        self.cpu_spent = sum(entry.get(CPU_USED, 0.0) for entry in book.values())
        self.final_plies = set()

    def save(self, counts):
        # `max_ply` is what opening_book.read gives as answered_plies: the plies answered in full.
        settings = {"target_ply": self.args.max_ply, "seed": self.args.seed,
                    "workers": self.args.workers,
                    "solver_cpu": self.args.solver_cpu, "search_cpu": self.args.search_cpu,
                    "max_ply": complete_through(counts, self.args.max_ply),
                    "cpu_seconds": round(self.cpu_spent, 1),
                    "coverage": {str(ply): count for ply, count in counts.items()}}
        write_book(self.args.out, {"built_with": settings, "positions": self.book})

    def add(self, position, line, entry):
        key, entry = in_key_frame(position, line, entry)
        self.book[key] = entry
        self.cpu_spent += entry[CPU_USED]
        self.log("ply {} {} -> {} ({}, {:.1f} s CPU; {} answers, {:.0f} s CPU so far)".format(
            entry[PLY], " ".join(entry[LINE]) or "(empty board)", entry[opening_book.MOVE],
            entry[SOURCE], entry[CPU_USED], len(self.book), self.cpu_spent))

    def announce(self, counts, by_ply):
        """Print each ply's size once it is final: every position of a ply follows from an
        answer two plies before it."""
        for ply, (answered, total) in sorted(counts.items()):
            if ply in self.final_plies or complete_through(counts, self.args.max_ply) < ply - 2:
                continue
            self.final_plies.add(ply)
            solver_cpu, search_cpu = budgets_for(self.args, ply)
            to_search = sum(key not in self.book and known_answer(position) is None
                            for key, (_, position) in by_ply[ply].items())
            self.log("ply {}: {} positions, {} to answer, {} of them by search (solver {:g} s, "
                     "search {:g} s x {} workers each: at most {:.0f} CPU s)".format(
                         ply, total, total - answered, to_search, solver_cpu, search_cpu,
                         self.args.workers, to_search * (solver_cpu + search_cpu * self.args.workers)))


def job_seed(seed, key):
    return seed + zlib.crc32(key.encode("ascii"))


def budgets_for(args, ply):
    return args.solver_cpu.get(ply, 0.0), args.search_cpu.get(ply, 0.0)


def build(args, executor, job=answer_job, log=print):
    """Answer every reachable position, at most --jobs at a time, lowest ply first; returns
    the book. A position is submitted as soon as the answer before it is known, so a partial
    book is complete from ply 1 up to some ply."""
    run = Build(args, {} if args.fresh else read_existing(args.out), log)
    if run.book:
        log("resuming: {} answers already in {}".format(len(run.book), args.out))
    in_flight = {}
    while True:
        by_ply = reachable(run.book, args.max_ply)
        counts = coverage(run.book, by_ply)
        run.save(counts)
        run.announce(counts, by_ply)
        busy = {key for key, _, _ in in_flight.values()}
        pending = [(ply, key) for ply, level in by_ply.items() for key in level
                   if key not in run.book and key not in busy]
        known = [(ply, key) for ply, key in pending if known_answer(by_ply[ply][key][1])]
        for ply, key in known:  # free: answered here, at once, not queued behind searches
            line, position = by_ply[ply][key]
            run.add(position, line, job(line, 0.0, 0.0, args.workers, job_seed(args.seed, key)))
        if known:
            continue
        for ply, key in sorted(pending)[:max(args.jobs - len(in_flight), 0)]:
            line, position = by_ply[ply][key]
            solver_cpu, search_cpu = budgets_for(args, ply)
            future = executor.submit(job, line, solver_cpu, search_cpu, args.workers,
                                     job_seed(args.seed, key))
            in_flight[future] = (key, line, position)
        if not in_flight:
            return run.book
        done, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
        for future in done:
            _, line, position = in_flight.pop(future)
            run.add(position, line, future.result())


def ply_budgets(text):
    """`2=900,3=600` -> {2: 900.0, 3: 600.0}."""
    budgets = {}
    for item in text.split(","):
        ply, _, seconds = item.partition("=")
        budgets[int(ply)] = float(seconds)
    return budgets


def budgets_text(budgets):
    return ",".join("{}={:g}".format(ply, seconds) for ply, seconds in sorted(budgets.items()))


class RayExecutor(object):
    """The executor interface over a Ray cluster: `submit` returns a concurrent Future."""

    def __init__(self, address):
        import ray  # optional: `make install-cluster`
        self.ray = ray
        ray.init(address=address, runtime_env={
            "working_dir": REPO_ROOT, "excludes": [".venv", ".git", "runs", "dist"]},
            log_to_driver=False)
        self.remote = {}

    def submit(self, function, *args):
        if function not in self.remote:
            self.remote[function] = self.ray.remote(function)
        return self.remote[function].remote(*args).future()

    def shutdown(self, wait=True, cancel_futures=False):
        self.ray.shutdown()


class LocalExecutor(object):
    """The executor interface over local worker processes; `shutdown` ends running jobs too
    (an interrupted build must not leave searches behind)."""

    def __init__(self, jobs):
        self.pool = multiprocessing.Pool(jobs)

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        self.pool.apply_async(function, args, callback=future.set_result,
                              error_callback=future.set_exception)
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        self.pool.terminate()
        self.pool.join()


def make_executor(args):
    if args.ray:
        return RayExecutor(args.ray)
    return LocalExecutor(args.jobs)


def interrupt(signum, frame):
    raise KeyboardInterrupt()


def log_line(message):
    print(message, flush=True)  # a build's log is often a file: each answer as it comes


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-ply", type=int, default=opening_book.BOOK_PLIES)
    parser.add_argument("--solver-cpu", type=ply_budgets, default=DEFAULT_SOLVER_CPU,
                        help="exact solver CPU seconds per position, per ply (default: {})".format(
                            budgets_text(DEFAULT_SOLVER_CPU)))
    parser.add_argument("--search-cpu", type=ply_budgets, default=DEFAULT_SEARCH_CPU,
                        help="search CPU seconds per worker per position, per ply "
                             "(default: {})".format(budgets_text(DEFAULT_SEARCH_CPU)))
    parser.add_argument("--workers", type=int, default=1, help="search processes per job")
    parser.add_argument("--jobs", type=int, default=2,
                        help="positions answered at once (on Ray: the cluster's cores)")
    parser.add_argument("--ray", metavar="ADDRESS", help="run the jobs on this Ray cluster")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh", action="store_true", help="ignore answers already in --out")
    parser.add_argument("--out", default=opening_book.BOOK_PATH)
    args = parser.parse_args(argv)
    args.solver_cpu = {int(ply): seconds for ply, seconds in args.solver_cpu.items()}
    args.search_cpu = {int(ply): seconds for ply, seconds in args.search_cpu.items()}
    return args


def run_jobs(args, work, path):
    """`work(executor)` on --jobs local processes or the --ray cluster, stopped cleanly by ^C or
    `kill PID`; None when interrupted, after saying that the file at `path` resumes."""
    executor = make_executor(args)
    # After the workers start: they keep the default SIGTERM, which `shutdown` sends them.
    signal.signal(signal.SIGTERM, interrupt)
    try:
        return work(executor)
    except KeyboardInterrupt:
        print("interrupted; what is done so far is in {}: run the same command to resume".format(
            path))
        return None
    finally:
        executor.shutdown(wait=False, cancel_futures=True)


def main(argv=None):
    args = parse_args(argv)
    started = time.time()
    book = run_jobs(args, lambda executor: build(args, executor, log=log_line), args.out)
    if book is None:
        return 130
    with open(args.out) as handle:
        content = json.load(handle)["built_with"]
    print("{} positions in {}; coverage per ply (answered, total): {}; {:.0f} CPU seconds in "
          "the jobs (all runs), {:.0f} in this run's driver (enumeration, writing the file); "
          "{:.0f} s wall for this run".format(
              len(book), args.out, content["coverage"], content["cpu_seconds"],
              time.process_time(), time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
