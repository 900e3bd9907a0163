"""The grader's interpreter: the real Python 3.7 executable on this machine, one home for finding
it (and any other pyenv Python a tool needs: 2.7 for gomill's ringmaster, see
littlego/gtp/ringmaster.py), and for whether this run may go on without it (`under_ci`).

Start at `grader_python` (or `find_python`). The course grader runs Python 3.7 ("the highest
version offered is Python 3.7.5", docs/rules.md); tools and tests that must run the agent as
the grader does find it here: pyenv's newest 3.7 (`pyenv versions --bare`, `pyenv prefix`), else
`python3.7` on PATH, resolved to the real executable (a version manager's shim would add its own
CPU to every metered move). `littlego grader-python [--version X.Y]` prints its path, or
exits 1 when there is none.

Under CI (`under_ci`: CI_VARIABLE set, as `.ci/run` sets it) the tools the checks need are
required: the Makefile's `gnugo`, `gomill` and `python37` targets fail when they cannot
provide theirs, tests/conftest.py turns every skipped test into an error, and the grader's
environment refuses to run the bundle on another Python (littlego/grader/environment.py).
Elsewhere a missing tool is a line saying how to install it and a skip that gives its reason.
"""

import argparse
import os
import shutil
import subprocess
import sys


def _version_text(version):
    return "{}.{}".format(*version)


GRADER_VERSION = (3, 7)
VERSION_TEXT = _version_text(GRADER_VERSION)
# The switch of CI's strictness: the name hosted CI services set, and `.ci/run` too. The Makefile
# reads the same variable with the same values off (UNDER_CI there).
CI_VARIABLE = "CI"
CI_OFF_VALUES = ("", "0", "false")


def _probe(version):
    """A one-liner that prints the interpreter's real path if it is `version` (Python 2 too)."""
    return "import sys; print(sys.version_info[:2] == {!r} and sys.executable or '')".format(
        tuple(version))


def _candidates(version):
    text = _version_text(version)
    try:
        versions = subprocess.run(["pyenv", "versions", "--bare"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        found = sorted((v for v in versions.split() if v.startswith(text + ".")),
                       key=lambda v: [int(part) for part in v.split(".") if part.isdigit()])
        if found:
            prefix = subprocess.run(["pyenv", "prefix", found[-1]], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, universal_newlines=True).stdout
            yield os.path.join(prefix.strip(), "bin", "python" + text)
    except OSError:
        pass
    on_path = shutil.which("python" + text)
    if on_path:
        yield on_path


def find_python(version):
    """The real executable of Python `version` (major, minor), or None when there is none."""
    for candidate in _candidates(version):
        try:
            done = subprocess.run([candidate, "-c", _probe(version)], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        executable = done.stdout.strip()
        if done.returncode == 0 and executable:
            return executable
    return None


def grader_python():
    """The real Python 3.7 executable, or None when this machine has none."""
    return find_python(GRADER_VERSION)


def under_ci(environ=None):
    """Whether this is CI's run, where a missing tool is an error: CI_VARIABLE is set in
    `environ` (default os.environ) to anything but one of CI_OFF_VALUES."""
    environ = os.environ if environ is None else environ
    return environ.get(CI_VARIABLE, "") not in CI_OFF_VALUES


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=VERSION_TEXT,
                        help="MAJOR.MINOR (default: the grader's, {})".format(VERSION_TEXT))
    args = parser.parse_args(argv)
    try:
        version = tuple(int(part) for part in args.version.split("."))
    except ValueError:
        parser.error("--version is MAJOR.MINOR, e.g. 2.7")
    path = find_python(version)
    if path is None:
        sys.stderr.write("no Python {} found (pyenv or PATH)\n".format(args.version))
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
