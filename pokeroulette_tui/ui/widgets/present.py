"""Plain-text presentation of a SeatView: seat lines, best hands, pots, standings (no Textual).

Everything here reads a :class:`SeatView` (never the game state) and returns Rich
``Text``, so the table's widgets stay thin and these are testable on their own.
Names come from other players: they are always appended as plain text, never markup.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any, Sequence

from rich.console import Console
from rich.text import Text

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.hands import HandValue, evaluate
from pokeroulette_tui.engine.i18n import N_, _, ngettext, pgettext
from pokeroulette_tui.engine.result import positions_of
from pokeroulette_tui.engine.roulette import reason_words
from pokeroulette_tui.engine.scoring import ranked
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.view import PlayerView, SeatView
from pokeroulette_tui.ui.renderables import BOX_WIDTH, boxed_row, card_text, cards_text

PHASE_WORDS = {
    Phase.WAITING: N_("waiting for the deal"),
    Phase.DEALT: N_("cards dealt"),
    Phase.MATCHED: N_("matching"),
    Phase.BETTING: N_("betting"),
    Phase.STOCK_TO_ACTIVE: N_("stock to active"),
    Phase.CUT: N_("the cut"),
    Phase.DRAW: N_("the draw"),
    Phase.FINAL: N_("final"),
    Phase.HAND_OVER: N_("hand over"),
    Phase.GAME_OVER: N_("game over"),
}
"""Each phase in words (translated where shown)."""

_BETTING_ROUND_WORDS = {
    "final": N_("betting final round"),
    "pre_draw": N_("betting before the draw"),
    "post_draw": N_("betting after the draw"),
}


def evaluate_cards(view: SeatView, cards: Sequence[Card]) -> HandValue | None:
    """The best hand of ``cards`` under the table's rules (None for no cards): what a seat's
    visible cards make during the hand (the hand's result comes from the engine)."""
    if not cards:
        return None
    r = view.rules
    if r.variant == "roulette":
        return evaluate(list(cards), five_of_a_kind=r.five_of_a_kind, jokers=r.jokers_at_end,
                        suit_order=view.suit_order)
    return evaluate(list(cards), suit_order=view.suit_order if r.suit_tiebreak else None)


def player_cards(view: SeatView, p: PlayerView) -> tuple[Card | None, ...]:
    """The cards that make ``p``'s hand: the stock in roulette, the five cards in draw."""
    return p.stock if view.rules.variant == "roulette" else p.hand


def best_visible(view: SeatView, p: PlayerView) -> tuple[HandValue | None, set[int]]:
    """The best hand of the cards of ``p`` this viewer can see, and their positions.

    For another seat this names the hand of its public cards only.
    """
    shown = player_cards(view, p)
    visible = [c for c in shown if c is not None]
    value = evaluate_cards(view, visible)
    if value is None or not value.cards:
        return None, set()
    return value, positions_of(shown, value.cards)


def score_text(view: SeatView, p: PlayerView) -> str:
    """Chips and/or forfeit tokens, e.g. ``97 chips`` or ``5 items``."""
    r = view.rules
    parts = []
    if r.uses_chips:
        parts.append(ngettext("{n} chip", "{n} chips", p.chips).format(n=p.chips))
    if r.scoring == "forfeit":
        parts.append(token_count(p.tokens, r.token_name))
    return " · ".join(parts)


def token_count(n: int, name: str) -> str:
    """``n`` forfeit tokens in words: the presets' names (tokens, items) in the player's
    language, a name the table chose as it was written.

    >>> token_count(1, "items"), token_count(3, "tokens"), token_count(1, "fish")
    ('1 item', '3 tokens', '1 fish')
    """
    if name == "tokens":
        return ngettext("{n} token", "{n} tokens", n).format(n=n)
    if name == "items":
        return ngettext("{n} item", "{n} items", n).format(n=n)
    return counted(n, name)


def counted(n: int, plural: str) -> str:
    """``n`` of a thing named in the plural, in the singular for one.

    >>> counted(1, "items"), counted(0, "items"), counted(2, "tokens"), counted(1, "fish")
    ('1 item', '0 items', '2 tokens', '1 fish')
    """
    if n == 1 and plural.endswith("s") and not plural.endswith("ss"):
        return f"1 {plural[:-1]}"
    return f"{n} {plural}"


def status_words(view: SeatView, p: PlayerView) -> list[str]:
    """The seat's state in words (never colour only): folded, all in, out, left …"""
    words: list[str] = []
    if view.to_act == p.seat and not view.dealer_step and not view.game_over:
        words.append(_("TO ACT"))
    if p.status == "left":
        words.append(_("left"))
    elif p.status == "out":
        words.append(_("out"))
    elif p.sit_out_hands:
        words.append(_("sitting out"))
    elif p.folded:
        words.append(pgettext("seat status", "folded"))
    elif p.all_in and view.phase not in BETWEEN_HANDS:  # (the engine keeps the flag until
        words.append(_("all in"))                        # the next deal: not said after)
    elif not p.in_hand and view.phase not in (Phase.WAITING, Phase.GAME_OVER):
        words.append(_("not in this hand"))
    if p.last_life:
        words.append(_("last life"))
    if view.decider and p.seat in view.decider:
        words.append(_("deciding hand"))
    return words


@lru_cache(maxsize=1)
def wrap_console() -> Console:
    """A console to wrap text with (it never prints)."""
    return Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)


