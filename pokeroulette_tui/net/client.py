"""RemoteSession: a table across the network, behind the same Session interface as a local one.

The UI cannot tell the difference: ``view()`` is the latest SeatView the server sent for this
seat, ``act()`` sends an intent and raises IllegalAction with the server's reason, and
``updates()`` yields the redacted events, chat and connection news (``Update.note``) and the
turn timer (``Update.deadline``, in event-loop time). Lobby calls (ready, chat, start, bots)
and the deck check (``fairness``) are extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import ssl
import logging
import re
import textwrap
import zlib
from typing import Any, AsyncIterator, Callable, ClassVar

from pokeroulette_tui.engine.actions import Action, IllegalAction, Leave
from pokeroulette_tui.engine.events import Event, add_to_history
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckVerifier, shown_cards
from pokeroulette_tui.net.server import reap
from pokeroulette_tui.net.unix import Target, UnixError, account_of, loopback_peer_uid, open_verified
from pokeroulette_tui.session import Session, Update, queued_updates

log = logging.getLogger("pokeroulette.net.client")

HISTORY_HANDS = 50
"""Hands of events a client keeps for the hand history (as the local table does)."""

_DEFAULTS: dict[str, Any] = {"seat": None, "cards": [], "amount": 0, "private": False,
                             "public_text": ""}
_NOT_DEFAULT = object()


def table_ended_reasons() -> tuple[str, ...]:
    """The host's goodbyes that mean the table itself ended (in this player's language)."""
    return (_("the game is over"), _("the host closed the table"))


def pack_hand(hand: list[Event]) -> bytes:
    """A finished hand as the client keeps it: its events' fields that differ from the
    defaults, as JSON, deflated (some 0.6 KB a hand rather than some 4 KB of event objects);
    :func:`unpack_hand` gives the same events back.

    >>> from pokeroulette_tui.engine.events import Checked, Folded
    >>> hand = [Folded("Bo folds", seat=1, hand_no=3), Checked("Ana checks", seat=0, hand_no=3)]
    >>> unpack_hand(pack_hand(hand)) == hand
    True
    """
    data = [{k: v for k, v in e.to_dict().items() if _DEFAULTS.get(k, _NOT_DEFAULT) != v}
            for e in hand]
    packer = zlib.compressobj(6, zlib.DEFLATED, -12, 4)  # a 4 KB window: a hand's size
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return packer.compress(text) + packer.flush()


def unpack_hand(blob: bytes) -> list[Event]:
    """The events of a hand :func:`pack_hand` kept."""
    return [Event.from_dict(e) for e in json.loads(zlib.decompress(blob, -12))]


class _Gap(Exception):
    """A state delta that does not follow the last state line."""

    def __init__(self, base: int, serial: int | None) -> None:
        super().__init__(f"a state delta on line {base} came after line {serial}: reconnecting")


class ConnectError(Exception):
    """The table could not be joined; the message says why (the server's words if it answered).
    ``retry``: nobody answered, so trying again later may help. ``gone``: the machine answered
    that nothing listens there (a refused connection, a socket nobody serves): the table is not
    running, which a reconnection waits out only briefly (:attr:`RemoteSession.gone_after`)."""

    def __init__(self, message: str, *, retry: bool = False, gone: bool = False) -> None:
        super().__init__(message)
        self.retry = retry
        self.gone = gone


def refused(exc: BaseException | None) -> bool:
    """True when a failed connection says nothing listens there: refused (also each of
    the addresses a name gave, which asyncio reports as one OSError), or a Unix socket
    that is missing or refused. Not a timeout, nor an unreachable network: those may be
    a blip.

    >>> refused(ConnectionRefusedError(111, "Connect call failed")), refused(TimeoutError())
    (True, False)
    >>> refused(OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 7), "
    ...                 "[Errno 111] Connect call failed ('127.0.0.1', 7)"))
    True
    """
    if isinstance(exc, (ConnectionRefusedError, FileNotFoundError)):
        return True
    if isinstance(exc, OSError) and exc.errno is None:
        codes = re.findall(r"\[Errno (\d+)\]", str(exc))
        return bool(codes) and all(int(c) == errno.ECONNREFUSED for c in codes)
    return False


def fitted_lost_note(why: str, hint: str, *, width: int = 78, lines: int = 3) -> str:
    """The line a table lost for good shows (:attr:`RemoteSession.link_note`): why, press q,
    then ``hint`` (how to come back), wrapped in at most ``lines`` lines of ``width``
    columns after the "⚠ " the table screen puts first (LinkLine: 80 columns less its
    padding). A long ``why`` is shortened (at a space) to make room for the hint, or left
    out when less than half of it would be left; a hint that cannot fit even so is left to
    the lobby's notice and the farewell.

    >>> fitted_lost_note("the game is over", "")
    'Disconnected (the game is over): press q to quit'
    >>> fitted_lost_note("could not reconnect: " + "so many words " * 20,
    ...                  "Come back with: pokeroulette join @ana")[-86:]
    'so many words so many words…): press q to quit. Come back with: pokeroulette join @ana'
    """
    plain = _("Disconnected ({why}): press q to quit").format(why=why)
    if not hint:
        return plain

    def fits(text: str) -> bool:
        # (as the screen wraps: at spaces, a word longer than a line cut; not at hyphens)
        return len(textwrap.wrap("⚠ " + text, width, break_on_hyphens=False)) <= lines

    def note(reason: str) -> str:
        return _("Disconnected ({why}): press q to quit. {hint}").format(why=reason, hint=hint)

    if fits(note(why)):
        return note(why)
    words = why.split(" ")
    while len(words) > 1:
        words.pop()
        shorter = " ".join(words).rstrip(" ,;:") + "…"
        if len(shorter) < max(24, len(why) // 2):  # ("could not reconnect: the…": no)
            break
        if fits(note(shorter)):
            return note(shorter)
    bare = _("Disconnected: press q to quit. {hint}").format(hint=hint)
    return bare if fits(bare) else plain


async def try_again(open_: Callable[[], Any], delays: tuple[float, ...], gone_after: float,
                    closing: Callable[[], bool]) -> tuple[bool, str]:
    """A lost connection tried again (``await open_()``) after each of ``delays`` while the
    table cannot be reached (a blip), but for only ``gone_after`` seconds of answers that
    nothing listens there (:attr:`ConnectError.gone`: the table's process ended), and never
    after a refusal that trying again will not change. (True, "") once it is back; (False,
    the last failure's words) when it gave up, or "" when ``closing()`` said to stop."""
    loop = asyncio.get_running_loop()
    gone_since: float | None = None  # (the first of the latest "nothing listens there")
    last = ""
    for delay in delays:
        await asyncio.sleep(delay)
        if closing():
            return False, ""
        try:
            await open_()
        except ConnectError as exc:
            last = str(exc)
            if not exc.retry:
                break  # refused by the table, or someone else listens there
            if not exc.gone:
                gone_since = None
            elif gone_since is None:
                gone_since = loop.time()
            elif loop.time() - gone_since >= gone_after:
                break  # the table is not running: no use waiting a minute
            continue
        return True, ""
    return False, last


def parse_address(text: str, default_port: int = 7777) -> tuple[str, int]:
    """``HOST[:PORT]`` (IPv6 as ``[::1]:7777``) to a host and a port.

    >>> parse_address("192.168.1.5"), parse_address("example.org:8000"), parse_address("[::1]:9")
    (('192.168.1.5', 7777), ('example.org', 8000), ('::1', 9))
    """
    text = text.strip()
    host, port = text, default_port
    if text.startswith("["):
        host, __, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = _port(rest[1:])
    elif text.count(":") == 1:
        host, __, p = text.partition(":")
        port = _port(p)
    if not host:
        raise ConnectError(f"{text!r} is not an address (try HOST or HOST:PORT)")
    problem = host_problem(host)
    if problem:
        raise ConnectError(problem)
    return host, port


def host_problem(host: str) -> str:
    """"" when ``host`` can be a host name or an address to look up, else why not, in one
    line (bytes that are not UTF-8 on the command line, control characters, empty or
    overlong labels: what the resolver could only fail on with a traceback).

    >>> host_problem("example.org"), host_problem("::1"), host_problem("0.0.0.0")
    ('', '', '')
    >>> host_problem("a..b")
    "'a..b' is not a host name or an address"
    """
    if not host.isprintable():  # (bytes that are not UTF-8 arrive as unprintable surrogates)
        return _("{host} is not a host name or an address: it holds control characters or "
                 "bytes that are not UTF-8 text").format(host=repr(host))
    try:
        host.encode("idna")
    except UnicodeError:
        return _("{host} is not a host name or an address").format(host=repr(host))
    return ""


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 0 < int(text) < 65536:
        raise ConnectError(_("{text} is not a port number (1-65535)").format(text=repr(text)))
    return int(text)


def connect_failed(exc: BaseException, address: str) -> ConnectError:
    """A TCP connection to ``address`` that could not be made, in words: ``gone`` when
    nothing listens there, else worth trying again (a timeout, no route, a name not found)."""
    if refused(exc):
        return ConnectError(_("the table at {address} is not running; nothing listens on that "
                              "port").format(address=address), retry=True, gone=True)
    why = _("timed out") if isinstance(exc, (TimeoutError, asyncio.TimeoutError)) else \
        getattr(exc, "strerror", None) or exc.__class__.__name__
    return ConnectError(_("cannot reach {address} ({why})").format(address=address, why=why),
                        retry=True)


class RemoteSession(Session):
    """A seat (or a spectator's chair) at a table hosted elsewhere."""

    has_lobby = True  # seats, ready and start before the first deal (game_started: dealt)

    def __init__(self, host: str, port: int, name: str, *, password: str | None = None,
                 token: str | None = None, spectate: bool = False, admin: str | None = None,
                 reconnect: bool = True, on_token: Callable[[str], None] | None = None,
                 deltas: bool = True,
                 connect_timeout: float = 10.0, act_timeout: float = 15.0,
                 retry_delays: tuple[float, ...] = (0.2, 0.5, 1, 2, 3, 5, 5, 5, 10, 10, 10, 10),
                 gone_after: float = 15.0,
                 limit: int = P.CLIENT_MAX_LINE, unix: Target | None = None,
                 server_uid: int | None = None, tls: bool = False,
                 fingerprint: str | None = None, known: Any = None) -> None:
        self.host, self.port, self.name = host, port, name
        # TCP to this machine: the account that must be serving (pinned on the first connect)
        self.server_uid = server_uid
        self.unix = unix  # a Unix-socket table: the kernel vouches for both ends
        # TCP with ``tls`` (the command line's default, unless --no-tls): the host's
        # certificate is checked against ``fingerprint`` or the pin in ``known``
        # (net.tls.KnownTables) before anything is sent
        self.tls = tls and unix is None
        self.fingerprint, self.known = fingerprint, known
        self.tls_note = ""  # what the certificate check said (a first visit pins it)
        self.password, self.token, self.spectate, self.admin = password, token, spectate, admin
        self.reconnect = reconnect
        self.on_token = on_token
        self.connect_timeout, self.act_timeout = connect_timeout, act_timeout
        # a lost connection is tried again after each of ``retry_delays`` (some 62 s in all:
        # a network blip, a timeout, an unreachable host may pass), but once the table's
        # machine has said for ``gone_after`` seconds that nothing listens there (the host's
        # process ended: refused, or its socket gone), no more: the table is not running
        self.retry_delays = retry_delays
        self.gone_after = gone_after
        self.limit = limit
        self.seat: int | None = None
        self.local_seats = ()
        self.rules = RuleSet()
        self.rules_wire: dict[str, Any] = self.rules.to_dict()  # as the lobby last sent them
        self.welcome: dict[str, Any] = {}
        self.lobby: dict[str, Any] = {}
        self.seats: list[dict[str, Any]] = []   # connected / away / bot, per seat
        # a connection just made (a join, a rejoin): its first state says whether the host
        # still has this seat away, and then ``back`` is sent (:meth:`_check_away`)
        self._fresh_link = False
        self._back_task: asyncio.Task[None] | None = None
        self.chat_lines: list[dict[str, Any]] = []
        self.version = 0
        self.deadline: float | None = None
        self.next_deal: float | None = None  # loop time of the next deal, during a result pause
        self.verifier = DeckVerifier()
        self.fairness = _("deck check: waiting for the first hand")
        self.connected = False
        # while not connected in a game: what the table screen says on a line of its own
        # ("Connection lost: reconnecting…", or why it ended); "" when connected
        self.link_note = ""
        # the connection's state in so many words: trying to get the connection back, and
        # ended (no more tries: lost, left, or the host ended it), with why when it was not
        # this terminal that ended it
        self.reconnecting = False
        self.ended = False
        self.end_reason = ""
        self.sent_away = False  # the host ended this connection with a word (a fatal error)
        # how to come back to this table once the connection is lost for good: a line, or a
        # callable that says it then (the app that shows the session sets it); the lost
        # note ends with it when it fits (:func:`fitted_lost_note`)
        self.way_back: str | Callable[[], str] = ""
        self.game_started = False
        self._unreadable: set[str] = set()  # message types said unreadable on this connection
        self._view: SeatView | None = None
        self.deltas = deltas      # asks the host for state deltas (PROTOCOL.md §4)
        self._view_wire: dict[str, Any] | None = None  # the last view as sent (deltas apply to it)
        self._serial: int | None = None                # … and its line's serial
        # the hand history: the hands before the last one packed (pack_hand), and the last
        # one (the hand being played) as events
        self._history: list[bytes] = []
        self._hand: list[Event] = []
        self._updates: asyncio.Queue[Update] = asyncio.Queue()
        # events on that queue not yet taken: they are in the history already
        # (history_before_updates leaves them out)
        self._queued_events = 0
        self._lobby_q: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = 0
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._send_lock = asyncio.Lock()
        self._closing = False
        self._closed = False
        # the host said the table itself ended (game over, host stopping): not a dropped or
        # replaced connection, whose reason the disconnect line gives
        self.table_closed = False
        self._started = asyncio.Event()
        self._alive: asyncio.Task[None] | None = None
        self.keepalive = 60.0  # seconds between pings
        self.history_more = False  # the host has older hands (ask with more_history())
        self._page: asyncio.Future[None] | None = None
        # leaving in a game: resolved once the host made this connection a spectator's
        # and sent its public view (:meth:`leave`)
        self._watching: asyncio.Future[None] | None = None

    # -- connecting -----------------------------------------------------------------
    async def connect(self) -> dict[str, Any]:
        """Open the connection and say hello; raises ConnectError with the reason."""
        welcome = await self._open()
        self._task = asyncio.create_task(self._read_loop(), name="remote-session")
        self._alive = asyncio.create_task(self._keep_alive(), name="remote-keepalive")
        return welcome

    async def _keep_alive(self) -> None:
        """A ping now and then, so the host knows a quiet watcher is still there (it closes
        spectators that say nothing for minutes)."""
        while not self._closing:
            await asyncio.sleep(self.keepalive)
            if self.connected:
                with contextlib.suppress(IllegalAction):
                    await self._send(M.Ping().to_wire())

    @property
    def address(self) -> str:
        """The table, in words: ``alice's table (/tmp/…/table.sock)`` or ``host:port``."""
        return self.unix.describe() if self.unix is not None else f"{self.host}:{self.port}"

    async def _open(self) -> dict[str, Any]:
        if self.unix is not None:
            try:  # checks who listens before a byte is sent
                reader, writer = await open_verified(self.unix, limit=self.limit,
                                                     timeout=self.connect_timeout)
            except UnixError as exc:  # (its cause: a socket missing or refused, or not)
                raise ConnectError(str(exc), retry=exc.retry,
                                   gone=exc.retry and refused(exc.__context__)) from None
            return await self._hello(reader, writer)
        context = None
        if self.tls:
            from pokeroulette_tui.net import tls
            context = tls.client_context()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port, limit=self.limit, ssl=context),
                self.connect_timeout)
        except ssl.SSLError:
            raise ConnectError(_("{address} does not speak TLS: if its host started the table "
                                 "with --no-tls, join with --no-tls (and only on a network you "
                                 "trust)").format(address=f"{self.host}:{self.port}")) from None
        except (OSError, asyncio.TimeoutError) as exc:
            raise connect_failed(exc, f"{self.host}:{self.port}") from None
        problem = self._check_tcp_server(writer) or self._check_certificate(writer)
        if problem:
            writer.close()
            raise ConnectError(problem)
        return await self._hello(reader, writer)

    def _check_certificate(self, writer: asyncio.StreamWriter) -> str:
        """TLS: the host's certificate must be the one pinned for this address (or given
        with --fingerprint); else nothing is sent. "" when it is."""
        if not self.tls:
            return ""
        from pokeroulette_tui.net import tls
        try:
            seen = tls.peer_fingerprint(writer.get_extra_info("ssl_object"))
            self.tls_note = tls.check_pin(f"{self.host}:{self.port}", seen,
                                          expected=self.fingerprint, known=self.known)
        except (tls.PinError, ValueError) as exc:
            return _("{problem}; your password and token were not sent").format(
                problem=str(exc).rstrip(". "))  # (one sentence: not "….; …")
        return ""

    def _check_tcp_server(self, writer: asyncio.StreamWriter) -> str:
        """On this machine, who serves the port: the same account every time (the first
        connection pins it), else nothing is sent (a squatter after a crash learns no
        password and no token)."""
        uid = loopback_peer_uid(writer)
        if uid is None:
            return ""
        if self.server_uid is None:
            self.server_uid = uid
            return ""
        if uid != self.server_uid:
            return _("{address} is now served by {login}, not {expected}: someone else took "
                     "the port; your password and token were not sent").format(
                address=f"{self.host}:{self.port}", login=account_of(uid).login,
                expected=account_of(self.server_uid).login)
        return ""

    async def _hello(self, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> dict[str, Any]:
        hello = M.Hello(name=self.name, spectate=self.spectate, password=self.password or "",
                        token=self.token or "", admin=self.admin or "", client="pokeroulette",
                        deltas=self.deltas)
        try:
            writer.write(P.encode(hello.to_wire()))
            await writer.drain()
            while True:
                line = await asyncio.wait_for(reader.readline(), self.connect_timeout)
                if not line:
                    raise ConnectError(
                        _("the server closed the connection") if self.tls or self.unix is not None
                        else _("the server closed the connection (if the table uses TLS, as "
                               "tables do unless hosted with --no-tls, join without --no-tls)"))
                msg = P.decode(line)
                if msg["type"] == M.Error.kind:
                    raise ConnectError(M.heard(M.Error.parse(msg).message))
                if msg["type"] == M.Welcome.kind:
                    welcome = M.Welcome.parse(msg)
                    break
        except ConnectError:
            writer.close()
            raise
        except (OSError, ValueError, asyncio.TimeoutError, P.ProtocolError) as exc:
            writer.close()
            raise ConnectError(_("the server did not answer properly ({problem})").format(
                problem=exc.__class__.__name__)) from None
        self._reader, self._writer = reader, writer
        self.connected = True
        self._fresh_link = True
        self.welcome = msg  # (as sent: the screens read it)
        self.hints_allowed = welcome.hints  # the host's say (Session.hints_allowed)
        self.seat = welcome.seat
        self.local_seats = () if self.seat is None else (self.seat,)
        if welcome.token:
            self.token = welcome.token
            if self.on_token is not None:
                self.on_token(self.token)
        if welcome.name:
            self.name = welcome.name
        return msg

    # -- reading ------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        while True:
            reason, retry = await self._pump()
            self._lost()
            if self._closing or not retry or not self.reconnect or not (
                    self.token or self.spectate or self.admin or self.unix):
                break
            if not await self._reconnect(reason):
                return
        self._finish(reason)

    async def _pump(self) -> tuple[str, bool]:
        """Read and apply messages until the connection ends: (why, whether to retry)."""
        assert self._reader is not None
        self._unreadable.clear()
        try:
            while True:
                line = await self._reader.readline()
                if not line.endswith(b"\n"):
                    return _("the server closed the connection"), True
                try:
                    msg = P.decode(line)
                except P.ProtocolError as exc:
                    self._note(_("a garbled message from the server was ignored "
                                 "({problem})").format(problem=exc.message))
                    continue
                try:
                    if not self._handle(msg):
                        why = M.heard(str(msg.get("reason") or msg.get("message") or "")) \
                            or _("closed by the server")
                        return why, False
                except _Gap as gap:
                    log.warning("%s", gap)
                    return _("a state update was missed"), True
                except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                    self._cannot_read(msg, str(exc))
        except ValueError:
            return _("a message from the server was too long"), False
        except (ConnectionError, OSError):
            return _("the connection was reset"), True

    def _lost(self) -> None:
        self.connected = False
        if self._writer is not None:
            self._writer.close()
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(IllegalAction(_("the connection to the table was lost")))
        self._pending.clear()

    async def _reconnect(self, reason: str) -> bool:
        """Try to get the connection back: after each of ``retry_delays`` while the table
        cannot be reached (a blip), but only for ``gone_after`` seconds of answers that
        nothing listens there (the host's process ended: a host that serves the table again
        in that time gets its players back). False, the session finished, when it gave up."""
        self.reconnecting = True
        self.link_note = _("Connection lost: reconnecting…")
        self._note(_("Connection lost ({why}); reconnecting…").format(why=reason))
        try:
            back, last = await try_again(self._open, self.retry_delays, self.gone_after,
                                         lambda: self._closing)
        finally:
            self.reconnecting = False
        if back:
            self.link_note = ""
            self._note(_("Reconnected: your seat, stack and cards are as you left them")
                       if self.seat is not None else _("Reconnected: watching the table"))
            return True
        if self._closing:
            return False
        self._finish(_("could not reconnect: {why}").format(why=last or reason))
        return False

    def _finish(self, note: str) -> None:
        if self._closed:
            return
        self._closed = True
        self.connected = False
        self.reconnecting = False
        self.ended = True
        if not self._closing:  # (not when this terminal closed it)
            self.end_reason = note
            self.link_note = fitted_lost_note(note, self._way_back())
        if self._watching is not None and not self._watching.done():
            self._watching.set_result(None)
        self._updates.put_nowait(Update(note=note, closed=True))
        self._lobby_q.put_nowait({"type": "closed", "reason": note})

    @property
    def lost_for_good(self) -> bool:
        """The connection ended, not by this terminal, and no more tries are made (the
        host may have ended the table: :attr:`table_closed`)."""
        return self.ended and not self._closing

    def _way_back(self) -> str:
        """:attr:`way_back` now, in a line ("" when unknown)."""
        try:
            hint = self.way_back() if callable(self.way_back) else self.way_back
        except Exception:  # (only words: never worth a traceback)
            log.exception("the way back to the table could not be said")
            return ""
        return " ".join(str(hint or "").split())

    def _note(self, text: str) -> None:
        if self.game_started:
            self._updates.put_nowait(Update(note=text))
        else:
            self._lobby_q.put_nowait(M.Notice(text).to_wire())

    def _cannot_read(self, msg: dict[str, Any], problem: str) -> None:
        """A known message with bad fields, skipped: logged each time, and said once a
        connection for each type (a host that sends only such states would otherwise leave
        an empty table with no word why)."""
        kind = str(msg.get("type"))
        log.warning("bad %s message from the server: %s", kind, problem)
        if kind not in self._unreadable:
            self._unreadable.add(kind)
            self._note(_("a message from the server that this program cannot read was "
                         "ignored ({problem}); more like it are only logged").format(
                             problem=P.clean_text(problem, 120)))

    def _handle(self, msg: dict[str, Any]) -> bool:
        """Apply one server message; False when the server is closing the connection. Types
        this client does not know are ignored (later additions); a known one with bad fields
        is logged and skipped (a bad deck commitment is the deck check's to report)."""
        kind = M.SERVER.get(msg["type"])
        if kind is None:
            return True
        if kind is M.State and "base" in msg:
            kind = M.StateDelta  # (only sent to a client that asked for deltas)
        try:
            m = kind.parse(msg)
        except P.ProtocolError as exc:
            if kind is M.Commit:
                return self._on_commit(None, msg)
            self._cannot_read(msg, exc.message)
            return True
        handler = self._handlers.get(kind)
        return True if handler is None else handler(self, m, msg)

    def _on_commit(self, m: M.Commit | None, msg: dict[str, Any]) -> bool:
        """The deck check reads the message as sent (and warns about a bad one)."""
        for problem in self.verifier.on_commit(msg):
            self._note("⚠ " + problem)
        return True

    def _on_notice(self, m: M.Notice, msg: dict[str, Any]) -> bool:
        self._note(M.heard(m.text))
        return True

    def _on_bye(self, m: M.Bye, msg: dict[str, Any]) -> bool:
        said = M.heard(m.reason)
        said = said[:1].lower() + said[1:]
        self.table_closed = said in table_ended_reasons()
        return False

    def _on_welcome(self, m: M.Welcome, msg: dict[str, Any]) -> bool:
        """A welcome after the first: the host says what this connection is now. Having
        left a game, it is a spectator's: no seat, public views only (its next state is
        whole), and a reconnection watches under the same name."""
        if m.seat is None and m.spectator and self.seat is not None:
            self.seat, self.local_seats, self.spectate = None, (), True
            self.token = None  # (the seat is gone: a token takes nothing back)
            self.welcome = msg
            self._serial = self._view_wire = None
        return True

    def _on_lobby(self, m: M.Lobby, msg: dict[str, Any]) -> bool:
        self.lobby = msg  # (as sent: the lobby screen reads it)
        if self.game_started and m.started:
            # during the game the lobby tells who is connected or away (someone dropped,
            # came back, was marked away): the seat lines show it without waiting for an action
            seats = [{"connected": s.connected, "away": s.away, "bot": s.bot is not None}
                     for s in m.seats]
            if seats != self.seats:
                self.seats = seats
                self._updates.put_nowait(Update())
        self.rules = RuleSet.from_dict(m.rules)
        self.rules_wire = m.rules
        if m.you is not None or self.spectate:
            self.seat = m.you
            self.local_seats = () if self.seat is None else (self.seat,)
        self._lobby_q.put_nowait(msg)
        return True

    def _on_history(self, m: M.History, msg: dict[str, Any]) -> bool:
        hands = [[Event.from_dict(e) for e in hand] for hand in m.hands]
        if m.page:  # older hands, asked for: before what we have
            packed = [pack_hand(h) for h in hands] + self._history
            total = len(packed) + bool(self._hand)
        else:
            self._hand = hands.pop() if hands else []
            packed, total = [pack_hand(h) for h in hands], len(hands) + bool(self._hand)
        self._history = packed[max(0, len(packed) + bool(self._hand) - HISTORY_HANDS):]
        self.history_more = m.more and total <= HISTORY_HANDS
        if m.page and self._page is not None and not self._page.done():
            self._page.set_result(None)
        return True

    def _on_chat(self, m: M.ChatLine, msg: dict[str, Any]) -> bool:
        self.chat_lines = self.chat_lines[-199:] + [msg]
        if self.game_started:
            who = _("{name} (watching)").format(name=m.name) if m.spectator else m.name
            self._updates.put_nowait(Update(note=f"{who}: {m.text}"))
        else:
            self._lobby_q.put_nowait(msg)
        return True

    def _on_ack(self, m: M.Ack, msg: dict[str, Any]) -> bool:
        fut = self._pending.pop(m.id, None)
        if fut is not None and not fut.done():
            fut.set_result(msg)
        return True

    def _on_error(self, m: M.Error, msg: dict[str, Any]) -> bool:
        fut = self._pending.pop(m.id, None) if m.id is not None else None
        if fut is not None and not fut.done():
            fut.set_exception(IllegalAction(M.heard(m.message)))
        else:
            self._note(_("Server: {message}").format(message=M.heard(m.message)))
        if m.fatal:
            self.sent_away = True
        return not m.fatal

    def _on_delta(self, m: M.StateDelta, msg: dict[str, Any]) -> bool:
        """A view's changes since the line ``base``: applied to that line's view. A delta
        that does not follow the last line means a line was missed: the connection is
        dropped and made again, and the host's catch-up sends the whole view."""
        if self._view_wire is None or m.base != self._serial:
            raise _Gap(m.base, self._serial)
        try:
            view = m.apply(self._view_wire)
        except IndexError:
            raise _Gap(m.base, self._serial) from None
        return self._on_state(M.State(
            version=m.version, view=view, events=m.events, reveals=m.reveals,
            deadline_in=m.deadline_in, next_deal_in=m.next_deal_in, turn=m.turn,
            seats=m.seats, serial=m.serial), msg)

    def _on_state(self, m: M.State, msg: dict[str, Any]) -> bool:
        data = m.view
        if "rules" not in data:  # the lobby message carries the rules (PROTOCOL.md §4)
            data = {**data, "rules": self.rules_wire}
        view = SeatView.from_dict(data)
        self._serial, self._view_wire = m.serial, m.view  # (once read: deltas build on it)
        events = tuple(Event.from_dict(e) for e in m.events)
        problems = self.verifier.on_state(view, events, m.reveals)
        if problems:  # said in the log too, for the rest of the game
            events += tuple(Event("deck_check", _("⚠ deck check: {problem}").format(problem=p),
                                  hand_no=view.hand_no)
                            for p in problems)
        self._view = view
        self.version = m.version
        self.seats = list(m.seats)
        self._check_away()
        self.rules = view.rules
        loop = asyncio.get_running_loop()
        self.deadline = None if m.deadline_in is None else loop.time() + m.deadline_in
        self.next_deal = None if m.next_deal_in is None else loop.time() + m.next_deal_in
        self._add_to_history(events)
        shown = shown_cards(view)
        self.fairness = self.verifier.summary(shown)
        if self.welcome.get("seeded"):
            self.fairness = _("TEST TABLE, fixed shuffle (--seed) · {check}").format(
                check=self.fairness)
        notes = ["⚠ " + p for p in problems]
        if any(e.kind == "hand_over" for e in events):
            notes.append(self.fairness)
        if not self.game_started:
            self.game_started = True
            self._started.set()
            self._lobby_q.put_nowait({"type": "started"})
        over = any(e.kind == "hand_over" for e in events)
        self._queued_events += len(events)
        self._updates.put_nowait(Update(events=events, note="\n".join(notes),
                                        deadline=self.deadline,
                                        result=view.result if over else None, view=view))
        if view.seat is None and self._watching is not None and not self._watching.done():
            self._watching.set_result(None)  # (the view a leaver watches with)
        return True

    @property
    def away(self) -> bool:
        """The host has this terminal's seat away (the turn timer plays it after a short
        grace): :meth:`here` brings it back."""
        if self.seat is None or not 0 <= self.seat < len(self.seats):
            return False
        return bool(self.seats[self.seat].get("away"))

    def _check_away(self) -> None:
        """After a (re)connection, the first state: if the host still has the seat away (a
        host that does not clear it on a rejoin), say ``back``."""
        if not self._fresh_link:
            return
        self._fresh_link = False
        if self.away and (self._back_task is None or self._back_task.done()):
            self._back_task = asyncio.get_running_loop().create_task(self._say_back())

    async def _say_back(self) -> None:
        with contextlib.suppress(IllegalAction):
            await self.back()

    def _add_to_history(self, events: tuple[Event, ...]) -> None:
        """The events into the history: a hand another hand follows is packed, and only the
        last :data:`HISTORY_HANDS` are kept (a long game, or a spectator, stays bounded)."""
        hands = [self._hand] if self._hand else []
        self._history.extend(pack_hand(hand) for hand in add_to_history(hands, events))
        self._hand = hands[-1] if hands else []
        del self._history[:max(0, len(self._history) + bool(self._hand) - HISTORY_HANDS)]

    #: What each server message does here, by class (welcome and pong need nothing): a
    #: handler gets the parsed message and the one as sent, and says whether to go on.
    _handlers: ClassVar[dict[type, Callable[..., bool]]] = {
        M.State: _on_state, M.StateDelta: _on_delta, M.Commit: _on_commit, M.Lobby: _on_lobby,
        M.History: _on_history, M.ChatLine: _on_chat, M.Notice: _on_notice, M.Ack: _on_ack,
        M.Error: _on_error, M.Bye: _on_bye, M.Welcome: _on_welcome,
    }

    # -- sending --------------------------------------------------------------------------
    async def _send(self, msg: dict[str, Any]) -> None:
        if not self.connected or self._writer is None:
            raise IllegalAction(_("not connected to the table (reconnecting)"))
        async with self._send_lock:
            try:
                self._writer.write(P.encode(msg))
                await self._writer.drain()
            except (ConnectionError, OSError):
                raise IllegalAction(_("the connection to the table was lost")) from None

    async def request(self, make: Callable[[int], M.Act]) -> dict[str, Any]:
        """Send ``make(id)`` with a fresh id and wait for the server's ack (or its error)."""
        self._ids += 1
        ref = self._ids
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = fut
        try:
            await self._send(make(ref).to_wire())
            return await asyncio.wait_for(fut, self.act_timeout)
        except asyncio.TimeoutError:
            raise IllegalAction(_("the table did not answer in time")) from None
        finally:
            self._pending.pop(ref, None)

    # -- the Session interface ---------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        if seat is not None and seat not in self.local_seats:
            raise IllegalAction(_("that seat is not played at this terminal"))
        if self._view is None:
            raise IllegalAction(_("the game has not started yet"))
        return self._view

    async def act(self, action: Action) -> None:
        if self.seat is None:
            raise IllegalAction(_("spectators cannot act"))
        if action.seat != self.seat:
            raise IllegalAction(_("that seat is not played at this terminal"))
        if isinstance(action, Leave):
            await self.leave()
            return
        data, version = action.to_dict(), self.version
        await self.here()  # (acting clears "away" too; this also covers a stale action)
        await self.request(lambda ref: M.Act(id=ref, version=version, action=data))

    def updates(self) -> AsyncIterator[Update]:
        return self._taken(queued_updates(self._updates))

    async def _taken(self, updates: AsyncIterator[Update]) -> AsyncIterator[Update]:
        async for update in updates:
            self._queued_events = max(0, self._queued_events - len(update.events))
            yield update

    def history(self) -> list[list[Event]]:
        hands = [unpack_hand(blob) for blob in self._history]
        return hands + [list(self._hand)] if self._hand else hands

    def history_before_updates(self) -> list[list[Event]]:
        """:meth:`history` but for the events still waiting in :meth:`updates`: what a
        screen that is about to read the updates shows first (the table screen opening
        while the game goes on), so that it shows each event once."""
        hands = self.history()
        waiting = self._queued_events
        while waiting and hands:
            last = hands[-1]
            cut = min(waiting, len(last))
            del last[len(last) - cut:]
            waiting -= cut
            if not last:
                hands.pop()
        return hands

    async def start(self) -> None:
        """Nothing to do: the host starts a network game from the lobby."""

    async def more_history(self, timeout: float = 5.0) -> None:
        """Ask the host for older hands and wait (a while) until they are in :meth:`history`."""
        first = next((hand[0].hand_no for hand in map(unpack_hand, self._history) if hand),
                     self._hand[0].hand_no if self._hand else None)
        if first is None or not self.history_more:
            return
        self._page = asyncio.get_running_loop().create_future()
        await self._send(M.HistoryRequest(before=first).to_wire())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._page), timeout)

    async def close(self) -> None:
        """Disconnect; the seat is held on the server and can be taken back with the token.
        The server is told first that this is on purpose (``quit``), so the others read that
        the player quit, not that the connection was lost."""
        if self.connected and not self._left and not self._closing:
            with contextlib.suppress(IllegalAction, asyncio.TimeoutError):
                await asyncio.wait_for(self._send(M.Quit().to_wire()), 1.0)
            # on purpose: the last word is that you left, not "disconnected" (the SSH room
            # says it when a table's q brings the player back to the room)
            self._left = True
        self._closing = True
        if self._alive is not None and self._alive is not asyncio.current_task():
            self._alive.cancel()
        if self._back_task is not None and self._back_task is not asyncio.current_task():
            self._back_task.cancel()
        self._lost()
        if self._task is not None and self._task is not asyncio.current_task():
            await reap(self._task)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer.wait_closed(), 2)
        self._finish(_("you left the table") if self._left else _("disconnected"))

    _left = False

    # -- lobby and table extras ---------------------------------------------------------------
    async def lobby_messages(self) -> AsyncIterator[dict[str, Any]]:
        """Lobby news until the game starts or the connection ends: ``lobby``, ``chat``,
        ``notice``, ``error`` messages, then ``{"type": "started"}`` or ``{"type": "closed"}``."""
        while True:
            msg = await self._lobby_q.get()
            yield msg
            if msg["type"] in ("started", "closed"):
                return

    async def wait_started(self) -> None:
        await self._started.wait()

    async def set_ready(self, ready: bool = True) -> None:
        await self._send(M.Ready(ready).to_wire())

    async def chat(self, text: str) -> None:
        await self._send(M.Chat(text).to_wire())

    async def start_game(self) -> None:
        await self._send(M.Start().to_wire())

    async def set_bots(self, count: int, level: str | None = None) -> None:
        await self._send(M.Bots(count, level or None).to_wire())

    async def back(self) -> None:
        """Tell the table you are back after timing out (the timer stops playing for you)."""
        await self._send(M.Back().to_wire())

    async def here(self) -> None:
        """The player pressed a turn key (or acts): if the host has this seat away, say
        ``back`` first (nothing otherwise, and nothing when that cannot be sent)."""
        if self.away and self.connected and not self._left:
            self.seats[self.seat] = {**self.seats[self.seat], "away": False}  # (sent once)
            with contextlib.suppress(IllegalAction):
                await self.back()

    async def leave(self) -> None:
        """Leave the table for good (the seat folds and is out). In the lobby this
        disconnects. In a game the connection stays, a spectator's (as at a local table,
        the game goes on and you may watch it): this returns once the host's public view
        has come, so the screen never shows the seat's view again. A host that closes the
        connection instead (an older one) ends the session."""
        if not self.game_started or self.seat is None:
            self._left = True
            with contextlib.suppress(IllegalAction):
                await self._send(M.Leave().to_wire())
            await self.close()
            return
        self._watching = asyncio.get_running_loop().create_future()
        await self._send(M.Leave().to_wire())  # (not connected: IllegalAction, still seated)
        try:
            await asyncio.wait_for(asyncio.shield(self._watching), self.act_timeout)
        except asyncio.TimeoutError:
            if self.seat is not None:  # (else it left: its public view is on the way)
                raise IllegalAction(_("the table did not answer in time")) from None
        finally:
            self._watching = None
        if self._closed:  # the host closed the connection rather than keep a watcher
            self._left = True

    async def kick(self, seat: int) -> None:
        """Lobby only, for the table's leader: take a seat back from someone (or a bot)."""
        await self._send(M.Kick(seat).to_wire())

    @property
    def is_host(self) -> bool:
        """The host's own connection, seated (a host watching with ``--spectate`` is a
        spectator: no lobby controls, whatever an older host says)."""
        return bool(self.welcome.get("admin")) and not self.welcome.get("spectator")

    @property
    def leads(self) -> bool:
        """This connection runs the lobby: the host, or at a headless table the first
        person seated (the ``leader`` of the last ``lobby`` message)."""
        leader = self.lobby.get("leader")
        return self.is_host or (leader is not None and leader == self.seat)
