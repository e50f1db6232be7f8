"""Joining costs the same at hand 3 and hand 30: the last hands on joining, older ones in
pages on request (issue 9)."""

from __future__ import annotations

import json

from net_helpers import Harness, make_host
from test_net_host import play_hands, started

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import protocol as P

RULES = RuleSet(suit_order="SHDC", betting="final_only")


def _join_bytes(h: Harness, name: str) -> tuple[int, dict]:
    before = len(h.peers)
    w = h.join(name, spectate=True)
    assert len(h.peers) == before + 1 and not w.closed
    return sum(len(P.encode(m)) for m in w.inbox), w.last("history")


def test_a_spectator_joining_late_gets_the_same_few_hands_as_early():
    h, peers = started(3, rules=RULES)
    play_hands(h, peers, 3)
    early, hist = _join_bytes(h, "Early")
    assert len(hist["hands"]) <= 2 and hist["more"] and hist["page"] is False
    play_hands(h, peers, 30)
    late, hist = _join_bytes(h, "Late")
    assert len(hist["hands"]) <= 2 and hist["more"]
    assert late < early * 1.5, (early, late)


def test_older_hands_come_in_pages_back_to_the_first():
    h, peers = started(3, rules=RULES)
    play_hands(h, peers, 12)
    w = h.join("W", spectate=True)
    first = w.last("history")["first"]
    seen = []
    while True:
        h.send(w, {"type": "history", "before": first})
        page = w.last("history")
        assert page["page"] is True and 0 < len(page["hands"]) <= 5
        numbers = [hand[0]["hand_no"] for hand in page["hands"]]
        assert numbers == sorted(numbers) and numbers[-1] < first
        seen = numbers + seen
        first = page["first"]
        if not page["more"]:
            break
        h.poll(1.0)  # (history requests are rate-limited)
    assert seen[0] == h.host.table.history[0][0].hand_no


def test_pages_are_redacted_for_the_asker():
    h, peers = started(3, rules=RULES)
    play_hands(h, peers, 4)
    h.send(peers[0], {"type": "history", "before": 10**6})
    page = peers[0].last("history")
    text = json.dumps(page)
    hand = h.host.table.history[-1]
    for e in hand:
        if e.private and e.seat not in (0, None):
            assert e.text not in text or e.text == e.public_text


def test_history_requests_are_checked_and_limited():
    h = Harness(make_host(RULES))
    ana = h.join("Ana")
    h.send(ana, {"type": "history", "before": 1})
    assert ana.errors() == ["the game has not started"]
    h2, peers = started(3, rules=RULES)
    for _ in range(6):
        h2.send(peers[0], {"type": "history", "before": "x"})
    assert any("slow down: too many history messages" in e for e in peers[0].errors())



def test_the_host_says_goodbye_at_game_over_and_late_watchers_see_the_end():
    h, peers = started(3, rules=RULES.replace(hand_limit=1))
    play_hands(h, peers, 5)
    assert h.host.table.state.game_over
    for p in peers:
        assert p.closed and p.inbox[-1] == {"type": "bye", "reason": "the game is over"}
        assert p.last("state")["view"]["game_over"]
    late = h.join("Late", spectate=True)
    kinds = [m["type"] for m in late.inbox]
    assert kinds[0] == "welcome" and kinds[-2:] == ["state", "bye"] and late.closed
    assert late.last("state")["view"]["game_over"]


def test_nobody_is_said_to_be_held_after_the_game_is_over(caplog):
    """At game over the host says goodbye and closes every connection: those closes are not
    reported (in the host's log or to anyone) as players who lost the connection."""
    import logging

    h, peers = started(3, rules=RULES.replace(hand_limit=1))
    with caplog.at_level(logging.INFO, logger="pokeroulette.net"):
        play_hands(h, peers, 5)
        assert h.host.table.state.game_over and all(p.closed for p in peers)
    said = [r.getMessage() for r in caplog.records]
    assert not [s for s in said if "the seat is held" in s], said


def test_a_finished_game_is_not_served_again(tmp_path, capsys):
    """``host --resume`` of a save whose game is over: one clear line (status 2), not a
    table served as if it were still running."""
    from pokeroulette_tui.cli import main

    save = tmp_path / "table.json"
    h, peers = started(3, rules=RULES.replace(hand_limit=1), save_path=save)
    play_hands(h, peers, 5)
    assert h.host.table.state.game_over and save.exists()
    h.host.table.close()
    code = main(["host", "--resume", str(save), "--headless", "--no-tls", "--port", "0",
                 "--bind", "127.0.0.1"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "is over" in err and "nothing to resume" in err and "Traceback" not in err
