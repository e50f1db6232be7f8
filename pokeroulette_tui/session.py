"""The Session: the one interface the UI talks to, local (in-process) or remote."""

from __future__ import annotations

import abc
import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Any, AsyncIterator, Sequence

from pokeroulette_tui.engine.actions import Action, IllegalAction
from pokeroulette_tui.engine.events import Event, HandOver, redact_all
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.driver import Driver, Pace
from pokeroulette_tui.table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Update:
    """Something changed: the events (already redacted for this screen) and a note."""

    events: tuple[Event, ...] = ()
    note: str = ""          # connection news, errors from the server, countdowns
    closed: bool = False    # the session ended (server gone, game closed)
    deadline: float | None = None  # turn timer: loop time the current turn times out
    #: The engine's result of the hand these events end (the table may have dealt again by
    #: the time the screen reads the update).
    result: HandResult | None = None
    #: The note is a warning to be read (the game is not being saved): a toast that stays.
    warning: bool = False
    #: The view these events led to, where the session may have moved on by the time the
    #: screen reads the update (a network table: the next hand's deal may be in already);
    #: None: the session's own view (a table here holds a hand's result until it is seen).
    view: SeatView | None = None


async def queued_updates(queue: asyncio.Queue[Update]) -> AsyncIterator[Update]:
    """The updates put on ``queue``, in order, until one says the session closed."""
    while True:
        update = await queue.get()
        yield update
        if update.closed:
            return


class Session(abc.ABC):
    """What the UI needs from a table, wherever it runs.

    ``local_seats`` are the seats this terminal plays (several for hot-seat, one for a
    network client, none for a spectator). ``log_viewer`` is the seat the event log is
    redacted for: a single local human's seat, or None (public only) for hot-seat.
    """

    local_seats: tuple[int, ...] = ()
    rules: RuleSet
    #: True when the table waits at the end of each hand until the result has been seen
    #: (:meth:`next_hand`); False when the table paces itself (network play).
    holds_results: bool = False
    #: A table that paces itself: the event-loop time the next hand is dealt, during the
    #: pause after a result (None otherwise).
    next_deal: float | None = None
    #: Network play: the deck check for the status line ("" at a local table).
    fairness: str = ""
    #: True when the table has a lobby before the game (network play): seats, ready, start.
    has_lobby: bool = False
    #: False while the table is still in its lobby.
    game_started: bool = True
    #: The table's pace is set at this terminal (a local table): :attr:`delay`, :meth:`set_delay`.
    can_pace: bool = False
    #: Pre-actions (:meth:`arm`) and skipping to a person's turn (:meth:`skip`) work here
    #: (a local table; a network table's pace and turns are the host's).
    can_preact: bool = False
    #: Hints (the table's ``i`` key: this seat's odds, from its own view) may be shown here.
    #: A local table allows them; a network table only when its host does, so a client says
    #: False until it has heard so from the host.
    hints_allowed: bool = False

    @property
    def delay(self) -> float:
        """Seconds between the dealer's and the bots' steps (0 where this terminal does not
        pace the table)."""
        return 0.0

    @property
    def save_problem(self) -> str:
        """Why this terminal's game is not being saved now, in words ("" while it is, or
        where this terminal saves nothing: a network table is the host's to save)."""
        return ""

    async def set_delay(self, delay: float) -> None:
        """Pace the dealer's and the bots' steps ``delay`` seconds apart from now on."""
        raise IllegalAction(_("the host paces this table"))

    def armed(self, seat: int) -> str | None:
        """The pre-action ``seat`` has armed for this betting round (a key of
        :data:`~pokeroulette_tui.driver.PREACTIONS`), or None."""
        return None

    async def arm(self, seat: int, kind: str) -> None:
        """Arm ``kind`` (a key of PREACTIONS) for ``seat``'s next turn in this betting round:
        it is played at once when that turn comes. Raises IllegalAction with the reason."""
        raise IllegalAction(_("pre-actions are not available at this table"))

    async def disarm(self, seat: int) -> None:
        """Forget ``seat``'s pre-action."""

    @property
    def skipping(self) -> bool:
        """True while the dealer and the bots play at no pause until a person's turn."""
        return False

    async def skip(self, on: bool = True) -> None:
        """Play the dealer's and the bots' steps at no pause until a person at this terminal
        is to decide (``on=False``: back to the usual pace)."""
        raise IllegalAction(_("the host paces this table"))

    @property
    def can_chat(self) -> bool:
        """True when :meth:`chat` reaches other people (network play)."""
        return getattr(self.chat, "__func__", None) is not Session.chat

    async def chat(self, text: str) -> None:
        """Send a line of chat to the table (a session without chat refuses)."""
        raise IllegalAction(_("there is nobody to chat with at this table"))

    #: The chat so far, oldest first (``{"name", "text", "spectator"}`` each); a network
    #: session keeps what it has heard, a local one has none.
    chat_lines: Sequence[dict[str, Any]] = ()

    @property
    def log_viewer(self) -> int | None:
        return self.local_seats[0] if len(self.local_seats) == 1 else None

    @abc.abstractmethod
    def view(self, seat: int | None) -> SeatView:
        """The table as ``seat`` sees it (a local seat or None for public only)."""

    @abc.abstractmethod
    async def act(self, action: Action) -> None:
        """Send an action for a local seat; raises IllegalAction with a readable reason."""

    @abc.abstractmethod
    def updates(self) -> AsyncIterator[Update]:
        """Every change, in order, until the session closes."""

    @abc.abstractmethod
    def history(self) -> list[list[Event]]:
        """Past hands' events, redacted for ``log_viewer``."""

    #: The table keeps older hands than :meth:`history` has: :meth:`more_history` fetches them.
    history_more: bool = False

    async def more_history(self) -> None:
        """Fetch older hands into :meth:`history` (a table that sends its history in pages)."""

    def result_pending(self) -> bool:
        """True while a finished hand's result waits to be seen before the next deal."""
        return False

    async def next_hand(self) -> None:
        """The result has been seen: deal the next hand (a table that paces itself ignores it)."""

    async def start(self) -> None:
        """Begin play (deal the first hand, start bots)."""

    async def close(self) -> None:
        """Stop; a local session saves first."""


