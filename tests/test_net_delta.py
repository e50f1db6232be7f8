"""State deltas (docs/PROTOCOL.md §4, "Deltas"): a client that asks for them in its hello gets,
after its first whole view, only what changed in it. Over many random hands of every preset,
with viewers that skip broadcasts and catch-up lines in between, the view each client
rebuilds from its deltas (as ``RemoteSession`` does) is ``view_for`` its seat after every
step; a delta never carries a card its seat may not see; a delta that does not follow the
last line is refused; and over a real host, clients that opt in and clients that do not get
the same views."""

from __future__ import annotations

import random
from typing import Any

import pytest
from net_helpers import seeded_nonces

from pokeroulette_tui.engine.actions import Leave
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import SeatView, view_for
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.seats import Conn
from pokeroulette_tui.net.wire import StateMessages

_CARDS = frozenset(P._TEXT.values())


def _card_texts(x: Any) -> set[str]:
    """Every card text anywhere in a decoded JSON value."""
    if isinstance(x, str):
        return {x} if x in _CARDS else set()
    if isinstance(x, dict):
        return set().union(*map(_card_texts, x.values())) if x else set()
    if isinstance(x, list):
        return set().union(*map(_card_texts, x)) if x else set()
    return set()


class _Client:
    """What RemoteSession keeps of its state lines: the last view as sent and its serial."""

    def __init__(self, seat: int | None, deltas: bool) -> None:
        self.seat, self.deltas = seat, deltas
        self.conn = Conn(cid=0, opened=0.0, deltas=deltas)
        self.view: dict[str, Any] | None = None
        self.serial: int | None = None
        self.delta_lines = self.full_lines = 0

    def take(self, line: bytes) -> None:
        msg = P.decode(line)
        if "base" in msg:
            m = M.StateDelta.parse(msg)
            assert self.view is not None and m.base == self.serial
            self.view = m.apply(self.view)
            self.delta_lines += 1
        else:
            self.view = M.State.parse(msg).view
            self.full_lines += 1
        self.serial = msg["serial"]

    def rebuilt(self, rules) -> SeatView:
        assert self.view is not None
        return SeatView.from_dict({**self.view, "rules": rules.to_dict()})


def _broadcast(msgs: StateMessages, g, clients: list[_Client], events, step, committer):
    """What Broadcast._broadcast does for these (live) clients."""
    base = msgs.serial
    wants = [c.deltas and c.conn.state_serial == base and c.conn.state_seat == c.seat
             for c in clients]
    deltas: dict[int | None, bytes] = {}
    lines = msgs.build(g, [c.seat for c, d in zip(clients, wants) if not d], events,
                       {"type": "state", "version": step}, {"turn": g.to_act}, committer,
                       deltas=[c.seat for c, d in zip(clients, wants) if d], track=True,
                       delta_out=deltas)
    for c, d in zip(clients, wants):
        c.conn.state_serial, c.conn.state_seat = msgs.serial, c.seat
        line = deltas[c.seat] if d else lines[c.seat]
        assert d or b'"base":' not in line  # a delta only to whom may take it
        yield c, line


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [5, 6])
def test_the_view_rebuilt_from_deltas_is_view_for_its_seat_after_every_step(preset, seed):
    hands = steps = 0
    game = 0
    sent = {True: 0, False: 0}
    while hands < 12:
        game += 1
        g = new_game(PRESETS[preset].replace(suit_order="SHDC"),
                     ["Ana", "Bo", "Cy", "Di", "Ed"], seed=seed * 100 + game)
        install_tracking(g)
        rng = random.Random(seed * 100 + game)
        committer = DeckCommitter(seeded_nonces(seed))
        msgs = StateMessages()
        # every seat opts in, a spectator does, another spectator and seat 0's twin do not
        clients = [_Client(s, True) for s in (None, 0, 1, 2, 3, 4)] + \
            [_Client(None, False), _Client(0, False)]
        events: list = []
        for step in range(3000):
            committer.refresh(g)
            live = [c for c in clients if rng.random() < 0.9]  # some miss a broadcast
            for c in clients:
                if c not in live:  # what it misses it is not sent: its next line is whole
                    c.conn.state_serial = None
            if step % 11 == 5:  # a catch-up line for one client (a rejoin): not tracked
                c = rng.choice(clients)
                line = msgs.build(g, [c.seat], [], {"type": "state", "version": step},
                                  {"turn": g.to_act}, committer)[c.seat]
                c.take(line)
                c.conn.state_serial = None
            for c, line in _broadcast(msgs, g, live, events, step, committer):
                c.take(line)
                sent[c.deltas] += len(line)
                msg = P.decode(line)
                want = view_for(g, c.seat)
                assert c.rebuilt(g.rules) == want, (game, step, c.seat)
                if "base" in msg:  # a delta shows only cards its seat's whole view shows
                    shown = _card_texts(want.to_dict())
                    assert _card_texts([msg["view"], msg["players"]]) <= shown
                    assert c.deltas
            for c in clients:  # those that missed it are stale, and know it
                if c not in live and c.view is not None:
                    assert c.conn.state_serial is None
            steps += 1
            if g.game_over:
                break
            legal = [x for x in legal_actions(g, None if dealer_to_act(g) else g.to_act)
                     if not isinstance(x, Leave)]
            events = apply(g, rng.choice(legal))
        hands += g.hand_no
    assert steps > 100
    assert sum(c.delta_lines for c in clients) > 0


