"""Measuring the agent: its strength against the yardstick, and the speed of its parts.

Start at `ladder` (the strength ladder: rungs of opponents, Wilson intervals) or `report`
(re-creates docs/benchmarks.md from the measurements below and the runs it is given). Speed:
`engine_speed` (playouts per second), `solver_speed` (the compiled solver against the Python
one), `solver_reach` (how far from the end the in-game exact search decides), `handover` (that
search where the book ends), `leaf_solve_cost`. Strength, read back: `blunders` (where games
were lost), `roundrobin` (the reference opponents among themselves). `positions` holds the
seeded random positions the tests and benchmarks share.
"""
