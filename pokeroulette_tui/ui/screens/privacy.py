"""Hot-seat: hide the table until the next player has the keyboard."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter


class PrivacyScreen(Screen[bool]):
    """An opaque screen: "Pass to Bo — press Enter". Dismissed with True."""

    BINDINGS = [
        Binding("enter", "ready", "I am " + "ready"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, player: str, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.player = player

    def compose(self) -> ComposeResult:
        text = Text(justify="center")
        text.append("Pass to ")
        text.append(self.player, style="bold")
        text.append(" — press Enter\n\n")
        text.append("Everyone else: look away. ", style="italic")
        text.append(self.player)
        text.append("'s cards are shown after Enter.", style="italic")
        with Middle():
            with Center():
                yield Static(text, id="privacy-box")
        yield TidyFooter()

    def action_ready(self) -> None:
        self.dismiss(True)
