"""The strength ladder: the agent against every yardstick opponent, tables per colour.

Usage: littlego ladder [--games 100] [--scale 1] [--agent-move-cpu 8.5] [--agent-game-cpu 55]
                               [--parallel 1] [--seed 2] [--opponents random,previous:20,...]
                               [--agent-colour 1|2] [--out runs/ladder]

Start at `main`. Each rung is a `host.py match` (referee.match.run_match) of the agent, run as a
per-move command like the grader runs it, against one opponent; half the games as each colour.
`--opponents` lists rungs, each optionally with its own number of games (`previous:20`); the
others play `--games`; `--scale` multiplies every count (a longer run of the same ladder);
`--agent-colour` fixes the agent's colour (e.g. 40 games as Black) instead of alternating.
The rungs (`RUNGS`):
- the graded opponents: random, greedy, aggressive, alphabeta (depth 2);
- alphabeta4: iterative-deepening alpha-beta, the kind of agent the course's Championship is;
- plain-uct: the seed design written plainly and apart from the agent (opponents/plain_uct.py),
  with the agent's CPU per move (its game budget spread evenly over its 12 moves);
- agent-bare: the agent itself with the book, the exact search and the playout knowledge off and
  one process; it keeps MCTS-solver backups, the pass rules, early stops and the time manager;
- previous: the agent of the last release (`release.json`), built from git into runs/release-*;
- gnugo: GNU Go level 10 over GTP (the Debian package; `make gnugo` installs it);
- white-after-00, -01, -02, -11, -12: alphabeta4 forced to open at that losing point, the agent
  White in every game (the book's White strategies);
- white-after-mistakes: alphabeta4 forced to open at the centre and to throw the win away with
  its next move (one the book answers for White, drawn by seed), the agent White;
- deep-agent-bare, deep-plain-uct: as centre-agent-bare and centre-plain-uct, but Black plays
  the book's proven moves through ply DEEP_BOOK_PLY (the centre and the only replies that keep
  its win after White's tries at plies 2 and 4), then plays on as itself: where White's tries
  from ply 6 on, which the repertoire's rules choose differently, are tested (after White's
  second move nearly every searcher slips at once, docs/strength.md);
- centre-agent-bare, -plain-uct, -alphabeta4, -gnugo, -previous: White's yardstick after the
  centre, the game strong opponents give us: the opponent is Black and opens at the centre (the
  agents and GNU Go choose it; plain-uct and alphabeta4 are forced to), then plays on as itself,
  seeded per game (GNU Go by its own seed, and its moves at plies 3 and 5 drawn among its own
  near-best: gtp-vary); the agent White in every game, lost against perfect play.
  `littlego slips` then judges every game with the compiled solver: Black's first slip, White's
  wins kept.
Held out: nothing the agent plays was learned from or tuned on games against any of these
(docs/strength.md), except that White's repertoire after the centre follows the one of two
rules that won on the deep rungs (agent-bare and plain-uct). Each rung's SGFs, games.jsonl and summary.txt go to OUT/<rung>/; at the end
the ladder prints the per-colour table with 95% Wilson intervals and the agent's time use;
`littlego/bench/report.py --ladder OUT` copies both into docs/benchmarks.md.
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys

from go_board import MAX_PLY, WHITE
from littlego import opponents
from littlego.opponents import in_process
from littlego.options import add_agent_budget, agent_env
from littlego.paths import MY_PLAYER, REPO_ROOT, RUNS_DIR
from littlego.progress import Progress, add_quiet_option
from littlego.referee.match import run_match
from littlego.referee.players import GTP_PREFIX, GTP_VARY_PREFIX
from littlego.referee.protocol import DEFAULT_MOVE_WALL, END_RESIGN, GRADER_MOVE_CPU
from littlego.referee.stats import percentile, summary_rows, wilson_interval
from littlego.solver import strategy

# The agent as White after each of Black's losing first moves, and after the centre and a
# third move that throws Black's win away (the opponent, alphabeta4, forced to play them):
# rung name -> littlego/opponents/run.py's options.
FORCED_OPENINGS = {plan.name: "--first-move " + plan.start[0]
                   + (" --mistake" if plan.after_mistakes else "")
                   for plan in strategy.STRATEGIES if plan.winner == WHITE}
# White after the centre: rung name -> the opponent's own rung, Black opening at the centre.
CENTRE_RUNGS = {"centre-" + name: name
                for name in ("agent-bare", "plain-uct", "alphabeta4", "gnugo", "previous")}
CENTRE_OPTIONS = ("--first-move", "2,2")  # for the built-in players, which may open elsewhere
# White's tries from ply 6 on: Black finds its first only-moves from the book, then is itself.
DEEP_BOOK_PLY = 5
DEEP_RUNGS = {"deep-" + name: name for name in ("agent-bare", "plain-uct")}
RUNGS = ["random", "greedy", "aggressive", "alphabeta", "alphabeta4", "plain-uct", "agent-bare",
         "previous", "gnugo"] + sorted(FORCED_OPENINGS) + list(CENTRE_RUNGS) + list(DEEP_RUNGS)
# The rungs where the agent is White in every game.
AFTER_CENTRE_RUNGS = frozenset(CENTRE_RUNGS) | frozenset(DEEP_RUNGS)
WHITE_RUNGS = frozenset(FORCED_OPENINGS) | AFTER_CENTRE_RUNGS
BARE_SEARCH_ENV = "LITTLEGO_SOLVER=0 LITTLEGO_KNOWLEDGE=0 LITTLEGO_WORKERS=1"
AGENT_BARE_ENV = "LITTLEGO_BOOK=0 " + BARE_SEARCH_ENV
GNUGO_ARGS = "--mode gtp --level 10"
GNUGO_DEBIAN_PATH = "/usr/games/gnugo"
RELEASE_FILE = os.path.join(REPO_ROOT, "release.json")
OUR_MOVES_PER_GAME = len(range(1, MAX_PLY + 1, 2))


def agent_command(args, extra_env="", player=MY_PLAYER):
    """The agent as a per-move command, its budget (--agent-move-cpu, --agent-game-cpu) in its
    environment."""
    budget = " ".join("{}={}".format(name, value) for name, value in agent_env(args).items())
    return "cmd:env {} {} {} {}".format(budget, extra_env, shlex.quote(sys.executable),
                                        shlex.quote(player))


def release_commit(path=RELEASE_FILE):
    with open(path) as handle:
        return json.load(handle)["commit"]


def build_release(commit, scratch):
    """The released agent's tree, from git, in `scratch`/release-COMMIT (built once)."""
    target = os.path.join(scratch, "release-" + commit[:12])
    if not os.path.exists(os.path.join(target, "my_player.py")):
        os.makedirs(target, exist_ok=True)
        archive = subprocess.run(["git", "-C", REPO_ROOT, "archive", commit], stdout=subprocess.PIPE,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", target], input=archive, check=True)
    return target


def plain_uct_move_cpu(move_cpu, game_cpu):
    """The agent's CPU per move when its game budget is spread evenly over its moves."""
    return min(move_cpu, game_cpu / OUR_MOVES_PER_GAME)


def opponent_spec(rung, args):
    if rung in CENTRE_RUNGS:
        return centre_spec(CENTRE_RUNGS[rung], args)
    if rung in DEEP_RUNGS:
        return deep_spec(DEEP_RUNGS[rung], args)
    if rung == "agent-bare":
        return agent_command(args, AGENT_BARE_ENV)
    if rung == "previous":
        release = build_release(release_commit(), os.path.dirname(os.path.abspath(args.out)))
        return agent_command(args,
                             player=os.path.join(release, "my_player.py"))
    if rung == "plain-uct":
        return plain_uct_spec(args)
    if rung == "gnugo":
        return gnugo_spec(GTP_PREFIX)
    if rung in FORCED_OPENINGS:
        return "cmd:" + opponents.run_command(sys.executable, "alphabeta4",
                                              *FORCED_OPENINGS[rung].split())
    return rung


def plain_uct_spec(args, *options):
    return "cmd:" + opponents.run_command(
        sys.executable, "plain-uct", "--opponent-move-cpu",
        "{:.3f}".format(plain_uct_move_cpu(args.agent_move_cpu, args.agent_game_cpu)), *options)


def centre_spec(name, args):
    """The opponent of a centre rung: rung `name`'s, opening at the centre."""
    if name == "plain-uct":
        return plain_uct_spec(args, *CENTRE_OPTIONS)
    if name == "alphabeta4":
        return "cmd:" + opponents.run_command(sys.executable, "alphabeta4", *CENTRE_OPTIONS)
    if name == "gnugo":  # seeded per game, its moves at plies 3 and 5 drawn among its near-best
        return gnugo_spec(GTP_VARY_PREFIX)
    return opponent_spec(name, args)  # the agents and GNU Go open at the centre themselves


def deep_spec(name, args):
    """The opponent of a deep rung: rung `name`'s at the centre, the book's through
    DEEP_BOOK_PLY."""
    if name == "plain-uct":
        return plain_uct_spec(args, *CENTRE_OPTIONS + ("--book-through", str(DEEP_BOOK_PLY)))
    return agent_command(args, "LITTLEGO_BOOK_PLIES={} {}".format(
        DEEP_BOOK_PLY, BARE_SEARCH_ENV))


def gnugo_spec(prefix):
    return "{}{} {}".format(prefix, shutil.which("gnugo") or GNUGO_DEBIAN_PATH, GNUGO_ARGS)


def parse_rungs(text, default_games, scale):
    """[(rung, games)] from `name[:games],...`; unknown names are an error."""
    rungs = []
    for item in text.split(","):
        name, _, games = item.partition(":")
        if name not in RUNGS:
            raise ValueError("unknown rung {!r}: use {}".format(name, ", ".join(RUNGS)))
        rungs.append((name, int(round((int(games) if games else default_games) * scale))))
    return rungs


# ---- reading a ladder's results (also used by littlego/bench/report.py)
# ----------------------------

def rung_games(ladder):
    """(rung, records, the agent's name) per rung of a ladder output directory, in RUNGS order.

    The agent is player A of every rung, so it is Black in game 1 (see referee/match.py), except
    in the forced rungs, where it is White in every game.
    """
    order = {rung: index for index, rung in enumerate(RUNGS)}
    paths = sorted(glob.glob(os.path.join(ladder, "*", "games.jsonl")),
                   key=lambda path: (order.get(os.path.basename(os.path.dirname(path)), len(order)),
                                     path))
    for path in paths:
        with open(path) as handle:
            records = [json.loads(line) for line in handle if line.strip()]
        if records:
            rung = os.path.basename(os.path.dirname(path))
            agent = min(records, key=lambda record: record["game"])[
                "white" if rung in WHITE_RUNGS else "black"]
            yield rung, records, agent


def ladder_results(ladder):
    """{rung: {"Black"|"White"|"both": (wins, games), "resigned": n}} for the agent, where
    "resigned" counts the agent's wins by the opponent's resignation."""
    results = {}
    for rung, records, agent in rung_games(ladder):
        counts = {row["colour"]: (row["wins"], row["games"])
                  for row in summary_rows(records, [agent])}
        counts["resigned"] = sum(1 for record in records if record["reason"] == END_RESIGN
                                 and record["winner_name"] == agent)
        results[rung] = counts
    return results


def rate_text(wins, games):
    """`wins/games = rate% [low, high]`, or a dash when no game was played (one colour only)."""
    if not games:
        return "-"
    low, high = wilson_interval(wins, games)
    return "{}/{} = {:.1f}% [{:.1f}, {:.1f}]".format(
        wins, games, 100.0 * wins / games, 100 * low, 100 * high)


def ladder_rows(results):
    """The compact table: per colour with 95% Wilson intervals, and the opponent's resigns."""
    rows = ["| opponent | agent as Black | agent as White | both | won by resignation |",
            "| --- | --- | --- | --- | --- |"]
    for rung, counts in results.items():
        rows.append("| {} | {} | {} |".format(rung, " | ".join(
            rate_text(*counts[colour]) for colour in ("Black", "White", "both")),
            counts["resigned"]))
    return rows


def time_use_rows(ladder):
    """The agent's CPU and wall per move (whole process tree, metered by the referee) and CPU
    per game, over every game of a ladder directory."""
    per_move = {"cpu": [], "wall": []}
    per_game = []
    for _, records, agent in rung_games(ladder):
        for record in records:
            side = "black" if record["black"] == agent else "white"
            for kind in per_move:
                per_move[kind] += record[kind][side]
            per_game.append(sum(record["cpu"][side]))
    rows = ["| measure | mean | 99th percentile | max | count |", "| --- | --- | --- | --- | --- |"]
    for label, values in (("CPU per move (s)", per_move["cpu"]),
                          ("wall per move (s)", per_move["wall"]),
                          ("CPU per game, our moves (s)", per_game)):
        if values:
            rows.append("| {} | {:.2f} | {:.2f} | {:.2f} | {} |".format(
                label, statistics.mean(values), percentile(values, 0.99), max(values),
                len(values)))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per rung without a count")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every rung's games")
    add_agent_budget(parser)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--opponents", default=",".join(RUNGS))
    parser.add_argument("--agent-colour", type=int, choices=(1, 2),
                        help="the agent plays this colour in every game (1 Black, 2 White)")
    parser.add_argument("--out", default=os.path.join(RUNS_DIR, "ladder"))
    add_quiet_option(parser)
    args = parser.parse_args(argv)
    try:
        rungs = parse_rungs(args.opponents, args.games, args.scale)
    except ValueError as error:
        parser.error(str(error))
    agent = agent_command(args)
    progress = Progress(args.quiet)
    for rung, games in rungs:
        print("== agent against {} ({} games, {} s CPU per move)".format(
            rung, games, args.agent_move_cpu), flush=True)
        with progress.stage(rung, games, "games") as stage:
            result = run_match(agent, opponent_spec(rung, args), games=games,
                               parallel=args.parallel, limit_cpu=GRADER_MOVE_CPU,
                               limit_wall=max(DEFAULT_MOVE_WALL, 4 * args.agent_move_cpu),
                               builtin_players=in_process.players(),
                               seed=args.seed, out_dir=os.path.join(args.out, rung),
                               a_colour=WHITE if rung in WHITE_RUNGS else args.agent_colour,
                               progress=lambda records, total, names: stage.advance())
        print(result.table, flush=True)
    print("\n".join(ladder_rows(ladder_results(args.out)) + [""] + time_use_rows(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
