"""The casino's dialogs: the odds of the table, the last rounds, the keys, a yes-or-no."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from pokeroulette_tui.engine.casino.board import Kind
from pokeroulette_tui.engine.casino.game import Round, hand_name
from pokeroulette_tui.engine.casino.odds import (
    JACKPOT_CHANCE,
    break_even_jackpot,
    odds_table,
    one_in,
    percent,
)
from pokeroulette_tui.engine.casino.paytable import (
    LEVELS,
    NAMED,
    PayTable,
    class_words,
    table_note,
)
from pokeroulette_tui.engine.i18n import N_, _, pgettext, number
from pokeroulette_tui.ui.renderables import cards_text
from pokeroulette_tui.ui.widgets.footer import TidyFooter

CASINO_KEYS: list[tuple[str, str]] = [
    ("← → ↑ ↓", N_("move on the board (down from the ♣ row: the outside, poker and side bets)")),
    (N_("Space / Enter"), N_("bet a chip on the spot under the cursor (on the grid: that card); "
                             "after the deal: the next round")),
    ("s / v", N_("split: the cursor's card and the one to its right / below it")),
    ("c", N_("corner: the 2×2 block from the cursor's card right and down")),
    ("k", N_("the cursor's rank (the whole column)")),
    ("2 / 4 / 6", N_("two / four / six ranks from the cursor's column rightwards")),
    ("f", N_("the suit of the cursor's row")),
    ("j / w / p", N_("the joker spot / the joker bet (★ first and fifth) / the progressive "
                     "side bet")),
    ("+ / -", N_("a bigger / smaller chip (sizes that fit the table)")),
    (N_("mouse"), N_("click a card, the gap between two cards (split), a corner gap, a rank, a "
                     "suit or any spot below the grid: a chip there")),
    ("u / Backspace", N_("take back the last chip")),
    ("x / Delete", N_("take back all your bets")),
    ("a", N_("place last round's bets again")),
    ("d", N_("no more bets: deal the five cards (after the deal: the next round)")),
    ("Tab", N_("hot-seat: the next player places bets")),
    ("o", N_("the exact odds of every bet, the jackpot and its break-even")),
    ("h", N_("the last rounds")),
    ("R", N_("start your bankroll again at 1,000 play chips")),
    ("ctrl+t", N_("switch the light / dark theme")),
    ("ctrl+k", N_("the four-colour deck on / off")),
    (N_("PgUp / PgDn"), N_("the bets and results under the board, a page up / down (they "
                           "follow the bet just placed)")),
    ("? / F1", N_("this list")),
    ("q / ctrl+q", N_("quit (bankrolls and the jackpot are saved after every round)")),
]
"""The keys and what they do (English: translated where they are shown)."""

NETWORK_QUIT = ("q / ctrl+q", N_("leave the table (the host keeps your seat and bankroll while "
                                 "the table runs; a host who leaves closes it, asking first "
                                 "while others are at it)"))
"""``q`` at a network table, whose bankrolls are the table's, not saved here."""

