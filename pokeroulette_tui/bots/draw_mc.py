"""Five-card draw playouts: every opponent draws by the standard strategy, matching the
number of cards each one was seen to draw, and samples are weighted by how well each
opponent's hand fits the chips it put in (a fixed, rough model of any player).
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from pokeroulette_tui.bots.common import draw_discards, unknown_cards
from pokeroulette_tui.bots.equity import Equity, Tally, live_order, ranker, shuffled
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView

_PAT_WEIGHTS = (("straight", 39), ("flush", 20), ("full", 14), ("quads", 3))


class _Pile:
    """The unseen cards of one sample: a shuffled pile plus the discards, reshuffled under it
    when it runs out (as the engine does)."""

    def __init__(self, pool: list[Card], rng: random.Random) -> None:
        self.pool = pool
        self.rem = shuffled(pool, rng)
        self.dead: list[Card] = []
        self.rng = rng

    def pop(self) -> Card:
        if not self.rem:
            self.rng.shuffle(self.dead)
            self.rem, self.dead = self.dead, []
        if not self.rem:  # nothing left at all (cannot happen with one deck): any card
            return self.rng.choice(self.pool)
        return self.rem.pop()

    def deal(self, k: int) -> list[Card]:
        return [self.pop() for _ in range(k)]

    def made(self, kind: str) -> list[Card] | None:
        """Cards of a made hand (or trips, two pair) taken from the pile, or None."""
        rng, rem = self.rng, self.rem
        by_rank: dict[int, list[Card]] = {}
        by_suit: dict[str, list[Card]] = {}
        for c in rem:
            by_rank.setdefault(c.rank, []).append(c)
            by_suit.setdefault(c.suit, []).append(c)
        if kind == "straight":
            tops = [t for t in range(5, 15)
                    if all((14 if r == 1 else r) in by_rank for r in range(t - 4, t + 1))]
            if not tops:
                return None
            t = rng.choice(tops)
            out = [rng.choice(by_rank[14 if r == 1 else r]) for r in range(t - 4, t + 1)]
        elif kind == "flush":
            suits = [s for s, cs in by_suit.items() if len(cs) >= 5]
            if not suits:
                return None
            out = rng.sample(by_suit[rng.choice(suits)], 5)
        else:
            out = []
            used: set[int] = set()
            for k in {"full": (3, 2), "quads": (4,), "trips": (3,), "two_pair": (2, 2)}[kind]:
                ranks = [r for r, cs in by_rank.items() if len(cs) >= k and r not in used]
                if not ranks:
                    return None
                r = rng.choice(ranks)
                used.add(r)
                out += rng.sample(by_rank[r], k)
        for c in out:
            rem.remove(c)
        return out

    def kept(self, drawn: int, max_draw: int, made_pat: float = 0.85) -> list[Card]:
        """The cards an opponent kept, given that it was seen to exchange ``drawn`` cards:
        a made hand for standing pat, trips for two, else a dealt hand whose standard draw
        exchanges that many (a few tries). ``made_pat``: how likely a pat is a made hand
        (less for a seat seen to stand pat far too often)."""
        rng = self.rng
        if drawn in (0, 2) and rng.random() < (made_pat if drawn == 0 else 0.85):
            if drawn == 0:
                kind = rng.choices([k for k, _ in _PAT_WEIGHTS], [w for _, w in _PAT_WEIGHTS])[0]
            else:
                kind = "trips"
            made = self.made(kind)
            if made is not None:
                return made
        hand: list[Card] = []
        for _ in range(20 if drawn == 1 else 8):
            if len(self.rem) < 5:
                break
            hand = [self.rem.pop() for _ in range(5)]
            out = draw_discards(hand, max_draw)
            if len(out) == drawn:
                self.dead += [hand[i] for i in out]
                return [c for i, c in enumerate(hand) if i not in out]
            self.rem[0:0] = hand  # back under the pile; try another
        if drawn == 1:
            made = self.made("two_pair")
            if made is not None:
                return made
        hand = self.deal(5)
        hand.sort(key=lambda c: c.rank, reverse=True)
        self.dead += hand[5 - drawn:] if drawn else []
        return hand[:max(0, 5 - drawn)]


# How likely a player holding a hand of each tier (rows: nothing, a pair, two pair or
# trips, a straight or better) is to have put in no chips, about a bet, or more (columns).
# Callers and bettors look alike in a view, so a pair keeps some weight against chips.
_LIKELY = ((1.0, 0.1, 0.03),
           (1.0, 0.5, 0.2),
           (0.7, 1.0, 0.8),
           (0.5, 1.0, 1.0))


def tier(cards: Sequence[Card]) -> int:
    """0 nothing, 1 a pair, 2 two pair or trips, 3 a straight or better (of up to 5 cards).

    >>> from pokeroulette_tui.engine.cards import parse_cards as p
    >>> [tier(p(t)) for t in ("As Kd 9c 5h 2s", "9s 9d", "9s 9d 9h", "Ts Js Qs Ks 2s")]
    [0, 1, 2, 3]
    """
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    shape = sorted(counts.values(), reverse=True) + [0, 0]
    if shape[0] >= 4 or shape[0] == 3 and shape[1] == 2:
        return 3
    if len(cards) == 5 and shape[0] == 1:
        ranks = set(counts)
        flush = len({c.suit for c in cards}) == 1
        if flush or max(ranks) - min(ranks) == 4 or ranks == {14, 2, 3, 4, 5}:
            return 3
    if shape[0] == 3 or shape[1] == 2:
        return 2
    return 1 if shape[0] == 2 else 0


def signals(view: SeatView, seat: int) -> tuple[int | None, int | None]:
    """What ``seat``'s chips say about its hand before and after the draw: 0 nothing put
    in, 1 about a bet, 2 more; None when there is nothing to read (yet)."""
    rules = view.rules
    if rules.betting == "none":
        return None, None
    p = view.players[seat]
    unit = rules.bet_unit

    def level(chips: int) -> int:
        return 0 if chips <= 0 else (1 if chips <= 2 * unit else 2)

    voluntary = max(0, p.contributed - rules.ante)
    if view.betting_round == "post_draw":
        return level(voluntary - p.bet), (level(p.bet) if p.bet > 0 else None)
    if view.phase == Phase.BETTING:  # before the draw: only chips put in say something yet
        return (level(p.bet) if p.bet > 0 else None), None
    return level(voluntary), None


def draw_equities(view: SeatView, rng: random.Random, samples: int,
                  options: Sequence[Sequence[int]] | None = None,
                  remembered: Sequence[Card] = (), reads: bool = True,
                  habits: Mapping[int, tuple[float, float, float]] | None = None
                  ) -> list[Equity]:
    """Equity of the viewer's five cards for each discard choice in ``options`` (indices into
    its hand), from the same samples. Without ``options`` the viewer's hand is final if it
    has drawn, else it draws by the standard strategy. ``remembered``: cards the viewer
    knows are out of play (its own discards). ``reads``: weight each sample by how well the
    opponents' sampled hands fit the chips they put in (:data:`_LIKELY`). ``habits``: seat
    -> (looseness, made_pat, pat_rate) from :class:`reads.Reads`: a loose seat's chips weigh
    less (at looseness 1 not at all), a pat is a made hand with probability ``made_pat``,
    and a seat still to draw stands pat with probability ``pat_rate`` beyond the standard
    draw's own pats (its habit, whatever its cards).
    """
    habits = habits or {}
    rules = view.rules
    live = live_order(view)
    me = live.index(view.seat)
    hand = [c for c in view.me.hand if c is not None]
    if options is None:
        options = [()] if view.me.drawn >= 0 else [draw_discards(hand, rules.max_draw)]
    pool = unknown_cards(view, remembered)
    rank = ranker(rules, view.suit_order)
    reading = {seat: signals(view, seat) for seat in live if seat != view.seat} if reads else {}
    tallies = [Tally() for _ in options]
    most = max((len(o) for o in options), default=0)
    for _ in range(max(1, samples)):
        pile = _Pile(pool, rng)
        finals: list[list[Card]] = []
        weight = 1.0
        for i, seat in enumerate(live):
            if i == me:
                finals.append([])
                continue
            drawn = view.players[seat].drawn
            loose, made_pat, pat_rate = habits.get(seat, (0.0, 0.85, 0.0))
            if drawn < 0:
                h = pile.deal(5)
                out = draw_discards(h, rules.max_draw)
                if pat_rate > 0.1 and rng.random() < pat_rate:
                    out = ()
                kept = [c for k, c in enumerate(h) if k not in out]
                pile.dead += [h[k] for k in out]
                before = h
            else:
                kept = pile.kept(drawn, rules.max_draw, made_pat)
                before = kept
            final = kept + pile.deal(5 - len(kept))
            finals.append(final)
            pre, post = reading.get(seat, (None, None))
            if pre is not None:
                w = _LIKELY[tier(before)][pre]
                weight *= w + loose * (1.0 - w)
            if post is not None:
                w = _LIKELY[tier(final)][post]
                weight *= w + loose * (1.0 - w)
        fresh = pile.deal(most)
        for opt, tally in zip(options, tallies):
            finals[me] = [c for k, c in enumerate(hand) if k not in opt] + fresh[:len(opt)]
            win, last = rank(finals, me)
            tally.add(win, last, weight)
    return [t.equity() for t in tallies]
