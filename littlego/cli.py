"""The `littlego` command: one door to every tool, with subcommands (`littlego match ...`).

Start at `COMMANDS`, the whole command in one table: each subcommand names the module whose
`main(argv)` runs it, what it is for and an example, which `littlego NAME --help` prints after
the module's own help. A module is loaded by name (importlib) only when its subcommand runs, so
`littlego --help` and the fast commands load nothing else. The referee's modes (`play`,
`match`, `judge`) are `host.py`'s, the course's own program, passed its mode word (host.py
brings the built-in opponents); `serve`, the browser board, lives apart, in littlego/web.
"""

import collections
import importlib
import signal
import sys

import littlego

Command = collections.namedtuple("Command", "module mode summary example")
HELP_FLAGS = ("-h", "--help")
VERSION_FLAG = "--version"
PROG = "littlego"


def _command(module, summary, example, mode=None):
    return Command(module, mode, summary, example)


COMMANDS = collections.OrderedDict([
    # Playing
    ("match", _command("host", "play games between two players, with statistics",
                       'littlego match "cmd:python3 my_player.py" random --games 4 --show',
                       mode="match")),
    ("play", _command("host", "play against a player in the terminal",
                      'littlego play --opponent "cmd:python3 my_player.py" --colour 1',
                      mode="play")),
    ("serve", _command("littlego.web.server", "the board in the browser (127.0.0.1:8561)",
                       "littlego serve --opponent random --colour 2", mode="serve")),
    ("judge", _command("host",
                       "judge one ply in this directory, as the course's host.py",
                       "littlego judge -m 3 -v True", mode="judge")),
    ("gtp", _command("littlego.gtp.engine", "the agent as a GTP engine on stdin/stdout",
                     "littlego gtp")),
    ("analysis", _command("littlego.analysis.katago",
                          "KataGo's JSON analysis protocol on stdin/stdout (for KaTrain)",
                          "littlego analysis --max-time 10")),
    ("katrain", _command("littlego.analysis.katrain",
                         "KaTrain on Little-Go, analysed by `littlego analysis` (needs .[katrain])",
                         "littlego katrain runs/board/game.sgf")),
    ("opponent", _command("littlego.opponents.run",
                          "one move of a built-in opponent in this game directory",
                          "littlego opponent alphabeta4 --seed 3")),
    ("ringmaster", _command("littlego.gtp.ringmaster",
                            "gomill's ringmaster: our GTP engine against GNU Go",
                            "littlego ringmaster --games 10 --out runs/ringmaster")),
    # Exact results and the book
    ("solve", _command("littlego.solver.solve", "one position's exact result, every move's",
                       "littlego solve input.txt --margins")),
    ("book", _command("littlego.solver.build_book",
                      "build or resume the opening book with the compiled solver",
                      "littlego book --jobs 2")),
    ("verify-book", _command("littlego.solver.verify_book",
                             "prove every book answer of each strategy again",
                             "littlego verify-book --lines 40")),
    ("build-solver", _command("littlego.solver.build", "compile the exact solver (C)",
                              "littlego build-solver --force")),
    ("review", _command("littlego.analysis.review",
                        "a game's every move by exact value: the points given away, the first "
                        "win thrown away", "littlego review runs/x/games.jsonl 3 --cpu 5")),
    ("value-table", _command("littlego.analysis.stored_values",
                             "build or resume the stored value table of the opening positions",
                             "littlego value-table --positions 2")),
    # Strength and speed
    ("ladder", _command("littlego.bench.ladder", "the strength ladder against the yardstick",
                        "littlego ladder --opponents alphabeta4:4 --agent-move-cpu 1 "
                        "--agent-game-cpu 8")),
    ("roundrobin", _command("littlego.bench.roundrobin",
                            "the reference opponents against each other",
                            "littlego roundrobin --games 10")),
    ("slips", _command("littlego.bench.slips", "Black's slips and White's kept wins in the "
                       "centre rungs, by exact proof", "littlego slips runs/ladder-centre")),
    ("blunders", _command("littlego.bench.blunders", "where recorded games were lost, by exact "
                          "search", "littlego blunders runs/ladder/*/games.jsonl")),
    ("bench", _command("littlego.bench.report", "re-create docs/benchmarks.md",
                       "littlego bench --quick")),
    ("bench-engine", _command("littlego.bench.engine_speed", "playouts per second",
                              "littlego bench-engine --seconds 3")),
    ("bench-solver", _command("littlego.bench.solver_speed",
                              "the compiled solver against the Python one",
                              "littlego bench-solver")),
    ("bench-analysis", _command("littlego.bench.analysis_speed",
                                "how long a GUI waits for the analysis, by ply",
                                "littlego bench-analysis --games 1 --cap 30")),
    ("bench-value", _command("littlego.bench.value_table",
                             "the empty board's value table beside its win/loss solve",
                             "littlego bench-value --no-replies")),
    ("solver-reach", _command("littlego.bench.solver_reach",
                              "how far from the end the in-game exact search decides",
                              "littlego solver-reach --positions 10")),
    ("leaf-solve-cost", _command("littlego.bench.leaf_solve_cost",
                                 "what the search's leaf proofs cost",
                                 "littlego leaf-solve-cost")),
    ("forced-openings", _command("littlego.bench.forced_openings",
                                 "the agent White after each losing first move, Black itself",
                                 "littlego forced-openings --games-per-move 3")),
    ("handover", _command("littlego.bench.handover",
                          "the seam where the book ends, decided on the grader's Python",
                          "littlego handover --positions 60")),
    # The grader's conditions
    ("submission", _command("littlego.grader.bundle", "write the two files to submit",
                            "littlego submission --out dist/submission")),
    ("check-submission", _command("littlego.grader",
                                  "the bundle alone against random, as the grader runs it",
                                  "littlego check-submission 10")),
    ("driver-match", _command("littlego.grader.driver_match",
                              "games under the course's driver loop, every move metered",
                              "littlego driver-match --games 10")),
    ("soak", _command("littlego.grader.soak", "thousands of metered moves under the driver loop",
                      "littlego soak --moves 60 --agent-move-cpu 1")),
    ("grader-env", _command("littlego.grader.environment",
                            "the environment of a graded run; checks of metered moves",
                            "littlego grader-env env /tmp/graded")),
    ("grader-python", _command("littlego.grader.interpreters",
                               "the grader's Python 3.7 on this machine",
                               "littlego grader-python --version 3.7")),
])


