"""The board in the browser (`littlego serve`, `host.py serve`): one game against any player of
the referee, every legal move tinted by its proven result (littlego.analysis), and the SGFs
under runs/ replayed.

Start at `server` (`main`, the command line; `BoardSession`, the game; `make_server`, the JSON
API); `static/` holds the page (index.html, board.js, board.css).
"""
