"""Keys offer only what is legal; amounts are checked; the side screens open and close."""

from __future__ import annotations

import json
import sys

import pytest
from textual.widgets import Input

from pokeroulette_tui.engine.actions import Call
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.app import PlaceholderStart, make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.amount import AmountScreen
from pokeroulette_tui.ui.screens.discards import DiscardsScreen
from pokeroulette_tui.ui.screens.help import HelpScreen
from pokeroulette_tui.ui.screens.history import HistoryScreen
from pokeroulette_tui.ui.screens.rules import RulesScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import BET_ACTIONS, TableScreen
from pokeroulette_tui.ui.widgets.seat import SeatWidget
from ui_pilot import (SIZE, app_for, fake_at_turn, local_session, press, press_passive, screen_text,
                      settle, step, table_screen)

GAME_KEYS = ("c", "b", "r", "a", "f", "k", "p", "e", "1", "2", "enter", "left")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def snapshot(session) -> str:
    return json.dumps(session.table.state.to_dict(), sort_keys=True)


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


async def until_phase(pilot, app, session, phase: str, limit: int = 60):
    """Play passively (check/call, keep, cut in the middle, stand pat) until it is the
    human's turn in ``phase``; returns the view."""
    for _ in range(limit):
        await settle(pilot, session)
        if isinstance(app.screen, ShowdownScreen):
            await press(pilot, "enter")
            continue
        view = table_screen(app).view
        if view.my_turn and view.phase == phase:
            return view
        await press_passive(pilot, view)
    raise AssertionError(f"never reached {phase}")


DRAW_SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


def draw_session(**changes):
    rules = PRESETS["draw"].replace(**changes)
    return local_session(rules, DRAW_SEATS, seed=3)


async def test_draw_phase_disables_betting_keys_and_they_do_nothing():
    session = draw_session()
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "draw")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        for action in BET_ACTIONS + ("keep", "cut", "cut_number"):
            assert screen.check_action(action, ()) is False, action
        assert screen.check_action("choose", (0,)) is False
        assert screen.check_action("toggle", (0,)) is True
        assert screen.check_action("toggle", (5,)) is False  # there is no sixth card
        shown = set(screen.active_bindings)
        assert {"c", "b", "r", "f", "k"}.isdisjoint(shown)
        assert {"1", "enter", "p"} <= shown
        before = snapshot(session)
        await press(pilot, "c", "b", "r", "a", "f", "k", "e", "left", "6")
        assert snapshot(session) == before
        assert app.screen is screen and not screen.selected


async def test_max_draw_is_enforced_with_a_message():
    session = draw_session(max_draw=2)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "draw")
        screen = app.screen
        await press(pilot, "1", "2", "3")
        assert screen.selected == {0, 1}
        assert any("at most 2 cards" in n for n in notes(app))
        await press(pilot, "2")  # unselect
        assert screen.selected == {0}
        await press(pilot, "enter")
        drew = [e for h in session.table.history for e in h if e.kind == "drew" and e.seat == 0]
        assert drew[-1].amount == 1


async def test_clicking_a_card_selects_it():
    session = draw_session()
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "draw")
        screen = app.screen
        # the panel: border top, then the prompt line, then the boxed faces (6 columns each)
        await pilot.click("#hand", offset=(1 + 2 * 6 + 2, 3))
        await step(pilot)
        assert screen.selected == {2}
        await pilot.click("#hand", offset=(1 + 2 * 6 + 2, 3))
        await step(pilot)
        assert screen.selected == frozenset()


async def test_cut_keys_and_typed_cut():
    session = draw_session(betting="each_round")
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        view = await until_phase(pilot, app, session, "cut")
        screen = app.screen
        assert screen.cut_pos == view.deck_count // 2
        for action in ("check", "call", "fold", "toggle", "draw"):
            assert screen.check_action(action, (0,)) is False
        await press(pilot, "right", "up")
        assert screen.cut_pos == 26 + 6
        await pilot.click("#hand", offset=(1 + 3, 2))  # the left end of the slider
        await step(pilot)
        assert screen.cut_pos == 1
        await press(pilot, "e")
        assert isinstance(app.screen, AmountScreen)
        box = app.screen.query_one(Input)
        box.value = "99"
        await press(pilot, "enter")
        assert isinstance(app.screen, AmountScreen)
        assert "At most 51" in screen_text(app)
        box.value = "7"
        await press(pilot, "enter")
        assert app.screen is screen and screen.cut_pos == 7
        await press(pilot, "enter")
        cuts = [e for h in session.table.history for e in h if e.kind == "cut"]
        assert cuts[-1].amount == 7 and cuts[-1].seat == 0


async def test_bet_amount_with_presets_and_validation():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=3)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        view = await until_phase(pilot, app, session, "betting")
        assert view.options.bet_max > view.options.bet_min > 0
        screen = app.screen
        o = view.options
        shown = set(screen.active_bindings)
        for key, kind in (("b", "bet"), ("r", "raise"), ("f", "fold"), ("a", "all_in")):
            assert (key in shown) == (kind in o.kinds), key
        assert screen.check_action("raise", ()) is bool(o.raise_min)
        before = snapshot(session)
        await press(pilot, "b")
        amount = app.screen
        assert isinstance(amount, AmountScreen)
        box = amount.query_one(Input)
        box.value = str(o.bet_min - 1)
        await press(pilot, "enter")
        assert app.screen is amount and "At least" in screen_text(app)
        assert snapshot(session) == before
        await press(pilot, "escape")
        assert app.screen is screen and snapshot(session) == before
        await press(pilot, "b", "a")  # all-in preset: the most a bet can be
        assert app.screen.query_one(Input).value == str(o.bet_max)
        await press(pilot, "m", "enter")
        bets = [e for h in session.table.history for e in h if e.kind == "bet" and e.seat == 0]
        assert bets and bets[-1].amount == o.bet_min


