"""The agent as a GTP engine, for GUIs and tournament controllers.

Start at `engine` (`littlego gtp`: the agent behind GTP 2 with Little-Go rules), its live
analysis `lz-analyze` and `kata-analyze` (presenting the one analysis,
littlego/analysis/live.py), the controller's clock `clock` and
the SGF of `loadsgf`/`printsgf`, `sgf_game`; `ringmaster` runs gomill's tournament controller,
our engine against GNU Go. (The other way round, a GTP engine as a player under our referee, is
the referee's `gtp_player`.) The submission does not carry the engine: my_player.py plays one
move and imports nothing from here.
"""
