"""Hints at the table (issue 12): the i key, the setting, hot-seat privacy frame by frame,
network play off unless the host allows, and the w card."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.session import LocalSession, Session
from pokeroulette_tui.ui import hints as hints_module
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.hints import BeatsScreen
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.widgets.hints import HintsPanel
from test_ui_hotseat import FrameWatcher, answer
from ui_pilot import (SIZE, app_for, fake_at_turn, local_session, press, screen_text, settle,
                      step, table_screen)

SEATS = [("Ada", None), ("Bo", "simple"), ("Cy", "simple"), ("Di", "simple")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr(hints_module, "BUDGET", 0.3)  # quick estimates


def panel(app) -> HintsPanel:
    return table_screen(app).query_one(HintsPanel)


async def until(pilot, condition, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError("timed out waiting\n" + screen_text(pilot.app))
        await asyncio.sleep(0.02)
        await step(pilot)


def done(app) -> bool:
    """The panel's estimate is final, or there is nothing to estimate (no cards yet)."""
    from pokeroulette_tui.ui.hints import can_hint

    p = panel(app)
    est = p._estimate
    return est is not None and est.done or p._shown is not None and not can_hint(p._shown)


def notes(app) -> str:
    return " ".join(n.message for n in app._notifications)


async def test_i_shows_this_seats_hints_and_hides_them():
    session = local_session(PRESETS["classic"], SEATS, seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        screen = table_screen(app)
        assert not panel(app).display and screen.query_one("#log").display
        await press(pilot, "i")
        assert panel(app).display and not screen.query_one("#log").display  # 80×24: in its place
        await until(pilot, lambda: done(app))
        text = screen_text(app)
        assert "Hints for Ada" in text and re.search(r"Equity vs \d: \d+%", text) and "samples" in text
        assert "each kept" in text or "kept " in text
        assert "Improves by the end" in text
        await press(pilot, "i")
        assert not panel(app).display and screen.query_one("#log").display
        assert "Hints for" not in screen_text(app)


async def test_the_hints_follow_the_table_and_stop_when_hidden():
    session = local_session(PRESETS["classic"], SEATS, seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "i")
        await until(pilot, lambda: done(app))
        first = panel(app)._token
        await press(pilot, "c")  # the table moves on: the numbers go at once, new ones come
        await settle(pilot, session)
        assert panel(app)._token > first
        await until(pilot, lambda: done(app))
        await press(pilot, "i")
        await until(pilot, lambda: not any(w.group == "hints" and w.is_running
                                           for w in app.workers))
        assert panel(app).view is None


async def test_hints_at_160x48_sit_above_the_log_with_the_ranking():
    session = local_session(PRESETS["classic"], SEATS, seed=5)
    app = app_for(session)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, session)
        await press(pilot, "i")
        await until(pilot, lambda: done(app))
        screen = table_screen(app)
        assert screen.query_one("#log").display
        text = screen_text(app)
        assert "What beats what" in text and "Ties:" in text and "Hints for Ada" in text


async def test_the_setting_off_refuses_the_key():
    session = local_session(PRESETS["classic"], SEATS, seed=5)
    app = app_for(session, hints=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "i")
        assert not panel(app).display and "Hints are turned off" in notes(app)
        assert not any(w.group == "hints" for w in app.workers)


async def test_the_setup_screen_turns_hints_off_and_remembers_it():
    from textual.widgets import Switch

    from pokeroulette_tui.ui.app import PokerApp
    from pokeroulette_tui.ui.screens.setup import SetupScreen

    class App(PokerApp):
        def open_table(self, session, *, then=None):
            pass

    app = App(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        switch = screen.query_one("#hints", Switch)
        assert switch.value is True  # on by default
        switch.focus()
        await pilot.press("space")
        await pilot.pause()
        assert str(screen.query_one("#hints-onoff").render()) == "no"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert AppConfig.load().hints is False


def test_network_tables_say_no_until_the_host_allows():
    assert Session.hints_allowed is False and RemoteSession.hints_allowed is False
    assert LocalSession.hints_allowed is True


async def test_a_network_client_gets_no_hints_by_default():
    fake = fake_at_turn(PRESETS["classic"], SEATS, 5, holds_results=False)
    assert fake.hints_allowed is False  # as a RemoteSession
    app = app_for(fake)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "i")
        assert not panel(app).display
        assert "does not allow hints" in notes(app)
        assert "Hints for" not in screen_text(app)


