"""Build opening_book.json: the known exact results, our own search, then answers learned from games.

Usage: python3 tools/build_book.py [--max-ply 3] [--cpu 20] [--workers 2] [--seed 1]
       python3 tools/build_book.py --learn GAMES.jsonl [GAMES.jsonl ...] [--learner my_player.py]

Lines: Black opens at the centre (a proven win; every other opening is a proven loss, see
../shared/rules.md). For every opponent reply (one per symmetry class) up to --max-ply, our
answer is the known winning move where rules.md gives one, else the move a root-parallel MCTS
chooses with --cpu seconds per worker. As White, every Black first move is answered, and each
answer's Black replies too while the ply is within --max-ply. Re-running with the same seed and
budgets re-creates the same lines; CPU budgets make the searches themselves vary a little.

Learning (--learn) keeps the built book and adds answers for the plies after --max-ply, up to
the book's window (opening_book.BOOK_PLIES), from recorded games (`host.py match --out DIR`
writes DIR/games.jsonl): for each position the learner (the side whose player name contains
--learner) had to answer, the moves it played are tallied with their results, and the move
whose Wilson 95% lower bound on its win rate is best is stored if that bound is at least
LEARNED_MIN_WIN_RATE. This is how the book avoids a move that our search likes but strong
opponents refute: the search alone played Black's edge extension at ply 5 in the diagonal line
and lost all 19 games after it against alphabeta4, and won nearly all with the other moves.
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
from referee.stats import wilson_interval  # noqa: E402

CENTRE = from_coord(2, 2)
# rules.md, "Known exact results": Black's winning third moves after B(2,2) and W's reply.
KNOWN_THIRD_MOVES = {(0, 0): (2, 3), (0, 1): (1, 2), (1, 1): (1, 2), (1, 2): (2, 1)}
# A learned answer must win at least this often (lower 95% bound) over its recorded games.
LEARNED_MIN_WIN_RATE = 0.5
SIDE_NAMES = {go_board.BLACK: "black", go_board.WHITE: "white"}


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


def tally_answers(paths, learner, first_ply, last_ply):
    """{canonical key: {answer: [wins, games]}} for the learner's moves at those plies."""
    tallies = {}
    for path in paths:
        with open(path) as handle:
            for line in handle:
                record = json.loads(line)
                sides = [colour for colour, side in SIDE_NAMES.items() if learner in record[side]]
                if len(sides) != 1:
                    continue  # the learner plays both sides, or neither: nothing to learn
                position = go_board.Position()
                for text in record["moves"][:last_ply]:
                    move = opening_book.parse_answer(text)
                    if position.to_move == sides[0] and position.ply >= first_ply:
                        key, answer = opening_book.entry(position, move)
                        tally = tallies.setdefault(key, {}).setdefault(answer, [0, 0])
                        tally[0] += record["winner"] == sides[0]
                        tally[1] += 1
                    position = position.play(move)
    return tallies


def learned_answers(tallies):
    """{key: (answer, wins, games)}: the answer with the best lower bound, where it is good enough."""
    learned = {}
    for key, answers in tallies.items():
        bound, answer = max((wilson_interval(wins, games)[0], answer)
                            for answer, (wins, games) in answers.items())
        if bound >= LEARNED_MIN_WIN_RATE:
            learned[key] = (answer,) + tuple(answers[answer])
    return learned


def write_book(path, content):
    with open(path + ".tmp", "w") as handle:
        json.dump(content, handle, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)


def learn(args):
    content = {"built_with": {}, "positions": {}}
    if os.path.exists(args.out):
        with open(args.out) as handle:
            content = json.load(handle)
    first_ply = opening_book.answered_plies(args.out) + 1
    tallies = tally_answers(args.learn, args.learner, first_ply, opening_book.BOOK_PLIES)
    learned = learned_answers(tallies)
    for key, (answer, wins, games) in sorted(learned.items()):
        content["positions"][key] = answer
        print("learned {} -> {}: {} of {} games won".format(key, answer, wins, games))
    content["learned_from"] = {"games": sorted(args.learn), "learner": args.learner,
                               "plies": [first_ply, opening_book.BOOK_PLIES],
                               "positions": len(learned)}
    write_book(args.out, content)
    print("{} learned answers written to {}".format(len(learned), args.out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-ply", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=20.0, help="CPU seconds per worker per position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learn", nargs="+", metavar="GAMES_JSONL",
                        help="keep the book and add answers learned from these recorded games")
    parser.add_argument("--learner", default="my_player.py",
                        help="the learner's player name contains this (default: %(default)s)")
    parser.add_argument("--out", default=opening_book.BOOK_PATH)
    args = parser.parse_args()
    if args.learn:
        learn(args)
        return
    book = build(args)
    settings = {name: value for name, value in vars(args).items()
                if name not in ("out", "learn", "learner")}
    write_book(args.out, {"built_with": settings, "positions": book})
    print("{} positions written to {}".format(len(book), args.out))


if __name__ == "__main__":
    main()