def test_deltas_are_much_smaller_than_whole_views():
    g = new_game(PRESETS["classic"].replace(suit_order="SHDC"), ["Ana", "Bo", "Cy", "Di", "Ed"],
                 seed=3)
    install_tracking(g)
    rng = random.Random(3)
    committer = DeckCommitter(seeded_nonces(3))
    a, b = StateMessages(), StateMessages()
    whole = [_Client(s, False) for s in (0, 1, 2, 3, 4)]
    delta = [_Client(s, True) for s in (0, 1, 2, 3, 4)]
    sizes = {False: 0, True: 0}
    events: list = []
    for step in range(400):
        committer.refresh(g)
        for msgs, clients, d in ((a, whole, False), (b, delta, True)):
            for c, line in _broadcast(msgs, g, clients, events, step, committer):
                c.take(line)
                sizes[d] += len(line)
        if g.game_over:
            break
        legal = [x for x in legal_actions(g, None if dealer_to_act(g) else g.to_act)
                 if not isinstance(x, Leave)]
        events = apply(g, rng.choice(legal))
    assert sizes[True] < 0.6 * sizes[False], sizes


def test_a_delta_that_does_not_follow_the_last_line_is_refused_by_the_client():
    from pokeroulette_tui.net.client import RemoteSession, _Gap
    s = RemoteSession("127.0.0.1", 1, "Ana")
    assert s.deltas  # the program's own client asks for them
    assert M.Hello("Ana", deltas=True).to_wire()["deltas"] is True
    assert M.Hello.parse(M.Hello("Ana", deltas=True).to_wire()).deltas
    assert "deltas" not in M.Hello("Ana").to_wire() and not M.Hello.parse(
        {"type": "hello", "version": P.VERSION, "name": "Ana", "deltas": "yes"}).deltas
    delta = {"type": "state", "version": 1, "serial": 4, "base": 3, "view": {}, "players": [],
             "events": [], "reveals": [], "turn": None, "seats": []}
    with pytest.raises(_Gap):  # nothing to build on
        s._handle(delta)
    s._view_wire, s._serial = {"players": []}, 2
    with pytest.raises(_Gap):  # line 3 was missed
        s._handle(delta)
    s._serial = 3
    with pytest.raises(_Gap):  # a player index that is not there
        s._handle({**delta, "players": [[7, {}]]})
    with pytest.raises(P.ProtocolError):
        M.StateDelta.parse({**delta, "players": [[1]]})


# -- over the host's own logic ----------------------------------------------------------------

class _Reader:
    """A peer's state lines, deltas applied as they arrive (what RemoteSession keeps)."""

    def __init__(self, peer) -> None:
        self.peer, self.at, self.deltas, self.wholes = peer, 0, 0, 0
        self.client = _Client(None, True)

    def view(self) -> dict[str, Any]:
        for msg in self.peer.inbox[self.at:]:
            if msg["type"] == "state":
                self.client.take(P.encode(msg))
                if "base" in msg:
                    self.deltas += 1
                else:
                    self.wholes += 1
        self.at = len(self.peer.inbox)
        assert self.client.view is not None
        return self.client.view


