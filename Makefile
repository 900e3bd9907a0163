# Little-Go. `make match` plays the agent against random with the board shown; `make test`
# runs the tests. Both set up .venv themselves on a fresh machine.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLAYER := cmd:$(CURDIR)/$(PY) $(CURDIR)/my_player.py
GAMES ?= 2
RUNS := runs

.PHONY: install install-cluster test test-slow test-ray lint match play bench-engine bench ladder \
	ladder-default book submission check-submission driver-match clean

install: $(STAMP)

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q tests

# Matches too long for the default run (20 bundle games under the driver loop).
test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow tests

# The book builder's cluster executor (tools/build_book.py --ray ADDRESS) against a local Ray.
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

bench-engine: $(STAMP)
	$(PY) tools/bench_engine.py

# Includes the driver-match and ladder results when those runs exist.
bench: $(STAMP)
	$(PY) tools/bench.py $(if $(wildcard $(RUNS)/driver-match/summary.txt),--driver-run $(RUNS)/driver-match) \
	    $(if $(wildcard $(RUNS)/ladder),--ladder $(RUNS)/ladder) \
	    $(if $(wildcard $(RUNS)/ladder-default),--ladder $(RUNS)/ladder-default --time-use $(RUNS)/ladder-default)

# The ladder at a reduced budget (1 s per move); LADDER_ARGS adds or overrides options.
# Seed 2: the book's learned answers came from games of seed 1, which must not be re-measured.
LADDER_ARGS ?= --games 100 --move-cpu 1.0 --game-cpu 8 --parallel 2 --seed 2
ladder: $(STAMP)
	$(PY) tools/ladder.py $(LADDER_ARGS) --out $(RUNS)/ladder

# The shorter match at the default budget (8.5 s per move), showing the ladder's ranking holds;
# one game at a time, so the agent's workers have both cores as they would under the grader.
LADDER_DEFAULT_ARGS ?= --games 20 --opponents alphabeta4,gnugo --parallel 1 --seed 2
ladder-default: $(STAMP)
	$(PY) tools/ladder.py $(LADDER_DEFAULT_ARGS) --out $(RUNS)/ladder-default

# The opening book (tools/build_book.py): resumes an interrupted build (BOOK_ARGS=--fresh starts
# over); prints each ply's size before it starts, and the CPU it took. Offline, so under PyPy
# where installed: the same search does about twice the simulations per CPU second.
BOOK_PYTHON ?= $(or $(shell command -v pypy3),$(PY))
BOOK_ARGS ?= --jobs 2
book: $(STAMP)
	$(BOOK_PYTHON) tools/build_book.py $(BOOK_ARGS)

submission: $(STAMP)
	$(PY) tools/make_submission.py --out dist/submission

# The built bundle alone, 10 games per colour against random at the default budget (~10-13 min).
check-submission: submission
	tools/check_submission.sh

# The agent package under the course driver loop, every move metered (GAMES=100: ~45 min).
driver-match: $(STAMP)
	$(PY) tools/driver_match.py --games $(GAMES) --out $(RUNS)/driver-match

clean:
	rm -rf $(VENV) dist $(RUNS) .pytest_cache
