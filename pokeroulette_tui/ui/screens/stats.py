"""Statistics across games: chips over time, the counts by variant and preset, the best hand."""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Sparkline, Static

from pokeroulette_tui.engine.i18n import N_, _, ngettext, pgettext
from pokeroulette_tui.engine.stats import HandRecord, PlayerStats
from pokeroulette_tui.engine.stats_report import (COLUMNS, percent, rows, score_words, shown_words,
                                                  symbols)
from pokeroulette_tui.engine.stats_report import group_words as report_group_words
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.ui.plain import plain
from pokeroulette_tui.ui.widgets.footer import TidyFooter


def column_heading(field: str, heading: str) -> str:
    """The heading of a :data:`COLUMNS` count in this screen's narrow table, in the player's
    language (two short lines; its own words, as the table must fit 80 columns)."""
    words = {
        "games": pgettext("statistics column", "games"),
        "wins": pgettext("statistics column", "games\nwon"),
        "hands": pgettext("statistics column", "hands"),
        "hands_won": pgettext("statistics column", "hands\nwon"),
        "showdowns": pgettext("statistics column", "showdowns\nreached"),
        "showdowns_won": pgettext("statistics column", "showdowns\nwon"),
        "tokens_lost": pgettext("statistics column", "tokens\nlost"),
    }
    return words.get(field, _(heading))


def group_words(group: str) -> str:
    """A row's ``variant · preset`` in the player's language (the game named as the rules
    screen names it, see :func:`engine.stats_report.group_words`), or the total's word."""
    return pgettext("statistics total", "all") if group == "all" else report_group_words(group)


def hand_words(name: str, category: str, cards: Iterable[str],
               score: tuple[int, ...] | None = None) -> str:
    """A recorded hand in the player's language, English too. The record keeps the words said
    when it was played (in the language of that game): they are never shown; the hand is said
    again from its ``score`` (category and ranks, see
    :func:`~pokeroulette_tui.engine.stats.hand_score`) or, without one, from its cards (from
    its category alone should they say something else). ``name`` only for a record of
    another version.

    >>> hand_words("pari, seiskat", "PAIR", ["7s", "7h"])
    'pair of sevens'
    """
    if score is not None:
        return score_words(score, name)
    from pokeroulette_tui.engine.cards import parse_card
    from pokeroulette_tui.engine.hands import Category, category_words, evaluate

    try:
        value = evaluate([parse_card(c) for c in cards])
        if value.category.name == category:
            return value.describe()
        return category_words(Category[category])
    except (KeyError, ValueError):  # a record of another version: its own words
        return name


def counts_table(stats: PlayerStats) -> RichTable:
    """Games, wins, hands, pots, showdowns reached and won, tokens lost: a row per variant
    and preset, and the total."""
    table = RichTable(box=None, pad_edge=False, show_edge=False, header_style="bold")
    # (the game's name in words is longer than its recorded one: where the counts do not
    # fit, the first column wraps at its spaces rather than a count being cut)
    table.add_column(_("variant · preset"), overflow="ellipsis", max_width=26)
    for field, heading in COLUMNS:
        table.add_column(column_heading(field, heading), justify="right", no_wrap=True)
    counted = rows(stats)
    for i, (group, t) in enumerate(counted):
        total = len(counted) > 1 and i == len(counted) - 1  # (rows() puts the total last)
        table.add_row(plain(group_words(group)), *(str(getattr(t, f)) for f, _heading in COLUMNS),
                      style="bold" if total else "")
    return table


def best_text(stats: PlayerStats, *, four_color: bool = False) -> Text:
    """The best hand shown: its name, its cards (with suit symbols), when and where."""
    b = stats.best
    if b is None:
        return Text(_("Best hand: none shown at a showdown yet"), style="italic")
    when = b.at[:16].replace("T", " ")
    label = _("Best hand") + "  "
    hand = hand_words(b.name, b.category, b.cards, b.score)
    return Text.assemble((label, "bold"), (hand, "bold"),
                         "  ", symbols(b.cards),
                         "\n", (" " * len(label) + f"{when} · {group_words(b.group)}", "italic"))


def chips_caption(stats: PlayerStats) -> Text:
    chips = [c for _at, c in stats.series]
    if not chips:
        return Text(_("Chips over time: no hands with chips yet"), style="italic")
    return Text.assemble((_("Chips after each hand"), "bold"), ", " + ngettext(
        "the last {n}: low {low} · high {high} · now {now}",
        "the last {n}: low {low} · high {high} · now {now}", len(chips)).format(
        n=len(chips), low=min(chips), high=max(chips), now=chips[-1]))


RECENT = 14
"""Hands listed under the counts on a tall terminal."""


def game_words(group: str) -> str:
    """A recorded ``variant · preset`` in the player's language, said once when the preset
    is named after its variant.

    >>> game_words("draw · draw"), game_words("roulette · classic")
    ('draw', 'roulette · classic')
    """
    return report_group_words(group, short=True)


WIDE = 100
"""From this width on the recent hands say the whole date and the whole ``variant · preset``."""


