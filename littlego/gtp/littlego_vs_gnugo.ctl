# gomill's ringmaster control file: the Little-Go GTP engine against GNU Go level 10, 5x5.
#
# Run it through `make ringmaster` (littlego/gtp/ringmaster.py): it copies this file into the run's
# directory (ringmaster writes its results next to the control file) and names the two engines,
# with this machine's paths, in LITTLEGO_RINGMASTER_ENGINE and LITTLEGO_RINGMASTER_GNUGO.
# ringmaster reads this file as Python 2.7 code.
competition_type = 'playoff'

description = """
Little-Go (littlego gtp) against GNU Go 3.8 level 10 at a low budget.
"""

import os

board_size = 5
komi = 2.5
record_games = True

# ringmaster knows neither the 24-ply end nor stones-only scoring. Once the Little-Go game is
# over our engine passes and lets further moves go unplayed, so ringmaster ends each game on two
# passes and asks our engine alone for final_score, the Little-Go result (GNU Go scores territory
# on a board that may hold moves made after the end). A game still going at MOVE_LIMIT moves
# would be void: a fault to look at, not a result.
MOVE_LIMIT = 100
# Quick games: half a CPU second per move, one search process.
ENGINE_SETTINGS = {'LITTLEGO_MOVE_CPU': '0.5', 'LITTLEGO_GAME_CPU': '6',
                   'LITTLEGO_WORKERS': '1', 'LITTLEGO_SEED': '1'}

# The players' codes name them in the game records (littlego/gtp/ringmaster.py reads them there).
players = {
    'littlego': Player(os.environ['LITTLEGO_RINGMASTER_ENGINE'], environ=ENGINE_SETTINGS,
                       sgf_player_name_from_gtp=False),
    'gnugo': Player(os.environ['LITTLEGO_RINGMASTER_GNUGO'] + ' --mode gtp --level 10',
                    is_reliable_scorer=False, sgf_player_name_from_gtp=False),
}

matchups = [
    Matchup('littlego', 'gnugo', alternating=True, scorer='players', move_limit=MOVE_LIMIT,
            number_of_games=10),
]
