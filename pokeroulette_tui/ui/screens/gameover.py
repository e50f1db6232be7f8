"""The end of the game: the standings, and the way out."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.widgets.present import standings


def standings_table(view: SeatView) -> RichTable:
    """Place, name, chips or tokens and status, best first."""
    forfeit = view.rules.scoring == "forfeit"
    table = RichTable(box=None, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right")
    table.add_column("Player")
    if view.rules.uses_chips:
        table.add_column("Chips", justify="right")
    if forfeit:
        table.add_column(view.rules.token_name.capitalize(), justify="right")
    table.add_column("Status")
    for place, row in enumerate(standings(view), start=1):
        cells = [str(place), Text(row["name"])]
        if view.rules.uses_chips:
            cells.append(str(row["chips"]))
        if forfeit:
            cells.append(str(row["tokens"]))
        cells.append(status_words(view, row))
        table.add_row(*cells, style="bold" if place == 1 else "")
    return table


def status_words(view: SeatView, row: dict[str, object]) -> str:
    """A seat's standing in words: a forfeit player with no tokens left lost, even when the
    game ended at once (first out), rather than "playing".

    >>> from types import SimpleNamespace as NS
    >>> v = NS(rules=NS(scoring="forfeit", token_name="items"))
    >>> status_words(v, {"status": "playing", "tokens": 0}), status_words(v, {"status": "left"})
    ('no items left: lost', 'left the table')
    """
    status = row["status"]
    if status == "left":
        return "left the table"
    if status == "out":
        return "out"
    if view.rules.scoring == "forfeit" and row.get("tokens") == 0:
        return f"no {view.rules.token_name} left: lost"
    return "still in"


class GameOverScreen(ModalScreen[str | None]):
    """Standings; dismissed with "quit", "new" (back to the start screen) or None (look at the table)."""

    BINDINGS = [
        Binding("q", "choose('quit')", "Quit"),
        Binding("n", "choose('new')", "New game"),
        Binding("h", "choose('history')", "History"),
        Binding("escape", "choose(None)", "Table"),
    ]

    def __init__(self, view: SeatView, *, can_start_new: bool = True, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.view = view
        self.can_start_new = can_start_new

    def compose(self) -> ComposeResult:
        with Vertical(id="gameover-box", classes="dialog"):
            yield Static(Text("Game over", style="bold"), classes="dialog-title")
            yield Static(Text(self.view.game_over_reason or "The game has ended."))
            yield Static(standings_table(self.view), id="standings")
            yield Static(Text(f"{self.view.hand_no} hands played · q quit"
                              + (" · n new game" if self.can_start_new else "")
                              + " · h history · Esc back to the table", style="italic"))
        yield TidyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters and parameters[0] == "new":
            return self.can_start_new
        return True

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
