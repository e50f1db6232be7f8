"""Reads: what a bot remembers of the other seats' habits, from the views it was shown.

Per seat it counts the hands it saw, those in which the seat put chips in of its own accord
(beyond the ante), and, in five-card draw, how often the seat stood pat. A player who puts
chips in nearly every hand, or stands pat far more often than the cards allow, is not
telling much with its chips or its pat, so the bots trust those signals less. The counts
start from a prior (an ordinary player), so a few hands move them only a little.

Only what the views show is used: chips put in, all-ins, the number of cards drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokeroulette_tui.engine.view import SeatView

LOOSE_PRIOR = (0.4, 4.0)
"""An ordinary player puts chips in 40% of hands; the prior weighs as much as 4 hands."""
PAT_PRIOR = (0.03, 8.0)
"""An ordinary player stands pat in 3% of draws (a made hand, now and then a slow play)."""


@dataclass
class _Counts:
    hands: int = 0
    loose: int = 0
    draws: int = 0
    pats: int = 0


@dataclass
class Reads:
    """Habits of the other seats, learned from the views one bot was shown.

    >>> r = Reads()
    >>> r.looseness(1), round(r.made_pat(1), 2), r.pat_rate(1)
    (0.0, 0.85, 0.03)
    """

    counts: dict[int, _Counts] = field(default_factory=dict)
    _hand: int = -1
    _seen: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat: (chips in, drawn)

    def observe(self, view: SeatView) -> None:
        """Remember what this view shows of each other seat in the hand."""
        if view.hand_no != self._hand:
            self._close()
            self._hand = view.hand_no
        ante = view.rules.ante if view.rules.scoring == "chips" else 0
        for p in view.players:
            if p.seat == view.seat or not p.in_hand:
                continue
            chips, drawn = self._seen.get(p.seat, (0, -1))
            self._seen[p.seat] = (max(chips, p.contributed - ante),
                                  p.drawn if p.drawn >= 0 else drawn)

    def _close(self) -> None:
        for seat, (chips, drawn) in self._seen.items():
            c = self.counts.setdefault(seat, _Counts())
            c.hands += 1
            c.loose += chips > 0
            if drawn >= 0:
                c.draws += 1
                c.pats += drawn == 0
        self._seen = {}

    def looseness(self, seat: int) -> float:
        """0 for an ordinary player (or unknown), up to 1 for one who puts chips in every
        hand: how little its chips say about its cards."""
        c = self.counts.get(seat, _Counts())
        rate = (c.loose + LOOSE_PRIOR[0] * LOOSE_PRIOR[1]) / (c.hands + LOOSE_PRIOR[1])
        return min(1.0, max(0.0, (rate - 0.5) / 0.4))

    def pat_rate(self, seat: int) -> float:
        """How often this seat stands pat (the prior's 3% for an unknown one)."""
        c = self.counts.get(seat, _Counts())
        return (c.pats + PAT_PRIOR[0] * PAT_PRIOR[1]) / (c.draws + PAT_PRIOR[1])

    def made_pat(self, seat: int) -> float:
        """How likely a pat of this seat is a made hand (0.85 for an ordinary player)."""
        return min(0.85, 0.85 * PAT_PRIOR[0] / self.pat_rate(seat))

    def habits(self, view: SeatView) -> dict[int, tuple[float, float, float]]:
        """Seat -> (looseness, made_pat, pat_rate) for every other seat."""
        return {p.seat: (self.looseness(p.seat), self.made_pat(p.seat), self.pat_rate(p.seat))
                for p in view.players if p.seat != view.seat}
