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

from pokeroulette_tui.engine.actions import IllegalAction
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.session import Session
from pokeroulette_tui.ui.widgets.log import event_line


def hand_title(hand: list[Event], index: int, count: int) -> str:
    number = next((e.hand_no for e in hand if e.hand_no), 0)
    name = _("Hand {n}").format(n=number) if number else _("Before the first hand")
    return _("{name} ({k} of {count})").format(name=name, k=index + 1, count=count)


class HistoryScreen(ModalScreen[None]):
    """The hand history viewer; starts at the latest hand."""

    BINDINGS = [
        Binding("left", "step(-1)", N_("Earlier"), priority=True),
        Binding("right", "step(1)", N_("Later"), priority=True),
        Binding("home", "jump(0)", N_("First"), show=False, priority=True),
        Binding("end", "jump(-1)", N_("Latest"), show=False, priority=True),
        Binding("escape,h,q", "close", N_("Close")),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, hands: list[list[Event]], *, me: int | None = None,
                 session: Session | None = None, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.hands = [h for h in hands if h]
        self.me = me
        self.session = session  # a table that sends older hands on request (network play)
        self._fetching = False
        self.set_reactive(HistoryScreen.index, max(0, len(self.hands) - 1))

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box", classes="dialog"):
            yield Static("", id="history-title", classes="dialog-title")
            with VerticalScroll(id="history-scroll"):
                yield Static("", id="history-text")
            yield Static(Text(_("←/→ earlier/later hand · Home/End · Esc close"), style="italic"))
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
            title.update(Text(_("No hands played yet"), style="bold"))
            body.update("")
            return
        hand = self.hands[self.index]
        title.update(Text(hand_title(hand, self.index, len(self.hands)), style="bold"))
        body.update(Text("\n").join(event_line(e, self.me) for e in hand))
        self.query_one("#history-scroll", VerticalScroll).scroll_home(animate=False)

    def _older_elsewhere(self) -> bool:
        return self.session is not None and self.session.history_more

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            target = self.index + int(parameters[0])  # type: ignore[call-overload]
            return 0 <= target < len(self.hands) or (target < 0 and self._older_elsewhere())
        return True

    async def action_step(self, delta: int) -> None:
        target = self.index + delta
        if target < 0 and self._older_elsewhere() and not self._fetching:
            target = await self._fetch_older() - 1
        if 0 <= target < len(self.hands):
            self.index = target
            self._show()
        self.refresh_bindings()

    async def _fetch_older(self) -> int:
        """Ask the table for older hands; how many came (the current one moves up by that)."""
        assert self.session is not None
        self._fetching = True
        self.query_one("#history-title", Static).update(Text(_("Fetching older hands…"),
                                                             style="italic"))
        try:
            await self.session.more_history()
        except IllegalAction as exc:  # the connection is down: say so, keep what we have
            self.notify(str(exc), title=_("History"), severity="warning", markup=False)
        finally:
            self._fetching = False
        fresh = [h for h in self.session.history() if h]
        first = self.hands[0][0].hand_no if self.hands else None
        older = [h for h in fresh if first is None or h[0].hand_no < first]
        self.hands = older + self.hands
        self.set_reactive(HistoryScreen.index, self.index + len(older))
        self._show()
        return self.index

    def action_jump(self, where: int) -> None:
        if self.hands:
            self.index = where % len(self.hands)
        self.refresh_bindings()

    def action_close(self) -> None:
        self.dismiss(None)
