"""The table's keys that are not a decision: the speed, pre-actions, skipping to your turn,
and sorting a draw hand.

A mixin of :class:`~pokeroulette_tui.ui.screens.table.TableScreen` (it uses the screen's
``view``, ``session``, ``seating`` and ``selected``), with the pure helpers it stands on.
What the keys do is the session's business (``Session.can_pace``, ``can_preact``): at a
table this terminal does not pace (network play) they are not offered.

- ``v`` cycles the speed (:data:`~pokeroulette_tui.ui.config.SPEEDS`), remembered in the
  settings.
- While another player is to bet, ``c`` arms "check/call any" and ``f`` "check/fold" for
  your next turn in this betting round (the same key again cancels it). In hot-seat the
  keys arm for the person who acted last (they have the keyboard), and only while no other
  person at this terminal is to act; the status line names the seat. Arming reveals
  nothing: it is played by the session, at once, for exactly the seat that armed it.
- ``n`` lets the dealer and the bots play at no pause until a person here is to decide.
- ``o`` sorts your five cards (rank, then suit in the table's suit order) for the rest of
  the hand; the cards chosen to exchange stay chosen.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from textual.binding import Binding

from pokeroulette_tui.driver import PREACTIONS
from pokeroulette_tui.engine.actions import IllegalAction
from pokeroulette_tui.engine.cards import SUITS, Card
from pokeroulette_tui.engine.i18n import N_, _, language, pgettext
from pokeroulette_tui.engine.phase import BETWEEN_HANDS, Phase
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.ui.config import SPEEDS, AppConfig, next_speed

if TYPE_CHECKING:
    from pokeroulette_tui.session import Session
    from pokeroulette_tui.ui.screens.seating import Seating

PACE_BINDINGS = [
    Binding("c", "arm('call_any')", N_("Check/call any")),
    Binding("c", "disarm('call_any')", N_("Cancel")),
    Binding("f", "arm('check_fold')", N_("Check/fold")),
    Binding("f", "disarm('check_fold')", N_("Cancel")),
    Binding("n", "skip", N_("Skip to my turn")),
    Binding("n", "unskip", N_("Stop skipping")),
    Binding("o", "sort", N_("Sort")),
    Binding("v", "speed", N_("Speed"), show=False),
]
"""Added to the table's own keys (after them: ``c`` and ``f`` are a bet's keys on your turn)."""


def preaction_words(kind: str) -> str:
    """A pre-action armed, in words for the status line (short: the line is one row)."""
    if kind == "call_any":
        return pgettext("armed", "check/call any")
    if kind == "check_fold":
        return pgettext("armed", "check/fold")
    return PREACTIONS.get(kind, kind)

SPEED_WORDS = {"slow": N_("slow"), "normal": N_("normal"), "fast": N_("fast"),
               "instant": N_("instant")}
"""The speeds' names (the settings keep the English ones), translated where shown."""

PACE_ACTIONS = frozenset(b.action.split("(", 1)[0] for b in PACE_BINDINGS)


def decimal(number: float) -> str:
    """A number of seconds as the player writes it: ``0.6``, or ``0,6`` in Finnish and Swedish.

    >>> decimal(0.25), decimal(2.0)
    ('0.25', '2')
    """
    text = f"{number:g}"
    return text.replace(".", ",") if language() in ("fi", "sv") else text


def suit_rank(view: SeatView) -> str:
    """The table's suits, highest first: the drawn or agreed order, else ``SHDC``."""
    if view.suit_order:
        return view.suit_order
    order = view.rules.suit_order
    return order if order != "drawn" else SUITS


def sort_order(cards: Sequence[Card], suits: str = SUITS) -> tuple[int, ...]:
    """The positions of ``cards`` sorted: jokers first, then high rank to low, then by suit
    in ``suits`` (highest first).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> sort_order(parse_cards("5h Ks 5c * 5s"), "SHDC")
    (3, 1, 4, 0, 2)
    >>> sort_order(parse_cards("5h 5c 5s"), "CDHS")
    (1, 0, 2)
    """
    def key(i: int) -> tuple[int, int]:
        card = cards[i]
        if card.is_joker:
            return (-100, 0)
        return (-card.rank, suits.index(card.suit) if card.suit in suits else len(suits))

    return tuple(sorted(range(len(cards)), key=key))


def shown_in_order(view: SeatView, order: Sequence[int]) -> SeatView:
    """``view`` with the viewer's hand shown in ``order`` (positions of the hand)."""
    me = view.me
    assert me is not None and view.seat is not None
    players = list(view.players)
    players[view.seat] = replace(me, hand=tuple(me.hand[i] for i in order))
    return replace(view, players=tuple(players))


def preact_seat(view: SeatView | None, humans: Sequence[int], holder: int | None) -> int | None:
    """The seat a pre-action key arms for now, or None when none may be armed: in a betting
    round, for ``holder`` (the person at this terminal who has the keyboard), while that seat
    can still bet and no person at this terminal is to decide."""
    if view is None or holder is None or view.game_over or view.phase != Phase.BETTING:
        return None
    if holder not in humans or view.to_act in humans:
        return None
    p = view.players[holder]
    if not p.in_hand or p.folded or p.all_in or p.status == "left":
        return None
    return holder


