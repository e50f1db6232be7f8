"""A networked tester's findings about the client: leaving a game lets you watch it over the
same connection (and rejoin to watch under your own name), a refused join leaves nothing
that looks live, a lost connection is said for as long as it lasts, the turn timer's words
name what it played, the lobby's leader starts at once, and an event is shown once."""

from __future__ import annotations

import asyncio

import pytest
from net_helpers import Harness, RawClient, Served, autoplay, make_host, passive_wire
from ui_pilot import wait_for, SIZE, app_for, fake_at_turn, screen_text, step

from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.session import Update
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from pokeroulette_tui.ui.widgets.status import StatusLine

RULES = RuleSet(suit_order="SHDC")
TIMEOUT = 30


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def started(names=("Ana", "Bo", "Cy"), rules: RuleSet = RULES, **kw) -> tuple[Harness, list]:
    h = Harness(make_host(rules, **kw))
    peers = [h.join(n) for n in names]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    h.run()
    return h, peers


def play_on(h: Harness, peers, *, until, limit: int = 3000) -> None:
    """Every seated peer plays passively until ``until(state)`` holds."""
    for _ in range(limit):
        h.run()
        s = h.host.table.state
        if until(s) or s.game_over:
            return
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        p._ids = getattr(p, "_ids", 0) + 1
        h.send(p, {"type": "act", "id": p._ids, "version": h.host.version,
                   "action": passive_wire(p.last("state")["view"])})
    raise AssertionError("the table never got there")



# -- 1: leaving a game, the connection watches on ----------------------------------------------

def test_leaving_a_game_keeps_the_connection_as_a_spectators_with_public_views_only():
    h, (ana, bo, cy) = started()
    watcher = h.join("Wa", spectate=True)
    before = len(ana.inbox)
    h.send(ana, {"type": "leave"})
    assert not ana.closed and not ana.of("bye")
    new = ana.inbox[before:]
    kinds = [m["type"] for m in new]
    assert "welcome" in kinds and "state" in kinds and kinds.index("welcome") < kinds.index("state")
    welcome = ana.last("welcome")
    assert welcome["seat"] is None and welcome["spectator"] and not welcome["token"]
    assert h.host.table.state.seats[0].status == "left"
    # from now on the very view a spectator is sent: nobody's private cards
    assert ana.last("state")["view"] == watcher.last("state")["view"]
    assert ana.last("state")["view"]["seat"] is None
    hand = h.host.table.state.hand_no
    play_on(h, [bo, cy], until=lambda s: s.hand_no > hand + 1)
    assert not ana.closed
    assert ana.last("state")["view"] == watcher.last("state")["view"]
    assert all(m["view"]["seat"] is None for m in ana.inbox[before:] if m["type"] == "state")
    assert ana.last("lobby")["you"] is None


def test_an_action_to_leave_is_answered_and_the_connection_stays():
    h, (ana, bo, cy) = started()
    h.send(ana, {"type": "act", "id": 1, "version": h.host.version,
                 "action": {"type": "leave"}})
    assert not ana.closed and ana.last("ack")["id"] == 1
    assert ana.last("welcome")["spectator"]


def test_leaving_the_lobby_still_closes_the_connection():
    h = Harness(make_host(RULES))
    ana, __ = h.join("Ana"), h.join("Bo")
    h.send(ana, {"type": "leave"})
    assert ana.closed and ana.last("bye")["reason"] == "you left the table"


# -- 2: after leaving, what the refusals say works, works -----------------------------------------

def test_a_player_who_left_may_watch_under_their_own_name():
    h, (ana, bo, cy) = started()
    h.send(ana, {"type": "leave"})
    h.drop(ana)
    again = h.join("Ana", token=ana.token)
    assert again.closed and again.errors() == ["you left this table; join with --spectate to watch"]
    plain = h.join("Ana")  # (no token: the same answer, not "rejoin with your resume token")
    assert plain.errors() == ["you left this table; join with --spectate to watch"]
    watch = h.join("Ana", spectate=True)
    assert not watch.closed and watch.last("welcome")["spectator"]
    assert watch.last("state")["view"]["seat"] is None
    # a seated player's name is still not a spectator's
    bo_too = h.join("Bo", spectate=True)
    assert bo_too.closed and "Bo is seated at this table" in bo_too.errors()[0]


