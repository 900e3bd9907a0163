"""`littlego review` (littlego/analysis/review.py): a seeded game near its end reviewed move by
move, its values checked against the Python exact search; the game read from SGF and from a
games.jsonl record; the review written as SGF comments, read back by sgfmill; bad input in one
line."""

import json
import random

import pytest
from sgfmill import sgf

import endgame
import go_board
import opening_book
from littlego.analysis import review
from littlego.bench.positions import pick_move
from littlego.referee.sgf import sgf_point

CPU = 5.0
FROM_PLY = 17


def seeded_game(seed):
    """The move texts of a game of seeded random placements (captures half the time when there
    are some) to its end."""
    rng = random.Random(seed)
    position, moves = go_board.Position(), []
    while not position.is_over:
        move = pick_move(rng, position, 0.0, 0.5)
        moves.append(go_board.move_to_text(move))
        position = position.play(move)
    return moves


# Seed 5: White's ply 18 throws a win by 1.5 away, then the win changes hands three times;
# White wins by 0.5.
GAME = seeded_game(5)
TABLE = """\
ply  colour move  before      after       given away  source
 17  Black  3,3   loss -0.5   loss -1.5            1  exact solver
 18  White  1,4   win +1.5    loss -0.5            2  exact solver
 19  Black  0,4   win +0.5    loss -0.5            1  exact solver
 20  White  2,2   win +0.5    loss -0.5            1  exact solver
 21  Black  3,2   win +0.5    win +0.5             0  exact solver
 22  White  1,2   loss -0.5   loss -1.5            1  exact solver
 23  Black  1,0   win +1.5    loss -0.5            2  exact solver
 24  White  3,0   win +0.5    win +0.5             0  final score
The first win thrown away: ply 18, White 1,4 (win +1.5 before, loss -0.5 after).
"""


def python_values(moves, from_ply):
    """`[(before, after)]` margins in points for the mover of each move from `from_ply` on, by
    endgame.ExactSolver: best_move's margin before, the played move's value after."""
    values, position = [], go_board.Position()
    for text in moves:
        move = go_board.move_from_text(text)
        if position.ply >= from_ply:
            solver = endgame.ExactSolver()
            before = solver.best_move(position)[1] / 2.0
            child = dict(solver.root_moves(position))[move]
            after_position = position.play(move)
            if after_position.is_over:
                after = -endgame.mover_margin(after_position)
            else:
                after = -solver.value(*(child + (endgame.WORST, -endgame.WORST))) / 2.0
            values.append((before, after))
        position = position.play(move)
    return values


@pytest.fixture(scope="module")
def reviewed():
    return review.review(GAME, CPU, opening_book.NO_BOOK, FROM_PLY)


def test_a_seeded_game_near_its_end_move_by_move(reviewed):
    assert GAME[FROM_PLY - 1:] == ["3,3", "1,4", "0,4", "2,2", "3,2", "1,2", "1,0", "3,0"]
    assert review.table_text(reviewed) == TABLE
    assert [(row["before"]["margin"], row["after"]["margin"]) for row in reviewed["moves"]] \
        == python_values(GAME, FROM_PLY)
    for row in reviewed["moves"]:
        assert row["given_away"] == row["before"]["margin"] - row["after"]["margin"] >= 0
    final = go_board.Position()
    for text in GAME:
        final = final.play(go_board.move_from_text(text))
    assert -final.score() == 0.5 == reviewed["moves"][-1]["after"]["margin"]


def test_the_first_win_thrown_away(reviewed):
    assert reviewed["first_lost_win"] == {
        "ply": 18, "colour": "White", "move": "1,4", "before": {"result": "win", "margin": 1.5},
        "after": {"result": "loss", "margin": -0.5}, "given_away": 2.0,
        "source": "exact solver"}


def test_a_record_cut_short_with_a_margin_known_one_move_earlier():
    # The position after 2,2 0,3 is not in the stored value table and is too deep to solve in
    # the time given; the stored position before it values its move 0,3 (White -1.5), so Black's
    # 1,3 there starts from +1.5. The record stops there (a crash, a timeout): the position
    # after its last move is answered too, stored, and 1,3 keeps the +1.5.
    rows = review.review(["2,2", "0,3", "1,3"], 0.2, opening_book.NO_BOOK)["moves"]
    assert [(row["before"], row["after"], row["given_away"]) for row in rows] == [
        ({"result": "win", "margin": 0.5}, {"result": "win", "margin": 0.5}, 0),
        ({"result": "loss", "margin": -0.5}, {"result": "loss", "margin": -1.5}, 1),
        ({"result": "win", "margin": 1.5}, {"result": "win", "margin": 1.5}, 0)]


