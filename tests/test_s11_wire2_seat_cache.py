"""The host's per-player cache of the public projection (net/wire.py ``_players``).

``StateMessages`` projects a player again only when what :func:`player_view` reads of its
seat changed (``_seat_key``). Here every such field, and every card list, is changed in
place, one at a time: each line is still the one a new builder makes from the same state
(with the plain ``reveal(seat, cards)`` path), its view is ``view_for``'s, and a delta
applied to the last view gives that view. A key that missed a field shows here."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from net_helpers import seeded_nonces

from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.state import GameState, Seat
from pokeroulette_tui.engine.view import player_view, view_for
from pokeroulette_tui.net import wire
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.wire import StateMessages


def _dealt() -> GameState:
    """Seven seats, two decks, every seat dealt its stock and actives."""
    g = new_game(PRESETS["classic"].replace(suit_order="SHDC", betting="each_round"),
                 [f"P{i}" for i in range(7)], seed=8)
    install_tracking(g)
    while not all(s.stock and s.actives for s in g.seats):
        apply(g, legal_actions(g, None if dealer_to_act(g) else g.to_act)[0])
    return g


def _twin(g: GameState, card: Any) -> Any:
    """The other deck's card equal to ``card``, taken out of the deck (or any deck card)."""
    k = next((k for k, c in enumerate(g.deck) if c == card and c is not card), -1)
    return g.deck.pop(k)


def _other(g: GameState) -> Any:
    return g.deck.pop()


def _flip(s: Seat, name: str) -> None:
    setattr(s, name, not getattr(s, name))


def _bump(s: Seat, name: str) -> None:
    setattr(s, name, getattr(s, name) + 3)


MUTATIONS: list[tuple[str, Callable[[GameState, Seat], None]]] = [
    ("name", lambda g, s: setattr(s, "name", "Zoë \"z\"")),
    ("status", lambda g, s: setattr(s, "status", "left")),
    ("reason", lambda g, s: setattr(s, "reason", "a pair")),
    *[(f, lambda g, s, f=f: _bump(s, f)) for f in (
        "chips", "tokens", "bet", "contributed", "drawn", "sit_out_hands", "won", "out_hand",
        "out_score")],
    *[(f, lambda g, s, f=f: _flip(s, f)) for f in (
        "is_bot", "in_hand", "folded", "all_in", "last_life", "actives_up", "shown")],
    ("moved", lambda g, s: setattr(s, "moved", 1)),
    ("moved again", lambda g, s: setattr(s, "moved", 2)),
    ("stock_public in place", lambda g, s: s.stock_public.__setitem__(0, True)),
    ("stock twin in place", lambda g, s: s.stock.__setitem__(0, _twin(g, s.stock[0]))),
    ("stock grows", lambda g, s: (s.stock.append(_other(g)), s.stock_public.append(True))),
    ("actives twin in place", lambda g, s: s.actives.__setitem__(-1, _twin(g, s.actives[-1]))),
    ("added grows", lambda g, s: s.added.append(_other(g))),
    ("added twin in place", lambda g, s: s.added.__setitem__(0, _twin(g, s.added[0]))),
    ("hand set", lambda g, s: s.hand.extend([_other(g), _other(g)])),
    ("hand twin in place", lambda g, s: s.hand.__setitem__(1, _twin(g, s.hand[1]))),
    ("acted (not shown)", lambda g, s: _flip(s, "acted")),
]


