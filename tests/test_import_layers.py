"""The packages' dependencies point one way: the referee imports nothing of the agent, its
searches, its book, the GTP engine, the compiled solver or the analysis, and no two littlego
packages import each other, directly or through others. Imports are read from the source
(`ast`), those inside functions included, so an import deferred to a handler counts too."""

import ast
import os

import pytest

from littlego.paths import REPO_ROOT

PACKAGE_DIR = os.path.join(REPO_ROOT, "littlego")
# What the referee must not import: the agent's per-move modules and the offline packages that
# stand on them.
REFEREE_FORBIDDEN = {"agent", "endgame", "opening_book", "mcts", "littlego.gtp",
                     "littlego.solver", "littlego.analysis", "littlego.board"}


def module_files():
    """`{dotted module name: path}` for every module of the littlego package."""
    found = {}
    for directory, _, names in os.walk(PACKAGE_DIR):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                dotted = os.path.relpath(path, REPO_ROOT)[:-len(".py")].replace(os.sep, ".")
                found[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
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


def package_of(name):
    """`littlego.X` for a module of littlego's package or module X, else None."""
    parts = name.split(".")
    return ".".join(parts[:2]) if parts[0] == "littlego" and len(parts) > 1 else None


def package_graph():
    """`{littlego package: {littlego packages it imports}}` (single modules such as
    littlego.paths count as packages of their own)."""
    graph = {}
    for module, path in module_files().items():
        source = package_of(module)
        if source is None:
            continue
        targets = {package_of(name) for name in imported_names(path, module)}
        graph.setdefault(source, set()).update(
            target for target in targets if target is not None and target != source)
    return graph


def test_the_import_reader_sees_deferred_and_relative_imports(tmp_path):
    path = tmp_path / "example.py"
    path.write_text("import agent\nfrom . import rules\n\ndef later():\n"
                    "    from littlego.gtp.engine import COMMAND_WORDS\n")
    assert imported_names(str(path), "littlego.referee.example") == {
        "agent", "littlego.referee", "littlego.referee.rules", "littlego.gtp.engine",
        "littlego.gtp.engine.COMMAND_WORDS"}


@pytest.mark.parametrize("module", sorted(name for name in module_files()
                                          if within(name, {"littlego.referee"})))
def test_the_referee_imports_nothing_of_the_agent_or_the_analysis(module):
    names = imported_names(module_files()[module], module)
    assert sorted(name for name in names if within(name, REFEREE_FORBIDDEN)) == []


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


def test_the_cycle_finder_finds_the_old_loop():
    old = {"littlego.referee": {"littlego.gtp"}, "littlego.gtp": {"littlego.grader"},
           "littlego.grader": {"littlego.referee"}}
    assert cycle(old) == ["littlego.grader", "littlego.referee", "littlego.gtp",
                          "littlego.grader"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_two_littlego_packages_import_each_other():
    graph = package_graph()
    assert "littlego.referee" in graph and "littlego.board" in graph  # the reader found them
    assert cycle(graph) is None


def test_the_board_stands_on_the_analysis_and_the_referee():
    graph = package_graph()
    assert {"littlego.analysis", "littlego.referee"} <= graph["littlego.board"]
    assert "littlego.analysis" in graph["littlego.gtp"]


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
    loaders = {module: path for module, path in module_files().items() if loads_by_name(path)}
    assert {"littlego.cli", "littlego.analysis.exact"} <= set(loaders)
    for module, path in sorted(loaders.items()):
        with open(path, encoding="utf-8") as handle:
            guide = ast.get_docstring(ast.parse(handle.read(), path)) or ""
        assert "by name" in guide, module
