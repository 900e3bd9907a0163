"""Little-Go's per-move program: one call, one move, from input.txt to output.txt.

Reading guide: `main` is the whole program, in the order it runs:
1. read input.txt (`course_io.read_input`): a malformed file is one line on stderr, exit 2;
2. restore the ply and this game's CPU ledger (`step_storage.restore`);
3. `agent.decide` on the budget of the time manager (`agent.plan_move`), which ends that
   many CPU seconds after the process started (clocks.PROCESS_START_CPU on the tree's clock);
4. write output.txt atomically, then the step file with the CPU this call used, then log the
   decision as one JSON line on stderr (decision_log.py's `log_decision`; its
   `read_decisions` reads it).
`command` is the program's door: it takes no arguments. The GTP engine (the same agent, one
process for the whole game) is `littlego gtp`, not this file: the submission carries only what a
graded move runs. The agent itself and its budgets are in agent.py, its settings in
agent_settings.py.
Standard library only, Python 3.7, and nothing from the `littlego` package: the grader runs this
file (bundled, see littlego/grader/bundle.py) once per move.
"""

import os
import sys

import agent
import agent_settings
import clocks
import course_io
import go_board
import step_storage
from decision_log import PLAYER_NAME, decision_record, log, log_decision
from go_board import PASS


def main(directory="."):
    input_path = os.path.join(directory, course_io.INPUT_FILE)
    output_path = os.path.join(directory, course_io.OUTPUT_FILE)
    try:
        settings = agent_settings.Settings(os.environ)
    except ValueError as error:
        log("bad LITTLEGO_* setting: {}".format(error))
        return 2
    book = agent.read_book(settings)
    try:
        colour, previous, current = course_io.read_input(input_path)
    except course_io.InputError as error:
        log("bad input: {}".format(error))
        return 2
    state = step_storage.restore(colour, previous, current, directory, PLAYER_NAME)
    position = go_board.Position(current[0], current[1], colour, state.ply, previous[0], previous[1])
    spent_before = agent.cpu_spent_before(state, settings)
    plan = agent.plan_move(state.ply, spent_before, settings, book, clocks.PROCESS_START_CPU)
    decision = agent.decide(position, plan.cpu_deadline, settings, book)
    move = decision.move
    try:
        course_io.write_output(move, output_path)
    except (IOError, OSError) as error:
        log("cannot write {}: {}".format(output_path, error))
        return 1
    board_after = position.play(move) if move != PASS else position
    used = clocks.tree_cpu_seconds()
    try:
        step_storage.save(directory, PLAYER_NAME, colour, state.ply,
                          (board_after.black, board_after.white), spent_before + used)
    except (IOError, OSError) as error:
        log("cannot save the step file ({}); the next move will derive the ply".format(error))
    log_decision(decision_record(decision, position, used, plan.budget))
    return 0


def command(argv):
    """The program as the grader calls it, `python3 my_player.py`: one move, `main`'s exit code.
    Any argument is one line on stderr and exit 2 (`--gtp` is `littlego gtp`'s, not ours)."""
    if argv:
        log("takes no arguments ({}): it plays one move from {} in the working "
                  "directory; the GTP engine is `littlego gtp`".format(
                      " ".join(argv), course_io.INPUT_FILE))
        return 2
    return main()


if __name__ == "__main__":
    sys.exit(command(sys.argv[1:]))
