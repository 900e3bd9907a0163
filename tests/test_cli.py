"""The `littlego` command (littlego/cli.py): every subcommand answers --help with its usage and
an example, unknown words are one line and exit 2, and every Make target calls a real one."""

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from littlego import cli
from littlego.paths import REPO_ROOT


def littlego(*words, env=None):
    return subprocess.run([sys.executable, "-m", "littlego"] + list(words), cwd=REPO_ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)


def test_the_overview_lists_every_command():
    done = littlego("--help")
    assert done.returncode == 0
    listed = re.findall(r"^  (\S+) ", done.stdout, re.M)
    assert listed == list(cli.COMMANDS)


def test_no_command_is_the_overview_and_exit_2():
    done = littlego()
    assert done.returncode == 2
    assert done.stdout.startswith("usage: littlego COMMAND")


def test_the_version_is_the_installed_distributions():
    # The distribution's metadata took its version from littlego.__version__ (pyproject.toml).
    done = littlego("--version")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "littlego {}\n".format(importlib.metadata.version("littlego"))
    assert re.fullmatch(r"littlego \d+\.\d+\.\d+\n", done.stdout)


@pytest.mark.parametrize("name", ["book", "verify-book"])
def test_ray_without_its_extra_is_one_line_naming_the_extra(name, monkeypatch, capsys):
    # Ray absent whether or not this venv has it (`make test-ray` installs it): a None entry in
    # sys.modules is what importlib.util.find_spec reports as no module.
    monkeypatch.setitem(sys.modules, "ray", None)
    assert importlib.util.find_spec("ray") is None
    assert cli.run(name, ["--ray", "127.0.0.1:6379"]) == 2
    assert capsys.readouterr() == ("", "littlego {}: --ray needs Ray, the cluster extra: "
                                       "pip install 'littlego[cluster]'\n".format(name))


def test_an_opponent_with_a_bad_seed_is_one_line_naming_it():
    done = littlego("opponent", "random", env=dict(os.environ, LITTLEGO_SEED="xyz"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "littlego opponent: LITTLEGO_SEED='xyz': allowed is a whole number " \
                          "from 0\n"


def test_an_unknown_command_is_one_line_and_exit_2():
    done = littlego("sovle")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "littlego: unknown command 'sovle' (see 'littlego --help')\n"


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_command_has_help_with_its_usage_and_an_example(name):
    done = littlego(name, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: littlego {}".format(name))
    assert done.stdout.endswith("\nexample:\n  {}\n".format(cli.COMMANDS[name].example))
    assert cli.COMMANDS[name].example.startswith("littlego {}".format(name))


def test_every_make_target_calls_a_command_that_exists():
    with open(REPO_ROOT + "/Makefile") as handle:
        called = set(re.findall(r"\$\(LG\) ([\w-]+)", handle.read()))
    assert called and called <= set(cli.COMMANDS)
    assert {"match", "play", "serve", "book", "verify-book", "ladder", "bench", "submission",
            "soak", "solve"} <= called


def test_a_command_runs_its_module_with_the_arguments():
    done = littlego("grader-python", "--version", "1.0")
    assert done.returncode == 1 and done.stdout == ""


# The referee's limit and the agent's budget: one name each, in every subcommand (issue 38).
REFEREE_LIMITS = ("--limit-cpu", "--limit-wall")
AGENT_BUDGET = ("--agent-move-cpu", "--agent-game-cpu")
BUDGET_OPTIONS = {"match": REFEREE_LIMITS, "play": REFEREE_LIMITS, "serve": REFEREE_LIMITS,
                  "ladder": AGENT_BUDGET, "soak": AGENT_BUDGET,
                  "opponent": ("--opponent-move-cpu",)}


@pytest.mark.parametrize("name", sorted(BUDGET_OPTIONS))
def test_cpu_options_say_whose_figure_they_are(name):
    text = " ".join(littlego(name, "--help").stdout.split())
    for option in BUDGET_OPTIONS[name]:
        assert option in text
    assert "--move-cpu" not in text and "--game-cpu " not in text
    if BUDGET_OPTIONS[name] == REFEREE_LIMITS:
        assert "the referee's CPU limit per move" in text and "Not the agent's budget" in text
    elif BUDGET_OPTIONS[name] == AGENT_BUDGET:
        assert "the agent's own CPU budget per move (LITTLEGO_MOVE_CPU" in text
        assert "Not the referee's limit" in text


def test_the_old_ambiguous_name_is_refused():
    done = littlego("ladder", "--move-cpu", "1", "--opponents", "random:0")
    assert done.returncode == 2 and "unrecognized arguments: --move-cpu" in done.stderr
