"""Helpers for the table UI's pilot tests (imported by tests/test_ui_*.py)."""

from __future__ import annotations

import io
from typing import Sequence

from rich.console import Console
from textual.app import App

from fake_session import FakeSession
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.session import LocalSession, Session
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.app import PokerApp, make_app
from pokeroulette_tui.ui.config import AppConfig

SIZE = (80, 24)


def local_session(rules: RuleSet, seats: Sequence[tuple[str, str | None]], seed: int) -> LocalSession:
    """A LocalSession with no pauses: ``seats`` are (name, bot level or None for a human)."""
    table = Table.create(rules, [SeatConfig(name, bot) for name, bot in seats], seed=seed)
    return LocalSession(table, delay=0)


def fake_at_turn(rules: RuleSet, seats: Sequence[tuple[str, str | None]], seed: int,
                 **options) -> FakeSession:
    """A :class:`FakeSession` showing the table of ``seats`` played passively (see
    :func:`passive_step`) until a human is to act: a still picture, nothing behind it."""
    table = Table.create(rules, [SeatConfig(name, bot) for name, bot in seats], seed=seed)
    for _ in range(5000):
        if table.waiting_for_human() is not None:
            return FakeSession.of_table(table, **options)
        passive_step(table)
    raise AssertionError("no human was ever to act")


def app_for(session: Session, **config) -> PokerApp:
    return make_app(AppConfig(delay=0, **config), session)


def screen_text(app: App) -> str:
    """Every character on the terminal now, the screens below a modal included."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system=None, record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def settled(session: LocalSession) -> bool:
    """Nothing left to do without a human: the queue is drained and a human is to act,
    a hand's result waits to be seen, or the game is over."""
    table = session.table
    return session._queue.empty() and (
        table.state.game_over or table.waiting_for_human() is not None
        or session.result_pending())


async def settle(pilot, session: LocalSession, limit: int = 500) -> None:
    """Let the dealer and the bots play until a human must decide, and the UI has caught up."""
    import asyncio
    for _ in range(limit):
        for _ in range(50):
            if settled(session):
                break
            await asyncio.sleep(0)
        await step(pilot)
        if settled(session):
            await step(pilot)
            await step(pilot)
            return
    raise AssertionError("the table never settled")


def table_screen(app: App):
    from pokeroulette_tui.ui.screens.table import TableScreen
    for screen in app.screen_stack:
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no table screen")


async def step(pilot) -> None:
    """A short pause: every widget has handled its messages and the screen is up to date
    (no idle-time heuristics, so it is quick and does not depend on machine speed)."""
    import asyncio
    await pilot._wait_for_screen()
    await asyncio.sleep(0)
    await pilot._wait_for_screen()
    pilot.app.screen._on_timer_update()


async def press(pilot, *keys: str) -> None:
    """Press keys, each followed by :func:`step`."""
    from textual import events
    from textual.keys import _character_to_key
    app = pilot.app
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        char = {"enter": "\r", "escape": "\x1b", "space": " ", "question_mark": "?"}.get(
            key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
        await step(pilot)
        await step(pilot)


def passive_step(table: Table) -> None:
    """One step of a table played without a screen: the dealer's, or the seat to act checks,
    calls, keeps its stock, stands pat or cuts in the middle (else its last legal action)."""
    from pokeroulette_tui.engine.actions import Call, Check, Cut, Discard, MoveStockToActive
    from pokeroulette_tui.engine.game import dealer_to_act, legal_actions

    s = table.state
    if dealer_to_act(s):
        table.apply(legal_actions(s, None)[0])
        return
    legal = legal_actions(s, s.to_act)
    for kind in (Check, Call, MoveStockToActive, Discard):
        for a in legal:
            if isinstance(a, kind) and not getattr(a, "index", None) and not getattr(a, "indices", ()):
                table.apply(a)
                return
    for a in legal:
        if isinstance(a, Cut):
            table.apply(Cut(seat=a.seat, position=len(s.deck) // 2))
            return
    table.apply(legal[-1])


def table_until(rules: RuleSet, seats: Sequence[tuple[str, str | None]], seed: int, stop,
                limit: int = 5000) -> Table:
    """A table played passively (see :func:`passive_step`) until ``stop(state)`` is true."""
    table = Table.create(rules, [SeatConfig(name, bot) for name, bot in seats], seed=seed)
    for _ in range(limit):
        if stop(table.state):
            return table
        passive_step(table)
    raise AssertionError("the table never reached the moment asked for")


async def press_passive(pilot, view, draw_keys: Sequence[str] = ("p",)) -> None:
    """Answer the human's turn by keys: check or call (else all in), keep the stock, cut in
    the middle, and in the draw press ``draw_keys`` (default: stand pat)."""
    if view.phase == "betting":
        kinds = view.options.kinds
        await press(pilot, "c" if ("check" in kinds or "call" in kinds) else "a")
    elif view.phase == "stock_to_active":
        await press(pilot, "k")
    elif view.phase == "cut":
        await press(pilot, "enter")
    elif view.phase == "draw":
        await press(pilot, *draw_keys)


async def wait_for(pilot, predicate, timeout: float = 15.0) -> None:
    """Step the app until ``predicate()`` holds; fails after ``timeout`` seconds."""
    import asyncio
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.02)
            await step(pilot)
