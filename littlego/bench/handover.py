"""The seam between the book and the in-game exact search, sampled as strong games make it.

Usage: littlego handover [--positions 2000] [--seed 1] [--jobs 2] [--python PATH]
                         [--game-files FILE ...] [--records FILE] [--quiet]
                         [--replay FILE] [--baseline DIR]

Start at `main`. A won game runs through this seam: the book answers the winner through its last
ply, then the agent's own search must keep the win, within one move's CPU on the grader's Python
3.7. A strong opponent steers into knife edges, where one move wins and proving it costs the
most; random replies meet them rarely. So the positions come from lines (`seam_line`) on which
- the winner follows the book, past it the compiled solver's winning move;
- the loser plays uniformly at random through ply ADVERSARY_FROM_PLY - 1, then, ADVERSARY_RATE
  of the time, the move that leaves the winner the fewest winning replies (`adversary_move`,
  what a searching opponent's best try looks like), else a uniform one;
and each line gives the winner's positions at the first SEAM_MOVES of its plies past the book
(for White 12, 14, 16 with today's book; for Black 13, 15, 17). The lines start where real games
enter the book's strategies (`SOURCES`): White after each of Black's 24 losing first moves (the
forced-opening games), after Black's ply-3 mistakes, after Black's slips along White's
repertoire, and Black after its centre. `--game-files` adds the won positions of recorded games
(games.jsonl records, e.g. recorded_games/ or a ladder's) at the same plies. `--replay` decides
the positions of an earlier run's --records again instead (the same positions before and after a
change: the book or the agent).

Every position is then decided by the agent itself (decide_positions.py: `agent.decide`, the
book first, with a fresh exact-search table as in a new per-move process) under the grader's
Python 3.7 (or --python), with the plan the time manager makes for that ply (`agent.plan_move`;
LITTLEGO_MOVE_CPU=4.25 is a grader half as fast) counted from a start CPU_BEFORE_DECIDING before
the decision, on --jobs processes. `--baseline DIR` has another checkout's agent decide the same
positions at the same time, the processes shared between the two: before and after, side by
side in one run. The compiled solver judges each move. Printed as JSON lines: per source and
ply, how many positions the book, a rule or the exact search decided, how many were left to
MCTS, how many proven wins the move threw away, how many winning moves fell short of the
largest margin and the points they gave away (margin play, by the compiled solver's values,
where the exact search acts), the whole move's CPU (median, 95th percentile,
max: margin play fills what the proof leaves) and the CPU to the proof (`cpu_to_proof`: median,
95th and 99th percentiles, max); then the whole, the baseline's before this checkout's. Exit
status 1 when this checkout's agent threw a win or went over a move's budget.
"""

import argparse
import collections
import glob
import json
import os
import random
import statistics
import subprocess
import sys

import decision_log
import endgame
import go_board
import opening_book
from go_board import BLACK, WHITE
from littlego import solver
from littlego.grader.interpreters import grader_python
from littlego.paths import REPO_ROOT
from littlego.progress import Progress, add_quiet_option
from littlego.referee.stats import percentile
from littlego.solver import repertoire, strategy

# The loser plays uniformly before this ply, then seeks knife edges: from ply 9 a best try costs
# the compiled solver about 0.1 s (every reply of the winner proven after each of its moves).
ADVERSARY_FROM_PLY = 9
ADVERSARY_RATE = 0.75
# Each line gives the winner's positions at its first plies past the book, this many of them.
SEAM_MOVES = 3
# CPU a per-move process on Python 3.7 has spent when it starts deciding (interpreter, imports,
# settings, input.txt, the book's header): 0.02-0.04 s measured; the rest of a move's budget is
# the decision's.
CPU_BEFORE_DECIDING = 0.05
# Where the lines start: source name -> (the winner, the share of the lines it gets).
SOURCES = collections.OrderedDict([
    ("white-after-first-moves", (WHITE, 0.35)),  # Black's 24 losing first moves, uniformly
    ("white-after-mistakes", (WHITE, 0.25)),     # Black's centre, then a ply-3 move that loses
    ("white-after-slips", (WHITE, 0.10)),        # a slip of Black's along White's repertoire
    ("black", (BLACK, 0.30)),                    # Black's centre, White anywhere
])
GAMES_SOURCE = "games"
RECORDED_GAMES = os.path.join(REPO_ROOT, "recorded_games", "*.jsonl")
# The worker that decides positions as a per-move process would (run by path: with --baseline it
# must import another checkout's agent, see its docstring).
DECIDE_PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "decide_positions.py")
DECIDED_SOURCES = (decision_log.SOURCE_BOOK, decision_log.SOURCE_EXACT,
                   decision_log.SOURCE_WINNING_PASS, decision_log.SOURCE_CENTRE_RULE,
                   decision_log.SOURCE_NO_PLACEMENT)


