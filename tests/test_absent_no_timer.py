"""A table with no turn timer (``--turn-timeout 0``) whose player to act is gone: it does not
wait for ever. The seat is held; its turn waits ``absent_grace`` (60 s), then the table checks
or folds for it, as a turn timer would; a player back in time, or back later, plays their own
turns again, with no timer. Everyone is told which of these holds."""

from __future__ import annotations

from pokeroulette_tui.driver import Driver, Pace, timeout_action
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.table import SeatConfig, Table

from net_helpers import Harness, make_host
from net_helpers import passive_wire as passive

RULES = RuleSet(suit_order="SHDC", betting="each_round")
GRACE = 60.0


def _started(**kw):
    h = Harness(make_host(RULES, turn_timeout=0.0, **kw))
    peers = [h.join(f"P{i}") for i in range(3)]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    h.run()
    return h, peers


def _act(h, peer, action):
    peer._ids = getattr(peer, "_ids", 0) + 1
    h.send(peer, {"type": "act", "id": peer._ids, "version": h.host.version, "action": action})


def _to_turn_of(h, peers, who):
    """The others play passively until it is ``who``'s turn."""
    for _ in range(2000):
        seat = h.host.table.waiting_for_human()
        if seat == who.seat:
            return
        if seat is None:
            h.poll(0.1)
            continue
        p = next(q for q in peers if q.seat == seat)
        _act(h, p, passive(p.last("state")["view"]))
    raise AssertionError("never that seat's turn")


def _notices(peer):
    return [m["text"] for m in peer.inbox if m["type"] == "notice"]


def test_a_gone_players_turn_is_played_after_the_grace_not_waited_for_ever():
    h, peers = _started(absent_grace=GRACE)
    gone = peers[1]
    _to_turn_of(h, peers, gone)
    version = h.host.version
    h.poll(600.0)  # present, no timer: the table waits as long as it takes
    assert h.host.table.waiting_for_human() == gone.seat and h.host.version == version
    h.drop(gone)
    said = _notices(peers[0])[-1]
    assert said == (f"P1 lost the connection; the seat is held (not back within {GRACE:g} s, "
                    "the table checks or folds for them)")
    expected = timeout_action(h.host.table, gone.seat)
    h.poll(GRACE - 1)
    assert h.host.version == version  # a real chance to come back
    h.poll(1.0)
    assert h.host.version > version
    assert h.host.table.actions[version] == expected  # check, or fold to a bet


def test_a_player_back_within_the_grace_has_the_turn_with_no_timer_again():
    h, peers = _started(absent_grace=GRACE)
    gone = peers[1]
    _to_turn_of(h, peers, gone)
    version = h.host.version
    h.drop(gone)
    h.poll(GRACE / 2)
    back = h.join("P1", token=gone.token)
    assert back.seat == gone.seat
    h.poll(GRACE * 10)
    assert h.host.version == version and h.host.table.waiting_for_human() == gone.seat
    assert h.host.driver.deadline is None


def test_quitting_says_so_and_no_grace_keeps_the_old_wait():
    h, peers = _started(absent_grace=0.0)
    gone = peers[2]
    _to_turn_of(h, peers, gone)
    version = h.host.version
    h.send(gone, {"type": "quit"})
    h.drop(gone)
    assert _notices(peers[0])[-1] == ("P2 quit; the seat is held (the table waits for them: "
                                      "no turn timer)")
    h.poll(3600.0)
    assert h.host.version == version


def test_with_a_turn_timer_the_words_and_the_turn_are_the_timers():
    h = Harness(make_host(RULES, turn_timeout=30.0))
    peers = [h.join(f"P{i}") for i in range(3)]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    h.drop(peers[1])
    assert _notices(peers[0])[-1] == ("P1 lost the connection; the seat is held (the turn "
                                      "timer plays for them)")


def test_a_table_at_this_terminal_never_plays_a_persons_turn_without_a_timer():
    d = Driver(Table.create(RULES, [SeatConfig("Ana"), SeatConfig("Bo"), SeatConfig("Cy")],
                            seed=1), Pace(delay=0.0, turn_timeout=0.0, absent_grace=GRACE))
    now = 0.0
    for _ in range(50):
        step = d.step(now)
        if step.action is None:
            if d.table.waiting_for_human() is not None:
                break
            now = d.wakeup
            continue
        d.play(step.action, now)
    d.arm_timer(now)
    assert d.deadline is None  # (nobody is absent at one terminal)
