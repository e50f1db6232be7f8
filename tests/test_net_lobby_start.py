"""A lobby that starts: a leader at a headless table, removing a seat, a start countdown that
late friends can stop, messages that say how to fix what is missing, and expiry (issue 9)."""

from __future__ import annotations

from net_helpers import Harness, make_host

from pokeroulette_tui.engine.rules import RuleSet

RULES = RuleSet(suit_order="SHDC")  # three players at least


def test_the_first_person_seated_leads_a_headless_lobby():
    h = Harness(make_host(RULES))
    ana, bo = h.join("Ana"), h.join("Bo")
    assert ana.last("lobby")["leader"] == 0
    h.send(bo, {"type": "bots", "count": 1})
    assert bo.errors() == ["only the table's leader seats bots"]
    h.send(ana, {"type": "bots", "count": 1})
    assert [p.name for p in h.host.players] == ["Ana", "Bo", "Bot 1"]


def test_two_friends_are_told_how_to_start_a_three_player_game():
    h = Harness(make_host(RULES))
    ana, bo = h.join("Ana"), h.join("Bo")
    h.send(ana, {"type": "ready"})
    h.send(bo, {"type": "ready"})
    problem = ana.last("lobby")["start_problem"]
    assert not h.host.started
    assert "at least 3 players (2 seated)" in problem and "--bots 1" in problem \
        and "--rule min_players=2" in problem and "adds a bot" in problem
    h.send(ana, {"type": "bots", "count": 1})  # the leader fixes it from the lobby
    assert h.host.started


def test_the_leader_removes_a_seat_holder_who_never_readies():
    h = Harness(make_host(RULES))
    ana, bo = h.join("Ana"), h.join("Bo")
    squatters = [h.join(f"S{i}") for i in range(3)]
    h.send(bo, {"type": "kick", "seat": 2})
    assert "only the table's leader removes players" in bo.errors()
    h.send(ana, {"type": "kick", "seat": 0})
    assert "cannot remove yourself" in ana.errors()[-1]
    for s in squatters:
        h.send(ana, {"type": "kick", "seat": 2})
        assert s.closed and "Ana removed you from the table" in s.errors()[-1]
    assert [p.name for p in h.host.players] == ["Ana", "Bo"]
    assert any("S0 was removed" in m["text"] for m in bo.of("notice"))


def test_a_headless_table_counts_down_and_a_late_friend_stops_it():
    h = Harness(make_host(RULES, bots=2, start_countdown=10))
    ana = h.join("Ana")
    h.send(ana, {"type": "ready"})
    assert not h.host.started and ana.last("lobby")["starts_in"] == 10
    assert any("starts in 10 s" in m["text"] for m in ana.of("notice"))
    h.poll(5)
    cy = h.join("Cy")  # not ready yet: the start is off
    assert h.host.start_at is None and any("The start is off" in m["text"] for m in ana.of("notice"))
    h.poll(10)
    assert not h.host.started
    h.send(cy, {"type": "ready"})
    h.poll(9.9)
    assert not h.host.started
    h.poll(0.1)
    assert h.host.started and [p.name for p in h.host.players] == ["Ana", "Cy", "Bot 1", "Bot 2"]


def test_the_leader_may_start_at_once():
    h = Harness(make_host(RULES, bots=2, start_countdown=10))
    ana = h.join("Ana")
    h.send(ana, {"type": "ready"})
    h.send(ana, {"type": "start"})
    assert h.host.started


def test_a_lobby_that_never_starts_closes_and_admits_nobody_after():
    h = Harness(make_host(RULES, lobby_timeout=600))
    ana = h.join("Ana")
    watcher = h.join("W", spectate=True)
    h.poll(599)
    assert not ana.closed
    h.poll(1)
    assert ana.closed and watcher.closed and "did not start within 10 minutes" in ana.errors()[-1]
    late = h.join("Bo")
    assert late.closed and "lobby closed" in late.errors()[0]


def test_a_spectator_may_not_take_a_seated_players_name():
    h = Harness(make_host(RULES))
    h.join("Ana")
    fake = h.join("ana", spectate=True)
    assert fake.closed and "Ana is seated at this table" in fake.errors()[0]