def adversary_move(search, position, rng):
    """The loser's move leaving the winner the fewest winning replies (ties drawn by `rng`);
    a move after which the winner has none (a slip of the winner's search cannot be) is
    never left unplayed."""
    best, fewest = [], go_board.NUM_POINTS + 2
    for move in position.legal_moves():
        after = position.play(move)
        count = 0 if after.is_over else len(repertoire.winning_replies(search, after, fewest + 1))
        if count < fewest:
            best, fewest = [move], count
        elif count == fewest:
            best.append(move)
    return rng.choice(best)


def seam_line(search, book, start, winner, rng):
    """The first SEAM_MOVES positions of `winner` past the book on one line from `start`
    (see the module docstring)."""
    position = start
    found = []
    while not position.is_over and len(found) < SEAM_MOVES:
        if position.to_move == winner:
            move = book.lookup(position)
            if move is None:
                found.append(position)
                move = search.winning_move(position)
        elif position.ply >= ADVERSARY_FROM_PLY and rng.random() < ADVERSARY_RATE:
            move = adversary_move(search, position, rng)
        else:
            move = rng.choice(position.legal_moves())
        position = position.play(move)
    return found


def source_starts(book, search):
    """{source: [start positions]} (a start drawn uniformly stands for one real opening)."""
    slips = repertoire.check(book, repertoire.REPERTOIRE, search)[2]
    mistakes = [plan for plan in strategy.STRATEGIES if plan.after_mistakes][0]
    centre = go_board.move_to_text(strategy.CENTRE)
    return {
        "white-after-first-moves": [strategy.position_after((go_board.move_to_text(point),))
                                    for point in range(go_board.NUM_POINTS)
                                    if point != strategy.CENTRE],
        "white-after-mistakes": strategy.starts(mistakes, book),
        "white-after-slips": strategy.starts(strategy.AFTER_SLIPS, book, slips),
        "black": [strategy.position_after((centre,))],
    }