async def test_engine_refusal_becomes_a_message():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=3)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        view = await until_phase(pilot, app, session, "betting")
        assert view.options.check and not view.options.call
        screen = app.screen
        before = snapshot(session)
        # a stale or forged action is refused by the engine: a message, not a crash
        await screen.act(Call(seat=0))
        await step(pilot)
        assert any("nothing to call" in n for n in notes(app)), notes(app)
        assert snapshot(session) == before
        assert app.screen is screen


async def test_side_screens_open_and_close():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "betting")
        screen = app.screen
        for key, kind, text in (("question_mark", HelpScreen, "check, or call the bet"),
                                ("u", RulesScreen, "Game: Poker Roulette"),
                                ("d", DiscardsScreen, "Discard pile"),
                                ("h", HistoryScreen, "Hand 1")):
            await press(pilot, key)
            assert isinstance(app.screen, kind), key
            assert text in screen_text(app), key
            await press(pilot, "escape")
            assert app.screen is screen
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape")


async def test_history_steps_through_hands():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(80):
            await until_phase(pilot, app, session, "betting")
            if session.table.state.hand_no >= 3:
                break
            await press(pilot, "f")
        await press(pilot, "h")
        history = app.screen
        assert isinstance(history, HistoryScreen)
        last = history.index
        assert f"({last + 1} of {len(history.hands)})" in screen_text(app)
        assert history.check_action("step", (1,)) is False  # already at the latest hand
        await press(pilot, "left")
        assert history.index == last - 1
        assert f"({last} of" in screen_text(app)
        await press(pilot, "right", "right")
        assert history.index == last
        await press(pilot, "escape")


async def test_hot_seat_public_view_offers_no_game_keys():
    rules = PRESETS["draw"]
    session = local_session(rules, [("Ana", None), ("Bo", None)], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(20):
            await step(pilot)
        screen = table_screen(app)
        assert screen.view.seat is None
        for action in BET_ACTIONS + ("cut", "draw", "stand_pat", "keep"):
            assert screen.check_action(action, ()) is False


async def test_ten_seats_at_160x48_and_resizing():
    rules = PRESETS["classic"]
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo"]
    seats = [(n, None if i == 0 else "random") for i, n in enumerate(names)]
    session = local_session(rules, seats, seed=5)
    app = app_for(session)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, session)
        screen = table_screen(app)
        text = screen_text(app)
        for name in names:
            assert name in text
        assert screen.has_class("-wide") and screen.has_class("-tall")
        assert len(screen.query(SeatWidget)) == 10
        await pilot.resize_terminal(80, 24)
        await step(pilot)
        assert not screen.has_class("-wide")
        assert "Ana" in screen_text(app)


async def test_light_theme_four_colours_and_theme_toggle():
    session = draw_session()
    app = make_app(AppConfig(delay=0, theme="light", four_color=True), session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert app.theme == "textual-light"
        assert all(w.four_color for w in app.query(SeatWidget)) or all(
            w.four_color for w in table_screen(app).query(SeatWidget))
        await press(pilot, "ctrl+t")
        assert app.theme == "textual-dark" and app.config.theme == "dark"
        assert AppConfig.load().theme == "dark"  # remembered for the next start
        await press(pilot, "ctrl+t")
        assert app.theme == "textual-light" and AppConfig.load().theme == "light"
        await press(pilot, "ctrl+k")  # four-colour deck off, remembered, and redrawn
        assert not app.four_color and AppConfig.load().four_color is False
        assert not any(w.four_color for w in table_screen(app).query(SeatWidget))
        await press(pilot, "ctrl+k")
        assert app.four_color and AppConfig.load().four_color is True
        assert all(w.four_color for w in table_screen(app).query(SeatWidget))


async def test_no_color_keeps_suits_and_states_in_text(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random")], 1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "betting")
        assert app.no_color
        text = screen_text(app)
        assert "TO ACT" in text and "▶" in text
        assert any(s in text for s in "♠♥♦♣")


async def test_without_a_session_the_start_screen_or_a_placeholder(monkeypatch):
    monkeypatch.setitem(sys.modules, "pokeroulette_tui.ui.screens.start", None)
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert isinstance(app.screen, PlaceholderStart)
        session = draw_session()
        app.open_table(session)
        await settle(pilot, session)
        assert isinstance(app.screen, TableScreen)
        await press(pilot, "q")
    assert session._closed


async def test_quit_closes_the_session():
    session = fake_at_turn(PRESETS["draw"], DRAW_SEATS, seed=3)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert session.started and not session.closed
        await press(pilot, "ctrl+q")
    assert session.closed


async def test_turn_timer_shows_in_the_status_line():
    import asyncio

    from pokeroulette_tui.session import Update
    from pokeroulette_tui.ui.widgets.status import StatusLine
    session = fake_at_turn(PRESETS["draw"], DRAW_SEATS, seed=3)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        session.push(Update(deadline=asyncio.get_running_loop().time() + 30))
        await step(pilot)
        assert screen.query_one(StatusLine).deadline is not None
        assert "s left)" in screen_text(app)
