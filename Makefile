# Little-Go. `make match` plays the agent against random with the board shown; `make test`
# runs the tests. Both set up .venv (the project installed editable, with its dev tools) on a
# fresh machine. Every other target is one call of the `littlego` command (`littlego --help`).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LG := $(VENV)/bin/littlego
STAMP := $(VENV)/.installed
PLAYER := cmd:$(CURDIR)/$(PY) $(CURDIR)/my_player.py
GAMES ?= 2
RUNS := runs

# A tool a target cannot provide: $(call MISSING,how to install it) prints that line, and under CI
# (the variable CI set to anything but "", 0 or false: .ci/run sets it; one home for the name and
# its values in littlego/grader/interpreters.py) fails the target. Elsewhere the run goes on, and
# the tests that need the tool skip, saying why (under CI tests/conftest.py fails them instead).
UNDER_CI = $(filter-out 0 false,$(CI))
MISSING = { echo "$(1)" >&2; $(if $(UNDER_CI),echo "required under CI (CI=$(CI))" >&2; exit 1,true); }

.PHONY: install install-cluster browser-deps katrain-deps xvfb gnugo gomill python37 pypy solver \
	test test-slow test-browser test-ray test-katrain lint match play serve katrain bench \
	bench-engine bench-solver bench-value bench-analysis ladder \
	ladder-default ladder-centre ladder-deep book verify-book solve-all value-table handover \
	forced-openings \
	submission check-submission driver-match soak ringmaster clean

install: $(STAMP)

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Ray, for `littlego book --ray ADDRESS` and `littlego verify-book --ray ADDRESS`.
install-cluster: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,cluster]'

# The browser test: selenium (pip) and Debian's chromium and its driver (apt-get, when missing).
browser-deps: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,browser]'
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; \
	fi

# KaTrain (the extra .[katrain]: its wheels need Python 3.11 to 3.13), for `make katrain` and its
# test; and for KaTrain's window under a virtual display, Debian's xvfb, xdotool and imagemagick
# (apt-get, when missing).
katrain-deps: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,katrain]'

xvfb:
	@{ command -v Xvfb && command -v xdotool && command -v import; } >/dev/null || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      xvfb xdotool imagemagick >/dev/null; } || \
	    $(call MISSING,Xvfb or xdotool or imagemagick is missing: run 'sudo apt-get install xvfb xdotool imagemagick')

# GNU Go (Debian's package) for the ladder and the GTP tests: installed when missing, as root.
gnugo:
	@command -v gnugo >/dev/null || test -x /usr/games/gnugo || \
	    { apt-get update -qq && apt-get install -y -qq gnugo >/dev/null; } || \
	    $(call MISSING,gnugo is missing and could not be installed: run 'sudo apt-get install gnugo')

# gomill's ringmaster (`make ringmaster`) is Python 2 only (its last release, 0.8.3, has
# `except E, e` and print statements): pyenv's 2.7, found by `littlego grader-python`, installs
# it with `pip install --target`, since 2.7 has no venv module; our engine still runs on 3.
GOMILL := $(VENV)/gomill
gomill: $(GOMILL)/bin/ringmaster

$(GOMILL)/bin/ringmaster: $(STAMP)
	@python2=$$($(LG) grader-python --version 2.7) && \
	    "$$python2" -m pip install --quiet --target $(GOMILL) gomill || \
	    $(call MISSING,gomill is missing: it needs Python 2.7 ('pyenv install 2.7.18' then make gomill))

# The grader's Python 3.7 (pyenv's, found by `littlego grader-python`), on which the tests run the
# bundle as the grader does (littlego/grader/environment.py).
python37: $(STAMP)
	@if ! $(LG) grader-python >/dev/null; then \
	    $(call MISSING,the tests that run the bundle need Python 3.7: 'pyenv install 3.7'); fi

