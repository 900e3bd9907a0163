"""One game between two players, judged ply by ply exactly as judge mode judges it.

Start at `play_game`: it asks the player to move for its Turn, reads the Turn's output line
with `course_io.parse_action` and applies it with `judge.judge_step`, the same two functions
`host.py -m N` uses, until a Verdict ends the game. The result is a `GameRecord`, a plain dict
(one games.jsonl line) that sgf.py and stats.py read.
"""

import os

import course_io
from littlego.referee import judge, rules
from littlego.referee.rules import BLACK, WHITE

# A colour's key in GameRecords and the name of its player's directory.
SIDES = {BLACK: "black", WHITE: "white"}


def new_record(names):
    """A GameRecord before the game: per side, the player's name, CPU and wall per move.
    `board` becomes the final board, its rows as input.txt writes them (`00120`, ...)."""
    return {"black": names[BLACK], "white": names[WHITE], "winner": None, "winner_name": None,
            "reason": None, "detail": None, "plies": 0, "moves": [], "black_stones": 0,
            "white_stones": 0, "board": None, "cpu": {"black": [], "white": []},
            "wall": {"black": [], "white": []}}


def play_game(players, seeds, directory, show=None):
    """Play one game; `players` and `seeds` are dicts keyed by colour.

    Each player works in its own subdirectory of `directory`, so two copies of one agent
    never read each other's helper files. `show`, if given, is called with a text block
    after every ply. Returns the GameRecord.
    """
    record = new_record({colour: player.name for colour, player in players.items()})
    history = []  # (colour, action) of every action the referee accepted
    state = judge.opening_input()
    try:
        for colour, player in players.items():
            player_dir = os.path.join(directory, SIDES[colour])
            os.mkdir(player_dir)
            player.start_game(player_dir, colour, seeds[colour])
        ply = 1
        while True:
            mover = state.colour
            turn = players[mover].move(state, ply, history)
            record["cpu"][SIDES[mover]].append(round(turn.cpu, 4))
            record["wall"][SIDES[mover]].append(round(turn.wall, 4))
            verdict, action = judge_turn(state, turn, ply)
            if verdict.reason in (None, judge.END_SCORE):
                history.append((mover, action))
                record["moves"].append(course_io.format_output(action))
            if show is not None:
                show(describe_ply(players[mover].name, mover, ply, action, verdict))
            if verdict.next_input is None:
                break
            state = verdict.next_input
            ply += 1
    finally:
        for player in players.values():
            player.end_game()
    record.update(winner=verdict.winner, winner_name=players[verdict.winner].name,
                  reason=verdict.reason, detail=verdict.detail, plies=ply,
                  black_stones=rules.count_stones(verdict.board, BLACK),
                  white_stones=rules.count_stones(verdict.board, WHITE),
                  board=course_io.grid_rows(verdict.board))
    return record


def judge_turn(state, turn, ply):
    """`(verdict, action)` for the mover's Turn; action is None when nothing was readable."""
    if turn.failure is not None:
        return judge.Verdict(state.current, None, rules.other(state.colour), turn.failure,
                             turn.detail), None
    try:
        action = course_io.parse_action(turn.line)
    except course_io.OutputError as error:
        return judge.forfeit(state, error), None
    return judge.judge_step(state, action, ply), action


def describe_ply(name, colour, ply, action, verdict):
    """The --show text of one ply: its number and player, then what judge mode -v prints."""
    return "ply {} [{}]\n{}\n".format(ply, name, judge.describe_verdict(colour, action, verdict))