async def test_a_network_client_whose_host_allows_hints_gets_them():
    fake = fake_at_turn(PRESETS["classic"], SEATS, 5, holds_results=False)
    fake.hints_allowed = True
    app = app_for(fake)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "i")
        await until(pilot, lambda: done(app))
        assert "Hints for Ada" in screen_text(app)


async def test_w_shows_what_beats_what_with_this_tables_options():
    rules = PRESETS["pagat"].replace(five_of_a_kind="as_four", suit_order="SHDC")
    session = local_session(rules, SEATS, seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "w")
        assert isinstance(app.screen, BeatsScreen)
        text = screen_text(app)
        assert "Jokers removed" in text and "counts as four of a kind" in text
        assert "♠ > ♥ > ♦ > ♣" in text
        await press(pilot, "escape")
        assert not isinstance(app.screen, BeatsScreen)


# -- hot-seat: hints only for the seat whose cards are on screen, checked every frame --------

class HintWatcher(FrameWatcher):
    """The hot-seat frame check, plus: a frame names hints only for the seat with the
    keyboard, and shows no estimate at all when nobody's cards are on screen."""

    def __init__(self, app, session) -> None:
        self.hint_frames = 0
        super().__init__(app, session)

    def frame(self) -> None:
        super().frame()
        text = screen_text(self.app)
        names = re.findall(r"Hints for (\w+)", text)
        numbers = "samples" in text or "each kept" in text or "Equity" in text
        who = self.table.state.seats[self.window].name if self.window is not None else None
        if who is None and (names or numbers):
            self.violations.append(f"frame {self.frames}: hints with nobody's cards on screen\n{text}")
        elif any(n != who for n in names):
            self.violations.append(f"frame {self.frames}: {names} hints while {who} has the "
                                   f"keyboard\n{text}")
        elif names and numbers:
            self.hint_frames += 1


async def play_hot_seat(rules, hands: int = 2) -> tuple[HintWatcher, int]:
    """Two people and a bot at one terminal; hints on from the first decision; each
    decision waits for the estimates before answering."""
    seats = [("Ana", None), ("Bo", None), ("Cy", "random")]
    session = local_session(rules, seats, seed=3)
    app = app_for(session)
    rng = random.Random(3)
    decisions = 0
    async with app.run_test(size=SIZE) as pilot:
        w = HintWatcher(app, session)
        for _ in range(400):
            await settle(pilot, session)
            state = session.table.state
            screen = app.screen
            if isinstance(screen, PrivacyScreen):
                seat = next(i for i in w.humans if state.seats[i].name == screen.player)
                w.open(seat)
                await press(pilot, "enter")
            elif isinstance(screen, ShowdownScreen):
                if state.game_over or state.hand_no >= hands:
                    break
                await press(pilot, "enter")
            elif isinstance(screen, GameOverScreen) or state.game_over:
                break
            else:
                view = table_screen(app).view
                if not table_screen(app).hints_shown:
                    await press(pilot, "i")
                await until(pilot, lambda: done(app) or bool(w.violations))
                decisions += 1
                await answer(pilot, view, rng)
        else:
            raise AssertionError("the game did not get through the hands asked for")
    return w, decisions


@pytest.mark.parametrize("rules", [
    pytest.param(PRESETS["classic"].replace(stock_to_active=True, betting="each_round"),
                 id="roulette"),
    pytest.param(PRESETS["draw"].replace(betting="each_round"), id="draw"),
])
async def test_hot_seat_hints_only_for_the_seat_on_screen_every_frame(rules):
    w, decisions = await play_hot_seat(rules)
    assert not w.violations, w.violations[0]
    assert decisions >= 4 and w.hint_frames > 0, (decisions, w.hint_frames)


