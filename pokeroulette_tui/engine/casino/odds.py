"""Exact odds of every casino bet: probability, expected return and house edge, as fractions.

Nothing here is simulated.

- A roulette bet wins on the fifth card, which is any of the 54 cards alike: the cards it
  covers over 54 (a joker there loses every roulette bet but the joker spot).
- A poker bet depends on the five cards as a set. :func:`class_counts` counts the
  ``C(54, 5) = 3,162,510`` sets by class without looking at each one: for each number of
  jokers and each multiset of ranks of the natural cards, the suits can be chosen in
  ``∏ C(4, m)`` ways, of which, when the ranks all differ, exactly 4 are one suit (the only
  suit pattern that can change the class: jokers take any suit, so naturals of several suits
  are never a flush). One representative hand of each kind is evaluated (about 8,500 in
  all) and weighted by its number of sets. :func:`brute_class_counts` does the same by
  evaluating every set, for a test on a smaller deck.
- The joker bet wants the jokers first and fifth: ``2 / (54 × 53)``.
- The progressive's jackpot wants the jokers first and fifth and a royal flush between them:
  the middle three cards are three of the five royal cards of one suit.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from pokeroulette_tui.engine.cards import JOKER, SUITS, Card
from pokeroulette_tui.engine.casino.board import (
    DECK,
    KIND_WORDS,
    ROULETTE_KINDS,
    Bet,
    Kind,
    covers,
    make_bet,
)
from pokeroulette_tui.engine.casino.paytable import (
    HAND_WORDS,
    LEVELS,
    PROGRESSIVE_WORDS,
    PayTable,
    hand_class,
    table_note,
)
from pokeroulette_tui.engine.i18n import _, number, percent, pgettext  # percent: cli, dialogs

DECK_SIZE = len(DECK)
SETS = math.comb(DECK_SIZE, 5)
"""Five-card sets of the 54-card deck: 3,162,510."""

SAMPLE_TARGETS = {Kind.CARD: "As", Kind.SPLIT: "As Ks", Kind.CORNER: "As Ks Ah Kh",
                  Kind.RANK: "A", Kind.RANKS2: "23", Kind.RANKS4: "2345",
                  Kind.RANKS6: "234567", Kind.SUIT: "S", Kind.COLOUR: "red",
                  Kind.PARITY: "odd", Kind.HALF: "low", Kind.JOKER: ""}
"""One bet of each roulette kind (every bet of a kind covers as many cards)."""


def class_counts(ranks: Iterable[int] = range(2, 15), suits: str = SUITS,
                 jokers: int = 2) -> dict[str, int]:
    """How many five-card sets of a deck (each rank in each suit once, and ``jokers``
    jokers) fall in each class, by counting rank patterns."""
    ranks = tuple(ranks)
    counts: Counter[str] = Counter()
    for j in range(min(jokers, 5) + 1):
        n = 5 - j
        joker_ways = math.comb(jokers, j)
        for combo in itertools.combinations_with_replacement(ranks, n):
            mult = Counter(combo)
            if any(m > len(suits) for m in mult.values()):
                continue
            ways = joker_ways * math.prod(math.comb(len(suits), m) for m in mult.values())
            if n and len(mult) == n:  # all ranks differ: the one-suit sets apart
                one_suit = joker_ways * len(suits)
                counts[hand_class([Card(r, suits[0]) for r in combo] + [JOKER] * j)] += one_suit
                ways -= one_suit
                if ways:  # (a one-suit deck has no others)
                    hand = [Card(r, suits[1 if i == 1 else 0]) for i, r in enumerate(combo)]
            else:  # a rank twice or more: its cards in different suits, never a flush
                seen: Counter[int] = Counter()
                hand = []
                for r in combo:
                    hand.append(Card(r, suits[seen[r]]))
                    seen[r] += 1
            if ways:
                counts[hand_class(hand + [JOKER] * j)] += ways
    return {c: counts.get(c, 0) for c in LEVELS}


def brute_class_counts(deck: list[Card]) -> dict[str, int]:
    """The same by evaluating every five-card set of ``deck`` (for tests on small decks)."""
    counts: Counter[str] = Counter(hand_class(list(h)) for h in itertools.combinations(deck, 5))
    return {c: counts.get(c, 0) for c in LEVELS}


@cache
def standard_counts() -> dict[str, int]:
    """:func:`class_counts` of the casino's deck (computed once, about a second)."""
    return class_counts()


def at_least(hand: str) -> Fraction:
    """The chance that five cards make ``hand`` or better."""
    counts = standard_counts()
    return Fraction(sum(counts[c] for c in LEVELS[LEVELS.index(hand):]), SETS)


def exactly(hand: str) -> Fraction:
    return Fraction(standard_counts()[hand], SETS)