@pytest.mark.parametrize("preset", ["classic", "draw"])
def test_over_the_host_a_client_that_opts_in_sees_what_the_others_see(preset):
    import json

    from net_helpers import Harness, make_host
    h = Harness(make_host(PRESETS[preset].replace(suit_order="SHDC")))
    peers = [h.join(f"P{i}", deltas=True) for i in range(3)]
    plain = h.join("Plain", spectate=True)
    watcher = h.join("Watcher", spectate=True, deltas=True)
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    assert h.host.started
    readers = {p.cid: _Reader(p) for p in peers + [watcher]}
    rejoined = False
    ids = 0
    for _ in range(5000):
        h.run()
        s = h.host.table.state
        for p in peers + [watcher]:
            want = view_for(s, p.seat if p is not watcher else None).to_dict()
            del want["rules"]
            assert readers[p.cid].view() == json.loads(json.dumps(want))
        assert readers[watcher.cid].view() == plain.last("state")["view"]
        assert "base" not in plain.last("state")  # it did not ask for deltas
        if s.game_over or s.hand_no > 3:
            break
        if s.hand_no == 2 and not rejoined:  # a rejoin starts again from a whole view
            rejoined = True
            h.drop(peers[1])
            peers[1] = h.join("P1", token=peers[1].token, deltas=True)
            readers[peers[1].cid] = _Reader(peers[1])
            continue
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        view = readers[p.cid].view()
        o = view["options"]
        action = ({"type": "check"} if o["check"] else {"type": "call"} if o["call"] else
                  {"type": "fold"}) if view["phase"] == "betting" else \
            {"type": "cut", "position": 20} if view["phase"] == "cut" else \
            {"type": "discard", "indices": [0, 1]} if view["phase"] == "draw" else \
            {"type": "stock_to_active", "index": None}
        ids += 1
        h.send(p, {"type": "act", "id": ids, "version": h.host.version, "action": action})
    assert rejoined
    r = readers[watcher.cid]
    assert r.deltas > 10 * r.wholes, (r.deltas, r.wholes)


# -- the reference client over a real server ----------------------------------------------------

async def test_the_client_applies_deltas_and_joins_again_after_a_missed_line():
    import asyncio

    from net_helpers import Served, autoplay

    from pokeroulette_tui.net.client import RemoteSession

    class Counting(RemoteSession):
        deltas_read = 0

        def _on_delta(self, m, msg):
            self.deltas_read += 1
            return RemoteSession._on_delta(self, m, msg)

        _handlers = {**RemoteSession._handlers, M.StateDelta: _on_delta}

    rules = RuleSet(suit_order="SHDC", starting_chips=1_000_000)
    async with Served(rules, bots=2) as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana")
        spy = Counting("127.0.0.1", srv.port, "Spy", spectate=True, retry_delays=(0.05,) * 40)
        plain = RemoteSession("127.0.0.1", srv.port, "Plain", spectate=True, deltas=False)
        for s in (ana, spy, plain):
            await s.connect()
        assert [c.deltas for c in srv.host.conns.values()] == [True, True, False]
        await ana.set_ready(True)
        playing = asyncio.ensure_future(autoplay(ana, hands=3))
        await asyncio.wait_for(autoplay(spy, hands=3, stop=lambda v: spy.deltas_read > 5), 60)
        spy._serial = -1  # as if a line had been missed: the next delta is refused
        seen = await asyncio.wait_for(autoplay(spy, hands=3), 60)
        await asyncio.wait_for(asyncio.gather(playing, autoplay(plain, hands=3)), 60)
        notes = " ".join(u.note for u in seen)
        assert "a state update was missed" in notes and "Reconnected" in notes, notes
        # (this seeded table's game ends early: the last views are comparable)
        assert spy.view(None).game_over and plain.view(None).game_over
        assert spy.view(None) == plain.view(None)  # whole views and deltas: the same table
        assert spy.verifier.problems == [] and ana.verifier.problems == []
        for s in (ana, spy, plain):
            await s.close()
