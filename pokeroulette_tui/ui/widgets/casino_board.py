"""The casino's betting board: the 52 cards in a 4×13 grid, the outside spots and the chips.

The drawing is pure (:func:`draw_board` returns Rich text and, cell by cell, the spot under
each character, for the mouse), so it is testable without an app; :class:`CasinoBoard` is
the thin widget around it. A *spot* is a bet's ``(kind, target)``, the same as
:attr:`Bet.spot <pokeroulette_tui.engine.casino.board.Bet.spot>`.

The cursor is a ``(row, column)``: rows 0–3 are the grid (♠ ♥ ♦ ♣), the rows after them are
the spot rows under the grid (:func:`spot_rows`: the joker spot and the outside bets, the
poker bets, the joker bet and the progressive side bet).

>>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
>>> text, hits = draw_board(BoardModel(DEFAULT, chips={(Kind.CARD, "As"): 25}), 80)
>>> text.plain.splitlines()[1].rstrip()[-5:]
'A♠ 25'
>>> hits.spot_at(74, 1)
(<Kind.CARD: 'card'>, 'As')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.cards import RANK_CHARS, SUIT_SYMBOLS, Card, parse_card
from pokeroulette_tui.engine.casino.board import (
    COLUMNS,
    ROWS,
    Kind,
    at,
    canonical_target,
    cell,
    covers,
    make_bet,
)
from pokeroulette_tui.engine.casino.paytable import LEVELS, PayTable
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.ui.renderables import suit_style

Spot = tuple[Kind, str]
Cursor = tuple[int, int]

GRID_ROWS = len(ROWS)
GRID_COLUMNS = len(COLUMNS)

OUTSIDE: tuple[Spot, ...] = (
    (Kind.JOKER, ""), (Kind.COLOUR, "red"), (Kind.COLOUR, "black"), (Kind.PARITY, "odd"),
    (Kind.PARITY, "even"), (Kind.HALF, "low"), (Kind.HALF, "high"))
"""The joker spot and the outside bets, left to right."""
EXTRAS: tuple[Spot, ...] = ((Kind.WILD, ""), (Kind.PROGRESSIVE, ""))

# TRANSLATORS: the board's spot labels: at most 8 characters (the two long ones: 28)
SHORT = {
    (Kind.JOKER, ""): N_("★ Joker"), (Kind.COLOUR, "red"): N_("Red"),
    (Kind.COLOUR, "black"): N_("Black"), (Kind.PARITY, "odd"): N_("Odd"),
    (Kind.PARITY, "even"): N_("Even"), (Kind.HALF, "low"): "2–7", (Kind.HALF, "high"): "8–K",
    (Kind.WILD, ""): N_("Joker bet ★ first and fifth ★"),
    (Kind.PROGRESSIVE, ""): N_("Progressive side bet"),
}
POKER_SHORT = {
    "pair_6": N_("Pair 6+"), "two_pair": N_("2 pair"), "three_of_a_kind": N_("Trips"),
    "straight": N_("Straight"), "flush": N_("Flush"), "full_house": N_("Full"),
    "four_of_a_kind": N_("Quads"), "straight_flush": N_("St.flush"), "royal_flush": N_("Royal"),
    "five_of_a_kind": N_("5 kind"),
}
"""A poker bet's name on its spot (the hint line and the results say it in full; both
dicts English: translated where they are drawn)."""

FELT = Style(color="#e6efe9", bgcolor="#0c3324")
SLOT = Style(color="#e6efe9", bgcolor="#17503a")
JOKER_SLOT = Style(color="#f3dcff", bgcolor="#4b1f5e", bold=True)
CHIP = Style(color="#1a1a1a", bgcolor="#ffd75f", bold=True)
WON = Style(color="#ffffff", bgcolor="#1f8a4c", bold=True)
LOST = Style(color="#9aa59f", bgcolor="#0c3324", dim=True, strike=True)
CURSOR = Style(reverse=True)
HOT = Style(color="#ffd75f", bold=True, underline=True)  # a spot the fifth card is on
HEADER = Style(color="#b9d3c4", bgcolor="#0c3324", bold=True)
_LABEL = {"S": "#e6efe9", "H": "#ff8080", "D": "#ff8080", "C": "#e6efe9"}
_LABEL4 = {"S": "#e6efe9", "H": "#ff8080", "D": "#7fb0ff", "C": "#7fe08f"}


def spot_rows(table: PayTable) -> list[list[Spot]]:
    """The rows of spots under the grid: outside bets, poker bets (those the table offers),
    the joker bet and the side bet.

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> [len(r) for r in spot_rows(DEFAULT)]
    [7, 7, 2]
    """
    poker = [(Kind.POKER, h) for h in LEVELS if h in table.poker]
    return [list(OUTSIDE), poker, list(EXTRAS)]


def row_lengths(table: PayTable) -> list[int]:
    return [GRID_COLUMNS] * GRID_ROWS + [len(r) for r in spot_rows(table)]


def move(cursor: Cursor, rows: int, columns: int, table: PayTable) -> Cursor:
    """The cursor moved by ``rows`` and ``columns``: kept on the board; a move to a row of
    another length lands on the spot below or above the same place.

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> move((0, 0), 0, -1, DEFAULT), move((3, 12), 1, 0, DEFAULT), move((4, 6), 1, 0, DEFAULT)
    ((0, 0), (4, 6), (5, 6))
    """
    lengths = row_lengths(table)
    r, c = cursor
    if rows:
        new = max(0, min(len(lengths) - 1, r + rows))
        if lengths[new] != lengths[r]:
            c = min(lengths[new] - 1, int((c + 0.5) * lengths[new] / lengths[r]))
        r = new
    c = max(0, min(lengths[r] - 1, c + columns))
    return r, c


def on_grid(cursor: Cursor) -> bool:
    return cursor[0] < GRID_ROWS


def spot_at_cursor(cursor: Cursor, table: PayTable) -> Spot:
    """The spot under the cursor: a single card on the grid.

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> spot_at_cursor((0, 12), DEFAULT), spot_at_cursor((4, 1), DEFAULT)
    ((<Kind.CARD: 'card'>, 'As'), (<Kind.COLOUR: 'colour'>, 'red'))
    """
    r, c = cursor
    if r < GRID_ROWS:
        return Kind.CARD, at(r, c).text
    return spot_rows(table)[r - GRID_ROWS][c]


def cursor_of(spot: Spot, table: PayTable) -> Cursor | None:
    """Where the cursor stands to be on ``spot`` (None: the spot is no cursor stop)."""
    kind, target = spot
    if kind is Kind.CARD:
        return cell(parse_card(target))
    for i, row in enumerate(spot_rows(table)):
        if spot in row:
            return GRID_ROWS + i, row.index(spot)
    return None


def _cards_target(*cells: tuple[int, int]) -> str:
    return " ".join(at(r, c).text for r, c in cells)


def split_right(cursor: Cursor) -> Spot:
    """The cursor's card and the one to its right (to its left in the last column)."""
    r, c = cursor
    c = min(c, GRID_COLUMNS - 2)
    return Kind.SPLIT, canonical_target(Kind.SPLIT, _cards_target((r, c), (r, c + 1)))


