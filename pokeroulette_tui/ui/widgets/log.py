"""The event log: each event's sentence as plain text (names come from other players)."""

from __future__ import annotations

from typing import Iterable

from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.widgets import RichLog

from pokeroulette_tui.engine.events import (BettingStarted, DeciderCalled, Event, GameOver,
                                            HandShown, HandStarted, MatchingEnded, PlayerOut,
                                            PotWon, TokenLost)

_KIND_STYLE: dict[type[Event], str] = {
    HandStarted: "bold reverse",
    PotWon: "bold",
    HandShown: "bold",
    TokenLost: "bold italic",
    PlayerOut: "bold italic",
    GameOver: "bold reverse",
    DeciderCalled: "bold",
    MatchingEnded: "italic",
    BettingStarted: "italic",
}


def event_line(event: Event, me: int | None = None) -> Text:
    """An event as one line of plain text; never parsed as markup.

    >>> from pokeroulette_tui.engine.events import Folded
    >>> event_line(Folded("[bold]Bo[/] folds", seat=1)).plain
    '[bold]Bo[/] folds'
    """
    style = _KIND_STYLE.get(type(event), "")
    text = Text(event.text, style=style)
    if me is not None and event.seat == me and not style:
        text.stylize("bold")
    return text


class EventLog(RichLog):
    """What happened, newest at the bottom: the hand being played and the one before it.

    Older hands leave the widget (the hand history, ``h``, has them): every line a RichLog
    keeps holds its rendered strips and their caches (some 10–25 KB a line), so a log that
    kept 2,000 lines grew a spectating client by ~1 MiB/s at a fast table until it was full.
    A very long hand is still capped at :attr:`MAX_LINES`.
    """

    DEFAULT_CSS = """
    EventLog { height: 1fr; }
    """

    MAX_LINES = 300
    """Lines kept at most, whatever the hands (a safety net: two hands are far shorter)."""
    LINE_CACHE = 128
    """Cropped lines RichLog keeps ready to draw (its own default is 1,024, which holds on
    to lines long gone from the log: the cache is keyed by a line's number since the start)."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(max_lines=self.MAX_LINES, min_width=20, wrap=True, markup=False,
                         highlight=False, name=name, id=id, classes=classes)
        self.can_focus = False
        self._line_cache = LRUCache(self.LINE_CACHE)
        # where the last hands began, as line numbers since the start (RichLog's _start_line
        # counts the lines dropped from the top)
        self._hand_starts: list[int] = []

    def add_events(self, events: Iterable[Event], me: int | None = None) -> None:
        """Write the events and show the newest.

        The scroll to the end happens now, not after the next refresh as RichLog's own does:
        under a dialog (a hand's result) the table's screen is not refreshed, and the log
        would stay a few lines short of the end.
        """
        sized = self._size_known  # before its first layout RichLog keeps the lines, then scrolls
        for event in events:
            if sized and event.kind == "hand_started":
                self._new_hand()
            self.write(event_line(event, me), scroll_end=None if not sized else False)
        if sized:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _new_hand(self) -> None:
        """A hand starts: the hand before the last one leaves the log."""
        self._hand_starts.append(self._start_line + len(self.lines))
        if len(self._hand_starts) <= 2:
            return
        keep_from = self._hand_starts[-2]
        del self._hand_starts[:-2]
        drop = keep_from - self._start_line
        if drop <= 0:  # already gone under the line cap
            return
        del self.lines[:drop]
        self._start_line += drop
        self._line_cache.clear()
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.refresh()

    def on_resize(self, event: Resize) -> None:
        """Shorter or taller (the centre of the table grows and shrinks): still the newest."""
        if self._size_known:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
