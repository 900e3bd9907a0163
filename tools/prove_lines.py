"""Proven lines past the book: the mover's proven winning moves against the likely replies.

Usage: pypy3 tools/prove_lines.py [--side black|white] [--jobs 2 | --ray ADDRESS]
                 [--from-ply P] [--to-ply P] [--after MOVES] [--replies 3]
                 [--rank-simulations 50000] [--cap SECONDS] [--book opening_book.txt]

Start at `extend`. The opening book answers every position through ply 6; after it the side to
move must often find the only winning move of twenty, which the middle-game search misses and
the agent's exact search reaches only from 14 plies left (ply 11). This tool solves those
positions offline and adds them to the book. `--side` picks the defaults (`SIDES`):
- black: Black (who wins 5x5 Little-Go from the centre) from the book's last Black ply, 5, to
  ply 9: the proven seventh and ninth moves;
- white: White from the book's last White ply, 6, to ply 10, after Black's centre (`--after
  2,2`; lines are matched as the book stores them, in its key's frame): a lost White wins only
  when Black goes wrong, and these are the positions where it has, caught at plies 8 and 10.
The lines:
- the start: every book position at `--from-ply` whose line begins with `--after`, its book
  answer played;
- after each of our moves, the opponent's `--replies` most likely replies by the agent's own
  search (`--rank-simulations` simulations of root-parallel MCTS, one worker, our evaluator
  and settings, a fixed seed, so the ranking repeats; nothing here comes from an opponent's
  games), each giving a position of ours two plies later;
- each such position up to `--to-ply` is solved exactly (`endgame.ExactSolver`, win/loss, `--cap`
  CPU seconds at most): a proven win is stored with its winning move (source "proven win") and
  expanded; a proven loss or a position out of time is not stored (the agent searches it in
  play) and not expanded.
Entries are the book's (tools/build_book.py's fields, in the book's provenance sidecar, from
which the packed book is written again: `build_book.write_book`); the book's answered plies are
unchanged. Both files are rewritten atomically after every answer and a run resumes: positions already proven are not
solved again (their replies are ranked again, about a second each; a position not proven is
tried again). Run under PyPy (the solver is pure Python, about 4x faster there): a Black ply-7
position took 20 s at the median and 66 s at most, a ply-9 one 3.6 s at the median, a White
ply-8 one 2.7 s (2026-11-23). The committed book's lines were ranked by 1 s of CPU instead (not
repeatable: 18,000 to 58,000 simulations under PyPy), so a rebuild may add lines beside them.
"""

import argparse
import concurrent.futures
import json
import os
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import endgame  # noqa: E402
import go_board  # noqa: E402
import opening_book  # noqa: E402
from tools import build_book  # noqa: E402

# Each side's defaults: the book's last ply of that side, the last ply solved, the start lines'
# first moves, the CPU cap of one proof. White's positions are mostly lost (Black keeps the win
# with its likeliest replies), and a loss costs a full refutation: its cap is lower.
SIDES = {"black": {"from_ply": 5, "to_ply": 9, "after": "", "cap": 300.0},
         "white": {"from_ply": 6, "to_ply": 10, "after": "2,2", "cap": 60.0}}
REPLIES = 3
# The ranking search: a fixed number of simulations (about 1 s of PyPy once warm), so that a
# resumed or repeated build ranks the same replies; the CPU cap only guards against a slow host.
RANK_SIMULATIONS = 50000
RANK_CPU_CAP = 120.0
RANK_SEED = 1


def likely_replies(position, count, simulations, seed):
    """The `count` placements the agent's own search visits most in `position` (most first),
    after `simulations` simulations of one worker: the same answer for the same arguments."""
    children, _, _ = build_book.agent_search(position, RANK_CPU_CAP, 1, seed,
                                             simulations=simulations)
    ranked = sorted((stats for stats in children if stats.action != go_board.PASS),
                    key=lambda stats: (-stats.visits, stats.action))
    return [stats.action for stats in ranked[:count]]


