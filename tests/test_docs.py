"""Docs that run: every command that README.md and docs/ give runs as written.

The commands are the code spans and the lines of code blocks that start with `littlego NAME`,
`make TARGET` or `python3 host.py`, in README.md, docs/rules.md, docs/benchmarks.md and
docs/analysis.md, and in docs/strength.md's "Re-running" section (its dated entries keep the
commands of their day).
Each runs in a short form that does no work: a `littlego` command and host.py parse their
arguments with the command's own parser (PARSE_ONLY stops the program right after), so an
unknown subcommand or option, or a value of the wrong kind, fails here; a `make` command is
`make -n` (the target exists), and every `littlego` line it would run is parsed the same way.
Placeholders of a schematic command (`littlego match A B --games N`) get the values in
PLACEHOLDERS. Also: no path of a particular machine in any of these files.
"""

import os
import re
import shlex
import subprocess
import sys

import pytest

from littlego import cli
from littlego.paths import REPO_ROOT

DOCS = ["README.md", "docs/rules.md", "docs/benchmarks.md", "docs/analysis.md"]
STRENGTH = "docs/strength.md"
RERUNNING = "## Re-running"
# Schematic words and what stands in for them.
PLACEHOLDERS = {"A": "random", "B": "greedy", "N": "1", "S": "1", "V": "True", "NAME": "solve",
                "<counter>": "1", "INPUT": "input.txt", "ADDRESS": "127.0.0.1:6379",
                "GAME": "game.sgf", "OUT": "reviewed.sgf"}
COMMAND_START = re.compile(r"^(littlego [\w-]|make [\w-]|python3 host\.py )")
MACHINE_PATHS = re.compile(r"/work/|/root/|/home/|/opt/")
# Run a program with argparse stopped right after it parsed its arguments: exit 0 and one line
# on stdout when they parse, argparse's own usage error (exit 2) when they do not.
PARSE_ONLY = """
import argparse, runpy, sys
parse = argparse.ArgumentParser.parse_args
def parse_only(self, args=None, namespace=None):
    parse(self, args, namespace)
    print("parsed by " + self.prog)
    sys.exit(0)
argparse.ArgumentParser.parse_args = parse_only
sys.argv = sys.argv[1:]
if sys.argv[0] == "-m":
    del sys.argv[0]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    runpy.run_path(sys.argv[0], run_name="__main__")
"""


def read(path):
    with open(os.path.join(REPO_ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def rerunning_section():
    text = read(STRENGTH)
    start = text.index(RERUNNING)
    end = text.find("\n## ", start + len(RERUNNING))
    return text[start:] if end < 0 else text[start:end]


def commands_in(text):
    """The commands of a Markdown text: code spans, and code block lines (continuations joined,
    comments dropped) that COMMAND_START accepts."""
    found = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
        found += [line.split("  #")[0].strip()
                  for line in block.replace("\\\n", " ").splitlines()]
    return [" ".join(command.split()) for command in found if COMMAND_START.match(command)]


def documented_commands():
    commands = [command for path in DOCS for command in commands_in(read(path))]
    return sorted(set(commands + commands_in(rerunning_section())))


def words_of(command):
    """The command's words up to a pipe, placeholders replaced."""
    words = shlex.split(command)
    if "|" in words:
        words = words[:words.index("|")]
    return [PLACEHOLDERS.get(word, word) for word in words]


def parse_only(arguments, python=sys.executable, cwd=REPO_ROOT):
    """Run `python PARSE_ONLY arguments` (a script path or `-m module`) in `cwd`."""
    return subprocess.run([str(python), "-c", PARSE_ONLY] + arguments, cwd=str(cwd),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)


def assert_littlego_parses(words, command):
    assert words[0].endswith("littlego")
    if words[1] not in ("--help", "--version"):
        assert words[1] in cli.COMMANDS, command
    done = parse_only(["-m", "littlego"] + words[1:])
    assert done.returncode == 0, "{}\n{}".format(command, done.stderr)
    assert "--help" in words or "--version" in words or "parsed by" in done.stdout, command


def test_the_docs_give_commands_of_every_kind():
    commands = documented_commands()
    assert "make test" in commands and "littlego --version" in commands
    assert any(command.startswith("python3 host.py") for command in commands)
    assert any(command.startswith("littlego ladder") for command in commands)


@pytest.mark.parametrize("command", documented_commands())
def test_a_documented_command_runs_as_written(command):
    words = words_of(command)
    if words[0] == "littlego":
        assert_littlego_parses(words, command)
    elif words[0] == "python3":
        done = parse_only(words[1:])
        assert done.returncode == 0 and "parsed by" in done.stdout, done.stderr
    else:
        done = subprocess.run(words[:1] + ["-n"] + words[1:], cwd=REPO_ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=60)
        assert done.returncode == 0, done.stderr
        for line in done.stdout.replace("\\\n", " ").splitlines():
            if re.match(r"[\w./-]*/littlego ", line):
                assert_littlego_parses(words_of(line), line)


@pytest.mark.parametrize("path", DOCS + [STRENGTH])
def test_no_path_of_a_particular_machine(path):
    assert not MACHINE_PATHS.findall(read(path)), path