async def test_a_remote_session_that_leaves_watches_the_game_go_on():
    async with Served(RULES.replace(starting_chips=1000), bots=2, seed=5) as srv:  # (three play on: the game goes on)
        ana = RemoteSession("127.0.0.1", srv.port, "Ana")
        bo = RemoteSession("127.0.0.1", srv.port, "Bo")
        for s in (ana, bo):
            await s.connect()
        for s in (ana, bo):
            await s.set_ready(True)
        await asyncio.wait_for(autoplay(ana, hands=1, stop=lambda v: v.hand_no == 1), TIMEOUT)
        await bo.leave()
        assert bo.connected and bo.seat is None and bo.local_seats == ()
        assert bo.view(None).seat is None and bo.view(None).players[1].status == "left"
        hand = bo.view(None).hand_no

        async def watch() -> list[Update]:
            seen = []
            async for update in bo.updates():
                seen.append(update)
                view = bo.view(None)
                if update.closed or view.game_over or view.hand_no > hand + 1:
                    return seen
            return seen

        watched, __ = await asyncio.wait_for(
            asyncio.gather(watch(), autoplay(ana, hands=hand + 2)), TIMEOUT)
        over = bo.view(None).game_over  # (random bots may end it: then the host says bye)
        assert watched and (bo.view(None).hand_no > hand or over)
        assert (bo.connected or over) and not any(u.closed for u in watched[:-1])
        assert not any("you left the table" in u.note for u in watched)
        await ana.close()
        await bo.close()


async def test_leaving_at_the_table_screen_watches_with_no_action_keys():
    async with Served(RULES.replace(starting_chips=1000), bots=3, delay=0.05, seed=2) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            await wait_for(pilot, lambda: screen.view is not None and screen.view.my_turn)
            await pilot.press("l")
            await pilot.press("y")
            await wait_for(pilot, lambda: session.seat is None and screen.view.seat is None)
            hand = screen.view.hand_no
            await wait_for(pilot, lambda: screen.view.hand_no > hand or screen.view.game_over)
            # (random bots may end the game at once: then, and only then, the host says bye)
            over = screen.view.game_over
            assert session.connected or over
            said = [n.message for n in app._notifications]
            assert any("Ana left the table. The others play on" in m for m in said)
            assert not any("you left the table" in m for m in said), said
            assert over or not any("closed" in m for m in said), said
            for action in ("check", "call", "fold", "bet", "all_in", "leave"):
                assert screen.check_action(action, ()) is False
            if app.screen is screen:
                text = screen_text(app)
                assert "[watching]" in text and "c Check" not in text and "f Fold" not in text
        await session.close()


# -- 3: a refused join leaves nothing that looks live -----------------------------------------

async def test_a_refused_join_shows_only_the_reason_and_how_to_quit():
    async with Served(RULES, password="right") as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Di", password="nope")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and "Could not join" in str(app.screen.query_one("#lobby-info").render()))
            screen = app.screen
            await pilot.pause()
            text = screen_text(app)
            assert "Could not join: wrong password" in text and "Press q to quit." in text
            for part in ("#lobby-main", "#lobby-buttons", "#lobby-chat", "#lobby-input"):
                assert not screen.query_one(part).display, part
            for action in ("ready", "chat", "leave", "start"):
                assert not screen.check_action(action, ()), action
            assert "Ready" not in text and "chat:" not in text


# -- 4: a lost connection is said for as long as it lasts ----------------------------------------