# PyPy (Debian's pypy3), only for the solver benchmark's side-by-side figure.
pypy:
	@command -v pypy3 >/dev/null || \
	    { apt-get update -qq && apt-get install -y -qq pypy3 >/dev/null; } || \
	    $(call MISSING,pypy3 is missing and could not be installed: run 'sudo apt-get install pypy3')

# The compiled exact solver (littlego/solver/src, C loaded through ctypes; its flags and why are
# in littlego/solver/build.py): offline tools only, never the per-move path. Tuned for this CPU
# in a checkout (--native); an installed package builds it for the baseline at its first use.
SOLVER_LIB := littlego/solver/build/liblittlego_solver.so
solver: $(SOLVER_LIB)

$(SOLVER_LIB): $(STAMP) $(wildcard littlego/solver/src/*.c littlego/solver/src/*.h)
	$(LG) build-solver --native

# pyflakes first: undefined names in code the tests do not reach (tools run by slow tests).
test: $(STAMP) gnugo gomill python37 solver
	$(PY) -m pyflakes *.py mcts step_storage littlego tests
	$(PY) -m pytest -q tests

# What is too long for the default run: matches (20 bundle games under the driver loop) and
# whole games of per-move subprocesses (course driver, GTP, book builder, soak).
test-slow: $(STAMP) gnugo python37 solver
	$(PY) -m pytest -q -m slow tests

test-browser: browser-deps solver
	$(PY) -m pytest -q -m browser tests

test-ray: install-cluster solver
	$(PY) -m pytest -q -m ray tests

# KaTrain's own engine class on `littlego analysis` (recorded games, exact at every move, its
# point loss the review's; terminate, garbage, kill, restart), then its window under Xvfb on a
# reviewed game, the screenshot kept in runs/katrain/katrain.png (about 3 minutes on 2 cores).
test-katrain: katrain-deps xvfb solver
	$(PY) -m pytest -q -m katrain tests

# Python 3.7 syntax for everything the grader or the course driver runs, the imports' order
# (pyproject.toml's [tool.isort]), then repeated code: pylint's similarity check (symilar's), on
# blocks of LINT_SIMILAR_LINES lines or more, comments, docstrings, imports and signatures left
# out. Every tool here comes with `pip install -e '.[dev]'`.
LINT_SIMILAR_LINES ?= 6
lint: $(STAMP)
	$(VENV)/bin/isort --check-only --quiet littlego tests *.py mcts step_storage
	$(VENV)/bin/vermin --target=3.7- --no-tips --violations \
	    $$($(LG) submission --list-sources) littlego/opponents littlego/referee littlego/paths.py host.py \
	    littlego/bench/decide_positions.py littlego/bench/book_lookup.py littlego/bench/python_solver_rate.py
	$(VENV)/bin/pylint --disable=all --enable=duplicate-code --score=n \
	    --min-similarity-lines=$(LINT_SIMILAR_LINES) --ignore-comments=y --ignore-docstrings=y \
	    --ignore-imports=y --ignore-signatures=y $$(git ls-files '*.py' || find . -name '*.py' -not -path './.venv/*')

# The main job: the agent against the random player, the board shown after every move.
match: $(STAMP)
	$(LG) match "$(PLAYER)" random --games $(GAMES) --show --out $(RUNS)/match-random

# A human against the agent in the terminal (COLOUR=1 to play Black).
COLOUR ?= 1
play: $(STAMP)
	$(LG) play --opponent "$(PLAYER)" --colour $(COLOUR)

# KaTrain on Little-Go, analysed by `littlego analysis`, with its own configuration and HOME in
# runs/katrain (never ~/.katrain); KATRAIN_ARGS=game.sgf opens a game (a `littlego review --sgf`
# file shows the review's comments too).
KATRAIN_ARGS ?=
katrain: katrain-deps solver
	$(LG) katrain $(KATRAIN_ARGS)

# The board in the browser at http://127.0.0.1:8561/ against the agent (SERVE_ARGS adds options).
SERVE_ARGS ?=
serve: $(STAMP)
	$(LG) serve $(SERVE_ARGS)

bench-engine: $(STAMP)
	$(LG) bench-engine

# Includes the driver-match, ladder and soak results when those runs exist.
bench: $(STAMP) solver pypy
	$(LG) bench $(if $(wildcard $(RUNS)/driver-match/summary.txt),--driver-run $(RUNS)/driver-match) \
	    $(if $(wildcard $(RUNS)/ladder),--ladder $(RUNS)/ladder) \
	    $(if $(wildcard $(RUNS)/ladder-default),--ladder $(RUNS)/ladder-default --time-use $(RUNS)/ladder-default) \
	    $(if $(wildcard $(RUNS)/soak/summary.json),--soak $(RUNS)/soak) $(BENCH_ARGS)

# The compiled solver against the Python solver (this Python, PyPy, the grader's 3.7) on the
# same positions, and its ply-7 proofs of the book's lines.
bench-solver: $(STAMP) solver pypy
	$(LG) bench-solver

# How long a GUI waits for `littlego analysis`, by ply, on the positions of recorded games: the
# first answer, the exact value, every exact margin (docs/benchmarks.md; about 15 minutes).
BENCH_ANALYSIS_ARGS ?=
bench-analysis: $(STAMP) solver
	$(LG) bench-analysis $(BENCH_ANALYSIS_ARGS)

# The empty board's value table (every first move's exact margin) beside its win/loss solve,
# and the values of White's replies to the centre (docs/value.md): minutes of CPU, 512 MB tables.
bench-value: $(STAMP) solver
	$(LG) bench-value

# The ladder at a reduced budget (1 s per move); LADDER_ARGS adds or overrides options.
LADDER_ARGS ?= --games 100 --agent-move-cpu 1.0 --agent-game-cpu 8 --parallel 2 --seed 2
ladder: $(STAMP) gnugo
	$(LG) ladder $(LADDER_ARGS) --out $(RUNS)/ladder

# The check at the default budget (8.5 s per move, 55 s per game), one game at a time so the
# agent's workers have both cores as under the grader (about an hour). LADDER_SCALE=5 plays
# five times the games of every rung.
LADDER_SCALE ?= 1
LADDER_DEFAULT_ARGS ?= --opponents previous:20,plain-uct:20,agent-bare:20,alphabeta4:10,gnugo:10 \
	--parallel 1 --seed 3 --scale $(LADDER_SCALE)
ladder-default: $(STAMP) gnugo
	$(LG) ladder $(LADDER_DEFAULT_ARGS) --out $(RUNS)/ladder-default

# White's yardstick after Black's centre (issue #32): 20 games a rung at the default budget, one
# at a time, the agent White, then every game judged by the compiled solver (about an hour).
LADDER_CENTRE_ARGS ?= --opponents centre-agent-bare:20,centre-gnugo:20,centre-alphabeta4:20,centre-plain-uct:20,centre-previous:20 \
	--parallel 1 --seed 70
ladder-centre: $(STAMP) gnugo solver
	$(LG) ladder $(LADDER_CENTRE_ARGS) --out $(RUNS)/ladder-centre
	$(LG) slips $(RUNS)/ladder-centre --records $(RUNS)/ladder-centre/slips.jsonl

# White's tries from ply 6 on, where the repertoire's rules differ: Black plays the book through
# ply 5, then itself (about 30 minutes; build the book with `littlego book --rule model` to
# measure the other rule).
LADDER_DEEP_ARGS ?= --opponents deep-agent-bare:20,deep-plain-uct:20 --parallel 1 --seed 71
ladder-deep: $(STAMP) solver
	$(LG) ladder $(LADDER_DEEP_ARGS) --out $(RUNS)/ladder-deep
	$(LG) slips $(RUNS)/ladder-deep --records $(RUNS)/ladder-deep/slips.jsonl

# The opening book: the winning side's whole strategy proven by the compiled solver, and White's
# repertoire after the centre with proofs after every slip along it: the repertoire (5 min),
# then 153 jobs on both cores (20 min in all), each saved as it ends, so an interrupted build
# resumes (BOOK_ARGS=--fresh starts over, --ray ADDRESS uses a cluster, --rule model the other
# rule for White's tries).
BOOK_ARGS ?= --jobs 2
book: $(STAMP) solver
	$(LG) book $(BOOK_ARGS)

# White's repertoire (every try's count of Black's winning replies proven), then every position
# the losing side can reach in each strategy and after every slip along the repertoire, the
# book's answer proven winning by the compiled solver, on the build's jobs (about 20 min on both
# cores; VERIFY_ARGS="--ray ADDRESS" for a cluster, VERIFY_ARGS="--lines 50" samples in one
# process, VERIFY_ARGS="--only white-repertoire,white-after-slips" the repertoire's parts).
VERIFY_ARGS ?=
verify-book: $(STAMP) solver
	$(LG) verify-book $(VERIFY_ARGS)

# Little-Go solved from the empty board: every first move's exact result (docs/benchmarks.md).
solve-all: $(STAMP) solver
	mkdir -p $(RUNS)/solve-all
	$(LG) solve --empty --ply 1 | tee $(RUNS)/solve-all/result.json

# The stored value table of the opening positions (every legal move's exact value, the board's
# numbers where the solver takes minutes; docs/value.md): resumed where an earlier run stopped,
# one compiled solver with a 512 MB table (VALUE_TABLE_ARGS="--positions 2" does two more).
VALUE_TABLE_ARGS ?=
value-table: $(STAMP) solver
	$(LG) value-table $(VALUE_TABLE_ARGS)

# The seam where the book ends, sampled as strong games make it: 2,000 positions decided by the
# agent on the grader's Python 3.7 at the default budget, judged by the compiled solver (about
# 40 minutes on both cores; HANDOVER_ARGS="--positions 60" is a quick look).
HANDOVER_ARGS ?= --positions 2000
handover: $(STAMP) solver
	mkdir -p $(RUNS)/handover
	$(LG) handover $(HANDOVER_ARGS) --records $(RUNS)/handover/positions.jsonl

# The agent as White after each of Black's 24 losing first moves, Black the agent itself, three
# games each at the default budget on the grader's Python 3.7 (about an hour on both cores).
FORCED_ARGS ?= --games-per-move 3
forced-openings: $(STAMP)
	$(LG) forced-openings $(FORCED_ARGS) --out $(RUNS)/forced-openings

submission: $(STAMP)
	$(LG) submission --out dist/submission

# The built bundle alone, 10 games per colour against random at the default budget (~10-13 min).
check-submission: submission
	$(LG) check-submission

# The agent under the course driver loop, every move metered (GAMES=100: ~45 min).
driver-match: $(STAMP)
	$(LG) driver-match --games $(GAMES) --out $(RUNS)/driver-match

# The soak: at least 2,000 agent moves at the default budget against random, alphabeta4 and
# itself under the course driver loop, every move metered by the exact meter and by rusage
# (hours: run it on a quiet machine). SOAK_ARGS="--moves 60 --agent-move-cpu 1" is a quick check.
SOAK_ARGS ?= --moves 2000
soak: $(STAMP)
	$(LG) soak $(SOAK_ARGS) --out $(RUNS)/soak

# gomill's ringmaster against GNU Go level 10, every record checked (RINGMASTER_ARGS changes it).
RINGMASTER_ARGS ?= --games 10
ringmaster: $(STAMP) gnugo gomill
	$(LG) ringmaster $(RINGMASTER_ARGS) --out $(RUNS)/ringmaster

clean:
	rm -rf $(VENV) dist build $(RUNS) .pytest_cache littlego/solver/build *.egg-info
