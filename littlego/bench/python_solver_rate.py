"""The Python exact search's nodes and CPU on given positions, in this interpreter.

Usage: python -m littlego.bench.python_solver_rate < positions.json   (from the checkout's root)

Reads a JSON list of positions, each `[black, white, prev_black, prev_white, to_move, ply]`,
proves each with a fresh `endgame.ExactSolver` (`mover_wins`), and prints {"nodes": their sum,
"cpu": the CPU seconds of the proofs}. `littlego bench-solver` runs it under every Python it
finds (this one, PyPy, the grader's 3.7: solver_speed.python_rate), so it needs only the
standard library and the per-move modules.
"""

import json
import sys
import time

import endgame
import go_board


def main():
    nodes = cpu = 0
    for black, white, prev_black, prev_white, to_move, ply in json.load(sys.stdin):
        position = go_board.Position(black, white, to_move, ply, prev_black, prev_white)
        search = endgame.ExactSolver()
        started = time.process_time()
        search.mover_wins(position)
        cpu += time.process_time() - started
        nodes += search.nodes
    print(json.dumps({"nodes": nodes, "cpu": cpu}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
