"""Matches: many games between two players, alternating colours, with files and a table.

Start at `run_match(player_a, player_b, games=..., ...) -> MatchResult`; `host.py match` is a
thin wrapper and benchmarks can call it directly. Player A is Black in games 1, 3, 5, ...
`a_colour` can fix A's colour instead (to measure one side only). Each game runs in a fresh
temporary directory (one subdirectory per player), optionally in a pool of worker processes. With `out_dir`, every game is saved as game-NNNN.sgf and one JSON
line of games.jsonl as it finishes, and the table goes to summary.txt.
"""

import collections
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
from concurrent import futures

from littlego.referee.game import play_game
from littlego.referee.players import make_player
from littlego.referee.protocol import DEFAULT_MOVE_WALL, GRADER_MOVE_CPU, MoveLimits
from littlego.referee.rules import BLACK, WHITE
from littlego.referee.sgf import game_to_sgf
from littlego.referee.stats import format_table, summary_rows

SEED_STRIDE = 1000003  # a prime, so seeds of different matches rarely share games
SEED_MODULUS = 2 ** 32
GAMES_FILE = "games.jsonl"
SUMMARY_FILE = "summary.txt"
SGF_NAME = "game-{:04d}.sgf"

# records: GameRecords in game order; rows: stats.summary_rows; table: their text.
MatchResult = collections.namedtuple("MatchResult", "records rows table out_dir")

# Everything a worker needs to play game number `game` (1-based).
GameJob = collections.namedtuple("GameJob", "game specs names seeds limits show builtin_players")


def derive_seed(seed, game, colour):
    """A distinct, reproducible seed for each game and colour of the match seeded `seed`."""
    return (seed * SEED_STRIDE + 2 * game + colour) % SEED_MODULUS


def player_names(spec_a, spec_b):
    """Table labels: the specs, told apart when a player meets itself."""
    if spec_a == spec_b:
        return spec_a + " (A)", spec_b + " (B)"
    return spec_a, spec_b


def game_jobs(specs, names, games, seed, limits, show, builtin_players, a_colour=None):
    jobs = []
    for game in range(1, games + 1):
        a_black = a_colour == BLACK if a_colour is not None else game % 2 == 1
        first, second = (0, 1) if a_black else (1, 0)
        jobs.append(GameJob(game, {BLACK: specs[first], WHITE: specs[second]},
                            {BLACK: names[first], WHITE: names[second]},
                            {colour: derive_seed(seed, game, colour) for colour in (BLACK, WHITE)},
                            limits, show, builtin_players))
    return jobs


def printer_for_game(game):
    """The --show callback: one write per ply, so parallel games interleave whole boards."""
    def show(text):
        sys.stdout.write("game {} {}".format(game, text))
        sys.stdout.flush()
    return show


def play_job(job):
    """Play one game of the match; runs in a worker process when games are parallel."""
    players = {}
    for colour in (BLACK, WHITE):
        players[colour] = make_player(job.specs[colour], job.limits, job.builtin_players)
        players[colour].name = job.names[colour]
    show = printer_for_game(job.game) if job.show else None
    directory = tempfile.mkdtemp(prefix="littlego-game-{}-".format(job.game))
    try:
        record = play_game(players, job.seeds, directory, show)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    record["game"] = job.game
    record["seeds"] = {"black": job.seeds[BLACK], "white": job.seeds[WHITE]}
    return record


def play_jobs(jobs, parallel):
    """GameRecords as the games finish."""
    if parallel <= 1:
        for job in jobs:
            yield play_job(job)
        return
    # fork: workers inherit the parent's modules, so players defined anywhere can be used.
    context = multiprocessing.get_context("fork")
    with futures.ProcessPoolExecutor(max_workers=parallel, mp_context=context) as pool:
        for done in futures.as_completed([pool.submit(play_job, job) for job in jobs]):
            yield done.result()


def save_game(out_dir, games_file, record):
    record["sgf"] = SGF_NAME.format(record["game"])
    with open(os.path.join(out_dir, record["sgf"]), "w", encoding="utf-8") as handle:
        handle.write(game_to_sgf(record))
    games_file.write(json.dumps(record, sort_keys=True) + "\n")
    games_file.flush()


def print_progress(records, total, names):
    """The stderr progress line: games done and each player's wins so far."""
    wins = [sum(1 for record in records if record["winner_name"] == name) for name in names]
    sys.stderr.write("\r[{}/{}] {}: {} wins, {}: {} wins".format(
        len(records), total, names[0], wins[0], names[1], wins[1]))
    if len(records) == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run_match(player_a, player_b, games=10, parallel=1, limit_cpu=GRADER_MOVE_CPU,
              limit_wall=DEFAULT_MOVE_WALL, seed=0, out_dir=None, show=False,
              builtin_players=None, progress=None, a_colour=None):
    """Play `games` games between two player specs (see players.make_player).

    Colours alternate, A Black in odd games, unless `a_colour` (BLACK or WHITE) fixes A's.

    `limit_cpu`, `limit_wall`: the referee's limits per move (a player over one loses).
    `builtin_players`: the players known by name (make_player's; the opponents' in
    littlego/opponents/in_process.py); `progress(records, games, names)` is called after each
    game. Returns a MatchResult.
    """
    limits = MoveLimits(limit_cpu, limit_wall)
    specs = (player_a, player_b)
    for spec in specs:
        make_player(spec, limits, builtin_players)  # an unknown name fails before any game
    names = player_names(player_a, player_b)
    jobs = game_jobs(specs, names, games, seed, limits, show, builtin_players, a_colour)
    records = []
    games_file = None
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
        games_file = open(os.path.join(out_dir, GAMES_FILE), "w", encoding="utf-8")
    try:
        for record in play_jobs(jobs, parallel):
            records.append(record)
            if games_file is not None:
                save_game(out_dir, games_file, record)
            if progress is not None:
                progress(records, games, names)
    finally:
        if games_file is not None:
            games_file.close()
    records.sort(key=lambda record: record["game"])
    rows = summary_rows(records, names)
    table = format_table(rows)
    if out_dir is not None:
        with open(os.path.join(out_dir, SUMMARY_FILE), "w", encoding="utf-8") as handle:
            handle.write(table + "\n")
    return MatchResult(records, rows, table, out_dir)
