"""Decided positions replayed: the moves of the opening book and of the exact search, pinned.

Reading guide: `test_every_stored_position_is_decided_as_when_it_was_stored` is the point of the
module. tests/fixtures/decided_positions.json holds positions whose decision (`agent.decide`)
is deterministic: no random choice takes part in it and, as long as the search finishes inside
its CPU limits, no clock either:
- source "book": the opening book answers (`opening_book.Book.lookup`), details {};
- source "exact": the exact search decides (`endgame.choose_endgame_move`) and finishes, with
  its proof in the details ({"proven": "win", "margin": m} or {"proven": "loss",
  "best_try": true}). A try's details have since gained what it asks of the opponent
  (`decision_log.try_details`): the stored details must be among the new ones, and the new keys are
  those three and only on a try, besides the proof's CPU (`proof_cpu`, measured, not stored)
  on every exact decision.
Each position is stored with the decision the agent gave when the file was made (its move,
source and details), and the test asks the current code for the same three: it pins how the
agent plays, whatever the code's layout. MCTS moves (random, and bound to the CPU) are out of
scope. `test_the_stored_sample_is_what_it_claims` checks the file itself: enough distinct
positions, both sources, both colours, the plies the generator aims at.

A stored position, one per line: "kind" (the walk that found it, below), "ply", "colour" (to
move: 1 Black, 2 White), "previous" and "current" (input.txt's two boards: 5 rows of 0/1/2),
then the decision: "move" (`i,j` or PASS), "source", "details". Settings are environment-free
(LITTLEGO_SEED and LITTLEGO_WORKERS=1 only) and every budget is DECIDE_CPU seconds of CPU, far
more than any stored exact search needs.

Regenerating (this module's `__main__`, in the project's venv, or with the checkout on
PYTHONPATH; about 2 minutes of CPU):
    python3 tests/test_decided_positions.py --out tests/fixtures/decided_positions.json
The generator walks seeded games (`random.Random`, one per walk, seeded by a string naming it):
- book, half the sample, the booked side against random moves: Black's book line from the
  centre ("black-book", Black to move at plies 3-11); White's book after each of Black's
  non-centre first moves ("white-after-first", White to move at plies 2-10) and after Black's
  third-move mistakes, the centre then a move other than Black's book answer
  ("white-after-mistake", plies 4-10);
- exact, the other half ("late", plies 13-24): a walk of one of those kinds, then random play
  to the target ply. A late position is kept when the exact search proves it within a probe
  budget (PROBE_CPU) with the same decision as with DECIDE_CPU, and that decision took far
  less than any CPU limit inside the search (MAX_WIN_CPU, MAX_LOSS_CPU): a win whose margin
  search ran out, or a loss whose best try was cut short, depends on the CPU and is never
  stored, and the test stays fast. The exact search starts at ply 11, but few of its searches
  before ply 13 are that cheap (LATE_PLIES). Which late positions pass the filter depends on
  the machine's speed, so a rerun elsewhere may store a slightly different sample; every
  stored decision is deterministic.
Imports only `agent` and `go_board`, the modules whose names a restructuring keeps.
"""

import argparse
import collections
import functools
import json
import os
import random
import subprocess
import sys
import time

import pytest

import agent
import agent_settings
import clocks
import decision_log
import go_board
from go_board import BLACK, PASS, WHITE, Position

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "decided_positions.json")
ENVIRON = {"LITTLEGO_SEED": "561", "LITTLEGO_WORKERS": "1"}
# CPU seconds ahead of the decision's start: its budget (the exact search may use 60% of it).
DECIDE_CPU = 20.0
SOURCES = (decision_log.SOURCE_BOOK, decision_log.SOURCE_EXACT)
MIN_POSITIONS = 240


def settings():
    return agent_settings.Settings(dict(ENVIRON))


@functools.lru_cache(maxsize=None)
def book():
    """The book the settings select, read once."""
    return agent.read_book(settings())


def decide(position, cpu=DECIDE_CPU, with_settings=None):
    return agent.decide(position, clocks.tree_cpu_seconds() + cpu, with_settings or settings(),
                        book())


