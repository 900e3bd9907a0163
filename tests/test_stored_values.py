"""analysis/stored_values.py: the stored value table's file (written, read back, refused when
corrupt), its lookup up to symmetry, its build on the compiled solver (resumed where it
stopped), and the committed table itself."""

import json

import pytest

import go_board
import opening_book
from go_board import NUM_SYMMETRIES, SYMMETRIC_POINT
from littlego import solver
from littlego.analysis import stored_values
from littlego.progress import Progress

# A game against the "last" stub (tests/test_board_server.py's LATE_MOVES): Black to move at
# ply 19, winning by 6.5 at 3,3, 3,4 and 4,2.
LATE_LINE = ["2,0", "4,4", "2,1", "4,3", "2,2", "4,2", "2,3", "4,1", "2,4", "4,0", "3,0", "3,4",
             "3,1", "3,3", "3,2", "4,4", "1,1", "4,3"]
LATE_MARGINS = {"0,0": 4.5, "0,1": 4.5, "0,2": 4.5, "0,3": 4.5, "0,4": 4.5, "1,0": 4.5,
                "1,2": 4.5, "1,3": 4.5, "1,4": 4.5, "4,0": 4.5, "4,1": 4.5, "3,3": 6.5, "3,4": 6.5, "4,2": 6.5,
                "PASS": 3.5}
HEADER = {"format": stored_values.FORMAT, "version": stored_values.VERSION, "solver": "test",
          "table_bits": 18}


def built(path, lines, limit=None):
    with solver.Solver(HEADER["table_bits"]) as search:
        table = stored_values.build(str(path), lines, search, HEADER, Progress(quiet=True),
                                    limit)
        return table, search.nodes


def test_a_built_position_is_found_in_every_symmetric_image(tmp_path):
    path = tmp_path / "values.jsonl"
    built(path, [LATE_LINE])
    table = stored_values.load(str(path))
    position = stored_values.position_after(LATE_LINE)
    assert table.lookup(position) == LATE_MARGINS
    for symmetry in range(NUM_SYMMETRIES):
        image = position.transformed(symmetry)
        assert image in table
        assert table.lookup(image) == {
            go_board.move_to_text(SYMMETRIC_POINT[symmetry][go_board.move_from_text(move)]):
                margin for move, margin in LATE_MARGINS.items()}
    assert table.lookup(stored_values.position_after(LATE_LINE[:-1])) is None
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == HEADER
    record = json.loads(lines[1])
    assert (record["line"], record["values"]["3,3"], record["values"]["PASS"]) == (
        LATE_LINE, 9, 6)  # stone differences: 9 - 2.5 komi is Black's 6.5
    assert record["nodes"] > 0 and record["cpu"] >= 0
    # Its best line: it keeps Black's 6.5 to the end, and every image has the image's line.
    assert mover_margin_after(position, table.best_line(position)) == 6.5
    assert record["pv"][0] in ("3,3", "3,4", "4,2") and record["pv_cpu"] >= 0
    for symmetry in range(NUM_SYMMETRIES):
        image = position.transformed(symmetry)
        assert table.best_line(image) == [SYMMETRIC_POINT[symmetry][move]
                                          for move in table.best_line(position)]
    assert table.best_line(stored_values.position_after(LATE_LINE[:-1])) is None


def mover_margin_after(position, line):
    end = position
    for move in line:
        end = end.play(move)
    assert end.is_over
    return end.score() if position.to_move == go_board.BLACK else -end.score()


def test_a_record_without_its_line_gets_one_when_the_build_resumes(tmp_path):
    path = tmp_path / "values.jsonl"
    built(path, [LATE_LINE])
    header, record = (json.loads(line) for line in path.read_text().splitlines())
    record.pop("pv")
    record.pop("pv_cpu")
    path.write_text("".join(json.dumps(entry) + "\n" for entry in (header, record)))
    assert stored_values.load(str(path)).best_line(stored_values.position_after(LATE_LINE)) \
        is None
    table, _ = built(path, [LATE_LINE])
    position = stored_values.position_after(LATE_LINE)
    assert mover_margin_after(position, table.best_line(position)) == 6.5
    assert "pv" in json.loads(path.read_text().splitlines()[1])


def test_the_build_resumes_where_it_stopped(tmp_path):
    path = tmp_path / "values.jsonl"
    earlier = LATE_LINE[:-2]
    table, _ = built(path, [LATE_LINE, earlier], limit=1)
    assert [record["line"] for record in table.records] == [LATE_LINE]
    table, _ = built(path, [LATE_LINE, earlier])
    assert [record["line"] for record in table.records] == [LATE_LINE, earlier]
    table, nodes = built(path, [LATE_LINE, earlier])
    assert nodes == 0 and len(table) == 2


