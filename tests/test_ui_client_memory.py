"""A spectating client's memory stays bounded while hands go by (issue 8).

What grew: the event log kept 2,000 lines, each with its rendered strips and their caches,
and Textual 8.2 pinned the style caches (rendered lines and all) of the last 1,024 widgets
that were gone (``StylesCache.get_inner_outer`` is an ``lru_cache`` on the instance), while a
table drops widgets every hand (the result dialog, the footer's keys). Counted here as live
objects, not as time or RSS (``benchmarks/bench_client_memory.py`` measures the RSS).
"""

from __future__ import annotations

import asyncio
import gc

import pytest
from net_helpers import RawClient, Served
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widget import Widget

from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp
from pokeroulette_tui.ui.screens.table import TableScreen
from pokeroulette_tui.ui.widgets.log import EventLog

RULES = RuleSet(suit_order="SHDC", starting_chips=1_000_000)  # a game that outlasts the test


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def event(kind: str, text: str) -> Event:
    return Event.from_dict({"kind": kind, "text": text, "seat": None, "cards": [], "amount": 0,
                            "private": False, "public_text": "", "hand_no": 0})


def log_lines(log: EventLog) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in log.lines]


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield EventLog()


async def test_the_log_keeps_this_hand_and_the_last():
    app = LogApp()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(EventLog)
        await pilot.pause()
        for n in range(1, 31):
            log.add_events([event("hand_started", f"Hand {n}")]
                           + [event("check", f"hand {n}: player {i} checks") for i in range(8)])
            await pilot.pause()
        lines = log_lines(log)
        assert lines[0] == "Hand 29" and lines[9] == "Hand 30" and len(lines) == 18
        assert lines[-1] == "hand 30: player 7 checks"
        # the newest line is on screen, and the cache of drawn lines stays small
        assert log.max_scroll_y == log.scroll_y
        assert len(log._line_cache) <= EventLog.LINE_CACHE
        # a very long hand is still capped
        log.add_events([event("check", f"long hand: check {i}") for i in range(EventLog.MAX_LINES + 50)])
        await pilot.pause()
        assert len(log.lines) == EventLog.MAX_LINES
        assert log_lines(log)[-1] == f"long hand: check {EventLog.MAX_LINES + 49}"
        log.add_events([event("hand_started", "Hand 31"), event("check", "after the long hand")])
        await pilot.pause()
        assert log_lines(log)[-2:] == ["Hand 31", "after the long hand"]
        assert len(log.lines) <= EventLog.MAX_LINES


def live(kind: type) -> list:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, kind)]


def orphan_style_caches() -> int:
    """Style caches whose widget is gone (kept alive only by a cache of Textual's)."""
    owned = {id(w._styles_cache) for w in live(Widget)}
    return sum(id(c) not in owned for c in live(StylesCache))


async def test_a_spectator_stays_bounded_over_many_hands():
    async with Served(RULES, bots=3, delay=0.02, hand_pause=0.05, turn_timeout=0) as srv:
        seated = RawClient("Seated")
        await seated.connect(srv.port)
        await seated.send({"type": "ready", "ready": True})
        play = asyncio.create_task(seated.play(hands=10**6, timeout=120))
        watcher = RemoteSession("127.0.0.1", srv.port, "Watcher", spectate=True)
        app = LobbyApp(AppConfig(autosave=False, delay=0), watcher, info=["test table"])
        try:
            async with app.run_test(size=(80, 24)) as pilot:

                async def until_hand(n: int) -> None:
                    loop = asyncio.get_running_loop()
                    end = loop.time() + 60
                    while watcher._view is None or watcher._view.hand_no < n:
                        assert loop.time() < end and not play.done(), "the table stopped"
                        await pilot.pause(0.05)
                    await pilot.pause(0.2)

                def table() -> TableScreen:
                    return next(s for s in app.screen_stack if isinstance(s, TableScreen))

                await until_hand(12)  # the caches Textual and Rich fill once are warm
                strips_before = len(live(Strip))
                widgets_before = len(live(Widget))
                await until_hand(40)
                log = table().query_one(EventLog)
                # the log holds two hands, not the game
                assert 0 < len(log.lines) <= 150
                assert len(log._line_cache) <= EventLog.LINE_CACHE
                # drawn lines, widgets and style caches do not pile up with the hands
                strips, widgets, orphans = len(live(Strip)), len(live(Widget)), orphan_style_caches()
                assert strips <= max(1600, strips_before + 600), (strips_before, strips)
                assert widgets <= widgets_before + 40
                # no style cache is kept for a widget that is gone (textual #6665)
                assert orphans <= 20
                # and the client's own lists stay bounded (net/client.py)
                assert len(watcher.history()) <= 50
        finally:
            play.cancel()
            await watcher.close()
            await seated.close()
