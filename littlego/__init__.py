"""Little-Go's offline side: everything around the per-move agent, one package per idea.

The agent itself is the flat modules at the root, what the grader runs, in layers from the
ground up (tests/test_import_layers.py): the rules (go_board.py); what tools import without the
search (course_io.py, the course files; agent_settings.py, the settings; decision_log.py, a
decision and its record; clocks.py); the searches and the book (endgame.py, mcts/,
opening_book.py, step_storage/); the pipeline (agent.py); the program (my_player.py). Here,
start at `cli` (the `littlego` command, every tool in one table); then the package you need:
- `referee`: the course's judge, matches, the terminal board (host.py's code); it judges and
  plays any player behind one protocol, and knows nothing of the agent, its searches, its book
  or the opponents (host.py brings those);
- `opponents`: the graded reference opponents, rebuilt, and the players a match knows by name;
- `analysis`: the one analysis of a position (exact results, margins, best lines, tries, the
  live search), which the browser board, GTP's `lz-analyze` and the KataGo JSON engine
  (`littlego analysis`, for KaTrain) present;
- `web`: the board in the browser (`littlego serve`), on the referee and the analysis;
- `gtp`: the agent as a GTP engine (`engine`), gomill's ringmaster against GNU Go;
- `solver`: the compiled exact solver (C, through ctypes), the book's strategies and builder;
- `bench`: speed benchmarks, the strength ladder and what it reads back;
- `grader`: the grader's conditions: the bundle, its environment, the driver loop, the soak;
- `paths`: where the project's files are.
Dependencies point one way: `web` -> `analysis`, `opponents`, `referee`; `gtp` -> `analysis`,
`grader`; `grader` -> `referee`; `opponents` -> `referee`; nothing points back, and the referee
loads nothing of the agent. Nothing here is imported by a move, and the submission carries none
of it.
"""

# The package's version, its one home: pyproject.toml reads it from here (setuptools' `attr:`),
# `littlego --version` and GTP `version` print it.
__version__ = "1.0.0"
