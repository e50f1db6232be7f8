"""The card room: many tables in one process, each a TableHost served as a LAN table is.

A player's app reaches its table in-process: a socket pair (no file, no port), whose
server end is handed to the table's server together with the account the SSH layer
verified. Nothing the client says can change who it is: the seat identity comes from the
SSH key, exactly as a Unix-socket seat's comes from the kernel.

A table is shared by players who may each speak another language: its own tasks (its clock,
each connection's handler) run in :func:`~pokeroulette_tui.engine.i18n.shared_language_context`,
so what the table itself says (its notices) is in the server's language, whoever opened it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
from dataclasses import dataclass, field
from typing import Any

from pokeroulette_tui.engine.i18n import _, ngettext, shared_language_context
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.net.identity import Account
from pokeroulette_tui.net.server import Server
from pokeroulette_tui.net.ssh.keys import WATCH

log = logging.getLogger("pokeroulette.ssh")

MAX_TABLES = 200
"""Tables one room keeps open at once."""
TABLES_PER_NAME = 2
"""Tables one player may have opened and still open (not yet closed)."""
EMPTY_CLOSE = 120.0
"""A table nobody has been connected to for this long closes (30 s once its game is over)."""


class RoomError(Exception):
    """A request the room cannot grant; the message says why, in one line."""


class TableServer(Server):
    """A table's server whose connections are handed over in-process, each with the account
    the SSH layer proved (never from what the client says)."""

    def __init__(self, host: TableHost, **kw: Any) -> None:
        super().__init__(host, **kw)
        self._accounts: dict[int, Account] = {}

    def run(self) -> None:
        """Start the table's clock (there is no listening socket)."""
        self._clock_task = asyncio.create_task(self._clock(), name="room-table-clock",
                                               context=shared_language_context())

    async def attach(self, sock: socket.socket, account: Account) -> None:
        """Serve the server end of a socket pair as a connection from ``account``."""
        reader, writer = await asyncio.open_connection(sock=sock, limit=self.limit)
        self._accounts[id(writer)] = account
        task = asyncio.create_task(self._handle(reader, writer), name="room-conn",
                                   context=shared_language_context())
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    def _peer(self, writer: asyncio.StreamWriter) -> Any:
        return self._accounts.pop(id(writer), None)


@dataclass(eq=False)
class RoomTable:
    """One table of the room."""

    number: int
    creator: str
    variant: str
    host: TableHost
    server: TableServer
    created: float
    last_seen: float

    def summary(self) -> dict[str, Any]:
        """What the room's list shows of this table (plain values)."""
        h = self.host
        humans = [p.name for p in h.players if p.bot is None]
        bots = sum(1 for p in h.players if p.bot is not None)
        over = h.table is not None and h.table.state.game_over
        return {"number": self.number, "variant": self.variant, "creator": self.creator,
                "seats": h.rules.max_players, "min": h.rules.fewest_players,
                "players": humans, "bots": bots,
                "watching": sum(1 for c in h.conns.values() if c.spectator and not c.closing),
                "state": "over" if over else "playing" if h.started else "lobby",
                "connected": sum(1 for c in h.conns.values() if c.welcomed and not c.closing)}