class TablePace:
    """Keys v, c/f (before your turn), n and o of the table screen."""

    view: SeatView | None
    session: Session
    seating: Seating
    selected: frozenset[int]
    _keyboard: int | None = None  # hot-seat: the person who acted last has the keyboard
    _sorted_hands: frozenset[tuple[int, int]] = frozenset()  # (seat, hand): shown sorted

    # -- what is shown ----------------------------------------------------------------------
    def key_holder(self) -> int | None:
        """The person at this terminal the keys are for when it is nobody's turn here."""
        if not self.seating.hot_seat:
            return self.seating.humans[0] if self.seating.humans else None
        return self._keyboard if self._keyboard in self.seating.humans else None

    def hand_order(self, view: SeatView | None = None) -> tuple[int, ...] | None:
        """The order the viewer's hand is shown in (None: as dealt)."""
        view = view or self.view
        if view is None or view.seat is None or (view.seat, view.hand_no) not in self._sorted_hands:
            return None
        hand = view.players[view.seat].hand
        if not hand or any(c is None for c in hand):
            return None
        return sort_order(hand, suit_rank(view))  # type: ignore[arg-type]

    def displayed(self, view: SeatView) -> SeatView:
        """``view`` as the widgets show it (a sorted hand in its order)."""
        order = self.hand_order(view)
        return view if order is None else shown_in_order(view, order)

    def hand_index(self, shown: int) -> int:
        """The hand position of the card shown at ``shown``."""
        order = self.hand_order()
        return order[shown] if order is not None and shown < len(order) else shown

    def shown_selection(self) -> frozenset[int]:
        """The chosen cards (hand positions) as the positions they are shown at."""
        order = self.hand_order()
        if order is None:
            return self.selected
        return frozenset(order.index(i) for i in self.selected if i in order)

    def armed_text(self) -> str:
        """For the status line: what is armed for whom, and skipping. At one keyboard
        (hot-seat) only the armed choice of the person who has the keyboard: another
        player's check/fold, say, is theirs alone (shown to the next player, it told them
        that a bet would make that player fold)."""
        parts = []
        v = self.view  # (a seat's own view on screen: that person has the keyboard now)
        holder = v.seat if v is not None and v.seat is not None else self.key_holder()
        for seat in self.seating.humans:
            kind = self.session.armed(seat)
            if kind is None or (self.seating.hot_seat and seat != holder):
                continue
            words = preaction_words(kind)
            if self.seating.hot_seat and self.view is not None:  # (the line is short)
                parts.append(f"{self.view.players[seat].name}: {words}")
            else:
                parts.append(_("{preaction} armed").format(preaction=words))
        if self.session.skipping:
            if self.view is not None and self.view.phase in BETWEEN_HANDS:
                # (the hand is over: the skipping goes on in the next one, once it is dealt)
                parts.append(_("next hand: skipping to a person's turn") if self.seating.hot_seat
                             else _("next hand: skipping to your turn"))
            else:
                parts.append(_("skipping to a person's turn") if self.seating.hot_seat
                             else _("skipping to your turn"))
        return " · ".join(parts)

    # -- which keys are live ----------------------------------------------------------------
    def pace_check(self, action: str, parameters: tuple[object, ...]) -> bool:
        session = self.session
        if action == "speed":
            return session.can_pace
        if action in ("arm", "disarm"):
            seat = preact_seat(self.view, self.seating.humans, self.key_holder())
            if not session.can_preact or seat is None:
                return False
            return (session.armed(seat) == parameters[0]) == (action == "disarm")
        if action in ("skip", "unskip"):
            if not session.can_preact or session.delay <= 0 and not session.skipping:
                return False
            if action == "unskip":
                return session.skipping
            v = self.view
            return (not session.skipping and v is not None and not v.game_over
                    and bool(self.seating.humans)
                    and (v.dealer_step or v.to_act is None or v.to_act not in self.seating.humans))
        if action == "sort":
            v = self.view
            return (v is not None and v.phase == Phase.DRAW and v.me is not None
                    and len(v.me.hand) > 1 and self.hand_order() is None
                    and all(c is not None for c in v.me.hand))
        return False

    # -- the keys ---------------------------------------------------------------------------
    async def action_speed(self) -> None:
        """The next speed: slow → normal → fast → instant → slow; remembered."""
        name = next_speed(self.session.delay)
        try:
            await self.session.set_delay(SPEEDS[name])
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Speed"), severity="warning", markup=False)
            return
        config = getattr(self.app, "config", None)
        if not isinstance(config, AppConfig):  # an app with no settings of its own
            config = AppConfig.load()
        config.delay = SPEEDS[name]
        config.save()
        pause = SPEEDS[name]
        words = (_("no pause between steps") if not pause
                 else _("{seconds} s between steps").format(seconds=decimal(pause)))
        self.notify(_("Speed: {name} ({words}) · v changes it").format(
            name=_(SPEED_WORDS.get(name, name)), words=words), title=_("Speed"), markup=False)

    async def action_arm(self, kind: str) -> None:
        seat = preact_seat(self.view, self.seating.humans, self.key_holder())
        if seat is None:
            return
        try:
            await self.session.arm(seat, kind)
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Not armed"), severity="warning", markup=False)
        self.refresh_view()

    async def action_disarm(self, kind: str) -> None:
        seat = self.key_holder()
        if seat is not None and self.session.armed(seat) == kind:
            await self.session.disarm(seat)
        self.refresh_view()

    async def action_skip(self) -> None:
        try:
            await self.session.skip(True)
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Skip"), severity="warning", markup=False)
        self.refresh_view()

    async def action_unskip(self) -> None:
        await self.session.skip(False)
        self.refresh_view()

    def action_sort(self) -> None:
        v = self.view
        if v is None or v.seat is None:
            return
        self._sorted_hands = frozenset(
            {key for key in self._sorted_hands if key[1] == v.hand_no} | {(v.seat, v.hand_no)})
        self.refresh_view()