WILD_CHANCE = Fraction(2, DECK_SIZE * (DECK_SIZE - 1))
"""First and fifth cards both jokers."""
JACKPOT_CHANCE = WILD_CHANCE * Fraction(4 * math.comb(5, 3), math.comb(52, 3))
"""Jokers first and fifth, and the three between them royal cards of one suit."""


@dataclass(frozen=True)
class Odds:
    """One bet's chance of winning, what it pays (X to 1), and so its expected return per
    chip staked (stake included) and the house edge. ``bet`` names it in English: the player
    reads :attr:`words`."""

    bet: str
    chance: Fraction
    pays: int
    extra: Fraction = Fraction(0)  # return not in ``chance × (pays + 1)`` (the jackpot)

    @property
    def words(self) -> str:
        """The bet's name in the player's language."""
        return _(self.bet)

    @property
    def returns(self) -> Fraction:
        return self.chance * (self.pays + 1) + self.extra

    @property
    def edge(self) -> Fraction:
        return 1 - self.returns


def roulette_chance(bet: Bet) -> Fraction:
    """The chance a roulette bet wins: the fifth card is one it covers."""
    cards = covers(bet)
    n = 2 if bet.kind is Kind.JOKER else len(cards)  # two jokers in the deck
    return Fraction(n, DECK_SIZE)


def bet_odds(bet: Bet, table: PayTable, jackpot: int | None = None) -> Odds:
    """The odds of one bet under ``table`` (the progressive's at this ``jackpot``; None:
    the table's seed)."""
    if bet.kind in ROULETTE_KINDS:
        return Odds(KIND_WORDS[bet.kind], roulette_chance(bet), table.roulette[bet.kind])
    if bet.kind is Kind.POKER:
        return Odds(HAND_WORDS[bet.target], at_least(bet.target), table.poker[bet.target])
    if bet.kind is Kind.WILD:
        return Odds(KIND_WORDS[Kind.WILD], WILD_CHANCE, table.wild)
    return progressive_odds(table, table.jackpot_seed if jackpot is None else jackpot)


def progressive_odds(table: PayTable, jackpot: int) -> Odds:
    """The side bet: each class it pays on, with the jackpot in place of the royal flush's
    payout when the jokers are first and fifth. ``chance`` is the chance of any win."""
    stake = table.progressive_stake
    chance = Fraction(0)
    back = Fraction(0)
    for hand, pays in table.progressive.items():
        p = exactly(hand)
        if hand == "royal_flush":
            p -= JACKPOT_CHANCE  # that deal wins the jackpot instead
        chance += p
        back += p * (pays + 1)
    back += JACKPOT_CHANCE * (Fraction(jackpot, stake) + 1)
    chance += JACKPOT_CHANCE
    return Odds(KIND_WORDS[Kind.PROGRESSIVE], chance, 0, extra=back - chance)


def break_even_jackpot(table: PayTable) -> Fraction:
    """The jackpot at which the side bet returns all it takes, on average."""
    base = progressive_odds(table, 0).returns
    return (1 - base) / JACKPOT_CHANCE * table.progressive_stake


def odds_table(table: PayTable, jackpot: int | None = None) -> list[tuple[Bet, Odds]]:
    """Every kind of bet the table offers, one row each (the roulette bets by a sample
    target: every bet of a kind covers as many cards)."""
    rows = [(make_bet(k, SAMPLE_TARGETS[k], 1), None) for k in ROULETTE_KINDS]
    rows += [(make_bet("poker", h, 1), None) for h in LEVELS if h in table.poker]
    rows += [(make_bet("wild", "", 1), None), (make_bet("progressive", "", 1), None)]
    return [(b, bet_odds(b, table, jackpot)) for b, __ in rows]


def one_in(x: Fraction) -> str:
    """"1 in 27" for a chance (rounded)."""
    if x <= 0:
        return _("never")
    n = 1 / x
    return _("1 in {n}").format(n=number(float(n), ",.1f") if n < 100 else number(round(n), ","))


@dataclass(frozen=True)
class Simulated:
    """A bet's return per chip over simulated rounds, against the exact figure."""

    bet: Bet
    odds: Odds
    rounds: int
    mean: float
    half_width: float  # of the interval at ``z`` standard errors

    @property
    def agrees(self) -> bool:
        return abs(self.mean - float(self.odds.returns)) <= self.half_width


