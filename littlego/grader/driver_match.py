"""Games under the course's driver loop, with every move of the agent metered from outside.

Usage: littlego driver-match [--games 100] [--agent CMD] [--opponent CMD]
                                     [--host HOST_PY] [--out DIR]

Each game runs `littlego/grader/course_driver.sh` in a fresh directory (the agent is Black in
odd games), so the files, the judge (`host.py -m k -v True`) and the order of calls are the
grader's. The agent runs inside `littlego/grader/cpu_meter.py`, which records the CPU of its
whole process tree (forked workers included) and its wall time. The agent's decision records
(JSON lines on stderr, read with `decision_log.read_decisions`) give the source of each move,
simulations and workers. Prints and writes (`summary.txt`, `moves.jsonl`) wins per colour, CPU
and wall per move (mean, 99th percentile, max), CPU per game, and simulations per searched move.
A lost game's directory is kept under DIR for inspection.
"""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from decision_log import read_decisions
from littlego import opponents
from littlego.grader import COURSE_DRIVER, meter_command
from littlego.paths import HOST, MY_PLAYER, RUNS_DIR
from littlego.referee.stats import percentile


def play_game(number, args, out_dir):
    directory = tempfile.mkdtemp(prefix="driver-game-{}-".format(number))
    moves_log = os.path.join(directory, "agent_moves.jsonl")
    agent = "{} {}".format(meter_command(sys.executable, moves_log), args.agent)
    agent_colour = 1 if number % 2 else 2
    black, white = (agent, args.opponent) if agent_colour == 1 else (args.opponent, agent)
    started = time.monotonic()
    finished = subprocess.run(["sh", COURSE_DRIVER, black, white, args.host], cwd=directory,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    wall = time.monotonic() - started
    winner = finished.stdout.strip().splitlines()[-1] if finished.stdout.strip() else "?"
    with open(moves_log) as handle:
        metered = [json.loads(line) for line in handle]
    logged = read_decisions(finished.stderr)
    moves = []
    for index, record in enumerate(metered):
        move = dict(record, game=number, colour=agent_colour)
        if index < len(logged):
            decision = logged[index]
            move.update(ply=decision["ply"], move=decision["move"], source=decision["source"])
            for key in ("simulations", "workers"):
                if key in decision["details"]:
                    move[key] = decision["details"][key]
        moves.append(move)
    won = winner == str(agent_colour)
    if won:
        shutil.rmtree(directory, ignore_errors=True)
    else:
        kept = os.path.join(out_dir, "lost-game-{}".format(number))
        shutil.move(directory, kept)
        with open(os.path.join(kept, "driver.log"), "w") as handle:
            handle.write(finished.stderr)
    return {"game": number, "agent_colour": agent_colour, "won": won, "winner": winner,
            "wall": wall, "moves": moves}


def summarise(games):
    moves = [move for game in games for move in game["moves"]]
    cpu = [move["cpu"] for move in moves]
    wall = [move["wall"] for move in moves]
    game_cpu = [sum(move["cpu"] for move in game["moves"]) for game in games]
    searched = [int(move["simulations"]) for move in moves if "simulations" in move]
    workers = sorted({move["workers"] for move in moves if "workers" in move})
    sources = {}
    for move in moves:
        sources[move.get("source", "?")] = sources.get(move.get("source", "?"), 0) + 1
    lines = []
    for colour, name in ((1, "Black"), (2, "White")):
        played = [game for game in games if game["agent_colour"] == colour]
        lines.append("agent as {}: {} of {} won".format(
            name, sum(game["won"] for game in played), len(played)))
    lines.append("missing or bad outputs: {}".format(
        sum(1 for move in moves if not move.get("output"))))
    lines.append("CPU per move (whole tree, metered outside): mean {:.2f} s, p99 {:.2f} s, "
                 "max {:.2f} s over {} moves".format(statistics.mean(cpu), percentile(cpu, 0.99),
                                                    max(cpu), len(cpu)))
    lines.append("wall per move: mean {:.2f} s, p99 {:.2f} s, max {:.2f} s".format(
        statistics.mean(wall), percentile(wall, 0.99), max(wall)))
    lines.append("CPU per game (our moves): mean {:.1f} s, max {:.1f} s".format(
        statistics.mean(game_cpu), max(game_cpu)))
    if searched:
        lines.append("simulations per searched move: mean {:,.0f}, median {:,.0f}, max {:,} "
                     "({} moves); workers used: {}".format(
                         statistics.mean(searched), statistics.median(searched), max(searched),
                         len(searched), ", ".join(str(count) for count in workers)))
    lines.append("moves by source: " + ", ".join(
        "{} {}".format(source, count) for source, count in sorted(sources.items())))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="python3 " + shlex.quote(MY_PLAYER))
    parser.add_argument("--opponent", default=opponents.run_command("python3", "random"))
    parser.add_argument("--host", default=HOST)
    parser.add_argument("--out", default=os.path.join(RUNS_DIR, "driver-match"))
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    games = []
    with open(os.path.join(args.out, "moves.jsonl"), "w") as log:
        for number in range(1, args.games + 1):
            game = play_game(number, args, args.out)
            games.append(game)
            for move in game["moves"]:
                log.write(json.dumps(move, sort_keys=True) + "\n")
            log.flush()
            sys.stderr.write("game {}/{}: agent {} ({} so far lost), {:.0f} s\n".format(
                number, args.games, "won" if game["won"] else "LOST",
                sum(not g["won"] for g in games), game["wall"]))
    summary = summarise(games)
    with open(os.path.join(args.out, "summary.txt"), "w") as handle:
        handle.write(summary + "\n")
    print(summary)
    return 0 if all(game["won"] for game in games) else 1


if __name__ == "__main__":
    sys.exit(main())
