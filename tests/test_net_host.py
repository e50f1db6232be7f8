"""The table host as plain logic: a fake clock, fake connections, every message encoded."""

from __future__ import annotations

import json
import os
import stat

import pytest

from pokeroulette_tui.driver import AWAY_GRACE
from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckVerifier
from pokeroulette_tui.net.host import TableHost

from net_helpers import Harness, make_host
from net_helpers import passive_wire as passive

RULES = RuleSet(suit_order="SHDC")


def lobby_of(h: Harness, names=("Ana", "Bo", "Cy"), **kw):
    peers = [h.join(n, **kw) for n in names]
    return peers


def started(n: int = 3, rules: RuleSet = RULES, **kw) -> tuple[Harness, list]:
    h = Harness(make_host(rules, **kw))
    hello = {"password": kw["password"]} if kw.get("password") else {}
    peers = lobby_of(h, [f"P{i}" for i in range(n)], **hello)
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    h.run()
    return h, peers


def to_act(h: Harness, peers) -> "object":
    seat = h.host.table.waiting_for_human()
    return next(p for p in peers if p.seat == seat)


def act(h: Harness, peer, action: dict, *, version: int | None = None, ref: int | None = None):
    peer_ids = getattr(peer, "_ids", 0) + 1
    peer._ids = peer_ids
    h.send(peer, {"type": "act", "id": ref if ref is not None else peer_ids,
                  "version": h.host.version if version is None else version, "action": action})


def play_hands(h: Harness, peers, hands: int, limit: int = 5000) -> None:
    for _ in range(limit):
        h.run()
        s = h.host.table.state
        if s.game_over or s.hand_no > hands:
            return
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        act(h, p, passive(p.last("state")["view"]))
    raise AssertionError("did not finish")


# -- the handshake -------------------------------------------------------------------

def test_hello_welcome_and_lobby():
    h = Harness(make_host(RULES))
    ana = h.join("Ana")
    w = ana.last("welcome")
    assert w["version"] == P.VERSION == 2 and w["seat"] == 0 and w["token"] and not w["spectator"]
    lobby = ana.last("lobby")
    assert lobby["you"] == 0 and lobby["seats"][0]["name"] == "Ana"
    assert lobby["rules"] == RULES.to_dict() and lobby["rules_text"]
    assert "need at least 3" in lobby["start_problem"]


@pytest.mark.parametrize("first, why", [
    ({"type": "chat", "text": "hi"}, "first message must be"),
    ({"type": "hello", "version": 99, "name": "Ana"}, "protocol version 2"),
    ({"type": "hello", "version": 2, "name": "\x1b\u202e"}, "choose a name"),
    ({"type": "hello", "version": 2, "name": "Ana", "spectate": 1}, "true or false"),
])
def test_bad_hello_gets_an_error_and_is_closed(first, why):
    h = Harness(make_host(RULES))
    p = h.connect()
    h.send(p, first)
    assert p.closed and why in p.errors()[0]
    assert p.last("error")["fatal"] is True
    assert not h.host.players


