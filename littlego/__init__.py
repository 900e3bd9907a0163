"""Little-Go's offline side: everything around the per-move agent, one package per idea.

The agent itself is the flat modules at the root (my_player.py, agent.py, go_board.py, ...),
what the grader runs. Here, start at `cli` (the `littlego` command, every tool in one table);
then the package you need:
- `referee`: the course's judge, matches, the terminal board (host.py's code); it judges and
  plays, and knows nothing of the agent, its searches or its book;
- `analysis`: the one analysis of a position (exact results, margins, best lines, tries, the
  live search), which the browser board, GTP's `lz-analyze` and the KataGo JSON engine
  (`littlego analysis`, for KaTrain) present;
- `board`: the board in the browser (`littlego serve`), on the referee and the analysis;
- `gtp`: the agent as a GTP engine (`engine`), gomill's ringmaster against GNU Go;
- `opponents`: the graded reference opponents, rebuilt;
- `solver`: the compiled exact solver (C, through ctypes), the book's strategies and builder;
- `bench`: speed benchmarks, the strength ladder and what it reads back;
- `grader`: the grader's conditions: the bundle, its environment, the driver loop, the soak;
- `paths`: where the project's files are.
Dependencies point one way (tests/test_import_layers.py): `board` -> `analysis`, `gtp`,
`referee`; `gtp` -> `analysis`, `grader`; `grader` -> `referee`; nothing points back.
Nothing here is imported by a move, and the submission carries none of it.
"""

# The package's version, its one home: pyproject.toml reads it from here (setuptools' `attr:`),
# `littlego --version` and GTP `version` print it.
__version__ = "0.4.0"
