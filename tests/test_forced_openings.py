"""littlego/bench/forced_openings.py: Black forced to open at a point, then the player itself.

The per-move wrapper is run as the referee runs a player, in a game directory: on the empty
board it writes the forced point; on any later board the player's command makes the move.
"""

import subprocess
import sys

import course_io
import go_board
from littlego.bench import forced_openings
from littlego.paths import module_command

# A stand-in player's command: it always answers 1,1.
ANSWERS_1_1 = (sys.executable, "-c", "open('output.txt', 'w').write('1,1')")


def wrapped_move(tmp_path, colour, previous, current):
    (tmp_path / course_io.INPUT_FILE).write_text(
        course_io.format_input(colour, previous, current))
    command = module_command(sys.executable, forced_openings.__name__, "--play", "0,0",
                             *ANSWERS_1_1)
    done = subprocess.run(command, shell=True, cwd=str(tmp_path))
    return done.returncode, (tmp_path / course_io.OUTPUT_FILE).read_text()


def test_black_plays_the_forced_point_on_the_empty_board(tmp_path):
    assert wrapped_move(tmp_path, go_board.BLACK, (0, 0), (0, 0)) == (0, "0,0")


def test_every_later_move_is_the_players(tmp_path):
    white_stone = 1 << go_board.from_coord(2, 2)
    black_stone = 1 << go_board.from_coord(0, 0)
    assert wrapped_move(tmp_path, go_board.BLACK, (black_stone, 0),
                        (black_stone, white_stone)) == (0, "1,1")


def test_the_first_moves_are_the_24_points_but_the_centre():
    assert len(forced_openings.FIRST_MOVES) == 24
    assert go_board.from_coord(2, 2) not in forced_openings.FIRST_MOVES
