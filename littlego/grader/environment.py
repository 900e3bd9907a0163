"""The course grader, simulated: how tests/test_submission.py and
littlego/grader/check_submission.sh run the bundle as the grader runs it, written once.

Start at `grader_env`: the environment of a graded run. `python3` there is the grader's Python 3.7
(littlego/grader/interpreters.py; a link first on PATH, so the course driver and host.py run on it
too; on a machine without one, this Python with a warning, or under CI GraderPythonMissing), numpy
and psutil cannot be imported (a directory first on PYTHONPATH holds modules of those names that
raise ImportError), and the agent gets none of its settings (agent_settings.SETTINGS_PREFIX), so
no seed either. Then `wellformed_output` and `check_moves`: the checks on the moves
littlego/grader/cpu_meter.py records (an output the referee accepts, on the board; CPU within the
grader's limit).

For the shell check:
    littlego grader-env env ROOT [--python PATH]   set ROOT up; print the environment's
                                                   changes as `export`/`unset` lines (exit 1
                                                   under CI without Python 3.7)
    littlego grader-env moves LOG                  summarise LOG's metered moves; exit 1
                                                   on a bad output or a move over the limit
"""

import argparse
import json
import os
import re
import shlex
import statistics
import sys
import warnings

import agent_settings
import course_io
from littlego.grader.interpreters import CI_VARIABLE, VERSION_TEXT, grader_python, under_ci
from littlego.referee.protocol import GRADER_MOVE_CPU

BLOCKED_MODULES = ("numpy", "psutil")
BLOCKER_SOURCE = "raise ImportError('{} is not promised by the grader')\n"
LAST_INDEX = course_io.SIZE - 1
WELLFORMED_OUTPUT = re.compile(r"({}|[0-{}],[0-{}])\Z".format(course_io.PASS_TEXT, LAST_INDEX,
                                                              LAST_INDEX))


class GraderPythonMissing(Exception):
    """Under CI, no Python 3.7 to run the bundle on: a check on another Python proves nothing
    about the grader's."""


def grader_env(root, interpreter=None, environ=None):
    """The environment of a graded run, its `bin` and `blocked` folders made in `root`.

    `interpreter` overrides the grader's Python; `environ` is the environment to start from
    (default os.environ). Without an interpreter and without Python 3.7 on this machine: this
    Python with a warning, or under CI (interpreters.under_ci) GraderPythonMissing.
    """
    environ = os.environ if environ is None else environ
    interpreter = interpreter or grader_python()
    if interpreter is None and under_ci(environ):
        raise GraderPythonMissing(
            "Python {} not found (pyenv or PATH), and {}={} makes it required: pyenv install "
            "{}".format(VERSION_TEXT, CI_VARIABLE, environ[CI_VARIABLE], VERSION_TEXT))
    if interpreter is None:
        interpreter = os.path.realpath(sys.executable)
        warnings.warn("Python {} not found: the bundle runs on {} {}.{} instead".format(
            VERSION_TEXT, interpreter, *sys.version_info[:2]))
    bin_dir = os.path.join(root, "bin")
    blocked = os.path.join(root, "blocked")
    os.makedirs(bin_dir)
    os.makedirs(blocked)
    os.symlink(interpreter, os.path.join(bin_dir, "python3"))
    for name in BLOCKED_MODULES:
        with open(os.path.join(blocked, name + ".py"), "w") as handle:
            handle.write(BLOCKER_SOURCE.format(name))
    env = {key: value for key, value in environ.items()
           if not key.startswith(agent_settings.SETTINGS_PREFIX)}
    env.update(PATH=bin_dir + os.pathsep + environ.get("PATH", ""), PYTHONPATH=blocked,
               PYTHONDONTWRITEBYTECODE="1")
    return env


def wellformed_output(text):
    """output.txt's text is `PASS` or a point on the board, exactly (no newline)."""
    return WELLFORMED_OUTPUT.match(text or "") is not None


def check_moves(moves, cpu_limit=GRADER_MOVE_CPU):
    """A summary of metered moves (cpu_meter records): how many, the malformed outputs, the CPU
    per move, and whether every move passed (well formed and within `cpu_limit`)."""
    cpus = sorted(move["cpu"] for move in moves)
    bad = [move for move in moves if not wellformed_output(move["output"])]
    return {"moves": len(moves), "bad_outputs": len(bad), "max_cpu": cpus[-1],
            "median_cpu": statistics.median(cpus),
            "over_default": sum(cpu > agent_settings.DEFAULT_MOVE_CPU for cpu in cpus),
            "passed": not bad and cpus[-1] <= cpu_limit}


def _print_env(args):
    try:
        env = grader_env(args.root, args.python)
    except GraderPythonMissing as missing:
        sys.stderr.write("littlego grader-env: {}\n".format(missing))
        return 1
    for key in sorted(set(os.environ) - set(env)):
        print("unset {}".format(key))
    for key in sorted(env):
        if os.environ.get(key) != env[key]:
            print("export {}={}".format(key, shlex.quote(env[key])))
    return 0


def _print_moves(args):
    with open(args.log) as handle:
        summary = check_moves([json.loads(line) for line in handle])
    print("our moves: {moves}, missing or malformed outputs: {bad_outputs}, CPU per move: max "
          "{max_cpu:.2f} s, median {median_cpu:.2f} s, over {default:g} s: {over_default} (the "
          "grader's limit is {limit:g} s)".format(default=agent_settings.DEFAULT_MOVE_CPU,
                                                  limit=GRADER_MOVE_CPU, **summary))
    return 0 if summary["passed"] else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    commands.required = True
    env = commands.add_parser("env", help="set up ROOT; print the environment's changes")
    env.add_argument("root")
    env.add_argument("--python", help="the interpreter (default: `littlego grader-python`'s)")
    env.set_defaults(run=_print_env)
    moves = commands.add_parser("moves", help="summarise and check a cpu_meter log")
    moves.add_argument("log")
    moves.set_defaults(run=_print_moves)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