def recent_table(hands: list[HandRecord], width: int = WIDE) -> RichTable:
    """The last hands, newest first: when, the game, won or lost, the hand shown, chips after.

    Under :data:`WIDE` columns the date leaves out the year and a preset named after its
    variant is said once. What still does not fit wraps at its spaces rather than being cut
    (the game and the hand share the room so that the fewest rows wrap).
    """
    wide = width >= WIDE
    headings = [_("when"),
                _("variant · preset") if wide else pgettext("statistics column", "game"),
                pgettext("column: the hand's number", "hand"), _("result"), _("your hand"),
                _("after")]
    cells: list[list[Text]] = []
    for rec in reversed(hands):
        shown = rec.result.hand(rec.seat) if rec.showdown else None
        mine = (Text.assemble(shown_words(shown),
                              "  ", (symbols(c.text for c in shown.cards), "dim"))
                if shown is not None else Text(_("no showdown"), style="italic"))
        after = (ngettext("{n} chip", "{n} chips", rec.chips).format(n=rec.chips)
                 if rec.chips is not None
                 else ngettext("{n} token", "{n} tokens", rec.tokens).format(n=rec.tokens))
        when = rec.at[:16].replace("T", " ")
        cells.append([plain(when if wide else when[5:]),
                     plain(group_words(rec.group) if wide else game_words(rec.group)),
                     Text(str(rec.hand_no)),
                     Text(pgettext("hand result", "won"), style="bold") if rec.won
                     else Text(pgettext("hand result", "lost")), mine, Text(after)])
    needs = [max([cell_len(h)] + [r[i].cell_len for r in cells]) for i, h in enumerate(headings)]
    game_room = None
    room = width - (sum(needs) - needs[1] - needs[4] + 2 * (len(headings) - 1))
    if not wide and needs[1] + needs[4] > room:
        # the game and the hand share what is left: split it so that the fewest rows wrap
        def wrapped(game: int) -> int:
            return sum(r[1].cell_len > game or r[4].cell_len > room - game for r in cells)

        game_room = min(range(min(10, needs[1]), needs[1] + 1),
                        key=lambda game: (wrapped(game), game))
    table = RichTable(box=None, pad_edge=False, show_edge=False, header_style="bold",
                      title=_("Recent hands"), title_justify="left", title_style="bold")
    for i, heading in enumerate(headings):
        table.add_column(heading, no_wrap=i not in (1, 4), overflow="fold",
                         max_width=game_room if i == 1 else None,
                         justify="right" if i in (2, 5) else "left")
    for row in cells:
        table.add_row(*row)
    return table


class RecentHands:
    """The recent hands table, laid out for the width it is drawn at (a Rich renderable)."""

    def __init__(self, hands: list[HandRecord]) -> None:
        self.hands = hands

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield recent_table(self.hands, options.max_width)


def fold_parts(line: str, width: int, sep: str = " · ") -> str:
    """``line`` broken into lines at its ``sep`` separators where it is wider than ``width``
    (each line but the last ends with the separator's mark), so that a long line breaks
    between its parts and never inside one: Textual would break at the no-break space of a
    Finnish or Swedish ``33 %``.

    >>> fold_parts("a 1 · bb 2 · c 3", 12)
    'a 1 · bb 2 ·\\nc 3'
    """
    lines: list[str] = []
    for part in line.split(sep):
        if lines and cell_len(lines[-1] + sep + part) <= width:
            lines[-1] += sep + part
        else:
            if lines:
                lines[-1] += sep.rstrip()
            lines.append(part)
    return "\n".join(lines)


class Rates:
    """The won shares' line, broken between its parts at the width it is drawn at (a Rich
    renderable)."""

    def __init__(self, line: str) -> None:
        self.line = line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(fold_parts(self.line, options.max_width), style="italic")


class StatsScreen(Screen[None]):
    """One player's statistics; ← → for the other players recorded at this terminal."""

    BINDINGS = [
        Binding("left", "step(-1)", N_("Previous player")),
        Binding("right", "step(1)", N_("Next player")),
        Binding("escape,q,t", "close", N_("Back")),
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
            self.query_one("#stats-title", Static).update(_("Statistics"))
            if self.store.problems:  # (not "no games": some could not be read, as said)
                notice.update(Text("\n".join([_("No statistics could be read here."),
                                              *self.store.problems])))
            else:
                notice.update(Text(_("No games recorded yet: statistics are kept for the people "
                                     "who play at this terminal, from their first finished hand "
                                     "on.")))
            self.query_one("#chips-box").display = False
            return
        player = self.players[self.index]
        stats, hands = self.stats(player)
        count = len(self.players)
        more = ("   ← → " + _("{number} of {count} players").format(number=self.index + 1,
                                                                   count=count)
                if count > 1 else "")
        self.query_one("#stats-title", Static).update(
            Text.assemble((_("Statistics") + " · ", "bold"), (player, "bold"), (more, "dim")))
        notice.update(Text("\n".join(self.store.problems)))
        notice.display = bool(self.store.problems)
        self.query_one("#chips-caption", Static).update(chips_caption(stats))
        spark = self.query_one("#chips", Sparkline)
        spark.data = [float(c) for _at, c in stats.series]
        spark.display = bool(stats.series)
        self.query_one("#counts", Static).update(counts_table(stats))
        total = stats.tally()
        self.query_one("#rates", Static).update(Rates(
            _("Games won {games} of {finished} finished · showdowns won {showdowns} · "
              "hands won {hands}").format(
                games=percent(total.wins, total.finished), finished=total.finished,
                showdowns=percent(total.showdowns_won, total.showdowns),
                hands=percent(total.hands_won, total.hands))))
        self.query_one("#best", Static).update(best_text(stats))
        self.query_one("#recent", Static).update(RecentHands(hands) if hands else "")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            return len(self.players) > 1
        return True

    def action_step(self, delta: int) -> None:
        if self.players:
            self.index = (self.index + delta) % len(self.players)

    def action_close(self) -> None:
        self.dismiss(None)
