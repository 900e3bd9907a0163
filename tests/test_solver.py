"""The compiled solver (littlego/solver, through its binding) against the Python rules and
solver.

- The rules through the door: ko, suicide, the pass that ends the game, Black's pass at ply 1
  and a finished game, on ASCII boards, against go_board's legality.
- The differential: on seeded positions 1 to DIFF_MAX_PLIES plies from the end (the seeded
  players pass now and then and prefer captures and ko retakes), every legal move's win/loss
  must equal endgame.ExactSolver's, and on the shorter ones the exact value must equal
  ExactSolver.best_move's margin.
- The margins' differential: on seeded positions MARGIN_PLIES_LEFT plies from the end, the
  compiled value (threshold tests from the win threshold, fail-soft, one table kept throughout)
  must be what endgame.ExactSolver's alpha-beta finds inside the narrowest window around it
  (`python_confirms`); a small sample in `make test`, 502 positions from 6 to 16 plies left
  with the slow tests, each printing its figures (positions, nodes and CPU of both).
- littlego/solver/solve.py: its JSON on an input.txt, and one line plus exit 2 for bad input.
- The door itself: the symbols the library exports, the codes the binding reads from it
  against src/api.h's text, the one line when it is not built, and build.py (a fake compiler
  to see when it compiles, the real one once).
"""

import collections
import ctypes
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import pytest

import clocks
import course_io
import endgame
import go_board
from go_board import BLACK, PASS, WHITE, Position, from_coord
from littlego import solver
from littlego.bench.positions import position_before_end
from littlego.paths import REPO_ROOT
from littlego.solver import build, solve

SEED = 21
DIFF_POSITIONS_PER_DEPTH = 70
DIFF_MAX_PLIES = 8
VALUE_MAX_PLIES = 5
PASS_RATE = 0.08
CAPTURE_RATE = 0.7
TEST_TABLE_BITS = 18
# The smallest table of one-word entries (src/table.h's NARROW_MIN_BITS), crowded by a proof
# this many plies from the end.
NARROW_MIN_TABLE_BITS = 21
CROWDED_PLIES = 18
# What the library exports: the door's functions and its codes (src/api.h) as data.
DOOR_FUNCTIONS = {"lg_new", "lg_free", "lg_nodes", "lg_table_bytes", "lg_set_symmetry_from",
                  "lg_set_value_order", "lg_at_least", "lg_value", "lg_winning_move"}
DOOR_CODES = {"lg_yes", "lg_no", "lg_aborted", "lg_illegal", "lg_no_win", "lg_not_a_move"}
SECOND_NS = 10 ** 9
# The margins' differential: plies left and positions at each, the quick sample and the slow
# run (MARGIN_SLOW_POSITIONS, 502 in all). The Python search inside the narrowest window takes
# about 5 CPU s a position at 13 plies left and twice as long a ply further (40 s at 16), so
# the deeper plies get fewer positions.
MARGIN_SEED = 39
MARGIN_PLIES_LEFT = range(6, 17)
MARGIN_QUICK_POSITIONS = {6: 12, 7: 12, 8: 12, 9: 8}
MARGIN_SLOW_POSITIONS = {6: 80, 7: 80, 8: 80, 9: 70, 10: 60, 11: 45, 12: 30, 13: 20, 14: 15,
                         15: 12, 16: 10}
# Up to this many plies left, every move's value too (Solver.move_values, the door's value
# after a move) against the Python search of the position after it.
MARGIN_MOVES_MAX_PLIES = 7


@pytest.fixture(scope="module")
def search():
    with solver.Solver(TEST_TABLE_BITS) as context:
        yield context