def split_down(cursor: Cursor) -> Spot:
    """The cursor's card and the one below it (above it in the last row)."""
    r, c = cursor
    r = min(r, GRID_ROWS - 2)
    return Kind.SPLIT, canonical_target(Kind.SPLIT, _cards_target((r, c), (r + 1, c)))


def corner(cursor: Cursor) -> Spot:
    """The 2×2 block with the cursor's card at its top left (moved in at the edges).

    >>> corner((3, 12))
    (<Kind.CORNER: 'corner'>, 'Kd Ad Kc Ac')
    """
    r, c = min(cursor[0], GRID_ROWS - 2), min(cursor[1], GRID_COLUMNS - 2)
    return Kind.CORNER, canonical_target(
        Kind.CORNER, _cards_target((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)))


def chip_text(amount: int, width: int) -> str:
    """An amount in at most ``width`` characters (thousands as ``k``).

    >>> chip_text(25, 3), chip_text(1300, 3), chip_text(12_750, 3), chip_text(1300, 4)
    ('25', '1k', '12k', '1300')
    """
    text = str(amount)
    if len(text) <= width:
        return text
    for div, unit in ((1000, "k"), (1_000_000, "M")):
        short = f"{amount // div}{unit}"
        if len(short) <= width:
            return short
    return "+" * width


