"""`host.py play`: a person plays Little-Go against any player in the terminal.

Start at `play_against`. The person is one more player (`HumanPlayer`) in the ordinary game
loop, so the opponent, the rules and the judging are exactly those of a match. An entry the
referee would refuse is explained and asked for again; end of input (Ctrl-D) or Ctrl-C leaves
the game cleanly.
"""

import random
import shutil
import sys
import tempfile

import course_io
from littlego.referee import rules
from littlego.referee.display import COLOUR_NAMES, draw_board
from littlego.referee.game import play_game
from littlego.referee.players import make_player
from littlego.referee.protocol import MoveLimits, Player, Turn

HUMAN_NAME = "you"
PROMPT = "Your move as {} (i,j or pass): "
SEED_RANGE = 2 ** 31


def parse_entry(text):
    """PASS or (i, j) from what the person typed; ValueError with a hint otherwise."""
    words = text.replace(",", " ").split()
    if len(words) == 1 and words[0].lower() == "pass":
        return rules.PASS
    try:
        row, col = (int(word) for word in words)
    except ValueError:
        raise ValueError("type a row and a column such as 2,2, or pass")
    return row, col


class HumanPlayer(Player):
    """Reads moves with `read_line(prompt)` (EOFError ends the game) and `write`s refusals."""

    def __init__(self, read_line=input, write=print):
        Player.__init__(self, HUMAN_NAME, None)
        self._read_line = read_line
        self._write = write

    def move(self, game_input, ply, history):
        while True:
            text = self._read_line(PROMPT.format(COLOUR_NAMES[game_input.colour]))
            try:
                action = parse_entry(text)
            except ValueError as error:
                self._write(str(error))
                continue
            if action != rules.PASS:
                _, refusal = rules.try_place(game_input.previous, game_input.current,
                                             action[0], action[1], game_input.colour)
                if refusal is not None:
                    self._write("{},{} is refused: {}".format(action[0], action[1], refusal))
                    continue
            return Turn(course_io.format_output(action), 0.0, 0.0, None, None)


def play_against(opponent_spec, colour, seed, limit_cpu, limit_wall, builtin_players=None):
    """Play one game in the terminal; returns the exit code (0, also when abandoned)."""
    if seed is None:
        seed = random.SystemRandom().randrange(SEED_RANGE)
    players = {colour: HumanPlayer(),
               rules.other(colour): make_player(opponent_spec, MoveLimits(limit_cpu, limit_wall),
                                                builtin_players)}
    print("You are {} against {} (seed {}).".format(COLOUR_NAMES[colour], opponent_spec, seed))
    print(draw_board(rules.empty_board()))
    directory = tempfile.mkdtemp(prefix="littlego-play-")
    try:
        record = play_game(players, {rules.BLACK: seed, rules.WHITE: seed}, directory,
                           show=sys.stdout.write)
    except (EOFError, KeyboardInterrupt):
        print("\nGame abandoned.")
        return 0
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    print("You win." if record["winner"] == colour else "You lose.")
    return 0
