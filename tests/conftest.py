"""Shared test helpers.

Engine helpers: build games, rig shuffles so a test knows every card, move
cards to the top of the deck, drive the dealer, and play random legal games.
"""

from __future__ import annotations

import json
import os
import random
from typing import Iterable, Iterator, Sequence

import pytest

# The tests read English words (snapshots, messages) whatever the machine's locale: the app and
# the commands it starts speak the locale's language (see engine/i18n.py).
for _var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"

from pokeroulette_tui.engine.actions import (Action, AllIn, Call, Check, Cut, Discard, Leave,
                                             MoveStockToActive, PlaceBet, RaiseTo)
from pokeroulette_tui.engine.cards import Card, parse_card, parse_cards
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import (apply, check, check_invariants, dealer_to_act,
                                          legal_actions, new_game)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.state import LEFT, GameState



@pytest.fixture(autouse=True)
def _english():
    """Each test starts in English, and a test that switches language leaves English behind."""
    from pokeroulette_tui.engine.i18n import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def _privacy_screen_at_once(monkeypatch):
    """The hot-seat privacy screen takes Enter at once in tests (a player's keys come as
    fast as the tests press them); tests/test_ui_hotseat.py checks its guard itself."""
    monkeypatch.setattr("pokeroulette_tui.ui.screens.privacy.PrivacyScreen.GUARD", 0.0)


@pytest.fixture
async def served(tmp_path):
    """A card room served on loopback for one SSH test (tests/ssh_helpers.py)."""
    from ssh_helpers import serve_room

    room = await serve_room(tmp_path)
    yield room
    await room.close()


NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")


def C(text: str) -> list[Card]:
    """Cards from text: ``C("As Td *")``."""
    return parse_cards(text)


def c1(text: str) -> Card:
    """One card from text."""
    return parse_card(text)


def game(n: int = 3, *, seed: int = 1, preset: str | None = None, **opts) -> GameState:
    """A new table of ``n`` players (Ana, Bo, Cy, ...) with rule options ``opts``.

    Unless given, the suit order is fixed ("SHDC") so a test does not depend on
    the suit draw; pass ``suit_order="drawn"`` to test the draw.
    """
    base = PRESETS[preset] if preset else RuleSet()
    if "suit_order" not in opts:
        opts["suit_order"] = "SHDC"
    if n == 2 and "min_players" not in opts and base.min_players > 2:
        opts["min_players"] = 2
    rules = base.replace(**opts)
    names = [NAMES[i] if i < len(NAMES) else f"P{i + 1}" for i in range(n)]
    return new_game(rules, names, seed=seed)


class RiggedRandom(random.Random):
    """A seeded generator whose next shuffles put chosen cards on top.

    ``plans`` is a queue, one entry a shuffle: ``None`` = an honest shuffle; a list
    of cards = those cards are dealt first, in that order (the rest stays shuffled
    below). Every shuffled card becomes a fresh object, so a test can follow one
    physical card by identity even when several decks repeat its value.
    """

    def __init__(self, seed: int = 0, plans: Sequence[Sequence[Card] | None] = ()) -> None:
        super().__init__(seed)
        self.plans: list[Sequence[Card] | None] = list(plans)

    def shuffle(self, x) -> None:  # type: ignore[override]
        super().shuffle(x)
        x[:] = [Card(card.rank, card.suit) for card in x]
        if self.plans:
            top = self.plans.pop(0)
            if top is not None:
                arrange_top(x, top)


def arrange_top(deck: list[Card], top: Sequence[Card]) -> None:
    """Reorder ``deck`` in place (top = end) so ``top`` are the next cards dealt, in order."""
    rest = list(deck)
    chosen = []
    for card in top:
        for k in range(len(rest) - 1, -1, -1):
            if rest[k] == card:
                chosen.append(rest.pop(k))
                break
        else:
            raise AssertionError(f"{card} is not in the deck to put on top")
    deck[:] = rest + list(reversed(chosen))


