"""What every test shares: under CI, no test skips.

A test that needs a tool this machine lacks (GNU Go, gomill's ringmaster, the grader's Python
3.7, vermin, the compiled solver) skips on a developer's machine and says why: `make test` lists
every skip with its reason (`-rfEs` in pyproject.toml's addopts). Under CI
(littlego/grader/interpreters.py's `under_ci`: the CI variable, which `.ci/run` sets) the same
skip is an error, so the checks that guard a release cannot pass without running.
"""

import os

import pytest

from littlego.grader.interpreters import CI_VARIABLE, under_ci

CI_SKIP_PREFIX = "skipped under CI, where every test must run"
SKIP_WORD = "Skipped: "  # pytest's start of a skip's reason


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport():
    """A skip, by a marker or by pytest.skip in the test, reported as a failure under CI."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and under_ci():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        if reason.startswith(SKIP_WORD):
            reason = reason[len(SKIP_WORD):]
        report.outcome = "failed"
        report.longrepr = "{} ({}={}): {}".format(CI_SKIP_PREFIX, CI_VARIABLE,
                                                  os.environ[CI_VARIABLE], reason)
