"""What every bot level shares: reading a SeatView, hand values, the standard draw, and
turning an intended bet into a legal action."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from pokeroulette_tui.engine.actions import (Action, AllIn, Call, Check, Discard, Fold, PlaceBet,
                                             RaiseTo)
from pokeroulette_tui.engine.cards import Card, decks_for, make_shoe
from pokeroulette_tui.engine.hands import HandValue, evaluate
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView

__all__ = [
    "bet_to", "call_or_check", "check_or_fold", "discard", "draw_discards", "draw_value", "hand_of",
    "live_opponents", "objective", "pot_for", "roulette_value", "to_call", "unknown_cards",
]


# -- reading the view ------------------------------------------------------------

def live_opponents(view: SeatView) -> list[int]:
    """Seats still in the hand (not folded) other than the viewer."""
    return [p.seat for p in view.players if p.in_hand and not p.folded and p.seat != view.seat]


def pot_for(view: SeatView) -> int:
    """Chips in the pots the viewer could win by calling (current bets included): every
    contribution, each capped at what the viewer can put in."""
    me = view.me
    if me is None:
        return sum(a for a, _ in view.pots)
    cap = me.contributed + me.chips
    return sum(min(p.contributed, cap) for p in view.players)


def to_call(view: SeatView) -> int:
    """Chips the viewer must add to stay in (0 when it may check)."""
    me = view.me
    return max(0, view.current_bet - me.bet) if me else 0


def hand_of(view: SeatView) -> list[Card]:
    """The viewer's own cards: the stock in roulette, the five cards in draw."""
    me = view.me
    if me is None:
        return []
    cards = me.stock if view.rules.variant == "roulette" else me.hand
    return [c for c in cards if c is not None]


def objective(rules: RuleSet) -> str:
    """What a hand is played for: ``"chips"`` (pot share), ``"not_last"`` (forfeit: the weakest
    hand loses) or ``"best"`` (forfeit: everyone but the best hand loses)."""
    if rules.scoring == "forfeit":
        if rules.forfeit_mode == "weakest":
            return "not_last"
        if rules.forfeit_mode == "all_but_winner":
            return "best"
    return "chips"


def unknown_cards(view: SeatView, extra_known: Sequence[Card] = ()) -> list[Card]:
    """The shoe minus every card the viewer can see (plus ``extra_known``, cards it remembers).

    The suit draw is returned to the deck before the deal, so it is not subtracted.

    >>> from pokeroulette_tui.engine.game import new_game, apply
    >>> from pokeroulette_tui.engine.actions import StartHand
    >>> from pokeroulette_tui.engine.view import view_for
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(betting="none"), ["A", "B", "C"], seed=1)
    >>> _ = apply(g, StartHand())
    >>> len(unknown_cards(view_for(g, 0)))  # 54 minus my stock card and the match card
    52
    """
    rules = view.rules
    if rules.variant == "roulette":
        in_hand = sum(1 for p in view.players if p.in_hand)
        shoe = Counter(make_shoe(decks_for(max(1, in_hand)), jokers=True))
    else:
        shoe = Counter(make_shoe(1, jokers=False))
    seen: list[Card] = list(extra_known)
    for p in view.players:
        seen += [c for c in p.stock if c is not None]
        seen += [c for c in p.actives if c is not None]
        seen += [c for c in p.hand if c is not None]
    seen += [c for c in view.discards if c is not None]
    if view.match is not None:
        seen.append(view.match)
    shoe.subtract(Counter(seen))
    return sorted((+shoe).elements())


# -- hand values -----------------------------------------------------------------

def roulette_value(cards: Sequence[Card], rules: RuleSet,
                   suit_order: str | None = None) -> HandValue:
    """A stock's best hand under the table's joker and five-of-a-kind options."""
    return evaluate(cards, five_of_a_kind=rules.five_of_a_kind, jokers=rules.jokers_at_end,
                    suit_order=suit_order)


def draw_value(cards: Sequence[Card]) -> HandValue:
    return evaluate(cards)


def _four_flush(hand: Sequence[Card]) -> list[int] | None:
    by_suit: dict[str, list[int]] = {}
    for i, c in enumerate(hand):
        by_suit.setdefault(c.suit, []).append(i)
    for idx in by_suit.values():
        if len(idx) == 4:
            return idx
    return None


