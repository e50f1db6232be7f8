"""The end of a hand: every shown hand with the cards that make it, pots and why, tokens lost
(as the engine decided them: this screen ranks nothing)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.events import (BetReturned, DeciderCalled, Event, Folded, GameOver,
                                            HandShown, PlayerOut, PotWon, SatOut, TokenLost)
from pokeroulette_tui.engine.result import HandResult as EngineResult
from pokeroulette_tui.engine.result import ShownHand as EngineHand
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import cards_text

_TOKEN_EVENTS = (TokenLost, PlayerOut, SatOut, DeciderCalled)


@dataclass(frozen=True)
class ShownHand:
    """A shown hand as the dialog writes it: who, the cards, and the engine's verdict."""

    seat: int
    name: str
    cards: tuple[Card, ...]
    hand_name: str
    made: frozenset[int]


@dataclass
class HandResult:
    """What the end of one hand showed: the engine's result (``GameState.result``, carried by
    the view) with the players' names, and the sentences of its events.

    The engine deals the next hand on its own, so the screen keeps this record rather than
    the live view. The hands, their names and order and the winners are the engine's; the
    screen never ranks hands. Without the engine's result (the view already moved on to
    the next hand) the shown cards come from the events, unnamed, and the winners are the
    pots' winners.
    """

    hand_no: int
    shown: list[ShownHand] = field(default_factory=list)
    winners: set[int] = field(default_factory=set)
    pots: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)
    """Chips nobody called, given back (no pot, nobody won them)."""
    tokens: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)
    game_over: str = ""

    @property
    def is_showdown(self) -> bool:
        """True when hands were shown or tokens changed (worth a screen, not just a note)."""
        return bool(self.shown or self.tokens or self.game_over)

    def summary(self) -> str:
        return " · ".join(self.pots or self.tokens) or _("Hand {n} is over").format(n=self.hand_no)

    @classmethod
    def from_events(cls, events: Sequence[Event], view: SeatView,
                    result: EngineResult | None = None) -> "HandResult":
        """Build from the events of one hand; ``view`` gives the names, ``result`` (the
        engine's, if still current) the hands shown, named and ranked, and the winners."""
        hand_no = next((e.hand_no for e in reversed(events) if e.hand_no), view.hand_no)
        out = cls(hand_no=hand_no)
        unnamed: list[ShownHand] = []
        pot_winners: set[int] = set()

        def name(seat: int) -> str:
            return view.players[seat].name

        for e in events:
            if isinstance(e, HandShown) and e.seat is not None:
                cards = tuple(c for c in e.cards if c is not None)
                unnamed.append(ShownHand(e.seat, name(e.seat), cards, "", frozenset()))
            elif isinstance(e, PotWon):
                out.pots.append(e.text)
                if e.seat is not None:
                    pot_winners.add(e.seat)
            elif isinstance(e, BetReturned):
                out.returned.append(e.text)
            elif isinstance(e, _TOKEN_EVENTS):
                out.tokens.append(e.text)
            elif isinstance(e, Folded) and e.seat is not None:
                out.folded.append(name(e.seat))
            elif isinstance(e, GameOver):
                out.game_over = e.text
        if result is not None and result.hand_no == hand_no:
            out.shown = [ShownHand(h.seat, name(h.seat), h.shown, h.name + jokers_note(h),
                                   h.made) for h in result.hands]
            out.winners = set(result.winners)
        else:
            out.shown, out.winners = unnamed, pot_winners
        return out


def jokers_note(hand: EngineHand) -> str:
    """What the jokers in a hand stand for: `` (★ as J♦)``, or "" without jokers.

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> jokers_note(EngineHand(0, tuple(parse_cards("Js Jh *")), "three of a kind, jacks",
    ...                        "THREE_OF_A_KIND", jokers=tuple(parse_cards("Jd"))))
    ' (★ as J♦)'
    """
    if not hand.jokers:
        return ""
    return " " + _("(★ as {cards})").format(cards=", ".join(c.symbol for c in hand.jokers))


def outcome_text(res: HandResult) -> Text:
    """Who won what: the pots, chips given back, tokens lost, the end of the game (the lines
    the dialog opens with, so no number of shown hands pushes them out of sight)."""
    out = Text()
    for line in res.pots:
        out.append("• " + line + "\n", style="bold")
    for line in res.returned:
        out.append("• " + line + "\n", style="italic")
    for line in res.tokens:
        out.append("• " + line + "\n")
    if res.game_over:
        out.append(res.game_over + "\n", style="bold reverse")
    out.rstrip()
    return out


def hands_text(res: HandResult, *, four_color: bool = False) -> Text:
    """Each shown hand in the engine's order (the winners starred), then who folded."""
    out = Text()
    # (no pot: forfeit tokens without betting, where the best hand wins nothing: it is the
    # best, and the weakest loses a token, said above)
    label = _("WINS") if res.pots or not res.tokens else _("BEST")
    for h in res.shown:
        win = h.seat in res.winners
        out.append("★ " if win else "  ", style="bold")
        out.append(h.name, style="bold")
        if h.hand_name:  # (a resumed table's last hand is told from its events: unnamed)
            out.append(f" — {h.hand_name}")
        if win:
            out.append(" ")
            out.append(" " + label + " ", style="bold reverse")
        out.append("\n    ")
        out.append_text(cards_text(h.cards, four_color=four_color, highlight=h.made, sep=" "))
        out.append("\n")
    if res.folded:
        out.append(_("Folded: {names}").format(names=", ".join(res.folded)) + "\n", style="italic")
    out.rstrip()
    return out


