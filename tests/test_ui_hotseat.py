"""Hot-seat: no frame shows a human's private cards while another human is to act."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import redact_all
from pokeroulette_tui.engine.game import dealer_to_act
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from ui_pilot import SIZE, app_for, local_session, press, press_passive, screen_text, settled, step, table_screen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def faces(card: Card) -> list[str]:
    """Every way the UI writes this card: [A♠] compact, 10♥ boxed, T♥ in sentences."""
    out = [card.symbol]
    if card.rank == 10:
        out.append("10" + card.symbol[1:])
    return out


class Watcher:
    """Checks each frame against the engine's truth."""

    def __init__(self, app, session) -> None:
        self.app = app
        self.session = session
        self.humans = session.local_seats
        self.frames = 0
        self._last = None
        self.private_seen = 0  # positive control: the acting human does see their cards

    def public_texts(self) -> str:
        """Everything ever said or shown in public (a card named there is not a secret)."""
        out = []
        for hand in self.session.table.history:
            for e in redact_all(hand, None):
                out.append(e.text)
                out.extend(c.symbol for c in e.cards if c is not None)
        return " ".join(out)

    def private_cards(self, seat: int) -> list[Card]:
        """Cards ``seat`` sees that a spectator does not, and that were never public."""
        state = self.session.table.state
        public = Counter(view_for(state, None).all_cards())
        mine = Counter(view_for(state, seat).all_cards())
        said = self.public_texts()
        return [c for c in (mine - public) if c not in public
                and not any(f in said for f in faces(c))]

    def check(self) -> None:
        if not self.session._queue.empty():
            return  # the UI has not been told yet; it is checked once it has
        state = self.session.table.state
        key = (len(self.session.table.actions), id(self.app.screen), len(self.app.screen_stack))
        if key == self._last:
            return
        self._last = key
        text = screen_text(self.app)
        self.frames += 1
        to_act = None if (state.game_over or dealer_to_act(state)) else state.to_act
        covered = isinstance(self.app.screen, PrivacyScreen)
        for h in self.humans:
            if to_act in self.humans and (to_act != h or covered):
                for card in self.private_cards(h):
                    for face in faces(card):
                        assert face not in text, (
                            f"{state.seats[h].name}'s private {card} on screen while "
                            f"{state.seats[to_act].name} is to act\n{text}")
        if to_act in self.humans and isinstance(self.app.screen, TableScreen):
            own = self.private_cards(to_act)
            if own and any(f in text for c in own for f in faces(c)):
                self.private_seen += 1

    async def settle(self, pilot, limit: int = 400) -> None:
        for _ in range(limit):
            for _ in range(20):
                if settled(self.session):
                    break
                await asyncio.sleep(0)
            await step(pilot)
            self.check()
            if settled(self.session):
                await step(pilot)
                self.check()
                return
        raise AssertionError("the table never settled")


async def play_hot_seat(rules, seats, seed, hands: int) -> Watcher:
    session = local_session(rules, seats, seed)
    app = app_for(session)
    w = Watcher(app, session)
    privacy = 0
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(300):
            await w.settle(pilot)
            screen = app.screen
            if isinstance(screen, PrivacyScreen):
                privacy += 1
                assert "Pass to" in screen_text(app)
                await press(pilot, "enter")
            elif isinstance(screen, ShowdownScreen):
                await press(pilot, "enter")
            elif isinstance(screen, GameOverScreen) or session.table.state.game_over:
                break
            else:
                view = table_screen(app).view
                assert view.my_turn, "the acting human sees the table as themselves"
                assert view.seat in session.local_seats
                await press_passive(pilot, view, ("1", "2", "enter"))
            w.check()
            if session.table.state.hand_no > hands:
                break
        assert privacy >= 2
    return w


async def test_roulette_hot_seat_never_shows_the_other_humans_stock_card():
    # stock to active on: the humans decide in many matching rounds, then bet at the end
    rules = PRESETS["swedish"].replace(betting="final_only")
    w = await play_hot_seat(rules, [("Ana", None), ("Bo", None), ("Cy", "random")], seed=3, hands=1)
    assert w.frames > 20
    assert w.private_seen > 0


async def test_draw_hot_seat_never_shows_the_other_humans_hand():
    rules = PRESETS["draw"]
    w = await play_hot_seat(rules, [("Ana", None), ("Bo", None), ("Cy", "random")], seed=6, hands=2)
    assert w.frames >= 8
    assert w.private_seen > 0


async def test_hot_seat_starts_in_public_and_asks_for_the_player():
    rules = PRESETS["draw"]
    session = local_session(rules, [("Ana", None), ("Bo", None)], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, PrivacyScreen):
                break
        assert isinstance(app.screen, PrivacyScreen)
        cutter = session.table.state.to_act
        name = session.table.state.seats[cutter].name
        assert f"Pass to {name}" in screen_text(app)
        assert table_screen(app).view.seat is None
        await press(pilot, "enter")
        assert table_screen(app).view.seat == cutter
        assert "Your cut" in screen_text(app)
