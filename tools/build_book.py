"""Build opening_book.json: the known exact results, then our own search for the rest.

Usage: python3 tools/build_book.py [--max-ply 3] [--cpu 20] [--workers 2] [--seed 1]

Lines: Black opens at the centre (a proven win; every other opening is a proven loss, see
../shared/rules.md). For every opponent reply (one per symmetry class) up to --max-ply, our
answer is the known winning move where rules.md gives one, else the move a root-parallel MCTS
chooses with --cpu seconds per worker. As White, every Black first move is answered, and each
answer's Black replies too while the ply is within --max-ply. Re-running with the same seed and
budgets re-creates the same lines; CPU budgets make the searches themselves vary a little.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import go_board  # noqa: E402
import opening_book  # noqa: E402
from go_board import from_coord  # noqa: E402
from mcts import core  # noqa: E402
from mcts.go_game import GoState, PlayoutEvaluator  # noqa: E402
from mcts.parallel import root_parallel_search  # noqa: E402

CENTRE = from_coord(2, 2)
# rules.md, "Known exact results": Black's winning third moves after B(2,2) and W's reply.
KNOWN_THIRD_MOVES = {(0, 0): (2, 3), (0, 1): (1, 2), (1, 1): (1, 2), (1, 2): (2, 1)}


def distinct_replies(position):
    """One legal placement per symmetry class of the resulting position."""
    seen, replies = set(), []
    for move in position.legal_placements():
        key = opening_book.canonical(position.play(move))[0]
        if key not in seen:
            seen.add(key)
            replies.append(move)
    return replies


def known_answer(position):
    if position.ply == 1:
        return CENTRE
    if position.ply == 3 and position.black == 1 << CENTRE:
        for symmetry in range(go_board.NUM_SYMMETRIES):
            image = position.transformed(symmetry)
            if image.black == 1 << CENTRE and image.white:
                reply = go_board.to_coord(image.white.bit_length() - 1)
                if reply in KNOWN_THIRD_MOVES:
                    answer = from_coord(*KNOWN_THIRD_MOVES[reply])
                    return go_board.SYMMETRIC_POINT[go_board.INVERSE_SYMMETRY[symmetry]][answer]
    return None


def searched_answer(position, args):
    children, simulations, _ = root_parallel_search(
        GoState(position), PlayoutEvaluator(), args.seed + position.ply, args.workers,
        args.cpu, args.cpu * 3 + 5)
    placements = [stats for stats in children if stats.action != go_board.PASS]
    return core.best_action(placements), simulations


def build(args):
    book = {}
    frontier = [go_board.Position()]
    frontier += [go_board.Position().play(move) for move in distinct_replies(go_board.Position())]
    while frontier:
        position = frontier.pop(0)
        key = opening_book.canonical(position)[0]
        if key in book or position.ply > args.max_ply:
            continue
        started = time.process_time()
        answer = known_answer(position)
        how = "known"
        if answer is None:
            answer, simulations = searched_answer(position, args)
            how = "searched, {} simulations".format(simulations)
        book[key] = opening_book.entry(position, answer)[1]
        after = position.play(answer)
        print("ply {} {} -> {} ({}, {:.1f}s)".format(
            position.ply, go_board.COLOUR_NAMES[position.to_move], go_board.move_to_text(answer),
            how, time.process_time() - started), flush=True)
        if after.ply < args.max_ply:
            frontier += [after.play(reply) for reply in distinct_replies(after)]
    return book


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-ply", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=20.0, help="CPU seconds per worker per position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=opening_book.BOOK_PATH)
    args = parser.parse_args()
    book = build(args)
    with open(args.out + ".tmp", "w") as handle:
        settings = {name: value for name, value in vars(args).items() if name != "out"}
        json.dump({"built_with": settings, "positions": book}, handle, indent=0, sort_keys=True)
    os.replace(args.out + ".tmp", args.out)
    print("{} positions written to {}".format(len(book), args.out))


if __name__ == "__main__":
    main()