def test_garbage_before_hello_is_an_error_and_a_close():
    h = Harness(make_host(RULES))
    p = h.connect()
    h.send(p, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n")  # a TLS hello, say
    assert p.closed and p.errors()


def test_a_client_that_never_says_hello_is_closed_after_the_timeout():
    h = Harness(make_host(RULES, hello_timeout=5))
    p = h.connect()
    h.poll(4.9)
    assert not p.closed
    h.poll(0.2)
    assert p.closed and "no hello" in p.errors()[0]
    assert h.host.next_wakeup is None or not h.host.conns


def test_password_is_required_and_checked():
    h = Harness(make_host(RULES, password="s3cret"))
    p = h.join("Ana")
    assert p.closed and p.errors()[0].startswith("this table has a password (join with")
    h.poll(1.0)  # failed hellos are rate-limited: 1 s after the first failure, then 2 s …
    q = h.join("Ana", password="S3cret")
    assert q.closed and q.errors() == ["wrong password"]
    h.poll(2.0)
    r = h.join("Ana", password="s3cret")
    assert not r.closed and r.seat == 0
    assert not r.last("welcome").get("password") is False


def test_names_are_unique_and_cleaned():
    h = Harness(make_host(RULES))
    a = h.join("  Ana\x1b\x07  ")
    assert a.last("welcome")["name"] == "Ana"
    b = h.join("ana")
    assert b.closed and "taken" in b.errors()[0]
    d = h.join("Di\x1b[31m")  # (what is left of an escape sequence is shown as typed)
    assert d.last("welcome")["name"] == "Di[31m"
    c = h.join("\u202eBo\u2066")
    assert c.last("welcome")["name"] == "Bo"


def test_the_table_fills_and_bots_make_room():
    h = Harness(make_host(PRESETS["draw"], bots=7))
    assert len(h.host.players) == 7
    peers = [h.join(f"P{i}") for i in range(7)]
    assert all(not p.closed for p in peers)
    assert [p.bot for p in h.host.players].count(None) == 7
    late = h.join("Late")
    assert late.closed and "full" in late.errors()[0]


# -- the lobby --------------------------------------------------------------------------

def test_headless_starts_when_everyone_is_ready():
    h = Harness(make_host(RULES, bots=1))
    a, b = h.join("Ana"), h.join("Bo")
    h.send(a, {"type": "ready", "ready": True})
    assert not h.host.started
    assert "waiting for Bo" in a.last("lobby")["start_problem"]
    h.send(b, {"type": "ready", "ready": True})
    assert h.host.started
    assert a.last("lobby")["started"] and a.last("state")["view"]["seat"] == 0
    assert [p.name for p in h.host.players] == ["Ana", "Bo", "Bot 1"]


def test_only_the_host_starts_and_seats_bots():
    h = Harness(make_host(RULES, admin="ADMIN", headless=False))
    host = h.join("Host", admin="ADMIN")
    bo = h.join("Bo")
    assert host.last("welcome")["admin"] and not bo.last("welcome")["admin"]
    h.send(bo, {"type": "start"})
    h.send(bo, {"type": "bots", "count": 3})
    assert bo.errors() == ["only the host starts the game", "only the host seats bots"]
    h.send(host, {"type": "bots", "count": 2, "level": "nonsense"})
    assert "unknown bot level" in host.errors()[-1]
    h.send(host, {"type": "bots", "count": 2})
    assert len(h.host.players) == 4
    h.send(host, {"type": "start"})
    assert "waiting for Bo" in host.errors()[-1] and not h.host.started
    h.send(bo, {"type": "ready"})
    assert not h.host.started  # not headless: the host decides
    h.send(host, {"type": "start"})
    assert h.host.started and host.last("lobby")["seats"][0]["host"]


def test_leaving_the_lobby_frees_the_seat():
    h = Harness(make_host(RULES))
    a, b = h.join("Ana"), h.join("Bo")
    h.send(a, {"type": "leave"})
    assert a.closed and a.last("bye")
    assert [p.name for p in h.host.players] == ["Bo"]
    assert b.last("lobby")["seats"][0]["name"] == "Bo"
    h.drop(b)
    assert h.host.players == []


# -- chat ---------------------------------------------------------------------------

def test_chat_is_cleaned_broadcast_and_never_marked_up():
    h = Harness(make_host(RULES))
    a, b = h.join("Ana"), h.join("Bo")
    h.send(a, {"type": "chat", "text": "hi \x1b]0;pwned\x07 [red]all[/]\u202e"})
    line = b.last("chat")
    assert line["text"] == "hi ]0;pwned [red]all[/]" and line["name"] == "Ana"
    assert a.last("chat") == line


def test_chat_floods_and_long_lines_are_refused():
    h = Harness(make_host(RULES, chat_burst=5, chat_rate=1.0))
    a, b = h.join("Ana"), h.join("Bo")
    for i in range(20):
        h.send(a, {"type": "chat", "text": f"spam {i}"})
    assert len(b.of("chat")) == 5
    assert a.errors().count("slow down: too many chat messages") == 15
    h.now += 2.0
    h.send(a, {"type": "chat", "text": "later"})
    assert b.last("chat")["text"] == "later"
    h.now += 10
    h.send(a, {"type": "chat", "text": "x" * (P.MAX_CHAT + 1)})
    assert "at most 300" in a.errors()[-1]
    h.send(a, {"type": "chat", "text": "\u202e\x1b"})
    assert a.errors()[-1] == "empty chat message"
    h.send(a, {"type": "chat", "text": 5})
    assert "must be text" in a.errors()[-1]
    assert not a.closed


# -- hostile actions --------------------------------------------------------------------

def snapshot(h: Harness) -> str:
    return json.dumps(h.host.table.state.to_dict(), sort_keys=True)


def test_hostile_actions_change_nothing():
    h, peers = started(3)
    mover = to_act(h, peers)
    other = next(p for p in peers if p is not mover)
    before, version = snapshot(h), h.host.version
    hostile = [
        (other, {"type": "check"}, None),                              # out of turn
        (other, {"type": "check", "seat": mover.seat}, None),          # for another seat
        (mover, {"type": "bet", "amount": 10**40}, None),              # absurd amount
        (mover, {"type": "bet", "amount": -5}, None),
        (mover, {"type": "bet", "amount": "lots"}, None),
        (mover, {"type": "bet", "amount": True}, None),
        (mover, {"type": "start_hand"}, None),                         # the dealer's step
        (mover, {"type": "advance"}, None),
        (mover, {"type": "teleport"}, None),                           # unknown action
        (mover, {"type": "discard", "indices": [0] * 50}, None),
        (mover, {"type": "check"}, version + 5),                       # a future version
        (mover, "not an object", None),
    ]
    for peer, action, ver in hostile:
        n = len(peer.errors())
        act(h, peer, action, version=ver)
        assert len(peer.errors()) == n + 1, action
        assert snapshot(h) == before and h.host.version == version
    for bad in ({"type": "act"}, {"type": "act", "id": -1, "version": 0, "action": {}},
                {"type": "act", "id": 10**20, "version": 0, "action": {}},
                {"type": "frobnicate"}, {"type": "act", "id": 999, "version": "x", "action": {}}):
        h.send(mover, bad)
    h.send(mover, b'{"type": "act", "id": 1000, "version": 0, "action": {"type": "check", ')
    h.send(mover, b"\xff\xfe\x00garbage\n")
    assert snapshot(h) == before and not any(p.closed for p in peers)


def test_replayed_and_stale_actions_are_ignored():
    h, peers = started(3, rules=RULES.replace(betting="final_only"))
    play_hands(h, peers, 0)
    # play until a betting turn
    for _ in range(200):
        s = h.host.table.state
        if s.phase == "betting":
            break
        h.run()
    mover = to_act(h, peers)
    act(h, mover, {"type": "check"}, ref=50)
    assert mover.last("ack")["id"] == 50
    after = snapshot(h)
    h.send(mover, {"type": "act", "id": 50, "version": h.host.version - 1,
                   "action": {"type": "check"}})
    assert "replayed" in mover.errors()[-1]
    # the same intent again with a fresh id but the old version: stale, nothing happens
    h.send(mover, {"type": "act", "id": 51, "version": h.host.version - 1,
                   "action": {"type": "check"}})
    assert snapshot(h) == after
    assert mover.errors()[-1].startswith(("stale", "it is not your turn"))


def test_spectators_see_only_public_cards_and_cannot_act():
    h, peers = started(3)
    spy = h.join("Spy", spectate=True)
    assert spy.last("welcome")["spectator"] and spy.seat is None
    view = spy.last("state")["view"]
    assert view["seat"] is None
    for p in view["players"]:
        assert p["stock"][0] is None  # the private stock card
    act(h, spy, {"type": "check"})
    assert "spectators cannot act" in spy.errors()[-1]


# -- a whole game, and what each seat is sent ----------------------------------------

def private_cards(h: Harness, hand_no: int) -> dict[int, set[str]]:
    """Ground truth from the unredacted history: each seat's private cards in a hand."""
    out: dict[int, set[str]] = {}
    public: set[str] = set()
    for hand in h.host.table.history:
        for e in hand:
            if e.hand_no != hand_no:
                continue
            if e.private:
                out.setdefault(e.seat, set()).update(c.text for c in e.cards)
            else:
                public.update(c.text for c in e.cards if c is not None)
    return {s: cards - public for s, cards in out.items()}


@pytest.mark.parametrize("preset", ["classic", "draw"])
def test_full_game_over_the_host_logic_verifies_every_card(preset):
    rules = PRESETS[preset].replace(suit_order="SHDC")
    h, peers = started(4, rules=rules)
    play_hands(h, peers, 4)
    for p in peers:
        ver = DeckVerifier()
        opened = 0
        for m in p.inbox:
            if m["type"] == "commit":
                assert ver.on_commit(m) == []
            elif m["type"] == "state":
                assert ver.on_reveals(m["reveals"]) == [], m["reveals"]
                opened += len(m["reveals"])
        assert not ver.problems and opened > 20


def test_rejoin_with_the_token_restores_seat_and_view():
    h, peers = started(3)
    play_hands(h, peers, 1)
    bo = peers[1]
    mine = bo.last("state")["view"]["players"][1]
    h.drop(bo)
    assert "lost the connection" in peers[0].last("notice")["text"]
    assert h.host.players[1].cid is None
    thief = h.join("P1")
    assert thief.closed and "join under another name" in thief.errors()[0]
    thief2 = h.join("P1", token="forged-token")
    assert thief2.closed
    back = h.join("P1", token=bo.token)
    fresh = back.last("welcome")["token"]
    assert back.seat == 1 and fresh and fresh != bo.token  # a token works once
    h.drop(back)
    replay = h.join("P1", token=bo.token)  # a seen (or stolen) token is worthless now
    assert replay.closed and "join under another name" in replay.errors()[0]
    back = h.join("P1", token=fresh)
    assert back.seat == 1
    view = back.last("state")["view"]
    assert view["seat"] == 1 and view["players"][1]["stock"] == mine["stock"]
    assert back.of("history") and back.of("commit")
    ver = DeckVerifier()
    ver.on_commit(back.last("commit"))
    assert ver.on_reveals(back.last("state")["reveals"]) == []
    from pokeroulette_tui.engine.view import SeatView
    from pokeroulette_tui.net.commit import shown_cards
    assert ver.unverified(shown_cards(SeatView.from_dict({**view, "rules": back.last("lobby")["rules"]}))) == []


def test_a_second_connection_replaces_the_first():
    h, peers = started(3)
    again = h.join("P0", token=peers[0].token)
    assert peers[0].closed and "replaced" in peers[0].errors()[-1]
    assert not again.closed and h.host.players[0].cid == again.cid


# -- the turn timer ---------------------------------------------------------------------

def test_the_timer_checks_then_folds_then_sits_the_player_out():
    rules = RULES.replace(betting="each_round")
    h, peers = started(3, rules=rules, turn_timeout=30)
    slow = to_act(h, peers)
    state = slow.last("state")
    assert state["deadline_in"] == 30
    h.poll(29.9)
    assert h.host.table.waiting_for_human() == slow.seat
    h.poll(0.2)
    notes = [m["text"] for m in peers[0].of("notice")]
    assert any("Time ran out for" in n and "(1 of 3" in n for n in notes)
    # keep timing out: after three the seat is away and played at once
    for _ in range(400):
        if h.host.away(slow.seat):
            break
        seat = h.host.table.waiting_for_human()
        if seat == slow.seat:
            h.poll(30.1)
        elif seat is not None:
            p = next(q for q in peers if q.seat == seat)
            act(h, p, passive(p.last("state")["view"]))
        else:
            h.run()
    assert h.host.away(slow.seat)
    assert any("is away" in m["text"] for m in peers[0].of("notice"))
    assert slow.last("lobby")["seats"][slow.seat]["away"]
    # away: its turns wait only a short grace
    for _ in range(200):
        seat = h.host.table.waiting_for_human()
        if seat == slow.seat:
            h.poll(AWAY_GRACE)
            assert h.host.table.waiting_for_human() != slow.seat
            break
        if seat is not None:
            p = next(q for q in peers if q.seat == seat)
            act(h, p, passive(p.last("state")["view"]))
        else:
            h.run()
    h.send(slow, {"type": "back"})
    assert not h.host.away(slow.seat)
    assert any("is back" in m["text"] for m in peers[0].of("notice"))


def test_timeout_action_choices():
    from pokeroulette_tui.engine.actions import Check, Cut, Discard, Fold, MoveStockToActive
    from pokeroulette_tui.driver import timeout_action
    h, peers = started(3, rules=PRESETS["draw"].replace(betting="each_round"))
    t = h.host.table
    assert t.state.phase == "cut"
    a = timeout_action(t, t.state.to_act)
    assert isinstance(a, Cut) and a.position == len(t.state.deck) // 2
    h2, _ = started(3, rules=RULES.replace(stock_to_active=True))
    assert isinstance(timeout_action(h2.host.table, h2.host.table.state.to_act), (Check, Fold))
    del Discard, MoveStockToActive


# -- saves ---------------------------------------------------------------------------------

def test_saves_are_owner_only_and_resume_the_same_hand(tmp_path):
    path = tmp_path / "table.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 1)
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o600
    state = h.host.table.state
    want = json.dumps(state.to_dict(), sort_keys=True)
    tokens = [p.token for p in peers]
    h2 = Harness(TableHost.resume(path, h.host.config))
    assert json.dumps(h2.host.table.state.to_dict(), sort_keys=True) == want
    back = h2.join("P2", token=tokens[2])
    assert back.seat == 2 and not back.closed
    ver = DeckVerifier()
    ver.on_commit(back.last("commit"))
    assert ver.commitments == h.host.committer.commitments
    assert ver.on_reveals(back.last("state")["reveals"]) == []


def test_a_damaged_deck_commitment_in_the_journal_is_a_clear_error(tmp_path):
    """The last commitment of a host's journal is what a resume rebuilds the deck from:
    one that cannot be used (no nonces) is a SaveError, not a crash."""
    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 1)
    hand_no = h.host.table.state.hand_no
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"net": {"commit": {"hand_no": hand_no, "cards": ["As"]}}}) + "\n")
    from pokeroulette_tui.engine.save import SaveError

    with pytest.raises(SaveError, match="network data"):
        TableHost.resume(path, h.host.config)