class LocalSession(Session):
    """An in-process table run by the :class:`~pokeroulette_tui.driver.Driver`: dealer and
    bot steps paced by ``delay`` (and ``bot_delay``) seconds, bots thinking in a worker thread.

    At the end of each hand it waits for :meth:`next_hand` (the result has been seen)
    before the next deal, so nothing is dealt behind the result; with ``hand_pause`` it
    deals the next hand that many seconds after the result instead, as a network host does.
    """

    can_pace = True
    can_preact = True
    hints_allowed = True

    def __init__(self, table: Table, *, delay: float = 0.6, bot_delay: float | None = None,
                 hand_pause: float | None = None, auto_cut: bool = False) -> None:
        self.table = table
        self._save_path = table.save_path  # (its lock is let go of at close, see engine.save.hold)
        self.rules = table.state.rules
        self.local_seats = tuple(table.human_seats)
        self.driver = Driver(table, Pace(delay=delay, bot_delay=bot_delay, hand_pause=hand_pause,
                                         auto_cut=auto_cut))
        self.holds_results = hand_pause is None
        self._queue: asyncio.Queue[Update] = asyncio.Queue()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._views: dict[int | None, SeatView] = {}
        self._views_at = -1  # the action count the cached views were built at
        self._save_told = False  # the screen has been told the game is not being saved

    def view(self, seat: int | None) -> SeatView:
        """The table as ``seat`` sees it, built once per action (the screen, the seating rule
        and the result dialog all ask for the same view)."""
        if seat is not None and seat not in self.local_seats:
            raise IllegalAction(_("that seat is not played at this terminal"))
        stamp = self.driver.stamp
        if self._views_at != stamp:
            self._views_at, self._views = stamp, {}
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.table.view(seat)
        return view

    def history(self) -> list[list[Event]]:
        return [redact_all(hand, self.log_viewer) for hand in self.table.history]

    @property
    def save_problem(self) -> str:
        return self.table.save_error

    def refuse_saving(self, why: str) -> None:
        """This table is not saved at all (``why``: a whole sentence); the screen is told."""
        self.table.save_error = why
        self._save_told = True
        self._queue.put_nowait(Update(note=why, warning=True))

    def _save_news(self) -> None:
        """Tell the screen once when saving stops working (a resumed journal that cannot be
        written, a full disk, a folder gone), and once when it works again."""
        problem = self.table.save_error
        if bool(problem) == self._save_told:
            return
        self._save_told = bool(problem)
        if problem:
            note = _("The game is not being saved: {problem}. You can play on; saving is "
                     "tried again at each move.").format(problem=problem)
            self._queue.put_nowait(Update(note=note, warning=True))
        else:
            self._queue.put_nowait(Update(note=_("The game is being saved again ({path}).").format(
                path=self.table.save_path)))

    async def start(self) -> None:
        self._save_news()  # (a resumed table whose journal cannot be written: said at once)
        if self._task is None:
            self.driver.pause_from(asyncio.get_running_loop().time())
            self._task = asyncio.create_task(self._run(), name="local-session")

    def result_pending(self) -> bool:
        return self.driver.result_pending()

    async def next_hand(self) -> None:
        self.driver.release(asyncio.get_running_loop().time())
        self._wake.set()

    async def act(self, action: Action) -> None:
        if action.seat not in self.local_seats:
            raise IllegalAction(_("that seat is not played at this terminal"))
        now = asyncio.get_running_loop().time()
        self._publish(self.driver.play(action, now))
        self._play_standing(now)
        self._wake.set()

    # -- pace, pre-actions, skipping ----------------------------------------------------------
    @property
    def delay(self) -> float:
        return self.driver.pace.delay

    async def set_delay(self, delay: float) -> None:
        if not delay >= 0:
            raise IllegalAction(_("a pause is 0 seconds or more"))
        loop = asyncio.get_running_loop()
        self.driver.repace(replace(self.driver.pace, delay=delay), loop.time())
        self._wake.set()

    def armed(self, seat: int) -> str | None:
        return self.driver.armed(seat)

    async def arm(self, seat: int, kind: str) -> None:
        if seat not in self.local_seats:
            raise IllegalAction(_("that seat is not played at this terminal"))
        self.driver.arm(seat, kind)

    async def disarm(self, seat: int) -> None:
        self.driver.disarm(seat)

    @property
    def skipping(self) -> bool:
        return self.driver.skipping

    async def skip(self, on: bool = True) -> None:
        self.driver.skip(asyncio.get_running_loop().time(), on)
        self._wake.set()

    def _play_standing(self, now: float) -> None:
        """Play at once what people armed for the turn that has just come (a pre-action, an
        auto cut), so the screen never sees that turn waiting for them (in hot-seat it would
        ask for the player by the privacy screen)."""
        for __ in range(4 * len(self.table.state.seats)):
            move = self.driver.standing_move()
            if move is None:
                return
            self._publish(self.driver.play(move, now))

    def _publish(self, events: list[Event]) -> None:
        over = any(isinstance(e, HandOver) for e in events)
        self._queue.put_nowait(Update(events=tuple(redact_all(events, self.log_viewer)),
                                      result=self.table.state.result if over else None))
        self._save_news()

    def updates(self) -> AsyncIterator[Update]:
        return queued_updates(self._queue)

    def notify(self, note: str) -> None:
        """A note for the screen, shown with the next updates (e.g. why the game is not saved)."""
        self._queue.put_nowait(Update(note=note))

    async def _run(self) -> None:
        try:
            await self._loop()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never a silent stop: tell the screen, keep the save
            log.exception("the local table stopped")
            self._queue.put_nowait(Update(note=_("The table stopped on an internal error ({problem}); "
                                                 "the game is saved up to the last action.").format(
                                                     problem=exc)))

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        driver = self.driver
        while not self._closed:
            step = driver.step(loop.time())
            if step.job is not None:  # a bot thinks in a thread: the screen stays live
                job = step.job
                driver.bot_chose(job, await asyncio.to_thread(job.bot.choose, job.view, job.legal))
                continue
            if step.action is not None:
                try:
                    events = driver.play(step.action, loop.time())
                except IllegalAction:  # pragma: no cover - the driver's steps are legal
                    log.exception("the table's own step %s was refused", step.action)
                    return
                self._publish(events)
                self._play_standing(loop.time())
                await asyncio.sleep(0)
                continue
            if self.table.state.game_over:
                self._queue.put_nowait(Update(note="game over"))
                return
            self._wake.clear()
            wait = None if driver.wakeup is None else max(0.0, driver.wakeup - loop.time())
            try:
                await asyncio.wait_for(self._wake.wait(), wait)
            except TimeoutError:
                pass

    async def close(self) -> None:
        self._closed = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            except Exception:  # pragma: no cover - never lose the game on shutdown
                pass
        try:
            self.table.save_and_close()
        finally:  # saved: another pokeroulette may take the autosave from now on
            from pokeroulette_tui.engine.save import release

            release(self._save_path)
        self._queue.put_nowait(Update(closed=True))
