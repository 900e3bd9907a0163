"""Where the project's files are, worked out once: every tool and test asks here.

`REPO_ROOT` is the directory that holds the per-move modules (`my_player.py`, `go_board.py`, ...)
and the `littlego` package: the checkout, or site-packages after `pip install .`, where only the
installed files are (no tests, docs or runs).
"""

import os
import shlex

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MY_PLAYER = os.path.join(REPO_ROOT, "my_player.py")
HOST = os.path.join(REPO_ROOT, "host.py")
# Where tools write their runs unless told otherwise (relative to the working directory).
RUNS_DIR = "runs"


def module_command(python, module, *args):
    """The shell command that runs `python -m module args` from any working directory (a game's
    directory, say) with this checkout importable, whatever the interpreter has installed: the
    grader's 3.7 has nothing of ours. PYTHONPATH keeps what it held after the checkout."""
    words = " ".join(shlex.quote(word) for word in (python, "-m", module) + tuple(args))
    return 'PYTHONPATH={}"${{PYTHONPATH:+:$PYTHONPATH}}" {}'.format(shlex.quote(REPO_ROOT), words)