class _Lines:
    """Builds lines of pieces; a piece that would pass ``width`` starts a new indented line."""

    def __init__(self, width: int | None, indent: str = "      ") -> None:
        self.width = width
        self.indent = indent
        self.lines: list[Text] = [Text()]

    def newline(self, lead: str = "    ") -> None:
        self.lines.append(Text(lead))

    def add(self, piece: Text | str, sep: str = "  ", style: str = "") -> None:
        piece = Text(piece, style=style) if isinstance(piece, str) else piece
        line = self.lines[-1]
        if (self.width and line.cell_len and line.plain.strip()
                and line.cell_len + len(sep) + piece.cell_len > self.width):
            self.lines.append(Text(self.indent))
            line = self.lines[-1]
        elif line.plain.strip():
            line.append(sep)
        room = (self.width or 0) - line.cell_len
        if self.width and piece.cell_len > room >= 8:
            # too long even on a line of its own: wrap it, every part under the first indented
            fit = min(room, self.width - len(self.indent))
            first, *rest = piece.wrap(wrap_console(), fit)
            line.append_text(first)
            for part in rest:
                self.lines.append(Text(self.indent))
                self.lines[-1].append_text(part)
            return
        line.append_text(piece)

    def text(self) -> Text:
        return Text("\n").join(self.lines)


def hstack(blocks: list[Text], gap: str = "   ") -> Text:
    """Multi-line texts side by side.

    >>> print(hstack([Text("a\\nbb"), Text("c")], gap=" ").plain)
    a  c
    bb
    """
    split = [b.split("\n", allow_blank=True) for b in blocks]
    height = max(len(s) for s in split)
    widths = [max((line.cell_len for line in s), default=0) for s in split]
    rows = []
    for y in range(height):
        row = Text()
        for k, s in enumerate(split):
            if k:
                row.append(gap)
            line = s[y] if y < len(s) else Text("")
            row.append_text(line)
            row.append(" " * (widths[k] - line.cell_len))
        row.rstrip()
        rows.append(row)
    return Text("\n").join(rows)


def seat_text(view: SeatView, seat: int, *, four_color: bool = False, width: int | None = None,
              big: bool = False) -> Text:
    """A seat in two or three lines: who, score and state; cards; the actives.

    With ``width``, a piece that would not fit starts a new indented line. With ``big``
    the cards are boxed faces, three lines high, if they fit in ``width``.
    """
    p = view.players[seat]
    r = view.rules
    me = view.seat == seat
    to_act = view.to_act == seat and not view.dealer_step and not view.game_over
    out = _Lines(width)
    who = Text("▶ " if to_act else "  ", style="bold")
    who.append(p.name, style="bold underline" if me else "bold")
    if me and p.name.strip().lower() != "you":
        who.append(" " + _("(you)"))
    if p.is_bot:
        who.append(" " + _("(bot)"), style="italic")
    out.add(who, sep="")
    if view.button == seat and view.hand_no:
        out.add(_("[button]") if r.variant == "roulette" else _("[dealer]"), sep=" ")
    out.add(score_text(view, p))
    if p.bet and view.phase == Phase.BETTING:  # (once the round is over, its bets are the pot's)
        out.add(_("bet {amount}").format(amount=p.bet), style="bold")
    words = status_words(view, p)
    if words:
        out.add(" · ".join(words), style="bold reverse" if to_act else "italic")
    if p.folded or p.status in ("out", "left"):
        return out.text()
    cards = player_cards(view, p)
    boxed_fits = width is None or 6 + len(cards) * (BOX_WIDTH + 1) + 12 <= width
    if cards and big and boxed_fits:
        value, marked = best_visible(view, p)
        label = Text("\n" + (_("stock") if r.variant == "roulette" else _("hand")))
        faces = boxed_row(cards, four_color=four_color,
                          highlight=marked if me or p.shown else ())
        faces_width = len(cards) * (BOX_WIDTH + 1) - 1
        words = _Lines(None if width is None else width - faces_width - 8, indent="")
        if value is not None:
            words.add(_hand_words(value, cards), style="italic")
        if r.variant == "draw" and p.drawn >= 0:
            words.add(_drawn_words(p.drawn), style="italic")
        out.lines.extend(hstack([label, faces, Text("\n").join([Text(), *words.lines])],
                                gap=" ").split("\n"))
    elif cards:
        value, marked = best_visible(view, p)
        out.newline()
        label = (_("stock") if r.variant == "roulette" else _("hand")) + " "
        lit = set(marked if me or p.shown else ())
        faces = [card_text(c, four_color=four_color, highlight=i in lit)
                 for i, c in enumerate(cards)]
        row = Text(label)
        room = None if width is None else max(4, width - 4 - len(label))
        used = 0
        for face in faces:  # a long stock wraps between cards, never inside one
            if room is not None and used and used + face.cell_len > room:
                out.add(row, sep="")
                out.newline(" " * (4 + len(label)))
                row, used = Text(), 0
            row.append_text(face)
            used += face.cell_len
        out.add(row, sep="")
        if value is not None:
            out.add(_hand_words(value, cards), style="italic")
        if r.variant == "draw" and p.drawn >= 0:
            out.add(_drawn_words(p.drawn), style="italic")
    if r.variant == "roulette" and p.actives_up and (p.actives or p.added):
        out.newline()
        row = Text(_("turned"))
        for c in p.added:
            row.append(" ✓")
            row.append_text(card_text(c, four_color=four_color))
        for c in p.actives:
            row.append(" ✗")
            row.append_text(card_text(c, four_color=four_color, dim=True))
        out.add(row, sep="")
        if p.reason:
            out.add(reason_words(p.reason), style="italic")
    elif r.variant == "roulette" and p.actives:
        out.newline()
        row = Text(_("actives") + " ")
        row.append_text(cards_text(p.actives, four_color=four_color))
        out.add(row, sep="")
    return out.text()


