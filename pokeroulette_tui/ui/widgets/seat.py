"""One seat at the table: name, score, state and the cards this viewer may see."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import NoScreen, Widget

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.widgets.present import seat_text


SEAT_COLUMN = 54
"""Columns a seat reads best in: its cards and the hand they make on one line."""


def big_seats(height: int, seats: int, columns: int) -> bool:
    """True when every seat can have boxed card faces (about seven rows each) on a screen
    ``height`` rows high, the seats in ``columns`` columns.

    >>> big_seats(48, 4, 2), big_seats(48, 10, 2), big_seats(60, 10, 2), big_seats(24, 2, 1)
    (True, False, True, False)
    """
    rows = -(-seats // columns)
    return rows * 7 <= height - 14


def seat_columns(width: int, seats: int) -> int:
    """How many columns of seats fit ``width`` columns of table (at most 3, never more
    than there are seats).

    >>> seat_columns(48, 4), seat_columns(112, 4), seat_columns(140, 10), seat_columns(200, 10)
    (1, 2, 2, 3)
    >>> seat_columns(200, 2), seat_columns(112, 1)
    (2, 1)
    """
    return max(1, min(3, seats, width // SEAT_COLUMN))


def presence_words(seats: Any, view: SeatView | None, seat: int) -> str:
    """What a seat's line says of its player at a network table: "away" (the turn timer plays
    for them), "disconnected" (the seat is held), or "" — from the ``seats`` the host sends
    with each state (``RemoteSession.seats``; a local table has none).

    >>> presence_words([{"connected": True, "away": True, "bot": False}], None, 0)
    'away'
    >>> presence_words([{"connected": False, "away": False, "bot": False}], None, 0)
    'disconnected'
    >>> presence_words([], None, 0), presence_words(None, None, 0)
    ('', '')
    """
    if not isinstance(seats, list) or not 0 <= seat < len(seats):
        return ""
    info = seats[seat]
    if not isinstance(info, dict) or info.get("bot"):
        return ""
    if view is not None and seat < len(view.players) and view.players[seat].status == "left":
        return ""  # (gone for good: the seat line says "left")
    if not info.get("connected", True):
        return _("disconnected")
    return _("away") if info.get("away") else ""


class SeatWidget(Widget):
    """A seat, drawn from the table's current :class:`SeatView` (set by the screen).

    CSS classes derived from the view, for styling only: ``-me``, ``-to-act``,
    ``-folded``, ``-out`` (out or left), ``-button``.

    At a network table the line also says when its player is away or disconnected
    (:attr:`presence`): read from the screen's session each time the view is handed down,
    so a drop or a return shows without waiting for the next action.
    """

    DEFAULT_CSS = """
    SeatWidget { height: auto; }
    """

    view: reactive[SeatView | None] = reactive(None)
    four_color: reactive[bool] = reactive(False)
    big: reactive[bool] = reactive(False, layout=True)
    """Boxed card faces where they fit (the screen sets it when there is room)."""
    presence: reactive[str] = reactive("")
    """What the line says of its player: "away", "disconnected" or "" (:func:`presence_words`)."""

    def __init__(self, seat: int, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.seat = seat
        self._lines = 0

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return self._text(self.view, self.content_size.width or None)

    def _text(self, view: SeatView, width: int | None) -> Text:
        text = seat_text(view, self.seat, four_color=self.four_color, width=width, big=self.big)
        if not self.presence:
            return text
        lines = text.split("\n", allow_blank=True)
        lines[0].append(" · ").append(self.presence, style="bold italic")
        return Text("\n").join(lines)

    def validate_view(self, view: SeatView | None) -> SeatView | None:
        """Each time the screen hands a view down (the same one too): who is away or
        disconnected may have changed without an action."""
        if view is not None:
            try:
                session = getattr(self.screen, "session", None)
            except NoScreen:  # (not mounted yet)
                session = None
            self.presence = presence_words(getattr(session, "seats", None), view, self.seat)
        return view

    def watch_presence(self) -> None:
        if self.view is not None:
            self.watch_view(self.view)
            self.refresh()

    def watch_view(self, view: SeatView | None) -> None:
        if view is None:
            return
        width = self.content_size.width or None
        text = self._text(view, width)
        lines = len(text.wrap(self.app.console, width or 80))
        if lines != self._lines:
            self._lines = lines
            self.refresh(layout=True)
        p = view.players[self.seat]
        self.update_classes({  # one restyle for all of them
            "-me": view.seat == self.seat,
            "-to-act": view.to_act == self.seat and not view.dealer_step and not view.game_over,
            "-folded": p.folded,
            "-out": p.status in ("out", "left") or bool(p.sit_out_hands),
            "-button": view.button == self.seat,
        })