def prove_job(line, known_move, cap, replies, rank_simulations, expand, seed):
    """`(entry or None, next lines)` for the position of ours `line` reaches. Runs in a worker.

    `known_move` (text): the book's answer, played as it is (entry None); else the position is
    solved and a proven win gives the entry. `expand`: also rank the opponent's replies after
    our move (the next lines of ours)."""
    started = time.process_time()
    position = build_book.position_after(line)
    entry = None
    if known_move is not None:
        move = opening_book.parse_answer(known_move)
    else:
        solver = endgame.ExactSolver(started + cap)
        try:
            move = solver.winning_move(position)
        except endgame.OutOfTime:
            move = None
        if move is not None:
            entry = {build_book.PLY: position.ply, build_book.LINE: list(line),
                     build_book.SOURCE: build_book.PROVEN_WIN, build_book.MARGIN: None,
                     build_book.SOLVER_CPU: cap, build_book.MOVE: go_board.move_to_text(move)}
    next_lines = []
    if move is not None and expand:
        after = position.play(move)
        if not after.is_over:
            ours = line + [go_board.move_to_text(move)]
            next_lines = [ours + [go_board.move_to_text(reply)]
                          for reply in likely_replies(after, replies, rank_simulations, seed)]
    if entry is not None:
        entry[build_book.CPU_USED] = round(time.process_time() - started, 2)
    return entry, next_lines


def extend(args, executor, log=print):
    """Solve ply by ply (--from-ply, then every second ply to --to-ply); returns
    {ply: [proven won now, positions]}."""
    content = build_book.read_provenance(args.book)
    book = content["positions"]
    after = args.after.split() if args.after else []
    lines = sorted(entry[build_book.LINE] for entry in book.values()
                   if entry.get(build_book.PLY) == args.from_ply
                   and entry[build_book.LINE][:len(after)] == after)
    counts = {}
    for ply in range(args.from_ply, args.to_ply + 1, 2):
        unique = {}
        for line in lines:
            unique.setdefault(build_book.book_key(build_book.position_after(line)), line)
        expand = ply + 2 <= args.to_ply
        futures = {}
        next_lines = []
        for key, line in sorted(unique.items()):
            known = book.get(key)
            known_move = None
            if known is not None and (ply == args.from_ply or
                                      known.get(build_book.SOURCE) == build_book.PROVEN_WIN):
                if not expand:
                    continue
                known_move = build_book.book_move(build_book.position_after(line), book)
                known_move = go_board.move_to_text(known_move)
            futures[executor.submit(prove_job, line, known_move, args.cap, args.replies,
                                    args.rank_simulations, expand, RANK_SEED)] = (key, line)
        proven = 0
        for future in concurrent.futures.as_completed(futures):
            key, line = futures[future]
            entry, more = future.result()
            next_lines.extend(more)
            if entry is not None:
                key, entry = build_book.in_key_frame(build_book.position_after(line), line, entry)
                book[key] = entry
                proven += 1
                build_book.write_book(args.book, content)
                log("ply {} {} -> {} (proven win, {:.1f} s CPU)".format(
                    ply, " ".join(line), entry[build_book.MOVE], entry[build_book.CPU_USED]))
            elif known_move is None:
                log("ply {} {}: not proven won (lost or out of time)".format(ply, " ".join(line)))
        counts[ply] = [proven, len(unique)]
        log("ply {}: {} positions, {} proven won now".format(ply, len(unique), proven))
        lines = next_lines
    return counts


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", choices=sorted(SIDES), default="black",
                        help="whose lines: the defaults of --from-ply, --to-ply, --after, --cap")
    parser.add_argument("--jobs", type=int, default=2, help="positions solved at once")
    parser.add_argument("--ray", metavar="ADDRESS", help="run the jobs on this Ray cluster")
    parser.add_argument("--from-ply", type=int)
    parser.add_argument("--to-ply", type=int)
    parser.add_argument("--after", help="the start lines' first moves, space-separated, e.g. '2,2'")
    parser.add_argument("--cap", type=float, help="CPU seconds per proof")
    parser.add_argument("--replies", type=int, default=REPLIES)
    parser.add_argument("--rank-simulations", type=int, default=RANK_SIMULATIONS)
    parser.add_argument("--book", default=opening_book.BOOK_PATH)
    args = parser.parse_args(argv)
    for name, default in SIDES[args.side].items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    return args


def main(argv=None):
    args = parse_args(argv)
    counts = build_book.run_jobs(
        args, lambda executor: extend(args, executor, log=build_book.log_line), args.book)
    if counts is None:
        return 130
    print("proven won now, of the positions per ply: {}".format(json.dumps(counts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
