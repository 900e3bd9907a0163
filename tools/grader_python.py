"""The grader's interpreter: the real Python 3.7 executable on this machine, one home for finding it.

Start at `grader_python`. The course grader runs Python 3.7 ("the highest version offered is
Python 3.7.5", ../shared/rules.md); tools and tests that must run the agent as the grader does
find it here: pyenv's newest 3.7 (`pyenv versions --bare`, `pyenv prefix`), else `python3.7` on
PATH, resolved to the real executable (a version manager's shim would add its own CPU to every
metered move). `python3 tools/grader_python.py` prints its path, or exits 1 when there is none.
"""

import os
import shutil
import subprocess
import sys

GRADER_VERSION = (3, 7)
VERSION_TEXT = "{}.{}".format(*GRADER_VERSION)
PROBE = "import sys; print(sys.version_info[:2] == {!r} and sys.executable or '')".format(
    GRADER_VERSION)


def _candidates():
    try:
        versions = subprocess.run(["pyenv", "versions", "--bare"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        found = sorted((v for v in versions.split() if v.startswith(VERSION_TEXT + ".")),
                       key=lambda v: [int(part) for part in v.split(".") if part.isdigit()])
        if found:
            prefix = subprocess.run(["pyenv", "prefix", found[-1]], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, universal_newlines=True).stdout
            yield os.path.join(prefix.strip(), "bin", "python" + VERSION_TEXT)
    except OSError:
        pass
    on_path = shutil.which("python" + VERSION_TEXT)
    if on_path:
        yield on_path


def grader_python():
    """The real Python 3.7 executable, or None when this machine has none."""
    for candidate in _candidates():
        try:
            done = subprocess.run([candidate, "-c", PROBE], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        executable = done.stdout.strip()
        if done.returncode == 0 and executable:
            return executable
    return None


def main(argv=None):
    path = grader_python()
    if path is None:
        sys.stderr.write("no Python {} found (pyenv or PATH)\n".format(VERSION_TEXT))
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
