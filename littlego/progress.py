"""Progress of the long offline commands (`book`, `verify-book`, `ladder`, `slips`, `bench`,
`soak`, `handover`, `value-table`), shown alike by all of them from this one module.

Start at `Progress.stage`: a stage of work with a known count (jobs, games, positions, moves) is
a context manager whose `advance()` counts items done. Where it goes, on stderr:
- on a terminal, a tqdm bar: the count, the rate and the time left;
- elsewhere (CI logs, a pipe, a file), one plain line when the stage ends (`STAGE_LINE`);
- with `--quiet` (`add_quiet_option`), nothing.
A command's results stay on stdout: `Stage.write` prints one line there, above a bar without
breaking it, quiet or not.
"""

import sys
import time

from tqdm import tqdm

STAGE_LINE = "{name}: {done}/{total} {unit} in {seconds:.1f} s ({rate:.2f} {unit}/s)"


def add_quiet_option(parser):
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress bar (on a terminal) or stage lines (elsewhere) on "
                             "stderr; the results are printed all the same")


class Progress(object):
    """Where the stages of one command show: `quiet` silences them; `stream` is stderr unless a
    test says otherwise."""

    def __init__(self, quiet=False, stream=None):
        self.quiet = quiet
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty and isatty())

    def stage(self, name, total, unit="items"):
        return Stage(self, name, total, unit)


class Stage(object):
    """`total` items of one kind (`unit`) under one `name`; use it in a `with` block."""

    def __init__(self, progress, name, total, unit):
        self.progress = progress
        self.name = name
        self.total = total
        self.unit = unit
        self.done = 0
        self.started = None
        self.bar = None

    def __enter__(self):
        self.started = time.monotonic()
        if self.progress.terminal and not self.progress.quiet:
            self.bar = tqdm(total=self.total, desc=self.name, unit=" " + self.unit,
                            file=self.progress.stream, dynamic_ncols=True)
        return self

    def advance(self, count=1):
        self.done += count
        if self.bar is not None:
            self.bar.update(count)

    def write(self, text):
        """One result line on stdout."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stdout)
        else:
            print(text, flush=True)

    def __exit__(self, *exception):
        if self.bar is not None:
            self.bar.close()
        elif not self.progress.quiet:
            seconds = time.monotonic() - self.started
            self.progress.stream.write(STAGE_LINE.format(
                name=self.name, done=self.done, total=self.total, unit=self.unit,
                seconds=seconds, rate=self.done / seconds if seconds > 0 else 0.0) + "\n")
            self.progress.stream.flush()
        return False
