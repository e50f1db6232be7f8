"""A seat at a casino table hosted elsewhere: :class:`RemoteCasino`, the casino session over
the network, and :func:`plays_casino`, the probe ``pokeroulette join`` asks first.

The connection is the card table's: TCP, TLS with the host's certificate checked against the
pin or ``--fingerprint`` before anything is sent (:mod:`pokeroulette_tui.net.tls`), the same
check of who serves a port on this machine, and the seat's token kept for coming back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections.abc import Callable
from typing import Any

from pokeroulette_tui.engine.casino.board import Bet, BetError
from pokeroulette_tui.engine.casino.game import Casino, CasinoError, Stage
from pokeroulette_tui.engine.casino.paytable import PayTable
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import casino_wire as W
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.casino_session import CasinoSession, CasinoUpdate, SeatInfo
from pokeroulette_tui.net.client import ConnectError, connect_failed, try_again
from pokeroulette_tui.net.messages import heard as _heard
from pokeroulette_tui.net.unix import account_of, loopback_peer_uid


def heard(text: str) -> str:
    """A host's sentence for the screen: in this player's language when it is a known one,
    and never with a control, escape or bidi character of a hostile host's making."""
    return P.clean_text(_heard(text), 300)

log = logging.getLogger("pokeroulette.net.client")


