"""When a search may stop before its budget is spent: the early-stop rules, apart from the budget.

Start at `StopRules.decided`. `mcts/core.py` asks it every DECISION_CHECK_INTERVAL simulations,
with the root's children and the budget's estimate of the simulations still affordable
(`Budget.simulations_left`). Two rules, each optional:
- decided: the most visited root action cannot be overtaken in the simulations left;
- sure win: after at least `sure_win_after` simulations the most visited action's mean value
  reaches `sure_win`, so more search would not change the move (the caller keeps the CPU).
Benchmarks turn both off (`StopRules(when_decided=False)`) so every search spends its budget.
"""


class StopRules(object):
    __slots__ = ("when_decided", "sure_win", "sure_win_after")

    def __init__(self, when_decided=True, sure_win=None, sure_win_after=0):
        self.when_decided = when_decided
        self.sure_win = sure_win
        self.sure_win_after = sure_win_after

    def decided(self, children, untried, simulations, simulations_left):
        """True when the search should stop now. `children` are the root's expanded children
        (with `visits` and `mean()`), `untried` its actions not expanded yet, `simulations_left`
        a callable giving the budget's estimate."""
        if len(children) < 2:
            return self.when_decided and not untried
        first, second = sorted(children, key=lambda child: child.visits, reverse=True)[:2]
        if self.sure_win is not None and simulations >= self.sure_win_after \
                and first.mean() >= self.sure_win:
            return True
        return self.when_decided and first.visits - second.visits > simulations_left()