async def test_the_check_catches_hints_that_outlive_a_turn(monkeypatch):
    """A deliberately broken rule: the last seat's hints stay up after its decision."""
    from pokeroulette_tui.ui.screens import hints as screen_hints

    kept: dict[str, object] = {}
    honest = screen_hints.TableHints.hint_view

    def sticky(self):
        view = honest(self)
        if view is not None:
            kept["view"] = view
        return kept.get("view")

    monkeypatch.setattr(screen_hints.TableHints, "hint_view", sticky)
    w, _ = await play_hot_seat(PRESETS["classic"].replace(betting="each_round"), hands=1)
    assert w.violations, "hints left on screen after a turn went unnoticed"


async def test_an_estimate_that_breaks_says_so_instead_of_spinning(monkeypatch):
    from pokeroulette_tui.ui.widgets import hints as panel_module

    def broken(view, rng, **kw):
        raise RuntimeError("boom")
        yield  # (a generator, like the real one)

    monkeypatch.setattr(panel_module, "estimates", broken)
    session = local_session(PRESETS["classic"], SEATS, seed=5)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "i")
        await until(pilot, lambda: done(app))
        assert "Equity: could not be estimated" in screen_text(app)
        assert "estimating" not in screen_text(app)


def test_at_the_cut_no_estimate_is_made_of_cards_not_dealt():
    """Five-card draw, the human cuts before any card is dealt: the hints say the cards are
    not dealt yet (they used to say the weakest hand was certain: 100%)."""
    from pokeroulette_tui.engine.phase import Phase
    from pokeroulette_tui.engine.rules import PRESETS
    from pokeroulette_tui.ui.hints import can_hint, hints_text
    from pokeroulette_tui.engine.view import view_for
    from ui_pilot import table_until

    table = table_until(PRESETS["draw"], [("Ana", None), ("Bo", None)], 1,
                        lambda s: s.phase == Phase.CUT)
    view = view_for(table.state, table.state.to_act)
    assert view.my_turn
    assert not view.me.hand and not can_hint(view)
    text = hints_text(view, None).plain
    assert "No cards dealt yet" in text and "100%" not in text


async def test_hot_seat_hints_are_each_persons_own_and_the_log_shows_between_turns():
    """Ana turns her hints on: they are on at each of her turns, not at Bo's (he never asked),
    and between turns (nobody's cards on screen) the log is shown, not an empty hints panel."""
    rules = PRESETS["classic"].replace(betting="each_round")
    session = local_session(rules, [("Ana", None), ("Bo", None), ("Cy", "random")], seed=3)
    app = app_for(session)
    seen: dict[str, list[bool]] = {"Ana": [], "Bo": []}
    between: list[tuple[bool, bool]] = []
    rng = random.Random(3)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(300):
            await settle(pilot, session)
            state = session.table.state
            screen = app.screen
            if isinstance(screen, PrivacyScreen):  # (the table under it: nobody's cards)
                under = table_screen(app)
                assert under.view.seat is None
                between.append((panel(app).display, under._one("#log").display))
                await press(pilot, "enter")
                continue
            if isinstance(screen, ShowdownScreen):
                if state.hand_no >= 2:
                    break
                await press(pilot, "enter")
                continue
            if isinstance(screen, GameOverScreen) or state.game_over:
                break
            table = table_screen(app)
            view = table.view
            if view.seat is None:
                between.append((panel(app).display, table._one("#log").display))
                await pilot.pause(0.05)
                continue
            name = view.players[view.seat].name
            if name == "Ana" and not seen["Ana"]:
                await press(pilot, "i")
            seen[name].append(panel(app).display)
            if panel(app).display:
                await until(pilot, lambda: done(app))
            await answer(pilot, view, rng)
        assert len(seen["Ana"]) >= 2 and seen["Bo"], seen
        assert all(seen["Ana"]) and not any(seen["Bo"]), seen
        assert between and all(not shown and log for shown, log in between), between
