"""Statistics across games: chips over time, the counts by variant and preset, the best hand."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Sparkline, Static

from pokeroulette_tui.engine.stats import HandRecord, PlayerStats
from pokeroulette_tui.engine.stats_report import COLUMNS, percent, rows, symbols
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.ui.widgets.footer import TidyFooter


def counts_table(stats: PlayerStats) -> RichTable:
    """Games, wins, hands, pots, showdowns reached and won, tokens lost: a row per variant
    and preset, and the total."""
    table = RichTable(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("variant · preset", no_wrap=True, overflow="ellipsis", max_width=26)
    for _, heading in COLUMNS:
        table.add_column(heading, justify="right", no_wrap=True)
    for group, t in rows(stats):
        table.add_row(group, *(str(getattr(t, f)) for f, _ in COLUMNS),
                      style="bold" if group == "all" else "")
    return table


def best_text(stats: PlayerStats, *, four_color: bool = False) -> Text:
    """The best hand shown: its name, its cards (with suit symbols), when and where."""
    b = stats.best
    if b is None:
        return Text("Best hand: none shown at a showdown yet", style="italic")
    when = b.at[:16].replace("T", " ")
    return Text.assemble(("Best hand  ", "bold"), (b.name, "bold"), "  ", symbols(b.cards),
                         "\n", (f"           {when} · {b.group}", "italic"))


def chips_caption(stats: PlayerStats) -> Text:
    chips = [c for _, c in stats.series]
    if not chips:
        return Text("Chips over time: no hands with chips yet", style="italic")
    return Text.assemble(("Chips after each hand", "bold"), f", the last {len(chips)}: "
                         f"low {min(chips)} · high {max(chips)} · now {chips[-1]}")


RECENT = 14
"""Hands listed under the counts on a tall terminal."""


def recent_table(hands: list[HandRecord]) -> RichTable:
    """The last hands, newest first: when, the game, won or lost, the hand shown, chips after."""
    table = RichTable(box=None, pad_edge=False, show_edge=False, header_style="bold",
                      title="Recent hands", title_justify="left", title_style="bold")
    for heading in ("when", "variant · preset", "hand", "result", "your hand", "after"):
        table.add_column(heading, no_wrap=True, overflow="ellipsis",
                         justify="right" if heading in ("hand", "after") else "left")
    for rec in reversed(hands):
        shown = rec.result.hand(rec.seat) if rec.showdown else None
        mine = (Text.assemble(shown.name, "  ", (symbols(c.text for c in shown.cards), "dim"))
                if shown is not None else Text("no showdown", style="italic"))
        after = (f"{rec.chips} chips" if rec.chips is not None
                 else f"{rec.tokens} token{'' if rec.tokens == 1 else 's'}")
        table.add_row(rec.at[:16].replace("T", " "), rec.group, str(rec.hand_no),
                      Text("won", style="bold") if rec.won else Text("lost"), mine, after)
    return table


class StatsScreen(Screen[None]):
    """One player's statistics; ← → for the other players recorded at this terminal."""

    BINDINGS = [
        Binding("left", "step(-1)", "Previous player"),
        Binding("right", "step(1)", "Next player"),
        Binding("escape,q,t", "close", "Back"),
    ]

    DEFAULT_CSS = """
    StatsScreen { align-horizontal: center; }
    StatsScreen #stats-body { max-width: 110; padding: 0 1; }
    StatsScreen #stats-title { text-style: bold; height: 1; }
    StatsScreen #stats-notice { color: $text-warning; height: auto; }
    StatsScreen #chips-box { height: auto; border: round $primary 50%; padding: 0 1;
                             margin: 1 0 0 0; }
    StatsScreen #chips { height: 3; }
    StatsScreen.-tall #chips { height: 8; }
    StatsScreen #counts { margin: 1 0 0 0; height: auto; }
    StatsScreen #rates { height: auto; }
    StatsScreen #best { margin: 1 0 0 0; height: auto; }
    StatsScreen #recent { margin: 1 0 0 0; height: auto; display: none; }
    StatsScreen.-tall #recent { display: block; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    index: reactive[int] = reactive(0)

    def __init__(self, store: StatsStore | None = None, *, player: str | None = None,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        """``store``: this user's statistics folder unless given."""
        super().__init__(name=name, id=id, classes=classes)
        if store is None:
            from pokeroulette_tui.ui.stats_recorder import stats_store

            store = stats_store()
        self.store = store
        self.players = store.players()
        self._cache: dict[str, tuple[PlayerStats, list[HandRecord]]] = {}
        if player is not None and player in self.players:
            self.set_reactive(StatsScreen.index, self.players.index(player))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats-body", can_focus=False):
            yield Static("", id="stats-title")
            yield Static("", id="stats-notice")
            with Vertical(id="chips-box"):
                yield Static("", id="chips-caption")
                yield Sparkline([], id="chips", summary_function=lambda xs: sum(xs) / len(xs))
            yield Static("", id="counts")
            yield Static("", id="rates")
            yield Static("", id="best")
            yield Static("", id="recent")
        yield TidyFooter()

    def on_mount(self) -> None:
        self._show()

    def watch_index(self) -> None:
        if self.is_mounted:
            self._show()

    def stats(self, player: str) -> tuple[PlayerStats, list[HandRecord]]:
        """The player's statistics and last hands (read once while the screen is open)."""
        if player not in self._cache:
            self._cache[player] = self.store.load_with_hands(player, RECENT)
        return self._cache[player]

    def _show(self) -> None:
        notice = self.query_one("#stats-notice", Static)
        if not self.players:
            self.query_one("#stats-title", Static).update("Statistics")
            notice.update(Text("No games recorded yet: statistics are kept for the people who "
                               "play at this terminal, from their first finished hand on."))
            self.query_one("#chips-box").display = False
            return
        player = self.players[self.index]
        stats, hands = self.stats(player)
        count = len(self.players)
        more = f"   ← → {self.index + 1} of {count} players" if count > 1 else ""
        self.query_one("#stats-title", Static).update(
            Text.assemble(("Statistics · ", "bold"), (player, "bold"), (more, "dim")))
        notice.update(Text("\n".join(self.store.problems)))
        notice.display = bool(self.store.problems)
        self.query_one("#chips-caption", Static).update(chips_caption(stats))
        spark = self.query_one("#chips", Sparkline)
        spark.data = [float(c) for _, c in stats.series]
        spark.display = bool(stats.series)
        self.query_one("#counts", Static).update(counts_table(stats))
        total = stats.tally()
        self.query_one("#rates", Static).update(Text(
            f"Games won {percent(total.wins, total.finished)} of {total.finished} finished · "
            f"showdowns won {percent(total.showdowns_won, total.showdowns)} · "
            f"hands won {percent(total.hands_won, total.hands)}", style="italic"))
        self.query_one("#best", Static).update(best_text(stats))
        self.query_one("#recent", Static).update(recent_table(hands) if hands else "")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            return len(self.players) > 1
        return True

    def action_step(self, delta: int) -> None:
        if self.players:
            self.index = (self.index + delta) % len(self.players)

    def action_close(self) -> None:
        self.dismiss(None)
