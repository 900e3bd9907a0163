"""Game-agnostic UCT with MCTS-solver backups.

Start at `search`: it grows a tree from a root state until a `Budget` (mcts/budget.py) or an
early-stop rule (mcts/stopping.py) says stop, and returns
the statistics of the root's children, which the caller merges across workers and turns into
a move (see `mcts/parallel.py`).

The game is reached only through the state protocol (a two-player, alternating-or-not,
zero-sum game with win/loss outcomes):
- `legal_actions()`: the actions, in a fixed order (the RNG shuffles them, not the state);
- `apply(action)`: the next state (states are never mutated);
- `is_terminal()`, `to_play()` (a player id), `reward(player)`: 1.0 win, 0.0 loss, terminal only.

Leaves are valued by an evaluator with `evaluate(state, rng) -> value` in [0, 1] for
`state.to_play()`. Values stored in a node are for the player who chose the node's action.

An optional leaf solver, `leaf_solver(state) -> WIN / LOSS / None` for `state.to_play()`, is
asked about every new non-terminal node: a proven node (None: not proven, or not its business)
is solved at once and, like a terminal, backs up its exact value. The solver backups then prove
its parent or steer selection away from it, so it is never expanded.
"""

import math

from mcts.stopping import StopRules

DECISION_CHECK_INTERVAL = 256
WIN, LOSS = 1.0, 0.0


class Node(object):
    __slots__ = ("action", "player", "state", "children", "untried", "visits", "value_sum",
                 "solved")

    def __init__(self, action, player, state):
        self.action = action
        self.player = player  # who chose `action`; the value is theirs
        self.state = state
        self.children = []
        self.untried = None  # actions not expanded yet; None until the node is first visited
        self.visits = 0
        self.value_sum = 0.0
        self.solved = None  # WIN or LOSS for `player` once proven

    def mean(self):
        return self.value_sum / self.visits if self.visits else 0.5


class ChildStats(object):
    """What one search learned about one root action; workers send these to the parent."""

    __slots__ = ("action", "visits", "value_sum", "solved")

    def __init__(self, action, visits, value_sum, solved):
        self.action = action
        self.visits = visits
        self.value_sum = value_sum
        self.solved = solved

    def as_tuple(self):
        return self.action, self.visits, self.value_sum, self.solved


class SearchResult(object):
    """Root children's statistics; `proven` says a root action is a proven win or all are lost.
    `root` is the tree itself, which a caller may grow further (`search(..., root=...)`); it
    stays in the process (workers send the rest)."""

    __slots__ = ("children", "simulations", "proven", "root")

    def __init__(self, children, simulations, proven, root=None):
        self.children = children
        self.simulations = simulations
        self.proven = proven
        self.root = root


def _value_for(player, leaf_player, value):
    return value if player == leaf_player else 1.0 - value


def _expand(node, rng):
    actions = list(node.state.legal_actions())
    rng.shuffle(actions)
    node.untried = actions


def _select_child(node, exploration):
    """UCT over the children, never choosing a proven loss while anything else is left."""
    log_visits = math.log(node.visits)
    best, best_score = None, -1.0
    for child in node.children:
        if child.solved == WIN:
            return child
        if child.solved == LOSS:
            score = -0.5
        else:
            score = child.value_sum / child.visits + exploration * math.sqrt(log_visits / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _solve_from_children(node):
    """Prove `node` when a child is a proven win for its chooser or every child is a loss."""
    if node.untried:
        return
    mover_results = [child.solved for child in node.children]
    chooser = node.children[0].player
    if WIN in mover_results:
        node.solved = WIN if node.player == chooser else LOSS
    elif all(result == LOSS for result in mover_results):
        node.solved = LOSS if node.player == chooser else WIN


def search(root_state, evaluator, rng, budget, *, exploration, stop=None, leaf_solver=None,
           root=None):
    """Run simulations until the budget is spent, the root is proven or the choice is made.

    `rng` is a `random.Random`; everything random in the search comes from it. `exploration` is
    UCT's constant (the agent's: agent_settings.DEFAULT_EXPLORATION). `budget` has
    `exhausted(simulations)` and `simulations_left(simulations)` (an estimate); `stop` is a
    `mcts.stopping.StopRules` (default: stop once the choice is decided); `leaf_solver` proves
    new nodes (see the module docstring; None: no solver). `root`: the tree of an earlier
    result of the same root state to grow further (the GTP engine's analysis runs in slices);
    `simulations` then counts this call's only.
    """
    stop = StopRules() if stop is None else stop
    root = Node(None, None, root_state) if root is None else root
    simulations = 0
    while root.solved is None and not budget.exhausted(simulations):
        if simulations and not simulations % DECISION_CHECK_INTERVAL and stop.decided(
                root.children, root.untried, simulations,
                lambda: budget.simulations_left(simulations)):
            break
        simulations += 1
        node, path = root, [root]
        # Selection: follow UCT while the node is fully expanded.
        while node.untried is not None and not node.untried and node.children:
            node = _select_child(node, exploration)
            path.append(node)
        state = node.state
        if state.is_terminal():
            leaf_player = state.to_play()
            value = state.reward(leaf_player)
            if node is not root:
                node.solved = _value_for(node.player, leaf_player, value)
        else:
            proof = None
            if node.untried is None:
                _expand(node, rng)
            if node.untried:
                action = node.untried.pop()
                child = Node(action, state.to_play(), state.apply(action))
                node.children.append(child)
                node, state = child, child.state
                path.append(child)
                if state.is_terminal():
                    child.solved = _value_for(child.player, state.to_play(),
                                              state.reward(state.to_play()))
                elif leaf_solver is not None:
                    proof = leaf_solver(state)
                    if proof is not None:
                        child.solved = _value_for(child.player, state.to_play(), proof)
            leaf_player = state.to_play()
            if state.is_terminal():
                value = state.reward(leaf_player)
            elif proof is not None:
                value = proof
            else:
                value = evaluator.evaluate(state, rng)
        for visited in reversed(path):
            visited.visits += 1
            if visited.player is not None:
                visited.value_sum += _value_for(visited.player, leaf_player, value)
            if visited.solved is None and visited.children:
                _solve_from_children(visited)
    stats = [ChildStats(child.action, child.visits, child.value_sum, child.solved)
             for child in root.children]
    return SearchResult(stats, simulations, root.solved is not None, root)


def principal_variation(node):
    """The actions below `node` along the most visited child, as far as the tree goes."""
    actions = []
    while node.children:
        node = max(node.children, key=lambda child: child.visits)
        actions.append(node.action)
    return actions


def merge(results):
    """Sum visits and values per root action over independent searches of the same root.

    A proof from any worker holds for all of them: the rules are the same everywhere.
    """
    merged = {}
    for result in results:
        for stats in result.children:
            total = merged.get(stats.action)
            if total is None:
                merged[stats.action] = ChildStats(*stats.as_tuple())
            else:
                total.visits += stats.visits
                total.value_sum += stats.value_sum
                if stats.solved is not None:
                    total.solved = stats.solved
    return list(merged.values())


def best_action(children):
    """A proven win if there is one; else the most visited action not proven lost."""
    for stats in children:
        if stats.solved == WIN:
            return stats.action
    alive = [stats for stats in children if stats.solved != LOSS] or children
    return max(alive, key=lambda stats: (stats.visits, stats.value_sum)).action
