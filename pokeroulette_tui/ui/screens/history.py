"""Past hands, step by step: the events of one hand at a time, left and right to move."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.ui.widgets.log import event_line


def hand_title(hand: list[Event], index: int, count: int) -> str:
    number = next((e.hand_no for e in hand if e.hand_no), 0)
    name = f"Hand {number}" if number else "Before the first hand"
    return f"{name} ({index + 1} of {count})"


class HistoryScreen(ModalScreen[None]):
    """The hand history viewer; starts at the latest hand."""

    BINDINGS = [
        Binding("left", "step(-1)", "Earlier", priority=True),
        Binding("right", "step(1)", "Later", priority=True),
        Binding("home", "jump(0)", "First", show=False, priority=True),
        Binding("end", "jump(-1)", "Latest", show=False, priority=True),
        Binding("escape,h,q", "close", "Close"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, hands: list[list[Event]], *, me: int | None = None, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.hands = [h for h in hands if h]
        self.me = me
        self.set_reactive(HistoryScreen.index, max(0, len(self.hands) - 1))

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box", classes="dialog"):
            yield Static("", id="history-title", classes="dialog-title")
            with VerticalScroll(id="history-scroll"):
                yield Static("", id="history-text")
            yield Static(Text("←/→ earlier/later hand · Home/End · Esc close", style="italic"))
        yield TidyFooter()

    def on_mount(self) -> None:
        self._show()

    def watch_index(self) -> None:
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        title = self.query_one("#history-title", Static)
        body = self.query_one("#history-text", Static)
        if not self.hands:
            title.update(Text("No hands played yet", style="bold"))
            body.update("")
            return
        hand = self.hands[self.index]
        title.update(Text(hand_title(hand, self.index, len(self.hands)), style="bold"))
        body.update(Text("\n").join(event_line(e, self.me) for e in hand))
        self.query_one("#history-scroll", VerticalScroll).scroll_home(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            target = self.index + int(parameters[0])  # type: ignore[call-overload]
            return 0 <= target < len(self.hands)
        return True

    def action_step(self, delta: int) -> None:
        target = self.index + delta
        if 0 <= target < len(self.hands):
            self.index = target
        self.refresh_bindings()

    def action_jump(self, where: int) -> None:
        if self.hands:
            self.index = where % len(self.hands)
        self.refresh_bindings()

    def action_close(self) -> None:
        self.dismiss(None)
