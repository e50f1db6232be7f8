"""Card faces as pure Rich renderables: compact ``[A♠]``, boxed three- and five-line faces,
backs, jokers.

Nothing here knows about Textual, so every face is testable on its own. Colour is
never the only signal: a suit always carries its symbol, a card that makes a hand is
bold and underlined (boxed: heavy border), a card chosen to exchange gets a double
border and the word "out". A ten is ``T`` on every face, as in the log and the hand
history (``[T♥]``, ``│ T♥│``): every rank is one character.

>>> card_text(Card(14, "S")).plain
'[A♠]'
>>> card_text(None).plain, card_text(JOKER).plain
('[▒▒]', '[★]')
"""

from __future__ import annotations

from string import Formatter
from typing import Iterable, Sequence

from rich.style import Style
from rich.text import Text

from pokeroulette_tui.engine.cards import JOKER, RANK_CHARS, SUIT_SYMBOLS, Card  # noqa: F401 (doctests)
from pokeroulette_tui.engine.i18n import _

__all__ = [
    "BIG_WIDTH",
    "BOX_WIDTH",
    "boxed_row",
    "card_text",
    "cards_text",
    "styled",
    "suit_order_text",
    "suit_style",
]

BOX_WIDTH = 5
"""Cells one boxed face takes (without the gap after it)."""
BIG_WIDTH = 7
"""Cells one big (five-line) boxed face takes."""

_FACE_BG = "#f2efe4"  # an ivory card face, readable in both themes
_BACK = Style(color="#c8d2ff", bgcolor="#27306b")
_TWO = {"S": "#1a1a1a", "H": "#c0102a", "D": "#c0102a", "C": "#1a1a1a", "*": "#8a1fa8"}
_FOUR = {"S": "#1a1a1a", "H": "#c0102a", "D": "#1545b5", "C": "#11772f", "*": "#8a1fa8"}
_HIGHLIGHT_BG = "#ffd75f"

_BOX = ("╭", "─", "╮", "│", "╰", "╯")
_HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")
_DOUBLE = ("╔", "═", "╗", "║", "╚", "╝")


def suit_style(suit: str, *, four_color: bool = False, highlight: bool = False) -> Style:
    """The face style of a card of ``suit`` (ink on an ivory face)."""
    ink = (_FOUR if four_color else _TWO).get(suit, "#1a1a1a")
    if highlight:
        return Style(color=ink, bgcolor=_HIGHLIGHT_BG, bold=True, underline=True)
    return Style(color=ink, bgcolor=_FACE_BG, bold=True)


def _rank(card: Card) -> str:
    return "★" if card.is_joker else RANK_CHARS[card.rank]


def card_text(card: Card | None, *, four_color: bool = False, highlight: bool = False,
              dim: bool = False) -> Text:
    """One card on one line: ``[A♠]``, a face-down card ``[▒▒]``, a joker ``[★]``.

    Args:
        card: The card, or None for a card whose face this viewer may not see.
        four_color: Spades black, hearts red, diamonds blue, clubs green.
        highlight: The card makes the hand being shown (bold, underlined, gold).
        dim: The card is out of play (dimmed, still legible).

    >>> card_text(Card(10, "D")).plain
    '[T♦]'
    >>> card_text(Card(2, "C"), highlight=True).style.underline
    True
    """
    if card is None:
        text = Text("[▒▒]", style=_BACK)
    elif card.is_joker:
        text = Text("[★]", style=suit_style("*", four_color=four_color, highlight=highlight))
    else:
        text = Text(f"[{RANK_CHARS[card.rank]}{SUIT_SYMBOLS[card.suit]}]",
                    style=suit_style(card.suit, four_color=four_color, highlight=highlight))
    if dim:
        text.stylize(Style(dim=True))
    return text


def cards_text(cards: Iterable[Card | None], *, four_color: bool = False,
               highlight: Iterable[int] = (), sep: str = "") -> Text:
    """A row of compact cards; positions in ``highlight`` are highlighted.

    >>> cards_text([Card(14, "S"), None, JOKER]).plain
    '[A♠][▒▒][★]'
    """
    marked = set(highlight)
    out = Text()
    for i, card in enumerate(cards):
        if i and sep:
            out.append(sep)
        out.append_text(card_text(card, four_color=four_color, highlight=i in marked))
    return out


