"""The search on tiny fixed games and positions: which child it picks, and why."""

import random

import endgame
import go_board
from go_board import BLACK, PASS, WHITE, Position, from_coord
from mcts import core
from mcts.budget import Budget
from mcts.go_game import GoState, LeafSolver, PlayoutEvaluator
from mcts.parallel import root_parallel_search
from mcts.playout import playout
from mcts.stopping import StopRules

# UCT's constant for these searches (the agent's own is a setting: agent_settings).
EXPLORATION = 0.5


class Nim(object):
    """Take 1 or 2 from a pile; who takes the last object wins. Players are 0 and 1."""

    def __init__(self, pile, player=0):
        self.pile, self.player = pile, player

    def legal_actions(self):
        return [take for take in (1, 2) if take <= self.pile]

    def apply(self, take):
        return Nim(self.pile - take, 1 - self.player)

    def is_terminal(self):
        return self.pile == 0

    def to_play(self):
        return self.player

    def reward(self, player):
        # The player to move at an empty pile did not take the last object.
        return 0.0 if player == self.player else 1.0


class CoinFlipEvaluator(object):
    def evaluate(self, state, rng):
        return rng.random()


def run(state, simulations, seed=1, evaluator=None):
    return core.search(state, evaluator or CoinFlipEvaluator(), random.Random(seed),
                       Budget(max_simulations=simulations), exploration=EXPLORATION)


def by_action(result):
    return {stats.action: stats for stats in result.children}


def test_immediate_win_is_proven_and_ends_the_search():
    result = run(Nim(2), 10000)
    assert result.proven
    assert by_action(result)[2].solved == core.WIN
    assert core.best_action(result.children) == 2
    assert result.simulations < 20


def test_losing_root_proves_every_child_lost():
    # A pile of 3 loses for the mover: both takes leave the opponent a winning pile.
    result = run(Nim(3), 10000)
    assert result.proven
    assert {stats.action: stats.solved for stats in result.children} == {1: core.LOSS, 2: core.LOSS}


def test_solver_finds_the_only_winning_move_deep_in_the_tree():
    # From 7 the only win is taking 1 (leaving a multiple of 3); noise values cannot hide it.
    result = run(Nim(7), 20000)
    assert by_action(result)[1].solved == core.WIN
    assert core.best_action(result.children) == 1


def test_same_seed_same_statistics():
    # The search draws from the RNG it is given and from nothing else: the same seed gives the
    # same statistics whatever the global random state, and another seed others.
    def statistics(seed, global_seed):
        random.seed(global_seed)
        return [stats.as_tuple() for stats in run(Nim(30), 500, seed=seed).children]
    saved = random.getstate()
    try:
        first, second, other = statistics(3, 1), statistics(3, 2), statistics(4, 1)
    finally:
        random.setstate(saved)
    assert first == second != other
    for found in (first, other):
        assert [stats[0] for stats in found] == [1, 2]
        assert sum(stats[1] for stats in found) == 500


def test_merge_sums_workers_and_keeps_proofs():
    left = core.SearchResult([core.ChildStats(1, 10, 6.0, None), core.ChildStats(2, 5, 1.0, None)], 15, False)
    right = core.SearchResult([core.ChildStats(1, 4, 1.0, None), core.ChildStats(2, 3, 3.0, core.WIN)], 7, True)
    merged = {stats.action: stats.as_tuple() for stats in core.merge([left, right])}
    assert merged == {1: (1, 14, 7.0, None), 2: (2, 8, 4.0, core.WIN)}


def test_best_action_prefers_a_proof_then_visits_and_avoids_proven_losses():
    children = [core.ChildStats(1, 100, 60.0, core.LOSS), core.ChildStats(2, 40, 20.0, None),
                core.ChildStats(3, 30, 20.0, None)]
    assert core.best_action(children) == 2
    children.append(core.ChildStats(4, 1, 1.0, core.WIN))
    assert core.best_action(children) == 4


LAST_PLY_CAPTURE = """
    X X X X X
    O O O O X
    . O X X X
    O O X . X
    O O X X X"""