@pytest.mark.parametrize("text, error", [
    ('{"format": "littlego-book", "version": 1}\n', "not format littlego-stored-values"),
    ('{"format": "littlego-stored-values", "version": 1}\n{"line": ["9,9"], "values": {}}\n',
     "9,9"),
    ('{"format": "littlego-stored-values", "version": 1}\n{"line": [], "values": {"2,2": 3}}\n',
     "the values after the empty board are not its legal moves"),
    ("", "not a stored value table"),
    ('{"format": "littlego-stored-values", "version": 1}\n{"line": ["2,2"], "values": {'
     + ", ".join('"{}": -3'.format(go_board.move_to_text(move)) for move in
                 go_board.Position().play(12).legal_moves()) + '}, "pv": ["0,0", "PASS", '
     '"PASS"]}\n', "the line 0,0 PASS PASS does not end the game -3 stones ahead"),
    ('{"format": "littlego-stored-values", "version": 1}\n{"line": [], "values": {'
     + ", ".join('"{}": -3'.format(go_board.move_to_text(move)) for move in
                 go_board.Position().legal_moves()) + '}, "pv": ["2,2", "2,2"]}\n',
     "the line 2,2 2,2 is not legal"),
])
def test_a_corrupt_file_is_one_error(tmp_path, text, error):
    path = tmp_path / "values.jsonl"
    path.write_text(text)
    with pytest.raises(stored_values.StoredValuesError) as raised:
        stored_values.load(str(path))
    assert error in str(raised.value) and "\n" not in str(raised.value)


def test_no_file_is_an_empty_table(tmp_path):
    table = stored_values.load(str(tmp_path / "none.jsonl"))
    assert len(table) == 0 and table.lookup(go_board.Position()) is None


def test_the_command_refuses_a_corrupt_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "values.jsonl"
    path.write_text("not json\n")
    assert stored_values.main(["--out", str(path), "--quiet", "--table-bits", "16"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("value-table: ") and error.count("\n") == 1


def test_the_opening_lines_come_most_wanted_first_each_once():
    lines = stored_values.opening_lines(opening_book.read())
    assert lines[:2] == [[], ["2,2"]]
    keys = [opening_book.position_key(stored_values.position_after(line))[0] for line in lines]
    assert len(set(keys)) == len(keys)
    # the empty board; the centre and the five other first moves up to symmetry; the five
    # answered by the book, the centre by White's repertoire; the centre, each of White's six
    # replies (the pass among them) and the book's answer; the centre and each reply (one is
    # the book's answer to the centre, already there); the centre, the book's answer 1,2 and
    # each of Black's 14 second moves up to symmetry (one, 2,1, already there); after the
    # centre, White's two best replies up to symmetry (1,1 and 1,2) and the book's answers,
    # each White second move (44 up to symmetry); after the centre, 1,2, each Black second
    # move and the book's answer (12 positions not already listed)
    assert sorted(len(line) for line in lines) == [0] + [1] * 6 + [2] * 11 + [3] * 19 + [4] * 56
    assert lines[19:24] == [["2,2", reply] for reply in ("0,0", "0,1", "0,2", "1,1", "PASS")]
    assert lines[24:37] == [["2,2", "1,2", move] for move in (
        "0,0", "0,1", "0,2", "1,0", "1,1", "2,0", "3,0", "3,1", "3,2", "4,0", "4,1", "4,2",
        "PASS")]
    assert lines[37][:3] == ["2,2", "1,1", "1,2"] and lines[-1][:3] == ["2,2", "1,2", "4,2"]
    assert {tuple(line[:3]) for line in lines[37:81]} == {("2,2", "1,1", "1,2"),
                                                         ("2,2", "1,2", "2,1")}


def test_every_committed_position_has_its_best_line():
    # Each line is checked when the file is read (legal, to the end, with the value); here:
    # the empty board's begins with the centre.
    table = stored_values.read()
    assert all("pv" in record for record in table.records)
    assert table.best_line(go_board.Position())[0] == go_board.from_coord(2, 2)


def test_the_committed_table_holds_the_value_of_little_go():
    table = stored_values.read()
    assert table.header["format"] == stored_values.FORMAT
    empty = table.lookup(go_board.Position())
    assert empty["2,2"] == 0.5 and empty["PASS"] == -2.5
    by_class = {move: empty[move] for move in ("1,2", "0,1", "1,1", "0,0", "0,2")}
    assert by_class == {"1,2": -2.5, "0,1": -4.5, "1,1": -4.5, "0,0": -5.5, "0,2": -5.5}
    after_centre = table.lookup(go_board.Position().play(go_board.from_coord(2, 2)))
    assert after_centre is not None
    assert {move: after_centre[move] for move in ("1,2", "1,1", "0,1", "0,2", "0,0", "PASS")} \
        == {"1,2": -0.5, "1,1": -0.5, "0,1": -1.5, "0,2": -1.5, "0,0": -2.5, "PASS": -2.5}


def test_the_committed_table_agrees_with_itself_one_ply_down():
    # Each move's stored margin is the negated best margin of the position it leads to,
    # wherever that position is stored too (in any symmetric image): the positions were solved
    # one by one, so a wrong value would show as a disagreement between two of them.
    table = stored_values.read()
    pairs = 0
    for record in table.records:
        position = stored_values.position_after(record["line"])
        margins = table.lookup(position)
        for move in position.legal_moves():
            after = position.play(move)
            below = None if after.is_over else table.lookup(after)
            if below is not None:
                assert margins[go_board.move_to_text(move)] == -max(below.values()), \
                    (record["line"], go_board.move_to_text(move))
                pairs += 1
    assert pairs >= 2
