"""Learning book answers from recorded games (`tools/build_book.py --learn`).

Games are written as the referee records them (games.jsonl lines); the tallies fold the 8
symmetries together, so two mirror-image games count for one canonical answer.
"""

import json
import os
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)
sys.path.insert(0, os.path.join(REPO_ROOT, "tools"))

import build_book  # noqa: E402
import go_board  # noqa: E402
import opening_book  # noqa: E402
from go_board import BLACK, WHITE, from_coord  # noqa: E402

LEARNER = "cmd:python3 /somewhere/my_player.py"
# The diagonal line: B centre, W diagonal, B the proven third move, W the other diagonal.
DIAGONAL_LINE = ["2,2", "3,1", "3,2", "3,3"]
# The same line mirrored left to right.
MIRRORED_LINE = ["2,2", "3,3", "3,2", "3,1"]


def record(moves, learner_colour, winner):
    names = {BLACK: "alphabeta4", WHITE: "alphabeta4"}
    names[learner_colour] = LEARNER
    return {"black": names[BLACK], "white": names[WHITE], "winner": winner, "moves": moves}


def write_games(path, records):
    with open(str(path), "w") as handle:
        for item in records:
            handle.write(json.dumps(item) + "\n")
    return str(path)


def position_after(moves):
    position = go_board.Position()
    for text in moves:
        position = position.play(opening_book.parse_answer(text))
    return position


def test_tallies_fold_mirror_images_and_count_only_the_learners_moves(tmp_path):
    games = write_games(tmp_path / "games.jsonl", [
        record(DIAGONAL_LINE + ["4,2", "1,2"], BLACK, WHITE),
        record(MIRRORED_LINE + ["4,2", "1,2"], BLACK, WHITE),
        record(DIAGONAL_LINE + ["2,1", "1,2"], BLACK, BLACK),
    ])
    tallies = build_book.tally_answers([games], "my_player.py", 5, 6)
    key, edge = opening_book.entry(position_after(DIAGONAL_LINE), from_coord(4, 2))
    _, side = opening_book.entry(position_after(DIAGONAL_LINE), from_coord(2, 1))
    # Ply 6 is White's (alphabeta4's) move: not the learner's, not tallied.
    assert tallies == {key: {edge: [0, 2], side: [1, 1]}}


def test_games_where_the_learner_plays_both_sides_or_neither_teach_nothing(tmp_path):
    both = record(DIAGONAL_LINE + ["4,2"], BLACK, WHITE)
    both["white"] = LEARNER
    neither = record(DIAGONAL_LINE + ["4,2"], BLACK, WHITE)
    neither["black"] = "random"
    games = write_games(tmp_path / "games.jsonl", [both, neither])
    assert build_book.tally_answers([games], "my_player.py", 1, 6) == {}


def test_the_answer_with_the_best_lower_bound_is_learned_when_it_is_good_enough():
    tallies = {
        "clear": {"4,2": [0, 18], "2,1": [7, 7], "1,1": [2, 2]},
        # 3 of 3 has a Wilson lower bound of 0.44: not enough evidence.
        "thin": {"2,1": [3, 3]},
        "losing": {"2,1": [2, 10], "1,1": [1, 6]},
    }
    assert build_book.learned_answers(tallies) == {"clear": ("2,1", 7, 7)}


def test_learning_keeps_the_built_book_and_adds_answers_after_its_plies(tmp_path):
    book_path = str(tmp_path / "book.json")
    built = {"1:0:0:0:0": "2,2"}
    with open(book_path, "w") as handle:
        json.dump({"built_with": {"max_ply": 3}, "positions": built}, handle)
    won = [record(DIAGONAL_LINE + ["2,1", "1,2", "1,1"], BLACK, BLACK) for _ in range(5)]
    games = write_games(tmp_path / "games.jsonl", won)
    sys_argv = sys.argv
    sys.argv = ["build_book.py", "--learn", games, "--out", book_path]
    try:
        build_book.main()
    finally:
        sys.argv = sys_argv
    book = opening_book.load(book_path)
    # Ply 1 stays as built (learning starts after the built plies), ply 5 is learned.
    assert book["1:0:0:0:0"] == "2,2"
    assert opening_book.lookup(position_after(DIAGONAL_LINE), book) == from_coord(2, 1)
    assert len(book) == 2
    assert opening_book.answered_plies(book_path) == 3
