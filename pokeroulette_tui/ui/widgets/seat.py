"""One seat at the table: name, score, state and the cards this viewer may see."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.widgets.present import seat_text


class SeatWidget(Widget):
    """A seat, drawn from the table's current :class:`SeatView` (set by the screen).

    CSS classes derived from the view, for styling only: ``-me``, ``-to-act``,
    ``-folded``, ``-out`` (out or left), ``-button``.
    """

    DEFAULT_CSS = """
    SeatWidget { height: auto; }
    """

    view: reactive[SeatView | None] = reactive(None)
    four_color: reactive[bool] = reactive(False)

    def __init__(self, seat: int, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.seat = seat
        self._lines = 0

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return seat_text(self.view, self.seat, four_color=self.four_color,
                         width=self.content_size.width or None)

    def watch_view(self, view: SeatView | None) -> None:
        if view is None:
            return
        width = self.content_size.width or None
        text = seat_text(view, self.seat, four_color=self.four_color, width=width)
        lines = len(text.wrap(self.app.console, width or 80))
        if lines != self._lines:
            self._lines = lines
            self.refresh(layout=True)
        p = view.players[self.seat]
        self.set_class(view.seat == self.seat, "-me")
        self.set_class(view.to_act == self.seat and not view.dealer_step and not view.game_over,
                       "-to-act")
        self.set_class(p.folded, "-folded")
        self.set_class(p.status in ("out", "left") or bool(p.sit_out_hands), "-out")
        self.set_class(view.button == self.seat, "-button")
