"""The book's own share of a book move, timed in a fresh interpreter: `read` (the header) and
one `lookup`.

Usage: python -m littlego.bench.book_lookup BOOK "MOVE MOVE ..."   (from the checkout's root)

The position is the one the moves reach from the empty board; prints one JSON object, {"cpu":
CPU seconds of the read and the lookup, "move": the book's answer or null}. `littlego bench`
runs it on the grader's Python 3.7 (report.book_lookup_cpu), so it needs only the standard
library and the per-move modules.
"""

import json
import sys
import time

import go_board
import opening_book


def main(argv):
    book_path, line = argv
    position = go_board.Position()
    for text in line.split():
        position = position.play(go_board.move_from_text(text))
    started = time.process_time()
    move = opening_book.read(book_path).lookup(position)
    print(json.dumps({"cpu": time.process_time() - started, "move": move}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
