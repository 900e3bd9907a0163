"""Command-line options that several subcommands share, each with one name and one meaning.

Two kinds of CPU figure must never be confused, so they have different names everywhere:
- the referee's limits, what a move is judged by (`--limit-cpu`, `--limit-wall`: `match`,
  `play`, `serve`); a player over them loses, as under the grader, whose limit is 10 s;
- the agent's own budget, what it plans to spend (`--agent-move-cpu`, `--agent-game-cpu`:
  `ladder`, `soak`), given to it as LITTLEGO_MOVE_CPU and LITTLEGO_GAME_CPU (agent.py).
A built-in opponent's own budget is `littlego opponent --opponent-move-cpu`.
The referee's limits are the referee's own (littlego/referee/cli.py: `add_referee_limits`, which
the browser board uses too); start here at `add_agent_budget`; `agent_env` turns the parsed
budget into the agent's variables. The agent's defaults are read from agent.py only when a
parser is built.
"""

import agent_settings
from littlego.referee.protocol import GRADER_MOVE_CPU

MOVE_CPU_VARIABLE = "LITTLEGO_MOVE_CPU"
GAME_CPU_VARIABLE = "LITTLEGO_GAME_CPU"


def add_agent_budget(parser, inherit=False):
    """--agent-move-cpu and --agent-game-cpu: the agent's own budget (args.agent_move_cpu,
    .agent_game_cpu). With `inherit`, an option not given stays None: the agent keeps whatever
    its environment says (its own default when unset), as under the grader."""
    unset = "unset: the agent's own " if inherit else ""
    parser.add_argument("--agent-move-cpu", type=float, metavar="SECONDS",
                        default=None if inherit else agent_settings.DEFAULT_MOVE_CPU,
                        help="the agent's own CPU budget per move ({}; default {}{:g}). Not "
                             "the referee's limit, which stays the grader's {:g} s".format(
                                 MOVE_CPU_VARIABLE, unset, agent_settings.DEFAULT_MOVE_CPU,
                                 GRADER_MOVE_CPU))
    parser.add_argument("--agent-game-cpu", type=float, metavar="SECONDS",
                        default=None if inherit else agent_settings.DEFAULT_GAME_CPU,
                        help="the agent's own CPU budget for its moves of one game ({}; "
                             "default {}{:g})".format(GAME_CPU_VARIABLE, unset,
                                                      agent_settings.DEFAULT_GAME_CPU))


def agent_env(args):
    """{variable: value} for the agent's budget options that are set."""
    values = {MOVE_CPU_VARIABLE: args.agent_move_cpu, GAME_CPU_VARIABLE: args.agent_game_cpu}
    return {name: str(value) for name, value in values.items() if value is not None}
