# Little-Go. `make match` plays the agent against random with the board shown; `make test`
# runs the tests. Both set up .venv themselves on a fresh machine.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLAYER := cmd:$(CURDIR)/$(PY) $(CURDIR)/my_player.py
GAMES ?= 2
RUNS := runs

.PHONY: install install-cluster gnugo solver test test-slow test-browser browser-deps test-ray lint match \
	play serve bench-engine bench bench-solver pypy ladder ladder-default book verify-book solve-all \
	submission check-submission \
	driver-match soak ringmaster gomill clean

install: $(STAMP)

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# GNU Go (Debian's package) for the ladder and the GTP tests: installed when missing, as root.
gnugo:
	@command -v gnugo >/dev/null || test -x /usr/games/gnugo || \
	    { apt-get update -qq && apt-get install -y -qq gnugo >/dev/null; } || \
	    echo "gnugo is missing and could not be installed: run 'sudo apt-get install gnugo'"

# gomill's ringmaster, a real GTP tournament controller, plays our GTP engine against GNU Go
# (tools/ringmaster.py, control file tools/littlego_vs_gnugo.ctl; RINGMASTER_ARGS changes it).
# Why Python 2.7: gomill's last release (0.8.3, on PyPI as an sdist) is written in Python 2
# (`except E, e`, `print` statements) and runs on 2.5-2.7 only. pyenv's 2.7 (found by
# tools/grader_python.py, never a fixed path) installs it with `pip install --target`, since 2.7
# has no venv module; the engine itself still runs on Python 3.
GOMILL := $(VENV)/gomill
RINGMASTER_ARGS ?= --games 10
ringmaster: $(STAMP) gnugo gomill
	$(PY) tools/ringmaster.py $(RINGMASTER_ARGS) --out $(RUNS)/ringmaster

gomill: $(GOMILL)/bin/ringmaster

$(GOMILL)/bin/ringmaster: $(STAMP)
	@python2=$$($(PY) tools/grader_python.py --version 2.7) && \
	    "$$python2" -m pip install --quiet --target $(GOMILL) gomill || \
	    echo "gomill is missing: it needs Python 2.7 ('pyenv install 2.7.18', then make gomill)"

# pyflakes first: undefined names in code the tests do not reach (tools run by slow tests).

