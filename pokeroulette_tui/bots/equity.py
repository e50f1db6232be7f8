"""Monte Carlo equity, the shared part: results, ranking the final hands, shuffling.

The bots' Monte Carlo reads only a :class:`SeatView`. The cards the seat cannot see are
sampled from the shoe minus every card the view shows (:func:`common.unknown_cards`), the
rest of the hand is played out approximately (:mod:`roulette_mc`, :mod:`draw_mc`) and the
final hands are compared here with the table's rules: jokers wild or removed, five of a
kind, and the suit tie-break.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from pokeroulette_tui.engine.cards import BY_INDEX, JOKER, Card
from pokeroulette_tui.engine.hands import evaluate, strength, suit_key
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView

JOKER_CODE = JOKER.index
_STRENGTHS: dict[tuple[str, bool], dict[tuple[int, ...], int]] = {}


@dataclass(frozen=True)
class Equity:
    """How a hand does at the showdown, averaged over the samples.

    ``win``: the expected share of the pot (a split counts as a share); ``last``: the
    expected share of being the weakest hand (what forfeit scoring punishes).
    """

    win: float
    last: float
    samples: int

    def score(self, goal: str) -> float:
        """Higher is better for the goal (see :func:`common.objective`)."""
        return -self.last if goal == "not_last" else self.win


class Tally:
    """Sums of (weighted) sample results."""

    def __init__(self) -> None:
        self.win = self.last = self.weight = 0.0
        self.n = 0

    def add(self, win: float, last: float, weight: float = 1.0) -> None:
        self.win += win * weight
        self.last += last * weight
        self.weight += weight
        self.n += 1

    def equity(self) -> Equity:
        w = self.weight or 1.0
        return Equity(self.win / w, self.last / w, self.n)


def small_strength(codes: list[int]) -> int:
    """:func:`hands.strength` of at most four natural cards given as codes (no straight or
    flush is possible: only rank groups and kickers count).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> cards = parse_cards("9s 9d Kh 2c")
    >>> small_strength([c.index for c in cards]) == strength(cards)
    True
    """
    counts: dict[int, int] = {}
    for c in codes:
        r = (c >> 2) + 2
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda g: (g[1], g[0]), reverse=True)
    top = groups[0][1] if groups else 0
    second = groups[1][1] if len(groups) > 1 else 0
    category = (7 if top == 4 else 3 if top == 3 else 2 if top == 2 and second == 2
                else 1 if top == 2 else 0)
    ranks = [r for r, k in groups if k >= 2] if category else []
    ranks += sorted((r for r, k in groups if k == 1), reverse=True)
    v = category
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


Ranker = Callable[[list[list], int], tuple[float, float]]


def ranker(rules: RuleSet, suit_order: str | None) -> Ranker:
    """A function: (final hands, index of the viewer) -> (pot share, weakest share).

    In Poker Roulette the hands are lists of card codes (:attr:`Card.index`), in draw
    lists of cards.
    """
    roulette = rules.variant == "roulette"
    foak = rules.five_of_a_kind if roulette else "high"
    jokers = rules.jokers_at_end if roulette else "wild"
    removed = jokers == "removed"
    order = suit_order if (roulette or rules.suit_tiebreak) else None
    memo = _STRENGTHS.setdefault((foak, removed), {})

    def cards(h: list) -> list[Card]:
        return [BY_INDEX[c] for c in h] if roulette else h

    def value(h: list) -> int:
        if not roulette:
            return strength(h)
        if JOKER_CODE in h:
            if removed:
                h = [c for c in h if c != JOKER_CODE]
            else:
                return wild(h)
        n = len(h)
        if n <= 4:
            return small_strength(h)
        if n <= 7:
            return strength([BY_INDEX[c] for c in h], five_of_a_kind=foak)
        return wild(h)

    def wild(h: list) -> int:
        """Jokers or a big stock: the engine's general evaluator, remembered."""
        key = tuple(sorted(h))
        v = memo.get(key)
        if v is None:
            if len(memo) > 50_000:
                memo.clear()
            v = memo[key] = strength([BY_INDEX[c] for c in key], five_of_a_kind=foak)
        return v

    def refine(hands: list[list], idx: list[int], best: bool) -> list[int]:
        keys = {i: suit_key(evaluate(cards(hands[i]), five_of_a_kind=foak, jokers=jokers,
                                     suit_order=order), order) for i in idx}
        pick = max(keys.values()) if best else min(keys.values())
        return [i for i in idx if keys[i] == pick]

    def rank(hands: list[list], me: int) -> tuple[float, float]:
        keys = [value(h) for h in hands]
        mine = keys[me]
        win = last = 0.0
        if mine == max(keys):
            tied = [i for i, k in enumerate(keys) if k == mine]
            if len(tied) > 1 and order:
                tied = refine(hands, tied, True)
            win = 1.0 / len(tied) if me in tied else 0.0
        if mine == min(keys):
            tied = [i for i, k in enumerate(keys) if k == mine]
            if len(tied) > 1 and order:
                tied = refine(hands, tied, False)
            last = 1.0 / len(tied) if me in tied else 0.0
        return win, last

    return rank


def shuffled(items: list, rng: random.Random) -> list:
    """A random order (sorting by random keys: much faster than ``shuffle`` in Python)."""
    r = rng.random
    return sorted(items, key=lambda _: r())


def live_order(view: SeatView) -> list[int]:
    n = len(view.players)
    order = [(view.button + 1 + k) % n for k in range(n)]
    return [i for i in order if view.players[i].in_hand and not view.players[i].folded]
