"""GTP, both ways: the agent as an engine and engines as players.

Start at `engine` (`my_player.py --gtp`, `littlego gtp`: the agent behind GTP 2 with Little-Go
rules) and its live analysis `lz_analyze`; `client` plays a GTP engine (GNU Go) under our
referee; `ringmaster` runs gomill's tournament controller against GNU Go. The engine and its
analysis are bundled with the agent: standard library only, Python 3.7.
"""