def test_host_resume_of_a_journal_damaged_in_the_middle_goes_on_from_before_it(tmp_path,
                                                                              capsys):
    """``host --resume``: a bad line after the checkpoint no longer loses the table: it goes
    on from the write before the damage, the damaged journal kept whole, and the banner
    says so; the seats' tokens and the deck's commitments come back with it."""
    import argparse

    from pokeroulette_tui.cli import build_parser
    from pokeroulette_tui.net import launch
    from pokeroulette_tui.net.serve import Listen

    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 2)
    h.host.table.close()
    lines = path.read_text().split("\n")
    at = len(lines) - 3
    lines[at] = "{torn in the middle"
    damaged = "\n".join(lines)
    path.write_text(damaged)
    args = build_parser().parse_args(["host", "--headless", "--resume", str(path)])
    host = launch.make_host(args, RULES, None)
    assert f"damaged at line {at + 1}" in host.table.salvaged
    assert host.table.damaged_copy.read_text() == damaged
    err = capsys.readouterr().err  # said at once on the host's terminal, before listening
    assert "goes on from before the damage" in err and str(host.table.damaged_copy) in err
    where = Listen(bind="127.0.0.1", port=1234, tls=False)
    host.config.headless = False  # a host who plays: its lobby shows the banner
    said = "\n".join(launch.banner(host, where, argparse.Namespace()))
    assert "goes on from before the damage" in said and str(host.table.damaged_copy) in said
    h2 = Harness(host)
    back = h2.join("P1", token=peers[1].token)
    assert back.seat == 1 and not back.closed


