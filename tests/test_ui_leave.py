"""Leaving the table with ``l``: a one-line confirm, then the game goes on without that seat."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import Table
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.help import KEYS, HelpScreen
from pokeroulette_tui.ui.screens.leave import LeaveScreen
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, step, table_screen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


def status(session, seat: int) -> str:
    return session.table.state.seats[seat].status


async def test_leaving_alone_turns_the_table_into_a_spectator_view():
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random"),
                                                 ("Di", "random")], seed=3)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        screen = table_screen(app)
        assert screen.check_action("leave", ()) is True
        assert "l Leave" in screen_text(app)  # offered in the footer
        await press(pilot, "l")
        assert isinstance(app.screen, LeaveScreen)
        assert "Leave the table, Ana?" in screen_text(app)
        await press(pilot, "n")  # changed my mind: nothing happened
        assert app.screen is screen and status(session, 0) == "playing"
        await press(pilot, "l", "y")
        assert not isinstance(app.screen, LeaveScreen)
        assert status(session, 0) == "left"
        assert any("Ana left the table" in n.message for n in app._notifications)
        hand = session.table.state.hand_no
        for _ in range(400):  # the bots play on, and this terminal watches
            await step(pilot)
            if isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")
            if session.table.state.hand_no > hand + 1 or session.table.state.game_over:
                break
        else:
            pytest.fail("the bots did not play on")
        assert screen.view.seat is None
        assert screen.check_action("leave", ()) is False
        for action in ("check", "call", "fold", "bet"):
            assert screen.check_action(action, ()) is False
        if isinstance(app.screen, TableScreen):
            text = screen_text(app)
            assert "[watching]" in text and "Spectator" in text
        await press(pilot, "ctrl+q")
    assert session._closed


async def test_hot_seat_leaver_goes_and_the_other_player_plays_on():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", None), ("Cy", "random")], seed=2)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        left = None
        for _ in range(60):
            for _ in range(5):
                await step(pilot)
            if isinstance(app.screen, PrivacyScreen):
                await press(pilot, "enter")
                continue
            if isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")
                continue
            view = table_screen(app).view
            if view is None or view.seat is None or not view.my_turn:
                continue
            if left is None:
                left = view.seat  # whoever has the keyboard first leaves
                await press(pilot, "l", "enter")
                assert status(session, left) == "left"
                assert left not in table_screen(app).seating.humans
                continue
            assert view.seat != left  # the other player now acts, after the privacy screen
            break
        else:
            pytest.fail("the remaining player never got the keyboard")
        other = 1 - left
        assert table_screen(app).seating.humans == (other,)
        assert status(session, other) == "playing"


async def test_a_resumed_table_does_not_seat_the_leaver_again(home):
    path = home / "save.json"
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random")],
                            seed=4)
    session.table.save_path = path
    session.table.leave(0)
    table = Table.resume(path)
    resumed = LocalSession(table, delay=0)
    assert resumed.local_seats == (0,)
    app = make_app(AppConfig(delay=0), resumed)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await step(pilot)
        screen = table_screen(app)
        assert screen.seating.humans == () and screen.view.seat is None
        await press(pilot, "l")
        assert not isinstance(app.screen, LeaveScreen)
        await press(pilot, "ctrl+q")


async def test_help_lists_the_leave_key():
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random")],
                            seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert ("l / L", "leave the table (the game goes on; you may watch or quit)") in KEYS


def test_a_game_everyone_here_left_is_not_offered_again():
    from pokeroulette_tui.table import SeatConfig
    from pokeroulette_tui.ui.config import autosave_path
    from pokeroulette_tui.ui.tables import read_autosave

    seats = [SeatConfig("Ana"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
    table = Table.create(PRESETS["classic"], seats, seed=1, save_path=autosave_path())
    table.autosave()
    assert read_autosave().table is not None
    table.leave(0)
    assert read_autosave().table is None and not autosave_path().exists()
    bots_only = Table.create(PRESETS["classic"], seats[1:] + [SeatConfig("Di", "random")], seed=1,
                             save_path=autosave_path())
    bots_only.autosave()
    assert read_autosave().table is not None  # nobody here to leave: a table to watch again
