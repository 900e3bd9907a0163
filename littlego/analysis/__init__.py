"""What is known about a position: the one home of exact results, margins, tries and live
search, which the browser board (littlego/board) and GTP's `lz-analyze` and `kata-analyze`
(littlego/gtp) present.

Start at `move_results` (every legal move's proven result, its margin, and a lost position's
best try, as JSON: the board's GET /api/analysis) or `live` (`Analysis`: the book, the exact
proofs, the exact margins and MCTS refined slice by slice, for the GTP analysis commands). Both
ask the agent's own parts (the book, endgame's exact search, mcts) and the compiled solver;
move_results asks `stored_values` first (the opening positions' exact values, stored by
`littlego value-table` where the solver takes minutes); `review` (`littlego review`) asks
move_results about every position of a recorded game.
Nothing here plays or judges a game, and the referee imports nothing from here.
"""