def simulate_returns(table: PayTable, rounds: int, seed: int = 1, *,
                     z: float = 3.29) -> list[Simulated]:
    """Deal ``rounds`` rounds from a shuffled deck and settle one chip on every bet of
    :func:`odds_table` each time (the progressive at the seed jackpot); each bet's mean return
    with its interval (``z`` = 3.29: 99.9%) beside the exact return."""
    import random

    from pokeroulette_tui.engine.casino.game import jackpot_deal, payout

    rows = odds_table(table)
    sums = [0.0] * len(rows)
    squares = [0.0] * len(rows)
    deck = list(DECK)
    rng = random.Random(seed)
    jackpot_return = table.jackpot_seed / table.progressive_stake + 1
    for __ in range(rounds):
        cards = rng.sample(deck, 5)
        hand = hand_class(cards)
        jackpot = hand == "royal_flush" and jackpot_deal(cards)
        for i, (bet, __) in enumerate(rows):
            if jackpot and bet.kind is Kind.PROGRESSIVE:
                x = jackpot_return
            else:
                x = payout(table, cards, bet, hand)
            sums[i] += x
            squares[i] += x * x
    out = []
    for i, (bet, odds) in enumerate(rows):
        mean = sums[i] / rounds
        var = max(0.0, squares[i] / rounds - mean * mean)
        # a bet that never won in the sample: the exact variance, not zero
        exact_var = float(odds.chance * (odds.pays + 1) ** 2) - float(odds.returns) ** 2
        sd = math.sqrt(max(var, exact_var if bet.kind is not Kind.PROGRESSIVE else var))
        out.append(Simulated(bet, odds, rounds, mean, z * sd / math.sqrt(rounds)))
    return out


def report(table: PayTable, jackpot: int | None = None) -> str:
    """The odds table as text (``pokeroulette casino --odds``; docs/RULES.md §6.1)."""
    pot = table.jackpot_seed if jackpot is None else jackpot
    note = table_note(table)
    head = (pgettext("odds", "bet"), pgettext("odds", "wins"), pgettext("odds", "pays"),
            pgettext("odds", "return"), pgettext("odds", "house edge"))
    lines = [(_("Pay table: {name} ({note})") if note else _("Pay table: {name}")).format(
                 name=table.name, note=note),
             _("Every payout is X to 1: a win returns the stake and X times it."),
             "",
             f"{head[0]:44} {head[1]:>12} {head[2]:>8} {head[3]:>8} {head[4]:>10}"]
    for bet, odds in odds_table(table, pot):
        pays = _("jackpot") if bet.kind is Kind.PROGRESSIVE else f"{odds.pays}:1"
        lines.append(f"{odds.words:44} {one_in(odds.chance):>12} {pays:>8} "
                     f"{percent(odds.returns):>8} {percent(odds.edge):>10}")
    be = break_even_jackpot(table)
    paid = ", ".join(f"{_(PROGRESSIVE_WORDS[h])} {p}:1" for h, p in sorted(
        table.progressive.items(), key=lambda kv: LEVELS.index(kv[0])))
    notes = [
        _("The progressive side bet ({stake} a round) pays by the hand dealt: {paid}.").format(
            stake=table.progressive_stake, paid=paid),
        _("Its return above is at a jackpot of {jackpot:,}; it breaks even at a jackpot of "
          "{even}. The jackpot ({chance}) is a royal flush with the jokers first and fifth; "
          "{share}% of every side-bet stake goes into it.").format(
            jackpot=pot, even=number(float(be), ",.0f"), chance=one_in(JACKPOT_CHANCE),
            share=table.jackpot_share),
        _("Exact figures: every one of the 3,162,510 five-card sets counted (54 cards, jokers "
          "wild); nothing simulated."),
    ]
    for note in notes:
        lines += ["", *textwrap.wrap(note, 86)]
    return "\n".join(lines)


def edge_range(table: PayTable) -> tuple[Fraction, Fraction]:
    """The smallest and the largest house edge of the table's bets (the progressive side bet,
    whose edge moves with the jackpot, left aside)."""
    edges = [o.edge for b, o in odds_table(table) if b.kind is not Kind.PROGRESSIVE]
    return min(edges), max(edges)


def tables_report(tables: dict[str, PayTable]) -> str:
    """The named pay tables, a paragraph each: what it is, its limits and the range of its
    exact house edges (``pokeroulette casino --pay-tables``)."""
    lines = [_("Pay tables (pokeroulette casino --pay-table NAME, or a .toml file of your "
               "own):")]
    for name, table in tables.items():
        low, high = edge_range(table)
        lines += ["", f"{name}"]
        if table.note:
            lines += textwrap.wrap(table_note(table), 84, initial_indent="  ",
                                   subsequent_indent="  ", break_on_hyphens=False)
        lines.append("  " + _("bets {low} to {high} a spot; house edge {least} to {most} "
                              "(exact);").format(low=table.min_bet, high=table.max_bet,
                                                  least=percent(low), most=percent(high)))
        lines.append("  " + _("the side bet's {edge} at a jackpot of {jackpot:,}").format(
            edge=percent(progressive_odds(table, table.jackpot_seed).edge),
            jackpot=table.jackpot_seed))
        lines.append("  " + _("every bet's odds: {command}").format(
            command=f"pokeroulette casino --odds --pay-table {name}"))
    return "\n".join(lines)