def result_text(res: HandResult, *, four_color: bool = False) -> Text:
    """The result in lines: who won what (pots, then tokens), a blank line, each shown hand."""
    parts = [t for t in (outcome_text(res), hands_text(res, four_color=four_color)) if t.plain]
    return Text("\n\n").join(parts)


class ShowdownScreen(ModalScreen[str | None]):
    """The result of a hand, readable for as long as the player wants.

    Enter (or n) dismisses it with ``"deal"``: a table that waits for the result to be seen
    deals the next hand. Esc dismisses it with None: only the dialog goes, and the table
    waits (to be looked at; Enter there deals).

    If another hand ends while it is open, the table sets ``result`` to the newer one
    (earlier hands stay in the hand history).
    """

    BINDINGS = [
        # (n too: the footer names both keys, as every key that works here is named there)
        Binding("enter,n", "close('deal')", N_("Continue"), key_display="⏎/n"),
        Binding("escape", "close", N_("Close"), show=False),
        Binding("q", "app.quit", N_("Quit")),
    ]

    result: reactive[HandResult | None] = reactive(None, always_update=True)
    prompt: reactive[str] = reactive(N_("Enter: back to the table"))
    """What Enter does (English, translated when shown; ``{in}``: the time to the next deal)."""

    def __init__(self, result: HandResult, *, four_color: bool = False,
                 prompt: str = N_("Enter: back to the table"), deal_at: float | None = None,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.four_color = four_color
        self.deal_at = deal_at  # loop time of the next deal (a table that paces itself)
        self.set_reactive(ShowdownScreen.result, result)
        self.set_reactive(ShowdownScreen.prompt, prompt)

    def compose(self) -> ComposeResult:
        with Vertical(id="showdown-box", classes="dialog"):
            yield Static("", id="showdown-title", classes="dialog-title")
            with VerticalScroll(id="showdown-scroll"):
                yield Static("", id="showdown-outcome")
                yield Static("", id="showdown-text")
            yield Static("", id="showdown-prompt")
        yield TidyFooter()

    def watch_prompt(self) -> None:
        if self.is_mounted:
            self._show_prompt()

    def on_mount(self) -> None:
        self._show()
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self.deal_at is not None and "{in}" in self.prompt:
            self._show_prompt()  # only the countdown changes

    def _prompt_text(self) -> str:
        """The prompt, with ``{in}`` replaced by the time left to the next deal."""
        left = ""
        if self.deal_at is not None:
            seconds = max(0, round(self.deal_at - asyncio.get_running_loop().time()))
            left = " " + (_("in {n} s").format(n=seconds) if seconds else _("now"))
        return _(self.prompt).replace("{in}", left)

    def watch_result(self) -> None:
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        res = self.result
        if res is None:
            return
        title = (_("Hand {n}: showdown") if res.shown else _("Hand {n} is over")).format(
            n=res.hand_no)
        try:
            self.query_one("#showdown-title", Static).update(Text(title, style="bold"))
            outcome = self.query_one("#showdown-outcome", Static)
            hands = self.query_one("#showdown-text", Static)
        except NoMatches:  # not composed yet (on_mount shows it) or already closing
            return
        # who won what first (a blank line under it), then every hand: all of it is read from
        # the top, and the result must be in sight when the dialog opens
        said = outcome_text(res)
        shown = hands_text(res, four_color=self.four_color)
        outcome.update(said)
        outcome.display = bool(said.plain)
        outcome.styles.margin = (0, 0, 1 if said.plain and shown.plain else 0, 0)
        hands.update(shown)
        hands.display = bool(shown.plain)
        self._show_prompt()
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Let the scrolling part take the whole height the screen has (the stylesheet caps
        every dialog's scrolling part at a share of it, which leaves rows unused on a short
        terminal): the screen less the footer, the box's border, the title and the prompt."""
        try:
            scroll = self.query_one("#showdown-scroll", VerticalScroll)
            box = self.query_one("#showdown-box", Vertical)
            prompt = self.query_one("#showdown-prompt", Static)
        except NoMatches:
            return
        width = box.size.width or 74  # (the content's width: border and padding left out)
        text = prompt.render()
        prompt_rows = (len(text.wrap(self.app.console, width)) if isinstance(text, Text)
                       else 1)
        footer = 1
        room = self.size.height - footer - box.styles.gutter.height - 2 - prompt_rows
        box.styles.max_height = "100%"
        scroll.styles.max_height = max(3, room)

    def _show_prompt(self) -> None:
        res = self.result
        hint = (" · " + _("underlined cards make each hand")
                if res is not None and res.shown else "")
        try:
            self.query_one("#showdown-prompt", Static).update(
                Text(self._prompt_text() + hint, style="italic"))
        except NoMatches:
            pass

    def retranslate(self) -> None:
        """The result again in the language just chosen."""
        self._show()

    def action_close(self, choice: str | None = None) -> None:
        self.dismiss(choice)
