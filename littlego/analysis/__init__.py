"""What is known about a position: the one home of exact results, margins, best lines, tries
and the live search, which every presenter shows: the KataGo JSON analysis engine (`katago`,
`littlego analysis`, for KaTrain), GTP's `lz-analyze` and `kata-analyze` (littlego/gtp), the
browser board (littlego/web) and `littlego review`.

Start at `live` (`Analysis`: the one analysis of a position, slice by slice: the stored value
table, the book's proofs, the exact search, then an estimate, and its `report()`, the snapshot
every presenter reads). It asks `exact` (the compiled solver, else the Python exact search,
behind one face, with proven best lines), `stored_values` (the opening positions' exact values
and lines, stored by `littlego value-table` where the solver takes minutes) and the agent's own
parts (the book, mcts). `move_results` writes a report in the board's words and runs the
analysis for a CPU budget; `review` (`littlego review`) asks it about every position of a
recorded game; `katago` speaks KataGo's JSON analysis protocol; `vertices` holds the GUIs'
words for moves (GTP vertices) that GTP and the JSON engine share.
Nothing here plays or judges a game, and the referee imports nothing from here.
"""