# The compiled exact solver (solver/src, C loaded by solver/__init__.py through ctypes): offline
# tools only, never the per-move path. -march=native because it is built on the machine that
# runs it and never shipped; -flto lets the rules' small functions inline across files, and
# -fvisibility=hidden lets it inline the table's too (only api.c's door is exported: an exported
# function may be replaced at load time, so calls to one go through the PLT, uninlined).
SOLVER_LIB := solver/build/liblittlego_solver.so
SOLVER_SOURCES := $(wildcard solver/src/*.c solver/src/*.h)
SOLVER_CFLAGS ?= -O3 -flto -march=native -fvisibility=hidden -std=c11 -Wall -Wextra -Werror \
	-shared -fPIC
solver: $(SOLVER_LIB)

$(SOLVER_LIB): $(SOLVER_SOURCES)
	mkdir -p $(@D)
	$(CC) $(SOLVER_CFLAGS) -o $@ $(filter %.c,$(SOLVER_SOURCES))

# pyflakes first: undefined names in code the tests do not reach (tools run by slow tests).
test: $(STAMP) gnugo gomill solver
	$(PY) -m pyflakes *.py mcts referee opponents step_storage tools tests
	$(PY) -m pytest -q tests

# What is too long for the default run: matches (20 bundle games under the driver loop) and
# whole games of per-move subprocesses (course driver, GTP, book builder, soak).
test-slow: $(STAMP) solver
	$(PY) -m pytest -q -m slow tests

# The board page in headless chromium: Debian's chromium and its driver (apt-get, when missing)
# and selenium (pip, into .venv) first.
BROWSER_STAMP := $(VENV)/.browser-installed
test-browser: browser-deps solver
	$(PY) -m pytest -q -m browser tests

browser-deps: $(STAMP) $(BROWSER_STAMP)
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; \
	fi

$(BROWSER_STAMP): requirements-browser.txt
	$(PY) -m pip install --quiet -r requirements-browser.txt
	touch $(BROWSER_STAMP)

# The book builder on Ray (tools/build_book.py --ray ADDRESS, solver/jobs.py) against a local Ray.
test-ray: install-cluster
	$(PY) -m pytest -q -m ray tests

# Ray, for `tools/build_book.py --ray ADDRESS`; nothing else needs it.
install-cluster: $(STAMP)
	$(PY) -m pip install --quiet ray

# Python 3.7 syntax for everything the grader or the course driver runs, then repeated code.
lint: $(STAMP)
	$(VENV)/bin/vermin --target=3.7- --no-tips --violations \
	    $$($(PY) tools/make_submission.py --list-sources) opponents host.py referee
	duplicates

# The main job: the agent against the random player, the board shown after every move.
match: $(STAMP)
	$(PY) host.py match "$(PLAYER)" random --games $(GAMES) --show --out $(RUNS)/match-random

# A human against the agent in the terminal (COLOUR=1 to play Black).
COLOUR ?= 1
play: $(STAMP)
	$(PY) host.py play --opponent "$(PLAYER)" --colour $(COLOUR)

# The board in the browser at http://127.0.0.1:8561/ against the agent (SERVE_ARGS adds options).
SERVE_ARGS ?=
serve: $(STAMP)
	$(PY) host.py serve $(SERVE_ARGS)

bench-engine: $(STAMP)
	$(PY) tools/bench_engine.py

# Includes the driver-match and ladder results when those runs exist.
bench: $(STAMP) solver pypy
	$(PY) tools/bench.py $(if $(wildcard $(RUNS)/driver-match/summary.txt),--driver-run $(RUNS)/driver-match) \
	    $(if $(wildcard $(RUNS)/ladder),--ladder $(RUNS)/ladder) \
	    $(if $(wildcard $(RUNS)/ladder-default),--ladder $(RUNS)/ladder-default --time-use $(RUNS)/ladder-default) \
	    $(if $(wildcard $(RUNS)/soak/summary.json),--soak $(RUNS)/soak) $(BENCH_ARGS)

# The ladder at a reduced budget (1 s per move); LADDER_ARGS adds or overrides options.
LADDER_ARGS ?= --games 100 --move-cpu 1.0 --game-cpu 8 --parallel 2 --seed 2
ladder: $(STAMP) gnugo
	$(PY) tools/ladder.py $(LADDER_ARGS) --out $(RUNS)/ladder

# The check at the default budget (8.5 s per move, 55 s per game), one game at a time so the
# agent's workers have both cores as under the grader (about an hour). LADDER_SCALE=5 plays
# five times the games of every rung.
LADDER_SCALE ?= 1
LADDER_DEFAULT_ARGS ?= --opponents previous:20,plain-uct:20,agent-bare:20,alphabeta4:10,gnugo:10 \
	--parallel 1 --seed 3 --scale $(LADDER_SCALE)
ladder-default: $(STAMP) gnugo
	$(PY) tools/ladder.py $(LADDER_DEFAULT_ARGS) --out $(RUNS)/ladder-default

# The opening book: the winning side's whole strategy proven by the compiled solver
# (tools/build_book.py, solver/strategy.py): 97 jobs on both cores (17 min), each saved as it
# ends, so an interrupted build resumes (BOOK_ARGS=--fresh starts over, --ray ADDRESS uses a
# cluster).
BOOK_ARGS ?= --jobs 2
book: $(STAMP) solver
	$(PY) tools/build_book.py $(BOOK_ARGS)

# Every position the losing side can reach in each strategy, the book's answer proven winning
# by the compiled solver, on the build's jobs (2,108 CPU s for 381,876 positions: about 18 min
# on both cores; VERIFY_ARGS="--ray ADDRESS" for a cluster, VERIFY_ARGS="--lines 50" samples in
# one process).
VERIFY_ARGS ?=
verify-book: $(STAMP) solver
	$(PY) tools/verify_book.py $(VERIFY_ARGS)

# Little-Go solved from the empty board: every first move's exact result (docs/benchmarks.md).
SOLVE_ALL_DIR := $(RUNS)/solve-all
solve-all: $(STAMP) solver
	mkdir -p $(SOLVE_ALL_DIR)
	printf '1\n00000\n00000\n00000\n00000\n00000\n00000\n00000\n00000\n00000\n00000' \
	    > $(SOLVE_ALL_DIR)/input.txt
	$(PY) tools/solve.py $(SOLVE_ALL_DIR)/input.txt --ply 1 --table-bits 28 | tee $(SOLVE_ALL_DIR)/result.json

# PyPy (Debian's pypy3), only for the solver benchmark's side-by-side figure.
pypy:
	@command -v pypy3 >/dev/null || \
	    { apt-get update -qq && apt-get install -y -qq pypy3 >/dev/null; } || \
	    echo "pypy3 is missing and could not be installed: run 'sudo apt-get install pypy3'"

# The compiled solver against the Python solver (this Python, PyPy, the grader's 3.7) on the
# same positions, and its ply-7 proofs of the book's lines.
bench-solver: $(STAMP) solver pypy
	$(PY) tools/bench_solver.py

submission: $(STAMP)
	$(PY) tools/make_submission.py --out dist/submission

# The built bundle alone, 10 games per colour against random at the default budget (~10-13 min).
check-submission: submission
	tools/check_submission.sh

# The agent package under the course driver loop, every move metered (GAMES=100: ~45 min).
driver-match: $(STAMP)
	$(PY) tools/driver_match.py --games $(GAMES) --out $(RUNS)/driver-match

# The soak: at least 2,000 agent moves at the default budget against random, alphabeta4 and
# itself under the course driver loop, every move metered by the exact meter and by rusage
# (hours: run it on a quiet machine). SOAK_ARGS changes its size or budget, e.g.
# SOAK_ARGS="--moves 60 --move-cpu 1" for a quick check.
SOAK_ARGS ?= --moves 2000
soak: $(STAMP)
	$(PY) tools/soak.py $(SOAK_ARGS) --out $(RUNS)/soak

clean:
	rm -rf $(VENV) dist $(RUNS) .pytest_cache solver/build
