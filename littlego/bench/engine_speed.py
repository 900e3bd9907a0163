"""Engine speed: uniform random playouts (to ply 24) per CPU second on one core.

Usage: littlego bench-engine [--seconds 3] [--repeats 5]
Prints the median of the repeats (`make bench` puts the same figure in docs/benchmarks.md).
"""

import argparse
import random
import statistics
import sys
import time

import go_board
from mcts.playout import playout


def playouts_per_second(seconds, knowledge, seed):
    rng = random.Random(seed)
    start_position = go_board.Position()
    count = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        for _ in range(100):
            playout(start_position, rng.random, knowledge)
        count += 100
    return count / (time.process_time() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print("python {}".format(sys.version.split()[0]))
    for knowledge, label in ((False, "uniform random"), (True, "knowledge (agent)")):
        rates = [playouts_per_second(args.seconds, knowledge, seed) for seed in range(args.repeats)]
        print("{:<18} playouts/s: median {:,.0f} (min {:,.0f}, max {:,.0f}, {} runs of {}s)".format(
            label, statistics.median(rates), min(rates), max(rates), args.repeats, args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
