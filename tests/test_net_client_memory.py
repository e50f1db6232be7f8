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
