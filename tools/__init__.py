"""Offline tools around the agent: each module is a command (`python3 tools/NAME.py --help`)
whose `main(argv)` the tests and other tools may call directly.

Start at the one you need: `ladder.py` (strength ladder against the yardstick opponents),
`bench.py` (re-creates docs/benchmarks.md), `blunders.py` (where games were lost, by exact
search), `build_book.py` and `verify_book.py` (the opening book, built and checked with the
compiled solver), `solve.py` (one position solved exactly), `make_submission.py` (the grader
bundle), `driver_match.py` and `course_driver.sh` (the course's driver loop), `bench_engine.py`
(playouts per second), `opponent_roundrobin.py` (the reference opponents against each other),
`cpu_meter.py` (CPU of a command's process tree).
"""
