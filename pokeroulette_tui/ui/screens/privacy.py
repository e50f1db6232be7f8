"""Hot-seat: hide the table until the next player has the keyboard."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.renderables import styled
from pokeroulette_tui.ui.widgets.footer import TidyFooter


class PrivacyScreen(Screen[bool]):
    """An opaque screen: "Pass to Bo — press Enter". Dismissed with True."""

    BINDINGS = [
        Binding("enter", "ready", N_("I am ready")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"), (76, "-normal"), (120, "-wide")]
    """(Styling only) ``-narrow`` below 76 columns: the box loses most of its padding
    (styles/app.tcss, ``#privacy-box``); ``-wide`` from 120 as on every screen."""

    GUARD = 0.7
    """Seconds after the screen appears during which Enter does nothing. The player before
    may press Enter just after their own move (meant for the table, or pressed twice); let
    through, it would pass the keyboard on at once and show them the next player's cards."""

    def __init__(self, player: str, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.player = player
        self._shown = time.monotonic()

    def on_screen_resume(self) -> None:
        self._shown = time.monotonic()  # (again after a dialog over it closes)

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(self._words(), id="privacy-box")
        yield TidyFooter()

    def _words(self) -> Text:
        """Who gets the keyboard, and a word to everyone else."""
        text = Text(justify="center")
        text.append_text(styled(_("Pass to {name} — press Enter"),
                                name=Text(self.player, style="bold")))
        text.append("\n\n")
        text.append_text(styled(_("Everyone else: look away. {name}'s cards are shown after Enter."),
                                style="italic", name=Text(self.player, style="not italic")))
        return text

    def retranslate(self) -> None:
        """The words again in the language just chosen."""
        self.query_one("#privacy-box", Static).update(self._words())

    def action_ready(self) -> None:
        if time.monotonic() - self._shown < self.GUARD:
            return  # too soon to be the next player's: see GUARD
        self.dismiss(True)
