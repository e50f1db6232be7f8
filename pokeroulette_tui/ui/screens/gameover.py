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

from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.engine.rules import token_words
from pokeroulette_tui.ui.widgets.present import standings
from pokeroulette_tui.ui.plain import plain


def standings_table(view: SeatView) -> RichTable:
    """Place, name, chips or tokens and status, best first."""
    forfeit = view.rules.scoring == "forfeit"
    table = RichTable(box=None, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right")
    table.add_column(_("Player"))
    if view.rules.uses_chips:
        table.add_column(_("Chips"), justify="right")
    if forfeit:
        table.add_column(plain(token_words(view.rules).capitalize()), justify="right")
    table.add_column(_("Status"))
    for row in standings(view):
        place = row["place"]
        cells = [str(place), plain(row["name"])]
        if view.rules.uses_chips:
            cells.append(str(row["chips"]))
        if forfeit:
            cells.append(str(row["tokens"]))
        cells.append(plain(status_words(view, row)))  # (it may say the tokens' name)
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
        return _("left the table")
    if status == "out":
        return _("out")
    if view.rules.scoring == "forfeit" and row.get("tokens") == 0:
        return _("no {tokens} left: lost").format(tokens=token_words(view.rules))
    return _("still in")


class GameOverScreen(ModalScreen[str | None]):
    """Standings; dismissed with "quit", "new" (back to the start screen) or None (look at the table)."""

    BINDINGS = [
        Binding("q", "choose('quit')", N_("Quit")),
        Binding("n", "choose('new')", N_("New game")),
        Binding("h", "choose('history')", N_("History")),
        Binding("escape", "choose(None)", N_("Table")),
    ]

    def __init__(self, view: SeatView, *, can_start_new: bool = True, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.view = view
        self.can_start_new = can_start_new

    def compose(self) -> ComposeResult:
        with Vertical(id="gameover-box", classes="dialog"):
            yield Static(Text(_("Game over"), style="bold"), classes="dialog-title")
            yield Static(Text(self.view.game_over_reason or _("The game has ended.")))
            yield Static(standings_table(self.view), id="standings")
            played = ngettext("{n} hand played", "{n} hands played", self.view.hand_no).format(
                n=self.view.hand_no)
            keys = [played, _("q quit")]
            if self.can_start_new:
                keys.append(_("n new game"))
            keys += [_("h history"), _("Esc back to the table")]
            yield Static(Text(" · ".join(keys), style="italic"))
        yield TidyFooter()

    async def retranslate(self) -> None:
        """The standings again in the language just chosen."""
        await self.recompose()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters and parameters[0] == "new":
            return self.can_start_new
        return True

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)
