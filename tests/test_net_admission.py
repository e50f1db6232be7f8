"""Admission that honest players always pass: crowds of silent sockets, floods of `ready`,
spectators who never leave (issue 9)."""

from __future__ import annotations

from net_helpers import Harness, make_host

from pokeroulette_tui.engine.rules import RuleSet

RULES = RuleSet(suit_order="SHDC")
LAN = ("192.168.1.20", 50000)
ATTACKER = ("192.168.1.66", 40000)


def test_five_hundred_silent_sockets_never_keep_a_returning_player_out():
    h = Harness(make_host(RULES, max_pending=16, max_pending_per_peer=4))
    ana = h.join("Ana", peer=LAN)
    token = ana.token
    h.drop(ana)
    for _ in range(500):
        h.connect(ATTACKER)
    waiting = [c for c in h.host.conns.values() if not c.welcomed and not c.closing]
    assert len(waiting) <= h.host.config.max_pending_per_peer  # the crowd made way for itself
    back = h.join("Ana", peer=LAN, token=token)
    assert not back.closed and back.last("welcome")["seat"] == 0


def test_a_crowd_from_the_players_own_address_still_lets_them_in():
    """On one machine every TCP client is 127.0.0.1: the oldest silent socket makes way."""
    h = Harness(make_host(RULES, max_pending=16, max_pending_per_peer=4))
    local = ("127.0.0.1", 1)
    for _ in range(200):
        h.connect(local)
    for name in ("Ana", "Bo", "Cy"):
        peer = h.join(name, peer=local)
        assert not peer.closed and peer.of("welcome")
    evicted = [p for p in h.peers.values() if p.closed and not p.of("welcome")]
    assert evicted and "waiting to say hello" in evicted[0].errors()[0]


def test_the_waiting_room_has_a_global_cap_across_addresses():
    h = Harness(make_host(RULES, max_pending=8, max_pending_per_peer=4, max_connections=64))
    for i in range(40):
        h.connect((f"10.0.0.{i}", 1))
    assert sum(not c.welcomed and not c.closing for c in h.host.conns.values()) <= 8


def test_silent_connections_go_after_the_hello_timeout():
    h = Harness(make_host(RULES, hello_timeout=5))
    p = h.connect(ATTACKER)
    h.poll(4.9)
    assert not p.closed
    h.poll(0.2)
    assert p.closed and "no hello within 5 seconds" in p.errors()[0]


def test_ready_spam_is_limited_and_the_lobby_goes_out_at_most_once_per_gap():
    h = Harness(make_host(RULES, lobby_gap=0.25))
    ana, bo = h.join("Ana"), h.join("Bo")
    h.poll(1.0)
    before = len(bo.of("lobby"))
    for i in range(50):
        h.send(ana, {"type": "ready", "ready": i % 2 == 0})
    errors = ana.errors()
    assert errors == ["slow down: too many ready messages"]  # said once; the rest dropped
    assert h.host.conns[ana.cid].errors == 46 and not ana.closed  # (a burst of 4 passed)
    assert len(bo.of("lobby")) - before <= 1       # one update now …
    h.poll(0.25)
    assert len(bo.of("lobby")) - before <= 2       # … and the one held back
    assert bo.last("lobby")["seats"][0]["ready"] is False  # the last word counts
    h.poll(1.0)  # the bucket refills
    h.send(ana, {"type": "ready"})
    assert ana.errors() == errors


def test_every_lobby_change_reaches_everyone_once_the_gap_is_over():
    h = Harness(make_host(RULES, lobby_gap=0.25))
    ana = h.join("Ana")
    h.join("Bo")
    h.join("Cy")  # two joins within the gap: the second is held back
    h.poll(0.3)
    assert [s["name"] for s in ana.last("lobby")["seats"]] == ["Ana", "Bo", "Cy"]


def test_idle_spectators_are_closed_and_talking_ones_stay():
    h = Harness(make_host(RULES, spectator_idle=60))
    h.join("Ana")
    quiet = h.join("Quiet", spectate=True)
    chatty = h.join("Chatty", spectate=True)
    for _ in range(3):
        h.poll(25)
        h.send(chatty, {"type": "ping", "id": 1})
    assert quiet.closed and "without a word" in quiet.errors()[-1]
    assert not chatty.closed


def test_a_full_server_makes_room_for_a_player_by_closing_the_quietest_spectator():
    h = Harness(make_host(RULES, max_connections=4))
    ana = h.join("Ana")
    watchers = [h.join(f"W{i}", spectate=True) for i in range(3)]
    h.poll(1)
    for w in watchers[1:]:
        h.send(w, {"type": "ping"})
    bo = h.join("Bo")
    assert not bo.closed and bo.last("welcome")["seat"] == 1
    assert watchers[0].closed and "making room" in watchers[0].errors()[-1]
    assert not ana.closed and not any(w.closed for w in watchers[1:])


def test_pings_are_rate_limited_too():
    h = Harness(make_host(RULES))
    ana = h.join("Ana")
    for i in range(30):
        h.send(ana, {"type": "ping", "id": i})
    assert len(ana.of("pong")) == 10
    assert ana.errors() == ["slow down: too many ping messages"]
    h.poll(1.0)  # two more pass, then the next refusal is said again
    for i in range(3):
        h.send(ana, {"type": "ping", "id": 100 + i})
    assert len(ana.of("pong")) == 12 and len(ana.errors()) == 2
