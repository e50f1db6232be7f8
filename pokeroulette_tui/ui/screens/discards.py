"""The whole discard pile (face-up cards; mucked ones face down), oldest first."""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.cards import RANK_CHARS, SUIT_SYMBOLS, SUITS, Card
from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.ui.renderables import cards_text


def pile_text(cards: tuple[Card | None, ...], *, four_color: bool = False) -> Text:
    """The pile in play order with a summary by suit of the face-up cards."""
    if not cards:
        return Text(_("The discard pile is empty."))
    hidden = sum(1 for c in cards if c is None)
    count = ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards))
    if hidden:
        count = _("{cards}, {hidden} face down").format(cards=count, hidden=hidden)
    out = Text(_("{count} · oldest first, top card last").format(count=count) + "\n\n",
               style="bold")
    out.append_text(cards_text(cards, four_color=four_color, sep=" "))
    seen = Counter(c for c in cards if c is not None)
    if seen:
        out.append("\n\n" + _("Face up, by suit:") + "\n", style="bold")
        for s in SUITS:
            ranks = sorted((c.rank for c in seen.elements() if c.suit == s), reverse=True)
            out.append(f" {SUIT_SYMBOLS[s]} ")
            out.append(" ".join(RANK_CHARS[r] for r in ranks) or "—")
            out.append("\n")
        jokers = sum(1 for c in seen.elements() if c.is_joker)
        if jokers:
            out.append(" ★ " + ngettext("{n} joker", "{n} jokers", jokers).format(n=jokers) + "\n")
    out.rstrip()
    return out


class DiscardsScreen(ModalScreen[None]):
    """Everyone may look through the discard pile."""

    BINDINGS = [Binding("escape,d,q", "close", N_("Close"))]

    def __init__(self, cards: tuple[Card | None, ...], *, four_color: bool = False,
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.cards = cards
        self.four_color = four_color

    def compose(self) -> ComposeResult:
        with Vertical(id="discards-box", classes="dialog"):
            yield Static(Text(_("Discard pile"), style="bold"), classes="dialog-title")
            with VerticalScroll():
                yield Static(pile_text(self.cards, four_color=self.four_color))
        yield TidyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