def _apply_delta(view: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    out = {**view, **d["view"]}
    out["players"] = [dict(p) for p in view["players"]]
    for i, fields in d["players"]:
        out["players"][i].update(fields)
    return out


def test_a_seat_changed_in_place_field_by_field_is_projected_again():
    g = _dealt()
    fast, plain, third = (DeckCommitter(seeded_nonces(4)) for __ in range(3))
    kept = list(g.rng.reshuffled)
    for c in (fast, plain, third):
        g.rng.reshuffled[:] = kept
        c.refresh(g)
    cached, tracked = StateMessages(), StateMessages()
    viewers = [None, *range(7)]
    last: dict[int | None, dict[str, Any]] = {}
    tail = {"turn": None}
    for step, (what, change) in enumerate([("start", lambda g, s: None), *MUTATIONS]):
        change(g, g.seats[1])  # (one seat changed again and again)
        head = {"type": "state", "version": step}
        one = cached.build(g, viewers, [], head, tail, fast)
        fresh = StateMessages().build(g, viewers, [], head, tail,
                                      lambda v, cards: plain.reveal(v, cards))
        assert one == fresh, what
        out: dict[int | None, bytes] = {}
        tracked.build(g, [], [], head, tail, third, deltas=viewers, track=True, delta_out=out)
        for v in viewers:
            want = view_for(g, v).to_dict()
            del want["rules"]
            assert json.loads(one[v])["view"] == json.loads(json.dumps(want)), (what, v)
            line = json.loads(out[v])
            view = _apply_delta(last[v], line) if "base" in line else line["view"]
            assert view == json.loads(fresh[v])["view"], (what, v)
            assert line["reveals"] == json.loads(fresh[v])["reveals"], (what, v)
            last[v] = view
    assert "base" in line  # (the deltas were deltas)


class _Reads:
    """A seat that notes which of its fields are read."""

    def __init__(self, seat: Seat) -> None:
        object.__setattr__(self, "_seat", seat)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self._seat, name)


@pytest.mark.parametrize("mine", [False, True])
def test_the_cache_key_reads_every_field_the_projection_reads(mine):
    g = _dealt()
    for s in g.seats[:3]:  # (each branch of the projection)
        s.actives_up, s.moved, s.shown = False, 1, True
    for i in range(len(g.seats)):
        seat = _Reads(g.seats[i])
        g.seats[i] = seat  # type: ignore[call-overload]
        player_view(g, i, i if mine else None)
        projected = set(seat.read)
        seat.read.clear()
        key = wire._seat_key(seat)  # type: ignore[arg-type]
        assert projected <= seat.read, projected - seat.read
        assert key[1] == wire._own_key(seat)  # type: ignore[arg-type]
        g.seats[i] = seat._seat


def test_an_unchanged_seat_is_not_projected_again(monkeypatch):
    g = _dealt()
    calls: list[tuple[int, int | None]] = []
    real = wire.player_view
    monkeypatch.setattr(wire, "player_view", lambda state, i, viewer:
                        calls.append((i, viewer)) or real(state, i, viewer))
    msgs = StateMessages()
    msgs.build(g, [None, 2], [], {}, {}, lambda v, cards: [])
    assert set(calls) == {(i, None) for i in range(7)} | {(2, 2)} and len(calls) == 8
    calls.clear()
    g.seats[4].chips += 1
    g.seats[5].acted = not g.seats[5].acted  # (read by no projection)
    msgs.build(g, [None, 2], [], {}, {}, lambda v, cards: [])
    assert calls == [(4, None)]


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
def test_an_events_public_form_is_written_as_its_redaction_would_be(preset):
    """A private event's public JSON is written from its own fields, without making the
    redacted event: the same text and cards as ``e.redacted_for(None)`` gives, for every
    event of a game (the stock dealt privately among them)."""
    import random

    from pokeroulette_tui.engine.cards import Card
    from pokeroulette_tui.engine.events import Event

    g = new_game(PRESETS[preset].replace(suit_order="SHDC"), ["Ana", "Bo", "Cy", "Di"], seed=3)
    rng = random.Random(3)
    seen: list[Event] = [Event("peek", 'Ana sees "7h"\n', seat=0, cards=(Card(7, "H"), None),
                               private=True, public_text="Ana peeks ✓", hand_no=2, amount=-1)]
    for __ in range(300):
        if g.game_over:
            break
        seen += apply(g, rng.choice(legal_actions(g, None if dealer_to_act(g) else g.to_act)))
    assert sum(e.private for e in seen) > 5
    for e in seen:
        r = e.redacted_for(None)
        assert wire._public_event(e) == (wire._dumps(r.to_dict()), r.cards), e
