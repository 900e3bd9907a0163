"""Offline tools around the agent: each module is a command (`python3 tools/NAME.py --help`)
whose `main(argv)` the tests and other tools may call directly; the libraries they use live in
the packages (solver/, referee/, mcts/), not here.

Start at the one you need: `ladder.py` (strength ladder against the yardstick opponents),
`bench.py` (re-creates docs/benchmarks.md), `bench_solver.py` (the compiled solver against the
Python one), `solve.py` (one position's exact result, every move's), `build_book.py` (the
opening book: the winning side's proven strategy), `verify_book.py` (the book against the
strategies), `handover.py` (the in-game exact search where the book ends, on Python 3.7),
`blunders.py` (where games were lost, by exact search), `make_submission.py` (the grader
bundle), `driver_match.py` and `course_driver.sh` (the course's driver loop), `ringmaster.py`
(gomill's ringmaster against GNU Go), `bench_engine.py` (playouts per second),
`opponent_roundrobin.py` (the reference opponents against each other), `cpu_meter.py` (CPU of a
command's process tree).
"""
