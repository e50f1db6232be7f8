"""The middle of the table: match card, discard pile, deck, suit ranking, round, pots."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import card_text, suit_order_text
from pokeroulette_tui.ui.widgets.present import pots_text


def _drawn(view: SeatView, width: int | None) -> Text:
    """The cards turned to rank the suits, wrapped under ``drawn`` within ``width`` columns."""
    lines = [" drawn"]
    for card in view.suit_draw:
        if width and len(lines[-1]) + 1 + len(card.symbol) > width:
            lines.append("      ")
        lines[-1] += " " + card.symbol
    return Text("\n".join(lines), style="italic")


def centre_text(view: SeatView, *, four_color: bool = False, width: int | None = None) -> Text:
    """The centre of the table in a few short lines (fits a 28-column panel)."""
    r = view.rules
    out = Text()
    roulette = r.variant == "roulette"
    out.append("Poker Roulette" if roulette else "Five-card draw", style="bold")
    if roulette and view.round_no:
        out.append(f" · round {view.round_no}")
    out.append("\n")
    if roulette:
        if view.match is not None:
            out.append("Match ")
            out.append_text(card_text(view.match, four_color=four_color))
        elif view.last_match is not None:
            out.append("Match ")
            out.append_text(card_text(view.last_match, four_color=four_color))
            if view.match_claimed_by is not None:
                out.append(" claimed by ")
                out.append(view.players[view.match_claimed_by].name, style="bold")
            else:
                played = view.phase in (Phase.DEALT, Phase.BETTING, Phase.MATCHED)
                out.append("" if played else " (discarded)")
        else:
            out.append("Match —")
        out.append("\n")
    out.append(f"Deck {view.deck_count}")
    if view.reshuffled:
        out.append(" (discards reused)")
    out.append(f" · discards {len(view.discards)}")
    if view.discards:
        out.append(" top ")
        out.append_text(card_text(view.discards[-1], four_color=four_color))
    out.append("\n")
    if roulette or r.suit_tiebreak:
        out.append("Suits ")
        out.append_text(suit_order_text(view.suit_order, four_color=four_color))
        if view.suit_draw:
            out.append("\n")
            out.append_text(_drawn(view, width))
        out.append("\n")
    elif not roulette:
        out.append(f"Exchange up to {r.max_draw}\n")
    pots = pots_text(view)
    if pots.plain:
        out.append_text(pots)
        if view.current_bet:
            out.append(f"\nBet to match: {view.current_bet}")
    if view.game_over:
        out.append("\nGame over: ", style="bold")
        out.append(view.game_over_reason)
    return out


class CentreWidget(Widget):
    """The shared cards and the pot, drawn from the table's current view."""

    DEFAULT_CSS = """
    CentreWidget { height: auto; }
    """

    view: reactive[SeatView | None] = reactive(None, layout=True)
    four_color: reactive[bool] = reactive(False)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return centre_text(self.view, four_color=self.four_color,
                           width=self.content_size.width or None)