def position_of(entry):
    """The go_board.Position a stored entry describes."""
    black, white = go_board.parse_board("\n".join(entry["current"]))
    prev_black, prev_white = go_board.parse_board("\n".join(entry["previous"]))
    return Position(black, white, entry["colour"], entry["ply"], prev_black, prev_white)


def read_fixture(path=FIXTURE):
    with open(path) as handle:
        return json.load(handle)


STORED = read_fixture()["positions"] if os.path.exists(FIXTURE) else []


def describe(index, entry):
    return "position {} ({}, ply {}, {} to move)\nprevious:\n{}\ncurrent:\n{}".format(
        index, entry["kind"], entry["ply"], go_board.COLOUR_NAMES[entry["colour"]],
        "\n".join(entry["previous"]), "\n".join(entry["current"]))


# What a try's details say since they were stored (decision_log.try_details).
TRY_KEYS = ("opponent_wins", "opponent_moves", "summary")
# Measured, not decided: the CPU of the exact search's proof, on every exact decision.
MEASURED_KEYS = (decision_log.PROOF_CPU_KEY,)


# ---- the test ------------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(STORED)), ids=[
    "{:03d}-{}-ply{}".format(index, entry["source"], entry["ply"])
    for index, entry in enumerate(STORED)])
def test_every_stored_position_is_decided_as_when_it_was_stored(index):
    entry = STORED[index]
    decision = decide(position_of(entry))
    kept = {key: value for key, value in decision.details.items() if key in entry["details"]}
    got = (go_board.move_to_text(decision.move), decision.source, kept)
    assert got == (entry["move"], entry["source"], entry["details"]), describe(index, entry)
    added = set(decision.details) - set(entry["details"])
    if decision.source == decision_log.SOURCE_EXACT:
        assert isinstance(decision.details[decision_log.PROOF_CPU_KEY], float)
        added -= set(MEASURED_KEYS)
    if decision.details.get("best_try"):
        assert added == set(TRY_KEYS) and decision.details["summary"] == decision_log.lost_summary(
            BLACK + WHITE - entry["colour"], decision.details["opponent_wins"],
            decision.details["opponent_moves"])
    else:
        assert not added


def test_the_stored_sample_is_what_it_claims():
    assert len(STORED) >= MIN_POSITIONS
    keys = {position_of(entry).key() for entry in STORED}
    assert len(keys) == len(STORED), "a position is stored twice"
    by_source = collections.Counter(entry["source"] for entry in STORED)
    assert set(by_source) == set(SOURCES) and min(by_source.values()) >= MIN_POSITIONS // 3
    for source in SOURCES:
        colours = {entry["colour"] for entry in STORED if entry["source"] == source}
        assert colours == {BLACK, WHITE}, source
    book_plies = {entry["ply"] for entry in STORED if entry["source"] == decision_log.SOURCE_BOOK}
    exact_plies = {entry["ply"] for entry in STORED
                   if entry["source"] == decision_log.SOURCE_EXACT}
    assert book_plies == set(range(2, 12)) and exact_plies == set(LATE_PLIES)
    for entry in STORED:
        assert entry["colour"] == (BLACK if entry["ply"] % 2 else WHITE)
        if entry["source"] == decision_log.SOURCE_EXACT:
            assert entry["details"]["proven"] in ("win", "loss")
            assert ("margin" in entry["details"]) == (entry["details"]["proven"] == "win")


# ---- the generator (python3 tests/test_decided_positions.py --out FILE) --------------------

SEED = 561
PASS_RATE = 0.05
CAPTURE_RATE = 0.5
CENTRE = go_board.from_coord(2, 2)
# Book positions kept per (kind, ply): about half the sample.
BOOK_QUOTAS = dict([(("black-book", ply), 12) for ply in (3, 5, 7, 9, 11)]
                   + [(("white-after-first", ply), 7) for ply in (2, 4, 6, 8, 10)]
                   + [(("white-after-mistake", ply), 9) for ply in (4, 6, 8, 10)])