def sampled_positions(book, search, rng, count, progress):
    """About `count` seam positions as [(source, position)], SOURCES' shares of the lines."""
    starts = source_starts(book, search)
    lines = max(1, count // SEAM_MOVES)
    per_source = [(source, winner, int(round(lines * share)))
                  for source, (winner, share) in SOURCES.items()]
    picked = []
    with progress.stage("lines", sum(count for _, _, count in per_source), "lines") as stage:
        for source, winner, count in per_source:
            for _ in range(count):
                picked.extend((source, position) for position in seam_line(
                    search, book, rng.choice(starts[source]), winner, rng))
                stage.advance()
    return picked


def game_positions(search, book, paths):
    """[(GAMES_SOURCE, position)]: in recorded games, each position of a seam ply (the first
    SEAM_MOVES of either colour past the book) that the book does not answer and whose mover
    wins."""
    first_ply = {colour: book.answered_plies(colour) + 1 for colour in (BLACK, WHITE)}
    found = []
    for path in paths:
        with open(path) as handle:
            for line in handle:
                if not line.strip():
                    continue
                position = go_board.Position()
                for text in json.loads(line)["moves"]:
                    first = first_ply[position.to_move] + (position.ply - first_ply[
                        position.to_move]) % 2
                    if (first <= position.ply < first + 2 * SEAM_MOVES
                            and book.lookup(position) is None and search.wins(position)):
                        found.append((GAMES_SOURCE, position))
                    position = position.play(go_board.move_from_text(text))
    return found


def replayed_positions(path):
    """[(source, position)] of an earlier run's --records, in their order."""
    with open(path) as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    return [(record["source"], go_board.Position(black, white, to_move, ply, prev_black,
                                                 prev_white))
            for record in records
            for black, white, prev_black, prev_white, to_move, ply in [record["position"]]]


def start_decisions(python, positions, jobs, agent_dir):
    """Start `jobs` worker processes deciding `positions` with the agent found in `agent_dir`,
    each given its share (positions i, i + jobs, ...) on stdin: the runs and their shares."""
    fields = [[p.black, p.white, p.prev_black, p.prev_white, p.to_move, p.ply] for p in positions]
    chunks = [fields[index::jobs] for index in range(jobs)]
    environ = dict(os.environ, PYTHONPATH=agent_dir)
    runs = [subprocess.Popen([python, DECIDE_PROGRAM, str(CPU_BEFORE_DECIDING)], cwd=agent_dir,
                             env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             universal_newlines=True) for _ in chunks]
    for run, chunk in zip(runs, chunks):  # every run gets its positions before any is read
        run.stdin.write(json.dumps(chunk))
        run.stdin.close()
    return runs, chunks


def finish_decisions(runs, chunks, stage):
    """[(move, source, cpu, budget, proof_cpu)] in the positions' order, once every run ended."""
    answers = []
    for run, chunk in zip(runs, chunks):
        out = run.stdout.read()
        run.wait()
        if run.returncode:
            raise RuntimeError("the decision run exited with {}".format(run.returncode))
        answers.append(json.loads(out))
        stage.advance(len(chunk))
    # Chunk i holds positions i, i + jobs, ...: interleave the answers back into order.
    ordered = [None] * sum(len(chunk) for chunk in chunks)
    for index, answer in enumerate(answers):
        ordered[index::len(answers)] = answer
    return [(go_board.move_from_text(move), source, cpu, budget, proof_cpu)
            for move, source, cpu, budget, proof_cpu in ordered]


def decide(python, positions, jobs, progress, agent_dirs):
    """The decisions of `positions` under `python` by the agent of each of `agent_dirs` (this
    checkout's, then a baseline's), all at once, the `jobs` processes shared among them: a list
    of [(move, source, cpu, budget, proof_cpu)] per agent."""
    per_agent = max(1, jobs // len(agent_dirs))
    started = [start_decisions(python, positions, per_agent, agent_dir)
               for agent_dir in agent_dirs]
    with progress.stage("decisions", len(positions) * len(agent_dirs), "positions") as stage:
        return [finish_decisions(runs, chunks, stage) for runs, chunks in started]


def cpu_to_proof(decided, cpu, proof_cpu):
    """The CPU from the move's start to its proof: the per-move process's start, then the exact
    search's proof (the book lookup before it costs about a millisecond); a decision of the book
    or a rule is its own proof (its whole CPU). None when no proof decided the move."""
    if proof_cpu is not None:
        return round(CPU_BEFORE_DECIDING + proof_cpu, 3)
    return round(cpu, 3) if decided else None


def spread(name, values, tails):
    """`median_NAME`, `pNN_NAME` for each tail share (nearest rank) and `max_NAME` of `values`,
    rounded; None when there are none."""
    figures = {"median_" + name: statistics.median(values) if values else None}
    for tail in tails:
        figures["p{:g}_{}".format(100 * tail, name)] = percentile(values, tail) if values else None
    figures["max_" + name] = max(values) if values else None
    return {key: None if value is None else round(value, 3) for key, value in figures.items()}


def summary(records):
    """The figures of a group of judged positions: how many were decided (by the book, a rule
    or the exact search) or left to search, the wins thrown, the moves over budget, the winning
    moves short of the largest margin and the points they gave away (margin play), the whole
    move's CPU (margin play fills what the proof leaves) and the CPU to the proof of the decided
    ones."""
    proofs = [record["cpu_to_proof"] for record in records if record["cpu_to_proof"] is not None]
    given_away = [record["given_away"] for record in records
                  if not record["thrown"] and record["given_away"] is not None]
    figures = {"positions": len(records),
               "decided": sum(record["decided"] for record in records),
               "left_to_search": sum(not record["decided"] for record in records),
               "thrown": sum(record["thrown"] for record in records),
               "over_budget": sum(record["cpu"] > record["budget"] for record in records),
               "not_margin_best": sum(points > 0 for points in given_away),
               "points_given_away": sum(given_away)}
    figures.update(spread("cpu", [record["cpu"] for record in records], (0.95,)))
    figures.update(spread("proof", proofs, (0.95, 0.99)))
    return figures


def judged(search, position, decision, best_margin):
    """What one agent's `decision` of `position` was, judged by the compiled `search`:
    `best_margin` is the position's (points, for the mover; None where the exact search does
    not act, too early to afford) and `given_away` what the move gave away of it."""
    move, decided_by, cpu, budget, proof_cpu = decision
    decided = decided_by in DECIDED_SOURCES
    margin = None if best_margin is None else go_board.margin(search.value(position, move),
                                                              position.to_move)
    return {"move": go_board.move_to_text(move), "by": decided_by, "decided": decided,
            "thrown": not search.wins(position, move) if margin is None else margin < 0,
            "margin": margin, "given_away": None if margin is None else best_margin - margin,
            "cpu": round(cpu, 3), "budget": round(budget, 3),
            "cpu_to_proof": cpu_to_proof(decided, cpu, proof_cpu)}


def judge(search, sampled, decisions, baseline=None):
    """One JSON record per position: where it came from, its best margin for the mover, what
    decided it, whether it won and what it gave away of the margin (and the same of the
    baseline's decision under "baseline", when one is given)."""
    records = []
    for index, ((source, position), decision) in enumerate(zip(sampled, decisions)):
        best_margin = go_board.margin(search.value(position), position.to_move) \
            if go_board.plies_left(position.ply) <= endgame.EXACT_PLIES_LEFT else None
        record = {"source": source, "ply": position.ply,
                  "colour": go_board.COLOUR_NAMES[position.to_move],
                  "position": [position.black, position.white, position.prev_black,
                               position.prev_white, position.to_move, position.ply],
                  "best_margin": best_margin}
        record.update(judged(search, position, decision, best_margin))
        if baseline is not None:
            record["baseline"] = judged(search, position, baseline[index], best_margin)
        records.append(record)
    return records


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000,
                        help="seam positions sampled on lines (the games' come on top)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="decision processes at once")
    parser.add_argument("--game-files", nargs="*", default=None, metavar="FILE",
                        help="games.jsonl files (default: recorded_games/*.jsonl)")
    parser.add_argument("--python", help="the interpreter (default: the grader's 3.7)")
    parser.add_argument("--records", metavar="FILE",
                        help="write every judged position here, a JSON line each")
    parser.add_argument("--replay", metavar="FILE",
                        help="decide the positions of an earlier run's --records, not new ones")
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout whose agent decides the same positions side by "
                        "side (e.g. `git worktree add DIR COMMIT`)")
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    progress = Progress(args.quiet)
    python = args.python or grader_python()
    if solver.missing("handover"):
        return 2
    if python is None:
        sys.stderr.write("handover: the grader's Python 3.7 is not installed (pyenv install 3.7)\n")
        return 2
    book = opening_book.read()
    paths = sorted(glob.glob(RECORDED_GAMES)) if args.game_files is None else args.game_files
    with solver.Solver() as search:
        if args.replay:
            sampled = replayed_positions(args.replay)
        else:
            sampled = sampled_positions(book, search, random.Random(args.seed), args.positions,
                                        progress)
            sampled += game_positions(search, book, paths)
        agent_dirs = [REPO_ROOT] + ([os.path.abspath(args.baseline)] if args.baseline else [])
        decisions = decide(python, [position for _, position in sampled], args.jobs, progress,
                           agent_dirs)
        records = judge(search, sampled, *decisions)
    if args.records:
        with open(args.records, "w") as handle:
            handle.writelines(json.dumps(record) + "\n" for record in records)
    groups = collections.defaultdict(list)
    for record in records:
        groups[record["source"], record["ply"]].append(record)
    for (source, ply), group in sorted(groups.items()):
        print(json.dumps(dict(source=source, ply=ply, **summary(group))), flush=True)
    if args.baseline:
        print(json.dumps(dict(agent=os.path.abspath(args.baseline), python=python, seed=args.seed,
                              **summary([record["baseline"] for record in records]))))
    whole = dict(agent=REPO_ROOT, python=python, seed=args.seed, **summary(records))
    print(json.dumps(whole))
    return 1 if whole["thrown"] or whole["over_budget"] else 0


if __name__ == "__main__":
    sys.exit(main())