def rig(state: GameState, *plans: Sequence[Card] | None, seed: int = 7) -> RiggedRandom:
    """Give ``state`` a rigged generator; its next shuffles follow ``plans``."""
    rng = RiggedRandom(seed, plans)
    state.rng = rng
    state.seeded = True
    return rng


def put_on_top(state: GameState, cards: Iterable[Card]) -> None:
    """Reorder the live deck so ``cards`` are dealt next, in order (cards are conserved)."""
    arrange_top(state.deck, list(cards))


def roulette_deal_order(stocks: Sequence[str], actives: Sequence[str], match: str) -> list[Card]:
    """The cards in dealing order for a rigged Poker Roulette deal.

    ``stocks[k]`` and ``actives[k]`` (two cards) belong to the k-th player dealt
    (the first left of the button). Stock cards go round first, then a first active
    to each, then a second active to each, then the match card.
    """
    act = [C(a) for a in actives]
    order = [c1(s) for s in stocks]
    order += [a[0] for a in act] + [a[1] for a in act]
    order.append(c1(match))
    return order


def play(state: GameState, action: Action) -> list[Event]:
    """Apply ``action`` and assert the engine's invariants hold afterwards."""
    events = apply(state, action)
    problems = check_invariants(state)
    assert not problems, problems
    return events


def dealer(state: GameState, steps: int = 1) -> list[Event]:
    """Take ``steps`` dealer steps (StartHand or Advance)."""
    out: list[Event] = []
    for _ in range(steps):
        (action,) = legal_actions(state, None)
        out += play(state, action)
    return out


def passive(state: GameState, limit: int = 10_000) -> list[Event]:
    """Play until the hand is over: the dealer deals, every seat checks or calls,
    stock-to-active keeps, the draw stands pat, cuts go in the middle."""
    out: list[Event] = []
    for _ in range(limit):
        if state.game_over or state.phase in ("hand_over",):
            return out
        out += step_passive(state)
    raise AssertionError("hand did not end")


