"""The event log: each event's sentence as plain text (names come from other players)."""

from __future__ import annotations

from typing import Iterable

from rich.cells import cached_cell_len
from rich.measure import measure_renderables
from rich.segment import Segment
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from pokeroulette_tui.engine.events import (BettingStarted, DeciderCalled, Event, GameOver,
                                            HandShown, HandStarted, MatchingEnded, PlayerOut,
                                            PotWon, TokenLost)
from pokeroulette_tui.ui import heap

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


class EventLog(ScrollView):
    """What happened, newest at the bottom: the hand being played and the one before it.

    Older hands leave the widget (the hand history, ``h``, has them): every line kept holds
    its rendered strips and their caches (some 10–25 KB a line), so a log that kept 2,000
    lines grew a spectating client by ~1 MiB/s at a fast table until it was full. A very long
    hand is still capped at :attr:`MAX_LINES`.

    It draws as Textual's RichLog does (wrapped, no markup, no highlighting; its own code,
    cut down to plain Text lines, so that RichLog's imports, ``rich.pretty`` among them, stay
    out of the start-up). Each entry keeps its ``Text`` beside its rendered strips, so a
    resize wraps every line again to the new width: ``lines`` holds the strips,
    ``_entries`` the texts with how many strips each made, ``_start_line`` counts the lines
    dropped from the top.
    """

    DEFAULT_CSS = """
    EventLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        height: 1fr;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    MAX_LINES = 300
    """Lines kept at most, whatever the hands (a safety net: two hands are far shorter)."""
    LINE_CACHE = 128
    """Cropped lines kept ready to draw (RichLog's default is 1,024, which holds on to lines
    long gone from the log: the cache is keyed by a line's number since the start)."""
    MIN_WIDTH = 20
    """The narrowest a line is rendered (RichLog's ``min_width``)."""
    CELL_WIDTHS_KEPT = 512
    """Rich remembers the width of every string it measures, up to 4,096 of them (some
    1.2 MB); each event's sentence is new, as are the chip counts drawn around it, so a busy
    table filled that cache over its first minutes, one sentence it would not draw again
    at a time. At a new hand it is emptied once it holds more than this many (the common
    strings are measured again in microseconds)."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.can_focus = False
        self.max_lines = self.MAX_LINES
        self.lines: list[Strip] = []
        self._entries: list[tuple[Text, int]] = []  # each line's text, and its strips
        self._first_entry = 0  # entries dropped from the top
        self._start_line = 0
        self._line_cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(self.LINE_CACHE)
        self._deferred: list[tuple[Text, bool | None]] = []  # written before the first layout
        self._widest_line_width = 0
        self._size_known = False
        self._wrapped_at = 0  # the width the lines were wrapped for
        # where the last hands began, as entry numbers since the start
        self._hand_starts: list[int] = []

    def add_events(self, events: Iterable[Event], me: int | None = None) -> None:
        """Write the events and show the newest.

        The scroll to the end happens now, not after the next refresh as RichLog's own does:
        under a dialog (a hand's result) the table's screen is not refreshed, and the log
        would stay a few lines short of the end.
        """
        sized = self._size_known  # before its first layout the lines are kept, then scrolled
        for event in events:
            if sized and event.kind == "hand_started":
                self._new_hand()
            self.write(event_line(event, me), scroll_end=None if not sized else False)
        if sized:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def write(self, content: Text | str, scroll_end: bool | None = None) -> "EventLog":
        """Add a line (wrapped to the log's width) at the bottom; scroll to the end after the
        next refresh unless ``scroll_end`` is False. Before the log's size is known, the line
        waits."""
        text = Text(content) if isinstance(content, str) else content
        if not self._size_known:
            self._deferred.append((text.copy(), scroll_end))
            return self
        text = text.copy()
        text.expand_tabs()
        strips = self._render(text)
        self._entries.append((text, len(strips)))
        self.lines.extend(strips)
        if len(self.lines) > self.max_lines:
            self._drop_entries(self._first_entry + len(self._entries) - 1, cap=True)
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        if scroll_end is None or scroll_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        return self

    def _render(self, text: Text) -> list[Strip]:
        """``text`` wrapped to the log's width, as strips (RichLog's way)."""
        console = self.app.console
        options = console.options
        render_width = measure_renderables(console, options, [text]).maximum
        region_width = self.scrollable_content_region.width
        self._wrapped_at = region_width
        if render_width > region_width:
            render_width = region_width
        render_width = max(render_width, self.MIN_WIDTH)
        options = options.update_width(render_width)
        lines = list(Segment.split_lines(console.render(text, options)))
        if not lines:
            self._widest_line_width = max(render_width, self._widest_line_width)
            return [Strip.blank(render_width)]
        strips = Strip.from_lines(lines)
        for strip in strips:
            strip.adjust_cell_length(render_width)
        self._widest_line_width = max(
            self._widest_line_width, max(sum(seg.cell_length for seg in line) for line in lines))
        return strips

    def _drop_entries(self, keep_from: int, *, cap: bool = False) -> None:
        """Drop the entries before entry number ``keep_from`` (counted since the start); with
        ``cap``, only as many as it takes to be back under :attr:`max_lines` (the newest
        entry always stays)."""
        drop_entries = drop_lines = 0
        for __, n in self._entries[:max(0, keep_from - self._first_entry)]:
            if cap and len(self.lines) - drop_lines <= self.max_lines:
                break
            drop_entries += 1
            drop_lines += n
        if not drop_lines:
            return
        del self._entries[:drop_entries]
        self._first_entry += drop_entries
        del self.lines[:drop_lines]
        self._start_line += drop_lines
        self._line_cache.clear()
        self.refresh()

    def _new_hand(self) -> None:
        """A hand starts: the hand before the last one leaves the log (and Rich forgets the
        widths of the strings it measured, see :attr:`CELL_WIDTHS_KEPT`; the memory the
        last hand freed goes back to the system, see :mod:`pokeroulette_tui.ui.heap`)."""
        if cached_cell_len.cache_info().currsize > self.CELL_WIDTHS_KEPT:
            cached_cell_len.cache_clear()
        if self._hand_starts:  # (not at the table's first hand: nothing freed yet, and the
            heap.give_back()  # C library's lookup stays off the way to the first frame)
        self._hand_starts.append(self._first_entry + len(self._entries))
        if len(self._hand_starts) <= 2:
            return
        keep_from = self._hand_starts[-2]
        del self._hand_starts[:-2]
        if keep_from <= self._first_entry:  # already gone under the line cap
            return
        self._drop_entries(keep_from)
        self.virtual_size = Size(self._widest_line_width, len(self.lines))

    def _rewrap(self) -> None:
        """Wrap every line again for the log's new width (the newest stays in view)."""
        self._widest_line_width = 0
        lines: list[Strip] = []
        entries: list[tuple[Text, int]] = []
        for text, __ in self._entries:
            strips = self._render(text)
            entries.append((text, len(strips)))
            lines.extend(strips)
        self._wrapped_at = self.scrollable_content_region.width
        self.lines, self._entries = lines, entries
        self._line_cache.clear()
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.refresh()

    # -- drawing (as RichLog) ---------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.virtual_size.width if self._size_known else container.width

    def on_resize(self, event: Resize) -> None:
        """Narrower or wider: the lines are wrapped again. Shorter or taller (the centre of
        the table grows and shrinks): still the newest. The first size known: the lines
        written before it are drawn."""
        if self._size_known:
            width = self.scrollable_content_region.width
            if width and width != self._wrapped_at:
                self._rewrap()
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        elif event.size.width:
            self._size_known = True
            deferred, self._deferred = self._deferred, []
            for text, scroll_end in deferred:
                self.write(text, scroll_end)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        rich_style = self.rich_style
        y += scroll_y
        if y >= len(self.lines):
            return Strip.blank(width, rich_style).apply_style(rich_style)
        key = (y + self._start_line, scroll_x, width, self._widest_line_width)
        line = self._line_cache.get(key)
        if line is None:
            line = self.lines[y].crop_extend(scroll_x, scroll_x + width, rich_style)
            self._line_cache[key] = line
        return line.apply_style(rich_style)
