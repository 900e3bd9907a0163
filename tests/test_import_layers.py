"""The imports point one way, over the whole tree: the per-move modules at the root, their
packages (mcts, step_storage) and every littlego package.

Two readings. The source (`ast`, imports inside functions included, so an import deferred to a
handler counts too) gives the graph of units: a root module, a root package or a littlego
package is one unit; no two units import each other, directly or through others, and the
per-move path stands in layers (PER_MOVE_LAYERS): a unit imports only units of its own layer or
below, never the littlego package. Then what a program really loads: each entry point
(ENTRY_POINTS) is imported in a fresh interpreter, and `sys.modules` must hold none of what it
stands apart from (the referee nothing of the agent, its built-in opponents included; the
agent's contract, settings, decision record and clocks, not the search).
"""

import ast
import json
import os
import subprocess
import sys

import pytest

from littlego.paths import REPO_ROOT

PACKAGE_DIR = os.path.join(REPO_ROOT, "littlego")
ROOT_PACKAGES = ("mcts", "step_storage")
# The per-move path, from the ground up: a unit imports units of its own layer or below only.
PER_MOVE_LAYERS = [
    {"go_board"},                                                # the rules
    {"clocks", "course_io", "decision_log", "agent_settings"},   # the contract tools import
    {"endgame", "mcts", "opening_book", "step_storage"},         # the searches and the book
    {"agent"},                                                   # the pipeline
    {"my_player"},                                               # the program
]
PER_MOVE = set().union(*PER_MOVE_LAYERS)
# The agent: what the referee and the built-in opponents never load (the rules and the course
# files, go_board and course_io, are everyone's).
AGENT = {"agent", "agent_settings", "decision_log", "clocks", "endgame", "opening_book",
         "step_storage", "mcts", "my_player"}
# What the referee must not import: the agent and the offline packages that stand on it, and
# the opponents, which the programs above it bring (host.py, the board, the ladder).
REFEREE_FORBIDDEN = AGENT | {"littlego.gtp", "littlego.solver", "littlego.analysis",
                             "littlego.web", "littlego.opponents", "littlego.bench"}
SEARCH = {"agent", "endgame", "mcts", "opening_book", "step_storage"}
# Entry point -> (what loading it runs, after the import; the units it must not load).
ENTRY_POINTS = {
    "littlego.referee.cli": ("", REFEREE_FORBIDDEN),
    "littlego.referee.match": ("", REFEREE_FORBIDDEN),
    "littlego.referee.human": ("", REFEREE_FORBIDDEN),
    "littlego.referee.gtp_player": ("", REFEREE_FORBIDDEN),
    # host.py as the course's judge, and with the built-in opponents it brings to a match:
    # every one of them playing a move.
    "host": ("", REFEREE_FORBIDDEN),
    "littlego.opponents.in_process": (
        "from littlego.referee import judge\n"
        "from littlego.referee.protocol import MoveLimits\n"
        "for name, factory in sorted(module.players().items()):\n"
        "    player = factory(name, MoveLimits(10.0, 30.0))\n"
        "    player.start_game('.', 1, 7)\n"
        "    assert player.move(judge.opening_input(), 1, []).line\n",
        AGENT | {"littlego.gtp", "littlego.solver", "littlego.analysis", "littlego.web"}),
    "agent_settings": ("", SEARCH | {"littlego"}),
    "decision_log": ("", SEARCH | {"littlego"}),
    "clocks": ("", SEARCH | {"go_board", "littlego"}),
    "littlego.options": ("", SEARCH),
    "littlego.grader.environment": ("", SEARCH),
    "littlego.cli": ("module.usage()\n", AGENT),
}


def source_files():
    """`{dotted module name: path}` of every module of the tree: the root's modules and
    packages (tests, setup.py and the venv left out) and the littlego package."""
    found = {}
    for name in sorted(os.listdir(REPO_ROOT)):
        path = os.path.join(REPO_ROOT, name)
        if name.endswith(".py") and name != "setup.py":
            found[name[:-len(".py")]] = path
    for top in ROOT_PACKAGES + ("littlego",):
        for directory, _, names in os.walk(os.path.join(REPO_ROOT, top)):
            for name in names:
                if name.endswith(".py"):
                    path = os.path.join(directory, name)
                    dotted = os.path.relpath(path, REPO_ROOT)[:-len(".py")].replace(os.sep, ".")
                    found[dotted[:-len(".__init__")] if dotted.endswith(".__init__")
                          else dotted] = path
    return found


def imported_names(path, module):
    """Every module `path` (the module `module`) imports, absolute, and for `from X import Y`
    both X and X.Y (Y may be a module)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            names.add(base)
            names.update("{}.{}".format(base, alias.name) for alias in node.names)
    return names


def within(name, modules):
    """Whether the module `name` is one of `modules` or inside one of them."""
    return any(name == module or name.startswith(module + ".") for module in modules)


def unit_of(name, roots):
    """The unit of the module `name`: `littlego.X` for littlego's package or module X, the
    root package or module of the tree, else None (not ours). `roots`: the root's names."""
    parts = name.split(".")
    if parts[0] == "littlego":
        return ".".join(parts[:2]) if len(parts) > 1 else None
    return parts[0] if parts[0] in roots else None


