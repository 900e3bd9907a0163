"""The course grader's conditions, rebuilt here to check the agent under them.

Start at the one you need: `bundle` (the two files submitted: `littlego submission`),
`environment` (a graded run's environment: Python 3.7, no numpy or psutil, no settings),
`check_submission.sh` (the bundle alone under the course's driver loop), `driver_match` and
`course_driver.sh` (that loop, many games), `soak` (thousands of metered moves), `cpu_meter`
(one move's CPU over its whole process tree) and `interpreters` (finding the grader's 3.7, and
the 2.7 gomill needs, on this machine).
"""

import argparse
import os
import shlex
import subprocess

from course_io import OUTPUT_FILE

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_METER = os.path.join(HERE, "cpu_meter.py")
COURSE_DRIVER = os.path.join(HERE, "course_driver.sh")
CHECK_SUBMISSION = os.path.join(HERE, "check_submission.sh")


def meter_command(python, log_path):
    """The shell words that run a player's command inside the CPU meter, logging to `log_path`."""
    return " ".join(shlex.quote(str(word)) for word in (python, CPU_METER, log_path, OUTPUT_FILE))


def main(argv=None):
    """`littlego check-submission`: check_submission.sh, whose header says what it checks."""
    parser = argparse.ArgumentParser(description="The built bundle alone against the random "
                                     "player, under the course's driver loop and the grader's "
                                     "environment (SUBMISSION=DIR, PYTHON37=PATH change them).")
    parser.add_argument("games", nargs="?", type=int, default=10, help="games per colour")
    args = parser.parse_args(argv)
    return subprocess.call(["sh", CHECK_SUBMISSION, str(args.games)])
