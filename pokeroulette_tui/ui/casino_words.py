"""The casino screen's words: a spot, what it pays, the status line, players' names."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from pokeroulette_tui.engine.casino.board import (
    Bet,
    Kind,
    describe,
    kind_words,
    make_bet,
)
from pokeroulette_tui.engine.casino.odds import bet_odds, one_in
from pokeroulette_tui.engine.casino.paytable import PayTable, hand_words
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.ui.widgets.casino_board import Spot


def spot_words(spot: Spot) -> str:
    """A spot in words: "A♠", "A♠ or K♠", "the aces", "red", "pair of sixes or better".

    >>> spot_words((Kind.RANKS4, "5678")), spot_words((Kind.POKER, "pair_6"))
    ('5–8', 'pair of sixes or better')
    """
    kind, target = spot
    if kind is Kind.POKER:
        return hand_words(target)
    return describe(Bet(kind, target, 1))


def spot_hint(spot: Spot, table: PayTable, jackpot: int) -> str:
    """What a spot pays and how often it wins, for the line under the board.

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> spot_hint((Kind.CARD, "As"), DEFAULT, 10_000)
    'A♠ (a single card): pays 51:1, wins 1 in 54.0'
    >>> spot_hint((Kind.COLOUR, "red"), DEFAULT, 10_000)
    'red: pays 1:1, wins 1 in 2.1'
    """
    kind, target = spot
    odds = bet_odds(make_bet(kind, target, 1), table, jackpot)
    if kind is Kind.PROGRESSIVE:
        return _("the progressive side bet ({stake} a round): pays by hand from three of a "
                 "kind; the jackpot {jackpot:,} on a royal flush with jokers first and "
                 "fifth").format(stake=table.progressive_stake, jackpot=jackpot)
    words = spot_words(spot)
    if kind in (Kind.CARD, Kind.SPLIT, Kind.CORNER, Kind.RANKS2, Kind.RANKS4, Kind.RANKS6):
        words = _("{spot} ({kind})").format(spot=words, kind=kind_words(kind))
    elif kind is Kind.WILD:
        words = _("the joker bet (jokers first and fifth)")
    return _("{spot}: pays {pays}:1, wins {chance}").format(spot=words, pays=odds.pays,
                                                            chance=one_in(odds.chance))


def status_text(name: str, who: str, bankroll: int, staked: int, jackpot: int, round_no: int,
                width: int) -> Text:
    """The status line, "PLAY MONEY ONLY" always at its right end.

    >>> status_text("Ada", "", 975, 25, 10_000, 3, 80).plain.split(" · ")[:3]
    ['Ada', 'bankroll 975', 'staked 25']
    """
    tail = _("PLAY MONEY ONLY")
    parts = [name + who, _("bankroll {amount:,}").format(amount=bankroll),
             _("staked {amount:,}").format(amount=staked),
             _("jackpot {amount:,}").format(amount=jackpot),
             _("round {number}").format(number=round_no)]
    while len(parts) > 3 and len(" · ".join(parts)) + len(tail) + 3 > width:
        parts.pop()
    text = Text(" · ".join(parts), style="bold")
    pad = max(1, width - len(text.plain) - len(tail))
    text.append(" " * pad)
    text.append(tail, style="bold reverse")
    return text


def pays_words(table: PayTable, bet: Bet) -> str:
    if bet.kind is Kind.PROGRESSIVE:
        return _("pays by hand, jackpot")
    return _("pays {pays}:1").format(pays=bet_odds(make_bet(bet.kind, bet.target, 1), table).pays)


def check_names(names: Sequence[str]) -> str | None:
    """Why these names cannot sit at the casino table, or None.

    >>> check_names(["Ada", "ada"]), check_names([]), check_names(["Ada", "Bo"]) is None
    ("'ada' is there twice", 'a casino table needs at least one player', True)
    """
    if not names:
        return _("a casino table needs at least one player")
    seen: set[str] = set()
    for name in names:
        if not name.strip() or len(name) > 24:
            return _("a player's name is 1 to 24 characters (got {name})").format(
                name=repr(name[:30]))
        if name.casefold() in seen:
            return _("{name} is there twice").format(name=repr(name))
        seen.add(name.casefold())
    return None
