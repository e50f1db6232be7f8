"""A one-line chat box for network play: type, Enter sends, Esc cancels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

MAX_CHAT = 200


class ChatScreen(ModalScreen[str | None]):
    """Dismissed with the text to send (stripped, non-empty), or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static("Message to the table (Enter sends, Esc cancels)")
            yield Input(placeholder="say something", max_length=MAX_CHAT, id="chat-input")
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