def test_ko_retake_is_refused_and_the_ban_lasts_one_move(search):
    # White just took the black stone at (1,2) by playing (1,1)... seen before and after.
    previous = Position.from_text("""
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . .""")
    position = Position.from_text("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=13, previous="""
        . X O . .
        X . X O .
        . X O . .
        . . . . .
        . . . . .""")
    assert previous.black != position.black
    retake = from_coord(1, 2)
    assert not position.is_legal(retake)
    with pytest.raises(ValueError):
        search.wins(position, retake)
    results = search.move_results(position)
    assert retake not in results
    assert set(results) == set(position.legal_moves())
    # After any other move the ban is gone: Black may retake a move later.
    later = position.play(from_coord(4, 4)).play(from_coord(4, 0))
    assert later.is_legal(retake)
    search.wins(later, retake)  # legal in the solver too: no ValueError


def test_suicide_is_refused_and_a_capturing_fill_is_not(search):
    position = Position.from_text("""
        . O . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . X""", to_move=BLACK, ply=5)
    with pytest.raises(ValueError):
        search.wins(position, from_coord(0, 0))
    capturing = Position.from_text("""
        . O X . .
        O X . . .
        X . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=7)
    assert capturing.is_legal(from_coord(0, 0))
    search.wins(capturing, from_coord(0, 0))


def test_black_passing_first_loses_at_once(search):
    empty = Position()
    assert not search.wins(empty, PASS)
    assert search.value(empty, PASS) == 0


def test_a_pass_after_a_pass_ends_the_game_on_the_board(search):
    board = """
        X X X . .
        . . . . .
        . . . . .
        . . . . .
        . . . . O"""
    position = Position.from_text(board, to_move=WHITE, ply=10, previous=board)
    assert position.pass_ends_game
    assert search.value(position, PASS) == -2  # White: 1 stone against 3
    assert search.wins(position, PASS)  # -2 + 2.5 > 0


def test_a_finished_game_is_its_board(search):
    position = Position.from_text("""
        X X X X .
        . . . . .
        . . . . .
        . . . . .
        . . . . O""", to_move=BLACK, ply=go_board.MAX_PLY + 1)
    assert search.value(position) == 3
    assert search.wins(position)
    ended = Position(position.black, position.white, WHITE, 12, ended=True)
    assert search.value(ended) == -3
    assert not search.wins(ended)


NEAR_THE_END = """
    O O O . .
    X X X . .
    . . . . .
    . . . . .
    . . . . ."""


@pytest.mark.parametrize("to_move, ply, previous", [
    (BLACK, 21, NEAR_THE_END.replace("O O O .", "O O . .")),  # White just played (0,2)
    (WHITE, 22, NEAR_THE_END.replace("X X X .", "X X . ."))])  # Black just played (1,2)
def test_near_the_end_a_capture_in_reach_counts(search, to_move, ply, previous):
    # The solver's bounds near the end: Black wins only by taking the white chain in atari,
    # White only by saving it (a pass loses it); counting stones alone says otherwise.
    position = Position.from_text(NEAR_THE_END, to_move=to_move, ply=ply, previous=previous)
    _, half_points = endgame.ExactSolver().best_move(position)
    assert 2 * go_board.margin(search.value(position), to_move) == half_points
    assert search.wins(position)
    assert not search.wins(position, PASS)
    assert search.value(position, PASS) == {BLACK: -1, WHITE: -3}[to_move]


def test_symmetric_images_have_the_same_value(search):
    rng = random.Random(SEED)
    position = position_before_end(rng, 7, PASS_RATE, CAPTURE_RATE)
    value = search.value(position)
    _, half_points = endgame.ExactSolver().best_move(position)
    assert 2 * go_board.margin(value, position.to_move) == half_points
    for symmetry in range(go_board.NUM_SYMMETRIES):
        with solver.Solver(TEST_TABLE_BITS) as fresh:
            assert fresh.value(position.transformed(symmetry)) == value
    with solver.Solver(TEST_TABLE_BITS, symmetry_from=go_board.MAX_PLY + 1) as plain:
        assert plain.value(position) == value


