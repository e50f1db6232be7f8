"""SeatView: no seat (and no spectator) ever sees a card the rules keep from it.

The leak tests follow physical cards by identity: a rigged generator makes every shuffled
card a fresh object, so a card in a view is matched to *the* card in the state (several
decks repeat values, so comparing values would not prove anything). A viewer may see a
card only if it was shown to everyone by a public event, or to that viewer by one of its
own private events.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import C, dealer, game, play, random_game, rig, roulette_deal_order
from pokeroulette_tui.engine.actions import Cut, MoveStockToActive, StartHand
from pokeroulette_tui.engine.events import Event, redact_all
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import SeatView, view_for


class Knowledge:
    """Which physical cards each viewer has been shown, from the events."""

    def __init__(self, n: int) -> None:
        self.public: set[int] = set()
        self.private: dict[int, set[int]] = {i: set() for i in range(n)}
        self.keep: list = []  # keeps card objects alive so their ids are never reused

    def learn(self, events: list[Event]) -> None:
        for e in events:
            cards = [c for c in e.cards if c is not None]
            self.keep.extend(cards)
            if e.private:
                self.private[e.seat].update(id(c) for c in cards)
            else:
                self.public.update(id(c) for c in cards)

    def may_see(self, viewer: int | None) -> set[int]:
        return self.public | (self.private[viewer] if viewer is not None else set())


def check_view(state, viewer, know: Knowledge, wire: bool = True) -> None:
    v = view_for(state, viewer)
    allowed = know.may_see(viewer)
    for card in v.all_cards():
        assert id(card) in allowed, (
            f"seat {viewer} sees {card} (phase {state.phase}, hand {state.hand_no}) "
            f"that no event showed it")
    # position by position, the projection follows the zones
    for j, (p, s) in enumerate(zip(v.players, state.seats)):
        assert len(p.stock) == len(s.stock) and len(p.hand) == len(s.hand)
        assert len(p.actives) == len(s.actives)
        for k, (seen, card, public) in enumerate(zip(p.stock, s.stock, s.stock_public)):
            if viewer == j or public:
                assert seen is card
            else:
                assert seen is None, f"seat {viewer} sees seat {j}'s private stock card"
        if viewer != j and not s.shown:
            assert all(c is None for c in p.hand), f"seat {viewer} sees seat {j}'s hand"
        if viewer == j:
            assert all(a is b for a, b in zip(p.hand, s.hand))
        if not s.actives_up and not (s.moved == 1 or (s.moved == 2 and viewer == j)):
            assert all(c is None for c in p.actives)
    for seen, card, public in zip(v.discards, state.discards, state.discards_public):
        assert seen is (card if public else None)
    if v.result:
        for hand in v.result.hands:
            assert state.seats[hand.seat].shown
    if wire:  # the JSON form carries exactly the same faces
        data = json.loads(json.dumps(v.to_dict()))
        assert SeatView.from_dict(data) == v


def check_events(events: list[Event], n: int) -> None:
    for e in events:
        for viewer in [None, *range(n)]:
            r = e.redacted_for(viewer)
            if e.private and viewer != e.seat:
                assert all(c is None for c in r.cards)
                for card in e.cards:
                    if card is not None:
                        assert card.symbol not in r.text, (e, viewer)
                assert r.public_text == ""
            else:
                assert r == e


CASES = [(preset, n, seed) for seed, (preset, n) in enumerate(
    [("classic", 3), ("classic", 5), ("classic", 7), ("classic", 11), ("swedish", 4),
     ("swedish", 6), ("pagat", 3), ("pagat", 8), ("pagat", 12), ("draw", 2), ("draw", 4),
     ("draw", 7), ("classic", 2), ("swedish", 10)])]


@pytest.mark.parametrize("preset,n,seed", CASES)
def test_view_no_seat_sees_another_seats_private_cards(preset, n, seed):
    opts = {"min_players": 2, "hand_limit": 3 if n <= 6 else 2}
    if preset == "draw":
        opts.update(betting="each_round", scoring="chips")
    g = game(n, preset=preset, seed=seed, **opts)
    rig(g, seed=seed)
    know = Knowledge(n)
    rng = random.Random(seed)
    steps = 0
    for _, events in random_game(g, rng, leave_chance=0.003 if n > 2 else 0.0):
        know.learn(events)
        check_events(events, n)
        for viewer in [None, *range(n)]:
            check_view(g, viewer, know, wire=steps % 5 == 0)
        steps += 1
    assert g.game_over and steps >= 5


def test_view_spectator_sees_only_public_cards_mid_hand():
    g = game(4)
    play(g, StartHand())
    v = view_for(g, None)
    assert v.seat is None and v.me is None and not v.my_turn
    assert all(p.stock == (None,) for p in v.players)
    assert all(c is None for p in v.players for c in p.actives)
    assert v.match == g.match and v.deck_count == len(g.deck)


def test_view_moved_private_stock_card_is_seen_by_its_owner_only():
    g = game(3, betting="none", stock_to_active=True)
    rig(g, roulette_deal_order(["2c", "3c", "4c"], ["5d 6d", "9h 8h", "7d 8d"], "Ah"))
    play(g, StartHand())
    dealer(g)
    dealer(g)
    play(g, MoveStockToActive(seat=1, index=0))
    assert view_for(g, 1).players[1].actives[-1] == C("2c")[0]
    assert view_for(g, 0).players[1].actives == (None, None)
    assert view_for(g, None).players[1].actives == (None, None)


def test_view_redact_all_hides_private_events_from_others():
    g = game(3)
    events = play(g, StartHand())
    mine = redact_all(events, 0)
    theirs = redact_all(events, 1)
    own = [e for e in mine if e.kind == "stock_dealt" and e.seat == 0]
    other = [e for e in theirs if e.kind == "stock_dealt" and e.seat == 0]
    assert own[0].cards == tuple(g.seats[0].stock)
    assert other[0].cards == (None,) and other[0].text == "Ana gets a stock card face down"


def test_view_round_trips_through_json_for_every_seat():
    g = game(3, preset="draw", betting="each_round", scoring="chips")
    play(g, StartHand())
    play(g, Cut(seat=2, position=5))
    for viewer in (None, 0, 1, 2):
        v = view_for(g, viewer)
        text = json.dumps(v.to_dict())
        assert SeatView.from_dict(json.loads(text)) == v
    v = view_for(g, 1)
    assert v.my_turn and v.options is not None and v.me.seat == 1


def test_view_event_json_round_trip():
    g = game(3)
    for e in play(g, StartHand()):
        assert Event.from_dict(json.loads(json.dumps(e.to_dict()))) == e
        r = e.redacted_for(2)
        assert Event.from_dict(json.loads(json.dumps(r.to_dict()))) == r


@pytest.mark.parametrize("preset", list(PRESETS))
def test_view_hidden_cards_never_in_other_seats_json(preset):
    """A value check on the wire form too: the JSON of seat 1's view names none of seat 0's
    private cards unless the same value is visible to seat 1 somewhere else."""
    n = 3
    g = game(n, preset=preset)
    play(g, StartHand())
    if g.phase == "cut":
            play(g, Cut(seat=g.to_act, position=26))
    secret = g.seats[0].hand if preset == "draw" else g.seats[0].stock[:1]
    view = view_for(g, 1)
    visible = {c.text for c in view.all_cards()}
    text = json.dumps(view.to_dict())
    for card in secret:
        if card.text not in visible:
            assert f'"{card.text}"' not in text


def test_view_leak_checker_catches_a_leaky_projection(monkeypatch):
    """The checker above is not vacuous: a projection that shows private stock cards fails,
    even at a two-deck table where the same values are public elsewhere."""
    import dataclasses
    import sys

    g = game(6)
    rig(g, seed=5)
    know = Knowledge(6)
    know.learn(play(g, StartHand()))
    real = view_for

    def leaky(state, seat):
        v = real(state, seat)
        players = tuple(dataclasses.replace(p, stock=tuple(state.seats[p.seat].stock))
                        for p in v.players)
        return dataclasses.replace(v, players=players)

    check_view(g, 1, know)
    monkeypatch.setattr(sys.modules[__name__], "view_for", leaky)
    with pytest.raises(AssertionError, match="sees"):
        check_view(g, 1, know)