def test_go_search_finds_the_capture_that_wins_at_the_last_ply():
    # White plays the last ply, both big chains in atari: only capturing at (3,3) wins;
    # (2,0) is suicide and passing leaves Black ahead 14 to 9 + 2.5.
    position = Position.from_text(LAST_PLY_CAPTURE, to_move=WHITE, ply=24)
    assert position.winner() == BLACK
    result = core.search(GoState(position), PlayoutEvaluator(knowledge=True), random.Random(5),
                         Budget(max_simulations=200), exploration=EXPLORATION)
    assert core.best_action(result.children) == from_coord(3, 3)
    assert result.proven


def test_root_parallel_search_merges_every_worker():
    position = Position().play(from_coord(2, 2))
    children, simulations, workers = root_parallel_search(
        GoState(position), PlayoutEvaluator(knowledge=True), seed=11, workers=2,
        cpu_per_worker=0.3, wall_seconds=5.0, exploration=EXPLORATION)
    assert workers == 2
    assert sum(stats.visits for stats in children) == simulations
    assert {stats.action for stats in children} == set(position.legal_moves())


def test_playouts_end_the_game_legally():
    rng = random.Random(9)
    for knowledge in (False, True):
        for _ in range(100):
            black, white = playout(Position(), rng.random, knowledge)
            assert black & white == 0
            assert go_board.dead_group(black, white) is None


