"""The deck check proves what PROTOCOL.md §11 says: cards come from the places the deal
order gives them, the shoe holds what it should, one commitment a hand (issue 9)."""

from __future__ import annotations

import pytest
from net_helpers import Harness, make_host
from test_net_host import play_hands, started

from pokeroulette_tui.engine import roulette
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.net.commit import ALGORITHM, DeckVerifier, commitment


def verify(peer) -> DeckVerifier:
    """Feed a peer's messages to a verifier as the client does."""
    ver, rules, problems = DeckVerifier(), None, []
    for m in peer.inbox:
        if m["type"] == "lobby":
            rules = m["rules"]
        elif m["type"] == "commit":
            problems += ver.on_commit(m)
        elif m["type"] == "state":
            view = SeatView.from_dict({**m["view"], "rules": rules})
            events = [Event.from_dict(e) for e in m["events"]]
            problems += ver.on_state(view, events, m["reveals"])
            ver.seen = getattr(ver, "seen", 0) + len(m["reveals"])
    ver.all_problems = problems
    return ver


@pytest.mark.parametrize("preset", ["classic", "swedish", "draw", "pagat"])
def test_an_honest_dealer_passes_every_check(preset):
    rules = PRESETS[preset].replace(suit_order="SHDC")
    h, peers = started(4, rules=rules)
    watcher = h.join("W", spectate=True)
    play_hands(h, peers, 4)
    for p in [*peers, watcher]:
        ver = verify(p)
        assert ver.all_problems == [], (p.seat, ver.all_problems[:3])
        assert ver.seen > 5, p.seat


def test_a_dealer_who_deals_from_the_bottom_is_caught(monkeypatch):
    """The commitment is honest, but the stock cards come from the bottom of the shoe."""
    original = roulette.deal

    def bottom_deal(state):
        events = original(state)
        for s in state.seats:  # swap each stock card for the bottom card of the shoe
            if s.stock:
                s.stock[0], state.deck[0] = state.deck[0], s.stock[0]
        return events

    monkeypatch.setattr(roulette, "deal", bottom_deal)
    h, peers = started(4, rules=PRESETS["classic"].replace(suit_order="SHDC"))
    play_hands(h, peers, 1)
    found = [q for p in peers for q in verify(p).all_problems]
    assert any("your stock card" in q and "not dealt from its place" in q for q in found)


def _commit(cards, *, hand=1, decks=1, jokers=2, algorithm=ALGORITHM):
    nonces = [bytes([i % 256]) * 32 for i in range(len(cards))]
    msg = {"type": "commit", "hand_no": hand, "start": 0, "algorithm": algorithm,
           "commitments": [commitment(n, c) for n, c in zip(nonces, cards)],
           "decks": decks, "jokers": jokers, "shoe": len(cards)}
    return msg, nonces


def test_a_shoe_of_many_aces_of_spades_is_caught():
    msg, nonces = _commit(["As"] * 54)
    ver = DeckVerifier()
    assert ver.on_commit(msg) == []
    problems = ver.on_reveals([[0, nonces[0].hex(), "As"], [1, nonces[1].hex(), "As"]])
    assert problems == ["more As were opened than the shoe holds"]


def test_a_commitment_of_the_wrong_size_is_caught():
    msg, _ = _commit(["As"] * 50)
    assert "committed to 50 cards, not the 54" in DeckVerifier().on_commit(msg)[0]


def test_a_second_different_commitment_for_a_hand_is_a_failure_that_is_not_forgotten():
    msg, nonces = _commit(["As", "Kd"] * 27)
    ver = DeckVerifier()
    ver.on_commit(msg)
    assert ver.on_reveals([[0, "11" * 32, "As"]]) != []  # a bad opening: a problem found
    assert ver.on_commit(msg) == []                       # the same one again (a rejoin): fine
    assert ver.problems  # … and what was found is still there
    other, _ = _commit(["Kd", "As"] * 27)
    assert "second, different deck commitment" in ver.on_commit(other)[0]
    assert ver.commitments == msg["commitments"]


def test_an_unknown_algorithm_is_refused():
    msg, _ = _commit(["As"] * 54, algorithm="md5(card)")
    assert "not 'sha256(nonce || card)'" in DeckVerifier().on_commit(msg)[0]


def test_a_card_opened_from_the_undealt_shoe_is_caught():
    cards = ["2c"] * 54
    msg, nonces = _commit(cards, decks=27, jokers=0)  # (make-up not the point here)
    ver = DeckVerifier()
    ver.on_commit(msg)

    class V:  # a view where nothing has been dealt yet
        hand_no, deck_count, match, seat, button, players = 1, 54, None, None, 0, ()

    problems = ver.on_state(V(), [], [[53, nonces[53].hex(), "2c"]])
    assert any("has not been dealt yet" in p for p in problems)


def test_a_seeded_table_says_so():
    h = Harness(make_host(RuleSet(suit_order="SHDC"), seed=7))
    assert h.join("Ana").last("welcome")["seeded"] is True
    h2 = Harness(make_host(RuleSet(suit_order="SHDC"), seed=None))
    assert h2.join("Ana").last("welcome")["seeded"] is False


async def test_a_client_at_a_seeded_table_says_test_table_and_logs_deck_problems(monkeypatch):
    from net_helpers import Served, autoplay
    from pokeroulette_tui.net.client import RemoteSession

    original = roulette.deal

    def bottom_deal(state):
        events = original(state)
        for s in state.seats:
            if s.stock:
                s.stock[0], state.deck[0] = state.deck[0], s.stock[0]
        return events

    monkeypatch.setattr(roulette, "deal", bottom_deal)
    async with Served(RuleSet(suit_order="SHDC", betting="final_only"), bots=2, seed=5) as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana", reconnect=False)
        await ana.connect()
        await ana.set_ready()
        updates = await autoplay(ana, hands=1)
        assert ana.fairness.startswith("TEST TABLE, fixed shuffle (--seed)")
        logged = [e for u in updates for e in u.events if e.kind == "deck_check"]
        assert logged and "been dealt yet" in logged[0].text  # the bottom card, caught
        assert "FAILED" in ana.fairness  # for the rest of the hand
        await ana.close()