def step_passive(state: GameState) -> list[Event]:
    """One passive step (see :func:`passive`)."""
    if dealer_to_act(state):
        return dealer(state)
    seat = state.to_act
    legal = legal_actions(state, seat)
    for kind in (Check, Call, MoveStockToActive, Discard, Cut):
        for a in legal:
            if isinstance(a, kind):
                if isinstance(a, MoveStockToActive) and a.index is not None:
                    continue
                if isinstance(a, Discard) and a.indices:
                    continue
                if isinstance(a, Cut):
                    a = Cut(seat=seat, position=len(state.deck) // 2)
                return play(state, a)
    for a in legal:  # facing a bet bigger than the stack: all in
        if isinstance(a, AllIn):
            return play(state, a)
    raise AssertionError(f"no passive action in {legal}")


def until(state: GameState, phase: str, limit: int = 10_000) -> list[Event]:
    """Play passively until ``state.phase == phase``."""
    out: list[Event] = []
    for _ in range(limit):
        if state.phase == phase:
            return out
        if state.game_over:
            raise AssertionError(f"game over before phase {phase}")
        out += step_passive(state)
    raise AssertionError(f"never reached {phase}")


def set_chips(state: GameState, chips: dict[int, int]) -> None:
    """Give seats these stacks (before a hand), keeping the chip total consistent."""
    for seat, amount in chips.items():
        state.seats[seat].chips = amount
    state.total_chips = state.chips_in_play()


def deal_draw(state: GameState, hands: dict[int, str]) -> list[Event]:
    """Start a five-card draw hand in which seat ``k`` is dealt ``hands[k]`` exactly.

    The dealer shuffles, the deck is arranged (one filler card on top, then the
    wanted cards in dealing order) and the cutter cuts one card, which sends the
    filler to the bottom. Seats not named get whatever comes.
    """
    events = dealer(state)  # StartHand: shuffle, asks for the cut
    assert state.phase == "cut", state.phase
    order = state.live_seats()
    want = {seat: C(text) for seat, text in hands.items()}
    wanted = [card for cards in want.values() for card in cards]
    pool = list(state.deck)
    for card in wanted:
        pool.remove(card)
    spare = iter(pool)
    sequence = []
    for k in range(5):
        for seat in order:
            sequence.append(want[seat][k] if seat in want else next(spare))
    filler = next(card for card in pool if card not in sequence)
    put_on_top(state, [filler] + sequence)
    events += play(state, Cut(seat=state.to_act, position=1))
    for seat, cards in want.items():
        assert state.seats[seat].hand == cards
    return events


def roulette_to_showdown(state: GameState, stocks: dict[int, str]) -> list[Event]:
    """From a freshly dealt Poker Roulette hand, give each seat ``stocks[k]`` (the first card
    is the private stock card), empty the actives and the deck (all to the discard pile), and
    let the dealer end the matching phase. Returns the events of that dealer step.
    """
    assert state.phase == "dealt", state.phase
    pool = list(state.deck) + list(state.discards)
    if state.match is not None:
        pool.append(state.match)
    for s in state.seats:
        pool += s.stock + s.actives
        s.stock, s.stock_public, s.actives = [], [], []
    for seat, text in stocks.items():
        cards = C(text)
        for card in cards:
            pool.remove(card)
        s = state.seats[seat]
        s.stock = cards
        s.stock_public = [False] + [True] * (len(cards) - 1)
    for s in state.seats:
        if s.live:
            assert s.stock, "every live seat needs a stock"
    state.match = None
    state.deck = []
    state.reshuffled = True  # the discards must not come back as a new deck
    state.discards, state.discards_public = pool, [True] * len(pool)
    state.phase = "matched"
    state.to_act = None
    assert not check_invariants(state), check_invariants(state)
    return dealer(state)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def state_json(state: GameState) -> str:
    """The whole state as canonical JSON (for 'state unchanged' checks)."""
    return json.dumps(state.to_dict(), sort_keys=True)


def random_action(state: GameState, rng: random.Random, *, leave_chance: float = 0.0) -> Action:
    """A random legal action: the dealer's step, or the seat to act's choice with random
    amounts, cut points and discards; sometimes a random seat leaves."""
    if leave_chance and rng.random() < leave_chance:
        seats = [i for i, s in enumerate(state.seats) if s.status != LEFT]
        if seats:
            return Leave(seat=rng.choice(seats))
    if dealer_to_act(state):
        return legal_actions(state, None)[0]
    seat = state.to_act
    assert seat is not None, f"nobody to act in phase {state.phase}"
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} has no legal action in phase {state.phase}"
    a = rng.choice(legal)
    if isinstance(a, (PlaceBet, RaiseTo)):
        lo = min(x.amount for x in legal if type(x) is type(a))
        hi = max(x.amount for x in legal if type(x) is type(a))
        amount = rng.choice([lo, hi, rng.randint(lo, hi)])
        a = type(a)(seat=seat, amount=amount)
    elif isinstance(a, Cut):
        a = Cut(seat=seat, position=rng.randint(1, len(state.deck) - 1))
    elif isinstance(a, Discard):
        k = rng.randint(0, state.rules.max_draw)
        a = Discard(seat=seat, indices=tuple(rng.sample(range(5), k)))
    return a


def random_game(state: GameState, rng: random.Random, *, leave_chance: float = 0.0,
                max_steps: int = 20_000) -> Iterator[tuple[Action, list[Event]]]:
    """Play random legal actions to the end of the game, yielding each (action, events)."""
    for _ in range(max_steps):
        if state.game_over:
            return
        a = random_action(state, rng, leave_chance=leave_chance)
        check(state, a)
        yield a, apply(state, a)
    raise AssertionError("the game did not end")
