"""The table driver: what happens next at a table, and when, with no I/O and no clock of its own.

One driver runs every table, local or hosted. It decides the dealer's steps, hands a bot's
decision out as a :class:`BotJob` (worked out wherever the caller likes, e.g. a worker
thread) and plays it only if nothing happened meanwhile, paces the steps, holds a finished
hand until its result has been seen (local play) or pauses before the next deal (network
play), and runs the turn timer. Every method takes ``now`` from the caller's clock, so
tests drive it with plain numbers.

>>> from pokeroulette_tui.engine.rules import RuleSet
>>> from pokeroulette_tui.table import SeatConfig, Table
>>> seats = [SeatConfig("Ana"), SeatConfig("Bo", bot="random"), SeatConfig("Cy", bot="random")]
>>> table = Table.create(RuleSet(), seats, seed=1)
>>> driver = Driver(table, Pace(delay=1.0), now=0.0)
>>> driver.step(0.5).action is None, driver.wakeup   # the dealer waits for its pause
(True, 1.0)
>>> driver.step(1.0).action.kind                     # then deals
'start_hand'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from pokeroulette_tui.engine.actions import (Action, AllIn, Call, Check, Cut, Discard, Fold,
                                             IllegalAction, Leave, MoveStockToActive)
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import dealer_to_act, legal_actions
from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.table import Table


@dataclass(frozen=True)
class Pace:
    """How a table paces itself. Times are seconds; 0 turns a pause or the timer off.

    ``hand_pause`` None holds a finished hand until :meth:`Driver.release` (the result has
    been seen); a number deals the next hand that long after the result.
    """

    delay: float = 0.6              # before each dealer step
    bot_delay: float | None = None  # before each bot step (None: the same as ``delay``)
    hand_pause: float | None = None
    turn_timeout: float = 0.0       # a human's turn, then the timer plays for them
    away_after: int = 3             # consecutive timeouts before a seat is "away"
    auto_cut: bool = False          # a human's cut is made for them, at a random place
    away_grace: float = 0.0         # an away seat's turn (0: AWAY_GRACE), then it is played
    absent_grace: float = 0.0       # with no turn timer: how long the turn of a seat whose
                                    # player is not connected (:attr:`Driver.absent`) waits,
                                    # then the table plays it as the timer would (0: for ever)


AWAY_GRACE = 5.0
"""Seconds an away seat's turn waits before the table plays it: a player back at the
keyboard can still act (acting clears "away"), and a table with someone truly gone does not
wait a whole turn timeout each time. Never longer than ``Pace.turn_timeout``."""


PREACTIONS = {"check_fold": N_("check/fold"), "call_any": N_("check/call any")}
"""What a seat may arm before its turn in a betting round (name: words for the screen).

