"""The casino's panels under the board on a big terminal: the pay table and the last rounds.

Pure drawing (Rich text from the pay table and the rounds), like :mod:`.casino_board`.

>>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
>>> lines = pays_text(DEFAULT, 10_000).plain.splitlines()
>>> lines[2]
'A single card                     51:1'
>>> max(len(line) for line in lines) <= PANEL_WIDTH
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from pokeroulette_tui.engine.casino.board import ROULETTE_KINDS, Kind, kind_words
from pokeroulette_tui.engine.casino.game import Round
from pokeroulette_tui.engine.casino.paytable import (
    LEVELS,
    PayTable,
    hand_words,
)
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.ui.widgets.casino_board import SHORT

PANEL_WIDTH = 38
"""The text width of a panel beside the bets (40 columns with its padding)."""


PAYS_LINES = 25
"""The lines :func:`pays_text` takes at the default pay table."""


def _first_up(words: str) -> str:
    """``words`` with a capital first letter (the rest as it is: "2–7 or 8–K")."""
    return words[:1].upper() + words[1:]


def _row(name: str, pays: str, width: int = PANEL_WIDTH) -> Text:
    """A name at the left and its payout at the right end (the name cut with … if need be)."""
    room = width - cell_len(pays) - 1
    if cell_len(name) > room:
        name = name[:room - 1].rstrip() + "…"
    text = Text(name)
    text.append(" " * (width - cell_len(name) - cell_len(pays)))
    text.append(pays, style="bold #ffd75f")
    return text


def pays_text(table: PayTable, jackpot: int, width: int = PANEL_WIDTH) -> Text:
    """What each kind of bet pays at ``table``: the bets on the fifth card, the poker bets,
    the joker bet, and the jackpot now."""
    lines = [Text(_("Pays at the {name} table").format(name=table.name), style="bold"), Text()]
    for kind in ROULETTE_KINDS:
        if kind in table.roulette:
            lines.append(_row(_first_up(kind_words(kind)), f"{table.roulette[kind]}:1", width))
    lines.append(Text())
    for hand in LEVELS:
        if hand in table.poker:
            lines.append(_row(_first_up(hand_words(hand)), f"{table.poker[hand]}:1", width))
    lines.append(_row(_(SHORT[(Kind.WILD, "")]),
                      f"{table.wild}:1", width))
    lines.append(Text())
    lines.append(Text(_("Jackpot now: {amount:,} play chips").format(amount=jackpot),
                      style="bold"))
    return Text("\n").join(lines)


def history_text(rounds: Sequence[Round], lines: int, width: int,
                 console: Console | None = None) -> Text:
    """The last of ``rounds`` (oldest first), newest first under a title: as many as fit in
    ``lines`` lines ``width`` columns wide (a round: its cards, its hand, each player's net).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> r = Round(number=1, cards=tuple(parse_cards("2h Qh Qd 5d Ks")), hand="pair",
    ...           nets=(5,), names=("Ana",), jackpot_won=0)
    >>> history_text([r, r, r], 5, 38).plain.splitlines()[0]
    'The last 2 rounds, newest first'
    >>> history_text([], 5, 38).plain
    'No rounds yet'
    """
    console = console or Console(width=width)
    from pokeroulette_tui.ui.screens.casino_dialogs import round_lines

    bodies = [round_lines(r, narrow=True) for r in reversed(list(rounds))]
    while True:
        n = len(bodies)
        title = (_("No rounds yet") if not n else _("The last round") if n == 1
                 else _("The last {n} rounds, newest first").format(n=n))
        text = Text("\n").join([Text(title, style="bold"), *bodies])
        if not bodies or len(text.wrap(console, width)) <= lines:
            return text
        bodies.pop()
