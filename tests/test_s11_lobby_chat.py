"""The network lobby at 80x24 (QA round 11): after a chat line is sent the lobby's keys work
again (r for ready), the sender sees their own line, the footer's "−" removes a bot, and the
status line under the seats never wraps."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen, lobby_summary

from net_helpers import RawClient, Served
from ui_pilot import screen_text, wait_for

RULES = RuleSet(suit_order="SHDC")


def footer(app) -> str:
    return screen_text(app).rstrip("\n").splitlines()[-1]


def shown_lines(log) -> list[str]:
    """The chat log's lines in view now (not those scrolled away, nor under a scrollbar)."""
    top = round(log.scroll_y)
    rows = log.scrollable_content_region.height
    return ["".join(s.text for s in line) for line in log.lines[top:top + rows]]


async def test_after_sending_a_chat_line_r_gets_ready_and_the_line_is_in_view():
    async with Served(RULES, bots=1, delay=0.0) as srv:
        bo = RawClient("Bo")
        await bo.connect(srv.port)
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            screen = app.screen
            log = screen.query_one("#lobby-chat")
            # a log that already scrolls (the first visit's certificate note is long)
            log.write("First visit to 127.0.0.1: its certificate SHA256:" + "x" * 60
                      + " is pinned. Check that the host printed the same fingerprint.")
            for n in range(4):  # (within the host's burst of 5)
                await bo.send({"type": "chat", "text": f"line {n}"})
            await wait_for(pilot, lambda: any("line 3" in s for s in shown_lines(log)))
            assert "r Ready" in footer(app)
            await pilot.press("c")
            assert "esc Back" in footer(app)  # (typing: the other keys go into the box)
            for ch in "hello from Ana":
                await pilot.press(ch if ch != " " else "space")
            await pilot.press("enter")
            # the keys are the lobby's again: r is not typed into the chat box
            assert screen.focused is None
            assert "r Ready" in footer(app) and "esc Back" not in footer(app)
            # the sender's own line comes back from the host and is in view
            await wait_for(pilot, lambda: any("Ana: hello from Ana" in s
                                              for s in shown_lines(log)))
            assert not log.show_horizontal_scrollbar
            await pilot.press("r")
            await wait_for(pilot, lambda: screen.ready)
            assert screen.query_one("#lobby-input").value == ""
            # the footer says what r does now: not ready again
            await wait_for(pilot, lambda: "r Not ready" in footer(app))
            assert "r Ready" not in footer(app)
            await pilot.press("r")
            await wait_for(pilot, lambda: not screen.ready)
            await wait_for(pilot, lambda: "r Ready" in footer(app))
        await session.close()
        await bo.close()


async def test_the_footers_unicode_minus_removes_a_bot():
    async with Served(RULES, start_countdown=30.0) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby and session.leads)
            screen = app.screen
            assert "+/− Bots" in footer(app)
            await pilot.press("plus", "plus")
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 3)
            await pilot.press("minus_sign")  # "−" (U+2212), as the footer shows it
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 2)
            await pilot.press("minus")  # and the keyboard's "-"
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 1)
        await session.close()


LOBBY = {"you": 0, "min_players": 3, "max_players": 10, "turn_timeout": 60, "spectators": 12,
         "seats": [{"seat": i, "name": n, "connected": True}
                   for i, n in enumerate(["Host", "Ana", "Bo", "Bot 1"])]}


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
def test_the_summary_line_fits_the_seats_column(lang):
    set_language(lang)
    try:
        for width in (40, 43, 44):
            first = lobby_summary(LOBBY, width).plain.splitlines()[0]
            assert len(first) <= width, first
            assert first.startswith("4 ") and "12 " in first  # seated and watching stay
        assert len(lobby_summary(LOBBY).plain.splitlines()[0]) > 44  # (there was a problem)
    finally:
        set_language("en")


async def test_the_summary_line_does_not_wrap_at_80x24():
    async with Served(RULES, bots=2, delay=0.0) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            screen = app.screen
            # as the host said it with a spectator, a timer and four seats
            screen.show_lobby({**screen.lobby, **{k: LOBBY[k] for k in
                                                 ("turn_timeout", "spectators")},
                               "seats": screen.lobby["seats"] + [
                                   {"seat": 3, "name": "Cy", "connected": True}]})
            await pilot.pause()
            text = screen_text(app)
            assert "4 seated · turn timer 60 s · 12 watching" in text, text
        await session.close()
