"""The casino's session: the one interface the casino screen talks to, whether the table runs
at this terminal (:class:`LocalCasino`, hot-seat) or on a host across the network
(:class:`pokeroulette_tui.net.casino_client.RemoteCasino`). (It sits beside the network code,
in the session/net layer, so that both sessions and the screen share one interface.)

The screen draws :attr:`CasinoSession.casino` (the engine's table; for a network table a
mirror rebuilt from the host's messages, with no deck in it) and changes it only through the
session's coroutines, which raise :class:`~pokeroulette_tui.engine.casino.game.CasinoError`
with a sentence for the player. What changes without the player's doing (a card dealt, a
round settled, another player's bet) arrives as :class:`CasinoUpdate` from :meth:`updates`.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import Bet
from pokeroulette_tui.engine.casino.game import Casino, CasinoError, Round, Stage
from pokeroulette_tui.engine.casino.paytable import PayTable
from pokeroulette_tui.engine.casino.store import START_BANKROLL, CasinoStore
from pokeroulette_tui.engine.i18n import _

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CasinoUpdate:
    """Something changed: ``note`` to say (an ``error`` in red), ``settled`` when a round
    was just settled, ``closed`` when the session ended (the note says why)."""

    note: str = ""
    error: bool = False
    settled: bool = False
    closed: bool = False


@dataclass(frozen=True)
class SeatInfo:
    """What the table says of a seat beyond the engine's player: network tables only."""

    connected: bool = True
    ready: bool = False


class CasinoSession(abc.ABC):
    """A casino table as one terminal plays it."""

    #: The seats played at this terminal (hot-seat: every seat; network: one).
    seats: tuple[int, ...] = (0,)
    #: True across the network: bets close when every player is ready (or the host's timer
    #: runs out), and the host deals and opens the next round.
    networked: bool = False
    #: A warning to show once (a damaged casino file was moved aside).
    warning: str = ""
    #: Network tables: seconds before bets close, or before the next round (None: no timer).
    closes_at: float | None = None
    next_at: float | None = None

    @property
    @abc.abstractmethod
    def casino(self) -> Casino:
        """The table as this terminal sees it."""

    @property
    def table(self) -> PayTable:
        return self.casino.table

    def seat_info(self, seat: int) -> SeatInfo:
        return SeatInfo()

    def unreadable_words(self) -> str:
        """Network tables: why the host's messages cannot be read, in words ("": they can,
        or there is no host)."""
        return ""

    @abc.abstractmethod
    async def place(self, seat: int, kind: str, target: str, amount: int) -> Bet:
        """Chips on a spot; returns the spot's bet (raises CasinoError)."""

    @abc.abstractmethod
    async def undo(self, seat: int) -> None: ...

    @abc.abstractmethod
    async def clear(self, seat: int) -> None: ...

    @abc.abstractmethod
    async def rebet(self, seat: int) -> None: ...

    @abc.abstractmethod
    async def deal(self, seat: int) -> str:
        """This terminal is done betting: at this terminal the deal starts; across the
        network the player says ready. Returns what to say."""

    @abc.abstractmethod
    async def next_round(self, seat: int) -> str:
        """Done looking at the results. Returns what to say."""

    @abc.abstractmethod
    async def reset_bankroll(self, seat: int) -> None:
        """Start the seat's bankroll again at START_BANKROLL (raises CasinoError)."""

    _queue: asyncio.Queue[CasinoUpdate]  # (each session makes its own)

    async def updates(self) -> AsyncIterator[CasinoUpdate]:
        """What changes, until the session closes (what the session put on its queue)."""
        while True:
            update = await self._queue.get()
            yield update
            if update.closed:
                return

    def history(self) -> list[Round]:
        """The rounds to show in the history, oldest first."""
        return list(self.casino.history)

    @abc.abstractmethod
    async def close(self) -> str:
        """Leave the table; returns words for the terminal afterwards."""


class LocalCasino(CasinoSession):
    """The casino at this terminal: the engine in-process, bankrolls and the jackpot kept in
    a :class:`CasinoStore`, the deal paced by ``deal_pause`` seconds a card."""

    def __init__(self, names: Sequence[str], table: PayTable, store_path: Path, *,
                 deal_pause: float = 0.6, seed: int | None = None) -> None:
        self.store = CasinoStore.open(Path(store_path))
        store = self.store
        c = G.new_casino(table, list(names), [store.bankroll(n) for n in names], seed=seed)
        c.jackpot_hundredths = store.jackpot(table)
        if store.history:
            c.round_no = store.history[-1].number + 1
        self._casino = c
        self.seats = tuple(range(len(c.players)))
        self.warning = store.warning
        self.deal_pause = max(0.0, float(deal_pause))
        self._queue: asyncio.Queue[CasinoUpdate] = asyncio.Queue()
        self._dealing: asyncio.Task[None] | None = None

    @property
    def casino(self) -> Casino:
        return self._casino

    async def place(self, seat: int, kind: str, target: str, amount: int) -> Bet:
        return G.place(self._casino, seat, kind, target, amount)

    async def undo(self, seat: int) -> None:
        G.undo(self._casino, seat)

    async def clear(self, seat: int) -> None:
        G.clear(self._casino, seat)

    async def rebet(self, seat: int) -> None:
        G.rebet(self._casino, seat)

    async def deal(self, seat: int) -> str:
        c = self._casino
        G.close(c)
        if self.deal_pause <= 0:
            G.deal_all(c)
            self._settled()
        else:
            self._dealing = asyncio.create_task(self._deal_slowly(), name="casino-deal")
        return ""

    async def _deal_slowly(self) -> None:
        c = self._casino
        while c.stage is Stage.DEALING:
            await asyncio.sleep(self.deal_pause)
            if c.stage is not Stage.DEALING:
                return
            G.deal(c)
            if c.stage is Stage.DEALING:
                self._queue.put_nowait(CasinoUpdate())
        self._settled()

    def _settled(self) -> None:
        note = ""
        try:
            self.store.record(self._casino)
        except OSError as exc:
            note = _("Could not save the bankrolls: {problem}").format(problem=exc)
        self.warning = ""
        self._queue.put_nowait(CasinoUpdate(note=note, error=bool(note), settled=True))

    async def next_round(self, seat: int) -> str:
        G.next_round(self._casino)
        return _("Round {number}: place your bets.").format(number=self._casino.round_no)

    async def reset_bankroll(self, seat: int) -> None:
        c = self._casino
        p = c.players[seat]
        if c.stage is Stage.BETTING:
            G.clear(c, seat)
        p.bankroll = START_BANKROLL
        try:
            self.store.reset_bankroll(p.name)
        except OSError as exc:
            raise CasinoError(_("could not save the bankroll: {problem}").format(
                problem=exc)) from None

    def history(self) -> list[Round]:
        rounds = list(self.store.history)
        return rounds + [r for r in self._casino.history if r not in rounds]

    async def close(self) -> str:
        return self.save_and_close()

    def save_and_close(self) -> str:
        """Finish a deal under way, keep the bankrolls (chips still on the board count as the
        player's) and say where (callable outside a running loop too)."""
        c = self._casino
        if self._dealing is not None:
            self._dealing.cancel()
            self._dealing = None
        if c.stage is Stage.DEALING:
            G.deal_all(c)
        try:
            self.store.record(c)
        except OSError as exc:
            return _("The casino could NOT save the bankrolls: {problem}").format(problem=exc)
        return _("Bankrolls and the jackpot are saved in {path}. Play money only.").format(
            path=self.store.path)
