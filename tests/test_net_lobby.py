"""The lobby screen over a real loopback server: seats, rules, chat shown literally, ready,
then the table screen on the same RemoteSession."""

from __future__ import annotations


from rich.console import Console

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen, seats_table
from pokeroulette_tui.ui.widgets.chat import chat_text as chat_line

from net_helpers import RawClient, Served
from ui_pilot import screen_text, wait_for

RULES = RuleSet(suit_order="SHDC")


def plain(renderable) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_names_and_chat_render_literally():
    lobby = {"you": 0, "started": False, "seats": [
        {"seat": 0, "name": "[red]Ana[/red]", "ready": True},
        {"seat": 1, "name": "Bo[/]", "bot": None, "ready": False, "connected": True},
        {"seat": 2, "name": "Bot 1", "bot": "random", "ready": True, "connected": True}]}
    text = plain(seats_table(lobby))
    assert "[red]Ana[/red]" in text and "Bo[/]" in text and "bot (random)" in text
    assert chat_line({"name": "[b]x", "text": "[link=http://evil]y[/link]"}).plain == \
        "[b]x: [link=http://evil]y[/link]"



async def test_lobby_then_table_over_loopback():
    async with Served(RULES, bots=1, delay=0.0) as srv:
        bo = RawClient("[bold]Bo[/]")
        await bo.connect(srv.port)
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby)
            screen = app.screen
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 3)
            seats = plain(seats_table(screen.lobby))
            assert "[bold]Bo[/]" in seats and "Ana" in seats
            rules = str(screen.query_one("#lobby-rules").render())
            assert "Poker Roulette" in rules
            # chat from the other player shows up literally
            await bo.send({"type": "chat", "text": "[blink]hello[/] \x1b[31m"})
            log = screen.query_one("#lobby-chat")
            await wait_for(pilot, lambda: any("hello" in "".join(s.text for s in line)
                                              for line in log.lines))
            line = next("".join(s.text for s in l) for l in log.lines if "hello" in
                        "".join(s.text for s in l))
            assert "[blink]hello[/] [31m" in line
            # type a chat message ourselves
            await pilot.press("c")
            for ch in "hi all":
                await pilot.press(ch if ch != " " else "space")
            await pilot.press("enter")
            m = await bo.recv_until(lambda m: m["type"] == "chat" and m["name"] == "Ana")
            assert m["text"] == "hi all"
            await pilot.press("escape")
            # ready: with Bo ready too the headless table deals and the table screen opens
            await bo.send({"type": "ready", "ready": True})
            await pilot.press("r")
            from pokeroulette_tui.ui.screens.table import TableScreen
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.screen.session is session
            assert session.seat == 1 and session.view(session.seat).seat == 1  # Bo came first
        await session.close()
        await bo.close()


async def test_the_first_seated_leads_a_headless_lobby_from_the_screen():
    async with Served(RULES, start_countdown=30.0) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby)
            screen = app.screen
            squatter = RawClient("Squat")
            await squatter.connect(srv.port)
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 2)
            assert session.leads and screen.query_one("#btn-start").display
            # the leader's footer fits 80 columns: leave and quit are not pushed off it
            footer = screen_text(app).rstrip("\n").splitlines()[-1]
            assert "+/− Bots" in footer and "l Leave" in footer and "q Quit" in footer, footer
            # x asks for a seat number, and the seat is taken back
            await pilot.press("x")
            await pilot.press("2", "enter")
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 1)
            err = await squatter.recv_until(lambda m: m["type"] == "error")
            assert "Ana removed you" in err["message"]
            # one bot is not enough for three players; two are, and ready starts the countdown
            await pilot.press("plus")
            await pilot.press("plus")
            await wait_for(pilot, lambda: len(screen.lobby.get("seats", [])) == 3)
            await pilot.press("r")
            await wait_for(pilot, lambda: screen.lobby.get("starts_in"))
            ready = screen.query_one("#btn-ready")
            assert str(ready.label) == "Not ready" and ready.content_size.width >= 9  # not "Not"
            summary = str(screen.query_one("#lobby-summary").render())
            assert "dealing in 30 s" in summary
            await pilot.pause(2.2)  # the countdown ticks on screen between messages
            summary = str(screen.query_one("#lobby-summary").render())
            assert "dealing in 2" in summary and "dealing in 30 s" not in summary
            await pilot.press("s")  # the leader need not wait
            from pokeroulette_tui.ui.screens.table import TableScreen
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        await session.close()