def test_the_host_saves_a_journal_with_its_resume_data(tmp_path):
    from pokeroulette_tui.engine import journal
    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 3)
    table = h.host.table
    loaded = journal.load(path)
    assert json.dumps(loaded.state.to_dict(), sort_keys=True) == \
        json.dumps(table.state.to_dict(), sort_keys=True)
    assert [a.to_dict() for a in loaded.actions] == [a.to_dict() for a in table.actions]
    net = loaded.meta["net"]  # the checkpoint's, updated by each later net record
    want = {**h.host._net_meta(), "revealed": h.host.committer.revealed_list()}
    opened: dict = {}  # who was shown what: the hand's whole list, then what was appended
    for viewer, indices in net.pop("revealed"):
        opened.setdefault(viewer, []).extend(indices)
    assert [[v, ix] for v, ix in opened.items()] == want.pop("revealed")
    assert net == json.loads(json.dumps(want))
    assert set(net["tokens"]) == {"0", "1", "2"} and net["commit"]["hand_no"] == table.state.hand_no
    lines = path.read_text().splitlines()
    records = [json.loads(line) for line in lines[1:]]
    assert sum("a" in r for r in records) == len(table.actions) - len(json.loads(lines[0])["actions"])
    # the nonces are written once a hand, not with every action
    assert sum("commit" in r.get("net", {}) for r in records) <= table.state.hand_no
    assert not hasattr(table, "save_text")