def _face_rows(card: Card | None, big: bool) -> list[str]:
    """The inside of a boxed face, row by row (3 cells wide, or 5 for a big face)."""
    if not big:
        if card is None:
            return ["▒▒▒"]
        return [" ★ " if card.is_joker else " " + _rank(card) + SUIT_SYMBOLS[card.suit]]
    if card is None:
        return ["▒▒▒▒▒"] * 3
    if card.is_joker:
        return ["★    ", "JOKER", "    ★"]
    corner = _rank(card) + SUIT_SYMBOLS[card.suit]
    return [corner + "   ", "  " + SUIT_SYMBOLS[card.suit] + "  ", "   " + corner]


def _boxed_lines(card: Card | None, *, four_color: bool, highlight: bool,
                 selected: bool, big: bool = False) -> list[Text]:
    tl, bar, tr, side, bl, br = _DOUBLE if selected else _HEAVY if highlight else _BOX
    style = _BACK if card is None else suit_style(card.suit, four_color=four_color,
                                                  highlight=highlight)
    if selected:
        style = style + Style(dim=True)
    inner = 5 if big else 3
    rows = [tl + bar * inner + tr] + [side + r + side for r in _face_rows(card, big)]
    rows.append(bl + bar * inner + br)
    return [Text(r, style=style) for r in rows]


def boxed_row(cards: Sequence[Card | None], *, four_color: bool = False,
              highlight: Iterable[int] = (), selected: Iterable[int] = (),
              labels: Sequence[str] | None = None, gap: int = 1, big: bool = False) -> Text:
    """Cards as three-line boxed faces side by side (``big``: five-line faces), with an
    optional label line under them.

    A highlighted card (it makes the hand) has a heavy border; a selected card (to
    exchange) a double border. Labels are centred under each card.

    >>> print(boxed_row([Card(14, "S"), Card(10, "H")]).plain)
    ╭───╮ ╭───╮
    │ A♠│ │ T♥│
    ╰───╯ ╰───╯
    >>> print(boxed_row([Card(10, "H"), None], big=True, labels=["1", "2"]).plain)
    ╭─────╮ ╭─────╮
    │T♥   │ │▒▒▒▒▒│
    │  ♥  │ │▒▒▒▒▒│
    │   T♥│ │▒▒▒▒▒│
    ╰─────╯ ╰─────╯
       1       2   
    """
    marked, chosen = set(highlight), set(selected)
    width = BIG_WIDTH if big else BOX_WIDTH
    rows = [Text() for __ in range(5 if big else 3)]
    label_row = Text()
    for i, card in enumerate(cards):
        parts = _boxed_lines(card, four_color=four_color, highlight=i in marked,
                             selected=i in chosen, big=big)
        for row, part in zip(rows, parts):
            if i:
                row.append(" " * gap)
            row.append_text(part)
        if labels is not None:
            if i:
                label_row.append(" " * gap)
            label = labels[i] if i < len(labels) else ""
            label_row.append(label[:width].center(width),
                             style="bold reverse" if i in chosen else "")
    lines = rows + ([label_row] if labels is not None else [])
    return Text("\n").join(lines)


def styled(template: str, style: str = "", **parts: Text | str | int) -> Text:
    """A translated sentence with its ``{named}`` parts filled in, each keeping its own style
    (a name in bold, a card face): the sentence stays whole for the translator, and a part
    is always appended as plain text, never as markup.

    >>> t = styled("Waiting for {name} ({what}).", name=Text("[b]Bo", style="bold"), what="the cut")
    >>> t.plain, t.spans[0].style
    ('Waiting for [b]Bo (the cut).', 'bold')
    """
    out = Text(style=style)
    for literal, field, spec, _conv in Formatter().parse(template):
        if literal:
            out.append(literal)
        if field is None:
            continue
        part = parts[field]
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(format(part, spec or ""))
    return out


_SUIT_WORD = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def suit_order_text(order: str | None, *, four_color: bool = False) -> Text:
    """The agreed suit ranking, highest first: ``♠ > ♥ > ♦ > ♣``.

    >>> suit_order_text("SHDC").plain
    '♠ > ♥ > ♦ > ♣'
    >>> suit_order_text(None).plain
    'not drawn yet'
    """
    if not order:
        return Text(_("not drawn yet"), style="italic")
    out = Text()
    for i, s in enumerate(order):
        if i:
            out.append(" > ")
        out.append(_SUIT_WORD[s], style=suit_style(s, four_color=four_color))
    return out

