"""Run one player move and record its CPU as the grader meters it: the whole process tree.

Usage: python3 cpu_meter.py LOG_FILE OUTPUT_FILE COMMAND [ARGS...]

Runs COMMAND in the current directory and appends one JSON line to LOG_FILE:
`{"cpu": seconds, "wall": seconds, "exit": code, "output": OUTPUT_FILE's text or null}`.
`cpu` is user + system time of COMMAND and of every descendant reaped within it (worker
processes included), read from RUSAGE_CHILDREN: this wrapper has no other child. Exits with
COMMAND's exit code, so a driver sees the player as if it ran alone. Standard library only and
run by its path (`littlego.grader.meter_command`), so that the metered player's environment is
the caller's, with nothing of this checkout added to it.
"""

import json
import os
import resource
import subprocess
import sys
import time


def read_output(path):
    """The player's output file as text (undecodable bytes replaced), or None when it wrote none."""
    if not os.path.isfile(path):
        return None
    with open(path, errors="replace") as handle:
        return handle.read()


def main(argv):
    log_path, output_path, command = argv[0], argv[1], argv[2:]
    started = time.monotonic()
    exit_code = subprocess.call(command)
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {"cpu": round(usage.ru_utime + usage.ru_stime, 4), "wall": round(wall, 4),
              "exit": exit_code, "output": read_output(output_path)}
    with open(log_path, "a") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")
    return exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
