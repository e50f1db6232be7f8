"""The end of a hand: every shown hand with the cards that make it, pots and why, tokens lost."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Sequence

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
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.hands import HandValue
from pokeroulette_tui.engine.scoring import strength_key
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import cards_text
from pokeroulette_tui.ui.widgets.present import evaluate_cards, positions_of, tie_order

_TOKEN_KINDS = ("token_lost", "out", "sit_out", "decider")


@dataclass(frozen=True)
class ShownHand:
    seat: int
    name: str
    cards: tuple[Card, ...]
    hand_name: str
    made: frozenset[int]


@dataclass
class HandResult:
    """What the end of one hand showed, rebuilt from its (public) events.

    The engine deals the next hand on its own, so the screen keeps this record
    rather than the live view.
    """

    hand_no: int
    shown: list[ShownHand] = field(default_factory=list)
    winners: set[int] = field(default_factory=set)
    pots: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)
    game_over: str = ""

    @property
    def is_showdown(self) -> bool:
        """True when hands were shown or tokens changed (worth a screen, not just a note)."""
        return bool(self.shown or self.tokens or self.game_over)

    def summary(self) -> str:
        return " · ".join(self.pots or self.tokens) or f"Hand {self.hand_no} is over"

    @classmethod
    def from_events(cls, events: Sequence[Event], view: SeatView,
                    result: dict[str, Any] | None = None) -> "HandResult":
        """Build from the events of one hand; ``view`` gives the rules and names,
        ``result`` (the engine's, if still current) the winners."""
        hand_no = next((e.hand_no for e in reversed(events) if e.hand_no), view.hand_no)
        out = cls(hand_no=hand_no)
        keys: dict[int, tuple[Any, ...]] = {}
        for e in events:
            if e.kind == "show" and e.seat is not None:
                cards = tuple(c for c in e.cards if c is not None)
                value = evaluate_cards(view, cards)
                name = value.describe() if value is not None else "no cards"
                if value is not None:
                    name += jokers_note(value)
                made = frozenset(positions_of(cards, value.cards)) if value is not None else frozenset()
                out.shown.append(ShownHand(e.seat, view.players[e.seat].name, cards, name, made))
                if value is not None:
                    keys[e.seat] = strength_key(value, tie_order(view))
            elif e.kind == "pot_won":
                out.pots.append(e.text)
                if e.seat is not None:
                    out.winners.add(e.seat)
            elif e.kind in _TOKEN_KINDS:
                out.tokens.append(e.text)
            elif e.kind == "fold" and e.seat is not None:
                out.folded.append(view.players[e.seat].name)
            elif e.kind == "game_over":
                out.game_over = e.text
        if result is not None and result.get("hand_no") == hand_no:
            out.winners |= {int(w) for w in result.get("winners", [])}
        elif not out.winners and keys:
            best = max(keys.values())
            out.winners = {s for s, k in keys.items() if k == best}
        return out


def jokers_note(value: HandValue) -> str:
    """What the jokers in a hand stand for: `` (★ as J♠)``, or "" without jokers.

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> from pokeroulette_tui.engine.hands import evaluate
    >>> jokers_note(evaluate(parse_cards("Js Jh *")))
    ' (★ as J♦)'
    """
    wild = [stood.symbol for card, stood in zip(value.cards, value.stands_for) if card.is_joker]
    return f" (★ as {', '.join(wild)})" if wild else ""


def result_text(res: HandResult, *, four_color: bool = False) -> Text:
    """The result in lines: each shown hand, then the pots, then tokens."""
    out = Text()
    for h in res.shown:
        win = h.seat in res.winners
        out.append("★ " if win else "  ", style="bold")
        out.append(h.name, style="bold")
        out.append(f" — {h.hand_name}")
        if win:
            out.append(" ")
            out.append(" WINS ", style="bold reverse")
        out.append("\n    ")
        out.append_text(cards_text(h.cards, four_color=four_color, highlight=h.made, sep=" "))
        out.append("\n")
    if res.folded:
        out.append("Folded: " + ", ".join(res.folded) + "\n", style="italic")
    for line in res.pots:
        out.append("• " + line + "\n", style="bold")
    for line in res.tokens:
        out.append("• " + line + "\n")
    if res.game_over:
        out.append(res.game_over + "\n", style="bold reverse")
    out.rstrip()
    return out


class ShowdownScreen(ModalScreen[None]):
    """The result of a hand, readable for as long as the player wants.

    If another hand ends while it is open, the table sets ``result`` to the newer one
    (earlier hands stay in the hand history).
    """

    BINDINGS = [
        Binding("enter,n", "close", "Continue"),
        Binding("escape", "close", "Close", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    result: reactive[HandResult | None] = reactive(None, always_update=True)
    prompt: reactive[str] = reactive("Enter: back to the table")

    def __init__(self, result: HandResult, *, four_color: bool = False,
                 prompt: str = "Enter: back to the table", deal_at: float | None = None,
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
            with VerticalScroll():
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
            left = f" in {seconds} s" if seconds else " now"
        return self.prompt.replace("{in}", left)

    def watch_result(self) -> None:
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        res = self.result
        if res is None:
            return
        title = f"Hand {res.hand_no}: showdown" if res.shown else f"Hand {res.hand_no} is over"
        try:
            self.query_one("#showdown-title", Static).update(Text(title, style="bold"))
            self.query_one("#showdown-text", Static).update(
                result_text(res, four_color=self.four_color))
        except NoMatches:  # not composed yet (on_mount shows it) or already closing
            return
        self._show_prompt()

    def _show_prompt(self) -> None:
        res = self.result
        hint = " · underlined cards make each hand" if res is not None and res.shown else ""
        try:
            self.query_one("#showdown-prompt", Static).update(
                Text(self._prompt_text() + hint, style="italic"))
        except NoMatches:
            pass

    def action_close(self) -> None:
        self.dismiss(None)
