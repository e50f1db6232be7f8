"""Keys and a short summary of the two games, in our own words."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import N_, _, language
from pokeroulette_tui.ui.widgets.footer import TidyFooter

KEYS: list[tuple[str, str]] = [
    ("c", N_("check, or call the bet (all in when the call takes your whole stack)")),
    ("b / r", N_("bet / raise: choose an amount (m min, h ½ pot, p pot, a all in, or type it)")),
    ("a", N_("go all in")),
    ("f", N_("fold (when checking is free, f asks first: f again folds, c checks)")),
    (N_("c / f early"), N_("local table, while another player bets: arm call-any / check-fold "
                           "(played when your turn comes; the same key cancels)")),
    ("n", N_("local table: skip to your turn (the dealer and bots play at once); n again stops; "
             "game over: a new game")),
    ("v", N_("local table: change the speed (slow, normal, fast, instant)")),
    ("1-9, 0", N_("stock to active: move that stock card (0 = the tenth); or click it")),
    ("k", N_("stock to active: keep the stock as it is")),
    ("1-5", N_("draw: select or unselect a card to exchange; or click it")),
    ("Enter", N_("draw: exchange the selected cards; cut: cut the deck here; "
                 "a hand's result: deal the next hand (Esc closes the result and the table "
                 "waits: Enter there deals; network table: Enter closes it, the host deals); "
                 "game over: the standings again (also g)")),
    ("p", N_("draw: stand pat (exchange nothing)")),
    ("o", N_("draw: sort your hand (the selection follows the cards)")),
    ("← → ↑ ↓ / e", N_("cut: move the cut point by 1 or 5 / e: type the cut (in the box: "
                       "o one, q quarter, m middle, l last)")),
    ("d", N_("look through the discard pile")),
    ("s", N_("the last hand's result again")),
    ("h", N_("hand history (← → to step through hands)")),
    ("u", N_("the rules this table agreed on")),
    ("i", N_("hints: your odds from your own cards (keep chances, improving, equity); "
             "setting: Hints; network play only if the host allows")),
    ("w", N_("what beats what at this table (hand ranking, jokers, suit ties)")),
    ("t", N_("in this help: your statistics across games (also on the start screen)")),
    ("m", N_("network play: the table's chat: read it and send a message")),
    ("l / L", N_("leave the table (the game goes on; you may watch or quit)")),
    ("ctrl+t", N_("switch between the dark and the light theme")),
    ("ctrl+k", N_("four-colour deck on or off (♠ black, ♥ red, ♦ blue, ♣ green)")),
    ("? / F1", N_("this help")),
    ("q / ctrl+q", N_("quit (the game is saved and can be resumed)")),
]

SUMMARY = [
    N_("Poker Roulette. Everyone gets one card face down: the first card of their stock, which "
       "only they see. Each round every player gets active cards (two, or one if nothing stuck "
       "last round), a match card is turned up, and everyone shows their actives. An active card "
       "sticks to your stock if it has the match card's suit or rank; two actives of the match "
       "card's rank can claim the match card itself. Jokers follow their own rules. When the deck "
       "runs short, the best five-card poker hand from each stock wins (jokers wild by default); "
       "equal hands are split by the agreed suit ranking. Betting may follow every round or only "
       "the last."),
    N_("Five-card draw (Mörkpoker). The dealer shuffles, the player on the right cuts, and "
       "everyone gets five cards. After an optional betting round each player may exchange cards "
       "once (up to three by default; a table may agree on 0 to 5, and u shows its rules), then "
       "the hands are compared. Without betting, the weakest hand loses a forfeit token, and "
       "the first player out of tokens loses."),
    N_("Marks at the table: ▶ the player to act; [button] the dealer position; ✓ an active card "
       "that stuck, ✗ one that went to the discards; [▒▒] a face-down card; T a ten (T♥ is the "
       "ten of hearts), ★ a joker; underlined cards make the hand that is named beside them."),
]
"""The rules in brief, a paragraph a string: wrapped to the dialog's width when drawn."""


def help_text() -> RichTable:
    table = RichTable(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(_(key), _(what))
    return table


def summary_text() -> Text:
    """The rules in brief: paragraphs with a blank line before each."""
    return Text("\n").append_text(Text("\n\n").join(Text(_(p)) for p in SUMMARY))


class HelpScreen(ModalScreen[None]):
    """Keys and the rules in brief; u opens the agreed rules.

    The table keeps one help screen for the whole run: shown again in a terminal of another
    size, it is laid out afresh (Textual kept the heights of its first size, leaving blank
    rows in the dialog).
    """

    BINDINGS = [Binding("escape,question_mark,f1,q", "close", N_("Close")),
                Binding("t", "stats", N_("Statistics"))]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._laid_out_for: tuple[int, int, str] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Static(Text(_("Help"), style="bold"), classes="dialog-title")
            with VerticalScroll():
                yield Static(help_text())
                yield Static(summary_text())
        yield TidyFooter()

    def on_mount(self) -> None:
        self._laid_out_for = (self.app.size.width, self.app.size.height, language())

    async def retranslate(self) -> None:
        """The words again in the language just chosen."""
        self._laid_out_for = (self.app.size.width, self.app.size.height, language())
        await self.recompose()

    async def on_screen_resume(self) -> None:
        # shown again in another size or language: laid out afresh
        size = (self.app.size.width, self.app.size.height, language())
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
