"""A client's memory stays bounded: it keeps the last hands of the history, like the table."""

from __future__ import annotations

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import client as C
from pokeroulette_tui.net.client import RemoteSession

from net_helpers import Harness, make_host


def _state_message() -> tuple[dict, dict]:
    h = Harness(make_host(RuleSet(suit_order="SHDC"), bots=2, delay=0, hand_pause=0))
    p = h.join("Ana")
    h.send(p, {"type": "ready", "ready": True})
    h.run()
    return p.last("lobby"), p.last("state")


async def test_a_spectating_client_keeps_a_bounded_history():
    lobby, state = _state_message()
    s = RemoteSession("127.0.0.1", 1, "Watcher", spectate=True)
    assert s._handle(lobby)
    event = {"kind": "check", "text": "Ana checks", "seat": 0, "cards": [], "amount": 0,
             "private": False, "public_text": "", "hand_no": 1}
    s._handle({"type": "history", "hands": [[{**event, "hand_no": n}] for n in range(1, 81)]})
    assert len(s.history()) == C.HISTORY_HANDS and s.history()[-1][0].hand_no == 80
    for n in range(81, 400):
        for _ in range(3):
            assert s._handle({**state, "events": [{**event, "hand_no": n}]})
        assert len(s.history()) <= C.HISTORY_HANDS
    hist = s.history()
    assert len(hist) == C.HISTORY_HANDS and [len(h) for h in hist] == [3] * C.HISTORY_HANDS
    assert hist[-1][0].hand_no == 399 and hist[0][0].hand_no == 399 - C.HISTORY_HANDS + 1
    assert s._updates.qsize() > 0  # (the screen drains these; nothing else grows)


async def test_older_hands_arrive_in_pages_before_the_ones_kept():
    lobby, _ = _state_message()
    s = RemoteSession("127.0.0.1", 1, "Watcher", spectate=True)
    assert s._handle(lobby)
    event = {"kind": "check", "text": "Ana checks", "seat": 0, "cards": [], "amount": 0,
             "private": False, "public_text": "", "hand_no": 1}
    s._handle({"type": "history", "page": False, "more": True, "first": 9,
               "hands": [[{**event, "hand_no": n}] for n in (9, 10)]})
    assert s.history_more and [h[0].hand_no for h in s.history()] == [9, 10]
    sent = []

    async def send(msg):
        sent.append(msg)

    s._send = send
    await s.more_history()
    assert sent == [{"type": "history", "before": 9}]
    s._handle({"type": "history", "page": True, "more": False, "first": 4,
               "hands": [[{**event, "hand_no": n}] for n in range(4, 9)]})
    assert [h[0].hand_no for h in s.history()] == list(range(4, 11)) and not s.history_more
    await s.more_history()
    assert len(sent) == 1  # nothing older to ask for


async def test_a_quiet_watcher_pings_and_is_not_closed_as_idle():
    import asyncio

    from net_helpers import Served

    async with Served(RuleSet(suit_order="SHDC"), spectator_idle=0.6) as srv:
        quiet = RemoteSession("127.0.0.1", srv.port, "Quiet", spectate=True, reconnect=False)
        quiet.keepalive = 0.1
        silent = RemoteSession("127.0.0.1", srv.port, "Silent", spectate=True, reconnect=False)
        silent.keepalive = 3600
        await quiet.connect()
        await silent.connect()
        await asyncio.sleep(1.5)
        assert quiet.connected and not silent.connected
        await quiet.close()
        await silent.close()


async def test_the_history_screen_fetches_older_hands_from_the_table():
    """A joiner has the last two hands; ← past the first asks the host for a page."""

    from net_helpers import Served, autoplay
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.history import HistoryScreen
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    # no betting (nobody busts), and Ana keeps or moves a stock card each round: the table
    # waits for her once autoplay stops
    rules = RuleSet(suit_order="SHDC", betting="none", stock_to_active=True)
    async with Served(rules, bots=3, delay=0.0, hand_pause=0.0) as srv:
        player = RemoteSession("127.0.0.1", srv.port, "Ana")
        await player.connect()
        await player.set_ready()
        await player.start_game()
        await autoplay(player, hands=6)
        watcher = RemoteSession("127.0.0.1", srv.port, "W", spectate=True, reconnect=False)
        app = LobbyApp(AppConfig(autosave=False, delay=0), watcher)
        async with app.run_test(size=(100, 30)) as pilot:
            from pokeroulette_tui.ui.screens.table import TableScreen
            for _ in range(300):
                if isinstance(app.screen, TableScreen) and len(watcher.history()) >= 2:
                    break
                await pilot.pause(0.02)
            assert watcher.history_more and len(watcher.history()) >= 2
            first = watcher.history()[0][0].hand_no
            await pilot.press("h")  # the hand history, as a player opens it
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HistoryScreen)
            await pilot.press("home")
            await pilot.press("left")
            for _ in range(100):
                if screen.hands[0][0].hand_no < first:
                    break
                await pilot.pause(0.02)
            assert screen.hands[0][0].hand_no < first
            assert screen.hands[screen.index][0].hand_no == first - 1  # one hand earlier
        await watcher.close()
        await player.close()

