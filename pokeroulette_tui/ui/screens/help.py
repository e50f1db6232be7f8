"""Keys and a short summary of the two games, in our own words."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

KEYS: list[tuple[str, str]] = [
    ("c", "check, or call the bet (all in when the call takes your whole stack)"),
    ("b / r", "bet / raise: choose an amount (m min, h ½ pot, p pot, a all in, or type it)"),
    ("a", "go all in"),
    ("f", "fold"),
    ("c / f early", "local table, while another player bets: arm call-any / check-fold "
                    "(played when your turn comes; the same key cancels)"),
    ("n", "local table: skip to your turn (the dealer and bots play at once); n again stops"),
    ("v", "local table: change the speed (slow, normal, fast, instant)"),
    ("1-9, 0", "stock to active: move that stock card (0 = the tenth); or click it"),
    ("k", "stock to active: keep the stock as it is"),
    ("1-5", "draw: select or unselect a card to exchange; or click it"),
    ("Enter", "draw: exchange the selected cards; cut: cut the deck here; "
              "a hand's result: deal the next hand (the table waits until then)"),
    ("p", "draw: stand pat (exchange nothing)"),
    ("o", "draw: sort your hand (the selection follows the cards)"),
    ("← → ↑ ↓ / e", "cut: move the cut point by 1 or 5 / type it"),
    ("d", "look through the discard pile"),
    ("s", "the last hand's result again"),
    ("h", "hand history (← → to step through hands)"),
    ("u", "the rules this table agreed on"),
    ("i", "hints: your odds from your own cards (keep chances, improving, equity); "
          "setting: Hints; network play only if the host allows"),
    ("w", "what beats what at this table (hand ranking, jokers, suit ties)"),
    ("t", "in this help: your statistics across games (also on the start screen)"),
    ("m", "network play: the table's chat: read it and send a message"),
    ("l", "leave the table (the game goes on; you may watch or quit)"),
    ("ctrl+t", "switch between the dark and the light theme"),
    ("ctrl+k", "four-colour deck on or off (♠ black, ♥ red, ♦ blue, ♣ green)"),
    ("? / F1", "this help"),
    ("q / ctrl+q", "quit (the game is saved and can be resumed)"),
]

SUMMARY = [
    "Poker Roulette. Everyone gets one card face down: the first card of their stock, which "
    "only they see. Each round every player gets active cards (two, or one if nothing stuck "
    "last round), a match card is turned up, and everyone shows their actives. An active card "
    "sticks to your stock if it has the match card's suit or rank; two actives of the match "
    "card's rank can claim the match card itself. Jokers follow their own rules. When the deck "
    "runs short, the best five-card poker hand from each stock wins (jokers wild by default); "
    "equal hands are split by the agreed suit ranking. Betting may follow every round or only "
    "the last.",
    "Five-card draw (Mörkpoker). The dealer shuffles, the player on the right cuts, and "
    "everyone gets five cards. After an optional betting round each player may exchange up to "
    "three cards once, then the hands are compared. Without betting, the weakest hand loses a "
    "forfeit token, and the first player out of tokens loses.",
    "Marks at the table: ▶ the player to act; [button] the dealer position; ✓ an active card "
    "that stuck, ✗ one that went to the discards; [▒▒] a face-down card; T a ten (T♥ is the "
    "ten of hearts), ★ a joker; underlined cards make the hand that is named beside them.",
]
"""The rules in brief, a paragraph a string: wrapped to the dialog's width when drawn."""


def help_text() -> RichTable:
    table = RichTable(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(key, what)
    return table


def summary_text() -> Text:
    """The rules in brief: paragraphs with a blank line before each."""
    return Text("\n").append_text(Text("\n\n").join(Text(p) for p in SUMMARY))


class HelpScreen(ModalScreen[None]):
    """Keys and the rules in brief; u opens the agreed rules.

    The table keeps one help screen for the whole run: shown again in a terminal of another
    size, it is laid out afresh (Textual kept the heights of its first size, leaving blank
    rows in the dialog).
    """

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", "Close"),
                Binding("t", "stats", "Statistics")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._laid_out_for: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Static(Text("Help", style="bold"), classes="dialog-title")
            with VerticalScroll():
                yield Static(help_text())
                yield Static(summary_text())
        yield TidyFooter()

    def on_mount(self) -> None:
        self._laid_out_for = (self.app.size.width, self.app.size.height)

    async def on_screen_resume(self) -> None:
        size = (self.app.size.width, self.app.size.height)
        if self._laid_out_for is not None and size != self._laid_out_for:
            self._laid_out_for = size
            await self.recompose()
        else:
            self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_stats(self) -> None:
        from pokeroulette_tui.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen())
