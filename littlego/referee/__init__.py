"""The Little-Go referee: the course's judge, plus matches, human play and statistics.

Where to start:
- `rules`: the course's rules as plain 5x5-list code (legality, captures, ko, scoring).
- `judge`: one ply from input.txt + output.txt, exactly as the course's `host.py -m N -v V`.
- `match`: `run_match(...)` plays many games between two players and writes SGF, JSONL and a
  table; it drives `game.play_game`, which uses the same `judge.judge_step` as judge mode.
- `players`: built-in, `cmd:` and `gtp:` players; `proctree` enforces the per-move limits.
- `human`, `sgf`, `stats`, `gtp_player`, `display`: terminal play, game records, intervals, GTP
  engines as players, board drawing. `cli` holds host.py's command lines.
The referee judges and plays; it imports nothing of the agent (agent, endgame, opening_book,
mcts) nor littlego.gtp, littlego.solver or the analysis (tests/test_import_layers.py): the
browser board is littlego/web, the proven results it shows littlego/analysis.

Judge mode (`rules`, `judge`, `display`, `cli`) needs only the standard library of Python 3.7.
"""