@pytest.mark.parametrize("preset,players", [("classic", 4), ("pagat", 4), ("draw", 4),
                                            ("classic", 6)])  # (6: two decks, every face twice)
def test_a_resume_at_any_moment_restores_the_deck_commitments_exactly(tmp_path, preset, players):
    """The commitments, where each committed card is and what each viewer was opened,
    written only when they change, come back exactly wherever the host stops."""
    import shutil
    path = tmp_path / "t.json"
    rules = PRESETS[preset].replace(suit_order="SHDC")
    h, peers = started(players, rules=rules, save_path=path)
    checked = 0
    for step in range(400):
        h.run()
        state = h.host.table.state
        if state.game_over or state.hand_no > 3:
            break
        if step % 3 == 0:
            copy = tmp_path / f"copy-{step}.json"
            shutil.copy(path, copy)
            h2 = TableHost.resume(copy, h.host.config)
            s2, c1, c2 = h2.table.state, h.host.committer, h2.committer
            assert s2.to_dict() == state.to_dict()
            assert c2.commitments == c1.commitments
            assert c2.zones(s2) == c1.zones(state)
            assert c2.revealed_list() == c1.revealed_list()
            checked += 1
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        act(h, p, passive(p.last("state")["view"]))
    assert checked > 2
    # what changes often is written as it changes, not whole: the openings are appended,
    # and, one deck, only the jokers' places are written (a joker may be in two zones at once)
    records = [json.loads(line).get("net", {}) for line in path.read_text().splitlines()[1:]]
    hands = h.host.table.state.hand_no
    assert sum("revealed" in r for r in records) <= hands + 1
    assert sum("revealed+" in r for r in records) > hands
    if players <= 5:
        placed = [r["placed"] for r in records if "placed" in r]
        assert len(placed) < len(records) / 4 and all(len(p) <= 6 for p in placed)


