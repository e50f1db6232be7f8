"""Betting rounds, pots and side pots."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pokeroulette_tui.engine.actions import (Action, AllIn, Call, Check, Fold, IllegalAction,
                                             PlaceBet, RaiseTo)
from pokeroulette_tui.engine.events import (BetPlaced, Called, Checked, Event, Folded, Raised,
                                            WentAllIn)
from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.state import GameState

MAX_FIXED_RAISES = 3


@dataclass(frozen=True)
class BetOptions:
    """What the seat to act may do in a betting round, with amount limits.

    Amounts for ``bet`` and ``raise`` are the seat's total bet this round.
    """

    check: bool = False
    call: int = 0          # chips a call puts in (0 = no call possible)
    bet_min: int = 0       # 0 = no bet possible
    bet_max: int = 0
    raise_min: int = 0     # 0 = no raise possible
    raise_max: int = 0
    all_in: int = 0        # chips an all-in puts in (0 = not offered)
    fold: bool = True

    @property
    def kinds(self) -> tuple[str, ...]:
        out = []
        if self.check:
            out.append("check")
        if self.call:
            out.append("call")
        if self.bet_min:
            out.append("bet")
        if self.raise_min:
            out.append("raise")
        if self.all_in:
            out.append("all_in")
        if self.fold:
            out.append("fold")
        return tuple(out)


def bet_options(state: GameState, seat: int) -> BetOptions:
    """The legal betting actions of ``seat`` (who must be the seat to act)."""
    s = state.seats[seat]
    rules = state.rules
    to_call = state.current_bet - s.bet
    stack = s.chips
    unit = rules.bet_unit
    fixed = rules.limit == "fixed"
    check = to_call == 0
    call = to_call if 0 < to_call < stack else 0
    bet_min = bet_max = raise_min = raise_max = 0
    all_in = 0
    if state.current_bet == 0:
        if stack > unit:
            bet_min, bet_max = unit, (unit if fixed else stack)
        all_in = stack if (not fixed or stack <= unit) else 0
    else:
        reopened = s.can_raise and not (fixed and state.raises >= MAX_FIXED_RAISES)
        full_to = state.current_bet + (unit if fixed else state.min_raise)
        if reopened and s.bet + stack > full_to:
            raise_min, raise_max = full_to, (full_to if fixed else s.bet + stack)
        if stack <= to_call:
            all_in = stack  # calling for less, all in
        elif reopened and (not fixed or s.bet + stack <= full_to):
            all_in = stack
    return BetOptions(check=check, call=call, bet_min=bet_min, bet_max=bet_max,
                      raise_min=raise_min, raise_max=raise_max, all_in=all_in, fold=True)


def start_round(state: GameState, name: str, first: int) -> bool:
    """Open a betting round; False if it need not be played (fewer than two can act)."""
    for s in state.seats:
        s.bet = 0
        s.acted = False
        s.can_raise = True
    state.current_bet = 0
    state.min_raise = state.rules.bet_unit
    state.raises = 0
    state.betting_round = name
    able = [i for i in state.in_hand_order(first) if state.seats[i].can_act]
    if len(able) < 2:
        state.to_act = None
        return False
    state.to_act = able[0]
    state.phase = Phase.BETTING
    return True


def check_bet(state: GameState, action: Action) -> None:
    """Raise IllegalAction unless ``action`` is a legal betting action now."""
    seat = action.seat
    if state.phase != Phase.BETTING or seat != state.to_act:
        if state.to_act is None:
            raise IllegalAction(_("it is not your turn to bet (nobody is to act)"))
        raise IllegalAction(_("it is not your turn to bet ({name} is to act)").format(
            name=state.seats[state.to_act].name))
    o = bet_options(state, seat)
    if isinstance(action, Check):
        if not o.check:
            raise IllegalAction(_("you cannot check: {amount} to call").format(
                amount=state.current_bet - state.seats[seat].bet))
    elif isinstance(action, Call):
        if not o.call:
            raise IllegalAction(_("there is nothing to call") if o.check
                                else _("your stack does not cover the call: go all in or fold"))
    elif isinstance(action, PlaceBet):
        if not o.bet_min:
            raise IllegalAction(_("you cannot open the betting now: there is already a bet")
                                if state.current_bet else _("you cannot open the betting now"))
        if not o.bet_min <= action.amount <= o.bet_max:
            raise IllegalAction(_range_msg(False, o.bet_min, o.bet_max))
    elif isinstance(action, RaiseTo):
        if not o.raise_min:
            raise IllegalAction(_("you cannot raise now"))
        if not o.raise_min <= action.amount <= o.raise_max:
            raise IllegalAction(_range_msg(True, o.raise_min, o.raise_max))
    elif isinstance(action, AllIn):
        if not o.all_in:
            raise IllegalAction(_("going all in is not allowed here (fixed limit)"))
    elif not isinstance(action, Fold):
        raise IllegalAction(_("{kind} is not a betting action").format(kind=action.kind))


def _range_msg(raise_: bool, lo: int, hi: int) -> str:
    """Why a bet (or a raise to an amount) is out of its range, in a sentence."""
    # TRANSLATORS: the English says "chips" for 1 too (kept as it always was)
    if lo == hi and raise_:
        text = ngettext("a raise must be exactly to {lo} chips", "a raise must be exactly to {lo} chips", lo)
    elif lo == hi:
        text = ngettext("a bet must be exactly {lo} chips", "a bet must be exactly {lo} chips", lo)
    elif raise_:
        text = _("a raise must be to between {lo} and {hi} chips")
    else:
        text = _("a bet must be between {lo} and {hi} chips")
    return text.format(lo=lo, hi=hi)


def _put(state: GameState, seat: int, amount: int) -> None:
    s = state.seats[seat]
    amount = min(amount, s.chips)
    s.chips -= amount
    s.bet += amount
    s.contributed += amount
    if s.chips == 0:
        s.all_in = True


def apply_bet(state: GameState, action: Action, name: Callable[[int], str]) -> list[Event]:
    """Apply a checked betting action; moves ``to_act`` on or closes the round (to_act None)."""
    seat = action.seat
    s = state.seats[seat]
    who = name(seat)
    ev: list[Event] = []
    h = state.hand_no
    if isinstance(action, Fold):
        s.folded = True
        state.muck(seat)
        ev.append(Folded(_("{name} folds").format(name=who), seat=seat, hand_no=h))
    elif isinstance(action, Check):
        ev.append(Checked(_("{name} checks").format(name=who), seat=seat, hand_no=h))
    elif isinstance(action, Call):
        amount = state.current_bet - s.bet
        _put(state, seat, amount)
        ev.append(Called(_("{name} calls {amount}").format(name=who, amount=amount), seat=seat,
                         amount=amount, hand_no=h))
    else:
        target = (action.amount if isinstance(action, (PlaceBet, RaiseTo)) else s.bet + s.chips)
        before = state.current_bet
        _put(state, seat, target - s.bet)
        if s.bet > before:
            increase = s.bet - before
            full = increase >= state.min_raise or before == 0 and s.bet >= state.rules.bet_unit
            if before and full:
                state.raises += 1
            if full:
                state.min_raise = max(state.min_raise, increase)
            state.current_bet = s.bet
            for i, o in enumerate(state.seats):
                if i != seat and o.can_act:
                    if full:
                        o.can_raise = True
                    elif o.acted or not o.can_raise:
                        # an incomplete (all-in) raise does not reopen the betting for a seat
                        # that already acted, unless the raises since its last action add up
                        # to a full raise
                        o.can_raise = state.current_bet - o.bet >= state.min_raise
                    o.acted = False
        if isinstance(action, AllIn):
            ev.append(WentAllIn(_("{name} is all in for {amount}").format(name=who, amount=s.bet),
                                seat=seat, amount=s.bet, hand_no=h))
        elif before == 0:
            ev.append(BetPlaced(_("{name} bets {amount}").format(name=who, amount=s.bet), seat=seat,
                                amount=s.bet, hand_no=h))
        else:
            ev.append(Raised(_("{name} raises to {amount}").format(name=who, amount=s.bet), seat=seat,
                             amount=s.bet, hand_no=h))
    s.acted = True
    state.to_act = _next_to_act(state, seat)
    return ev


def _next_to_act(state: GameState, after: int) -> int | None:
    live = [i for i in range(state.n) if state.seats[i].live]
    if len(live) < 2:
        return None
    n = state.n
    for k in range(1, n + 1):
        i = (after + k) % n
        o = state.seats[i]
        if o.can_act and (not o.acted or o.bet < state.current_bet):
            # a lone player who can act and faces no bet has nobody to bet against
            if o.bet >= state.current_bet and sum(state.seats[j].can_act for j in live) < 2:
                return None
            return i
    return None


def pots(state: GameState) -> list[tuple[int, list[int]]]:
    """Main pot and side pots from every contribution: (amount, eligible seats).

    A pot nobody live contributed to (a leaver's dead money) joins the pot below it.
    """
    levels = sorted({s.contributed for s in state.seats if s.contributed > 0})
    out: list[tuple[int, list[int]]] = []
    prev = 0
    for level in levels:
        amount = sum(min(s.contributed, level) - min(s.contributed, prev) for s in state.seats)
        eligible = [i for i, s in enumerate(state.seats) if s.live and s.contributed >= level]
        if eligible:
            if out and out[-1][1] == eligible:
                out[-1] = (out[-1][0] + amount, eligible)
            else:
                out.append((amount, eligible))
        elif out:
            out[-1] = (out[-1][0] + amount, out[-1][1])
        else:
            live = [i for i, s in enumerate(state.seats) if s.live]
            out.append((amount, live))
        prev = level
    return [(a, e) for a, e in out if a > 0]


def split(amount: int, winners: list[int], state: GameState) -> dict[int, int]:
    """Split ``amount`` among ``winners``; odd chips go to the winner nearest clockwise
    from the button."""
    base, odd = divmod(amount, len(winners))
    shares = {w: base for w in winners}
    order = sorted(winners, key=lambda w: (w - state.button - 1) % state.n)
    for w in order[:odd]:
        shares[w] += 1
    return shares
