"""`littlego katrain [GAME.sgf]`: KaTrain (the Go teaching GUI, PyPI `katrain`, the extra
`.[katrain]`) opened on Little-Go, its analysis engine this project's (`littlego analysis`,
katago.py), with a configuration of its own: the user's ~/.katrain is never read or written.

Start at `config(engine_command)`: KaTrain's own package configuration with what Little-Go
needs: the engine `custom`, its command `exec .../littlego analysis` (`engine_command`: `exec`,
so that KaTrain's terminate reaches the engine itself, not a shell that forked it), a new game
5x5 with komi 2.5 under KataGo's stone scoring (KaTrain calls it "Ancient Chinese": the stones
alone count, as in Little-Go), the window's size. `main` writes it to DIR/config.json (default
runs/katrain), points HOME at DIR/home (where KaTrain and Kivy keep their files) and runs KaTrain
on it, with the SGF given (a `littlego review --sgf` file shows the review's comments beside
KaTrain's own analysis). KaTrain's score counting is its own: the engine's numbers are
Little-Go's.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

from littlego.paths import RUNS_DIR

KATRAIN_DIR = os.path.join(RUNS_DIR, "katrain")
# Seconds of work on one position (KaTrain's max_time): the exact value comes within it from
# ply 5 on (docs/benchmarks.md); before, the stored value table answers at once.
MAX_TIME = 30.0
WINDOW = [1280, 900]  # KaTrain's window, pixels (its `ui_state`)
NOT_INSTALLED = ("katrain: KaTrain is not installed here: pip install 'littlego[katrain]' "
                 "(Python 3.11 to 3.13), or `make katrain` in a checkout")


def engine_command():
    """`exec <this venv>/bin/littlego analysis` (the `littlego` beside this Python, else this
    Python's `-m littlego`)."""
    script = os.path.join(os.path.dirname(sys.executable), "littlego")
    words = [script] if os.path.exists(script) else [sys.executable, "-m", "littlego"]
    return "exec " + " ".join(shlex.quote(word) for word in words + ["analysis"])


def package_config():
    """KaTrain's own configuration (its package's config.json), or None when KaTrain is not
    installed."""
    try:
        import katrain
    except ImportError:
        return None
    with open(os.path.join(os.path.dirname(katrain.__file__), "config.json")) as handle:
        return json.load(handle)


def config(base, command, max_time=MAX_TIME):
    """`base` (KaTrain's configuration) set up for Little-Go and the engine `command`."""
    settings = json.loads(json.dumps(base))
    settings["engine"].update({"backend": "custom", "altcommand": command, "max_time": max_time,
                               "wide_root_noise": 0.0, "_enable_ownership": True})
    settings["game"].update({"size": "5", "komi": 2.5, "rules": "stone_scoring",
                             "handicap": 0})
    settings["general"].update({"load_sgf_rewind": True, "sgf_save": "sgfout"})
    settings["ui_state"].update({"restoresize": True, "size": WINDOW, "left": 0, "top": 0})
    return settings


def main(argv=None):
    """`littlego katrain [GAME.sgf] [--dir DIR] [--max-time S]`: KaTrain's exit code; 2 when it
    is not installed."""
    parser = argparse.ArgumentParser(
        prog="littlego katrain",
        description="KaTrain on Little-Go, analysed by `littlego analysis`, with a "
                    "configuration of its own (never ~/.katrain).")
    parser.add_argument("game", nargs="?", help="an SGF file to open (default: a new game)")
    parser.add_argument("--dir", default=KATRAIN_DIR,
                        help="where its configuration and HOME go (default %(default)s)")
    parser.add_argument("--max-time", type=float, default=MAX_TIME, metavar="S",
                        help="CPU seconds of analysis a position, KaTrain's max_time "
                             "(default %(default)s)")
    args = parser.parse_args(argv)
    base = package_config()
    if base is None:
        sys.stderr.write(NOT_INSTALLED + "\n")
        return 2
    home = os.path.abspath(os.path.join(args.dir, "home"))
    os.makedirs(home, exist_ok=True)
    path = os.path.abspath(os.path.join(args.dir, "config.json"))
    with open(path, "w") as handle:
        json.dump(config(base, engine_command(), args.max_time), handle, indent=1)
    environment = dict(os.environ, HOME=home)
    command = [sys.executable, "-m", "katrain", path]
    if args.game:
        command.append(os.path.abspath(args.game))
    return subprocess.call(command, env=environment, cwd=os.path.abspath(args.dir))