def _hand_words(value: HandValue, cards: Sequence[Card | None]) -> str:
    """The hand a seat's cards make, said to be what shows when some are face down."""
    if any(c is None for c in cards):
        return _("{hand} (showing)").format(hand=value.describe())
    return value.describe()


def _drawn_words(drawn: int) -> str:
    """How many cards a seat exchanged at the draw."""
    return _("stood pat") if drawn == 0 else _("drew {n}").format(n=drawn)


def shown_pots(view: SeatView) -> list[tuple[int, tuple[int, ...]]]:
    """The pots as a player thinks of them: one pot, split only where a player is all in
    for less than others put in (then a main pot and side pots, each with who may win it).

    The engine's own pots are cut at every level of contribution, so while a round's bets
    are not yet matched an ordinary bet would look like a side pot.
    """
    total = sum(a for a, __ in view.pots)
    live = [p for p in view.players if p.in_hand and not p.folded]
    everyone = (total, tuple(p.seat for p in live))
    top = max((p.contributed for p in view.players), default=0)
    levels = sorted({p.contributed for p in live if p.all_in and 0 < p.contributed < top})
    if not levels:
        return [everyone]
    out: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    for level in levels + [top]:
        amount = sum(min(p.contributed, level) - min(p.contributed, prev) for p in view.players)
        eligible = tuple(p.seat for p in live if p.contributed > prev)
        if amount:
            out.append((amount, eligible))
        prev = level
    return out if sum(a for a, __ in out) == total else [everyone]


def pots_text(view: SeatView) -> Text:
    """``Pot 24``, or a main pot and side pots with who may win them."""
    out = Text()
    if not view.pots:
        total = sum(pl.bet for pl in view.players)
        if view.rules.uses_chips:
            out.append(_("Pot {amount}").format(amount=total), style="bold")
        return out
    pots = shown_pots(view)
    for i, (amount, eligible) in enumerate(pots):
        if i:
            out.append("\n")
        label = (_("Pot {amount}") if len(pots) == 1 else _("Main pot {amount}") if i == 0
                 else _("Side pot {amount}"))
        out.append(label.format(amount=amount), style="bold")
        if len(pots) > 1:
            out.append(" (")
            for k, s in enumerate(eligible):
                if k:
                    out.append(", ")
                out.append(view.players[s].name)
            out.append(")")
    return out


def total_pot(view: SeatView) -> int:
    return sum(a for a, __ in view.pots)


def standings(view: SeatView) -> list[dict[str, Any]]:
    """Seats best first, as ``engine.scoring.standings`` orders them (the same key, from the
    view's players): players still in by chips or tokens, then those out, the latest out
    first, leavers last; each with its ``place`` (equal standings share one)."""
    forfeit = view.rules.scoring == "forfeit"
    return [{"seat": p.seat, "name": p.name, "chips": p.chips + p.contributed, "tokens": p.tokens,
             "status": p.status, "place": place}
            for place, __, p in ranked([(p.seat, p) for p in view.players], forfeit)]


def phase_text(view: SeatView) -> str:
    """The phase in words, with the betting round when there is one."""
    words = PHASE_WORDS.get(view.phase)
    if words is None:
        return str(view.phase)
    if view.phase == Phase.BETTING and view.betting_round:
        if view.betting_round == "round":
            return _("betting after round {n}").format(n=view.round_no)
        if view.betting_round in _BETTING_ROUND_WORDS:
            return _(_BETTING_ROUND_WORDS[view.betting_round])
        return _(words) + " " + view.betting_round
    return _(words)