``check_fold`` checks if that is free, else folds; ``call_any`` checks if free, else calls
whatever the bet is (all in if the call takes the whole stack). As in poker clients, both
stay armed whatever the others bet, are played once, and lapse when the betting round ends.
"""


def preaction_move(kind: str, legal: list[Action]) -> Action | None:
    """The action an armed pre-action plays, given the seat's legal actions (None: none fits).

    >>> preaction_move("check_fold", [Check(seat=1), Fold(seat=1)])
    Check(seat=1)
    >>> preaction_move("check_fold", [Call(seat=1), Fold(seat=1)]), preaction_move("call_any", [Call(seat=1), Fold(seat=1)])
    (Fold(seat=1), Call(seat=1))
    """
    for a in legal:
        if isinstance(a, Check):
            return a
    wanted = (Fold,) if kind == "check_fold" else (Call, AllIn)
    for kind_of in wanted:  # a call before going all in: all in only when that is the call
        for a in legal:
            if isinstance(a, kind_of):
                return a
    return None


@dataclass
class BotJob:
    """A bot's decision to work out away from the caller's loop: call
    ``bot.choose(view, legal)`` and give the answer to :meth:`Driver.bot_chose`.

    ``stamp`` is the number of actions when the job was made: the choice is played only if
    nothing happened meanwhile."""

    bot: Any
    view: Any
    legal: list[Action]
    seat: int
    stamp: int


@dataclass(frozen=True)
class Step:
    """What is due now: an ``action`` to play (``timed_out``: the seat the timer played
    for), a bot ``job`` to work out, or nothing (see :attr:`Driver.wakeup`)."""

    action: Action | None = None
    timed_out: int | None = None
    job: BotJob | None = None


NOTHING = Step()


def _never(seat: int) -> bool:
    """No seat is absent (a table at this terminal)."""
    return False


def timeout_action(table: Table, seat: int) -> Action:
    """What the turn timer plays: check if free, else fold; keep the stock; stand pat;
    cut in the middle."""
    legal = table.legal(seat)
    for a in legal:
        if isinstance(a, Check):
            return a
        if isinstance(a, MoveStockToActive) and a.index is None:
            return a
        if isinstance(a, Discard) and not a.indices:
            return a
    if any(isinstance(a, Cut) for a in legal):
        return Cut(seat=seat, position=len(table.state.deck) // 2)
    return Fold(seat=seat)


def thinks_at_once(bot: Any) -> bool:
    """A bot whose choice costs nothing (it is made on the spot, not in a worker)."""
    return getattr(bot, "level", "") == "random"


class Driver:
    """Runs one :class:`~pokeroulette_tui.table.Table`: every action, human or not, goes
    through :meth:`play`, and :meth:`step` says what the table does by itself."""

    def __init__(self, table: Table, pace: Pace = Pace(), *, now: float = 0.0) -> None:
        self.table = table
        self.pace = pace
        self.next_auto = now + pace.delay  # the next dealer or bot step, not before
        self.deadline: float | None = None  # a human's turn times out then
        # whether a seat's player is not connected (a hosted table's: set by the host); such
        # a seat's turn at a table with no turn timer is played after ``Pace.absent_grace``
        self.absent: Callable[[int], bool] = _never
        self.wakeup: float | None = None    # after step(): when something is due next
        self._seen = 0                      # results seen up to this hand number
        self._turn: int | None = None       # whose turn the timer is running for
        self.turn_start = self.stamp        # the action count when that turn began
        self._job: BotJob | None = None     # handed out, not answered yet
        self._chosen: tuple[int, Action] | None = None  # (stamp, a bot's answer)
        #: seat -> (pre-action, the betting round it was armed in): see :meth:`arm`
        self.preactions: dict[int, tuple[str, tuple[int, int, str]]] = {}
        #: Dealer and bot steps at no pause until a person must decide (:meth:`skip`).
        self.skipping = False

    # -- queries ----------------------------------------------------------------------------
    @property
    def stamp(self) -> int:
        """The number of actions played: a view or a bot job is current while it holds."""
        return len(self.table.actions)

    @property
    def thinking(self) -> bool:
        """A bot's job is out and still current."""
        return self._job is not None and self._job.stamp == self.stamp

    def away(self, seat: int) -> bool:
        return self.table.state.timeouts.get(seat, 0) >= self.pace.away_after

    def grace(self) -> float:
        """How long an away seat's turn waits before it is played (:data:`AWAY_GRACE`)."""
        grace = self.pace.away_grace or AWAY_GRACE
        return min(grace, self.pace.turn_timeout) if self.pace.turn_timeout > 0 else grace

    def result_pending(self) -> bool:
        """A finished hand is held until its result has been seen (:meth:`release`)."""
        s = self.table.state
        return (self.pace.hand_pause is None and s.phase == "hand_over" and not s.game_over
                and s.hand_no > self._seen)

    def armed(self, seat: int) -> str | None:
        """The pre-action ``seat`` has armed for this betting round, if any."""
        pre = self.preactions.get(seat)
        return pre[0] if pre is not None and pre[1] == self._round() else None

    def standing_move(self) -> Action | None:
        """What a person's turn plays by itself now, at once: the pre-action that seat armed,
        or (``Pace.auto_cut``) its cut at a random place. None: the person decides."""
        seat = self.table.waiting_for_human()
        if seat is None or self.result_pending():
            return None
        kind = self.armed(seat)
        if kind is not None:
            move = preaction_move(kind, self.table.legal(seat))
            if move is not None:
                return move
        if self.pace.auto_cut and self.table.state.phase == Phase.CUT:
            if any(isinstance(a, Cut) for a in self.table.legal(seat)):
                return Cut(seat=seat, position=self._cut_place())
        return None

    def next_deal(self) -> float | None:
        """A table that pauses after each hand: when the next hand is dealt (None: not in
        that pause)."""
        s = self.table.state
        if self.pace.hand_pause is None or s.phase != "hand_over" or s.game_over:
            return None
        return self.next_auto

    # -- changes ----------------------------------------------------------------------------
    def play(self, action: Action, now: float) -> list[Event]:
        """Check and play ``action`` (raises IllegalAction, changing nothing); the table's
        pace and turn timer start again from ``now``."""
        events = self.table.apply(action)
        if events:
            self._moved(action, now)
        return events

    def leave(self, seat: int, now: float) -> list[Event]:
        """``seat`` leaves the table (nothing if it cannot, e.g. it has left already)."""
        try:
            return self.play(Leave(seat=seat), now)
        except IllegalAction:
            return []

    def arm(self, seat: int, kind: str) -> None:
        """Arm a pre-action for ``seat``'s next turn in this betting round (see
        :data:`PREACTIONS`); raises IllegalAction, saying why, when it cannot be armed."""
        s = self.table.state
        if kind not in PREACTIONS:
            raise IllegalAction(_("there is no pre-action called {kind}").format(kind=repr(kind)))
        if not 0 <= seat < s.n or seat in self.table.bots:
            raise IllegalAction(_("pre-actions are for the seats of people at this table"))
        key = self._round()
        if key is None or s.game_over:
            raise IllegalAction(_("pre-actions are armed during a betting round"))
        if s.to_act == seat:
            raise IllegalAction(_("it is your turn: act now"))
        if not s.seats[seat].can_act:
            raise IllegalAction(_("{name} has no more bets to make this hand").format(name=s.seats[seat].name))
        self.preactions[seat] = (kind, key)

    def disarm(self, seat: int) -> None:
        """Forget ``seat``'s pre-action (nothing if none is armed)."""
        self.preactions.pop(seat, None)

    def skip(self, now: float, on: bool = True) -> None:
        """Dealer and bot steps at no pause until a person is to decide (``on=False``: at
        the usual pace again)."""
        self.skipping = on and not self.table.state.game_over
        if self.skipping:
            self.next_auto = min(self.next_auto, now)

    def repace(self, pace: Pace, now: float) -> None:
        """Go on at ``pace`` (the player changed the speed): a step already waiting comes no
        later than the new pause after ``now``."""
        self.pace = pace
        self.next_auto = min(self.next_auto, now + pace.delay)

    def release(self, now: float) -> None:
        """The result has been seen: the next deal comes after the usual pause."""
        hand = self.table.state.hand_no
        if hand > self._seen:
            self._seen = hand
            self.next_auto = max(self.next_auto, now + (0.0 if self.skipping else self.pace.delay))

    def rearm(self, now: float) -> None:
        """Restart the turn timer with a full turn (a seat came back)."""
        self.deadline = None
        self._arm(now)

    def pause_from(self, now: float) -> None:
        """The next step comes a pause after ``now`` (a table starting or resuming)."""
        self.next_auto = now + self.pace.delay

    def bot_chose(self, job: BotJob, action: Action | None) -> None:
        """A bot's answer is back (None: the bot failed; the timer's choice is played)."""
        if self._job is job:
            self._job = None
        if job.stamp != self.stamp:
            return  # the table moved on meanwhile: the next step asks again
        self._chosen = (job.stamp, action if action is not None
                        else timeout_action(self.table, job.seat))

    def step(self, now: float) -> Step:
        """What the table does by itself at ``now``. Afterwards :attr:`wakeup` is when to
        ask again (None: only after news: an action, a release, a bot's answer)."""
        self.wakeup = None
        table, s = self.table, self.table.state
        if s.game_over or self.result_pending():
            self.deadline = None
            return NOTHING
        if dealer_to_act(s):
            self.deadline = None
            return self._when(legal_actions(s, None)[0], now)
        bot = table.bots.get(s.to_act) if s.to_act is not None else None
        if bot is not None:
            self.deadline = None
            return self._bot_step(now)
        move = self.standing_move()
        if move is not None:  # armed by the person: played at once, no pause, no timer
            self.deadline = None
            return Step(action=move)
        self.skipping = False  # a person decides: skipping to their turn is done
        return self._human_step(now)

    # -- inside -----------------------------------------------------------------------------
    def _round(self) -> tuple[int, int, str] | None:
        """The betting round being played (None outside one): a pre-action's lifetime."""
        s = self.table.state
        if s.phase != Phase.BETTING:
            return None
        return (s.hand_no, s.round_no, s.betting_round)

    def _cut_place(self) -> int:
        """A random place to cut: from the table's seed and the move number when the table
        has a fixed shuffle (so a replay cuts the same), else from the system's generator."""
        deck = len(self.table.state.deck)
        if self.table.seed is None:
            return random.SystemRandom().randint(1, max(1, deck - 1))
        return random.Random(self.table.seed * 7919 + 4099 + self.stamp).randint(1, max(1, deck - 1))

    def _moved(self, action: Action, now: float) -> None:
        s = self.table.state
        self._chosen = None
        if action.seat is not None:
            self.preactions.pop(action.seat, None)  # played (or the seat acted itself)
        key = self._round()
        self.preactions = {seat: pre for seat, pre in self.preactions.items() if pre[1] == key}
        if s.game_over:
            self.skipping = False
        pause = self.pace.delay
        if s.phase == "hand_over" and self.pace.hand_pause is not None:
            pause = self.pace.hand_pause
        elif self.skipping:
            pause = 0.0
        elif (s.to_act is not None and s.to_act in self.table.bots
              and not dealer_to_act(s) and self.pace.bot_delay is not None):
            pause = self.pace.bot_delay
        self.next_auto = now + pause
        if s.to_act != self._turn or action.seat == s.to_act:
            self.deadline = None  # a new turn (or the same seat again): a full turn
            self.turn_start = self.stamp
        self._turn = s.to_act
        self._arm(now)

    def _arm(self, now: float) -> None:
        """Start the turn timer if a human is to act (an away seat's turn waits only
        :meth:`grace`, and no less than the usual pause)."""
        seat = self.table.waiting_for_human()
        if seat is None or self.result_pending():
            self.deadline = None
            return
        if seat != self._turn:
            self._turn, self.deadline, self.turn_start = seat, None, self.stamp
        if self.deadline is None:
            if self.away(seat):
                self.deadline = max(self.next_auto, now + self.grace())
            elif self.pace.turn_timeout > 0:
                self.deadline = now + self.pace.turn_timeout
            elif self.pace.absent_grace > 0 and self.absent(seat):
                self.deadline = now + self.pace.absent_grace

    def arm_timer(self, now: float) -> None:
        """Start the timer of the turn under way if it has none (a seat's player left:
        with no turn timer, its turn now waits only :attr:`Pace.absent_grace`)."""
        self._arm(now)

    def _when(self, action: Action, now: float, timed_out: int | None = None) -> Step:
        if now < self.next_auto:
            self.wakeup = self.next_auto
            return NOTHING
        return Step(action=action, timed_out=timed_out)

    def _bot_step(self, now: float) -> Step:
        if self._chosen is not None and self._chosen[0] == self.stamp:
            return self._when(self._chosen[1], now)
        if self._job is not None and self._job.stamp == self.stamp:
            return NOTHING  # thinking: its answer comes through bot_chose()
        turn = self.table.bot_turn()
        if turn is None:  # a bot seat that cannot act (it has left): nothing to do
            return NOTHING
        bot, view, legal = turn
        seat = self.table.state.to_act
        if thinks_at_once(bot):
            self._chosen = (self.stamp, bot.choose(view, legal))
            return self._when(self._chosen[1], now)
        self._job = BotJob(bot, view, legal, seat, self.stamp)
        return Step(job=self._job)  # it thinks during the pause

    def _human_step(self, now: float) -> Step:
        self._arm(now)
        seat = self._turn
        if self.deadline is None or seat is None:
            return NOTHING
        if now < self.deadline:
            self.wakeup = self.deadline
            return NOTHING
        return Step(action=timeout_action(self.table, seat), timed_out=seat)