def test_a_journal_resumes_after_a_torn_last_line(tmp_path):
    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 1)
    state = json.dumps(h.host.table.state.to_dict(), sort_keys=True)
    with open(path, "a") as f:
        f.write('{"a":{"type":"fold","seat":')  # a crash in the middle of a write
    h2 = Harness(TableHost.resume(path, h.host.config))
    assert json.dumps(h2.host.table.state.to_dict(), sort_keys=True) == state
    back = h2.join("P1", token=peers[1].token)
    assert back.seat == 1 and not back.closed
    play_hands(h2, [back, h2.join("P0", token=peers[0].token),
                    h2.join("P2", token=peers[2].token)], 1)
    assert Harness(TableHost.resume(path, h.host.config)).host.table.state.hand_no >= 2


def test_an_older_one_document_save_still_resumes_and_goes_on_as_a_journal(tmp_path):
    from pokeroulette_tui.engine import journal
    from pokeroulette_tui.engine import save as saving
    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path)
    play_hands(h, peers, 1)
    t = h.host.table
    meta = t.meta()
    c = h.host.committer  # the commitments as that format kept them: every card's index by zone
    meta["net"] = {**meta["net"], "commit": {**c.fixed(), "zones": c.zones(t.state),
                                             "revealed": c.revealed_list()}}
    for key in ("placed", "revealed"):
        meta["net"].pop(key)
    saving.save(path, t.state, t.actions, seed=t.seed, names=[s.name for s in t.seats], meta=meta)
    assert not journal.is_journal(path.read_bytes()[:200])
    h2 = Harness(TableHost.resume(path, h.host.config))
    back = h2.join("P2", token=peers[2].token)
    assert back.seat == 2
    ver = DeckVerifier()
    ver.on_commit(back.last("commit"))
    assert ver.commitments == h.host.committer.commitments
    assert ver.on_reveals(back.last("state")["reveals"]) == []
    h2.host.table.flush()
    assert journal.is_journal(path.read_bytes()[:200])


