"""Network play's chat: the messages so far, and a line to write: Enter sends, Esc closes."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.widgets.chat import chat_text
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.typed_input import TypedInput

MAX_CHAT = 200


def chat_history(lines: Sequence[dict[str, Any]]) -> Text:
    """Every message kept, oldest first, one a line (literal text).

    >>> print(chat_history([{"name": "Bo", "text": "gl"}, {"name": "Cy", "text": "[b]hf"}]).plain)
    Bo: gl
    Cy: [b]hf
    >>> chat_history([]).plain
    'No chat yet.'
    """
    if not lines:
        return Text(_("No chat yet."), style="italic")
    return Text("\n").join(chat_text(msg) for msg in lines)


class ChatScreen(ModalScreen[str | None]):
    """The table's chat so far (``lines``: the messages as the client received them, the
    host's recent ones first) and a box to write in. Dismissed with the text to send
    (stripped, non-empty), or None."""

    BINDINGS = [Binding("escape", "cancel", N_("Close"))]

    def __init__(self, lines: Sequence[dict[str, Any]] = (), *, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box"):
            yield Static(Text(_("Chat"), style="bold"), classes="dialog-title")
            with VerticalScroll(id="chat-history", can_focus=False):
                yield Static(chat_history(self.lines), id="chat-lines")
            yield Static(_("Message to the table (Enter sends, Esc closes)"))
            yield TypedInput(placeholder=_("say something"), max_length=MAX_CHAT, id="chat-input")
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        history = self.query_one("#chat-history", VerticalScroll)
        self.call_after_refresh(history.scroll_end, animate=False)  # the newest, once laid out

    def show_lines(self, lines: Sequence[dict[str, Any]]) -> None:
        """The messages so far, again (new ones came while the chat is open: shown here,
        not in a toast over the input line); the newest in view if they were."""
        lines = list(lines)
        if lines == self.lines:
            return
        self.lines = lines
        history = self.query_one("#chat-history", VerticalScroll)
        at_end = history.scroll_y >= history.max_scroll_y
        self.query_one("#chat-lines", Static).update(chat_history(lines))
        if at_end:
            self.call_after_refresh(history.scroll_end, animate=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
