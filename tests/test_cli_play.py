"""``pokeroulette play``: the flags pre-fill the table; a bad value is one line and exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pokeroulette_tui.cli import main
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.table import SeatConfig
from pokeroulette_tui.ui import launch
from pokeroulette_tui.ui.config import AppConfig, TableSetup, default_bot_level


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def ran(monkeypatch):
    """Stand in for the app: record the config run_play would start it with."""
    configs: list[AppConfig] = []

    def fake_run_app(config: AppConfig) -> int:
        configs.append(config)
        return 0

    monkeypatch.setattr(launch, "_run_app", fake_run_app)
    return configs


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--players", "1"], "--players must be between 3 and 10 for these rules (got 1)"),
    (["play", "--players", "99"], "--players must be between 3 and 10"),
    (["play", "--players", "2"], "--rule min_players=2 allows 2"),
    (["play", "--preset", "draw", "--players", "8"], "--players must be between 2 and 7"),
    (["play", "--humans", "5", "--players", "3"], "--humans must be between 0 and 3, the number of players"),
    (["play", "--humans", "-1"], "--humans must be between 0 and 10"),
    (["play", "--humans", "11"], "--humans must be between 0 and 10"),
    (["play", "--bot", "godlike"], "unknown bot level 'godlike'"),
    (["play", "--preset", "texas"], "unknown preset 'texas'"),
    (["play", "--rule", "tokens=9"], "Forfeit tokens (tokens) must be between 5 and 7"),
    (["--players", "1"], "--players must be between 3 and 10"),
])
def test_bad_play_flags_are_one_line_and_exit_2(argv, fragment, capsys, ran):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("pokeroulette: ") and fragment in lines[0]
    assert "Traceback" not in captured.err
    assert ran == []  # the app never started


def test_bare_command_starts_the_app_with_nothing_prefilled(ran):
    assert main([]) == 0
    launch_opts = ran[0].launch
    assert launch_opts.setup is None and not launch_opts.new and not launch_opts.open_setup


def test_flags_prefill_the_table(ran):
    assert main(["play", "--players", "5", "--humans", "2", "--bot", "random", "--seed", "3",
                 "--new", "--setup", "--rule", "ante=2"]) == 0
    opts = ran[0].launch
    assert opts.new and opts.open_setup
    setup = opts.setup
    assert setup.seed == 3 and setup.rules == RuleSet(ante=2)
    assert [(s.name, s.bot) for s in setup.seats] == [
        ("Player 1", None), ("Player 2", None), ("Bot 1", "random"), ("Bot 2", "random"),
        ("Bot 3", "random")]


def test_humans_alone_sizes_the_table(ran):
    assert main(["play", "--humans", "6"]) == 0
    seats = ran[0].launch.setup.seats
    assert len(seats) == 6 and all(s.bot is None for s in seats)
    assert main(["play", "--humans", "0"]) == 0
    assert [s.bot for s in ran[1].launch.setup.seats] == [default_bot_level()] * 4


def test_preset_sets_rules_and_keeps_a_fitting_table(ran):
    assert main(["play", "--preset", "draw"]) == 0
    setup = ran[0].launch.setup
    assert setup.rules == PRESETS["draw"] and setup.preset == "draw" and len(setup.seats) == 4


def test_remembered_table_is_the_base_of_the_flags(ran):
    remembered = TableSetup(rules=PRESETS["draw"], preset="draw",
                            seats=[SeatConfig("Me"), SeatConfig("Al", "random")])
    AppConfig(last_setup=remembered.to_dict()).save()
    assert main(["play", "--seed", "9"]) == 0
    setup = ran[0].launch.setup
    assert setup.rules == PRESETS["draw"] and [s.name for s in setup.seats] == ["Me", "Al"]
    assert setup.seed == 9
    # the remembered rules also bound the seats: draw seats at most 7
    assert main(["play", "--players", "9"]) == 2


def test_preset_classic_is_honoured_after_a_table_of_another_preset(ran):
    """'classic' is a preset like any other, not 'nothing given' (issue 10)."""
    remembered = TableSetup(rules=PRESETS["draw"], preset="draw",
                            seats=[SeatConfig("Me"), SeatConfig("Al", "random")])
    AppConfig(last_setup=remembered.to_dict()).save()
    assert main(["play", "--preset", "classic", "--new"]) == 0
    setup = ran[-1].launch.setup
    assert setup.rules == PRESETS["classic"] and setup.preset == "classic"
    assert main(["play", "--preset", "classic", "--players", "10"]) == 0  # classic's limits
    assert len(ran[-1].launch.setup.seats) == 10
    assert main(["play"]) == 0 and ran[-1].launch.setup is None  # nothing asked: the last table


def test_no_traceback_from_a_real_process(home):
    env = {"POKEROULETTE_HOME": str(home), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "play", "--bot", "godlike"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"pokeroulette: unknown bot level 'godlike' for --bot (choose {', '.join(launch.LEVELS)})"]
