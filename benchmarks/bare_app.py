"""The reference of bench_startup.py: a bare Textual app with a footer.

Run as its own process (``python benchmarks/bare_app.py``) in a terminal, it shows
``hello`` and a footer offering ``x Change`` and ``q Quit``; each ``x`` changes the text
to ``pressed 1``, ``pressed 2`` … Nothing else: no command line, no settings, no files.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static


class Bare(App[None]):
    BINDINGS = [Binding("x", "change", "Change"), Binding("q", "quit", "Quit")]

    presses = 0

    def compose(self) -> ComposeResult:
        yield Static("hello", id="hello")
        yield Footer()

    def action_change(self) -> None:
        self.presses += 1
        self.query_one("#hello", Static).update(f"pressed {self.presses}")


if __name__ == "__main__":
    Bare().run()
