"""Seats bound to accounts (the kernel's word, injected here), failed-hello back-off and its
log budget, and the result pause — all on the socket-free host with a fake clock."""

from __future__ import annotations

import logging

import pytest

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.host import TableHost
from pokeroulette_tui.net.identity import Account, HelloGuard, policy

from net_helpers import Harness, make_host

RULES = RuleSet(suit_order="SHDC")
ALICE = Account(1001, "alice", 100, frozenset({100}))
BOB = Account(1002, "bob", 100, frozenset({100}))
MALLORY = Account(1003, "mallory", 200, frozenset({200}))
OTHER_GROUP = Account(1004, "dora", 300, frozenset({300, 100}))  # 100 as a supplementary group


def unix_host(owner: Account = ALICE, *, allow=None, headless: bool = False, **kw) -> Harness:
    pol = policy(owner, allow=allow, group_name="students")
    return Harness(make_host(RULES, access=pol, owner_uid=owner.uid, headless=headless, **kw))


def names(h: Harness) -> list[str]:
    return [p.name for p in h.host.players]


def test_the_seat_is_named_after_the_account_not_the_hello():
    h = unix_host()
    a = h.join("Bob", peer=ALICE)  # whatever the hello says, the kernel said alice
    w = a.last("welcome")
    assert w["name"] == "alice" and w["account"] == "alice" and w["token"] is None
    assert w["admin"] is True  # the hosting account, at a table it sits at
    b = h.join("alice", peer=BOB)
    assert b.last("welcome")["name"] == "bob" and b.last("welcome")["admin"] is False
    assert names(h) == ["alice", "bob"]
    assert h.host.players[0].uid == 1001 and h.host.players[1].uid == 1002


def test_no_other_account_can_take_a_name_or_a_seat():
    h = unix_host()
    h.join("x", peer=ALICE)
    bob = h.join("x", peer=BOB)
    # mallory is not in the group: refused before any hello, the lobby never sees her
    m = h.connect(MALLORY)
    assert not m.inbox and not m.closed  # told in answer to the hello, not before
    h.send(m, {"type": "hello", "version": 2, "name": "alice"})
    assert m.closed and "members of group students only" in m.errors()[0]
    assert "--allow mallory" in m.errors()[0] and not m.of("welcome")
    assert not any(p.name in ("mallory", "alice#1003") for p in h.host.players)
    # an account with the group as a supplementary group may sit down
    d = h.join("bob", peer=OTHER_GROUP)
    assert d.last("welcome")["name"] == "dora"
    # a connection whose account the server could not learn is refused at a Unix table
    anon = h.join("anon", peer=None)
    assert anon.closed and "accounts of this machine only" in anon.errors()[0]
    assert names(h) == ["alice", "bob", "dora"] and not bob.closed


def test_a_seat_comes_back_to_its_account_after_a_drop_with_no_token():
    h = unix_host(headless=True)
    peers = {acct.login: h.join(acct.login, peer=acct) for acct in (ALICE, BOB, OTHER_GROUP)}
    for p in peers.values():
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    h.run()
    bob = peers["bob"]
    mine = bob.last("state")["view"]["players"][1]
    h.drop(bob)
    assert h.host.players[1].cid is None
    # nobody else gets bob's seat or sees his cards, whatever they claim
    thief = h.join("bob", peer=OTHER_GROUP, token="anything")
    assert thief.last("welcome")["seat"] == 2  # dora's own seat, not bob's
    assert mine["stock"][0] is not None  # bob's private stock card: bob sees it …
    assert thief.last("state")["view"]["players"][1]["stock"][0] is None  # … nobody else
    assert peers["dora"].closed  # dora's older connection was replaced by her new one
    back = h.join("whatever", peer=BOB)
    w = back.last("welcome")
    assert w["seat"] == 1 and w["name"] == "bob" and w["token"] is None
    assert back.last("state")["view"]["players"][1]["stock"] == mine["stock"]
    # and once more: a second connection of the same account replaces the first
    again = h.join("bob", peer=BOB)
    assert back.closed and "replaced" in back.errors()[-1] and again.last("welcome")["seat"] == 1


