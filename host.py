"""Little-Go referee: a drop-in for the course's host.py, plus matches and human play.

    python3 host.py -m N -v V            judge one ply in the current directory (course mode)
    python3 host.py match A B [options]  play games between two players, with statistics
    python3 host.py play --opponent P    play against a player in the terminal
    python3 host.py serve [--opponent P] play in the browser, replay saved games (127.0.0.1)

The referee is the `littlego.referee` package, which `littlego/referee/cli.py` parses these
command lines for, except `serve`'s: the browser board is `littlego/web/server.py`. This program
brings the referee its players known by name, the built-in opponents
(littlego/opponents/in_process.py), for `match` and `play`; judge mode needs none, and loads
nothing but the referee. `littlego match`, `play` and `judge` run this program's `main`.
"""

import sys

from littlego.referee import cli

BOARD_MODE = "serve"
MODES_WITH_PLAYERS = (cli.MATCH, cli.PLAY)


def main(argv):
    if argv[:1] == [BOARD_MODE]:
        from littlego.web import server
        return server.main(argv)
    if argv[:1] and argv[0] in MODES_WITH_PLAYERS:
        from littlego.opponents import in_process
        return cli.main(argv, in_process.players())
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
