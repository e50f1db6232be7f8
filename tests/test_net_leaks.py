"""What each seat is sent, byte for byte: no card it may not see (leak test), and nothing
that depends on cards hidden from it (non-interference)."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from typing import Any

import pytest

from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net import host as host_module
from pokeroulette_tui.net.commit import TrackingRandom, install_tracking

from net_helpers import RawClient, Served, cards_in

TIMEOUT = 60


class RandomClient(RawClient):
    """Plays random legal-looking choices (folds, bets, raises, discards, moves, cuts)."""

    def __init__(self, name: str, seed: int) -> None:
        super().__init__(name)
        self.rng = random.Random(seed)

    def policy(self, view: dict[str, Any]) -> dict[str, Any] | None:
        base = super().policy(view)
        if base is None:
            return None
        r = self.rng
        phase = view["phase"]
        if phase == "betting":
            o = view["options"]
            choices = [base, base, {"type": "fold"}]
            if o["bet_min"]:
                choices.append({"type": "bet", "amount": o["bet_min"]})
            if o["raise_min"]:
                choices.append({"type": "raise", "amount": o["raise_min"]})
            return r.choice(choices)
        if phase == "draw":
            return {"type": "discard", "indices": r.sample(range(5), r.randint(0, 3))}
        if phase == "stock_to_active":
            n = len(view["players"][self.seat]["stock"])
            return {"type": "stock_to_active", "index": r.choice([None] + list(range(n)))}
        if phase == "cut":
            return {"type": "cut", "position": r.randint(1, view["deck_count"] - 1)}
        return base


def ground_truth(srv: Served) -> tuple[dict, dict]:
    """From the server's unredacted history: private cards per (hand, seat), public cards per
    hand."""
    private: dict[tuple[int, int], set[str]] = defaultdict(set)
    public: dict[int, set[str]] = defaultdict(set)
    for hand in srv.host.table.history:
        for e in hand:
            texts = {c.text for c in e.cards if c is not None}
            if e.private:
                private[(e.hand_no, e.seat)] |= texts
            else:
                public[e.hand_no] |= texts
    return private, public


def stream_cards(client: RawClient):
    """(hand number, card) for every card in every message the client received."""
    for raw in client.raw:
        msg = json.loads(raw)
        if msg["type"] == "state":
            h = msg["view"]["hand_no"]
            for key in ("view", "reveals"):
                for card in cards_in(msg[key]):
                    yield h, card, key
            for e in msg["events"]:
                for card in cards_in(e):
                    yield e["hand_no"], card, "event"
        elif msg["type"] != "history":
            for card in cards_in(msg):
                yield -1, card, msg["type"]


@pytest.mark.parametrize("preset, extra", [
    ("classic", {}),
    ("swedish", {"stock_to_active": True}),
    ("draw", {"betting": "each_round", "scoring": "chips"}),
])
async def test_no_seat_is_ever_sent_a_card_it_may_not_see(preset, extra):
    rules = PRESETS[preset].replace(suit_order="SHDC", starting_chips=100_000, **extra)
    hands = 25
    async with Served(rules, bots=1, seed=2024) as srv:
        players = [RandomClient(n, seed=i) for i, n in enumerate(("Ana", "Bo", "Cy"))]
        spy = RawClient("Spy", spectate=True)
        for c in players:
            await c.connect(srv.port)
        await spy.connect(srv.port)
        for c in players:
            await c.send({"type": "ready", "ready": True})

        async def watch():
            while not any(m["type"] == "state" and (m["view"]["hand_no"] > hands
                                                    or m["view"]["game_over"])
                          for m in spy.msgs[-3:]):
                await spy.recv()

        await asyncio.wait_for(asyncio.gather(*(c.play(hands=hands) for c in players), watch()),
                               TIMEOUT)
        private, public = ground_truth(srv)
        played = srv.host.table.state.hand_no
        assert played >= 5
        total = 0
        for viewer in players + [spy]:
            for h, card, where in stream_cards(viewer):
                assert h != -1, f"a card outside any hand in a {where} message"
                if h == 0:
                    continue  # the suit-ranking draw before the first hand
                seen_ok = public[h] | private[(h, viewer.seat)] if viewer.seat is not None \
                    else public[h]
                hidden = set().union(*(private[(h, s)] for s in range(4) if s != viewer.seat))
                assert not (card in hidden and card not in seen_ok), \
                    f"{viewer.name} was sent {card} ({where}) in hand {h}"
                total += 1
        assert total > 500


# -- non-interference ---------------------------------------------------------------------

class PermutingRandom(TrackingRandom):
    """Deals the same as TrackingRandom, except that in the first hand the cards hidden from
    ``viewer`` (the other seats' private cards) are permuted among those seats."""

    state = None
    viewer = 0
    done = False

    def shuffle(self, x):  # type: ignore[override]
        super().shuffle(x)
        st = self.state
        if self.done or st is None or len(x) < 52:
            return
        self.done = True
        order = st.in_hand_order(st.button + 1)
        n = len(order)
        if st.rules.variant == "roulette":
            # the first n cards dealt (the end of the list) are the private stock cards
            spots = {seat: [len(x) - 1 - k] for k, seat in enumerate(order)}
        else:
            p = len(x) // 2  # the cutter's choice in these tests: the middle
            spots = {seat: [] for seat in order}
            for r in range(5):
                for k, seat in enumerate(order):
                    j = len(x) - 1 - (r * n + k)           # position after the cut
                    spots[seat].append(len(x) - p + j if j < p else j - p)
        others = [s for s in order if s != self.viewer]
        hands = [[x[i] for i in spots[s]] for s in others]
        hands = hands[1:] + hands[:1]                         # rotate the hidden hands
        for s, cards in zip(others, hands):
            for i, c in zip(spots[s], cards):
                x[i] = c


async def _one_run(rules: RuleSet, *, permute: bool, monkeypatch,
                   names=("Ana", "Bo", "Cy"), bots: int = 1) -> tuple[list[bytes], Any]:
    made = []

    def install(state):
        install_tracking(state)
        if permute:
            rng = PermutingRandom()
            rng.setstate(state.rng.getstate())
            rng.state = state
            state.rng = rng
        made.append(state)

    monkeypatch.setattr(host_module, "install_tracking", install)
    async with Served(rules, bots=bots, seed=77) as srv:
        clients = [RawClient(n) for n in names]
        for c in clients:
            await c.connect(srv.port)
        for c in clients:
            await c.send({"type": "ready", "ready": True})
        await asyncio.wait_for(asyncio.gather(*(c.play(hands=1) for c in clients)), TIMEOUT)
        stock = [[c.text for c in e.cards] for e in srv.host.table.history[0]
                 if e.private and e.hand_no == 1]
        for c in clients:
            await c.close()
    return clients[0].raw, stock


def _before_showdown(raw: list[bytes]) -> list[Any]:
    out = []
    for line in raw:
        msg = json.loads(line)
        if msg["type"] == "state" and any(e["kind"] in ("show", "hand_over")
                                          for e in msg["events"]):
            break
        if msg["type"] == "commit":
            msg["commitments"] = f"<{len(msg['commitments'])} commitments>"
        if msg["type"] == "welcome":
            msg["token"] = "<random resume token>"
        out.append(msg)
    return out


@pytest.mark.parametrize("preset, extra, names, bots", [
    ("classic", {"betting": "each_round"}, ("Ana", "Bo", "Cy"), 1),
    ("draw", {}, ("Ana", "Bo", "Cy", "Di"), 0),  # people only: each cuts in the middle
])
async def test_a_seats_stream_does_not_depend_on_cards_hidden_from_it(preset, extra, names, bots,
                                                                       monkeypatch):
    rules = PRESETS[preset].replace(suit_order="SHDC", **extra)
    kw = {"monkeypatch": monkeypatch, "names": names, "bots": bots}
    plain, cards_a = await _one_run(rules, permute=False, **kw)
    permuted, cards_b = await _one_run(rules, permute=True, **kw)
    assert cards_a != cards_b                  # the others really held other cards
    a, b = _before_showdown(plain), _before_showdown(permuted)
    assert len(a) > 5 and a == b               # Ana (seat 0) could not tell
    assert plain[:len(a)] != permuted[:len(a)]  # … except by the hiding commitments
