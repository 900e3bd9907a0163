"""The soak: thousands of agent moves under the course's driver loop, every move metered twice.

Usage: littlego soak [--moves 2000] [--opponents random,alphabeta4,self]
                     [--agent-move-cpu S] [--agent-game-cpu S] [--python PY] [--seed N]
                     [--out runs/soak]

Games rotate through the opponents, the agent Black in one game and White in the next; against
`self` it plays both colours, two copies sharing one game directory. Each game runs in a fresh
directory under `littlego/grader/course_driver.sh` with the judge `host.py`, until at least --moves
agent moves are played. Every agent move runs inside `soak.py meter`, which records:
- `cpu`: the referee's exact meter (`referee.proctree.run_limited`: the whole process tree,
  each process once, orphans included);
- `time_cpu`: the agent's own rusage from wait4, itself and everything it reaped, which is
  what the grader's `time` reports: an independent second figure;
- processes of the agent still running when it exited, its input.txt and its output.txt.
Every move is then judged again by the referee's rules: a missing or unparsable output.txt,
or a move the referee would reject, is counted. Prints and writes (`summary.json`, `moves.jsonl` in
--out) the counts, max, 99th percentile and mean of CPU per move by both meters, the moves over
TARGET_MAX_CPU, missing outputs, illegal moves and leftover processes; exits 1 unless every
count the issue sets a target for is met. The agent runs on the grader's Python 3.7 (found
through pyenv) unless --python says otherwise; LITTLEGO_MOVE_CPU and
LITTLEGO_GAME_CPU are set only by --agent-move-cpu and --agent-game-cpu (littlego/options.py).
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

import course_io
import go_board
from littlego import opponents
from littlego.grader import COURSE_DRIVER
from littlego.grader.interpreters import VERSION_TEXT, grader_python
from littlego.options import add_agent_budget, agent_env
from littlego.paths import HOST, MY_PLAYER, RUNS_DIR, module_command
from littlego.progress import Progress, add_quiet_option
from littlego.referee import rules
from littlego.referee.proctree import run_limited
from littlego.referee.protocol import GRADER_MOVE_CPU
from littlego.referee.stats import percentile

SELF = "self"
DEFAULT_OPPONENTS = "random,alphabeta4," + SELF
# The targets: no move above this CPU, by either meter.
TARGET_MAX_CPU = 9.0
# The grader's limit, enforced by the meter; the wall limit only stops a hung agent.
MOVE_CPU_LIMIT = GRADER_MOVE_CPU
MOVE_WALL_LIMIT = 120.0
METER_COMMAND = "meter"
MOVES_LOG = "agent_moves.jsonl"


def meter(argv):
    """`soak.py meter LOG COMMAND...`: run COMMAND as one metered agent move (see above)."""
    log_path, command = argv[0], argv[1:]
    game_input = course_io.read_text(course_io.INPUT_FILE)
    run = run_limited(" ".join(shlex.quote(word) for word in command), ".", dict(os.environ),
                      MOVE_CPU_LIMIT, MOVE_WALL_LIMIT)
    record = {"cpu": run.cpu, "time_cpu": run.time_cpu, "wall": run.wall,
              "exit": run.exit_status, "over_limit": run.over_limit,
              "leftovers": run.leftovers, "input": game_input,
              "output": course_io.read_text(course_io.OUTPUT_FILE)}
    with open(log_path, "a") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")
    return 0


def judge_move(record):
    """`(missing, illegal)` for one metered move, judged by the referee's rules on its own
    input.txt (the one pass that loses at once, Black's on the empty board, counts as illegal)."""
    try:
        colour, previous, current = course_io.parse_grid_input(record["input"] or "")
    except course_io.InputError:
        return False, False  # not the agent's doing: the judge wrote it
    lines = (record["output"] or "").splitlines()
    try:
        action = course_io.parse_action(lines[0] if lines else "")
    except course_io.OutputError:
        return True, False
    if action == rules.PASS:
        return False, colour == rules.BLACK and previous == current == rules.empty_board()
    return False, rules.try_place(previous, current, action[0], action[1], colour)[1] is not None


def player_command(spec, log_path, args, seed):
    if spec == SELF:
        return module_command(sys.executable, "littlego", "soak", METER_COMMAND, log_path, args.python,
                              MY_PLAYER)
    return opponents.run_command(sys.executable, spec, "--seed", str(seed))


def stray_processes(directory):
    """Processes still running in the game directory after the game (none should be)."""
    import psutil
    found = []
    for process in psutil.process_iter():
        try:
            if process.cwd() == directory and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except psutil.Error:
            pass
    for process in found:
        try:
            process.kill()
        except psutil.Error:
            pass
    return len(found)


def play_game(number, opponent, agent_colour, args):
    """One game; returns its record with the agent's metered and judged moves."""
    directory = tempfile.mkdtemp(prefix="soak-game-{}-".format(number))
    log_path = os.path.join(directory, MOVES_LOG)
    seed = args.seed + number
    ours = player_command(SELF, log_path, args, seed)
    theirs = ours if opponent == SELF else player_command(opponent, log_path, args, seed)
    black, white = (ours, theirs) if agent_colour == go_board.BLACK else (theirs, ours)
    env = dict(os.environ, LITTLEGO_SEED=str(seed))
    env.update(agent_env(args))
    started = time.monotonic()
    with open(os.path.join(directory, "driver.log"), "w") as driver_log:
        finished = subprocess.run(["sh", COURSE_DRIVER, black, white, HOST], cwd=directory, env=env,
                                  stdout=subprocess.PIPE, stderr=driver_log,
                                  universal_newlines=True)
    strays = stray_processes(directory)
    moves = []
    for line in (course_io.read_text(log_path) or "").splitlines():
        move = json.loads(line)
        move["missing"], move["illegal"] = judge_move(move)
        move.update(game=number, opponent=opponent,
                    colour=int(move["input"][0]) if move["input"] else None)
        moves.append(move)
    winner = finished.stdout.split()[-1] if finished.stdout.split() else "?"
    kept = any(move["missing"] or move["illegal"] or move["leftovers"] for move in moves) \
        or strays
    if kept:
        shutil.move(directory, os.path.join(args.out, "game-{}".format(number)))
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return {"game": number, "opponent": opponent, "agent_colour": agent_colour,
            "winner": winner, "wall": time.monotonic() - started, "strays": strays,
            "moves": moves}


def cpu_figures(values):
    return {"max": max(values), "p99": percentile(values, 0.99),
            "mean": statistics.mean(values)} if values else None


def summarise(games, args):
    moves = [move for game in games for move in game["moves"]]
    cpu = [move["cpu"] for move in moves]
    time_cpu = [move["time_cpu"] for move in moves]
    results = {}
    for game in games:
        if game["opponent"] == SELF:
            continue
        key = "{} as {}".format(game["opponent"], go_board.COLOUR_NAMES[game["agent_colour"]])
        won, played = results.get(key, (0, 0))
        results[key] = (won + (game["winner"] == str(game["agent_colour"])), played + 1)
    return {
        "moves": len(moves), "games": len(games),
        "moves_by_colour": {name: sum(1 for move in moves if move["colour"] == colour)
                            for colour, name in go_board.COLOUR_NAMES.items()},
        "moves_by_opponent": {opponent: sum(1 for move in moves if move["opponent"] == opponent)
                              for opponent in args.opponents},
        "cpu_exact_meter": cpu_figures(cpu), "cpu_time_rusage": cpu_figures(time_cpu),
        "target_max_cpu": TARGET_MAX_CPU,
        "over_target": sum(1 for move in moves if max(move["cpu"], move["time_cpu"])
                           > TARGET_MAX_CPU),
        "over_limit": sum(1 for move in moves if move["over_limit"]),
        "missing_outputs": sum(move["missing"] for move in moves),
        "illegal_moves": sum(move["illegal"] for move in moves),
        "leftover_processes": sum(move["leftovers"] for move in moves)
        + sum(game["strays"] for game in games),
        "meters_differ_by_max": max((abs(move["cpu"] - move["time_cpu"]) for move in moves),
                                    default=None),
        "agent_wins": {key: "{} of {}".format(*value) for key, value in sorted(results.items())},
        "settings": {"agent_move_cpu": args.agent_move_cpu,
                     "agent_game_cpu": args.agent_game_cpu, "python": args.python, "seed": args.seed,
                     "opponents": args.opponents},
    }


def report_lines(summary):
    lines = ["{moves} agent moves in {games} games (Black {black}, White {white})".format(
        black=summary["moves_by_colour"]["Black"], white=summary["moves_by_colour"]["White"],
        **summary)]
    for label, key in (("exact meter", "cpu_exact_meter"), ("rusage (time)", "cpu_time_rusage")):
        figures = summary[key]
        if figures:
            lines.append("CPU per move, {}: max {max:.2f} s, p99 {p99:.2f} s, mean {mean:.2f} s"
                         .format(label, **figures))
    lines.append("moves over {target_max_cpu:g} s: {over_target}; over the limit: {over_limit}; "
                 "missing outputs: {missing_outputs}; illegal moves: {illegal_moves}; "
                 "leftover processes: {leftover_processes}".format(**summary))
    if summary["agent_wins"]:
        lines.append("agent wins: " + ", ".join(
            "{} {}".format(key, value) for key, value in summary["agent_wins"].items()))
    return lines


def main(argv):
    if argv[:1] == [METER_COMMAND]:
        return meter(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000,
                        help="play until at least this many agent moves (default 2000)")
    parser.add_argument("--opponents", default=DEFAULT_OPPONENTS,
                        help="comma-separated built-in opponents, `self` for self-play")
    add_agent_budget(parser, inherit=True)
    parser.add_argument("--python", default=None,
                        help="the agent's interpreter (default: Python 3.7 through pyenv)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(RUNS_DIR, "soak"))
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    args.opponents = args.opponents.split(",")
    if args.python is None:
        args.python = grader_python()
    if args.python is None:
        parser.error("no Python {} found (pyenv or PATH): give --python".format(VERSION_TEXT))
    os.makedirs(args.out, exist_ok=True)
    games, played = [], 0
    with open(os.path.join(args.out, "moves.jsonl"), "w") as log, \
            Progress(args.quiet).stage("soak", args.moves, "moves") as stage:
        while played < args.moves:
            number = len(games) + 1
            opponent = args.opponents[(number - 1) // 2 % len(args.opponents)]
            colour = go_board.BLACK if number % 2 else go_board.WHITE
            game = play_game(number, opponent, colour, args)
            games.append(game)
            played += len(game["moves"])
            stage.advance(len(game["moves"]))
            for move in game["moves"]:
                log.write(json.dumps(move, sort_keys=True) + "\n")
            log.flush()
    summary = summarise(games, args)
    with open(os.path.join(args.out, "summary.json"), "w") as handle:
        json.dump(summary, handle, indent=2, sort_keys=True)
    print("\n".join(report_lines(summary)))
    clean = not (summary["over_target"] or summary["missing_outputs"]
                 or summary["illegal_moves"] or summary["leftover_processes"])
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