def test_every_guess_gives_the_value():
    # The value's threshold tests start at the guess, step from it one stone at a time, then in
    # doubling steps, then bisect once an answer turns: from below, above, at and beside the
    # value (and past either extreme), each walk must end at the Python search's value.
    rng = random.Random(SEED + 7)
    for plies in (6, 7, 8):
        position = position_before_end(rng, plies, PASS_RATE, CAPTURE_RATE)
        _, half_points = endgame.ExactSolver().best_move(position)
        for offset in (-60, -9, -4, -2, -1, 0, 1, 2, 4, 9, 60):
            with solver.Solver(TEST_TABLE_BITS) as fresh:
                value = fresh.value(position, guess=half_points // 2 + offset)
            assert 2 * go_board.margin(value, position.to_move) == half_points, (plies, offset)


def test_symmetric_lookups_everywhere_change_no_value():
    # Every node from 2 plies left stored under its smallest image: a wrong image of a board,
    # its ko point or its stored move would give some of these positions another value.
    rng = random.Random(SEED + 5)
    positions = [position_before_end(rng, plies, PASS_RATE, CAPTURE_RATE)
                 for plies in (6, 7, 8) for _ in range(8)]
    with solver.Solver(TEST_TABLE_BITS, symmetry_from=2) as symmetric, \
            solver.Solver(TEST_TABLE_BITS, symmetry_from=go_board.MAX_PLY + 1) as plain:
        for position in positions:
            assert symmetric.value(position) == plain.value(position)
            move = symmetric.winning_move(position)
            if move is None:
                assert not plain.wins(position)
            else:
                assert plain.wins(position, move)


def test_the_winning_move_wins_for_the_python_solver_and_a_lost_position_has_none(search):
    rng = random.Random(SEED + 3)
    seen = collections.Counter()
    for _ in range(40):
        position = position_before_end(rng, 6, PASS_RATE, CAPTURE_RATE)
        python = endgame.ExactSolver()
        move = search.winning_move(position)
        if move is None:
            assert not python.mover_wins(position)
        else:
            assert python.move_wins(position, dict(python.root_moves(position))[move])
        seen[move is None] += 1
    assert seen[True] and seen[False]


def every_move_wins():
    """Black to move with nothing to capture, where every move wins (by 4 to 7 stones)."""
    return Position.from_text("""
        X X X X X
        X X . X X
        . . . . .
        . . . . .
        O O . O O""", to_move=BLACK, ply=15, previous="""
        X X X X X
        X X . X X
        . . . . .
        . . . . .
        O O . O .""")


def test_among_equal_moves_the_proof_tries_the_centre_first():
    # Every move wins here, none captures: with an empty history the proof's first try, and so
    # its winning move, is the centre (the history starts from the rings). Point order would
    # have tried (1,2) first, the lowest empty point.
    position = every_move_wins()
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        assert all(fresh.move_results(position).values())
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        assert fresh.winning_move(position) == from_coord(2, 2)


def test_after_a_value_search_the_winning_move_is_the_one_that_proved_the_value():
    # The value search ends with a refutation one above the value, which the table keeps
    # without a move: the move that proved the value must stay (the search no longer tries an
    # entry's move first, but `winning_move` still reads it). Here (1,2), the point-order
    # fallback, wins by 5 and (3,2) by 7, the position's value.
    position = every_move_wins()
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        values = fresh.move_values(position)
    assert values[from_coord(3, 2)] == 7 and values[from_coord(1, 2)] == 5
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        assert fresh.winning_move(position) == from_coord(2, 2)
        assert fresh.value(position) == 7
        assert fresh.winning_move(position) == from_coord(3, 2)


def test_value_questions_take_their_own_order_and_keys_and_win_loss_questions_do_not():
    # Nine seeded positions 8 to 12 plies from the end. Their values take 126,898 nodes in the
    # value questions' order with their symmetric keys from 2 plies left and their cache of
    # latest stores (131,485 without the cache; 147,568 without it and with the keys from 6
    # plies left, as win/loss questions keep them; 176,433 with the opponent's key point raised
    # after a failed try but no self-atari put late, 222,352 with neither), their value tables
    # (`move_values`, whose win/loss round is a value question too) 615,184 (639,839 without
    # the cache, 703,844 and the keys from 6, 771,876 with the key point alone); their win/loss
    # questions keep the searches the committed book was built from (60,651 nodes; 57,178 with
    # the key point).
    nodes = {"value": 0, "wins": 0, "move_values": 0}
    answers = {question: [] for question in nodes}
    for plies in (8, 10, 12):
        for k in range(3):
            rng = random.Random(SEED + 100 + 10 * plies + k)
            position = position_before_end(rng, plies, PASS_RATE, CAPTURE_RATE)
            for question in nodes:
                with solver.Solver(TEST_TABLE_BITS) as fresh:
                    answers[question].append(getattr(fresh, question)(position))
                    nodes[question] += fresh.nodes
    assert answers["value"] == [2, -2, 3, -1, 2, 0, -2, 2, 3]
    assert [max(table.values()) for table in answers["move_values"]] == answers["value"]
    assert nodes == {"value": 126898, "wins": 60651, "move_values": 615184}


def test_a_kept_table_answers_again_for_less():
    rng = random.Random(SEED + 1)
    position = position_before_end(rng, 9, PASS_RATE, CAPTURE_RATE)
    expected = endgame.ExactSolver().mover_wins(position)
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        assert fresh.wins(position) is expected
        nodes = fresh.nodes
        assert fresh.wins(position) is expected
        assert fresh.nodes - nodes < nodes


def test_a_table_takes_8_bytes_an_entry_from_2_21_entries_and_16_below():
    # One word an entry where the key's tag fits beside the fields (src/table.c), a second
    # word for the whole key below; a table is whole huge pages of 2 MiB.
    mebibyte = 2 ** 20
    assert [solver.table_bytes(bits) // mebibyte for bits in (2, 16, 18, 20, 21, 24, 26)] == [
        2, 2, 4, 16, 16, 128, 512]


def test_a_crowded_one_word_table_searches_node_for_node_as_pinned():
    # 2**21 entries, the smallest table of one-word entries, under a proof that stores more
    # nodes than it holds: entries are given up and found again by their tags alone. Until the
    # value questions' cache of latest stores (tenth session), the nodes were exactly those the
    # 16-byte entries took on 2**21 entries (4,008,631, commit 89583dc; 3,560,988 on an
    # uncrowded 2**24 table); the cache keeps some of what the crowded table gives up. A tag
    # that matched another node's entry would change the count. Symmetric keys from 6 plies
    # left, where value questions had them when the count was first pinned.
    rng = random.Random(SEED + 1000 + 10 * CROWDED_PLIES)
    position = position_before_end(rng, CROWDED_PLIES, PASS_RATE, CAPTURE_RATE)
    with solver.Solver(NARROW_MIN_TABLE_BITS, symmetry_from=6) as crowded:
        assert crowded.value(position) == 5
        assert crowded.nodes == 3291889


def test_a_cpu_limit_stops_a_long_proof():
    position = Position()
    for move in ((2, 2), (1, 2), (2, 3), (3, 2), (1, 3), (2, 1)):
        position = position.play(from_coord(*move))
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        with pytest.raises(clocks.OutOfTime):
            fresh.wins(position, cpu_limit=1e-6)


def test_a_closed_solver_refuses_questions_instead_of_reading_freed_memory():
    position = position_before_end(random.Random(SEED + 4), 3, 0.0, CAPTURE_RATE)
    with solver.Solver(TEST_TABLE_BITS) as context:
        context.wins(position)
        assert context.nodes > 0
    with pytest.raises(ValueError, match="closed"):
        context.nodes
    with pytest.raises(ValueError, match="closed"):
        context.wins(position)
    with pytest.raises(ValueError, match="closed"):
        context.winning_move(position)
    context.close()  # twice is harmless


def exported_symbols(library_path):
    """The names a shared library exports (nm's defined dynamic symbols)."""
    listing = subprocess.run(["nm", "-D", "--defined-only", library_path], check=True,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
    return {line.split()[-1] for line in listing.splitlines() if line.strip()}


def test_the_library_exports_its_door_and_hides_the_rest():
    # Built with hidden symbols (build.py), the table's and the rules' functions inline into
    # the search; exported, every call to them would go through the PLT.
    solver._load()
    assert exported_symbols(solver.LIBRARY_PATH) == DOOR_FUNCTIONS | DOOR_CODES


def header_codes():
    """`{name: value}` of src/api.h's codes, read from its text: `#define LG_NO_WIN (-3)` is
    `{"no_win": -3}`."""
    with open(os.path.join(build.SOURCE_DIR, "api.h")) as handle:
        return {name.lower(): int(value) for name, value
                in re.findall(r"^#define LG_(\w+) \(?(-?\d+)\)?$", handle.read(), re.MULTILINE)}


def test_the_codes_cross_the_door_from_api_h():
    assert header_codes() == {"yes": 1, "no": 0, "aborted": -1, "illegal": -2, "no_win": -3,
                              "not_a_move": -1}
    _, codes = solver._load()
    assert codes._asdict() == header_codes()


def test_importing_the_binding_and_its_build_loads_no_library():
    # A fresh interpreter: whether the library is mapped shows in its memory maps.
    code = ("import littlego.solver, littlego.solver.build\n"
            "with open('/proc/self/maps') as maps:\n"
            "    print(littlego.solver._library, 'liblittlego_solver' in maps.read())")
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True,
                         stdout=subprocess.PIPE, universal_newlines=True)
    assert run.stdout == "None False\n"


def test_a_missing_library_is_built_at_first_use(tmp_path, monkeypatch, capsys):
    library = tmp_path / "build" / "liblittlego_solver.so"
    monkeypatch.setattr(solver, "LIBRARY_PATH", str(library))
    monkeypatch.setattr(solver, "_library", None)
    monkeypatch.delenv("CC", raising=False)
    with solver.Solver(TEST_TABLE_BITS) as search:
        assert solver.analyse(Position(0, 0, WHITE, 24), search, None, False)["result"] == "win"
    assert library.exists()
    assert capsys.readouterr().err == (
        "littlego: compiling the exact solver (C) once, into {}\n".format(library))


def test_a_library_that_cannot_be_built_is_one_line_saying_what_to_do(tmp_path, monkeypatch,
                                                                       capsys):
    library = str(tmp_path / "liblittlego_solver.so")
    monkeypatch.setattr(solver, "LIBRARY_PATH", library)
    monkeypatch.setattr(solver, "_library", None)
    monkeypatch.setenv("CC", "false")
    with pytest.raises(solver.Unavailable) as raised:
        solver.Solver(TEST_TABLE_BITS)
    assert str(raised.value) == (
        "the compiled solver is missing and could not be built (false failed with exit status 1 "
        "building {}): it needs a C compiler (gcc) and a package directory it may write; then run "
        "`littlego build-solver`".format(library))
    assert not solver.available()
    assert solver.missing("solve")
    building = "littlego: compiling the exact solver (C) once, into {}\n".format(library)
    assert capsys.readouterr().err == building * 3 + "solve: {}\n".format(raised.value)


FAKE_COMPILER = """#!{python}
import json, sys
with open({log!r}, "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
open(sys.argv[sys.argv.index("-o") + 1], "w").close()
sys.exit({status})
"""


def fake_compiler(tmp_path, status=0):
    """`(compiler, calls)`: an executable that writes the -o file and exits with `status`, and
    a function that returns the argument lists it was run with so far."""
    compiler, log = tmp_path / "fake-cc-{}".format(status), tmp_path / "calls.jsonl"
    compiler.write_text(FAKE_COMPILER.format(python=sys.executable, log=str(log), status=status))
    compiler.chmod(0o755)

    def calls():
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return str(compiler), calls


@pytest.fixture
def source_copy(tmp_path, monkeypatch):
    """build.py pointed at a copy of src/, so that its files can be touched."""
    copy = tmp_path / "src"
    shutil.copytree(build.SOURCE_DIR, str(copy))
    monkeypatch.setattr(build, "SOURCE_DIR", str(copy))
    return copy


def make_newer(path, than):
    """Set `path`'s modification time a second after `than`'s."""
    later = os.stat(str(than)).st_mtime_ns + SECOND_NS
    os.utime(str(path), ns=(later, later))


def test_build_compiles_only_when_a_source_or_header_is_newer(tmp_path, source_copy):
    compiler, calls = fake_compiler(tmp_path)
    library = str(tmp_path / "build" / "liblittlego_solver.so")
    c_files = sorted(str(path) for path in source_copy.glob("*.c"))
    expected = list(build.CFLAGS) + ["-o", "{}.{}.tmp".format(library, os.getpid())] + c_files
    assert build.build(library, compiler) == library
    assert calls() == [expected]
    assert os.listdir(os.path.dirname(library)) == ["liblittlego_solver.so"]
    assert build.build(library, compiler) == library  # up to date: nothing to do
    assert len(calls()) == 1
    make_newer(source_copy / "api.h", library)
    build.build(library, compiler)
    assert calls() == [expected] * 2
    make_newer(source_copy / "search.c", library)
    build.build(library, compiler)
    assert len(calls()) == 3
    build.build(library, compiler, force=True)
    assert len(calls()) == 4


def test_build_command_says_one_line_and_fails_with_status_1(tmp_path, monkeypatch, capsys):
    compiler, calls = fake_compiler(tmp_path)
    library = str(tmp_path / "liblittlego_solver.so")
    monkeypatch.setattr(build, "LIBRARY_PATH", library)
    monkeypatch.setenv("CC", compiler)
    assert build.main([]) == 0
    assert capsys.readouterr().out == "{}: built\n".format(library)
    assert build.main([]) == 0
    assert capsys.readouterr().out == "{}: up to date\n".format(library)
    assert build.main(["--force", "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert len(calls()) == 2
    assert build.main(["--native"]) == 0  # opt-in tuning compiles even when up to date
    assert capsys.readouterr().out == "{}: built\n".format(library)
    assert [call[:len(build.CFLAGS) + 1] for call in calls()] == (
        [list(build.CFLAGS) + ["-o"]] * 2 + [list(build.CFLAGS) + ["-march=native"]])
    failing, _ = fake_compiler(tmp_path, status=1)
    monkeypatch.setenv("CC", failing)
    assert build.main(["--force"]) == 1
    assert capsys.readouterr().err == (
        "build-solver: {} failed with exit status 1 building {}\n".format(failing, library))
    assert sorted(os.listdir(str(tmp_path))) == [  # the failed build's output is gone
        "calls.jsonl", "fake-cc-0", "fake-cc-1", "liblittlego_solver.so"]
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    assert build.main(["--force"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("build-solver: cannot build ") and error.count("\n") == 1


def test_the_real_build_compiles_the_door_with_warnings_as_errors(tmp_path):
    library = build.build(str(tmp_path / "liblittlego_solver.so"), force=True)
    assert exported_symbols(library) == DOOR_FUNCTIONS | DOOR_CODES
    loaded = ctypes.CDLL(library)
    assert {name: ctypes.c_int.in_dll(loaded, "lg_" + name).value
            for name in header_codes()} == header_codes()


@pytest.mark.parametrize("plies_left, bits", [(1, 16), (14, 16), (15, 18), (18, 24), (19, 25),
                                              (20, 25), (24, 25)])
def test_one_position_gets_a_table_sized_by_its_plies_left(plies_left, bits):
    # 2 bits a ply, 2**24 entries at ply 7 (18 plies left), within 2**16..2**25.
    assert solver.table_bits_for(plies_left) == bits


@pytest.mark.parametrize("cpu_limit, bits", [(None, 25), (60.0, 25), (2.0, 24), (0.2, 21),
                                             (0.001, 16)])
def test_a_search_cut_short_gets_no_bigger_table_than_it_can_fill(cpu_limit, bits):
    # Ply 3 (22 plies left) would get 2**25 entries; 2**23 nodes a CPU second at most.
    position = Position().play(from_coord(2, 2)).play(from_coord(0, 0))
    assert solver.table_bits_for_position(position, cpu_limit) == bits


def differential_positions():
    rng = random.Random(SEED)
    return [position_before_end(rng, plies_left, PASS_RATE, CAPTURE_RATE)
            for plies_left in range(1, DIFF_MAX_PLIES + 1)
            for _ in range(DIFF_POSITIONS_PER_DEPTH)]


def test_every_move_agrees_with_the_python_solver(search):
    positions = differential_positions()
    assert len(positions) >= 500
    met = collections.Counter()
    for position in positions:
        python = endgame.ExactSolver()
        expected = {move: python.move_wins(position, child)
                    for move, child in python.root_moves(position)}
        assert search.move_results(position) == expected, position
        met["win" if any(expected.values()) else "loss"] += 1
        met["ko"] += any(position.try_play(point) == go_board.KO for point in range(25))
        met["pass ends"] += position.pass_ends_game
        if go_board.plies_left(position.ply) <= VALUE_MAX_PLIES:
            _, half_points = endgame.ExactSolver().best_move(position)
            value = search.value(position)
            assert 2 * go_board.margin(value, position.to_move) == half_points, position
            met["values"] += 1
    assert min(met["win"], met["loss"], met["ko"], met["pass ends"]) > 0, met
    assert met["values"] >= 300, met


def python_confirms(position, half_points):
    """`(confirmed, nodes)`: whether endgame.ExactSolver's alpha-beta, searching `position`
    inside the window (half_points - 1, half_points + 1), finds exactly `half_points` (the
    mover's margin in half points, always odd: the window holds no other value, and a value
    outside it comes back as a bound outside it), and the nodes it took."""
    python = endgame.ExactSolver()
    alpha, beta = half_points - 1, half_points + 1
    best = endgame.WORST
    for move, child in python.root_moves(position):
        if child is None:  # a pass that ends the game: the board as it stands
            own, opp, _, _ = position.mover_view()
            score = endgame.margin_of(go_board.popcount(own) - go_board.popcount(opp),
                                      go_board.plies_left(position.ply))
        else:
            score = -python.value(*(child + (-beta, -max(alpha, best))))
        best = max(best, score)
        if best >= beta:
            break
    return best == half_points, python.nodes


def margins_differential(positions_at, search):
    """Every position's compiled value confirmed by the Python search (python_confirms); the
    figures."""
    rng = random.Random(MARGIN_SEED)
    met = collections.Counter()
    for plies_left in MARGIN_PLIES_LEFT:
        for _ in range(positions_at.get(plies_left, 0)):
            position = position_before_end(rng, plies_left, PASS_RATE, CAPTURE_RATE)
            started, nodes = time.process_time(), search.nodes
            value = search.value(position)
            met["compiled cpu"] += time.process_time() - started
            met["compiled nodes"] += search.nodes - nodes
            half_points = int(2 * go_board.margin(value, position.to_move))
            started = time.process_time()
            confirmed, python_nodes = python_confirms(position, half_points)
            met["python cpu"] += time.process_time() - started
            met["python nodes"] += python_nodes
            assert confirmed, position
            met["positions"] += 1
            met["wins"] += half_points > 0
            if plies_left <= MARGIN_MOVES_MAX_PLIES:
                values = search.move_values(position)
                assert values == {move: after_move_value(position, move) for move in values}
                assert max(values.values()) == value
                met["moves"] += len(values)
    print("margins differential: {positions} positions ({wins} won by the mover; every move's "
          "value too up to {plies} plies left, {moves} moves), compiled "
          "{compiled nodes:,} nodes in {compiled cpu:.2f} CPU s, Python {python nodes:,} nodes "
          "in {python cpu:.1f} CPU s".format(plies=MARGIN_MOVES_MAX_PLIES, **met))
    return met


def after_move_value(position, move):
    """The mover's final stone difference after `move`, by the Python search."""
    child = position.play(move)
    if child.is_over:
        own, opp, _, _ = position.mover_view()
        return go_board.popcount(own) - go_board.popcount(opp)
    _, half_points = endgame.ExactSolver().best_move(child)
    return int(-half_points / 2.0 - go_board.margin(0, position.to_move))


def test_margins_agree_with_the_python_solver(search):
    met = margins_differential(MARGIN_QUICK_POSITIONS, search)
    assert met["positions"] == sum(MARGIN_QUICK_POSITIONS.values())
    assert 0 < met["wins"] < met["positions"], met


@pytest.mark.slow
def test_margins_agree_with_the_python_solver_on_500_positions():
    with solver.Solver(TEST_TABLE_BITS) as fresh:
        met = margins_differential(MARGIN_SLOW_POSITIONS, fresh)
    assert met["positions"] == sum(MARGIN_SLOW_POSITIONS.values()) >= 500
    assert 0 < met["wins"] < met["positions"], met


def write_input(tmp_path, position):
    path = tmp_path / course_io.INPUT_FILE
    path.write_text(course_io.format_input(
        position.to_move, (position.prev_black, position.prev_white),
        (position.black, position.white)))
    return str(path)


def python_results(position):
    """{move text: "win" or "loss"} for the mover, by the Python solver: `solve`'s "moves"."""
    python = endgame.ExactSolver()
    return {go_board.move_to_text(move): "win" if python.move_wins(position, child) else "loss"
            for move, child in python.root_moves(position)}


def test_solve_prints_every_move_and_the_margin(tmp_path, capsys):
    rng = random.Random(SEED + 2)
    position = position_before_end(rng, 5, 0.0, CAPTURE_RATE)
    path = write_input(tmp_path, position)
    assert solve.main([path, "--ply", str(position.ply), "--margins", "--table-bits", "16"]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = python_results(position)
    assert report["moves"] == expected
    assert report["result"] == ("win" if "win" in expected.values() else "loss")
    _, half_points = endgame.ExactSolver().best_move(position)
    assert report["margin"] == half_points / 2.0
    assert report["nodes"] > 0 and report["cpu"] >= 0
    assert report["ply"] == position.ply


def test_solve_sizes_its_table_unless_told(tmp_path, capsys, monkeypatch):
    sizes = []
    real_solver = solver.Solver
    monkeypatch.setattr(solver, "Solver", lambda bits: sizes.append(bits) or real_solver(bits))
    position = position_before_end(random.Random(SEED + 3), 6, 0.0, CAPTURE_RATE)
    path = write_input(tmp_path, position)
    assert solve.main([path, "--ply", str(position.ply)]) == 0
    sized = json.loads(capsys.readouterr().out)
    assert solve.main([path, "--ply", str(position.ply), "--table-bits", "20"]) == 0
    told = json.loads(capsys.readouterr().out)
    assert sizes == [solver.SIZED_TABLE_BITS[0], 20]
    expected = python_results(position)
    for report in (sized, told):
        assert report["moves"] == expected
        assert report["result"] == ("win" if "win" in expected.values() else "loss")


def test_solve_infers_the_ply_from_the_stones_and_reports_it(tmp_path, capsys):
    position = Position().play(from_coord(2, 2)).play(from_coord(1, 1))
    path = write_input(tmp_path, position)
    assert solve.position_of(path, None).ply == 3
    # The JSON says which ply its result is for: the one inferred, or the one given.
    late = position_before_end(random.Random(SEED + 5), 3, 0.0, 0.0)
    path = write_input(tmp_path, late)
    assert solve.main([path]) == 0
    assert json.loads(capsys.readouterr().out)["ply"] == late.ply == go_board.MAX_PLY - 2
    assert solve.main([path, "--ply", str(late.ply + 2)]) == 0
    assert json.loads(capsys.readouterr().out)["ply"] == late.ply + 2


def test_solve_says_in_one_line_when_the_table_does_not_fit(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(solve.psutil, "virtual_memory",
                        lambda: collections.namedtuple("Memory", "available")(2 * 10 ** 8))
    assert solve.main(["--empty"]) == 2
    assert capsys.readouterr() == ("", "solve: the table (--table-bits 25) needs 0.3 GB of memory, "
                                   "but 0.2 GB is available; give a smaller --table-bits (slower) "
                                   "or free memory\n")


@pytest.mark.parametrize("text, ply", [("1\n00000\n", None), (None, 4), (None, 25)])
def test_solve_refuses_bad_input_in_one_line(tmp_path, capsys, text, ply):
    path = tmp_path / course_io.INPUT_FILE
    path.write_text(text if text is not None else course_io.format_input(BLACK, (0, 0), (0, 0)))
    argv = [str(path)] + (["--ply", str(ply)] if ply else [])
    assert solve.main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("solve: ") and error.count("\n") == 1


# rules.md's known results (published solver data, independent of ours): after B(2,2) and each
# White reply, the third moves listed there win. They are not the only winning moves (the book
# may answer with another one the solver proves), so the test is that the solver agrees with
# each of them: minutes of CPU, hence slow.
PROVEN_THIRD_MOVES = {(0, 0): [(2, 3), (3, 2)], (0, 1): [(1, 2)], (1, 1): [(1, 2), (2, 1)],
                      (1, 2): [(2, 1), (2, 3)]}


@pytest.mark.slow
@pytest.mark.parametrize("reply, answer", [(reply, answer) for reply, answers
                                           in sorted(PROVEN_THIRD_MOVES.items())
                                           for answer in answers])
def test_rules_md_third_moves_are_proven_wins(reply, answer):
    position = Position().play(from_coord(2, 2)).play(from_coord(*reply))
    with solver.Solver(solver.BOOK_TABLE_BITS) as fresh:
        assert fresh.wins(position, from_coord(*answer))