def usage():
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: {} COMMAND [ARGS...]   ({} COMMAND --help for one; {} {})".format(
        PROG, PROG, PROG, VERSION_FLAG), "", "commands:"]
    lines += ["  {:{}}  {}".format(name, width, command.summary)
              for name, command in COMMANDS.items()]
    return "\n".join(lines)


def run(name, argv):
    """Run subcommand `name` on `argv`; its exit code."""
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    # argparse names the program after sys.argv[0]: "littlego NAME", or for the referee's
    # modes "littlego", to which it adds the mode's word itself.
    program = sys.argv[0]
    sys.argv[0] = PROG if command.mode is not None else "{} {}".format(PROG, name)
    try:
        return module.main([command.mode] + argv if command.mode else argv)
    finally:
        sys.argv[0] = program
        if any(flag in argv for flag in HELP_FLAGS):
            print("\nexample:\n  {}".format(command.example))


def main(argv=None):
    # A closed pipe (`littlego ... | head`) ends the command quietly, as it does a Unix tool,
    # instead of a traceback; Python ignores SIGPIPE unless told.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in HELP_FLAGS or argv[0] == "help":
        print(usage())
        return 0 if argv else 2
    if argv == [VERSION_FLAG]:
        print("{} {}".format(PROG, littlego.__version__))
        return 0
    if argv[0] not in COMMANDS:
        sys.stderr.write("{}: unknown command {!r} (see '{} --help')\n".format(
            PROG, argv[0], PROG))
        return 2
    return run(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main())
