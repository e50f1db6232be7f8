"""The table's speed (``--speed``, the setup screen, ``v`` at the table), the auto cut, and
the cut dialog's own keys."""

from __future__ import annotations

import pytest
from textual.widgets import Select, Switch

from fake_session import FakeSession
from pokeroulette_tui.cli import PLAY_DEFAULTS, build_parser, main
from pokeroulette_tui.engine.actions import Cut
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui import launch
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import SPEEDS, AppConfig, next_speed, speed_name
from pokeroulette_tui.ui.screens.amount import AmountScreen
from pokeroulette_tui.ui.screens.setup import SetupScreen
from pokeroulette_tui.ui.screens.start import StartScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from ui_pilot import (SIZE, app_for, fake_at_turn, press, screen_text, settle, step,
                      table_screen, table_until)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "tester")
    return tmp_path


@pytest.fixture
def ran(monkeypatch):
    configs: list[AppConfig] = []
    monkeypatch.setattr(launch, "_run_app", lambda config: configs.append(config) or 0)
    return configs


# -- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["play", "--speed", "warp"], ["--speed", "FAST"], ["--speed", ""]])
def test_a_bad_speed_is_one_line_and_exit_2(argv, capsys, ran):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("pokeroulette: --speed: unknown speed")
    assert "(choose slow, normal, fast or instant)" in err
    assert ran == []


@pytest.mark.parametrize("name", list(SPEEDS))
def test_speed_sets_the_pace_and_is_remembered(name, ran):
    assert main(["--speed", name]) == 0
    assert ran[0].delay == SPEEDS[name]
    assert AppConfig.load().delay == SPEEDS[name]
    assert main([]) == 0 and ran[1].delay == SPEEDS[name]  # next time too


def test_play_defaults_know_the_speed_flag():
    assert build_parser().parse_args(["play"]).speed is None and PLAY_DEFAULTS["speed"] is None


def test_speed_names_and_cycle():
    assert [speed_name(SPEEDS[n]) for n in SPEEDS] == list(SPEEDS)
    cycle, delay = [], SPEEDS["slow"]
    for _ in range(4):
        cycle.append(next_speed(delay))
        delay = SPEEDS[cycle[-1]]
    assert cycle == ["normal", "fast", "instant", "slow"]


def test_a_damaged_pause_in_the_settings_is_not_used(home):
    from pokeroulette_tui.ui.config import settings_path

    settings_path().write_text('{"delay": "fast", "auto_cut": "yes"}')
    config = AppConfig.load()
    assert config.delay == AppConfig.delay and config.auto_cut is False
    settings_path().write_text('{"delay": -3}')
    assert AppConfig.load().delay == AppConfig.delay


# -- the table key ----------------------------------------------------------------------------

def _local(delay: float, **kw) -> LocalSession:
    table = Table.create(PRESETS["classic"], [SeatConfig("Ana"), SeatConfig("Bo", "random"),
                                              SeatConfig("Cy", "random")], seed=1)
    return LocalSession(table, delay=delay, **kw)