def sgf_text(moves):
    colours = "BW"
    return "(;FF[4]GM[1]SZ[5]KM[2.5]" + "".join(
        ";{}[{}]".format(colours[number % 2], sgf_point(text))
        for number, text in enumerate(moves)) + ")\n"


def test_the_command_reads_sgf_and_games_jsonl_alike(tmp_path, capsys, reviewed):
    sgf = tmp_path / "game.sgf"
    sgf.write_text(sgf_text(GAME))
    records = tmp_path / "games.jsonl"
    records.write_text("".join(json.dumps({"game": number, "moves": moves}) + "\n"
                               for number, moves in ((1, GAME[:3]), (2, GAME))))
    from_ply = ["--from-ply", str(FROM_PLY), "--cpu", str(CPU)]
    assert review.main([str(sgf)] + from_ply) == 0
    # The opening book does not reach ply 17: the command's book answers nothing there.
    assert capsys.readouterr().out == TABLE
    assert review.main([str(records), "2", "--json"] + from_ply) == 0
    assert json.loads(capsys.readouterr().out) == reviewed


@pytest.mark.parametrize("args, error", [
    (["missing.sgf"], "review: cannot read missing.sgf: No such file or directory\n"),
    (["games.jsonl"], "review: games.jsonl holds many games: name one by its number\n"),
    (["games.jsonl", "3"], "review: games.jsonl has no game 3\n"),
    (["bad.jsonl", "1"], "review: bad.jsonl, line 1: not a game record\n"),
    (["illegal.jsonl", "1"], "review: move 2 (2,2) is illegal: point is occupied\n"),
    (["game.sgf", "1"], "review: a game number is for a games.jsonl record, not an SGF file\n"),
    (["big.sgf"], "review: big.sgf: not a 5x5 SGF game: not a 5x5 game: SZ[9]\n"),
    (["game.sgf", "--cpu", "0"], "review: --cpu must be positive and --from-ply 1 to 24\n"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, args, error):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.jsonl").write_text(json.dumps({"game": 1, "moves": GAME}) + "\n")
    (tmp_path / "bad.jsonl").write_text("[1]\n")
    (tmp_path / "illegal.jsonl").write_text(json.dumps({"game": 1, "moves": ["2,2", "2,2"]}))
    (tmp_path / "game.sgf").write_text(sgf_text(GAME))
    (tmp_path / "big.sgf").write_text("(;FF[4]GM[1]SZ[9];B[cc])")
    assert review.main(args) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", error)


def test_the_review_travels_as_sgf_comments_that_sgfmill_reads(tmp_path, capsys, reviewed):
    out = tmp_path / "reviewed.sgf"
    records = tmp_path / "games.jsonl"
    records.write_text(json.dumps({"game": 2, "moves": GAME}) + "\n")
    assert review.main([str(records), "2", "--from-ply", str(FROM_PLY), "--cpu", str(CPU),
                        "--sgf", str(out)]) == 0
    assert capsys.readouterr().out == TABLE
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    root = game.get_root()
    assert (game.get_size(), game.get_komi(), root.get("RU"), root.get("RE")) == (
        5, 2.5, "stone_scoring", "W+0.5")
    assert "Little-Go's rules" in root.get("C") and "A viewer's own score" in root.get("C")
    nodes = game.get_main_sequence()[1:]
    # Every move is there (the replayed ones without a comment), in the course's coordinates.
    assert [(node.get_move()[0], node.get_move()[1]) for node in nodes] == [
        ("b" if index % 2 == 0 else "w", (4 - int(text[0]), int(text[2])))
        for index, text in enumerate(GAME)]
    assert [node.has_property("C") for node in nodes] == [
        index + 1 >= FROM_PLY for index in range(len(GAME))]
    comments = {index + 1: node.get("C") for index, node in enumerate(nodes)
                if node.has_property("C")}
    assert comments[18] == ("White 1,4 at ply 18: win +1.5 before, loss -0.5 after; gave away "
                            "2 points (exact solver).\nThe first win thrown away.")
    assert comments[21] == ("Black 3,2 at ply 21: win +0.5 before, win +0.5 after; gave away "
                            "0 points (exact solver).")
    marks = {index + 1: node.get("BM") for index, node in enumerate(nodes)
             if node.has_property("BM")}
    assert marks == {row["ply"]: 2 if row["ply"] == 18 else 1 for row in reviewed["moves"]
                     if row["given_away"]}


def test_an_sgf_that_cannot_be_written_is_one_line(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    records.write_text(json.dumps({"game": 1, "moves": GAME[:2]}) + "\n")
    assert review.main([str(records), "1", "--sgf", str(tmp_path / "no" / "x.sgf")]) == 2
    assert capsys.readouterr().err.startswith("review: cannot write ")
