"""Leaving the table: one line to confirm, so a stray key never takes a seat away."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.renderables import styled
from pokeroulette_tui.ui.widgets.footer import TidyFooter


class LeaveScreen(ModalScreen[bool]):
    """"Leave the table, Ada?" — dismissed with True (leave) or False (stay)."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", N_("Leave")),
        Binding("n,escape", "answer(False)", N_("Stay")),
    ]

    def __init__(self, player: str, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.player = player

    def compose(self) -> ComposeResult:
        text = styled(_("Leave the table, {name}?  y or Enter leaves · n or Esc stays"),
                      name=Text(self.player, style="bold"))
        text.append("\n" + _("Your seat is given up for this game: you may watch, not sit "
                             "down again."), style="dim")
        yield Static(text, id="leave-box")
        yield TidyFooter()

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
