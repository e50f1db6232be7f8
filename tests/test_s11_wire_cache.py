"""The state-line builder's caches (net/wire.py) against building from nothing.

``StateMessages`` keeps, from one build to the next, each player's public entry by field, the
view's head by field, each seat's own entry, the public cards' committed indices and, in the
committer, what each viewer was opened last. Over random games of every preset (folds,
raises, seats that leave, reshuffles, showdowns, new hands, and two decks at seven seats),
every line of a long-lived builder is byte for byte the line a new builder makes from the
same state with the plain ``reveal(seat, cards)`` path, and every delta applied to the last
view is that view: a cache that missed a change shows here."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from net_helpers import seeded_nonces

from pokeroulette_tui.engine.actions import Leave
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.net import wire
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.wire import StateMessages

GAMES = [
    ("classic", 5, 1), ("swedish", 5, 2), ("pagat", 5, 3), ("draw", 5, 4),
    ("classic", 7, 5),  # two decks: equal cards, distinct objects
    ("pagat", 7, 6),
]


def _rules(preset: str) -> RuleSet:
    r = PRESETS[preset].replace(suit_order="SHDC")
    return r if preset == "draw" else r.replace(betting="each_round")


def _apply_delta(view: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    out = {**view, **d["view"]}
    out["players"] = [dict(p) for p in view["players"]]
    for i, fields in d["players"]:
        out["players"][i].update(fields)
    return out


@pytest.mark.parametrize("preset,n,seed", GAMES)
def test_cached_lines_are_the_lines_built_from_nothing(preset, n, seed):
    g = new_game(_rules(preset), [f"P{i}" for i in range(n)], seed=seed)
    install_tracking(g)
    fast, plain, third = (DeckCommitter(seeded_nonces(seed)) for __ in range(3))
    cached, deltas = StateMessages(), StateMessages()
    rng = random.Random(seed)
    viewers = [None, *range(n)]
    last: dict[int | None, dict[str, Any]] = {}
    events: list = []
    reshuffles = hands = 0
    for step in range(260):
        kept = list(g.rng.reshuffled)  # every committer sees the same reshuffles
        reshuffles += bool(kept)
        for c in (fast, plain, third):
            g.rng.reshuffled[:] = kept
            c.refresh(g)
        head = {"type": "state", "version": step}
        tail = {"turn": g.to_act, "deadline_in": 1.5}
        one = cached.build(g, viewers, events, head, tail, fast)
        fresh = StateMessages().build(g, viewers, events, head, tail,
                                      lambda seat, cards: plain.reveal(seat, cards))
        assert one == fresh, f"step {step}"
        for seat in viewers:
            want = view_for(g, seat).to_dict()
            del want["rules"]
            assert json.loads(one[seat])["view"] == json.loads(json.dumps(want))
        # the same step as a broadcast: some viewers want deltas, the others whole lines
        asked = [s for s in viewers if rng.random() < 0.7]
        out: dict[int | None, bytes] = {}
        whole = deltas.build(g, [s for s in viewers if s not in asked], events, head, tail,
                             third, deltas=asked, track=True, delta_out=out)
        for seat in viewers:
            line = json.loads(out[seat] if seat in asked else whole[seat])
            if "base" in line:
                assert line["base"] == line["serial"] - 1
                view = _apply_delta(last[seat], line)
            else:
                view = line["view"]
            want = json.loads(fresh[seat])
            assert view == want["view"], f"step {step}, seat {seat}"
            assert line["reveals"] == want["reveals"] and line["events"] == want["events"]
            last[seat] = view
        if step % 17 == 5:  # a catch-up line between broadcasts (untracked)
            seat = rng.choice(viewers)
            again = deltas.build(g, [seat], events, head, tail, third)[seat]
            assert json.loads(again)["view"] == json.loads(fresh[seat])["view"]
        if g.game_over:
            break
        hands += any(e.kind == "hand_started" for e in events)
        legal = legal_actions(g, None if dealer_to_act(g) else g.to_act)
        if not dealer_to_act(g) and rng.random() < 0.01:
            live = [i for i, s in enumerate(g.seats) if s.status != "left"]
            legal = [Leave(seat=rng.choice(live))]
        events = apply(g, rng.choice(legal))
    assert step > 60 and hands >= 1


def test_a_card_swapped_for_an_equal_one_of_the_other_deck_opens_its_own_index():
    """Two decks hold equal cards: the public cards' indices are cached by the card objects,
    so an equal card in the same place is still a different opening."""
    g = new_game(_rules("classic"), [f"P{i}" for i in range(7)], seed=8)
    install_tracking(g)
    fast, plain = DeckCommitter(seeded_nonces(1)), DeckCommitter(seeded_nonces(1))
    while not any(s.stock for s in g.seats):
        apply(g, legal_actions(g, None if dealer_to_act(g) else g.to_act)[0])
    for c in (fast, plain):
        kept = list(g.rng.reshuffled)
        c.refresh(g)
        g.rng.reshuffled[:] = kept
    msgs = StateMessages()
    seat = next(i for i, s in enumerate(g.seats) if s.stock)
    s = g.seats[seat]
    s.stock_public = [True] * len(s.stock)
    viewers = [None, 0, 1]
    head, tail = {"type": "state"}, {"turn": None}
    plain_reveal = lambda v, cards: plain.reveal(v, cards)  # noqa: E731
    assert msgs.build(g, viewers, [], head, tail, fast) == \
        StateMessages().build(g, viewers, [], head, tail, plain_reveal)
    card = s.stock[0]
    twin = next(c for c in g.deck if c == card and c is not card)  # the other deck's
    k = g.deck.index(twin)
    g.deck[k], s.stock[0] = card, twin
    one = msgs.build(g, viewers, [], head, tail, fast)
    assert one == StateMessages().build(g, viewers, [], head, tail, plain_reveal)
    opened = json.loads(one[None])["reveals"]
    assert [o[0] for o in opened] == [fast.indices([twin])[0]]


def test_a_head_field_is_encoded_again_when_only_its_type_or_a_dicts_contents_change():
    g = new_game(_rules("classic"), ["Ana", "Bo", "Cy"], seed=1)
    v = view_for(g, None)
    values = list(wire._HEAD(v))
    at = wire._HEAD_FIELDS.index("button")
    res = wire._HEAD_FIELDS.index("result")
    values[at], values[res] = 1, {"hands": []}
    first = wire._head_fields(tuple(values), None, None)
    assert first[at] == '"button":1' and first[res] == '"result":{"hands":[]}'
    second = list(values)
    second[at] = True  # equal to 1, and written otherwise
    second[res]["hands"].append(2)  # the same dict, changed in place
    again = wire._head_fields(tuple(second), tuple(values), first)
    assert again[at] == '"button":true' and again[res] == '"result":{"hands":[2]}'
    assert again[0] is first[0]  # (the others kept)


def test_the_committers_last_opening_is_forgotten_with_a_new_shoe():
    g = new_game(_rules("classic"), ["Ana", "Bo", "Cy"], seed=1)
    install_tracking(g)
    committer = DeckCommitter(seeded_nonces(1))
    apply(g, legal_actions(g, None)[0])
    committer.refresh(g)
    first = committer.open(0, [0, 1, 2])
    assert [o[0] for o in first] == [0, 1, 2]
    assert committer.open(0, [0, 1, 2]) == []
    assert [o[0] for o in committer.open(0, [2, 3])] == [3]
    g.shoe_order = list(g.shoe_order)  # a new shoe (the next hand's)
    committer.refresh(g)
    again = committer.open(0, [0, 1, 2])
    assert [o[0] for o in again] == [0, 1, 2] and again != first  # new nonces
    committer.revealed = {}  # (as a restore does)
    assert [o[0] for o in committer.open(0, [0, 1, 2])] == [0, 1, 2]


def test_an_event_is_written_as_its_dict_would_be():
    from pokeroulette_tui.engine.events import Event

    cases = [Event("check", 'Bo says "hi" ✓\n', seat=1),
             Event("stock_dealt", "Ana gets 7h", seat=0, cards=(Card(7, "H"), None),
                   private=True, public_text="Ana gets a card", hand_no=3, amount=-2)]
    for e in cases:
        assert wire._event_json(e) == wire._dumps(e.to_dict())


@pytest.mark.parametrize("head", [
    {"type": "state", "version": 7}, {},
    {"a": [1, {"b": None}], "é": 1.5, "t": True, "s": 'x"\u2028'}, {1: "not a text key"}])
def test_a_head_is_written_as_the_encoder_writes_it(head):
    assert wire._object_json(head) == wire._dumps(head)
