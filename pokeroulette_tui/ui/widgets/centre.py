"""The middle of the table: match card, discard pile, deck, suit ranking, round, pots."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import card_text, styled, suit_order_text
from pokeroulette_tui.ui.widgets.present import pots_text


def _drawn(view: SeatView, width: int | None) -> Text:
    """The cards turned to rank the suits, wrapped under ``drawn`` within ``width`` columns."""
    lines = [" " + _("drawn")]
    indent = " " * len(lines[0])
    for card in view.suit_draw:
        if width and len(lines[-1]) + 1 + len(card.symbol) > width:
            lines.append(indent)
        lines[-1] += " " + card.symbol
    return Text("\n".join(lines), style="italic")


def centre_text(view: SeatView, *, four_color: bool = False, width: int | None = None) -> Text:
    """The centre of the table in a few short lines (fits a 28-column panel)."""
    r = view.rules
    out = Text()
    roulette = r.variant == "roulette"
    out.append(_("Poker Roulette") if roulette else _("Five-card draw"), style="bold")
    if roulette and view.round_no:
        out.append(" · " + _("round {n}").format(n=view.round_no))
    out.append("\n")
    if roulette:
        if view.match is not None:
            out.append_text(styled(_("Match {card}"),
                                   card=card_text(view.match, four_color=four_color)))
        elif view.last_match is not None:
            card = card_text(view.last_match, four_color=four_color)
            if view.match_claimed_by is not None:
                name = Text(view.players[view.match_claimed_by].name, style="bold")
                out.append_text(styled(_("Match {card} claimed by {name}"), card=card, name=name))
            else:
                played = view.phase in (Phase.DEALT, Phase.BETTING, Phase.MATCHED)
                out.append_text(styled(_("Match {card}") if played else _("Match {card} (discarded)"),
                                       card=card))
        else:
            out.append(_("Match —"))
        out.append("\n")
    out.append(_("Deck {n}").format(n=view.deck_count))
    if view.reshuffled:
        out.append(" " + _("(discards reused)"))
    out.append(" · " + _("discards {n}").format(n=len(view.discards)))
    if view.discards:
        out.append(" ")
        out.append_text(styled(_("top {card}"),
                               card=card_text(view.discards[-1], four_color=four_color)))
    out.append("\n")
    if roulette or r.suit_tiebreak:
        out.append(_("Suits") + " ")
        out.append_text(suit_order_text(view.suit_order, four_color=four_color))
        if view.suit_draw:
            out.append("\n")
            out.append_text(_drawn(view, width))
        out.append("\n")
    elif not roulette:
        out.append(_("Exchange up to {n}").format(n=r.max_draw) + "\n")
    pots = pots_text(view)
    if pots.plain:
        out.append_text(pots)
        if view.current_bet and view.phase == Phase.BETTING:  # (the engine keeps the last
            # round's bet until the next round: shown only while there is a bet to match)
            out.append("\n" + _("Bet to match: {amount}").format(amount=view.current_bet))
    if view.game_over:
        out.append("\n" + _("Game over:") + " ", style="bold")
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
