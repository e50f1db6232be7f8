"""``serve-ssh --per-process``: a session's app runs in a child process of its own, and
reaches the room (which stays in the server) through a control socket inherited at birth.

One JSON line a request, one answer a line; ``sit`` answers with a connected socket of the
table (passed with SCM_RIGHTS) whose seat is the account the SSH layer verified, so the
child never says who it is. The child's calls are blocking and short (the room answers at
once); the list is fetched at most once a second.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from typing import Any

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.net.client import ConnectError, RemoteSession
from pokeroulette_tui.net.identity import Account
from pokeroulette_tui.net.ssh.keys import WATCH
from pokeroulette_tui.net.ssh.room import Room, RoomError

log = logging.getLogger("pokeroulette.ssh")

MAX_REQUEST = 64 * 1024


# -- the server's side ---------------------------------------------------------------------------

async def serve_control(sock: socket.socket, room: Room, account: Account, *,
                        watcher: bool) -> None:
    """Answer one child's requests until it closes its end."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    buf = b""
    try:
        while True:
            data = await loop.sock_recv(sock, 65536)
            if not data:
                return
            buf += data
            if len(buf) > MAX_REQUEST:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                answer, fd = await _answer(line, room, account, watcher)
                out = json.dumps(answer).encode() + b"\n"
                if fd is None:
                    await loop.sock_sendall(sock, out)
                else:
                    try:
                        await _send_fd(loop, sock, out, fd)
                    finally:
                        fd.close()
    except (OSError, ConnectionError):
        return
    finally:
        sock.close()


async def _send_fd(loop: asyncio.AbstractEventLoop, sock: socket.socket, data: bytes,
                   fd: socket.socket) -> None:
    while True:
        try:
            socket.send_fds(sock, [data], [fd.fileno()])
            return
        except BlockingIOError:
            await asyncio.sleep(0.01)


async def _answer(line: bytes, room: Room, account: Account,
                  watcher: bool) -> tuple[dict[str, Any], socket.socket | None]:
    try:
        msg = json.loads(line)
        op = msg["op"]
        if op == "list":
            return {"tables": room.listing()}, None
        if op == "create":
            if watcher:
                raise RoomError(_("watchers open no tables"))
            rules = RuleSet.from_dict(msg["rules"])
            table = room.create(account.login, rules, variant=str(msg["variant"])[:40],
                                bots=int(msg["bots"]), bot_level=str(msg["bot_level"]))
            return {"number": table.number}, None
        if op == "sit":
            number = int(msg["number"])
            table = room.tables.get(number)
            if table is None:
                raise RoomError(_("table {number} has closed").format(number=number))
            mine, theirs = socket.socketpair()
            await table.server.attach(theirs, account)
            return {"ok": True}, mine
        return {"error": "unknown request"}, None
    except RoomError as exc:
        return {"error": str(exc)}, None
    except (ValueError, KeyError, TypeError, RuleError) as exc:
        return {"error": f"bad request ({exc.__class__.__name__})"}, None


# -- the child's side --------------------------------------------------------------------------

class ProxyTable:
    def __init__(self, number: int) -> None:
        self.number = number


class ProxyRoom:
    """The room as a child process sees it: the same calls the room's screens make."""

    def __init__(self, fd: int, *, timeout: float = 10.0) -> None:
        self.sock = socket.socket(fileno=fd)
        self.sock.settimeout(timeout)
        self._buf = b""
        self._listing: list[dict[str, Any]] = []
        self._listed = float("-inf")

    def _ask(self, request: dict[str, Any], *, fd: bool = False
             ) -> tuple[dict[str, Any], socket.socket | None]:
        try:
            self.sock.sendall(json.dumps(request).encode() + b"\n")
            got: socket.socket | None = None
            while b"\n" not in self._buf:
                if fd:
                    data, fds, _flags, _addr = socket.recv_fds(self.sock, 65536, 1)
                    if fds:
                        got = socket.socket(fileno=fds[0])
                else:
                    data = self.sock.recv(65536)
                if not data:
                    raise RoomError(_("the room has closed"))
                self._buf += data
        except OSError as exc:
            raise RoomError(_("the room does not answer ({problem})").format(
                problem=exc.__class__.__name__)) from None
        line, self._buf = self._buf.split(b"\n", 1)
        answer = json.loads(line)
        if "error" in answer:
            if got is not None:
                got.close()
            raise RoomError(str(answer["error"]))
        return answer, got

    def listing(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        if now - self._listed >= 1.0:
            self._listing = self._ask({"op": "list"})[0]["tables"]
            self._listed = now
        return self._listing

    def create(self, creator: str, rules: RuleSet, *, variant: str, bots: int = 0,
               bot_level: str = "simple") -> ProxyTable:
        answer, _sock = self._ask({"op": "create", "rules": rules.to_dict(), "variant": variant,
                               "bots": bots, "bot_level": bot_level})
        self._listed = float("-inf")
        return ProxyTable(int(answer["number"]))

    def session(self, number: int, account: Account, *, spectate: bool = False) -> SocketSession:
        return SocketSession(self, number, account, spectate=spectate)


class _Where:
    def __init__(self, number: int) -> None:
        self.number = number

    def describe(self) -> str:
        return _("table {number} of this room").format(number=self.number)


class SocketSession(RemoteSession):
    """A seat at a room's table over the socket the room hands over (``sit``)."""

    def __init__(self, room: ProxyRoom, number: int, account: Account, *,
                 spectate: bool = False) -> None:
        super().__init__("room", 0, account.login, spectate=spectate, reconnect=False)
        self.proxy, self.number = room, number
        self.account = account
        self.unix = _Where(number)  # type: ignore[assignment]  # (the lobby's words)

    def connection_note(self) -> str:
        """The lobby's words for this connection (``ui.screens.lobby.connection_line``)."""
        if self.account.login == WATCH:
            return _("Connection: SSH to this card room (watching, without a key)")
        return _("Connection: SSH to this card room (your key proves your name)")

    async def _open(self) -> dict[str, Any]:
        try:
            _answer, sock = self.proxy._ask({"op": "sit", "number": self.number,
                                       "spectate": self.spectate}, fd=True)
        except RoomError as exc:
            raise ConnectError(str(exc)) from None
        if sock is None:
            raise ConnectError(_("the room sent no connection"))
        reader, writer = await asyncio.open_connection(sock=sock, limit=self.limit)
        return await self._hello(reader, writer)
