"""The viewer's own cards and what to do now: stock and actives, the five-card hand, the cut."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.i18n import _, language, ngettext
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.roulette import reason_words
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.renderables import BIG_WIDTH, BOX_WIDTH, boxed_row, cards_text, styled
from pokeroulette_tui.ui.widgets.present import (best_visible, hstack, phase_text, total_pot,
                                                  wrap_console)

SLIDER_MAX = 52


@dataclass(frozen=True)
class Zone:
    """Where a clickable thing was drawn: columns [x0, x1), rows [y0, y1)."""

    x0: int
    x1: int
    y0: int
    y1: int
    kind: str  # "stock", "hand" or "cut"
    index: int


def prompt_text(view: SeatView, *, hot_seat: bool, selected: frozenset[int] = frozenset(),
                cut: int = 0, width: int | None = None, offline: bool = False,
                result_waits: bool = False, only_hand: bool = False) -> Text:
    """One line: what this viewer may do now, or who the table waits for (for the public
    view or a spectator, on a second line when the two do not fit in ``width``).
    ``offline``: the table cannot be reached now (network play), so nothing can be done:
    a turn says it waits for the connection, not what its keys would do. ``result_waits``:
    the hand is over and the next one is dealt when Enter is pressed here. ``only_hand``: no
    hand follows this one (a tutorial's prepared hand)."""
    out = Text()
    if view.game_over:
        out.append(_("Game over:") + " ", style="bold")
        out.append(view.game_over_reason)
        return out
    if offline and view.my_turn:
        out.append(_("Your turn waits until the table can be reached again."), style="bold")
        return out
    if view.seat is None:
        if hot_seat:
            out.append(_("Public view: private cards stay hidden until a player takes the seat."))
        else:
            out.append(_("Watching: only public cards are shown."))
        waiting = Text()
        _append_waiting(waiting, view)
        if result_waits and view.phase == Phase.HAND_OVER:
            waiting.append(" " + _("Hand over · Enter deals the next hand · s shows the result "
                                   "again"))
        if width is not None and out.cell_len + waiting.cell_len > width:
            waiting = Text("\n").join([Text(), waiting[1:]])  # (without its leading space)
        out.append_text(waiting)
        return out
    if not view.my_turn:
        if view.phase == Phase.HAND_OVER and result_waits:
            out.append(_("Hand over · Enter deals the next hand · s shows the result again"))
        elif view.phase == Phase.HAND_OVER and only_hand:
            out.append(_("Hand over · s shows the result"))
        elif view.phase == Phase.HAND_OVER:
            out.append(_("Hand over · s shows the result again · the next hand follows"))
        else:
            _append_waiting(out, view)
        return out
    me = view.me
    assert me is not None
    if view.phase == Phase.BETTING and view.options is not None:
        o = view.options
        out.append(_("Your bet"), style="bold reverse")
        to_call = view.current_bet - me.bet
        out.append("  " + _("pot {pot} · stack {stack}").format(pot=total_pot(view), stack=me.chips))
        if to_call > 0:
            out.append(" · " + _("to call {amount}").format(amount=min(to_call, me.chips)))
        if o.bet_min:
            out.append(" · " + (_("bet {lo}–{hi}") if o.bet_max > o.bet_min else _("bet {lo}"))
                       .format(lo=o.bet_min, hi=o.bet_max))
        if o.raise_min:
            out.append(" · " + (_("raise to {lo}–{hi}") if o.raise_max > o.raise_min
                                else _("raise to {lo}")).format(lo=o.raise_min, hi=o.raise_max))
    elif view.phase == Phase.STOCK_TO_ACTIVE:
        out.append(_("One new active"), style="bold reverse")
        n = len(me.stock)
        keys = "1" if n == 1 else f"1-{n}" if n < 10 else "1-9, 0"
        out.append("  " + _("{keys}/click: move a stock card to active · k keep the stock")
                   .format(keys=keys))
    elif view.phase == Phase.CUT:
        out.append(_("Your cut"), style="bold reverse")
        out.append("  " + ngettext("{n} card from the top · ←/→ ±1 ↑/↓ ±5 · e type · Enter cut",
                                   "{n} cards from the top · ←/→ ±1 ↑/↓ ±5 · e type · Enter cut",
                                   cut).format(n=cut))
    elif view.phase == Phase.DRAW:
        out.append(_("Your draw"), style="bold reverse")
        k = len(selected)
        out.append("  " + (_("up to {most}: 1-5 or click · {k} selected · Enter exchanges them")
                           if k else _("up to {most}: 1-5 or click · {k} selected · p stands pat"))
                   .format(most=view.rules.max_draw, k=k))
    else:
        out.append(phase_text(view))
    return out


def _append_waiting(out: Text, view: SeatView) -> None:
    if view.to_act is not None and not view.dealer_step:
        out.append(" ")
        out.append_text(styled(_("Waiting for {name} ({what})."),
                               name=Text(view.players[view.to_act].name, style="bold"),
                               what=phase_text(view)))
    elif view.phase not in BETWEEN_HANDS:
        out.append(" " + _("The dealer deals."))


def panel_title(view: SeatView, *, hot_seat: bool) -> str:
    """The panel's border title: whose cards, and the best hand in them."""
    me = view.me
    if me is None:
        return _("Public view") if hot_seat else _("Spectator")
    title = _("Your cards") if not hot_seat else _("{name}'s cards").format(name=me.name)
    value, __ = best_visible(view, me)
    if value is not None:
        title = _("{cards}: {hand}").format(cards=title, hand=value.describe())
    return title


def panel_content(view: SeatView, *, hot_seat: bool, width: int, selected: frozenset[int] = frozenset(),
                  cut: int = 0, four_color: bool = False, big: bool = False,
                  offline: bool = False, result_waits: bool = False,
                  only_hand: bool = False) -> tuple[Text, list[Zone]]:
    """The panel's text and its clickable zones; ``big``: five-line faces where they fit;
    ``offline``, ``result_waits`` and ``only_hand``: see :func:`prompt_text`."""
    prompt = prompt_text(view, hot_seat=hot_seat, selected=selected, cut=cut, width=width,
                         offline=offline, result_waits=result_waits, only_hand=only_hand)
    me = view.me
    zones: list[Zone] = []
    if me is None:
        return prompt, zones
    my_turn = view.my_turn
    if view.phase == Phase.CUT and my_turn:
        top = max(1, view.deck_count - 1)
        span = min(SLIDER_MAX, max(10, width - 10))
        pos = 0 if top <= 1 else round((cut - 1) * (span - 1) / (top - 1))
        bar = Text("1 ├")
        bar.append("─" * pos)
        bar.append("●", style="bold reverse")
        bar.append("─" * (span - 1 - pos))
        bar.append(f"┤ {top}")
        zones.append(Zone(3, 3 + span, 1, 2, "cut", top))
        below = _("Cut {n} of {deck} cards").format(n=cut, deck=view.deck_count)
        return Text("\n").join([prompt, bar, Text(below)]), zones
    if view.rules.variant == "draw":
        cards: tuple[Card | None, ...] = me.hand
        __, marked = best_visible(view, me)
        choosing = my_turn and view.phase == Phase.DRAW
        labels = ([_("{n} out").format(n=i + 1) if i in selected else str(i + 1)
                   for i in range(len(cards))]
                  if choosing else None)
        if not cards:
            return prompt, zones
        body, step = _cards_block(cards, width, four_color=four_color,
                                  highlight=() if choosing else marked, selected=selected,
                                  labels=labels, big=big)
        for i in range(len(cards)):
            zones.append(Zone(i * step, i * step + step - 1, 1, 1 + body.plain.count("\n") + 1, "hand", i))
        return Text("\n").join([prompt, body]), zones
    # Poker Roulette: the stock, then the actives, then what the turned actives did
    __, marked = best_visible(view, me)
    choosing = my_turn and view.phase == Phase.STOCK_TO_ACTIVE
    stock = me.stock
    blocks: list[Text] = []
    compact = False
    room = 16 if big else 14  # for two actives beside the stock
    if stock:
        keys = [str((i + 1) % 10) for i in range(len(stock))] if choosing else None
        body, step = _cards_block(stock, width - room, four_color=four_color, highlight=marked,
                                  labels=keys, caption=_("stock"), big=big)
        compact = step == COMPACT_STEP
        big = step == BIG_WIDTH + 1
        blocks.append(body)
        if choosing:
            h = body.plain.count("\n") + 1
            zones.extend(Zone(i * step, i * step + step - 1, 1, 1 + h, "stock", i)
                         for i in range(len(stock)))
    note = ""
    if me.actives_up and (me.actives or me.added):  # ✓ went to the stock, ✗ to the discards
        act = list(me.added) + list(me.actives)
        body, __ = _cards_block(act, room if blocks else width, four_color=four_color,
                               labels=["✓"] * len(me.added) + ["✗"] * len(me.actives),
                               compact=compact, big=big)
        note = reason_words(me.reason)
        blocks.append(body)
    elif me.actives:  # face down to the others until turned (no label without a card)
        blocks.append(_cards_block(me.actives, room if blocks else width, four_color=four_color,
                                   caption=_("active"), compact=compact, big=big)[0])
    if not blocks:
        return prompt, zones
    if note:
        blocks.append(_note_block(note, width - _hwidth(blocks) - 3))
    return Text("\n").join([prompt, hstack(blocks)]), zones


def _hwidth(blocks: list[Text], gap: int = 3) -> int:
    """Columns that ``blocks`` take side by side."""
    widths = [max(line.cell_len for line in b.split("\n", allow_blank=True)) for b in blocks]
    return sum(widths) + gap * (len(blocks) - 1)


def _note_block(note: str, width: int) -> Text:
    """``note`` wrapped into the rows beside the cards (below the top border), italic."""
    if width < 10:
        return Text("")
    lines = Text(note, style="italic").wrap(wrap_console(), width)
    if len(lines) > 3:
        lines = lines[:3]
        lines[2].truncate(width - 1)
        lines[2].append("…")
    return Text("\n").join([Text(""), *lines])


COMPACT_STEP = 5
"""Columns one compact ``[A♠]`` face takes, with the space after it."""


def _cards_block(cards, width: int, *, four_color: bool, highlight=(), selected=frozenset(),
                 labels=None, caption: str = "", compact: bool = False,
                 big: bool = False) -> tuple[Text, int]:
    """Big five-line faces (with ``big``) or boxed faces if they fit in ``width`` columns,
    else compact ``[A♠]`` faces; returns the text and the columns one card takes.

    Under the cards: a label for each (``labels``) or one ``caption`` for the row.
    """
    if big and len(cards) * (BIG_WIDTH + 1) - 1 <= width:
        body = boxed_row(cards, four_color=four_color, highlight=highlight, selected=selected,
                         labels=labels, big=True)
        step = BIG_WIDTH + 1
    elif not compact and len(cards) * (BOX_WIDTH + 1) - 1 <= width:
        body = boxed_row(cards, four_color=four_color, highlight=highlight, selected=selected,
                         labels=labels)
        step = BOX_WIDTH + 1
    else:
        body = cards_text(cards, four_color=four_color, highlight=set(highlight) | set(selected),
                          sep=" ")
        if labels is not None and any(labels):
            lab = Text()
            for i, label in enumerate(labels):
                if i:
                    lab.append(" ")
                lab.append(label[:4].center(4), style="bold reverse" if i in selected else "")
            body = Text("\n").join([body, lab])
        step = COMPACT_STEP
    if labels is None and caption:
        body = Text("\n").join([body, Text(caption, style="italic")])
    return body, step


class HandPanel(Widget):
    """The viewer's cards with the prompt for the current decision; clicks post messages."""

    DEFAULT_CSS = """
    HandPanel { height: auto; }
    """

    view: reactive[SeatView | None] = reactive(None, layout=True)
    selected: reactive[frozenset[int]] = reactive(frozenset(), layout=True)
    cut: reactive[int] = reactive(0)
    hot_seat: reactive[bool] = reactive(False)
    four_color: reactive[bool] = reactive(False)
    big: reactive[bool] = reactive(False, layout=True)
    offline: reactive[bool] = reactive(False, layout=True)
    """The table cannot be reached now (network play): a turn waits, its keys are off."""
    result_waits: reactive[bool] = reactive(False, layout=True)
    """The hand is over and Enter here deals the next one (the prompt says so)."""
    only_hand: reactive[bool] = reactive(False, layout=True)
    """No hand follows this one (a tutorial's): the prompt does not promise one."""
    """Five-line card faces where they fit (the screen sets it on big terminals)."""

    @dataclass
    class CardClicked(Message):
        """A card of the viewer's was clicked: ``kind`` is "stock" or "hand"."""

        kind: str
        index: int

    @dataclass
    class CutClicked(Message):
        """The cut slider was clicked at ``position`` cards from the top."""

        position: int

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._zones: list[Zone] = []
        self._made: tuple[tuple[object, ...], Text, list[Zone]] | None = None

    def _content(self, width: int) -> tuple[Text, list[Zone]]:
        """The panel's text and zones laid out for ``width`` columns of content."""
        view = self.view
        assert view is not None
        key = (view, max(20, width), self.selected, self.cut, self.hot_seat, self.four_color,
               self.big, self.offline, self.result_waits, self.only_hand, language())
        made = self._made
        if made is not None and made[0][0] is view and made[0][1:] == key[1:]:
            return made[1].copy(), list(made[2])  # (the height was measured with this text)
        text, zones = panel_content(
            view, hot_seat=self.hot_seat, width=max(20, width), selected=self.selected,
            cut=self.cut, four_color=self.four_color, big=self.big, offline=self.offline,
            result_waits=self.result_waits, only_hand=self.only_hand)
        text.no_wrap = True
        text.overflow = "ellipsis"
        self._made = (key, text.copy(), list(zones))
        return text, zones

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        text, self._zones = self._content(self.content_size.width)
        return text

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The lines of the panel laid out for ``width``: the width the layout gives it now,
        not the one it had (:meth:`render` uses the widget's size, which is still the old
        one while the height is measured: after the table was away, below 80×24, that was
        no width at all, compact faces were measured and the boxed ones drawn cut)."""
        if not width or self.view is None:
            return super().get_content_height(container, viewport, width)
        text, __ = self._content(width)
        return len(text.plain.split("\n"))

    def watch_view(self, view: SeatView | None) -> None:
        self.border_title = Text(panel_title(view, hot_seat=self.hot_seat)) if view is not None else None

    def watch_hot_seat(self, hot_seat: bool) -> None:
        if self.view is not None:
            self.border_title = Text(panel_title(self.view, hot_seat=hot_seat))

    def retranslate(self) -> None:
        """The title and the prompt again in the language just chosen."""
        self.watch_hot_seat(self.hot_seat)
        self.refresh(layout=True)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for z in self._zones:
            if z.x0 <= offset.x < z.x1 and z.y0 <= offset.y < z.y1:
                event.stop()
                if z.kind == "cut":
                    span = z.x1 - z.x0
                    pos = 1 + round((offset.x - z.x0) * (z.index - 1) / max(1, span - 1))
                    self.post_message(self.CutClicked(pos))
                else:
                    self.post_message(self.CardClicked(z.kind, z.index))
                return