@dataclass(frozen=True)
class Geometry:
    """How big the board is drawn: row label, card cell, lines per card row, the column of
    suit chips right of the grid (0: none), the gap between spot rows."""

    label: int
    cell: int
    face: int
    side: int
    spacing: int

    @property
    def grid_width(self) -> int:
        return self.label + GRID_COLUMNS * self.cell + (GRID_COLUMNS - 1)

    @property
    def width(self) -> int:
        return self.grid_width + (self.side + 1 if self.side else 0)

    def x(self, column: int) -> int:
        return self.label + column * (self.cell + 1)

    def y(self, row: int) -> int:
        return 1 + row * (self.face + 1)

    @property
    def grid_bottom(self) -> int:
        return self.y(GRID_ROWS - 1) + self.face  # the group line

    def spots_y(self, index: int) -> int:
        return self.grid_bottom + 2 + index * (1 + self.spacing)

    @property
    def height(self) -> int:
        return self.spots_y(2) + 1


COMPACT = Geometry(label=2, cell=5, face=1, side=0, spacing=0)
"""79 columns, 13 lines: fits 80×24 with the status, the hint, the deal and the footer."""
MEDIUM = Geometry(label=3, cell=7, face=3, side=6, spacing=1)
"""113 columns, 23 lines: a terminal of 120 columns and 36 lines or more."""
WIDE = Geometry(label=3, cell=8, face=3, side=7, spacing=1)
"""127 columns, 23 lines."""
HUGE = Geometry(label=3, cell=10, face=4, side=8, spacing=1)
"""154 columns, 27 lines: a terminal of 156 columns and 46 lines or more."""


def geometry_for(width: int, wide: bool) -> Geometry:
    return WIDE if wide and width >= WIDE.width else COMPACT


def geometry_for_screen(width: int, height: int) -> Geometry:
    """The board that suits a terminal ``width``×``height``: the compact one at 80×24, faces
    three lines tall from 36 lines, four from 46 (the widest that fits).

    >>> [geometry_for_screen(*size).width for size in ((80, 24), (120, 40), (160, 48), (200, 60))]
    [79, 113, 154, 154]
    """
    if height >= 46 and width >= HUGE.width + 2:
        return HUGE
    if height >= 36:
        return next((g for g in (WIDE, MEDIUM) if width >= g.width + 2), COMPACT)
    return COMPACT


@dataclass
class BoardModel:
    """What the board shows: the chips by spot, the cursor, and after a deal the spots that
    won (what they paid), the ones that lost and the fifth card."""

    table: PayTable
    chips: Mapping[Spot, int] = field(default_factory=dict)
    cursor: Cursor = (0, 0)
    won: Mapping[Spot, int] = field(default_factory=dict)
    lost: frozenset[Spot] = frozenset()
    fifth: Card | None = None
    four_color: bool = False
    show_cursor: bool = True


class Hits:
    """The spot under each character of the drawn board (None: no spot)."""

    def __init__(self, width: int, height: int, left: int = 0) -> None:
        self.rows: list[list[Spot | None]] = [[None] * width for __ in range(height)]
        self.left = left  # the board is drawn this far from the widget's left edge

    def mark(self, x: int, y: int, width: int, spot: Spot) -> None:
        row = self.rows[y]
        for i in range(max(0, x), min(len(row), x + width)):
            row[i] = spot

    def spot_at(self, x: int, y: int) -> Spot | None:
        x -= self.left
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return None


class _Canvas:
    def __init__(self, width: int, height: int, left: int = 0) -> None:
        self.width, self.height, self.left = width, height, left
        self.cells: list[list[tuple[str, Style]]] = [[(" ", FELT)] * width
                                                     for __ in range(height)]
        self.hits = Hits(width, height, left)

    def put(self, x: int, y: int, text: str, style: Style, spot: Spot | None = None) -> None:
        if not 0 <= y < self.height:
            return
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (ch, style)
        if spot is not None:
            self.hits.mark(x, y, len(text), spot)

    def restyle(self, x: int, y: int, width: int, extra: Style) -> None:
        row = self.cells[y]
        for i in range(max(0, x), min(self.width, x + width)):
            ch, style = row[i]
            row[i] = (ch, style + extra)

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for y, row in enumerate(self.cells):
            if y:
                out.append("\n")
            if self.left:
                out.append(" " * self.left, FELT)
            run, style = "", None
            for ch, st in row:
                if st is not style and run:
                    out.append(run, style)
                    run = ""
                run += ch
                style = st
            if run:
                out.append(run, style)
        return out


