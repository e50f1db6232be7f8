"""Whose eyes the table is seen with: the hot-seat privacy rule as plain logic (no Textual)."""

from __future__ import annotations

from typing import Sequence

from pokeroulette_tui.engine.view import SeatView


def acting_seat(pub: SeatView) -> int | None:
    """The seat whose decision the table waits for (None while the dealer deals)."""
    if pub.dealer_step or pub.game_over:
        return None
    return pub.to_act


class Seating:
    """Chooses the viewer of the table: the one rule for what a screen may show.

    - No local human: nobody's eyes (public cards only).
    - One local human: always that seat (nobody else sits at this terminal).
    - Hot-seat (two or more): a seat's eyes only from the moment its player passes the
      privacy screen until that player's decision is made. At every other moment — the
      dealer dealing, a bot thinking, between hands, behind the result, at game over —
      the table is public. So every hand starts public, and a person's cards are never
      on screen while someone else has the keyboard.

    >>> s = Seating([0, 1])
    >>> s.viewer, s.hot_seat
    (None, True)

    ``hot`` says whether several people share this terminal when that is not told by
    ``humans`` alone: a resumed table seats only those who have not left, and one person
    left of a hot-seat game still gets the privacy screen (the others may still watch).

    >>> s = Seating([1], hot=True)
    >>> s.viewer, s.hot_seat
    (None, True)
    """

    def __init__(self, humans: Sequence[int], *, hot: bool | None = None) -> None:
        self.humans = tuple(humans)
        self.asking: int | None = None
        self._hot = len(self.humans) > 1 if hot is None else hot
        self._open: int | None = None  # hot-seat: passed the privacy screen, not yet acted

    @property
    def hot_seat(self) -> bool:
        """True when several people share this terminal (it stays so after some leave)."""
        return self._hot

    @property
    def viewer(self) -> int | None:
        """The seat whose private cards the table shows now (None: public only)."""
        if not self._hot:
            return self.humans[0] if self.humans else None
        return self._open

    def leave(self, seat: int) -> None:
        """``seat``'s player left the table: nobody plays it here any more, and the table is
        seen publicly until the next local player to act has the keyboard (or for good).

        >>> s = Seating([2])
        >>> s.leave(2); s.humans, s.viewer, s.hot_seat
        ((), None, False)
        """
        self.humans = tuple(h for h in self.humans if h != seat)
        self.acted(seat)
        if self.asking == seat:
            self.asking = None

    def acted(self, seat: int | None) -> None:
        """``seat`` made its decision: in hot-seat the table turns public at once.

        >>> s = Seating([0, 1]); s._open = 0
        >>> s.acted(1); s.viewer
        0
        >>> s.acted(0); s.viewer is None
        True
        """
        if self._open == seat:
            self._open = None

    def due(self, pub: SeatView) -> bool:
        """True when a local human other than the viewer is now to act (the table must be
        looked at again at once)."""
        seat = acting_seat(pub)
        return self._hot and seat in self.humans and seat != self._open

    def look(self, pub: SeatView) -> int | None:
        """Update the viewer for the table as it is now; returns a seat to ask for with the
        privacy screen (once per decision), or None."""
        if not self._hot:
            return None
        seat = acting_seat(pub)
        if self._open is not None and self._open != seat:
            self._open = None  # the turn moved on (a decision made some other way)
        if seat is None or seat not in self.humans or seat == self._open or seat == self.asking:
            return None
        self.asking = seat
        return seat

    def confirmed(self, seat: int, pub: SeatView) -> None:
        """``seat``'s player pressed Enter on the privacy screen; the cards are shown only
        if the table (``pub``) still waits for that seat."""
        if self.asking == seat:
            self.asking = None
        if self._hot and acting_seat(pub) == seat and seat in self.humans:
            self._open = seat
