"""The checks that guard a release cannot skip quietly: under CI (interpreters.under_ci, the
variable `.ci/run` sets) a Make target that cannot provide its tool fails, a skipped test is an
error (tests/conftest.py) and the grader's environment will not run the bundle on another
Python (littlego/grader/environment.py); elsewhere each says what is missing and goes on."""

import os
import shutil
import subprocess
import sys

import pytest

from littlego.grader import environment, interpreters
from littlego.paths import REPO_ROOT

# Values of the CI variable and whether each makes the run CI's, for Python and Make alike.
CI_VALUES = [(None, False), ("", False), ("0", False), ("false", False), ("true", True),
             ("1", True)]
STAMP = os.path.join(".venv", ".installed")


def without_ci(value=None):
    """os.environ without the CI variable or a calling make's flags; with CI=value if given."""
    env = {key: text for key, text in os.environ.items()
           if key not in (interpreters.CI_VARIABLE, "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    if value is not None:
        env[interpreters.CI_VARIABLE] = value
    return env


@pytest.mark.parametrize("value, strict", CI_VALUES)
def test_the_ci_variable_is_on_unless_unset_empty_0_or_false(value, strict):
    assert interpreters.CI_VARIABLE == "CI"
    assert interpreters.under_ci(without_ci(value)) is strict


@pytest.mark.parametrize("value, strict", CI_VALUES)
def test_a_make_target_without_its_tool_fails_under_ci_only(tmp_path, value, strict):
    # gomill's target with a `littlego` that finds no Python 2.7 (LG=false), the venv taken as
    # made (-o): the line saying how to install it, then exit 0, or under CI a failure.
    done = subprocess.run(["make", "-s", "-o", STAMP, "gomill", "LG=false",
                           "GOMILL={}".format(tmp_path / "gomill")], cwd=REPO_ROOT,
                          env=without_ci(value), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    assert done.stdout == ""
    assert done.stderr.startswith("gomill is missing: it needs Python 2.7 ('pyenv install "
                                  "2.7.18' then make gomill)\n")
    assert (done.returncode != 0) is strict
    assert ("required under CI (CI={})".format(value) in done.stderr) is strict
    assert not (tmp_path / "gomill").exists()


SKIPPING_TESTS = '''
import pytest

def test_runs():
    pass

@pytest.mark.skipif(True, reason="the first tool is not installed (make first)")
def test_marked():
    pass

def test_asks():
    pytest.skip("the second tool is not installed (make second)")
'''


@pytest.mark.parametrize("value, strict", [(None, False), ("true", True)])
def test_a_skip_says_why_and_under_ci_is_an_error(tmp_path, value, strict):
    shutil.copy(os.path.join(REPO_ROOT, "tests", "conftest.py"), str(tmp_path))
    (tmp_path / "test_tools.py").write_text(SKIPPING_TESTS)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfEs", "-p",
                           "no:cacheprovider", "test_tools.py"], cwd=str(tmp_path),
                          env=without_ci(value), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, timeout=120)
    summary = done.stdout.splitlines()[-1]
    if strict:
        assert done.returncode == 1, done.stdout
        assert summary.startswith("1 failed, 1 passed, 1 error in ")
        for reason in ("the first tool is not installed (make first)",
                       "the second tool is not installed (make second)"):
            assert "skipped under CI, where every test must run (CI=true): {}".format(
                reason) in done.stdout
    else:
        assert done.returncode == 0, done.stdout
        assert summary.startswith("1 passed, 2 skipped in ")
        assert "SKIPPED [1] test_tools.py:7: the first tool is not installed (make first)" \
            in done.stdout
        assert "SKIPPED [1] test_tools.py:12: the second tool is not installed (make second)" \
            in done.stdout


def test_without_python37_the_graders_environment_warns_and_under_ci_refuses(tmp_path,
                                                                            monkeypatch):
    monkeypatch.setattr(environment, "grader_python", lambda: None)
    with pytest.warns(UserWarning, match="Python 3.7 not found: the bundle runs on "):
        env = environment.grader_env(str(tmp_path / "here"), environ=without_ci())
    assert os.path.realpath(shutil.which("python3", path=env["PATH"])) == os.path.realpath(
        sys.executable)
    with pytest.raises(environment.GraderPythonMissing, match=r"^Python 3\.7 not found \(pyenv "
                       r"or PATH\), and CI=true makes it required: pyenv install 3\.7$"):
        environment.grader_env(str(tmp_path / "ci"), environ=without_ci("true"))
    assert not (tmp_path / "ci").exists()


def test_the_shell_checks_environment_is_one_line_and_exit_1_under_ci(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.setattr(environment, "grader_python", lambda: None)
    monkeypatch.setenv(interpreters.CI_VARIABLE, "1")
    assert environment.main(["env", str(tmp_path / "root")]) == 1
    assert capsys.readouterr() == ("", "littlego grader-env: Python 3.7 not found (pyenv or "
                                       "PATH), and CI=1 makes it required: pyenv install 3.7\n")


def test_ci_runs_every_check_with_the_variable_set(tmp_path):
    # .ci/run under a `make` that only records its targets and the CI variable it was given.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_make = bin_dir / "make"
    fake_make.write_text('#!/bin/sh\necho "CI=$CI $*" >> "{}"\n'.format(tmp_path / "made"))
    fake_make.chmod(0o755)
    env = dict(without_ci("false"), PATH=str(bin_dir) + os.pathsep + os.environ["PATH"])
    done = subprocess.run(["sh", os.path.join(REPO_ROOT, ".ci", "run")], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "made").read_text().splitlines() == [
        "CI=true test", "CI=true test-slow", "CI=true test-browser", "CI=true test-katrain"]