def test_refused_accounts_cannot_fill_the_server():
    h = unix_host(max_connections=3)
    for _ in range(10):
        h.connect(MALLORY)  # never says hello: closed by the hello timeout, holds no place
    assert not h.join("a", peer=ALICE).closed
    assert not h.join("b", peer=BOB).closed
    h.poll(10.0)
    assert all(not c.refused for c in h.host.conns.values())


def test_the_allow_list_replaces_the_group():
    h = unix_host(allow=[BOB, MALLORY])
    assert not h.join("a", peer=ALICE).closed       # the owner always
    assert not h.join("b", peer=BOB).closed
    assert not h.join("m", peer=MALLORY).closed      # not in the group, but allowed
    d = h.join("dora", peer=OTHER_GROUP)
    assert d.closed and "--allow dora" in d.errors()[0]


def test_the_host_account_is_admin_only_at_a_table_it_sits_at():
    h = unix_host(headless=True)
    assert h.join("a", peer=ALICE).last("welcome")["admin"] is False
    h2 = unix_host(owner=ALICE)
    h2.join("b", peer=BOB)
    a = h2.join("a", peer=ALICE)
    assert a.last("welcome")["admin"] is True and h2.host.players[1].host
    h2.send(a, {"type": "bots", "count": 1})
    assert names(h2) == ["bob", "alice", "Bot 1"]


def test_an_account_name_that_clashes_is_made_distinct():
    bot_named = Account(1005, "bot 1", 100)
    h = unix_host(bots=1)
    p = h.join("x", peer=bot_named)
    assert p.last("welcome")["name"] == "bot 1#1005"


def test_account_bindings_survive_a_resume(tmp_path):
    path = tmp_path / "t.json"
    h = unix_host(headless=True, save_path=path)
    peers = [h.join("x", peer=a) for a in (ALICE, BOB, OTHER_GROUP)]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    assert journal.load(path).meta["net"]["accounts"] == \
        {"0": 1001, "1": 1002, "2": 1004}
    h2 = Harness(TableHost.resume(path, h.host.config))
    assert h2.join("alice", peer=BOB).last("welcome")["seat"] == 1
    m = h2.join("bob", peer=MALLORY)
    assert m.closed and not m.of("welcome")


# -- failed hellos ------------------------------------------------------------------------

def test_wrong_passwords_back_off_per_peer_and_doubling():
    h = Harness(make_host(RULES, password="right"))
    here, there = ("127.0.0.1", 40000), ("10.0.0.8", 40001)
    assert h.join("A", peer=here, password="w1").errors() == ["wrong password"]
    # at once again: refused without even looking at the password (even the right one)
    early = h.join("A", peer=here, password="right")
    assert early.closed and "too many failed attempts: wait 1 s" in early.errors()[0]
    # another peer is not affected
    assert not h.join("B", peer=there, password="right").closed
    h.poll(1.0)
    assert h.join("A", peer=here, password="w2").errors() == ["wrong password"]
    h.poll(1.5)
    assert "too many failed attempts" in h.join("A", peer=here, password="right").errors()[0]
    h.poll(0.5)  # 2 s after the second failure
    for n in range(3, 8):  # 4, 8, 16, 32, 60 (the cap) seconds
        assert h.join("A", peer=here, password=f"w{n}").errors() == ["wrong password"]
        wait = min(60, 2 ** (n - 1))
        h.poll(wait - 0.1)
        assert "too many failed attempts" in h.join("A", peer=here, password="right").errors()[0]
        h.poll(0.1)
    ok = h.join("A", peer=here, password="right")
    assert not ok.closed and ok.last("welcome")["name"] == "A"
    # a good hello does not reset the count (a guesser sharing the address must not profit)
    assert h.join("C", peer=here, password="bad").errors() == ["wrong password"]
    assert "wait 60 s" in h.join("C", peer=here, password="right").errors()[0]
    # a quarter of an hour without failures and the address starts afresh
    h.poll(900)
    assert h.join("C", peer=here, password="bad").errors() == ["wrong password"]
    assert "wait 1 s" in h.join("C", peer=here, password="right").errors()[0]