def plays_casino(host: str, port: int, *, tls: bool, timeout: float = 5.0) -> bool:
    """True when the table at ``host:port`` is a casino table. Nothing is sent but a
    ``which`` line (no name, password or token), so the certificate is not checked here:
    the real connection checks it before saying hello."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            sock: Any = raw
            if tls:
                from pokeroulette_tui.net import tls as T
                sock = T.client_context().wrap_socket(raw, server_hostname=None)
            sock.sendall(P.encode({"type": "which"}))
            data = b""
            while b"\n" not in data and len(data) < 4096:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
    except ssl.SSLError:  # a table without TLS: if it is a casino table, its session says
        return tls and plays_casino(host, port, tls=False, timeout=timeout)  # to use --no-tls
    except (OSError, ValueError):
        return False
    try:
        msg = P.decode(data.split(b"\n", 1)[0])
    except P.ProtocolError:
        return False
    return msg.get("type") == "which" and msg.get("game") == W.GAME


class RemoteCasino(CasinoSession):
    """This terminal's seat at a casino table across the network."""

    networked = True

    def __init__(self, host: str, port: int, name: str, *, password: str | None = None,
                 token: str | None = None, tls: bool = True, fingerprint: str | None = None,
                 known: Any = None, server_uid: int | None = None,
                 on_token: Callable[[str], None] | None = None, connect_timeout: float = 10.0,
                 answer_timeout: float = 15.0,
                 retry_delays: tuple[float, ...] = (0.5, 1, 2, 3, 5, 5, 10),
                 gone_after: float = 15.0) -> None:
        self.host, self.port, self.name = host, port, name
        self.password, self.token = password, token
        self.tls, self.fingerprint, self.known = tls, fingerprint, known
        self.server_uid = server_uid
        self.on_token = on_token
        self.connect_timeout, self.answer_timeout = connect_timeout, answer_timeout
        # as a card table's (RemoteSession): tried again after each delay, but for no more
        # than ``gone_after`` seconds of "nothing listens there" (the host's process ended)
        self.retry_delays = retry_delays
        self.gone_after = gone_after
        self.tls_note = ""
        self.seat: int | None = None
        self.seats = ()
        self.welcome: dict[str, Any] = {}
        self.pay_table: PayTable | None = None
        self._casino: Casino | None = None
        self._seat_info: list[tuple[bool, bool]] = []
        self._queue: asyncio.Queue[CasinoUpdate] = asyncio.Queue()
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = 0
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._closed = False
        self.connected = False
        self._last_bets: list[Bet] = []  # this seat's bets in the last round settled
        self.restarted = False  # the host did not know the seat we came back to …
        self._tell_restarted = False  # … which the player is told with its first state
        self.unreadable = ""  # why the host's last message could not be read ("": it could)
        self._unreadable_said = False  # (once a connection)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    # -- connecting -----------------------------------------------------------------------
    async def connect(self) -> dict[str, Any]:
        """Open the connection and take the seat; ConnectError with the reason."""
        welcome = await self._open()
        self._task = asyncio.create_task(self._read_loop(), name="casino-session")
        return welcome

    def restarted_words(self) -> str:
        """What a player is told when the table no longer knows their seat (restarted, or
        another table on that port)."""
        return _("The table was restarted: your bets are gone; bankrolls start again at "
                 "{amount:,}.").format(amount=START_BANKROLL)  # (one line: the hint line's)

    async def _open(self) -> dict[str, Any]:
        context = None
        if self.tls:
            from pokeroulette_tui.net import tls as T
            context = T.client_context()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                self.host, self.port, limit=P.CLIENT_MAX_LINE, ssl=context), self.connect_timeout)
        except ssl.SSLError:
            raise ConnectError(_("{address} does not speak TLS: if its host started the table "
                                 "with --no-tls, join with --no-tls (and only on a network you "
                                 "trust)").format(address=self.address)) from None
        except (TimeoutError, OSError) as exc:
            raise connect_failed(exc, self.address) from None
        problem = self._check_server(writer)
        if problem:
            writer.close()
            raise ConnectError(problem)
        try:
            sent_token = bool(self.token)
            writer.write(P.encode(W.hello(self.name, password=self.password or "",
                                          token=self.token or "")))
            await writer.drain()
            while True:
                line = await asyncio.wait_for(reader.readline(), self.connect_timeout)
                if not line:
                    raise ConnectError(_("the server closed the connection"))
                msg = P.decode(line)
                if msg["type"] == "error":
                    raise ConnectError(heard(str(msg.get("message") or "")) or _("refused"))
                if msg["type"] == "welcome":
                    break
            if msg.get("game") != W.GAME:
                raise ConnectError(_("{address} is not a casino table").format(
                    address=self.address))
            table = W.read_table(msg)
            seat = msg.get("seat")
            if type(seat) is not int:
                raise ConnectError(_("the server did not answer properly (no seat)"))
        except ConnectError:
            writer.close()
            raise
        except (TimeoutError, OSError, ValueError, P.ProtocolError) as exc:
            writer.close()
            raise ConnectError(_("the server did not answer properly ({problem})").format(
                problem=getattr(exc, "message", type(exc).__name__))) from None
        self._reader, self._writer = reader, writer
        self.connected = True
        self._unreadable_said = False
        self.welcome, self.pay_table, self.seat = msg, table, seat
        self.seats = (seat,)
        if isinstance(msg.get("name"), str):
            self.name = msg["name"]
        token = msg.get("token")
        # a host gives a token only with a new seat: one that got ours and gave a new one
        # does not know our seat (restarted, or another table on that port)
        self.restarted = bool(sent_token and isinstance(token, str) and token)
        self._tell_restarted = self.restarted
        if isinstance(token, str) and token:
            self.token = token
            if self.on_token is not None:
                self.on_token(token)
        if self._casino is None:
            self._casino = Casino(table, [], table.jackpot_seed * 100)
        return msg

    def _check_server(self, writer: asyncio.StreamWriter) -> str:
        uid = loopback_peer_uid(writer)
        if uid is not None:
            if self.server_uid is None:
                self.server_uid = uid
            elif uid != self.server_uid:
                return _("{address} is now served by {login}, not {expected}: someone else "
                         "took the port; your password and token were not sent").format(
                    address=self.address, login=account_of(uid).login,
                    expected=account_of(self.server_uid).login)
        if not self.tls:
            return ""
        from pokeroulette_tui.net import tls as T
        try:
            seen = T.peer_fingerprint(writer.get_extra_info("ssl_object"))
            self.tls_note = T.check_pin(self.address, seen, expected=self.fingerprint,
                                        known=self.known)
        except (T.PinError, ValueError) as exc:
            return _("{problem}; your password and token were not sent").format(problem=exc)
        return ""

    # -- reading ------------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        reason = _("the server closed the connection")
        while True:
            reason, retry = await self._pump()
            self._lost()
            if self._closing or not retry or not self.token:
                break
            self._queue.put_nowait(CasinoUpdate(note=_("Connection lost ({why}); "
                                                       "reconnecting…").format(why=reason),
                                                error=True))
            if await self._reconnect():
                if self.restarted:
                    self._last_bets = []  # (those of the table that is gone; said with its
                    # first state, see _handle)
                elif not self.unreadable:  # (else: what it sends now says how things are)
                    self._queue.put_nowait(CasinoUpdate(note=_(
                        "Reconnected: your seat, bankroll and bets are as you left them.")))
                continue
            reason = _("could not reconnect: {why}").format(why=reason)
            break
        self._finish(reason)

    async def _pump(self) -> tuple[str, bool]:
        assert self._reader is not None
        try:
            while True:
                line = await self._reader.readline()
                if not line.endswith(b"\n"):
                    return _("the server closed the connection"), True
                try:
                    msg = P.decode(line)
                    done = self._handle(msg)
                except P.ProtocolError as exc:
                    log.warning("bad message from the casino host: %s", exc.message)
                    self._unreadable(exc.message)
                    continue
                if done is not None:
                    return done, False
        except ValueError:
            return _("a message from the server was too long"), False
        except (ConnectionError, OSError):
            return _("the connection was reset"), True

    def _unreadable(self, problem: str) -> None:
        """A message from the host that this program cannot read: said on the screen once a
        connection (each one is logged), so that a host sending only such messages shows why
        the table stays empty, not a blank screen."""
        self.unreadable = P.clean_text(problem, 120)
        if self._unreadable_said:
            return
        self._unreadable_said = True
        self._queue.put_nowait(CasinoUpdate(note=self.unreadable_words(), error=True))

    def unreadable_words(self) -> str:
        """The host's messages cannot be read, in words ("": they can)."""
        if not self.unreadable:
            return ""
        return _("The host at {address} sends messages this program cannot read "
                 "({problem}).").format(address=self.address, problem=self.unreadable)

    def _handle(self, msg: dict[str, Any]) -> str | None:
        """Apply one message; returns why the session ends, if it does."""
        kind = msg["type"]
        if kind == "casino":
            assert self.pay_table is not None
            self._casino, self._seat_info, __ = W.read_state(msg, self.pay_table, self._casino)
            self.unreadable = ""
            players = self._casino.players
            if self.seat is not None and 0 <= self.seat < len(players) \
                    and "last_bets" not in msg["players"][self.seat]:
                mine = players[self.seat]  # an older host: last round's bets as seen here
                if self._casino.stage is Stage.SETTLED:
                    self._last_bets = [r.bet for r in mine.results]
                mine.last_bets = list(self._last_bets)
            loop = asyncio.get_running_loop()
            closes, nxt = msg.get("closes_in"), msg.get("next_in")
            self.closes_at = loop.time() + closes if type(closes) in (int, float) else None
            self.next_at = loop.time() + nxt if type(nxt) in (int, float) else None
            settled = self._casino.stage is Stage.SETTLED and self._last_stage is not Stage.SETTLED
            self._last_stage = self._casino.stage
            self._queue.put_nowait(CasinoUpdate(settled=settled))
            if self._tell_restarted:  # after the host's news of the new seat, so that the
                self._tell_restarted = False  # last word on the screen is this one
                self._queue.put_nowait(CasinoUpdate(note=self.restarted_words(), error=True))
        elif kind in ("ok", "error"):
            ref = msg.get("id")
            fut = self._pending.pop(ref, None) if type(ref) is int else None
            if fut is not None and not fut.done():
                fut.set_result(msg)
            elif kind == "error":
                if msg.get("fatal"):
                    return heard(str(msg.get("message") or "")) or _("closed by the server")
                self._queue.put_nowait(CasinoUpdate(note=heard(str(msg.get("message", ""))),
                                                    error=True))
        elif kind == "notice":
            self._queue.put_nowait(CasinoUpdate(note=heard(str(msg.get("text", "")))))
        elif kind == "bye":
            return heard(str(msg.get("reason") or "")) or _("the host closed the table")
        return None

    _last_stage: Stage | None = None

    def _lost(self) -> None:
        self.connected = False
        if self._writer is not None:
            self._writer.close()
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(CasinoError(_("the connection to the table was lost")))
        self._pending.clear()

    async def _reconnect(self) -> bool:
        back, __ = await try_again(self._open, self.retry_delays, self.gone_after,
                                   lambda: self._closing)
        return back

    def _finish(self, why: str) -> None:
        if self._closed:
            return
        self._closed = True
        self.closed_because = why
        self.connected = False
        self._queue.put_nowait(CasinoUpdate(note=why, closed=True, error=True))

    # -- asking ------------------------------------------------------------------------------
    async def _ask(self, request: str, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its answer: the ``ok``, or CasinoError with the
        host's words."""
        if not self.connected or self._writer is None:
            raise CasinoError(_("not connected to the table"))
        self._ids += 1
        ref = self._ids
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = fut
        try:
            self._writer.write(P.encode(W.request(request, ref, **fields)))
            await self._writer.drain()
        except (ConnectionError, OSError):
            self._pending.pop(ref, None)
            raise CasinoError(_("the connection to the table was lost")) from None
        try:
            answer = await asyncio.wait_for(fut, self.answer_timeout)
        except TimeoutError:
            self._pending.pop(ref, None)
            raise CasinoError(_("the table did not answer")) from None
        if answer.get("type") == "error":
            text = heard(str(answer.get("message") or "")) or _("refused")
            raise CasinoError(text[:1].lower() + text[1:])
        return answer

    @property
    def casino(self) -> Casino:
        assert self._casino is not None, "connect() first"
        return self._casino

    def seat_info(self, seat: int) -> SeatInfo:
        if 0 <= seat < len(self._seat_info):
            connected, ready = self._seat_info[seat]
            return SeatInfo(connected=connected, ready=ready)
        return SeatInfo()

    async def place(self, seat: int, kind: str, target: str, amount: int) -> Bet:
        answer = await self._ask("bet", kind=str(kind), target=target, amount=amount)
        try:
            return Bet.from_dict(answer.get("bet"))
        except BetError:
            raise CasinoError(_("the table's answer did not fit")) from None

    async def undo(self, seat: int) -> None:
        await self._ask("undo")

    async def clear(self, seat: int) -> None:
        await self._ask("clear")

    async def rebet(self, seat: int) -> None:
        await self._ask("rebet")

    async def deal(self, seat: int) -> str:
        mine = self.casino.players[seat]
        if not mine.bets and not any(p.bets for p in self.casino.players):
            raise CasinoError(_("place a bet first"))
        await self._ask("ready", ready=True)
        return ""  # (the screen says who the table waits for)

    async def next_round(self, seat: int) -> str:
        await self._ask("ready", ready=True)
        return _("Ready for the next round.")

    async def reset_bankroll(self, seat: int) -> None:
        await self._ask("rebuy")

    closed_because = ""

    async def close(self) -> str:
        was_closed = self._closed and not self._closing
        self._closing = True
        if self._writer is not None and self.connected:
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                self._writer.write(P.encode({"type": "quit"}))
                await asyncio.wait_for(self._writer.drain(), 2.0)
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.connected = False
        if was_closed:
            return _("The casino table at {address} closed ({why}). Play money only.").format(
                address=self.address, why=self.closed_because)
        from pokeroulette_tui.net.launch import left_words  # (the card table's words too)

        return left_words(self.address, what="casino")