async def test_v_cycles_the_speed_at_the_table_says_it_and_remembers_it():
    session = _local(SPEEDS["normal"])
    app = make_app(AppConfig(delay=SPEEDS["normal"]), session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        for expected in ("fast", "instant", "slow", "normal"):
            await press(pilot, "v")
            assert session.delay == SPEEDS[expected] == session.driver.pace.delay
            assert AppConfig.load().delay == SPEEDS[expected]  # remembered at once
            messages = [n.message for n in app._notifications]
            assert any(m.startswith(f"Speed: {expected} (") for m in messages), messages
        assert any(n.message == "Speed: instant (no pause between steps) · v changes it"
                   for n in app._notifications)


async def test_instant_speed_plays_the_bots_without_pauses():
    """A slow table set to instant reaches the person's turn at once (real pacing)."""
    session = _local(30.0)
    app = make_app(AppConfig(delay=30.0), session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert session.table.waiting_for_human() is None  # the dealer waits its 30 s
        assert speed_name(session.delay) == "30 s a step"
        await press(pilot, "v")  # a pause that is no speed: the next faster one is slow
        assert session.delay == SPEEDS["slow"]
        for _ in range(3):
            await press(pilot, "v")
        assert session.delay == 0
        for _ in range(200):
            if session.table.waiting_for_human() is not None:
                break
            await step(pilot)
        assert session.table.waiting_for_human() == 0


async def test_no_speed_key_where_this_terminal_does_not_pace_the_table():
    rules = PRESETS["classic"]
    session = fake_at_turn(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    assert not session.can_pace
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "v")
        assert not any("Speed" in n.message for n in app._notifications)
        assert not table_screen(app).check_action("speed", ())


# -- the setup screen ---------------------------------------------------------------------------

async def test_setup_chooses_the_speed_and_the_auto_cut_and_both_are_dealt_and_remembered():
    from pokeroulette_tui.ui.app import PokerApp

    opened: list[LocalSession] = []

    class App(PokerApp):
        def open_table(self, session, *, then=None):
            opened.append(session)

    app = App(AppConfig(delay=0.6))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert isinstance(app.screen, StartScreen)
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        speed = screen.query_one("#speed", Select)
        auto = screen.query_one("#auto-cut", Switch)
        assert speed.value == "normal" and auto.value is False
        speed.focus()
        await pilot.pause()
        values = [v for _, v in speed._options]
        await pilot.press("enter", *["down"] * (values.index("fast") - values.index("normal")), "enter")
        await pilot.pause()
        assert speed.value == "fast"
        auto.focus()
        await pilot.press("space")
        await pilot.pause()
        assert auto.value is True
        assert str(screen.query_one("#auto-cut-onoff").render()) == "yes"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")
        await pilot.pause()
    session = opened[0]
    assert session.delay == SPEEDS["fast"] and session.driver.pace.auto_cut
    saved = AppConfig.load()
    assert saved.delay == SPEEDS["fast"] and saved.auto_cut is True


async def test_setup_cancelled_keeps_the_settings():
    app = make_app(AppConfig(delay=1.2))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert screen.query_one("#speed", Select).value == "slow"
        screen.query_one("#auto-cut", Switch).value = True
        await pilot.press("escape")
        await pilot.pause()
    assert AppConfig.load().auto_cut is False


async def test_setup_keeps_a_pause_set_by_hand():
    app = make_app(AppConfig(delay=0.4))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one("#speed", Select).value == "as set"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert AppConfig.load().delay == 0.4


# -- the cut: its dialog's keys, and the auto cut -------------------------------------------------

def _cut_turn():
    rules = PRESETS["draw"]
    return table_until(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], 4,
                       lambda s: s.phase == "cut" and s.to_act == 0)


async def test_the_cut_dialog_footer_shows_only_its_own_keys():
    session = FakeSession.of_table(_cut_turn())
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "e")
        assert isinstance(app.screen, AmountScreen)
        footer = screen_text(app).splitlines()[-1]
        for words in ("esc Cancel", "o one", "q quarter", "m middle", "l last"):
            assert words in footer, footer
        for betting in ("min", "pot", "all in", "Check", "Fold", "Bet", "Leave", "Quit"):
            assert betting not in footer, footer
        top = session.view(0).deck_count - 1
        await press(pilot, "q")
        assert app.screen.query_one("#amount-input").value == str(top // 4)
        await press(pilot, "l", "enter")
        assert isinstance(app.screen, TableScreen)
        assert table_screen(app).cut_pos == top
        await press(pilot, "enter")
    assert session.acts == [Cut(seat=0, position=top)]


async def test_a_bet_dialog_keeps_its_keys():
    rules = PRESETS["classic"]
    session = fake_at_turn(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        view = session.view(0)
        assert view.options is not None and view.options.bet_min
        await press(pilot, "b")
        footer = screen_text(app).splitlines()[-1]
        for words in ("m min", "h ½ pot", "p pot", "a all in"):
            assert words in footer, footer


@pytest.mark.parametrize("auto", [True, False])
async def test_auto_cut_makes_a_persons_cut_without_asking(monkeypatch, auto):
    """A real local table: with the auto cut the person's cut is made for them and the
    screen never once shows them a cut to make; without it they are asked (and press Enter)."""
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

    table = Table.create(PRESETS["draw"], [SeatConfig("Ana"), SeatConfig("Bo", "random"),
                                           SeatConfig("Cy", "random")], seed=4)
    session = LocalSession(table, delay=0, auto_cut=auto)
    asked_to_cut = []
    refresh = TableScreen.refresh_view

    def watched(screen) -> None:
        refresh(screen)
        if screen.view.my_turn and screen.view.phase == "cut":
            asked_to_cut.append(screen.view.hand_no)

    monkeypatch.setattr(TableScreen, "refresh_view", watched)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):
            await settle(pilot, session)
            if any(isinstance(a, Cut) and a.seat == 0 for a in table.actions):
                break
            if isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")
            elif table_screen(app).view.my_turn:
                await press(pilot, "enter" if table_screen(app).view.phase == "cut" else "p")
    cuts = [a for a in table.actions if isinstance(a, Cut) and a.seat == 0]
    assert cuts and 1 <= cuts[0].position <= 51
    assert (asked_to_cut == []) is auto  # with the auto cut the screen never waited for it