BOOK_WALKS = 60
WALK_KINDS = ("black-book", "white-after-first", "white-after-mistake")
# Exact positions: EXACT_QUOTA per ply 13-24, at most EXACT_ATTEMPTS tries each; what the
# dear plies (13-14, where few searches are cheap) leave unfilled is taken from the latest. The
# exact search starts at ply 11, but at plies 11-12 none of 60 tries was cheap enough (most
# wins there outran the margin search's cap of the time, 1.5 s), so the sample starts at ply 13.
LATE_PLIES = range(13, go_board.MAX_PLY + 1)
EXACT_QUOTA = 11
EXACT_ATTEMPTS = 30
EXACT_TOTAL = EXACT_QUOTA * len(LATE_PLIES)
# The probe's budget: the proof gets 1.5-2 s of it (agent.exact_search_cpu), MCTS the rest
# when the proof gives up; a proven win's margin search all but agent.EXIT_RESERVE_CPU.
PROBE_CPU = 2.5
# A late position is kept when the probe's decision equals DECIDE_CPU's and that took at most
# this CPU: a win 9 times below the probe's margin search (2.25 s; the first fixture was made
# with a 1.5 s cap on the margins, 6 times), a loss 10 times below the exact search's share of
# DECIDE_CPU (12 s), for its best try.
MAX_WIN_CPU = 0.25
MAX_LOSS_CPU = 1.2


def random_move(rng, position):
    """PASS at PASS_RATE (never Black's first move) or with no placement, a capture at
    CAPTURE_RATE when there is one, else a uniform legal placement."""
    placements = position.legal_placements()
    if not placements or (position.ply > 1 and rng.random() < PASS_RATE):
        return PASS
    captures = [point for point in placements if position.captures_by(point)]
    if captures and rng.random() < CAPTURE_RATE:
        return rng.choice(captures)
    return rng.choice(placements)


def book_decision(position, book_settings):
    """The agent's decision when it is the book's, else None (nothing is searched)."""
    if position.is_over or book().lookup(position) is None:
        return None
    decision = decide(position, with_settings=book_settings)
    return decision if decision.source == decision_log.SOURCE_BOOK else None


def walk(rng, kind, book_settings, until_ply):
    """One walk of `kind` up to ply `until_ply` or the end of the book line: `(book positions
    met, each with its decision; the last position, None if the game ended)`."""
    booked = BLACK if kind == "black-book" else WHITE
    position = Position()
    if kind == "white-after-first":
        position = position.play(rng.choice([p for p in range(go_board.NUM_POINTS) if p != CENTRE]))
    else:
        position = position.play(CENTRE)
        position = position.play(random_move(rng, position))
        if kind == "white-after-mistake":
            answer = book().lookup(position)
            position = position.play(rng.choice([move for move in position.legal_moves()
                                                 if move != answer]))
    met = []
    while position.ply < until_ply and not position.is_over:
        if position.to_move == booked:
            decision = book_decision(position, book_settings)
            if decision is None:
                break
            met.append((position, decision))
            move = decision.move
        else:
            move = random_move(rng, position)
        position = position.play(move)
    return met, None if position.is_over else position


def entry_of(kind, position, decision):
    return {"kind": kind, "ply": position.ply, "colour": position.to_move,
            "previous": go_board.board_to_digits(position.prev_black, position.prev_white),
            "current": go_board.board_to_digits(position.black, position.white),
            "move": go_board.move_to_text(decision.move), "source": decision.source,
            "details": decision.details}


def book_entries(book_settings, seen):
    """Book positions by BOOK_QUOTAS, sampled from the positions of seeded walks."""
    pools = collections.defaultdict(list)
    for kind in WALK_KINDS:
        for number in range(BOOK_WALKS):
            rng = random.Random("{}:{}:{}".format(SEED, kind, number))
            for position, decision in walk(rng, kind, book_settings, go_board.MAX_PLY)[0]:
                pool = pools[kind, position.ply]
                if position.key() not in {known.key() for known, _ in pool}:
                    pool.append((position, decision))
    rng = random.Random("{}:book-sample".format(SEED))
    entries = []
    for (kind, ply), quota in sorted(BOOK_QUOTAS.items()):
        pool = [item for item in pools[kind, ply] if item[0].key() not in seen]
        if len(pool) < quota:
            raise SystemExit("only {} book positions for {} at ply {}".format(len(pool), kind, ply))
        for position, decision in rng.sample(pool, quota):
            seen.add(position.key())
            entries.append(entry_of(kind, position, decision))
    return entries


