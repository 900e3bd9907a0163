"""Little-Go referee: a drop-in for the course's host.py, plus matches and human play.

    python3 host.py -m N -v V            judge one ply in the current directory (course mode)
    python3 host.py match A B [options]  play games between two players, with statistics
    python3 host.py play --opponent P    play against a player in the terminal
    python3 host.py serve [--opponent P] play in the browser, replay saved games (127.0.0.1)

The code lives in the `littlego.referee` package; `littlego/referee/cli.py` parses these command
lines, except `serve`'s: the browser board is `littlego/board/server.py`.
"""

import sys

from littlego.referee import cli

BOARD_MODE = "serve"


def main(argv):
    if argv[:1] == [BOARD_MODE]:
        from littlego.board import server
        return server.main(argv)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