def test_wire_views_and_saved_states_equal_the_engines_own_to_dict():
    from pokeroulette_tui.engine.view import view_for
    for preset in ("classic", "swedish", "draw"):
        h, peers = started(4, rules=PRESETS[preset].replace(suit_order="SHDC", betting="each_round"
                                                            if preset != "draw" else "none"))
        for _ in range(60):
            st = h.host.table.state
            for seat in (None, 0, 1, 2, 3):
                v = view_for(st, seat)
                assert P.view_to_wire(v) == v.to_dict()
            assert json.dumps(P.state_to_save(st)) == json.dumps(st.to_dict())
            seat = h.host.table.waiting_for_human()
            if seat is None:
                h.poll()
                continue
            p = next(q for q in peers if q.seat == seat)
            act(h, p, passive(p.last("state")["view"]))


def test_a_resumed_table_keeps_its_password(tmp_path):
    path = tmp_path / "t.json"
    h, peers = started(3, save_path=path, password="pw")
    assert journal.load(path).meta["net"]["password"] != "pw"  # a digest only
    config = h.host.config
    config.password = None
    h2 = Harness(TableHost.resume(path, config))
    assert "has a password" in h2.join("P0", token=peers[0].token).errors()[0]
    h2.poll(1.0)
    ok = h2.join("P0", token=peers[0].token, password="pw")
    assert ok.seat == 0 and not ok.closed


def test_a_player_who_quits_on_purpose_is_said_to_have_quit_not_lost():
    """``quit`` before closing (the client's q): the seat is held as for a lost connection,
    and the others read "quit"."""
    h, peers = started(3)
    bo = peers[1]
    before = len(bo.inbox)
    h.send(bo, {"type": "quit"})
    assert bo.inbox[before:] == []  # no answer
    h.drop(bo)
    notice = peers[0].last("notice")["text"]
    assert "P1 quit; the seat is held" in notice and "lost" not in notice
    assert h.host.players[1].cid is None


@pytest.mark.parametrize("allowed", [False, True])
def test_the_welcome_says_whether_the_host_allows_hints(allowed):
    h = Harness(make_host(RULES, allow_hints=allowed))
    ana = h.join("Ana")
    assert ana.last("welcome")["hints"] is allowed


@pytest.mark.parametrize("preset,players", [("classic", 3), ("draw", 4), ("classic", 6)])
def test_a_write_of_several_lines_cut_short_loses_all_of_them(tmp_path, monkeypatch, preset,
                                                               players):
    """A step's lines go to the disk in one write, the resume data (where each committed card
    is) on the last. A write cut after one of its lines (a power cut before the sync, a full
    disk) must not leave the earlier lines without it: the load drops the whole write, and the
    resumed host links every card to its own committed index (the wrong one opens a nonce
    for another card: two jokers once got the same index)."""
    from pokeroulette_tui.net import nettable
    import random as _random
    path = tmp_path / "t.json"
    ends = []  # each write: the file before, after, and the host as it was then
    real_write_all = nettable.write_all

    def spy(ws):
        before = path.read_bytes() if path.exists() else b""
        real_write_all(ws)
        host = holder.get("host")
        if host is not None:
            ends.append((before, path.read_bytes(), host.table.state.to_dict(),
                         host.committer.zones(host.table.state),
                         host.committer.revealed_list()))
    holder: dict = {}
    monkeypatch.setattr(nettable, "write_all", spy)
    rnd = _random.Random(4)
    h, peers = started(players, rules=PRESETS[preset].replace(suit_order="SHDC"), save_path=path)
    holder["host"] = h.host
    for _ in range(600):
        h.run()
        if h.host.table.state.game_over or h.host.table.state.hand_no > 6:
            break
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        a = rnd.choice(h.host.table.legal(seat)).to_dict()
        a.pop("seat", None)
        act(h, p, a)
    cut_writes = 0
    for (__, ___, state, zones, opened), (before, after, *_rest) in zip(ends, ends[1:]):
        new = after[len(before):]
        if not before or not after.startswith(before) or new.count(b"\n") < 2:
            continue
        cut_writes += 1
        copy = tmp_path / "copy.json"
        copy.write_bytes(before + new[:new.index(b"\n") + 1])  # only its first line made it
        h2 = TableHost.resume(copy, h.host.config)
        assert h2.table.state.to_dict() == state  # as the write before left it
        assert h2.committer.zones(h2.table.state) == zones
        assert h2.committer.revealed_list() == opened
        assert copy.read_bytes() == before  # the lines of the cut write are cut off
    assert cut_writes >= 2