async def test_a_lost_connection_is_said_until_it_is_back_and_no_action_is_offered():
    session = fake_at_turn(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random")], 4)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = app.screen
        assert screen.view.my_turn and screen.check_action("check", ()) or \
            screen.check_action("call", ())
        loop = asyncio.get_running_loop()
        session.push(Update(deadline=loop.time() + 30))
        await step(pilot)
        session.connected = False
        session.link_note = "Connection lost: reconnecting…"
        session.push(Update(note="Connection lost (the connection was reset); reconnecting…"))
        await step(pilot)
        await pilot.pause(6)  # longer than a toast lives
        text = screen_text(app)
        assert "Connection lost: reconnecting…" in text
        assert screen.query_one(StatusLine).deadline is None and "s left)" not in text
        for action in ("check", "call", "fold", "bet", "all_in", "leave", "chat"):
            assert not screen.check_action(action, ()), action
        assert "c Check" not in text and "f Fold" not in text
        # the cards panel does not offer a bet it cannot take: the turn waits
        assert "Your bet" not in text
        assert "Your turn waits until the table can be reached again." in text
        session.connected = True
        session.link_note = ""
        session.push(Update(note="Reconnected: your seat, stack and cards are as you left them"))
        await step(pilot)
        assert "Connection lost: reconnecting…" not in screen_text(app)
        assert "Your bet" in screen_text(app)
        assert screen.check_action("fold", ())


async def test_the_client_says_it_is_reconnecting_while_it_is():
    async with Served(RULES, bots=1) as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana", retry_delays=(0.3,) * 20)
        bo = RemoteSession("127.0.0.1", srv.port, "Bo")
        for s in (ana, bo):
            await s.connect()
            await s.set_ready(True)
        await asyncio.wait_for(ana.wait_started(), TIMEOUT)
        assert ana.link_note == ""
        ana._writer.transport.abort()  # the line drops
        for __ in range(100):
            await asyncio.sleep(0.02)
            if ana.link_note:
                break
        assert ana.link_note == "Connection lost: reconnecting…" and not ana.connected
        for __ in range(300):
            await asyncio.sleep(0.02)
            if ana.connected:
                break
        assert ana.connected and ana.link_note == ""
        await ana.close()
        await bo.close()


# -- 5: the turn timer names what it played ----------------------------------------------------

def test_the_timer_standing_pat_says_so():
    rules = PRESETS["draw"].replace(suit_order="SHDC")
    h, peers = started(rules=rules, turn_timeout=30)
    play_on(h, peers, until=lambda s: s.phase == "draw" and h.host.table.waiting_for_human()
            is not None)
    seat = h.host.table.waiting_for_human()
    name = h.host.players[seat].name
    h.poll(30.1)
    notes = [m["text"] for m in peers[(seat + 1) % 3].of("notice")]
    timed = [n for n in notes if n.startswith(f"Time ran out for {name}")]
    assert timed == [f"Time ran out for {name}: stand pat (1 of 3 before being marked away)"], notes
    assert any(e.kind == "drew" and e.seat == seat and e.text == f"{name} stands pat"
               for e in h.host.table.history[-1])


# -- 6: the lobby's leader starts at once ------------------------------------------------------

def test_the_leader_starts_at_once_without_being_ready_first():
    h = Harness(make_host(RULES, start_countdown=30.0, bots=1))
    ana, bo = h.join("Ana"), h.join("Bo")
    # each reads the lobby in the second person about themselves
    assert bo.last("lobby")["start_problem"] == "waiting for you and Ana to be ready"
    assert ana.last("lobby")["start_problem"] == "waiting for Bo to be ready"
    h.send(ana, {"type": "start"})
    assert ana.errors() == ["cannot start: waiting for Bo to be ready"] and not h.host.started
    h.send(bo, {"type": "ready", "ready": True})
    assert bo.last("lobby")["start_problem"] == "waiting for Ana to be ready"
    assert ana.last("lobby")["start_problem"] == ""  # nothing stops the leader's s
    h.send(ana, {"type": "start"})
    assert h.host.started and ana.errors() == ["cannot start: waiting for Bo to be ready"]


def test_a_player_alone_not_ready_is_told_in_the_second_person():
    h = Harness(make_host(RULES, start_countdown=30.0, bots=1))
    ana, bo = h.join("Ana"), h.join("Bo")
    h.send(ana, {"type": "ready", "ready": True})
    assert bo.last("lobby")["start_problem"] == "waiting for you to be ready"


# -- also: an event is shown once to a watcher who arrives during a hand -------------------------

async def test_a_watcher_arriving_mid_hand_sees_each_event_once():
    """The table screen opens after the catch-up, while states are on their way: the events
    they carry are in the client's history already and must not be shown twice (a spectator
    once read "Cy checks" twice)."""
    async with Served(RULES, bots=1, seed=2) as srv:
        players = [RawClient(n) for n in ("Ana", "Bo")]
        for p in players:
            await p.connect(srv.port)
        for p in players:
            await p.send({"type": "ready", "ready": True})
        watcher = RemoteSession("127.0.0.1", srv.port, "Wa", spectate=True)

        async def one_turn(p: RawClient) -> bool:
            """``p`` plays once if it is to act (True), reading what it was sent."""
            while True:
                try:
                    msg = await p.recv(0.3)
                except asyncio.TimeoutError:
                    break
                if msg["type"] == "state":
                    p.state = msg
            action = p.policy(p.state["view"]) if getattr(p, "state", None) else None
            if action is not None:
                await p.act(action)
            return action is not None

        for __ in range(20):  # the game waits at a person's turn: the watcher comes in
            if any([await one_turn(p) for p in players]):
                break
        await watcher.connect()
        await asyncio.wait_for(watcher.wait_started(), TIMEOUT)
        for __ in range(20):  # … and someone acts before its table screen is open
            if any([await one_turn(p) for p in players]):
                break
        for __ in range(100):
            if watcher._updates.qsize() >= 2:
                break
            await asyncio.sleep(0.02)
        assert watcher._updates.qsize() >= 2  # the catch-up's state, and the next one's
        app = app_for(watcher)
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
            await wait_for(pilot, lambda: watcher._updates.empty())
            await pilot.pause(0.2)
            from pokeroulette_tui.ui.widgets.log import EventLog
            log = app.screen.query_one(EventLog)
            shown = [text.plain for text, __ in log._entries] + \
                [text.plain for text, __ in log._deferred]
            hand = [e.text for e in watcher.history()[-1]]
            assert hand and shown[-len(hand):] == hand  # in order, …
            for line in set(hand):  # … and each once
                assert shown.count(line) == hand.count(line), (line, shown)
        await watcher.close()
        for p in players:
            await p.close()
