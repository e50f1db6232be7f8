"""A client keeps its hand history small (finished hands packed) and gives it back whole; the
event log keeps Rich's cache of string widths from filling with sentences of past hands."""

from __future__ import annotations

import gc
import tracemalloc

from rich.cells import cached_cell_len
from textual.app import App, ComposeResult

from pokeroulette_tui.engine.events import Event, add_to_history
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import client as C
from pokeroulette_tui.net.client import RemoteSession, pack_hand, unpack_hand
from pokeroulette_tui.ui.widgets.log import EventLog

from net_helpers import Harness, make_host

HANDS = 70


def _passive(view: dict, seat: int) -> dict | None:
    """Check, call, keep, stand pat, cut in the middle (the benchmark's seated player)."""
    if view.get("to_act") != seat or view.get("game_over") or view.get("dealer_step"):
        return None
    phase = view.get("phase")
    if phase == "betting":
        options = view.get("options") or {}
        return {"type": "check"} if options.get("check") else \
            {"type": "call"} if options.get("call") else {"type": "fold"}
    return {"stock_to_active": {"type": "stock_to_active", "index": None},
            "draw": {"type": "discard", "indices": []},
            "cut": {"type": "cut", "position": int(view.get("deck_count", 2)) // 2}}.get(phase)


def _a_watched_game(hands: int = HANDS) -> list[dict]:
    """What a spectator is sent while Ana and three bots play ``hands`` hands."""
    h = Harness(make_host(RuleSet(suit_order="SHDC", starting_chips=100000), bots=3))
    ana = h.join("Ana")
    watcher = h.join("Watcher", spectate=True)
    h.send(ana, {"type": "ready", "ready": True})
    for ref in range(1, 20000):
        h.run()
        state = ana.last("state")
        if state["view"]["hand_no"] > hands or state["view"].get("game_over"):
            break
        action = _passive(state["view"], ana.seat)
        if action is not None:
            h.send(ana, {"type": "act", "id": ref, "version": state["version"],
                         "action": action})
    assert ana.last("state")["view"]["hand_no"] > hands
    return watcher.inbox


def _expected(inbox: list[dict]) -> list[list[Event]]:
    hands: list[list[Event]] = []
    for msg in inbox:
        if msg["type"] == "state":
            add_to_history(hands, [Event.from_dict(e) for e in msg["events"]])
    return hands[-C.HISTORY_HANDS:]


async def test_a_watchers_history_is_kept_small_and_given_back_whole():
    inbox = _a_watched_game()
    s = RemoteSession("127.0.0.1", 1, "Watcher", spectate=True)
    tracemalloc.start()
    try:
        for msg in inbox:
            assert s._handle(msg)
            while not s._updates.empty():  # (the table screen takes these)
                s._updates.get_nowait()
        gc.collect()
        with_history = tracemalloc.get_traced_memory()[0]
        hist = s.history()
        s._history, s._hand = [], []  # what the history held, freed
        del hist
        gc.collect()
        kept = with_history - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    expected = _expected(inbox)
    assert len(expected) == C.HISTORY_HANDS
    events = sum(len(hand) for hand in expected)
    # packed: ~30 bytes an event (as Event objects ~190, some 180 KB for these 50 hands)
    assert kept < 60 * events, (kept, events)

    s2 = RemoteSession("127.0.0.1", 1, "Watcher", spectate=True)
    for msg in inbox:
        s2._handle(msg)
    got = s2.history()
    assert got == expected  # the same hands, events, sentences, cards, amounts
    assert [[type(e) for e in hand] for hand in got] == [[type(e) for e in hand]
                                                         for hand in expected]
    assert len(s2._history) == C.HISTORY_HANDS - 1 and s2._hand == expected[-1]
    assert all(isinstance(blob, bytes) for blob in s2._history)


def test_a_packed_hand_keeps_every_field():
    from pokeroulette_tui.engine.cards import parse_cards
    from pokeroulette_tui.engine.events import PotWon, StockDealt

    hand = [StockDealt("Ana gets 7♥ J♠", seat=0, cards=tuple(parse_cards("7h Js")),
                       private=True, public_text="Ana gets two cards", hand_no=12),
            StockDealt("Bo gets a card", seat=1, cards=(None,), hand_no=12),
            Event("deck_check", "⚠ deck check: odd", hand_no=12),
            PotWon("Åsa wins 1 200", seat=2, amount=1200, hand_no=12)]
    back = unpack_hand(pack_hand(hand))
    assert back == hand and [type(e) for e in back] == [type(e) for e in hand]
    assert unpack_hand(pack_hand([])) == []


async def test_older_pages_are_packed_in_front_of_the_hand_being_played():
    inbox = _a_watched_game(hands=8)
    expected = _expected(inbox)
    s = RemoteSession("127.0.0.1", 1, "Watcher", spectate=True)
    lobby = next(m for m in inbox if m["type"] == "lobby")
    s._handle(lobby)
    wire = [[e.to_dict() for e in hand] for hand in expected]
    s._handle({"type": "history", "hands": wire[-3:], "more": True, "first": 1})
    assert s.history() == expected[-3:] and s.history_more
    s._handle({"type": "history", "page": True, "hands": wire[:-3], "more": False, "first": 1})
    assert s.history() == expected and not s.history_more
    assert s._hand == expected[-1] and len(s._history) == len(expected) - 1


class _LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield EventLog()


async def test_the_event_log_keeps_rich_from_remembering_every_sentence():
    cached_cell_len.cache_clear()
    app = _LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(EventLog)
        for n in range(1, 40):
            log.add_events([Event("hand_started", f"Hand {n}: Bo has the button", hand_no=n)]
                           + [Event("bet", f"Bo bets {n * 1000 + i} (hand {n})", hand_no=n)
                              for i in range(30)])
            await pilot.pause()
            # a hand's sentences (and their words) at most, beyond those kept
            assert cached_cell_len.cache_info().currsize < EventLog.CELL_WIDTHS_KEPT + 300
        assert log._entries[-1][0].plain == "Bo bets 39029 (hand 39)"


async def test_each_new_hand_gives_the_freed_memory_back(monkeypatch):
    from pokeroulette_tui.ui import heap

    calls = []
    monkeypatch.setattr(heap, "give_back", lambda: calls.append(1) or True)
    app = _LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(EventLog)
        await pilot.pause()
        for n in range(1, 5):
            log.add_events([Event("hand_started", f"Hand {n}", hand_no=n),
                            Event("bet", "Bo bets 10", hand_no=n)])
            await pilot.pause()
            assert len(calls) == n - 1  # once a hand from the second on, not once an event


def test_giving_back_freed_memory_uses_glibc_where_it_runs(monkeypatch):
    import ctypes
    import platform

    from pokeroulette_tui.ui import heap

    monkeypatch.setattr(heap, "_looked", False)
    glibc = platform.libc_ver()[0] == "glibc"
    assert heap.give_back() is glibc  # (this machine's C library decides)
    if glibc:
        assert heap._trim is not None and heap._trim.argtypes == [ctypes.c_size_t]
    monkeypatch.setattr(heap, "_looked", False)
    monkeypatch.setattr(heap.sys, "platform", "darwin")
    assert heap.give_back() is False  # no such call elsewhere: nothing done
