"""Our GTP engine in a real controller's tournament: gomill's ringmaster, against GNU Go.

Start at `run_tournament`. It copies the control file `littlego/gtp/littlego_vs_gnugo.ctl` into the
output directory (ringmaster keeps a competition's files next to its control file), names the
two engines for it in environment variables, resets and runs the competition under Python 2.7
(gomill is a Python 2 program; `make ringmaster` installs it into .venv/gomill with pyenv's
2.7), then reads back every game record ringmaster wrote, with sgfmill.

Each game's summary (`summarise`) holds ringmaster's players and result (SGF RE: `B+0.5` on
our engine's final_score, `W+R` on a resignation, `B+F` on a forfeit, `Void` past the move
limit) and the same moves replayed by our rules (go_board) up to the Little-Go end, with its
stones-only result. `check` lists what is wrong with a tournament: a void game, a forfeit by
our engine, or a scored result that is not the Little-Go one.
`littlego ringmaster --games 10 --out runs/ringmaster` prints one JSON line per game,
then the tally; exit 1 when `check` finds anything.
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

from sgfmill import sgf, sgf_moves

import go_board
from littlego.analysis.vertices import result_text
from littlego.grader.interpreters import find_python
from littlego.gtp.engine import COMMAND_WORDS
from littlego.paths import REPO_ROOT, RUNS_DIR

CONTROL_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "littlego_vs_gnugo.ctl")
COMPETITION = os.path.splitext(os.path.basename(CONTROL_FILE))[0]
GOMILL_DIR = os.path.join(REPO_ROOT, ".venv", "gomill")
RINGMASTER_PYTHON = (2, 7)
# The player codes of the control file, as ringmaster writes them in PB and PW.
OUR_ENGINE, GNUGO = "littlego", "gnugo"
ENGINE_VARIABLE = "LITTLEGO_RINGMASTER_ENGINE"
GNUGO_VARIABLE = "LITTLEGO_RINGMASTER_GNUGO"
# Debian installs GNU Go in /usr/games, which PATH often lacks.
GNUGO_DIRS = os.pathsep + "/usr/games"
FORFEIT_SUFFIX = "+F"
VOID = "Void"
COLOURS = {"b": go_board.BLACK, "w": go_board.WHITE}
SUMMARY_FILE = "summary.json"


class RingmasterMissing(Exception):
    """Python 2.7, gomill or GNU Go is not installed: the message says which and how."""


def tools_needed(gomill_dir=GOMILL_DIR):
    """`(python2, ringmaster script, gnugo)`, or RingmasterMissing."""
    python2 = find_python(RINGMASTER_PYTHON)
    if python2 is None:
        raise RingmasterMissing("no Python 2.7 (gomill needs it): pyenv install 2.7.18")
    script = os.path.join(gomill_dir, "bin", "ringmaster")
    if not os.path.isfile(script):
        raise RingmasterMissing("gomill is not installed in {}: make ringmaster".format(
            gomill_dir))
    gnugo = shutil.which("gnugo", path=os.environ.get("PATH", "") + GNUGO_DIRS)
    if gnugo is None:
        raise RingmasterMissing("GNU Go is missing: make gnugo")
    return python2, script, gnugo


def run_tournament(out_dir, games, gomill_dir=GOMILL_DIR, timeout=None):
    """Play `games` games (at most the control file's number_of_games) in `out_dir`, from a
    fresh competition; the summaries of all the games ringmaster recorded, in file order."""
    python2, script, gnugo = tools_needed(gomill_dir)
    os.makedirs(out_dir, exist_ok=True)
    control = os.path.join(out_dir, os.path.basename(CONTROL_FILE))
    shutil.copyfile(CONTROL_FILE, control)
    env = dict(os.environ, PYTHONPATH=gomill_dir)
    env[ENGINE_VARIABLE] = " ".join(shlex.quote(word) for word in (
        (sys.executable,) + COMMAND_WORDS))
    env[GNUGO_VARIABLE] = shlex.quote(gnugo)
    ringmaster = [python2, script, control]
    subprocess.run(ringmaster + ["reset"], env=env, check=True, timeout=timeout)
    subprocess.run(ringmaster + ["run", "--max-games", str(games), "--quiet"], env=env,
                   check=True, timeout=timeout)
    return [summarise(path) for path in sorted(glob.glob(
        os.path.join(out_dir, COMPETITION + ".games", "*.sgf")))]


def summarise(path):
    """One game record of ringmaster's as JSON values (see the module docstring)."""
    with open(path, "rb") as handle:
        game = sgf.Sgf_game.from_bytes(handle.read())
    _, plays = sgf_moves.get_setup_and_moves(game)
    position, played, refused = go_board.Position(), 0, None
    for colour, point in plays:
        if position.is_over:
            break
        move = go_board.PASS if point is None else go_board.from_coord(
            game.get_size() - 1 - point[0], point[1])
        if COLOURS[colour] != position.to_move or not position.is_legal(move):
            refused = played + 1
            break
        position = position.play(move)
        played += 1
    return {"file": os.path.basename(path), "black": game.get_player_name("b"),
            "white": game.get_player_name("w"), "result": game.get_root().get("RE"),
            "moves": len(plays), "little_go_plies": played,
            "little_go_result": result_text(position) if position.is_over else None,
            "refused_ply": refused}


def our_letter(summary):
    """`B` or `W`: our engine's colour in that game."""
    return "B" if summary["black"] == OUR_ENGINE else "W"


def margin_of(result):
    """The margin of a scored SGF result (`B+0.5`), None for any other (`W+R`, `B+F`, `Void`)."""
    try:
        return float(result[2:])
    except ValueError:
        return None


def check(summaries):
    """What is wrong with the tournament's games, as sentences (none: all is well)."""
    faults = []
    for summary in summaries:
        result, name = summary["result"], summary["file"]
        theirs = "W" if our_letter(summary) == "B" else "B"
        if result == VOID:
            faults.append("{}: void (move limit)".format(name))
        if result.upper() == theirs + FORFEIT_SUFFIX:
            faults.append("{}: our engine forfeited".format(name))
        if summary["refused_ply"] is not None:
            faults.append("{}: ply {} breaks the Little-Go rules".format(
                name, summary["refused_ply"]))
        if margin_of(result) is not None and result != summary["little_go_result"]:
            faults.append("{}: scored {}, the Little-Go result is {}".format(
                name, result, summary["little_go_result"]))
    return faults


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10,
                        help="games to play (at most the control file's number_of_games)")
    parser.add_argument("--out", default=os.path.join(RUNS_DIR, "ringmaster"))
    parser.add_argument("--gomill", default=GOMILL_DIR, help="where gomill is installed")
    args = parser.parse_args(argv)
    try:
        summaries = run_tournament(args.out, args.games, args.gomill)
    except RingmasterMissing as missing:
        sys.stderr.write("ringmaster: {}\n".format(missing))
        return 2
    except subprocess.CalledProcessError as error:
        sys.stderr.write("ringmaster failed: {}\n".format(error))
        return 1
    for summary in summaries:
        print(json.dumps(summary, sort_keys=True))
    ours = sum(1 for summary in summaries if summary["result"][:1] == our_letter(summary))
    faults = check(summaries)
    with open(os.path.join(args.out, SUMMARY_FILE), "w", encoding="utf-8") as handle:
        json.dump({"games": summaries, "wins": ours, "faults": faults}, handle, indent=1,
                  sort_keys=True)
    print("{} games, {} won by {}; {}".format(len(summaries), ours, OUR_ENGINE,
                                           "; ".join(faults) or "no faults"))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
