"""At a table with no pause, the dealer's steps due at once go out in the state line of the
step before them (one line a seat, not one a step), within what the deck check can read:
after a step that deals or turns cards only steps that deal none join it, and a hand's end
never joins the next deal. A paced table sends a line for every step."""

from __future__ import annotations

from net_helpers import Harness, make_host
from test_net_deck_check import verify
from net_helpers import passive_wire as passive
from test_net_host import act, lobby_of, play_hands, started

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.net.commit import DEALS

CLASSIC = PRESETS["classic"].replace(suit_order="SHDC")


def kinds_of(peer) -> list[list[str]]:
    return [[e["kind"] for e in m["events"]] for m in peer.of("state") if m["events"]]


def test_no_pause_joins_the_dealer_steps_to_the_line_before():
    h, peers = started(4, rules=CLASSIC)
    watcher = h.join("W", spectate=True)
    play_hands(h, peers, 4)
    applied = len(h.host.table.actions)
    for p in [*peers, watcher]:
        lines = kinds_of(p)
        # the deal and the matching of the actives against its match card come as one line
        assert any("match_card" in k and "matched" in k for k in lines), lines[:4]
        # a bet and the next round's deal after it: one line too
        assert any(k[0] in ("check", "call", "fold", "bet", "raise", "all_in") and "match_card" in k
                   for k in lines), lines[:12]
        for k in lines:
            assert not ("hand_over" in k and "hand_started" in k), k
            if "match_card" in k:  # nothing is dealt after the match card in one line
                after = k[k.index("match_card") + 1:]
                assert DEALS.isdisjoint(after), k
        assert verify(p).all_problems == []
    seen = kinds_of(peers[0])
    assert len(seen) < applied * 0.85, (len(seen), applied)  # fewer lines than steps
    # every step's events still reach everyone, in order
    events = [k for line in seen for k in line]
    assert events == [e.kind for hand in h.host.table.history for e in hand]
    assert events.count("hand_started") == h.host.table.state.hand_no


def test_a_paced_table_sends_each_step_in_a_line_of_its_own():
    h = Harness(make_host(CLASSIC, delay=0.5, hand_pause=0.5))
    peers = lobby_of(h, [f"P{i}" for i in range(4)])
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    for _ in range(3000):
        h.poll(0.5)
        s = h.host.table.state
        if s.game_over or s.hand_no > 2:
            break
        seat = h.host.table.waiting_for_human()
        if seat is not None:
            p = next(q for q in peers if q.seat == seat)
            act(h, p, passive(p.last("state")["view"]))
    else:
        raise AssertionError("did not finish")
    lines = kinds_of(peers[0])
    assert any("match_card" in k for k in lines)
    assert not any("match_card" in k and "matched" in k for k in lines)
    assert not any(k[0] in ("check", "call", "fold", "bet", "raise") and "match_card" in k
                   for k in lines)
    assert verify(peers[0]).all_problems == []
