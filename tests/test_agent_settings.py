"""The agent's settings (agent_settings.py): each LITTLEGO_* variable's range, its default and
its one-line refusal, and settings as a value nothing changes."""

import pytest

import agent_settings
import opening_book


@pytest.mark.parametrize("name, value", [
    ("LITTLEGO_MOVE_CPU", "nan"), ("LITTLEGO_MOVE_CPU", "inf"), ("LITTLEGO_MOVE_CPU", "-1"),
    ("LITTLEGO_MOVE_CPU", "0"), ("LITTLEGO_MOVE_CPU", "1e400"), ("LITTLEGO_GAME_CPU", "nan"),
    ("LITTLEGO_GAME_CPU", "-inf"), ("LITTLEGO_WORKERS", "-1"), ("LITTLEGO_WORKERS", "400"),
    ("LITTLEGO_WORKERS", "1.5"), ("LITTLEGO_EXPLORATION", "nan"), ("LITTLEGO_SEED", "1e400"),
    ("LITTLEGO_LEAF_SOLVE_PLIES", "-1"), ("LITTLEGO_LEAF_SOLVE_PLIES", "25"),
    ("LITTLEGO_LEAF_SOLVE_PLIES", "6.5"), ("LITTLEGO_LEAF_SOLVE_PLIES", "nan"),
])
def test_a_setting_out_of_its_sane_range_is_refused(name, value):
    with pytest.raises(ValueError):
        agent_settings.Settings({name: value})


def test_settings_are_a_value_that_nothing_changes_after_start_up():
    settings = agent_settings.Settings({"LITTLEGO_SEED": "5", "LITTLEGO_WORKERS": "1"})
    with pytest.raises(AttributeError):
        settings.seed = 6
    other = settings.replace(seed=6)
    assert (settings.seed, other.seed, other.workers) == (5, 6, 1)
    with pytest.raises(TypeError):
        settings.replace(book=opening_book.NO_BOOK)


def test_the_sane_ranges_hold_the_defaults_and_their_ends():
    settings = agent_settings.Settings({"LITTLEGO_MOVE_CPU": "0.01", "LITTLEGO_GAME_CPU": "36000",
                               "LITTLEGO_WORKERS": "4", "LITTLEGO_EXPLORATION": "0",
                               "LITTLEGO_LEAF_SOLVE_PLIES": "24"})
    assert (settings.move_cpu, settings.game_cpu, settings.workers, settings.exploration,
            settings.leaf_solve_plies) == (0.01, 36000.0, 4, 0.0, 24)
    defaults = agent_settings.Settings({})
    assert (defaults.move_cpu, defaults.game_cpu, defaults.leaf_solve_plies,
            defaults.knowledge) == (
        agent_settings.DEFAULT_MOVE_CPU, agent_settings.DEFAULT_GAME_CPU,
        agent_settings.DEFAULT_LEAF_SOLVE_PLIES, agent_settings.DEFAULT_KNOWLEDGE)


@pytest.mark.parametrize("value, knowledge", [("0", False), ("1", True)])
def test_the_knowledge_switch_is_0_or_1(value, knowledge):
    assert agent_settings.Settings({"LITTLEGO_KNOWLEDGE": value}).knowledge is knowledge


@pytest.mark.parametrize("name, value, allowed", [
    ("LITTLEGO_SEED", "xyz", "allowed is a whole number from 0"),
    ("LITTLEGO_SEED", "-1", "allowed is a whole number from 0"),
    ("LITTLEGO_BOOK", "2", "allowed are 0 (off) and 1 (on)"),
    ("LITTLEGO_SOLVER", "yes", "allowed are 0 (off) and 1 (on)"),
    ("LITTLEGO_KNOWLEDGE", "", "allowed are 0 (off) and 1 (on)"),
    ("LITTLEGO_WORKERS", "5", "allowed is a whole number in 0..4"),
    ("LITTLEGO_MOVE_CPU", "fast", "allowed is a number in 0.01..3600"),
    ("LITTLEGO_GAME_CPU", "nan", "allowed is a number in 0.01..36000"),
    ("LITTLEGO_EXPLORATION", "-1", "allowed is a number in 0..100"),
    ("LITTLEGO_BOOK_PLIES", "25", "allowed is a whole number in 0..24"),
    ("LITTLEGO_LEAF_SOLVE_PLIES", "6.5", "allowed is a whole number in 0..24"),
])
def test_a_bad_setting_names_its_variable_and_what_is_allowed(name, value, allowed):
    with pytest.raises(ValueError) as raised:
        agent_settings.Settings({name: value})
    assert str(raised.value) == "{}={!r}: {}".format(name, value, allowed)


def test_workers_0_is_the_default_one_per_usable_core():
    assert agent_settings.Settings({"LITTLEGO_WORKERS": "0"}).workers == \
        agent_settings.Settings({}).workers == agent_settings.usable_cores()


def test_workers_default_to_the_usable_cores_capped(monkeypatch):
    monkeypatch.setattr(agent_settings.os, "sched_getaffinity", lambda pid: set(range(9)),
                        raising=False)
    assert agent_settings.usable_cores() == agent_settings.MAX_WORKERS
    assert agent_settings.Settings({}).workers == agent_settings.MAX_WORKERS
    monkeypatch.setattr(agent_settings.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert agent_settings.Settings({}).workers == 1