RULES_IN_BRIEF = N_(
    "Bet against the house, then five cards are dealt face up from a 54-card deck (two "
    "jokers). Bets on the board win on the fifth card (a joker there loses them all but the "
    "joker spot); poker bets win on the hand of all five, jokers wild, that hand or better; "
    "the joker bet wants jokers first and fifth; the progressive side bet pays by hand and "
    "wins the whole jackpot on a royal flush with jokers first and fifth. Every payout is "
    "X to 1. Play money only: nothing here is worth anything."
)


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with y (True) or n (False)."""

    DEFAULT_CSS = """
    #confirm-box { width: auto; max-width: 100%; height: auto; padding: 1 2; border: round $accent;
                   background: $surface; }
    """
    BINDINGS = [
        Binding("y,enter", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.question = question

    def compose(self) -> ComposeResult:
        text = Text(self.question, style="bold")
        text.append("\n" + _("y or Enter: yes · n or Esc: no"), style="not bold italic")
        yield Static(text, id="confirm-box")
        yield TidyFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class _Dialog(ModalScreen[None]):
    BINDINGS = [Binding("escape,q", "close", N_("Close"))]

    def action_close(self) -> None:
        self.dismiss(None)


class CasinoKeysScreen(_Dialog):
    """The casino's keys and its rules in brief; for a host who plays, first how the others
    join and the certificate they check (``table_lines``: always reachable here, however
    many bets push them down the results panel)."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "close", N_("Close"))]

    def __init__(self, table_lines: list[str] | None = None, *, networked: bool = False) -> None:
        super().__init__()
        self.table_lines = list(table_lines or [])
        self.networked = networked

    def compose(self) -> ComposeResult:
        table = RichTable(box=None, show_header=False, pad_edge=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, what in CASINO_KEYS:
            if self.networked and key == NETWORK_QUIT[0]:
                what = NETWORK_QUIT[1]
            table.add_row(_(key), _(what))
        with Vertical(id="casino-keys-box", classes="dialog"):
            yield Static(Text(_("The casino: keys"), style="bold"), classes="dialog-title")
            with VerticalScroll():
                if self.table_lines:
                    yield Static(Text("\n".join(self.table_lines) + "\n", style="#8fbcbb"))
                yield Static(table)
                yield Static(Text("\n" + _(RULES_IN_BRIEF), style="italic"))
        yield TidyFooter()


def odds_notes(table: PayTable, jackpot: int) -> Text:
    """What the odds table leaves to words: the side bet's payouts, the jackpot now and the
    jackpot at which the side bet breaks even."""
    pays = ", ".join(f"{class_words(h)} {p}:1" for h, p in sorted(
        table.progressive.items(), key=lambda kv: LEVELS.index(kv[0])))
    be = float(break_even_jackpot(table))
    text = Text()
    text.append(_("Jackpot now: {amount:,} play chips").format(amount=jackpot), style="bold")
    text.append(_(" (breaks even at {even}; won {chance} by a royal flush with jokers first "
                  "and fifth).").format(even=number(be, ",.0f"),
                                        chance=one_in(JACKPOT_CHANCE)) + "\n")
    text.append(_("The side bet ({stake} a round) pays: {pays}. {share} of each side-bet "
                  "stake goes into the jackpot.").format(
        stake=table.progressive_stake, pays=pays,
        share=percent(table.jackpot_share / 100, 0)) + "\n")
    text.append(_("Every payout is X to 1 (a win returns the stake and X times it). Exact "
                  "figures from every five-card set of the 54 cards; nothing simulated."),
                style="italic")
    note = table_note(table)
    text.append("\n" + (_("The {name} pay table: {note}.") if note
                        else _("The {name} pay table.")).format(name=table.name, note=note)
                + " " + _("Bets {low} to {high:,} a spot.").format(low=table.min_bet,
                                                                   high=table.max_bet))
    others = [n for n in NAMED if n != table.name]
    if others:
        text.append(" " + _("The other pay tables ({names}) and their house edges: "
                            "{command}.").format(names=", ".join(others),
                                                 command="pokeroulette casino --pay-tables"))
    return text


def _fill(scroll: VerticalScroll) -> None:
    """The dialog's scrolling part takes the dialog's height (inline, as the app's stylesheet
    caps every dialog's scrolling part, and this module adds nothing to the stylesheets)."""
    scroll.styles.height = "1fr"
    scroll.styles.max_height = "100%"


class OddsScreen(_Dialog):
    """The exact odds of every bet at this table (``pokeroulette casino --odds``)."""

    BINDINGS = [Binding("escape,q,o", "close", N_("Close"))]
    DEFAULT_CSS = """
    #odds-box { height: 90%; }
    #odds-table { height: auto; max-height: 100; overflow: hidden hidden; }
    #odds-notes { height: auto; margin-top: 1; }
    """

    def __init__(self, table: PayTable, jackpot: int, *, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.table = table
        self.jackpot = jackpot

    def compose(self) -> ComposeResult:
        with Vertical(id="odds-box", classes="dialog"):
            title = _("Odds at the {name} table").format(name=self.table.name)
            yield Static(Text(title, style="bold"), classes="dialog-title")
            with VerticalScroll(id="odds-scroll"):
                yield DataTable(id="odds-table", cursor_type="none", zebra_stripes=True)
                yield Static(odds_notes(self.table, self.jackpot), id="odds-notes")
        yield TidyFooter()

    def on_mount(self) -> None:
        found = self.query(DataTable)
        if not found:  # the app is closing: the screen was never composed
            return
        grid = found.first()
        grid.add_column(pgettext("odds", "bet"), key="bet")
        for key, label in (("wins", pgettext("odds", "wins")), ("pays", pgettext("odds", "pays")),
                           ("return", pgettext("odds", "return")),
                           ("edge", pgettext("odds", "edge"))):
            grid.add_column(Text(label, justify="right"), key=key)
        for bet, odds in odds_table(self.table, self.jackpot):
            name = odds.words
            if bet.kind is Kind.WILD:
                name = _("joker bet (★ first and fifth)")
            elif bet.kind is Kind.PROGRESSIVE:
                name = _("progressive side bet")
            pays = _("jackpot") if bet.kind is Kind.PROGRESSIVE else f"{odds.pays}:1"
            grid.add_row(Text(name), *(Text(v, justify="right") for v in (
                one_in(odds.chance), pays, percent(odds.returns), percent(odds.edge))))
        grid.can_focus = False
        scroll = self.query_one("#odds-scroll")
        _fill(scroll)
        scroll.focus()


def round_lines(r: Round, *, narrow: bool = False) -> Text:
    """One round of the history: its cards, its hand and what each player made (``narrow``:
    the casino's side panel: the hand on a line of its own, the nets after it)."""
    text = Text()
    text.append(_("Round {number}").format(number=r.number) + "  ", style="bold")
    text.append_text(cards_text(r.cards, highlight=(4,)))
    name = hand_name(r.cards) if len(r.cards) == 5 else class_words(r.hand)
    text.append(f"\n    {name}" if narrow else f"  {name}")
    if r.jackpot_won:
        text.append("  " + _("JACKPOT {amount:,} won").format(amount=r.jackpot_won),
                    style="bold reverse")
    names = r.names if len(r.names) == len(r.nets) else tuple(
        _("seat {n}").format(n=i + 1) for i in range(len(r.nets)))
    nets = " · ".join(f"{n} {number(net, '+,')}" for n, net in zip(names, r.nets))
    if narrow:
        text.append(f" · {nets}", style="dim")
    else:
        text.append(f"\n    {nets}")
    return text


class CasinoHistoryScreen(_Dialog):
    """The last rounds, newest first: the five cards (the fifth marked), the hand, the nets."""

    BINDINGS = [Binding("escape,q,h", "close", N_("Close"))]
    DEFAULT_CSS = """
    #casino-history-box { height: 90%; }
    """

    def __init__(self, rounds: list[Round], *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.rounds = rounds

    def compose(self) -> ComposeResult:
        with Vertical(id="casino-history-box", classes="dialog"):
            count = len(self.rounds)
            title = (_("No rounds yet") if not count else _("The last round") if count == 1
                     else _("The last {n} rounds, newest first").format(n=count))
            yield Static(Text(title, style="bold"), classes="dialog-title")
            with VerticalScroll():
                body = Text("\n").join(round_lines(r) for r in reversed(self.rounds))
                yield Static(body if count else Text(
                    _("Rounds are listed here once they are dealt (cards, hand, each "
                      "player's net)."), style="italic"))
        yield TidyFooter()

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        _fill(scroll)
        scroll.focus()


__all__ = ["CASINO_KEYS", "CasinoHistoryScreen", "CasinoKeysScreen", "ConfirmScreen",
           "OddsScreen", "odds_notes", "round_lines"]