@dataclass
class Room:
    """Every table of one SSH room, and the accounts of the names the SSH layer verified."""

    turn_timeout: float = 60.0
    delay: float = 0.6
    hand_pause: float = 4.0
    start_countdown: float = 5.0
    max_tables: int = MAX_TABLES
    empty_close: float = EMPTY_CLOSE
    tables: dict[int, RoomTable] = field(default_factory=dict)
    _numbers: Any = field(default_factory=lambda: itertools.count(1))
    _uids: dict[str, int] = field(default_factory=dict)
    _next_uid: Any = field(default_factory=lambda: itertools.count(1_000_000))
    _reaper: asyncio.Task[None] | None = None

    # -- who ------------------------------------------------------------------------------
    def account(self, name: str, *, watcher: bool = False) -> Account:
        """The account of a verified name: one number per name for the room's life (the seat
        identity), a fresh one for each keyless watcher."""
        from pokeroulette_tui.net.ssh.keys import name_key

        if watcher:
            return Account(next(self._next_uid), name)
        key = name_key(name)
        uid = self._uids.get(key)
        if uid is None:
            uid = self._uids[key] = next(self._next_uid)
        return Account(uid, name)

    # -- tables ------------------------------------------------------------------------------
    def listing(self) -> list[dict[str, Any]]:
        return [t.summary() for t in sorted(self.tables.values(), key=lambda t: t.number)]

    def create(self, creator: str, rules: RuleSet, *, variant: str, bots: int = 0,
               bot_level: str = "simple") -> RoomTable:
        """Open a table (headless: it deals once everyone seated is ready; its first person
        seated leads it: bots, removing a seat, starting at once)."""
        from pokeroulette_tui.bots import LEVELS

        if len(self.tables) >= self.max_tables:
            raise RoomError(_("the room is full of tables; join one, or try again later"))
        mine = sum(1 for t in self.tables.values() if t.creator.casefold() == creator.casefold())
        if mine >= TABLES_PER_NAME:
            raise RoomError(ngettext("you have {n} table open already; join it",
                                     "you have {n} tables open already; join one of them",
                                     mine).format(n=mine))
        if bot_level not in LEVELS:
            bot_level = "random"
        bots = max(0, min(bots, rules.max_players - 1))
        config = HostConfig(rules=rules, turn_timeout=self.turn_timeout, delay=self.delay,
                            hand_pause=self.hand_pause, bots=bots, bot_level=bot_level,
                            headless=True, start_countdown=self.start_countdown, lobby_timeout=3600.0,
                            max_spectators=64)
        host, server = shared_language_context().run(self._open, config)
        now = asyncio.get_running_loop().time()
        table = RoomTable(next(self._numbers), creator, variant, host, server, now, now)
        self.tables[table.number] = table
        self._start_reaper()
        log.info("table %s (%s) opened by %s", table.number, variant, creator)
        return table

    @staticmethod
    def _open(config: HostConfig) -> tuple[TableHost, TableServer]:
        host = TableHost(config)
        server = TableServer(host)
        server.run()
        return host, server

    def session(self, number: int, account: Account, *, spectate: bool = False) -> RoomSession:
        """A session at table ``number`` for ``account`` (connect it to sit down or watch)."""
        table = self.tables.get(number)
        if table is None:
            raise RoomError(_("table {number} has closed").format(number=number))
        return RoomSession(table, account, spectate=spectate)

    def _start_reaper(self) -> None:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.create_task(self._reap(), name="room-reaper",
                                               context=shared_language_context())

    async def _reap(self) -> None:
        """Close tables nobody is at (sooner once their game is over)."""
        loop = asyncio.get_running_loop()
        while self.tables:
            await asyncio.sleep(min(5.0, self.empty_close / 4 or 1.0))
            now = loop.time()
            for table in list(self.tables.values()):
                info = table.summary()
                if info["connected"]:
                    table.last_seen = now
                    continue
                limit = min(30.0, self.empty_close) if info["state"] == "over" else \
                    self.empty_close
                if now - table.last_seen >= limit:
                    await self.close_table(table.number)

    async def close_table(self, number: int) -> None:
        table = self.tables.pop(number, None)
        if table is not None:
            log.info("table %s closed", number)
            await table.server.close()

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for number in list(self.tables):
            await self.close_table(number)


class _RoomLink:
    """Where a room session's table is, in words (what a Unix target says elsewhere)."""

    def __init__(self, number: int) -> None:
        self.number = number

    def describe(self) -> str:
        return _("table {number} of this room").format(number=self.number)


class RoomSession(RemoteSession):
    """A seat (or a watcher's chair) at one of the room's tables, over an in-process socket
    pair. The account comes from the SSH login; the hello's name is only a courtesy."""

    def __init__(self, table: RoomTable, account: Account, *, spectate: bool = False) -> None:
        super().__init__("room", 0, account.login, spectate=spectate, reconnect=False,
                         connect_timeout=10.0)
        self.table = table
        self.account = account
        self.unix = _RoomLink(table.number)  # type: ignore[assignment]  # (the lobby's words)

    def connection_note(self) -> str:
        """The lobby's words for this connection (``ui.screens.lobby.connection_line``)."""
        if self.account.login == WATCH:
            return _("Connection: SSH to this card room (watching, without a key)")
        return _("Connection: SSH to this card room (your key proves your name)")

    async def _open(self) -> dict[str, Any]:
        mine, theirs = socket.socketpair()
        try:
            await self.table.server.attach(theirs, self.account)
            reader, writer = await asyncio.open_connection(sock=mine, limit=self.limit)
        except OSError as exc:
            mine.close()
            theirs.close()
            from pokeroulette_tui.net.client import ConnectError
            raise ConnectError(_("cannot reach the table ({problem})").format(
                problem=exc.strerror or exc)) from None
        return await self._hello(reader, writer)