def test_knowledge_playout_captures_a_chain_left_in_atari():
    # White just played (0,1) into atari: the knowledge policy captures it at once, every time.
    position = Position.from_text("""
        X O . . .
        . X . . .
        . . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=23, previous="""
        X . . . .
        . X . . .
        . . . . .
        . . . . .
        . . . . .""")
    rng = random.Random(4)
    for _ in range(20):
        black, white = playout(position, rng.random, knowledge=True)
        assert black & (1 << from_coord(0, 2))
        assert not white & (1 << from_coord(0, 1))


def test_pass_is_an_ordinary_action_that_can_end_the_game():
    after_white_pass = Position.from_text("""
        X X X . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""", to_move=BLACK, ply=9)
    state = GoState(after_white_pass)
    assert PASS in state.legal_actions()
    assert state.apply(PASS).is_terminal()
    assert state.apply(PASS).reward(BLACK) == 1.0


class FirstPlayerWinsEvaluator(object):
    """Every leaf is a win for player 0, whoever is to move there."""

    def evaluate(self, state, rng):
        return 1.0 if state.to_play() == 0 else 0.0


def test_sure_win_stops_the_search_at_the_first_check_past_its_threshold():
    result = core.search(Nim(30), FirstPlayerWinsEvaluator(), random.Random(2),
                         Budget(max_simulations=100000), exploration=EXPLORATION,
                         stop=StopRules(sure_win=0.9, sure_win_after=300))
    # Checks come every DECISION_CHECK_INTERVAL simulations: the first one past 300.
    assert result.simulations == 2 * core.DECISION_CHECK_INTERVAL
    assert not result.proven


def test_without_sure_win_the_whole_budget_is_spent():
    result = core.search(Nim(30), FirstPlayerWinsEvaluator(), random.Random(2),
                         Budget(max_simulations=3000), exploration=EXPLORATION)
    assert result.simulations == 3000


def test_a_decided_choice_stops_the_search_unless_the_rule_is_off():
    # The budget says nothing more fits, so at the first check the leader cannot be overtaken.
    class SpentBudget(Budget):
        def simulations_left(self, simulations):
            return 0

    decided = core.search(Nim(30), CoinFlipEvaluator(), random.Random(2),
                          SpentBudget(max_simulations=3000), exploration=EXPLORATION)
    assert decided.simulations == core.DECISION_CHECK_INTERVAL
    spent = core.search(Nim(30), CoinFlipEvaluator(), random.Random(2),
                        SpentBudget(max_simulations=3000), stop=StopRules(when_decided=False),
                        exploration=EXPLORATION)
    assert spent.simulations == 3000


# ---- solved leaves: the search's optional leaf solver ------------------------------------------

def nim_proof(state):
    """Exact Nim: the mover loses on a multiple of 3."""
    return core.LOSS if state.pile % 3 == 0 else core.WIN


class RecordingSolver(object):
    """Wraps a leaf solver and remembers every state it was asked about and what it answered."""

    def __init__(self, solve):
        self.solve = solve
        self.answers = []

    def __call__(self, state):
        answer = self.solve(state)
        self.answers.append((state, answer))
        return answer

    def piles(self):
        return [(state.pile, answer) for state, answer in self.answers]


def solved_run(state, simulations, leaf_solver, seed=1):
    return core.search(state, CoinFlipEvaluator(), random.Random(seed),
                       Budget(max_simulations=simulations), leaf_solver=leaf_solver,
                       exploration=EXPLORATION)


def test_a_leaf_proof_of_a_child_proves_the_root_once_both_children_are_made():
    # From 10 only taking 1 wins (9 is a multiple of 3). The solver proves the new child 9 lost
    # for its mover, so the root is a proven win after its two children exist: 2 simulations.
    solver = RecordingSolver(nim_proof)
    result = solved_run(Nim(10), 10000, solver)
    assert result.proven and result.simulations == 2
    assert {stats.action: stats.solved for stats in result.children} == {1: core.WIN,
                                                                          2: core.LOSS}
    assert core.best_action(result.children) == 1
    assert sorted(solver.piles()) == [(8, core.WIN), (9, core.LOSS)]
    # Without it the search proves the same root only through terminals, 108 simulations here.
    assert run(Nim(10), 10000).simulations == 108


def test_a_proven_loss_is_avoided_and_never_visited_again():
    # The solver proves pile 8 alone, a win for its mover: the root's take of 2 is a proven
    # loss, visited once; the unproven take of 1 gets every other simulation and is chosen.
    solver = RecordingSolver(lambda state: core.WIN if state.pile == 8 else None)
    result = solved_run(Nim(10), 20, solver)
    children = by_action(result)
    assert children[2].solved == core.LOSS and children[2].visits == 1
    assert children[1].solved is None and children[1].visits == 19
    assert core.best_action(result.children) == 1
    assert solver.piles().count((8, core.WIN)) >= 1


class ProvenNim(Nim):
    """Nim whose piles up to PROVEN_PILE the solver proves: the search must never expand them."""

    def legal_actions(self):
        assert self.pile > PROVEN_PILE, "a proven node was expanded"
        return Nim.legal_actions(self)

    def apply(self, take):
        return ProvenNim(self.pile - take, 1 - self.player)


PROVEN_PILE = 4


def test_a_proven_leaf_is_backed_up_like_a_terminal_and_never_expanded():
    # From 20 only taking 2 wins. A proven leaf proves its parent at once or is avoided by
    # selection, so the search never grows the tree below it.
    solver = RecordingSolver(lambda state: nim_proof(state) if state.pile <= PROVEN_PILE else None)
    result = solved_run(ProvenNim(20), 10000, solver)
    assert result.proven and by_action(result)[2].solved == core.WIN
    assert core.best_action(result.children) == 2
    assert result.simulations == len(solver.answers)  # one new node, one question each
    assert all(answer is not None for pile, answer in solver.piles() if pile <= PROVEN_PILE)


def test_a_solver_that_proves_nothing_changes_nothing():
    # A capped solve that does not finish answers None (no node allowed: not even the bounds
    # near the end can answer): the search is the one without a solver.
    position = Position.from_text(NINE_LEFT, to_move=BLACK, ply=16)
    capped = RecordingSolver(LeafSolver(go_board.MAX_PLY, node_cap=0))
    with_cap = core.search(GoState(position), PlayoutEvaluator(knowledge=True), random.Random(21),
                           Budget(max_simulations=300), leaf_solver=capped,
                           exploration=EXPLORATION)
    without = core.search(GoState(position), PlayoutEvaluator(knowledge=True), random.Random(21),
                          Budget(max_simulations=300), exploration=EXPLORATION)
    assert capped.answers and {answer for _, answer in capped.answers} == {None}
    assert [stats.as_tuple() for stats in with_cap.children] == [
        stats.as_tuple() for stats in without.children]


EIGHT_LEFT = """
    . X O . .
    X X O O .
    . X X O .
    X . X O O
    . X O . ."""
NINE_LEFT = """
    . X O . .
    X X O O .
    . X X O .
    X . X O O
    . X . . ."""


def test_without_a_leaf_solver_the_search_is_the_same_as_before_solved_leaves():
    # Statistics of this seeded search recorded on main at 30467ff, before leaf solvers existed.
    position = Position.from_text(EIGHT_LEFT, to_move=BLACK, ply=17)
    result = core.search(GoState(position), PlayoutEvaluator(knowledge=True), random.Random(21),
                         Budget(max_simulations=400), exploration=EXPLORATION)
    assert (result.simulations, result.proven) == (400, False)
    assert sorted(stats.as_tuple() for stats in result.children) == [
        (0, 30, 1.0, None), (3, 23, 0.0, None), (4, 43, 3.0, None), (9, 131, 20.0, None),
        (10, 30, 1.0, None), (14, 23, 0.0, None), (16, 30, 1.0, None), (20, 30, 1.0, None),
        (23, 36, 2.0, None), (24, 23, 0.0, None), (25, 1, 0.0, 0.0)]


def test_go_leaf_solver_proves_within_its_plies_and_agrees_with_the_exact_search():
    position = Position.from_text(EIGHT_LEFT, to_move=BLACK, ply=17)
    exact = endgame.ExactSolver().mover_wins(position)
    assert LeafSolver(8)(GoState(position)) == (core.WIN if exact else core.LOSS)
    assert LeafSolver(7)(GoState(position)) is None  # 8 plies left: not its business
    assert LeafSolver(8, node_cap=1)(GoState(position)) is None  # the cap stops the proof


def test_go_search_with_solved_leaves_proves_the_root_in_few_simulations():
    position = Position.from_text(EIGHT_LEFT, to_move=BLACK, ply=17)
    exact = endgame.ExactSolver().mover_wins(position)
    result = core.search(GoState(position), PlayoutEvaluator(knowledge=True), random.Random(21),
                         Budget(max_simulations=400), leaf_solver=LeafSolver(8),
                         exploration=EXPLORATION)
    assert result.proven and result.simulations < 400
    wins = [stats.action for stats in result.children if stats.solved == core.WIN]
    assert bool(wins) == exact


def test_go_leaf_solver_keeps_its_proofs_until_the_table_is_full(monkeypatch):
    position = Position.from_text(EIGHT_LEFT, to_move=BLACK, ply=17)
    solver = LeafSolver(8)
    solver(GoState(position))
    kept = dict(solver.table)
    assert kept  # the proof's nodes, for the next leaf
    solver(GoState(position))
    assert solver.table == kept  # proven again from the table alone
    monkeypatch.setattr("mcts.go_game.LEAF_TABLE_ENTRIES", len(kept) - 1)
    solver.table["marker"] = True
    solver(GoState(position))
    assert "marker" not in solver.table and solver.table == kept  # started over, same proofs


def test_a_search_grows_the_tree_of_an_earlier_one_and_its_principal_variation():
    state, go_on = Nim(100), StopRules(when_decided=False)
    first = core.search(state, CoinFlipEvaluator(), random.Random(1),
                        Budget(max_simulations=200), stop=go_on, exploration=EXPLORATION)
    second = core.search(state, CoinFlipEvaluator(), random.Random(2),
                         Budget(max_simulations=300), stop=go_on, root=first.root,
                         exploration=EXPLORATION)
    assert second.root is first.root and second.simulations == 300
    assert sum(stats.visits for stats in second.children) == 500
    # The most visited child at every level, as far as the tree goes.
    path, node = [], second.root
    while node.children:
        node = max(node.children, key=lambda child: child.visits)
        path.append(node.action)
    assert core.principal_variation(second.root) == path and len(path) >= 2
