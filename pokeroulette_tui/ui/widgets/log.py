"""The event log: each event's sentence as plain text (names come from other players)."""

from __future__ import annotations

from typing import Iterable

from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

from pokeroulette_tui.engine.events import Event

_KIND_STYLE = {
    "hand_started": "bold reverse",
    "pot_won": "bold",
    "show": "bold",
    "token_lost": "bold italic",
    "out": "bold italic",
    "game_over": "bold reverse",
    "decider": "bold",
    "matching_over": "italic",
    "betting": "italic",
}


def event_line(event: Event, me: int | None = None) -> Text:
    """An event as one line of plain text; never parsed as markup.

    >>> event_line(Event("fold", "[bold]Bo[/] folds", seat=1)).plain
    '[bold]Bo[/] folds'
    """
    text = Text(event.text, style=_KIND_STYLE.get(event.kind, ""))
    if me is not None and event.seat == me and event.kind not in _KIND_STYLE:
        text.stylize("bold")
    return text


class EventLog(RichLog):
    """What happened, newest at the bottom."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(max_lines=2000, min_width=20, wrap=True, markup=False, highlight=False,
                         name=name, id=id, classes=classes)
        self.can_focus = False

    def add_events(self, events: Iterable[Event], me: int | None = None) -> None:
        """Write the events and show the newest.

        The scroll to the end happens now, not after the next refresh as RichLog's own does:
        under a dialog (a hand's result) the table's screen is not refreshed, and the log
        would stay a few lines short of the end.
        """
        sized = self._size_known  # before its first layout RichLog keeps the lines, then scrolls
        for event in events:
            self.write(event_line(event, me), scroll_end=None if not sized else False)
        if sized:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_resize(self, event: Resize) -> None:
        """Shorter or taller (the centre of the table grows and shrinks): still the newest."""
        if self._size_known:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