def _open_four_straight(hand: Sequence[Card]) -> list[int] | None:
    """Indices of four consecutive ranks open at both ends (not J-Q-K-A or A-2-3-4)."""
    first: dict[int, int] = {}
    for i, c in enumerate(hand):
        first.setdefault(c.rank, i)
    for low in range(10, 1, -1):
        if all(r in first for r in range(low, low + 4)):
            return [first[r] for r in range(low, low + 4)]
    return None


def draw_discards(hand: Sequence[Card], max_draw: int = 3) -> tuple[int, ...]:
    """The standard five-card draw: stand pat on a straight or better, keep trips, two pair,
    a pair (a small pair gives way to four to a flush), four to a flush or an open-ended
    straight; else keep the two highest cards. At most ``max_draw`` cards go (the lowest).

    >>> from pokeroulette_tui.engine.cards import parse_cards as p
    >>> draw_discards(p("7s 7h Kd 4c 2s"))          # a pair: draw three
    (2, 3, 4)
    >>> draw_discards(p("As Ks 8s 3s 2d"))          # four to a flush
    (4,)
    >>> draw_discards(p("9s 8h 7d 6c Kd"))          # open-ended straight draw
    (4,)
    >>> draw_discards(p("Ts Th Tc 4d 4s"))          # full house: stand pat
    ()
    >>> draw_discards(p("Ah Qd 9c 5s 3d"), max_draw=2)
    (3, 4)
    """
    if max_draw <= 0 or len(hand) != 5:
        return ()
    counts = Counter(c.rank for c in hand)
    shape = sorted(counts.values(), reverse=True)
    ranks = set(counts)
    flush = len({c.suit for c in hand}) == 1
    straight = len(ranks) == 5 and (max(ranks) - min(ranks) == 4 or ranks == {14, 2, 3, 4, 5})
    if flush or straight or shape[0] == 4 or shape[:2] == [3, 2]:
        return ()
    grouped = [i for i, c in enumerate(hand) if counts[c.rank] >= 2]
    keep: list[int]
    if shape[0] == 3 or shape[:2] == [2, 2]:
        keep = grouped
    elif shape[0] == 2:
        flush4 = _four_flush(hand)
        pair_rank = max(r for r, k in counts.items() if k == 2)
        keep = flush4 if flush4 is not None and pair_rank < 11 else grouped
    else:
        keep = _four_flush(hand) or _open_four_straight(hand) or sorted(
            range(5), key=lambda i: hand[i].rank, reverse=True)[:2]
    out = [i for i in range(5) if i not in keep]
    if len(out) > max_draw:  # exchange only the lowest ones
        out = sorted(out, key=lambda i: hand[i].rank)[:max_draw]
    return tuple(sorted(out))


# -- turning intentions into legal actions -------------------------------------------

def _first(legal: Sequence[Action], cls: type) -> Action | None:
    for a in legal:
        if type(a) is cls:
            return a
    return None


def check_or_fold(legal: Sequence[Action]) -> Action:
    """Check if that is free, else fold (else whatever is legal)."""
    return _first(legal, Check) or _first(legal, Fold) or legal[0]


def call_or_check(view: SeatView, legal: Sequence[Action]) -> Action:
    """Stay in as cheaply as possible: check, call, or (stack too short to call) all in."""
    a = _first(legal, Check) or _first(legal, Call)
    if a is not None:
        return a
    if to_call(view) > 0:
        a = _first(legal, AllIn)
        if a is not None:
            return a
    return legal[0]


def bet_to(view: SeatView, legal: Sequence[Action], total: int) -> Action:
    """Bet or raise so that the viewer's bet this round is ``total``, clamped to the allowed
    range; falls back to calling or checking when no bet or raise is possible."""
    o = view.options
    seat = legal[0].seat
    if o is not None:
        if o.bet_min:
            return PlaceBet(seat=seat, amount=max(o.bet_min, min(o.bet_max, total)))
        if o.raise_min:
            return RaiseTo(seat=seat, amount=max(o.raise_min, min(o.raise_max, total)))
        if o.all_in and not o.call and not o.check:
            return AllIn(seat=seat)
    return call_or_check(view, legal)


def discard(seat: int | None, indices: Sequence[int]) -> Discard:
    """Exchange the cards at ``indices`` (in any order)."""
    return Discard(seat=seat, indices=tuple(sorted(indices)))
