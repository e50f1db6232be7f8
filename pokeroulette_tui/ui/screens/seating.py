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
    """Chooses the viewer of the table.

    - No local human: nobody's eyes (public cards only).
    - One local human: always that seat.
    - Hot-seat (two or more): public until the human to act has confirmed the privacy
      screen; that seat's eyes then stay until another local human is to act, when the
      table turns public again and that human is asked for. So no frame shows a seat's
      private cards while another local human is to act.

    >>> s = Seating([0, 1])
    >>> s.viewer, s.hot_seat
    (None, True)
    """

    def __init__(self, humans: Sequence[int]) -> None:
        self.humans = tuple(humans)
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.asking: int | None = None
        self._hot = len(self.humans) > 1

    @property
    def hot_seat(self) -> bool:
        """True when several people share this terminal (it stays so after some leave)."""
        return self._hot

    def leave(self, seat: int) -> None:
        """``seat``'s player left the table: nobody plays it here any more, and the table is
        seen publicly until the next local player to act has the keyboard (or for good).

        >>> s = Seating([2])
        >>> s.leave(2); s.humans, s.viewer, s.hot_seat
        ((), None, False)
        """
        self.humans = tuple(h for h in self.humans if h != seat)
        if self.viewer == seat:
            self.viewer = None
        if self.asking == seat:
            self.asking = None

    def due(self, pub: SeatView) -> bool:
        """True when another local human is now to act (the table must turn public)."""
        seat = acting_seat(pub)
        return self.hot_seat and seat in self.humans and seat != self.viewer

    def look(self, pub: SeatView) -> int | None:
        """Update the viewer for the table as it is now; returns a seat to ask for with the
        privacy screen (once per turn), or None."""
        if not self.due(pub):
            return None
        seat = acting_seat(pub)
        self.viewer = None
        if self.asking == seat:
            return None
        self.asking = seat
        return seat

    def confirmed(self, seat: int, pub: SeatView) -> None:
        """``seat``'s player pressed Enter on the privacy screen."""
        self.asking = None
        if acting_seat(pub) == seat:
            self.viewer = seat