def unit_graph():
    """`{unit: {units it imports}}` over the whole tree."""
    files = source_files()
    roots = {name.split(".")[0] for name in files}
    graph = {}
    for module, path in files.items():
        source = unit_of(module, roots)
        if source is None:
            continue
        targets = {unit_of(name, roots) for name in imported_names(path, module)}
        graph.setdefault(source, set()).update(
            target for target in targets if target is not None and target != source)
    return graph


def cycle(graph):
    """One cycle of `graph` as a list of nodes (the first repeated last), or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target, path + [target])
                if found:
                    return found
        state[node] = "done"
        return None
    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_the_import_reader_sees_deferred_and_relative_imports(tmp_path):
    path = tmp_path / "example.py"
    path.write_text("import agent\nfrom . import rules\n\ndef later():\n"
                    "    from littlego.gtp.engine import COMMAND_WORDS\n")
    assert imported_names(str(path), "littlego.referee.example") == {
        "agent", "littlego.referee", "littlego.referee.rules", "littlego.gtp.engine",
        "littlego.gtp.engine.COMMAND_WORDS"}


def test_the_reader_sees_the_whole_tree_root_modules_and_packages_too():
    graph = unit_graph()
    assert PER_MOVE | {"host", "littlego.referee", "littlego.web", "littlego.opponents"} \
        <= set(graph)
    assert unit_of("mcts.budget", {"mcts"}) == "mcts" and unit_of("os.path", {"mcts"}) is None


def test_the_cycle_finder_finds_the_old_loops():
    old = {"littlego.referee": {"littlego.gtp"}, "littlego.gtp": {"littlego.grader"},
           "littlego.grader": {"littlego.referee"}}
    assert cycle(old) == ["littlego.grader", "littlego.referee", "littlego.gtp",
                          "littlego.grader"]
    # mcts/go_game.py imported endgame, whose clocks were mcts/budget.py's.
    assert cycle({"endgame": {"mcts"}, "mcts": {"endgame"}}) == ["endgame", "mcts", "endgame"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_two_units_import_each_other_anywhere_in_the_tree():
    assert cycle(unit_graph()) is None


@pytest.mark.parametrize("layer", range(len(PER_MOVE_LAYERS)))
def test_the_per_move_path_imports_only_its_own_layer_and_below_and_nothing_of_littlego(layer):
    graph = unit_graph()
    allowed = set().union(*PER_MOVE_LAYERS[:layer + 1])
    for unit in sorted(PER_MOVE_LAYERS[layer]):
        assert graph[unit] <= allowed, (unit, sorted(graph[unit] - allowed))


@pytest.mark.parametrize("module", sorted(name for name in source_files()
                                          if within(name, {"littlego.referee"})))
def test_the_referee_imports_nothing_of_the_agent_the_opponents_or_the_analysis(module):
    names = imported_names(source_files()[module], module)
    assert sorted(name for name in names if within(name, REFEREE_FORBIDDEN)) == []


def test_the_board_stands_on_the_analysis_the_referee_and_the_opponents():
    graph = unit_graph()
    assert {"littlego.analysis", "littlego.referee", "littlego.opponents"} <= \
        graph["littlego.web"]
    assert "littlego.analysis" in graph["littlego.gtp"]
    assert "littlego.referee" in graph["littlego.opponents"]


def loaded_by(module, run):
    """The modules `sys.modules` holds after a fresh interpreter imports `module` (as `module`)
    and runs `run`, from the checkout's root."""
    program = ("import importlib, json, sys\nmodule = importlib.import_module({!r})\n{}"
               "print(json.dumps(sorted(sys.modules)))\n").format(module, run)
    done = subprocess.run([sys.executable, "-c", program], cwd=REPO_ROOT, check=True,
                          stdout=subprocess.PIPE, universal_newlines=True)
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("module", sorted(ENTRY_POINTS))
def test_an_entry_point_loads_nothing_it_stands_apart_from(module):
    run, forbidden = ENTRY_POINTS[module]
    loaded = loaded_by(module, run)
    assert module in loaded
    assert sorted(name for name in loaded if within(name, forbidden)) == []


def test_the_agents_pipeline_does_load_the_search_and_its_contract():
    # The check above can fail: the pipeline itself holds what its contract stands apart from.
    loaded = set(loaded_by("agent", ""))
    assert {"endgame", "mcts.core", "opening_book", "clocks", "decision_log"} <= loaded
    assert not any(within(name, {"littlego"}) for name in loaded)


def loads_by_name(path):
    """Whether the module at `path` imports a module by name at run time (importlib's
    import_module or __import__), an edge no import statement shows."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in ("import_module", "__import__"):
                return True
    return False


def test_a_module_that_loads_another_by_name_says_so_in_its_reading_guide():
    loaders = {module: path for module, path in source_files().items()
               if loads_by_name(path)}
    assert {"littlego.cli", "littlego.analysis.exact"} <= set(loaders)
    for module, path in sorted(loaders.items()):
        with open(path, encoding="utf-8") as handle:
            guide = ast.get_docstring(ast.parse(handle.read(), path)) or ""
        assert "by name" in guide, module
