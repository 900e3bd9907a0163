"""Progress of the long commands (littlego/progress.py): a tqdm bar on a terminal, one plain line
per stage elsewhere, nothing with --quiet; every long command takes --quiet."""

import io
import re
import subprocess
import sys

import pytest
import test_strategy
from test_strategy import TABLE_BITS, build, job_count

from littlego.paths import REPO_ROOT
from littlego.progress import Progress
from littlego.solver import verify_book

LONG_COMMANDS = ("book", "verify-book", "ladder", "slips", "bench", "soak", "handover",
                 "value-table")
small_plans = test_strategy.small_plans  # the small book's fixture

# "NAME: DONE/TOTAL UNIT in S s (R UNIT/s)"
STAGE = re.compile(r"^(.+): (\d+)/(\d+) (\S+) in \d+\.\d s \(\d+\.\d\d \4/s\)$")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def run_stages(progress):
    with progress.stage("games", 3, "games") as stage:
        for _ in range(3):
            stage.advance()
    with progress.stage("positions", 10, "positions") as stage:
        stage.advance(4)


def test_off_a_terminal_each_stage_is_one_plain_line():
    stream = io.StringIO()
    run_stages(Progress(stream=stream))
    lines = stream.getvalue().splitlines()
    assert [STAGE.match(line).group(1, 2, 3, 4) for line in lines] == [
        ("games", "3", "3", "games"), ("positions", "4", "10", "positions")]


def test_on_a_terminal_a_bar_shows_the_count_the_rate_and_the_time_left():
    stream = Terminal()
    run_stages(Progress(stream=stream))
    shown = stream.getvalue()
    assert "games: 100%" in shown and "3/3" in shown and "games/s]" in shown
    assert "positions:  40%" in shown and "4/10" in shown
    assert re.search(r"4/10 \[\d\d:\d\d<", shown)  # elapsed<left
    assert not STAGE.search(shown)


@pytest.mark.parametrize("stream", [io.StringIO(), Terminal()])
def test_quiet_shows_nothing(stream):
    run_stages(Progress(quiet=True, stream=stream))
    assert stream.getvalue() == ""


def test_a_result_line_goes_to_stdout_whatever_quiet_says(capsys):
    for quiet in (False, True):
        with Progress(quiet=quiet).stage("jobs", 1, "jobs") as stage:
            stage.write("a result")
    captured = capsys.readouterr()
    assert captured.out == "a result\na result\n"
    assert len(captured.err.splitlines()) == 1


@pytest.mark.parametrize("name", LONG_COMMANDS)
def test_every_long_command_takes_quiet(name):
    done = subprocess.run([sys.executable, "-m", "littlego", name, "--help"], cwd=REPO_ROOT,
                          stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
    assert done.returncode == 0 and "--quiet" in done.stdout


def test_the_book_and_its_check_print_their_stages_or_nothing(tmp_path, small_plans, capsys):
    count = job_count(small_plans)
    capsys.readouterr()
    build(tmp_path / "loud")
    stages = [STAGE.match(line).group(1, 2, 3) for line in capsys.readouterr().err.splitlines()]
    assert stages == [("repertoire small-fewest", "1", "1"),
                      ("book", str(count), str(count)), ("seam", "3", "3")]
    build(tmp_path / "quiet", "--quiet")
    assert capsys.readouterr().err == ""
    book = str(tmp_path / "loud" / "book.txt")
    argv = ["--book", book, "--jobs", "1", "--table-bits", str(TABLE_BITS)]
    assert verify_book.main(argv) == 0
    stages = [STAGE.match(line).group(1, 2, 3) for line in capsys.readouterr().err.splitlines()]
    assert [stage[0] for stage in stages] == ["repertoire", "verify-book", "strategies", "seams"]
    assert stages[2][1:] == stages[3][1:] == ("3", "3")  # two small strategies, the slips'
    assert verify_book.main(argv + ["--quiet"]) == 0
    assert capsys.readouterr().err == ""