def _spot_style(model: BoardModel, spot: Spot) -> Style:
    if spot in model.won:
        return WON
    if spot in model.lost:
        return LOST
    return CHIP


def _amount(model: BoardModel, spot: Spot) -> int:
    return model.won.get(spot) or model.chips.get(spot, 0)


def _is_hot(model: BoardModel, spot: Spot) -> bool:
    """The fifth card is on this spot (the joker: only the joker spot)."""
    fifth = model.fifth
    if fifth is None:
        return False
    kind, target = spot
    if kind is Kind.JOKER:
        return fifth.is_joker
    if fifth.is_joker or kind in (Kind.POKER, Kind.WILD, Kind.PROGRESSIVE):
        return False
    return fifth in covers(make_bet(kind, target, 1))


def draw_board(model: BoardModel, width: int, *, wide: bool = False,
               geometry: Geometry | None = None) -> tuple[Text, Hits]:
    """The board as text ``width`` columns wide (the wide drawing if asked and it fits, or
    ``geometry``), centred, and the spot under each character."""
    g = geometry or geometry_for(width, wide)
    canvas = _Canvas(g.width, g.height, max(0, (width - g.width) // 2))
    _draw_grid(canvas, model, g)
    _draw_groups(canvas, model, g)
    _draw_spot_rows(canvas, model, g)
    return canvas.text(), canvas.hits


def _draw_grid(canvas: _Canvas, model: BoardModel, g: Geometry) -> None:
    amount_w = g.cell - 2 if g.face == 1 else g.cell - 1
    for c, rank in enumerate(COLUMNS):
        x = g.x(c)
        spot = (Kind.RANK, RANK_CHARS[rank])
        canvas.put(x, 0, " " * g.cell, HEADER, spot)
        canvas.put(x + (0 if g.face == 1 else 1), 0, RANK_CHARS[rank],
                   HEADER + (HOT if _is_hot(model, spot) else Style()))
        if spot in model.chips or spot in model.won:
            text = chip_text(_amount(model, spot), amount_w)
            canvas.put(x + g.cell - len(text), 0, text, _spot_style(model, spot))
    labels = _LABEL4 if model.four_color else _LABEL
    for r, suit in enumerate(ROWS):
        y = g.y(r)
        spot = (Kind.SUIT, suit)
        label_style = FELT + Style(color=labels[suit], bold=True) \
            + (HOT if _is_hot(model, spot) else Style())
        for line in range(g.face):
            canvas.put(0, y + line, " " * g.label, FELT, spot)
        canvas.put(0, y, SUIT_SYMBOLS[suit], label_style)
        if spot in model.chips or spot in model.won:
            if g.side:
                text = chip_text(_amount(model, spot), g.side - 1)
                canvas.put(g.grid_width + 1, y, text.rjust(g.side - 1), _spot_style(model, spot),
                           spot)
            else:
                canvas.put(1, y, "●", _spot_style(model, spot))
        if g.side:
            canvas.put(g.grid_width + 1, y + g.face - 1, "", FELT)
            for line in range(g.face):
                canvas.hits.mark(g.grid_width + 1, y + line, g.side, spot)
        for c in range(GRID_COLUMNS):
            _draw_cell(canvas, model, g, r, c, amount_w)
    if model.show_cursor and on_grid(model.cursor):
        r, c = model.cursor
        for line in range(g.face):
            canvas.restyle(g.x(c), g.y(r) + line, g.cell, CURSOR)


def _draw_cell(canvas: _Canvas, model: BoardModel, g: Geometry, r: int, c: int,
               amount_w: int) -> None:
    card = at(r, c)
    x, y = g.x(c), g.y(r)
    spot = (Kind.CARD, card.text)
    hot = model.fifth == card
    face = suit_style(card.suit, four_color=model.four_color, highlight=hot)
    if g.face == 1:
        canvas.put(x, y, card.symbol, face, spot)
        canvas.put(x + 2, y, " " * amount_w, FELT, spot)
        chip_y, chip_x = y, x + 2
    else:
        canvas.put(x, y, f" {card.symbol}".ljust(g.cell), face, spot)
        for line in range(1, g.face):
            canvas.put(x, y + line, " " * g.cell, face, spot)
        if g.face > 3:  # the suit in the middle, the card again at the lower right
            canvas.put(x + g.cell // 2 - 1, y + g.face // 2 - 1 + (g.face % 2),
                       SUIT_SYMBOLS[card.suit], face)
            canvas.put(x + g.cell - 3, y + g.face - 2, card.symbol, face)
        elif g.face > 2:
            canvas.put(x + g.cell // 2 - 1, y + 1, SUIT_SYMBOLS[card.suit], face)
        chip_y, chip_x = y + g.face - 1, x + 1
    if spot in model.chips or spot in model.won:
        text = chip_text(_amount(model, spot), amount_w)
        canvas.put(chip_x + amount_w - len(text), chip_y, text, _spot_style(model, spot))
    # the split to the right: on the gap after the cell
    if c < GRID_COLUMNS - 1:
        right = split_right((r, c))
        for line in range(g.face):
            canvas.put(x + g.cell, y + line, " ", FELT, right)
        if right in model.chips or right in model.won:
            canvas.put(x + g.cell, y, "●", _spot_style(model, right))
    # the split down and the corner: on the line under the cell
    if r < GRID_ROWS - 1:
        down = split_down((r, c))
        canvas.put(x, y + g.face, " " * g.cell, FELT, down)
        if down in model.chips or down in model.won:
            text = chip_text(_amount(model, down), g.cell - 2)
            canvas.put(x + (g.cell - len(text)) // 2, y + g.face, text, _spot_style(model, down))
        if c < GRID_COLUMNS - 1:
            block = corner((r, c))
            canvas.put(x + g.cell, y + g.face, " ", FELT, block)
            if block in model.chips or block in model.won:
                canvas.put(x + g.cell, y + g.face, "●", _spot_style(model, block))


def _draw_groups(canvas: _Canvas, model: BoardModel, g: Geometry) -> None:
    """Bets on two, four or six ranks: a bracket under their columns, on the first of the
    two lines under the grid where it does not cross another (the list of bets has them all
    should a third one cross both)."""
    groups = [s for s in list(model.chips) + list(model.won)
              if s[0] in (Kind.RANKS2, Kind.RANKS4, Kind.RANKS6)]
    taken: list[list[tuple[int, int]]] = [[], []]
    for spot in sorted(dict.fromkeys(groups), key=lambda s: (_rank_of(s[1][0]), len(s[1]))):
        ranks = spot[1]
        first = COLUMNS.index(_rank_of(ranks[0]))
        last = COLUMNS.index(_rank_of(ranks[-1]))
        x0, x1 = g.x(first), g.x(last) + g.cell
        line_no = next((i for i, spans in enumerate(taken)
                        if all(x1 <= a or x0 >= b for a, b in spans)), len(taken) - 1)
        taken[line_no].append((x0, x1))
        y = g.grid_bottom + line_no
        style = _spot_style(model, spot)
        ink = "#6f7f77" if spot in model.lost else (style.bgcolor.name if style.bgcolor else None)
        canvas.put(x0, y, "└" + "─" * (x1 - x0 - 2) + "┘", FELT + Style(color=ink), spot)
        text = f" {chip_text(_amount(model, spot), 4)} "
        canvas.put(x0 + (x1 - x0 - len(text)) // 2, y, text, style)


def _rank_of(char: str) -> int:
    return next(r for r, ch in RANK_CHARS.items() if ch == char)


def _slot_label(spot: Spot, table: PayTable, width: int, *, pays: bool = True) -> str:
    """The longest of a spot's names that fits: with its payout (``pays``), without, shorter.

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> [_slot_label((Kind.JOKER, ""), DEFAULT, w) for w in (12, 7, 5, 4)]
    ['★ Joker 25:1', '★ Joker', 'Joker', 'Jok…']
    >>> _slot_label((Kind.JOKER, ""), DEFAULT, 12, pays=False)
    '★ Joker'
    """
    names = _slot_names(spot, table)[0 if pays else 1:]
    cut = names[-1][:width - 1].rstrip() + "…" if width > 1 else names[-1][:width]
    return next((n for n in names if len(n) <= width), cut)  # (cut: it says so)


def _slot_names(spot: Spot, table: PayTable) -> list[str]:
    """A spot's names, longest first: with its payout, without it, without the stars."""
    kind, target = spot
    name = _(POKER_SHORT.get(target, target) if kind is Kind.POKER else SHORT[spot])
    if kind is Kind.POKER:
        pays = table.poker[target]
    elif kind is Kind.WILD:
        pays = table.wild
    elif kind is Kind.PROGRESSIVE:
        pays = None
    else:
        pays = table.roulette[kind]
    return [f"{name} {pays}:1" if pays is not None else name, name,
            name.replace("★ ", "").replace(" ★", "")]


def payouts_fit(table: PayTable, width: int) -> bool:
    """Whether every spot under the grid has room for its name and payout on a board
    ``width`` columns wide: the payouts are drawn on all of them or on none (the line under
    the board says the cursor's spot's, and ``o`` lists them all).

    >>> from pokeroulette_tui.engine.casino.paytable import DEFAULT
    >>> payouts_fit(DEFAULT, COMPACT.width), payouts_fit(DEFAULT, WIDE.width)
    (False, True)
    """
    for row in spot_rows(table):
        slot = (width - (len(row) - 1)) // len(row)
        if any(len(_slot_names(spot, table)[0]) > slot - 2 for spot in row):
            return False
    return True


def _draw_spot_rows(canvas: _Canvas, model: BoardModel, g: Geometry) -> None:
    total = g.width
    pays = payouts_fit(model.table, total)
    for i, row in enumerate(spot_rows(model.table)):
        y = g.spots_y(i)
        n = len(row)
        slot = (total - (n - 1)) // n
        for j, spot in enumerate(row):
            x = j * (slot + 1)
            base = JOKER_SLOT if spot[0] is Kind.JOKER else SLOT
            amount = _amount(model, spot)
            chips = chip_text(amount, 4) if (spot in model.chips or spot in model.won) else ""
            room = slot - 1 - (len(chips) + 1 if chips else 1)
            label = _slot_label(spot, model.table, room, pays=pays)  # (chips before payout)
            style = base + (HOT if _is_hot(model, spot) else Style())
            canvas.put(x, y, " " * slot, base, spot)
            canvas.put(x + 1, y, label, style)
            if chips:
                canvas.put(x + slot - len(chips), y, chips, _spot_style(model, spot))
            if model.show_cursor and model.cursor == (GRID_ROWS + i, j):
                canvas.restyle(x, y, slot, CURSOR)


class CasinoBoard(Widget):
    """The board: draws a :class:`BoardModel` and says which spot was clicked."""

    DEFAULT_CSS = """
    CasinoBoard {
        height: auto;
        width: 100%;
    }
    """

    model: reactive[BoardModel | None] = reactive(None, always_update=True)
    wide: reactive[bool] = reactive(False)
    geometry: reactive[Geometry | None] = reactive(None)
    """The drawing to use (None: the compact one, or the wide one if ``wide`` and it fits)."""

    class SpotClicked(Message):
        """A spot was clicked."""

        def __init__(self, spot: Spot) -> None:
            super().__init__()
            self.spot = spot

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._hits: Hits | None = None

    def _geometry(self, width: int) -> Geometry:
        g = self.geometry
        return g if g is not None and width >= g.width else geometry_for(width, self.wide)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._geometry(width).height

    def render(self) -> Text:
        if self.model is None:
            return Text("")
        text, self._hits = draw_board(self.model, self.size.width,
                                      geometry=self._geometry(self.size.width))
        return text

    def watch_wide(self) -> None:
        self.refresh(layout=True)

    def watch_geometry(self) -> None:
        self.refresh(layout=True)

    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self._hits is None:
            return
        spot = self._hits.spot_at(offset.x, offset.y)
        if spot is not None:
            event.stop()
            self.post_message(self.SpotClicked(spot))