def test_a_guessing_peer_gets_about_one_try_a_minute():
    h = Harness(make_host(RULES, password="right"))
    peer = ("127.0.0.1", 1)
    checked = 0
    for _ in range(2000):  # 2,000 attempts over 10 minutes
        p = h.join("A", peer=peer, password="guess")
        checked += p.errors() == ["wrong password"]
        h.poll(0.3)
    assert checked <= 20


def test_log_lines_about_refusals_are_rationed(caplog):
    h = Harness(make_host(RULES, password="right"))
    with caplog.at_level(logging.INFO, logger="pokeroulette.net"):
        for i in range(500):  # a flood of bad hellos from many addresses within 5 s
            h.join("A", peer=(f"10.0.{i // 250}.{i % 250}", 1), password="bad")
            h.now += 0.01
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert 5 <= len(lines) <= 12
    h.now += 60  # later, one line says how many were not logged
    h.join("A", peer=("10.9.9.9", 1), password="bad")
    assert "similar lines were not logged" in caplog.records[-1].getMessage()


def test_the_guard_forgets_quiet_peers():
    g = HelloGuard()
    for i in range(5000):
        g.failed(f"p{i}", float(i) if i < 100 else 10_000.0)
    assert len(g._peers) < 5000


# -- the result pause ---------------------------------------------------------------------

def _to_hand_over(h: Harness, peers) -> dict:
    """Play passively until a state with the phase hand_over reaches peers[0]."""
    for _ in range(2000):
        last = peers[0].last("state")
        if last["view"]["phase"] == "hand_over":
            return last
        seat = h.host.table.waiting_for_human()
        if seat is None:
            h.poll(0.0)
            continue
        p = next(q for q in peers if q.seat == seat)
        v = p.last("state")["view"]
        o = v["options"] or {}
        action = ({"type": "check"} if o.get("check") else {"type": "call"}) \
            if v["phase"] == "betting" else {"type": "stock_to_active", "index": None}
        p._ids = getattr(p, "_ids", 0) + 1
        h.send(p, {"type": "act", "id": p._ids, "version": h.host.version, "action": action})
    raise AssertionError("no hand_over")


def test_the_next_deal_waits_for_the_result_pause_and_no_timer_runs_meanwhile():
    h = Harness(make_host(RULES, hand_pause=4.0, turn_timeout=30, delay=0.0))
    peers = [h.join(n) for n in ("Ana", "Bo", "Cy")]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    over = _to_hand_over(h, peers)
    hand = over["view"]["hand_no"]
    assert over["next_deal_in"] == 4.0 and over["deadline_in"] is None
    h.poll(3.9)
    assert h.host.table.state.hand_no == hand and h.host.driver.deadline is None
    # a player who rejoins during the pause is told how long is left
    h.drop(peers[1])
    back = h.join("Bo", token=peers[1].token)
    assert back.last("state")["next_deal_in"] == pytest.approx(0.1, abs=1e-6)
    h.poll(0.1)
    h.run()
    st = h.host.table.state
    assert st.hand_no == hand + 1
    last = peers[0].last("state")
    assert last["next_deal_in"] is None
    seat = h.host.table.waiting_for_human()
    assert seat is not None and h.host.driver.deadline == pytest.approx(h.now + 30)  # a full turn


def test_game_over_has_no_next_deal():
    h = Harness(make_host(RULES.replace(hand_limit=1), hand_pause=4.0))
    peers = [h.join(n) for n in ("Ana", "Bo", "Cy")]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    for _ in range(200):
        if h.host.table.state.game_over:
            break
        seat = h.host.table.waiting_for_human()
        if seat is None:
            h.poll(5)
            continue
        p = next(q for q in peers if q.seat == seat)
        v = p.last("state")["view"]
        o = v["options"] or {}
        action = ({"type": "check"} if o.get("check") else {"type": "call"}) \
            if v["phase"] == "betting" else {"type": "stock_to_active", "index": None}
        p._ids = getattr(p, "_ids", 0) + 1
        h.send(p, {"type": "act", "id": p._ids, "version": h.host.version, "action": action})
    assert h.host.table.state.game_over
    assert peers[0].last("state")["next_deal_in"] is None