def late_candidate(ply, attempt, book_settings):
    """A position at `ply`: a seeded walk, then random play to `ply` (None if the game ended)."""
    rng = random.Random("{}:late:{}:{}".format(SEED, ply, attempt))
    position = walk(rng, WALK_KINDS[attempt % len(WALK_KINDS)], book_settings, ply)[1]
    while position is not None and position.ply < ply:
        position = position.play(random_move(rng, position))
        if position.is_over:
            return None
    return position


def exact_decision(position, exact_settings, cpu_used):
    """The exact search's decision if it is the same with PROBE_CPU and with DECIDE_CPU, proven
    (a win with its margin), and cheap (MAX_WIN_CPU, MAX_LOSS_CPU); else None."""
    start = time.process_time()
    probe = decide(position, PROBE_CPU, exact_settings)
    cpu_used["probe"] += time.process_time() - start
    if probe.source != decision_log.SOURCE_EXACT or (
            probe.details.get("proven") == "win" and "margin" not in probe.details):
        return None
    start = time.process_time()
    decision = decide(position, DECIDE_CPU, exact_settings)
    spent = time.process_time() - start
    cpu_used["decide"] += spent
    limit = MAX_WIN_CPU if decision.details.get("proven") == "win" else MAX_LOSS_CPU
    return decision if decision == probe and spent <= limit else None


def exact_entries(book_settings, seen, log):
    """Exact positions: EXACT_QUOTA per late ply, the shortfall from the latest plies."""
    exact_settings = settings()
    found = collections.defaultdict(list)
    tried = collections.Counter()
    cpu_used = collections.Counter()

    def fill(ply, wanted, attempts):
        while len(found[ply]) < wanted and tried[ply] < attempts:
            position = late_candidate(ply, tried[ply], book_settings)
            tried[ply] += 1
            if position is None or position.key() in seen:
                continue
            decision = exact_decision(position, exact_settings, cpu_used)
            if decision is not None:
                seen.add(position.key())
                found[ply].append(entry_of("late", position, decision))
    for ply in LATE_PLIES:
        fill(ply, EXACT_QUOTA, EXACT_ATTEMPTS)
        log("ply {}: {} exact of {} tried".format(ply, len(found[ply]), tried[ply]))
    for ply in reversed(LATE_PLIES):
        missing = EXACT_TOTAL - sum(len(entries) for entries in found.values())
        if missing <= 0:
            break
        fill(ply, len(found[ply]) + min(missing, EXACT_QUOTA), 3 * EXACT_ATTEMPTS)
    log("exact search CPU: probes {:.1f} s, full budgets {:.1f} s".format(
        cpu_used["probe"], cpu_used["decide"]))
    return [entry for ply in LATE_PLIES for entry in found[ply]]


def commit():
    try:
        return subprocess.check_output(["git", "rev-parse", "HEAD"], cwd=HERE,
                                       universal_newlines=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fixture_text(entries):
    """The fixture as JSON, one position per line."""
    header = "generated at commit {} by tests/test_decided_positions.py".format(commit())
    lines = ["{" + '"header": {},'.format(json.dumps(header)), '"positions": [']
    for number, entry in enumerate(entries):
        lines.append(json.dumps(entry, separators=(",", ":"))
                     + ("," if number < len(entries) - 1 else ""))
    return "\n".join(lines) + "\n]}\n"


def generate(log):
    book_settings = settings()
    seen = set()
    book = book_entries(book_settings, seen)
    log("{} book positions".format(len(book)))
    exact = exact_entries(book_settings, seen, log)
    log("{} exact positions".format(len(exact)))
    return book + exact


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=FIXTURE,
                        help="the fixture to write (default: %(default)s)")
    options = parser.parse_args(argv)

    def log(message):
        sys.stderr.write("[{:6.1f} s CPU] {}\n".format(time.process_time(), message))
    entries = generate(log)
    with open(options.out, "w") as handle:
        handle.write(fixture_text(entries))
    counts = collections.Counter((entry["source"], go_board.COLOUR_NAMES[entry["colour"]])
                                 for entry in entries)
    log("wrote {} positions to {}: {}".format(len(entries), options.out, dict(counts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
