"""The table at every terminal size: columns of seats and bigger cards on wide screens, a
notice below 80×24 (never a broken table, never a card), the log wrapped again on a resize,
and network chat readable at the table."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import Update
from pokeroulette_tui.ui.screens.chat import ChatScreen
from pokeroulette_tui.ui.widgets.chat import ChatPanel
from pokeroulette_tui.ui.widgets.hand import HandPanel, panel_content
from pokeroulette_tui.ui.widgets.log import EventLog
from pokeroulette_tui.ui.widgets.seat import SeatWidget
from pokeroulette_tui.ui.widgets.toosmall import TooSmallNotice
from fake_session import FakeSession
from ui_pilot import app_for, fake_at_turn, press, screen_text, step, table_screen

SEATS4 = [("Ana", None), ("Bo", "random"), ("Cy", "random"), ("Di", "random")]
SEATS10 = [("Ana", None)] + [(n, "random") for n in
                              ("Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo")]
SUITS = set("♠♥♦♣★▒")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


class ChatFake(FakeSession):
    """A network-like fake: chat on, and the messages kept as the client keeps them."""

    def __init__(self, views, **options) -> None:
        super().__init__(views, chat=True, **options)
        self.chat_lines: list[dict] = []

    def said(self, name: str, text: str) -> None:
        msg = {"type": "chat", "seat": 1, "name": name, "text": text, "spectator": False}
        self.chat_lines = self.chat_lines[-199:] + [msg]
        self.push(Update(note=f"{name}: {text}"))


def chat_fake(seats=SEATS4, seed: int = 4) -> ChatFake:
    plain = fake_at_turn(PRESETS["classic"], seats, seed)
    return ChatFake(plain.views, local_seats=plain.local_seats,
                    history=plain.history(), holds_results=False)


# -- small terminals ----------------------------------------------------------------------
@pytest.mark.parametrize("size", [(40, 12), (79, 24), (80, 23), (20, 5), (1, 1)])
async def test_a_small_terminal_shows_a_notice_and_no_card(size):
    session = fake_at_turn(PRESETS["classic"], SEATS4, 4)
    app = app_for(session)
    async with app.run_test(size=size) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert screen.has_class("-too-small")
        assert screen.query_one(TooSmallNotice).display
        text = screen_text(app)
        assert not SUITS & set(text), text
        if size == (40, 12):
            assert "Too small for the table" in text
            assert "40×12 now · 80×24 needed" in text
            assert "Ana" not in text  # no name broken across lines: no table at all
        # no key acts blind: c would have checked or called
        await press(pilot, "c", "f", "a")
        assert session.acts == []


async def test_the_table_comes_back_when_the_terminal_grows():
    session = fake_at_turn(PRESETS["classic"], SEATS4, 4)
    app = app_for(session)
    async with app.run_test(size=(40, 12)) as pilot:
        await step(pilot)
        assert "Too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await step(pilot)
        await step(pilot)
        text = screen_text(app)
        assert "Too small" not in text and "Hand " in text and "Ana (you)" in text
        assert table_screen(app).check_action("check", ()) or table_screen(app).check_action(
            "call", ())
        await pilot.resize_terminal(60, 30)
        await step(pilot)
        assert "60×30 now" in screen_text(app)


async def test_hot_seat_cards_stay_hidden_through_a_small_terminal():
    """Two people at one keyboard: the notice, the privacy screen and the table again; at no
    moment is a private card on screen before its player took the seat."""
    seats = [("Ana", None), ("Bo", None), ("Cy", "random")]
    session = fake_at_turn(PRESETS["classic"], seats, 4, local_seats=(0, 1))
    to_act = session.views[None].to_act
    hidden = {c.symbol for p in session.views[to_act].players for c in p.stock if c}
    hidden -= {c.symbol for p in session.views[None].players for c in p.stock if c}
    assert hidden  # someone holds a card the public may not see
    app = app_for(session)
    async with app.run_test(size=(40, 12)) as pilot:
        await step(pilot)
        assert not SUITS & set(screen_text(app))
        await pilot.resize_terminal(100, 30)
        await step(pilot)
        text = screen_text(app)
        assert "press Enter" in text  # the privacy screen is up, with nothing behind it
        assert not any(card in text for card in hidden)
        await pilot.resize_terminal(40, 12)
        await step(pilot)
        await press(pilot, "enter")  # past the privacy screen, still too small
        assert not SUITS & set(screen_text(app))
        await pilot.resize_terminal(100, 30)
        await step(pilot)
        await step(pilot)
        text = screen_text(app)
        assert any(card in text for card in hidden)  # its player has the seat now


# -- wide screens -------------------------------------------------------------------------
@pytest.mark.parametrize("size,seats,columns,big", [((160, 48), SEATS4, 2, True),
                                                    ((160, 48), SEATS10, 2, False),
                                                    ((200, 60), SEATS10, 2, True),
                                                    ((80, 24), SEATS4, 1, False)])
async def test_wide_screens_put_the_seats_in_columns(size, seats, columns, big):
    session = fake_at_turn(PRESETS["classic"], seats, 4)
    app = app_for(session)
    async with app.run_test(size=size) as pilot:
        await step(pilot)
        await step(pilot)
        screen = table_screen(app)
        xs = {w.region.x for w in screen.query(SeatWidget)}
        assert len(xs) == columns
        assert all(w.big == big for w in screen.query(SeatWidget))
        assert screen.query_one(HandPanel).big == (size != (80, 24))
        # every seat is on screen, none cut by the side panel
        side = screen.query_one("#side").region
        for w in screen.query(SeatWidget):
            assert w.region.right <= side.x and w.region.height > 0
        text = screen_text(app)
        assert "10♥" not in text and "│10" not in text  # a ten is T everywhere


def test_no_active_label_without_an_active_card():
    """The matching phase over: cards turned last round went to the stock, no actives left
    and none face up: no "active" caption under nothing."""
    session = fake_at_turn(PRESETS["classic"], SEATS4, 4)
    view = session.views[0]
    me = view.me
    from dataclasses import replace
    players = list(view.players)
    players[0] = replace(me, actives=(), added=(Card(10, "H"),), actives_up=False)
    view = replace(view, players=tuple(players))
    for big in (False, True):
        text, _ = panel_content(view, hot_seat=False, width=76, big=big)
        assert "active" not in text.plain.split("\n", 1)[1]
    players[0] = replace(me, actives=(Card(2, "C"),), added=(), actives_up=False)
    text, _ = panel_content(replace(view, players=tuple(players)), hot_seat=False, width=76)
    assert "active" in text.plain


# -- the log ------------------------------------------------------------------------------
class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield EventLog()


def event(kind: str, text: str) -> Event:
    return Event.from_dict({"kind": kind, "text": text, "seat": None, "cards": [], "amount": 0,
                            "private": False, "public_text": "", "hand_no": 0})


def plain_lines(log: EventLog) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in log.lines]


async def test_the_log_wraps_again_after_a_resize():
    long = "Di turns A♦ ★: a joker with a card that does not match: both discarded"
    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        await pilot.pause()
        log.add_events([event("hand_started", "Hand 1"), event("check", long)])
        await pilot.pause()
        narrow = plain_lines(log)
        assert len(narrow) == 3  # the long line in two
        await pilot.resize_terminal(120, 10)
        await pilot.pause()
        assert plain_lines(log) == ["Hand 1", long]
        await pilot.resize_terminal(40, 10)
        await pilot.pause()
        assert plain_lines(log) == narrow
        # still two hands at most, and the newest line in view, after rewraps
        for n in range(2, 6):
            log.add_events([event("hand_started", f"Hand {n}"), event("check", long)])
            await pilot.resize_terminal(60 + n, 10)
            await pilot.pause()
        assert [line for line in plain_lines(log) if line.startswith("Hand")] == ["Hand 4", "Hand 5"]
        assert log.max_scroll_y == log.scroll_y
        assert len(log._entries) == 4 and len(log._line_cache) <= EventLog.LINE_CACHE


# -- chat ---------------------------------------------------------------------------------
async def test_wide_network_tables_show_the_chat():
    session = chat_fake()
    session.chat_lines = [{"name": "Bo", "text": "before you came", "spectator": False}]
    app = app_for(session)
    async with app.run_test(size=(160, 48)) as pilot:
        await step(pilot)
        panel = table_screen(app).query_one(ChatPanel)
        assert panel.display and "Bo: before you came" in screen_text(app)
        session.said("Cy", "[b]nice hand")
        await step(pilot)
        await step(pilot)
        assert "Cy: [b]nice hand" in screen_text(app)
        await pilot.resize_terminal(80, 24)  # no room beside the log: m shows it all
        await step(pilot)
        assert not panel.display and "nice hand" not in screen_text(app)


async def test_m_shows_the_whole_chat_and_sends():
    session = chat_fake()
    for i in range(30):
        session.chat_lines.append({"name": "Bo", "text": f"line {i}", "spectator": i == 3})
    app = app_for(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await step(pilot)
        await press(pilot, "m")
        assert isinstance(app.screen, ChatScreen)
        text = screen_text(app)
        assert "Bo: line 29" in text  # the newest, scrolled to
        await pilot.press(*"hi")
        await press(pilot, "enter")
        assert session.chats == ["hi"]


async def test_local_tables_have_no_chat_panel():
    session = fake_at_turn(PRESETS["classic"], SEATS4, 4)
    app = app_for(session)
    async with app.run_test(size=(160, 48)) as pilot:
        await step(pilot)
        assert not table_screen(app).query(ChatPanel)
