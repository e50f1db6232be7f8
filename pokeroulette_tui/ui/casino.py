"""The casino game's screen (docs/RULES.md §6): a betting board, the deal, the odds, the
history and hot-seat players, with bankrolls and the jackpot kept in a CasinoStore.

The screen talks only to a :class:`~pokeroulette_tui.net.casino_session.CasinoSession`: a
:class:`~pokeroulette_tui.net.casino_session.LocalCasino` at this terminal (hot-seat), or a
:class:`~pokeroulette_tui.net.casino_client.RemoteCasino` at a table hosted on the network
(:mod:`pokeroulette_tui.ui.casino_net`). :func:`run_casino` runs it as an app of its own
(``pokeroulette casino``). Play money only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import (
    Kind,
)
from pokeroulette_tui.engine.casino.game import Casino, CasinoError, Stage
from pokeroulette_tui.engine.casino.odds import standard_counts
from pokeroulette_tui.engine.casino.paytable import PayTable
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.engine.i18n import N_, _, ngettext, number
from pokeroulette_tui.net.casino_session import CasinoSession, CasinoUpdate, LocalCasino
from pokeroulette_tui.ui.casino_words import (
    pays_words,
    spot_hint,
    spot_words,
    status_text,
)
from pokeroulette_tui.ui.renderables import boxed_row
from pokeroulette_tui.ui.screens.casino_dialogs import (
    CasinoHistoryScreen,
    CasinoKeysScreen,
    ConfirmScreen,
    OddsScreen,
)
from pokeroulette_tui.ui.widgets.casino_board import (
    COMPACT,
    HUGE,
    BoardModel,
    CasinoBoard,
    Geometry,
    Spot,
    corner,
    cursor_of,
    geometry_for_screen,
    move,
    on_grid,
    split_down,
    split_right,
    spot_at_cursor,
)
from pokeroulette_tui.ui.widgets.casino_panels import (
    PANEL_WIDTH,
    history_text,
    pays_text,
)
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.toosmall import TooSmallNotice, too_small

CHIPS = (1, 5, 25, 100)
"""The chip sizes at a table whose smallest bet is 1, smallest first (+ and - step through
them); other tables: :func:`chips_for`."""
HINT_LINES = 2
"""The hint line under the board wraps onto a second line when a message needs it."""
TOO_SMALL_AWAY = ("#casino-status", "#board", "#casino-hint", "#casino-lower")
"""What the too-small notice takes the place of (the board is 79 columns wide: in less it
wrapped its ace column onto a line of its own, and the outside bets fell out of view)."""
REFUSAL_SECONDS = 8.0
"""How long a key's refusal said in a notice stays up (one said on the hint line stays until
the next key): long enough to read the longest, "Bets are closed: this round is settled…"."""
TOO_SMALL_KEYS = ("quit", "keys")
"""The actions that work while the table is away: nothing is done blind."""


def casino_keys(screen: object) -> str:
    """The keys the casino takes while the terminal is too small for its table (the
    too-small notice's line)."""
    if getattr(screen, "networked", False):
        return _("? keys · q leave (the table goes on)")
    return _("? keys · q quit (the bankrolls are saved)")


def chips_for(table: PayTable) -> tuple[int, ...]:
    """The chip sizes that fit ``table``: :data:`CHIPS` times its smallest bet, none above its
    largest (and the largest itself when only one size would be left).

    >>> from dataclasses import replace
    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> chips_for(DEFAULT), chips_for(replace(DEFAULT, min_bet=10, max_bet=20))
    ((1, 5, 25, 100), (10, 20))
    """
    low, high = table.min_bet, table.max_bet
    sizes = [low * c for c in CHIPS if low * c <= high]
    if len(sizes) < 2 and high > low:
        sizes.append(high)
    return tuple(sizes)
DEAL_PAUSE = 0.6
"""Seconds between the five cards of a deal (0: all at once)."""


class CasinoScreen(Screen[None]):
    """The casino table: the board, the deal, the results; keys in CASINO_KEYS."""

    # every key is a priority binding: keys typed quickly run in the order typed (a priority
    # key was handled before an ordinary one typed just ahead of it: "- Space" bet the old
    # chip); the screen has no widget of its own that takes keys
    BINDINGS = [
        Binding("up", "move(-1, 0)", N_("Up"), show=False, priority=True),
        Binding("down", "move(1, 0)", N_("Down"), show=False, priority=True),
        Binding("left", "move(0, -1)", N_("Left"), show=False, priority=True),
        Binding("right", "move(0, 1)", N_("Right"), show=False, priority=True),
        Binding("space,enter", "bet_here", N_("Bet"), key_display="Space", priority=True),
        Binding("space,enter", "next_round", N_("Next round"), key_display="Enter", priority=True),
        Binding("d", "deal", N_("Deal"), priority=True),
        Binding("d", "ready", N_("Ready"), priority=True),
        # (shown only when it works: with no bet on the board the key is off the footer and
        # this one says why nothing is dealt)
        Binding("d", "deal_unoffered", N_("Deal"), show=False, priority=True),
        Binding("d", "next_round", N_("Next round"), show=False, priority=True),
        Binding("s", "bet('split_right')", N_("Split →"), show=False, priority=True),
        Binding("v", "bet('split_down')", N_("Split ↓"), show=False, priority=True),
        Binding("c", "bet('corner')", N_("Corner"), show=False, priority=True),
        Binding("k", "bet('rank')", N_("Rank"), show=False, priority=True),
        Binding("2", "bet('ranks2')", N_("2 ranks"), show=False, priority=True),
        Binding("4", "bet('ranks4')", N_("4 ranks"), show=False, priority=True),
        Binding("6", "bet('ranks6')", N_("6 ranks"), show=False, priority=True),
        Binding("f", "bet('suit')", N_("Suit"), show=False, priority=True),
        Binding("j", "bet('joker')", N_("Joker spot"), show=False, priority=True),
        Binding("w", "bet('wild')", N_("Joker bet"), show=False, priority=True),
        Binding("p", "bet('progressive')", N_("Side bet"), show=False, priority=True),
        Binding("plus,equals_sign", "chip(1)", N_("Chip+"), show=False, priority=True),
        Binding("minus", "chip(-1)", N_("Chip-"), show=False, priority=True),
        Binding("u,backspace", "undo", N_("Undo"), priority=True),
        Binding("x,delete", "clear", N_("Clear"), show=False, priority=True),
        Binding("a", "rebet", N_("Rebet"), priority=True),
        # the footer shows only the keys that work now; the same keys when the ones above are
        # off, not in the footer: undo with no chip to take back, rebet with no last round's
        # bets known (the engine or the host says why), any of them once bets are closed (why)
        Binding("u,backspace", "undo_unoffered", N_("Undo"), show=False, priority=True),
        Binding("a", "rebet_unoffered", N_("Rebet"), show=False, priority=True),
        Binding("u,backspace,x,delete,a", "bets_closed", N_("Undo"), show=False,
                priority=True),
        Binding("tab", "next_player", N_("Player"), key_display="Tab", priority=True),
        Binding("o", "odds", N_("Odds"), priority=True),
        Binding("h", "history", N_("History"), show=False, priority=True),
        Binding("R", "reset", N_("Reset bankroll"), show=False, priority=True),
        Binding("question_mark,f1", "keys", N_("Keys"), key_display="?", priority=True),
        Binding("q", "quit", N_("Quit"), priority=True),
        # the bets and results under the board scroll (at 80x24 a few bets fill them): the
        # footer offers the way to what is out of view, PgDn while there is more below, PgUp
        # once at the end
        Binding("pagedown", "scroll_results(1)", N_("More ↓"), key_display="PgDn",
                priority=True),
        Binding("pageup", "scroll_results(-1)", N_("More ↑"), key_display="PgUp",
                priority=True),
        # (the same keys off the footer: PgUp anywhere but at the end, PgDn at it)
        Binding("pagedown", "scroll_page(1)", N_("More ↓"), show=False, priority=True),
        Binding("pageup", "scroll_page(-1)", N_("More ↑"), show=False, priority=True),
    ]

    DEFAULT_CSS = """
    CasinoScreen { layout: vertical; }
    #casino-status { height: 1; padding: 0 1; background: $primary-darken-2; color: $text; }
    CasinoBoard { background: #0c3324; }
    #casino-hint { height: auto; max-height: 2; padding: 0 1; background: #0c3324; color: #e6efe9; }
    #casino-lower { height: 1fr; }
    #casino-deal { width: 33; height: 100%; padding: 0 1; background: $panel; }
    #casino-results { width: 1fr; height: 100%; padding: 0 1; background: $surface;
                      scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    CasinoScreen.-wide #casino-deal { width: 44; }
    #casino-side { display: none; width: 40; height: 100%; padding: 0 1; background: $panel; }
    CasinoScreen.-tall #casino-deal { width: 41; }
    CasinoScreen.-pays #casino-side { display: block; }
    """

    def __init__(self, names: Sequence[str] = (), table: PayTable | None = None,
                 store_path: Path | None = None, *, deal_pause: float = DEAL_PAUSE,
                 seed: int | None = None, four_color: bool = False,
                 session: CasinoSession | None = None, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        """A hot-seat table for ``names`` (kept in the store at ``store_path``), or the
        table of ``session`` (a network table, already connected)."""
        super().__init__(name=name, id=id, classes=classes)
        if session is None and (table is None or store_path is None):
            raise ValueError("a casino screen needs a session, or a table and a store")
        self.names = list(names)
        self.table: PayTable = session.table if session is not None else table  # type: ignore
        self.store_path = Path(store_path) if store_path is not None else None
        self.deal_pause = max(0.0, float(deal_pause))
        self.seed = seed
        self.four_color = four_color
        self.session: CasinoSession | None = session
        self.seat = 0
        self.cursor = (0, 12)
        self.chips = chips_for(self.table)
        self.chip_index = min(1, len(self.chips) - 1)
        self.message: Text | None = None  # said on the hint line until the cursor moves
        self.shorter: list[Text] = []  # the message said in fewer words, if it does not fit
        self.warning = ""  # the store's word on a damaged file, over the bets until a deal
        self.gone = ""  # a network table that closed: why
        self.table_lines: list[str] = []  # a host's: how the others join (with the results)
        self._leaving = False  # (not ``_closing``: Textual's message pump has one)
        self._reveal: Spot | None = None  # a bet just placed: its line is scrolled into view
        self._reveal_lines: tuple[int, int] | None = None  # (its lines there, once drawn)
        self._results_of: tuple | None = None  # the stage, round and seat the results show

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="casino-status")
        yield CasinoBoard(id="board")
        yield Static("", id="casino-hint")
        with Horizontal(id="casino-lower"):
            yield Static("", id="casino-deal")
            with VerticalScroll(id="casino-results", can_focus=False):
                yield Static("", id="casino-results-text")
            yield Static("", id="casino-side")
        notice = TooSmallNotice(id="too-small", keys=casino_keys)
        notice.display = False  # (shown by on_resize below 80×24, in every app)
        yield notice
        yield TidyFooter()

    def on_mount(self) -> None:
        if self.session is None:
            assert self.store_path is not None
            self.session = LocalCasino(self.names, self.table, self.store_path,
                                       deal_pause=self.deal_pause, seed=self.seed)
        session = self.session
        self.seat = session.seats[0] if session.seats else 0
        if session.warning:
            self.warning = session.warning
            self._say(_("The casino file was damaged: see on the right."), error=True)
        elif session.networked:
            self._say(_("Place your bets: arrows move, Space bets, d when you are ready, "
                        "? keys."))
        else:
            self._say(_("Place your bets: arrows move, Space bets, d deals, ? lists the keys."))
        self.refresh_view()
        self.call_after_refresh(self._offer_reset_if_broke)
        self.run_worker(self._pump(), exclusive=True, group="pump")
        if session.networked:  # the countdowns
            self.set_interval(1.0, self.refresh_view)
        # the poker bets' odds count every five-card set once (about a second): before the
        # cursor first reaches them
        self.run_worker(standard_counts, thread=True, group="warm")

    async def _pump(self) -> None:
        """What the session says (a card dealt, a round settled, news from the table)."""
        session = self.session
        assert session is not None
        async for update in session.updates():
            self._update(update)

    def _update(self, update: CasinoUpdate) -> None:
        if update.closed:
            self.gone = update.note or _("the table closed")
            self._say(_("{why}. Press q to leave.").format(
                why=f"{self.gone[:1].upper()}{self.gone[1:]}"), error=True)
            return
        if update.settled:
            self.warning = ""
            self.message = None  # the hint line says what next
        if update.note:
            self._say(update.note, error=update.error)
        else:
            self.refresh_view()
        if not update.settled and self.casino.stage is Stage.BETTING:
            self._offer_reset_if_broke()

    def on_resize(self) -> None:
        """Lay the table out for the terminal; below 80×24 a notice in its place (as at the
        card table: it comes back when the terminal grows)."""
        small = too_small(*self.size)
        if small != self.has_class("-too-small"):
            self.set_class(small, "-too-small")
            for selector in TOO_SMALL_AWAY:
                self.query_one(selector).display = not small
            self.query_one(TooSmallNotice).display = small
            self.refresh_bindings()  # no table keys while the table is away
        self.query_one(TooSmallNotice).size_now = (self.size.width, self.size.height)
        self._compose_big()
        self.refresh_view()

    def _compose_big(self) -> None:
        """From 120×36 the board has taller card faces, and the dealt cards, the bets (and
        from 160×56 the pay table) stand under it, as wide as it and centred with it; the
        hint line starts where the board does. 80×24 keeps the compact board, full width."""
        width, height = self.size
        g = geometry_for_screen(width, height)
        tall = g is not COMPACT
        self.query_one(CasinoBoard).geometry = g if tall else None
        self.set_class(width >= 120, "-wide")
        self.set_class(tall, "-tall")
        # the pay table beside the bets where the lines under the board hold it all
        lines = len(pays_text(self.table, 0).plain.splitlines())
        self.set_class(g is HUGE and self._lower_rows(g) >= lines, "-pays")
        lower = self.query_one("#casino-lower")
        hint = self.query_one("#casino-hint")
        if tall:
            left = max(0, (width - g.width) // 2)
            lower.styles.width = g.width
            lower.styles.margin = (0, 0, 0, left)
            hint.styles.padding = (0, max(1, width - g.width - left), 0, max(1, left))
        else:
            lower.styles.width = None
            lower.styles.margin = None
            hint.styles.padding = None

    def _lower_rows(self, g: Geometry | None = None) -> int:
        """The lines under the board (the status, the hint's two and the footer taken off)."""
        if g is None:
            g = geometry_for_screen(*self.size) if self.has_class("-tall") else COMPACT
        return max(0, self.size.height - 2 - HINT_LINES - g.height)

    @property
    def casino(self) -> Casino:
        assert self.session is not None
        return self.session.casino

    @property
    def networked(self) -> bool:
        return self.session is not None and self.session.networked

    @property
    def player(self) -> G.Player:
        return self.casino.players[self.seat]

    @property
    def chip(self) -> int:
        return self.chips[self.chip_index]

    def follow_four_color(self, on: bool) -> None:
        """The four-colour deck was switched on or off (ctrl+k): the board and the cards
        follow at once."""
        self.four_color = on
        self.refresh_view()

    async def retranslate(self) -> None:
        """The language changed (PokerApp.switch_language): draw everything again in it
        (the line said last was in the old language: the hint line takes its place)."""
        self.message = None
        self.refresh_view()

    # -- drawing ----------------------------------------------------------------------------

    def refresh_view(self) -> None:
        if self.session is None or not self.is_mounted or self._leaving or not self.children:
            return  # not composed yet, or on the way out
        c = self.casino
        if not 0 <= self.seat < len(c.players):
            self._draw_no_table()  # (a network table before its first state)
            return
        p = self.player
        who = f" ({self.seat + 1}/{len(c.players)})" if len(self.session.seats) > 1 else ""
        self.query_one("#casino-status", Static).update(status_text(
            p.name, who, p.bankroll, p.staked, c.jackpot, c.round_no, self.size.width - 2))
        self.query_one(CasinoBoard).model = self._board_model()
        self.query_one("#casino-hint", Static).update(self._hint())
        self.query_one("#casino-deal", Static).update(self._deal_panel())
        results = self._results()
        results.rstrip()  # (no blank line at the end to scroll to)
        self.query_one("#casino-results-text", Static).update(results)
        if self.has_class("-pays"):
            self.query_one("#casino-side", Static).update(
                pays_text(self.table, c.jackpot))
        shown = (c.stage, c.round_no, self.seat)
        if shown != self._results_of:  # other results, or another player's: from the top
            self._results_of = shown
            scroll = self.query_one("#casino-results", VerticalScroll)
            self.call_after_refresh(scroll.scroll_home, animate=False, immediate=True)
        if self._reveal_lines is not None:  # a bet just placed: into view, once laid out
            self.call_after_refresh(self._scroll_to_lines, *self._reveal_lines)
        self._reveal, self._reveal_lines = None, None
        self.refresh_bindings()
        # (PgDn / PgUp in the footer follow whether the results, laid out, overflow)
        self.call_after_refresh(self.refresh_bindings)

    def _scroll_to_lines(self, start: int, end: int) -> None:
        """Scroll the bets and results as little as it takes to bring their lines ``start``
        to ``end`` (not included) into view (the first of them if not all fit)."""
        scroll = self.query_one("#casino-results", VerticalScroll)
        height = scroll.scrollable_content_region.height
        if height <= 0:
            return
        top = scroll.scroll_y
        if end > top + height:
            top = end - height
        top = min(top, start)
        if top != scroll.scroll_y:
            scroll.scroll_to(y=top, animate=False, immediate=True)
        self.refresh_bindings()

    def _results_width(self) -> int:
        """The results panel's text width (the same with its scrollbar or without: its
        gutter is kept, so that lines wrapped here are not wrapped again once it shows)."""
        width = self.query_one("#casino-results-text", Static).content_size.width
        if width <= 0:  # (before the first layout: what the panel will have at 80 columns)
            width = max(1, self.size.width - 33 - 4)
        return width

    def _results_lines(self, text: Text) -> int:
        """The lines ``text`` (ending in a new line) takes in the results panel: the index of
        the line that comes next."""
        return len(text.wrap(self.app.console, self._results_width())) - 1

    def _hang(self, out: Text, line: Text, indent: int) -> None:
        """Append ``line`` (one bet or result, no new line in it) and a new line, wrapped to
        the results panel with its lines after the first ``indent`` columns in: a long bet's
        words stay under its own, not under the mark or amount at the start of the line."""
        width = self._results_width()
        console = self.app.console
        lines = line.wrap(console, width)
        if len(lines) > 1 and width > indent + 8:
            first = lines[0]
            rest = line[len(first.plain):]
            rest = rest[len(rest.plain) - len(rest.plain.lstrip()):]
            lines = [first, *[Text(" " * indent).append_text(t)
                              for t in rest.wrap(console, width - indent)]]
        out.append_text(Text("\n").join(lines))
        out.append("\n")

    def _draw_no_table(self) -> None:
        """A network table with no state to draw yet: what was said last (such as a host
        whose messages cannot be read, and the reconnecting), not a blank screen."""
        said = self.message.plain if self.message is not None else ""
        unreadable = self.session.unreadable_words()
        text = Text()
        if unreadable:  # (kept while the host sends nothing better, reconnecting or not)
            text.append(f"✗ {unreadable}\n", style="bold #ff6b6b")
        if said != f"✗ {unreadable}":
            text.append((said or _("Waiting for the table…")) + "\n",
                        style="bold #ff6b6b" if said.startswith("✗") else "bold")
        text.append("\n" + _("There is no table to show until the host sends one this "
                              "program can read. q leaves."), style="italic")
        self.query_one("#casino-hint", Static).update("")
        self.query_one("#casino-results-text", Static).update(text)
        self.refresh_bindings()

    def _board_model(self) -> BoardModel:
        c, p = self.casino, self.player
        if c.stage is Stage.SETTLED and len(c.dealt) == 5:
            return BoardModel(
                self.table, chips={r.bet.spot: r.bet.amount for r in p.results},
                cursor=self.cursor, won={r.bet.spot: r.paid for r in p.results if r.won},
                lost=frozenset(r.bet.spot for r in p.results if not r.won),
                fifth=c.dealt[4], four_color=self.four_color, show_cursor=False)
        return BoardModel(self.table, chips={b.spot: b.amount for b in p.bets},
                          cursor=self.cursor, four_color=self.four_color,
                          show_cursor=c.stage is Stage.BETTING)

    def _countdown(self, at: float | None) -> int | None:
        if at is None:
            return None
        return max(0, round(at - asyncio.get_running_loop().time()))

    def _hint(self) -> Text:
        """The line under the board (two when needed): the chip, and what was said last or
        what the cursor's spot pays. Never cut: a message too long is said in fewer words,
        and at last without the chip."""
        if self.message is None:
            return self._hint_line()
        said = [self.message, *self.shorter]
        # the table's timer, before what was said (a player not ready yet must not miss it:
        # the words said last stay until the cursor moves); the deal panel has it too
        clock = self._clock_words()
        for first in ([clock] if clock is not None else []) + [Text()]:
            for message in said:
                text = Text()
                text.append(" " + _("chip {size}").format(size=self.chip) + " ",
                            style="bold #1a1a1a on #ffd75f")
                text.append(" ")
                text.append_text(first)
                text.append_text(message)
                if self._fits(text):
                    return text
        return said[-1].copy()  # (the chip is on the board's spots; the words matter more)

    def _bets_close_in(self) -> int | None:
        """The seconds before a network table's timer closes the bets (None: no timer runs,
        or the table is gone)."""
        session = self.session
        if (session is None or not session.networked or self.gone
                or self.casino.stage is not Stage.BETTING):
            return None
        return self._countdown(session.closes_at)

    def _clock_words(self) -> Text | None:
        """"Bets close in 39 s (d: ready) · " while the network table's timer runs for a
        player not ready yet (the ready one's line says it in its own words)."""
        left = self._bets_close_in()
        if left is None or self.session.seat_info(self.seat).ready:  # type: ignore[union-attr]
            return None
        return Text(_("Bets close in {seconds} s (d: ready) · ").format(seconds=left),
                    style="bold #ffd75f")

    def _fits(self, text: Text, lines: int = HINT_LINES) -> bool:
        """``text`` fits the hint line's width in ``lines`` lines (wrapped at words)."""
        width = self._hint_width()
        if text.cell_len <= width:
            return True
        return len(text.wrap(self.app.console, width)) <= lines

    def _hint_line(self) -> Text:
        c = self.casino
        text = Text()
        text.append(" " + _("chip {size}").format(size=self.chip) + " ",
                    style="bold #1a1a1a on #ffd75f")
        text.append(" ")
        if c.stage is Stage.BETTING:
            if self.networked and self.session.seat_info(self.seat).ready:  # type: ignore
                text.append(_("You are ready"), style="bold")
                waiting = self._waiting_for()
                text.append(_(": waiting for {names}").format(names=waiting) if waiting else "")
                left = self._countdown(self.session.closes_at)  # type: ignore[union-attr]
                text.append(_(" (bets close in {seconds} s)").format(seconds=left)
                            if left is not None else "")
                tail = _(" · a bet makes you not ready")
                # whole or not at all: cut short ("… makes you"), it would say the opposite
                if text.cell_len + cell_len(tail) <= self._hint_width():
                    text.append(tail)
            else:
                clock = self._clock_words()
                if clock is not None:  # someone is ready and the table's timer runs
                    text.append_text(clock)
                spot = spot_at_cursor(self.cursor, self.table)
                hint = spot_hint(spot, self.table, c.jackpot)
                mine = next((b.amount for b in self.player.bets if b.spot == spot), 0)
                if mine:
                    yours = Text(_(" · yours: {amount}").format(amount=number(mine, ",")),
                                 style="bold")
                    if not self._fits(Text.assemble(text, hint, yours)):
                        hint = spot_words(spot)  # (what it pays: o lists it; the stake stays)
                    text.append(hint)
                    text.append_text(yours)
                else:
                    text.append(hint)
        elif c.stage is Stage.DEALING:
            text.append(_("No more bets: card {n} of 5").format(n=len(c.dealt)) if c.dealt
                        else _("No more bets: dealing"), style="bold")
        elif self.networked:
            left = self._countdown(self.session.next_at)  # type: ignore[union-attr]
            ready = self.session.seat_info(self.seat).ready  # type: ignore[union-attr]
            text.append(_("Ready for the next round") if ready
                        else _("Enter: ready for the next round"))
            text.append(_(" (it opens in {seconds} s)").format(seconds=left)
                        if left is not None else "")
            text.append(_(" · h: history"))
        else:
            # (Tab only where there is another player: hot-seat)
            text.append(_("Enter: next round · Tab: another player's results · h: history")
                        if len(self.session.seats) > 1  # type: ignore[union-attr]
                        else _("Enter: next round · h: history"))
        return text

    def _hint_width(self) -> int:
        """The cells the hint line has (its padding taken off)."""
        hint = self.query_one("#casino-hint", Static)
        return hint.content_size.width or max(self.size.width - 2, 0)

    def _waiting_for(self) -> str:
        session = self.session
        assert session is not None
        names = [p.name for i, p in enumerate(self.casino.players)
                 if session.seat_info(i).connected and not session.seat_info(i).ready]
        return ", ".join(names)

    def _summary(self) -> Text:
        """Under the cards, once a round is settled: each player's net, and a jackpot won."""
        c = self.casino
        if c.stage is not Stage.SETTLED:
            return Text("")
        nets = ", ".join(f"{p.name} {number(p.net, '+,')}" for p in c.players if p.results)
        text = Text(_("Net this round: {nets}.").format(nets=nets) if nets
                    else _("Nobody bet this round."))
        last = c.history[-1] if c.history else None
        if last is not None and last.number == c.round_no and last.jackpot_won:
            text = Text(_("THE JACKPOT of {amount:,} is won!").format(amount=last.jackpot_won)
                        + " ", style="bold reverse") + text
        return text

    def _deal_panel(self) -> Text:
        c = self.casino
        cards = list(c.dealt) + [None] * (5 - len(c.dealt))
        settled = c.stage is Stage.SETTLED
        text = boxed_row(cards, four_color=self.four_color, highlight=(4,) if settled else (),
                         labels=["1", "2", "3", "4", _("5th")], big=self.has_class("-tall"))
        text.append("\n")
        if settled and c.hand is not None:
            name = G.hand_name(c.dealt)
            text.append(name[:1].upper() + name[1:], style="bold")
        elif c.stage is Stage.DEALING:
            text.append(_("Dealing…"), style="bold")
        else:
            left = self._bets_close_in()
            if left is not None:  # the network table's timer: everyone sees it here
                text.append(_("Round {number}: bets close in {seconds} s").format(
                    number=c.round_no, seconds=left), style="bold #1a1a1a on #ffd75f")
            else:
                text.append(_("Round {number}: bets open").format(number=c.round_no),
                            style="bold")
        text.append("\n")
        text.append_text(self._summary())
        if self.has_class("-tall") and self.session is not None:
            # the last rounds under the cards, as many as the lines left hold
            width = PANEL_WIDTH + 1  # (the deal panel's text width)
            left = self._lower_rows() - len(text.wrap(self.app.console, width)) - 1
            if left > 1:
                text.append("\n\n")
                text.append_text(history_text(self.session.history(), left, width,
                                              self.app.console))
        return text

    def _results(self) -> Text:
        c = self.casino
        session = self.session
        assert session is not None
        out = Text()
        order = [self.seat] + [i for i in range(len(c.players)) if i != self.seat]
        # the store's word right under this player's name while they have no bets (the
        # how-to-bet lines after it: at 80x24 a long path took the end of the word off);
        # under the bets once placed
        first = not self.player.bets and c.stage is not Stage.SETTLED
        for n, i in enumerate(order):
            if n == 1 and not first:
                self._warn(out)
            p = c.players[i]
            info = session.seat_info(i)
            who = p.name if info.connected else _("{name} (away)").format(name=p.name)
            if n:
                out.append("\n")
            if c.stage is Stage.SETTLED:
                if not p.results:
                    out.append(_("{name}: no bets this round").format(name=who), style="bold")
                    out.append(_(" (bankroll {amount:,})").format(amount=p.bankroll) + "\n")
                    continue
                out.append(_("{name}: net {amount:+,}").format(name=who, amount=p.net),
                           style="bold")
                out.append(_(" (bankroll {amount:,})").format(amount=p.bankroll) + "\n")
                for r in sorted(p.results, key=lambda r: not r.won):
                    mark, style = ("✓", "bold green") if r.won else ("✗", "")
                    line = Text(f" {mark} " + _("{amount} on {spot}").format(
                        amount=r.bet.amount, spot=spot_words(r.bet.spot)), style=style)
                    line.append(f" → {r.paid}" if r.won else "", style=style)
                    line.append(f": {G.explain(c, r)}", style="" if r.won else "dim")
                    self._hang(out, line, 3)
            elif i == self.seat:
                ready = _(" · ready") if self.networked and info.ready else ""
                out.append(_("{name}'s bets").format(name=p.name), style="bold")
                out.append(_(" ({amount:,} staked{ready})").format(amount=p.staked, ready=ready)
                           + "\n" if p.bets else f"{ready}\n")
                if first:
                    self._warn(out, first=True)
                if not p.bets and self._rebet_offered():
                    out.append(_(" None yet. Move the cursor and press Space, or click a card;\n"
                                 " a for last round's bets again.\n"), style="italic")
                elif not p.bets:
                    out.append(_(" None yet. Move the cursor and press Space, or click a "
                                 "card.\n"), style="italic")
                for b in p.bets:
                    start = self._results_lines(out) if b.spot == self._reveal else None
                    spot = spot_words(b.spot)  # (no "(…) (…)": the joker bet's ends in one)
                    line = Text(" " + _("{amount} on {spot}").format(
                        amount=f"{b.amount:>4}", spot=spot))
                    line.append(f", {pays_words(self.table, b)}" if spot.endswith(")")
                                else f" ({pays_words(self.table, b)})", style="dim")
                    self._hang(out, line, 6)
                    if start is not None:  # the bet just placed: scrolled into view
                        self._reveal_lines = (start, self._results_lines(out))
            elif self.networked:  # another player at the table: their bets, all public
                ready = _(" · ready") if info.ready else ""
                out.append(who, style="bold")
                out.append(_(": bankroll {amount:,}, {staked:,} staked{ready}").format(
                    amount=p.bankroll, staked=p.staked, ready=ready) + "\n")
                for b in p.bets:
                    self._hang(out, Text(" " + _("{amount} on {spot}").format(
                        amount=f"{b.amount:>4}", spot=spot_words(b.spot)), style="dim"), 6)
            else:
                bets = ngettext("{n} bet, {staked:,} staked", "{n} bets, {staked:,} staked",
                                len(p.bets)).format(n=len(p.bets), staked=p.staked) \
                    if p.bets else _("no bets yet")
                out.append(_("{name}: {bets}, bankroll {amount:,}").format(
                    name=p.name, bets=bets, amount=p.bankroll) + "\n")
        if len(order) == 1 and not first:
            self._warn(out)
        if self.table_lines and not self._join_lines_shown():
            # (they were over the bets: at 80x24 they pushed everyone's bets and results
            # out of view; the keys list has them for as long as the table is open)
            out.append("\n" + _("? shows how others join this table.") + "\n", style="dim")
        return out

    def _join_lines_shown(self) -> bool:
        """A host's lines on how the others join (and the certificate they check) stand with
        the bets only until someone joins or the first round is dealt; then ``?`` has them."""
        c = self.casino
        return len(c.players) <= 1 and c.round_no <= 1 and c.stage is Stage.BETTING

    def _warn(self, out: Text, *, first: bool = False) -> None:
        """The store's word on a damaged file and the table's own lines (a host's: how the
        others join, the certificate), under this player's bets (over them, it pushed them
        off an 80x24 terminal), or ``first``, over the lines that say there are none."""
        if self.warning:
            out.append(("" if first else "\n") + self.warning + "\n", style="bold #ff6b6b")
        lines = self.table_lines if self._join_lines_shown() else []
        if lines:
            out.append("" if first and not self.warning else "\n")
            out.append("\n".join(lines) + "\n", style="#8fbcbb")
        if first and (self.warning or lines):
            out.append("\n")

    def _say(self, message: str, *, error: bool = False, shorter: Sequence[str] = ()) -> None:
        """Say ``message`` on the hint line (an error in red, with a ✗); ``shorter``: the
        same in fewer words, longest first, for when it does not fit."""
        def said(words: str) -> Text:
            return Text(("✗ " if error else "") + words, style="bold #ff6b6b" if error else "")

        self.message = said(message)
        self.shorter = [said(words) for words in shorter]
        self.refresh_view()

    # -- keys -------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self._leaving:
            return False  # keys typed after q: the app is on its way out
        if self.has_class("-too-small") and action not in TOO_SMALL_KEYS:
            return False  # nothing is done blind while the table is not on screen
        if self.session is None or not self.casino.players:
            return action in ("quit", "keys", "odds")
        if self.gone and action not in ("quit", "keys", "odds", "history", "scroll_results",
                                        "scroll_page"):
            return False
        c = self.casino
        betting = c.stage is Stage.BETTING
        # a key works now or is off the footer (False), never shown off (None): the footer
        # offers only what a key press would do
        some_bet = any(p.bets for p in c.players)  # (the deal needs one, anyone's)
        mine = bool(c.players[self.seat].bets) if 0 <= self.seat < len(c.players) else False
        if action == "deal":
            return betting and not self.networked and some_bet
        if action == "ready":
            return betting and self.networked and some_bet
        if action == "deal_unoffered":
            return betting and not some_bet
        if action == "undo":  # offered only with a chip of this player's to take back
            return betting and mine
        if action == "undo_unoffered":
            return betting and not mine
        if action == "rebet":  # offered only when there are last round's bets to repeat
            return betting and self._rebet_offered()
        if action == "rebet_unoffered":
            return betting and not self._rebet_offered()
        if action == "bets_closed":
            return not betting
        if action in ("bet_here", "bet", "clear", "chip", "move", "reset"):
            return betting
        if action == "next_round":
            return c.stage is Stage.SETTLED
        if action == "next_player":
            return len(self.session.seats) > 1 and c.stage is not Stage.DEALING
        if action == "scroll_results":  # (in the footer when it has room; else scroll_page)
            step = parameters[0] if parameters else 1
            return self._can_scroll(step) and self._footer_has_room(step)
        return True

    def _footer_has_room(self, step: object) -> bool:
        """The footer has room for PgDn / PgUp beside the keys it shows (with Tab, a and a
        long language they would be cut: "PgDn Mo"; the keys list has them)."""
        from textual.widgets._footer import FooterKey

        words = _("More ↓") if step == 1 else _("More ↑")
        need = cell_len(words) + 4 + 3  # " PgDn " and the words with a space after them
        used = sum(cell_len(key.key_display) + cell_len(key.description) + 3
                   for key in self.query(FooterKey)
                   if not key.action.startswith("scroll_results"))
        return used + need <= self.size.width

    def _can_scroll(self, step: object) -> bool:
        """PgDn while the bets and results go on below the panel; PgUp once at their end
        (with more above): one of the two in the footer whenever not all of it is in view."""
        scroll = self.query_one("#casino-results", VerticalScroll)
        if scroll.max_scroll_y <= 0:
            return False
        at_end = scroll.scroll_y >= scroll.max_scroll_y
        return not at_end if step == 1 else at_end

    def action_scroll_results(self, step: int) -> None:
        """A page of the bets and results, down (1) or up (-1)."""
        self.action_scroll_page(step)

    def action_scroll_page(self, step: int) -> None:
        """A page of the bets and results, down (1) or up (-1) (the keys off the footer)."""
        scroll = self.query_one("#casino-results", VerticalScroll)
        page = max(1, scroll.scrollable_content_region.height - 1)
        scroll.scroll_to(y=max(0, min(scroll.max_scroll_y, scroll.scroll_y + step * page)),
                         animate=False, immediate=True)
        self.refresh_bindings()

    def action_move(self, rows: int, columns: int) -> None:
        self.cursor = move(self.cursor, rows, columns, self.table)
        self.message = None
        self.refresh_view()

    async def action_bet_here(self) -> None:
        await self._place(spot_at_cursor(self.cursor, self.table))

    async def action_bet(self, what: str) -> None:
        free = {"joker": (Kind.JOKER, ""), "wild": (Kind.WILD, ""),
                "progressive": (Kind.PROGRESSIVE, "")}
        if what in free:
            await self._place(free[what])
            return
        if not on_grid(self.cursor):
            self._say(_("Move the cursor onto the cards first (↑)."), error=True)
            return
        card = spot_at_cursor(self.cursor, self.table)[1]
        rank = card[0]
        spot: Spot = {
            "split_right": split_right(self.cursor), "split_down": split_down(self.cursor),
            "corner": corner(self.cursor), "rank": (Kind.RANK, rank),
            "ranks2": (Kind.RANKS2, rank), "ranks4": (Kind.RANKS4, rank),
            "ranks6": (Kind.RANKS6, rank), "suit": (Kind.SUIT, card[1].upper()),
        }[what]
        await self._place(spot)

    async def _place(self, spot: Spot) -> None:
        assert self.session is not None
        kind, target = spot
        chip = self.chip
        try:
            bet = await self.session.place(self.seat, kind, target, chip)
        except CasinoError as exc:
            self._say(str(exc).capitalize(), error=True)
            return
        added = self.table.progressive_stake if bet.kind is Kind.PROGRESSIVE else chip
        self._reveal = bet.spot  # (its line in the bets list is scrolled into view)
        words = {"added": number(added, ","), "spot": spot_words(bet.spot),
                 "amount": number(bet.amount, ","), "pays": pays_words(self.table, bet)}
        self._say(_("{added} on {spot}: {amount} there now, {pays}.").format(**words),
                  shorter=[_("{added} on {spot}: {amount} there now.").format(**words)])

    async def on_casino_board_spot_clicked(self, message: CasinoBoard.SpotClicked) -> None:
        if self.session is None or self.gone or self.casino.stage is not Stage.BETTING:
            return
        where = cursor_of(message.spot, self.table)
        if where is not None:
            self.cursor = where
        await self._place(message.spot)

    def action_chip(self, step: int) -> None:
        self.chip_index = max(0, min(len(self.chips) - 1, self.chip_index + step))
        self._say(_("Chip size {size}.").format(size=self.chip))

    async def action_undo(self) -> None:
        await self._try(lambda s: s.undo(self.seat), _("Took back the last chip."))

    async def action_clear(self) -> None:
        if not self.player.bets:
            self._say(_("You have no bets on the board to take back."))
            return
        await self._try(lambda s: s.clear(self.seat), _("Took back all your bets."))

    async def action_undo_unoffered(self) -> None:
        """The undo key with no chip of this player's on the board (the key is off the
        footer): the engine, or a network table's host, says why nothing is taken back."""
        await self.action_undo()

    async def action_deal_unoffered(self) -> None:
        """The deal (ready) key with no bet on the board (the key is off the footer): the
        session says why nothing is dealt."""
        await self.action_deal()

    async def action_rebet(self) -> None:
        await self._try(lambda s: s.rebet(self.seat),
                        _("Last round's bets are on the board again."))

    async def action_rebet_unoffered(self) -> None:
        """The rebet key with no last round's bets known here (the key is shown off): the
        engine, or a network table's host, says why nothing is placed."""
        await self.action_rebet()

    def _rebet_offered(self) -> bool:
        """Last round's bets are known for this seat (none after the program restarts: they
        are not saved)."""
        return bool(self.player.last_bets)

    def action_bets_closed(self) -> None:
        """Undo, clear or rebet while bets are closed: why nothing happened."""
        if self.casino.stage is Stage.DEALING:
            words = _("Bets are closed: the cards are being dealt.")
        else:
            words = _("Bets are closed: this round is settled. Bets open again in the next "
                      "round (Enter).")
        self.app.notify(words, timeout=REFUSAL_SECONDS, markup=False)

    async def _try(self, step, done: str) -> None:
        try:
            words = await step(self.session)
        except CasinoError as exc:
            self._say(str(exc).capitalize(), error=True)
            return
        if words is None or words:
            self._say(words or done)
        else:
            self.message = None
            self.refresh_view()

    def action_next_player(self) -> None:
        c = self.casino
        assert self.session is not None
        seats = self.session.seats
        self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
        self._say((_("{name}'s turn to bet.") if c.stage is Stage.BETTING
                   else _("{name}'s turn: your results.")).format(name=self.player.name))
        if c.stage is Stage.BETTING:
            self._offer_reset_if_broke()

    # -- the deal ---------------------------------------------------------------------------

    async def action_deal(self) -> None:
        """No more bets: this terminal deals (a network table: this player is ready)."""
        await self._try(lambda s: s.deal(self.seat), "")

    async def action_ready(self) -> None:
        await self.action_deal()

    async def action_next_round(self) -> None:
        assert self.session is not None
        try:
            words = await self.session.next_round(self.seat)
        except CasinoError as exc:
            self._say(str(exc).capitalize(), error=True)
            return
        if not self.networked:
            self.seat = self.session.seats[0]
        self._say(words)
        self._offer_reset_if_broke()

    # -- bankrolls --------------------------------------------------------------------------

    def _offer_reset_if_broke(self) -> None:
        if self.session is None or self.gone or not self.casino.players:
            return
        c = self.casino
        if c.stage is not Stage.BETTING or self.app.screen is not self:
            return
        p = self.player
        if p.bets or p.bankroll >= self.table.min_bet:
            return
        self._ask_reset(_("{name} has no chips left. Start again with {amount:,} play "
                          "chips?").format(name=p.name, amount=START_BANKROLL))

    def action_reset(self) -> None:
        self._ask_reset(_("Start {name}'s bankroll again at {amount:,} play chips (it is "
                          "{now:,} now)?").format(name=self.player.name, amount=START_BANKROLL,
                                                  now=self.player.bankroll + self.player.staked))

    def _ask_reset(self, question: str) -> None:
        seat = self.seat

        async def answered(yes: bool | None) -> None:
            if yes:
                await self._reset(seat)

        self.app.push_screen(ConfirmScreen(question), answered)

    async def _reset(self, seat: int) -> None:
        assert self.session is not None
        try:
            await self.session.reset_bankroll(seat)
        except CasinoError as exc:
            self._say(str(exc).capitalize(), error=True)
            return
        self._say(_("{name} starts again with {amount:,} play chips.").format(
            name=self.casino.players[seat].name, amount=START_BANKROLL))

    # -- dialogs and leaving ----------------------------------------------------------------

    def action_odds(self) -> None:
        jackpot = self.casino.jackpot if self.session is not None else self.table.jackpot_seed
        self.app.push_screen(OddsScreen(self.table, jackpot))

    def action_history(self) -> None:
        assert self.session is not None
        self.app.push_screen(CasinoHistoryScreen(self.session.history()))

    def action_keys(self) -> None:
        self.app.push_screen(CasinoKeysScreen(self.table_lines, networked=self.networked))

    def save_and_close(self) -> str:
        """A table at this terminal: finish a deal under way, keep the bankrolls (chips still
        on the board are given back) and say where; the words are for the terminal after the
        app closes."""
        self._leaving = True
        self.workers.cancel_group(self, "pump")
        if isinstance(self.session, LocalCasino):
            return self.session.save_and_close()
        return ""

    async def leave(self) -> str:
        """Leave the table, whichever it is; returns the words for the terminal."""
        if self.session is None or isinstance(self.session, LocalCasino):
            return self.save_and_close()
        self._leaving = True
        self.workers.cancel_group(self, "pump")
        return await self.session.close()

    async def action_quit(self) -> None:
        if getattr(self.app, "casino_screen", None) is self:  # an app of its own: it leaves
            await self.app.action_quit()
            return
        words = await self.leave()
        if len(self.app.screen_stack) < 2:
            self.app.exit(message=words)
            return
        self.app.pop_screen()  # opened from the start screen: back to it
        if words:  # (a host's words: never read as markup)
            self.app.notify(words, timeout=6, markup=False)


APP_KEYS = [
    Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
    Binding("ctrl+t", "toggle_theme", N_("Theme"), show=False),
    Binding("ctrl+k", "toggle_four_color", N_("Four colours"), show=False),
]
"""The keys of the casino's own apps (:class:`CasinoApp`, ``casino_net.CasinoNetApp``): as
in the main app, ctrl+t switches the theme and ctrl+k the four-colour deck."""


class CasinoAppKeys:
    """ctrl+t and ctrl+k in an app of the casino's own (mixed into the App): the choice is
    remembered in the settings, as in the main app."""

    four_color: bool

    def action_toggle_theme(self) -> None:
        from pokeroulette_tui.ui.styles import theme_path

        app: App = self  # type: ignore[assignment]
        name = "light" if app.current_theme.dark else "dark"
        path = theme_path(name)
        if path not in app.css_path:  # (only the theme in use was read at the start)
            app.css_path.append(path)
            app.stylesheet.read(path)
        app.theme = "textual-light" if name == "light" else "textual-dark"
        self._remember(theme=name)

    def action_toggle_four_color(self) -> None:
        app: App = self  # type: ignore[assignment]
        self.four_color = not self.four_color
        for screen in app.screen_stack:
            if isinstance(screen, CasinoScreen):
                screen.follow_four_color(self.four_color)
        self._remember(four_color=self.four_color)
        app.notify(_("Four-colour deck on") if self.four_color else _("Four-colour deck off"),
                   markup=False)

    @staticmethod
    def _remember(**settings: object) -> None:
        from pokeroulette_tui.ui.config import AppConfig

        config = AppConfig.load()
        for key, value in settings.items():
            setattr(config, key, value)
        config.save()


class CasinoApp(CasinoAppKeys, App[None]):
    """The casino on its own, with the app's stylesheets and theme."""

    TITLE = N_("Poker Roulette casino")
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = [(120, "-wide")]
    BINDINGS = APP_KEYS

    def __init__(self, names: Sequence[str], table: PayTable, store_path: Path, *,
                 deal_pause: float = DEAL_PAUSE, seed: int | None = None,
                 theme: str = "dark", four_color: bool = False) -> None:
        from pokeroulette_tui.ui.styles import css_paths

        super().__init__(css_path=css_paths(theme))
        self._theme_name = theme
        self._table = (list(names), table, Path(store_path))
        self._options = {"deal_pause": deal_pause, "seed": seed}
        self.four_color = four_color
        self.casino_screen: CasinoScreen | None = None

    def on_mount(self) -> None:
        self.theme = "textual-light" if self._theme_name == "light" else "textual-dark"
        self.title = _(self.TITLE)
        self.casino_screen = CasinoScreen(*self._table, **self._options,  # type: ignore[arg-type]
                                          four_color=self.four_color)
        self.push_screen(self.casino_screen)

    async def action_quit(self) -> None:
        screen = self.casino_screen
        self.exit(message=await screen.leave() if screen is not None else None)


def run_casino(names: list[str], table: PayTable, store_path: Path,
               deal_pause: float = DEAL_PAUSE, *, seed: int | None = None) -> int:
    """Run the casino at one terminal for ``names`` (hot-seat); returns the exit status."""
    from pokeroulette_tui.ui.config import AppConfig

    config = AppConfig.load()
    app = CasinoApp(names, table, store_path, deal_pause=deal_pause, seed=seed,
                    theme=config.theme, four_color=bool(config.four_color))
    app.run()
    if app.return_code:
        return app.return_code
    return 0
