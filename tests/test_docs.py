"""Docs that run: every command that README.md and docs/ give runs as written.

The commands are the code spans and the lines of code blocks that start with `littlego NAME`,
`make TARGET` or `python3 host.py`, in README.md and the reference pages of docs/ (DOCS), and in
docs/strength.md's "Re-running" section (its dated entries, like CHANGELOG.md's, keep the
commands of their day).
Each runs in a short form that does no work: a `littlego` command and host.py parse their
arguments with the command's own parser (PARSE_ONLY stops the program right after), so an
unknown subcommand or option, or a value of the wrong kind, fails here; a `make` command is
`make -n` (the target exists), and every `littlego` line it would run is parsed the same way.
Placeholders of a schematic command (`littlego match A B --games N`) get the values in
PLACEHOLDERS. Also, in every Markdown file of the project (MARKDOWN): no path of a particular
machine, no work dated by the sittings it took (the reader has no such thing), and every link
into the repository resolves, to a file and, where it names one, to a heading of it.
"""

import glob
import os
import re
import shlex
import subprocess
import sys

import pytest

from littlego import cli
from littlego.paths import REPO_ROOT

DOCS = ["README.md", "docs/rules.md", "docs/benchmarks.md", "docs/value.md", "docs/playing.md",
        "docs/installing.md", "docs/glossary.md", "docs/analysis.md"]
STRENGTH = "docs/strength.md"
MARKDOWN = sorted(["README.md", "CHANGELOG.md"] + [
    os.path.relpath(path, REPO_ROOT)
    for path in glob.glob(os.path.join(REPO_ROOT, "docs", "*.md"))])
RERUNNING = "## Re-running"
# Schematic words and what stands in for them.
PLACEHOLDERS = {"A": "random", "B": "greedy", "N": "1", "S": "1", "V": "True", "NAME": "solve",
                "<counter>": "1", "INPUT": "input.txt", "ADDRESS": "127.0.0.1:6379",
                "GAME": "game.sgf", "OUT": "reviewed.sgf"}
COMMAND_START = re.compile(r"^(littlego [\w-]|make [\w-]|python3 host\.py )")
MACHINE_PATHS = re.compile(r"/work/|/root/|/home/|/opt/")
SITTINGS = re.compile(r"\bsessions?\b", re.I)
# A Markdown link or image: [text](target) or ![text](target); the target has no spaces.
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^()\s]+)\)")
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


def without_code(text):
    """`text` with its code blocks and code spans blanked out (links there are not links)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(text):
    """The anchors GitHub gives the headings of a Markdown `text`: lower case, punctuation
    dropped, spaces as hyphens, a repeated one numbered -1, -2, ..."""
    found, seen = set(), {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", re.sub(r"```.*?```", "", text, flags=re.S),
                              re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else "{}-{}".format(slug, count))
    return found


def broken_links(path):
    """The links of the Markdown file `path` (relative to the checkout) into the repository that
    name no file, or a heading the file does not have."""
    broken = []
    for target in LINK.findall(without_code(read(path))):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto: lead out of the repository
        file_part, _, anchor = target.partition("#")
        linked = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part \
            else path
        if not os.path.exists(os.path.join(REPO_ROOT, linked)):
            broken.append(target)
        elif anchor and (not linked.endswith(".md") or anchor not in anchors(read(linked))):
            broken.append(target)
    return broken


def test_anchors_are_the_ones_github_makes():
    text = ("# A `b` c\n## Re-running\n```\n# not a heading\n```\n"
            "## 2026-11-25, night: it's (#32)\n## A b c\n")
    assert anchors(text) == {"a-b-c", "re-running", "2026-11-25-night-its-32", "a-b-c-1"}


@pytest.mark.parametrize("path", MARKDOWN)
def test_every_link_into_the_repository_resolves(path):
    assert broken_links(path) == [], path


def test_a_broken_link_is_found(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Here\n[ok](a.md#here) [no](b.md) [gone](a.md#there)"
                                            " `[code](x.md)` [out](https://example.org/x)\n")
    monkeypatch.setattr(sys.modules[__name__], "REPO_ROOT", str(tmp_path))
    assert broken_links("docs/a.md") == ["b.md", "a.md#there"]


@pytest.mark.parametrize("path", MARKDOWN)
def test_no_path_of_a_particular_machine(path):
    assert not MACHINE_PATHS.findall(read(path)), path


@pytest.mark.parametrize("path", MARKDOWN)
def test_no_work_is_dated_by_the_sittings_it_took(path):
    assert not SITTINGS.findall(read(path)), path
