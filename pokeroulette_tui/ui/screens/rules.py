"""The rules this table agreed on, in plain words (RuleSet.describe())."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.rules import RuleSet


def rules_text(rules: RuleSet, suit_order: str | None = None) -> Text:
    out = Text()
    for line in rules.describe():
        out.append("• " + line + "\n")
    if suit_order and rules.suit_order == "drawn":
        from pokeroulette_tui.engine.cards import SUIT_SYMBOLS
        out.append("• " + _("This table drew: {order}").format(
            order=" > ".join(SUIT_SYMBOLS[s] for s in suit_order)) + "\n")
    out.append("\n" + _("The whole rules reference, with every option and every decision: run "
                        "pokeroulette rules --doc"), style="italic")
    return out


class RulesScreen(ModalScreen[None]):
    """The agreed house rules, shown at any time."""

    BINDINGS = [Binding("escape,u,q", "close", N_("Close"))]

    def __init__(self, rules: RuleSet, suit_order: str | None = None, *, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.rules = rules
        self.suit_order = suit_order

    HEADING = N_("The rules of this table")
    BOX = "rules-box"

    def body(self) -> Text:
        return rules_text(self.rules, self.suit_order)

    def compose(self) -> ComposeResult:
        with Vertical(id=self.BOX, classes="dialog"):
            yield Static(Text(_(self.HEADING), style="bold"), classes="dialog-title")
            with VerticalScroll():
                yield Static(self.body())
        yield TidyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
