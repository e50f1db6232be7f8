"""The table host: lobby, seats, turns, the turn timer and deck commitments, with no sockets.

A :class:`TableHost` takes what arrives on a connection (``connect``, ``receive`` a line,
``disconnect``) and the clock (``poll``), and returns the messages to send as a list of
:class:`Out`. :mod:`pokeroulette_tui.net.server` only moves those bytes.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.actions import (Action, Advance, IllegalAction, Leave, StartHand,
                                             action_from_dict)
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import RuleSet, describe_rules
from pokeroulette_tui.engine.save import SaveError
from pokeroulette_tui.engine.state import LEFT
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.identity import Account, AccessPolicy, HelloGuard, peer_key
from pokeroulette_tui.net.nettable import JournalWrite, NetTable
from pokeroulette_tui.net.wire import StateMessages
from pokeroulette_tui.driver import BotJob, Driver, Pace
from pokeroulette_tui.table import SeatConfig

log = logging.getLogger("pokeroulette.net")


@dataclass
class Out:
    """One thing to do on a connection: send ``msg`` (if any; or ``data``, a message already
    encoded as a line), then close (if ``close``)."""

    cid: int
    msg: dict[str, Any] | None = None
    close: bool = False
    data: bytes | None = None


@dataclass
class HostConfig:
    """How a hosted table runs. Times are seconds; 0 turns a timer or a pause off."""

    rules: RuleSet = field(default_factory=RuleSet)
    password: str | None = None
    seed: int | None = None
    save_path: Path | None = None
    turn_timeout: float = 60.0
    away_after: int = 3            # consecutive timeouts before a seat is "away"
    delay: float = 0.6             # pause before each dealer or bot step
    hand_pause: float = 2.0        # the result pause: after a hand, before the next deal
    bots: int = 0
    bot_level: str = "random"
    headless: bool = True          # no host seat: the game starts when every player is ready
    hello_timeout: float = 10.0
    max_connections: int = 64
    max_spectators: int = 32
    chat_burst: int = 5
    chat_rate: float = 1.0         # chat messages per second, after the burst
    max_errors: int = 50           # protocol errors before a connection is closed
    history_hands: int = 20
    access: AccessPolicy | None = None  # Unix-socket tables: who may connect
    owner_uid: int | None = None   # the hosting account (Unix sockets): admin unless headless


@dataclass
class Player:
    """A seat in the lobby and then at the table."""

    name: str
    bot: str | None = None
    token_digest: str = ""
    ready: bool = False
    cid: int | None = None
    host: bool = False
    uid: int | None = None         # the account this seat belongs to (Unix-socket tables)


@dataclass
class Conn:
    cid: int
    opened: float
    welcomed: bool = False
    closing: bool = False
    name: str = ""
    player: Player | None = None
    spectator: bool = False
    admin: bool = False
    errors: int = 0
    last_id: int = -1
    chat_tokens: float = 0.0
    chat_at: float = 0.0
    account: Account | None = None  # who the kernel says is connected (Unix sockets)
    peer: str = "unknown"           # what failed hellos are counted under
    refused: str = ""               # this account may not join: the answer to its hello


class TableHost:
    """One hosted table: the only engine, the lobby before it, and every connection."""

    def __init__(self, config: HostConfig, *, admin_token: str | None = None,
                 nonce_source: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self.config = config
        self.rules = config.rules
        self.admin_token = admin_token
        self.conns: dict[int, Conn] = {}
        self.players: list[Player] = []
        self.table: NetTable | None = None
        self.committer = DeckCommitter(nonce_source)
        self.chat_log: list[dict[str, Any]] = []
        self.version = 0
        self.driver: Driver | None = None  # runs the table once the game starts
        self.next_wakeup: float | None = None
        self.defer_saves = False
        self._bot_job: BotJob | None = None      # made by poll, not yet taken
        self._states = StateMessages()
        self._zones_key: Any = None
        self._zones: dict[str, list[int]] = {}
        self._revealed_key: Any = None
        self._revealed: list[list[Any]] = []
        self.password_digest = P.password_digest(config.password) if config.password else ""
        self.guard = HelloGuard()
        self._set_bots(config.bots, config.bot_level)

    # -- resume ---------------------------------------------------------------
    @classmethod
    def resume(cls, path: Path, config: HostConfig, **kw: Any) -> "TableHost":
        """Carry on a saved table (raises SaveError): same hand, same stacks, same tokens."""
        table = NetTable.resume(path)
        try:
            return cls._resume(table, path, config, **kw)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            raise SaveError(f"{path} is damaged: its network data cannot be used "
                            f"({type(exc).__name__}: {str(exc)[:80]})") from None

    @classmethod
    def _resume(cls, table: NetTable, path: Path, config: HostConfig, **kw: Any) -> "TableHost":
        meta = table.net_saved  # a journal's last net records, or an older save's meta["net"]
        host = cls(HostConfig(**{**config.__dict__, "rules": table.state.rules, "bots": 0,
                                 "save_path": path}), **kw)
        host.players = [Player(name=sc.name, bot=sc.bot) for sc in table.seats]
        for i, digest in (meta.get("tokens") or {}).items():
            if 0 <= int(i) < len(host.players):
                host.players[int(i)].token_digest = str(digest)
        if not host.password_digest and isinstance(meta.get("password"), str):
            host.password_digest = meta["password"]  # the table keeps its password
        for i, uid in (meta.get("accounts") or {}).items():
            if 0 <= int(i) < len(host.players) and isinstance(uid, int):
                host.players[int(i)].uid = uid
        if isinstance(meta.get("host_seat"), int) and 0 <= meta["host_seat"] < len(host.players):
            host.players[meta["host_seat"]].host = True
        if isinstance(meta.get("timeouts"), dict):  # (older saves: in the state itself)
            table.state.timeouts = {int(k): int(v) for k, v in meta["timeouts"].items()}
        commit = dict(meta.get("commit") or {})
        for key in ("zones", "revealed"):  # kept apart in a journal (they change more often)
            if key in meta:
                commit[key] = meta[key]
        host.committer.restore(table.state, commit)
        host._adopt(table)
        return host

    def _adopt(self, table: NetTable, now: float = 0.0) -> None:
        install_tracking(table.state)
        table.net_meta = self._net_meta
        table.defer = self.defer_saves
        self.table = table
        self.rules = table.state.rules
        cfg = self.config
        self.driver = Driver(table, Pace(delay=cfg.delay, hand_pause=cfg.hand_pause,
                                         turn_timeout=cfg.turn_timeout,
                                         away_after=cfg.away_after), now=now)
        self.version = len(table.actions)

    def take_save(self) -> JournalWrite | None:
        """With ``defer_saves``: the journal write to do now (with
        :func:`~pokeroulette_tui.net.nettable.write_all`, in any thread) before sending what
        the last step produced; None when the journal is up to date."""
        if self.table is None:
            return None
        return self.table.take_journal()

    def save_failed(self, exc: OSError) -> None:
        """A journal write from :meth:`take_save` failed: the next one starts afresh."""
        if self.table is not None:
            self.table.write_failed(exc)

    def _saved(self, out: list[Out]) -> list[Out]:
        """Without ``defer_saves``: write the journal now, before ``out`` is sent."""
        if not self.defer_saves and self.table is not None:
            self.table.flush()
        return out

    def defer(self) -> None:
        """Let the caller write the saves (see :meth:`take_save`)."""
        self.defer_saves = True
        if self.table is not None:
            self.table.defer = True

    def _net_meta(self) -> dict[str, Any]:
        """The resume data, in parts the journal writes again only when they change: the
        commitments once a hand, where the cards are and who was shown what as they move."""
        host_seat = next((i for i, p in enumerate(self.players) if p.host), None)
        c = self.committer
        moving = bool(c.cards) and self.table is not None
        # the moving parts are made again only when they may have changed (the same object
        # otherwise, which the journal does not even compare)
        key = (c.hand_no, id(c.cards), len(c.cards), c.places(self.table.state) if moving else ())
        if self._zones_key != key:
            self._zones_key = key
            self._zones = c.zones(self.table.state) if moving else {}
        key = (c.hand_no, id(c.cards), len(c.cards), sum(map(len, c.revealed.values())),
               len(c.revealed))
        if self._revealed_key != key:
            self._revealed_key = key
            self._revealed = c.revealed_list() if moving else []
        return {"tokens": {str(i): p.token_digest for i, p in enumerate(self.players)
                           if p.token_digest},
                "accounts": {str(i): p.uid for i, p in enumerate(self.players)
                             if p.uid is not None},
                "host_seat": host_seat, "password": self.password_digest or None,
                "commit": c.fixed(), "zones": self._zones, "revealed": self._revealed,
                # the turn timer's counts: kept by the host, not replayed from actions
                "timeouts": {str(k): v for k, v in self.table.state.timeouts.items()}
                if self.table is not None else {}}

    # -- queries --------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.table is not None

    def seat_of(self, player: Player | None) -> int | None:
        if player is None:
            return None
        for i, p in enumerate(self.players):
            if p is player:
                return i
        return None

    def away(self, seat: int) -> bool:
        return self.driver is not None and self.driver.away(seat)

    def humans(self) -> list[Player]:
        return [p for p in self.players if p.bot is None]

    def start_problem(self) -> str:
        """Why the game cannot start now ("" when it can)."""
        if self.started:
            return "the game has started"
        n = len(self.players)
        if n < self.rules.min_players:
            return f"these rules need at least {self.rules.min_players} players ({n} seated)"
        if n > self.rules.max_players:
            return f"these rules seat at most {self.rules.max_players} players"
        if not self.humans():
            return "nobody is seated"
        waiting = [p.name for p in self.humans() if not (p.ready or p.host)]
        if waiting:
            return "waiting for " + ", ".join(waiting) + " to be ready"
        return ""

    # -- connections ------------------------------------------------------------
    def connect(self, cid: int, now: float, peer: object = None) -> list[Out]:
        """A new connection; ``peer`` is its Account when the kernel told us (Unix sockets),
        else its address (counted for failed hellos)."""
        if sum(not c.refused for c in self.conns.values()) >= self.config.max_connections:
            return [Out(cid, P.error("the server is full", fatal=True), close=True)]
        account = peer if isinstance(peer, Account) else None
        refusal = ""
        if self.config.access is not None:
            refusal = self.config.access.refusal(account) if account else \
                "this table admits accounts of this machine only"
            if refusal:  # told in answer to the hello (closing before it could lose the news)
                self.guard.log(log, now, "refused %s: %s", peer_key(peer), refusal)
        self.conns[cid] = Conn(cid=cid, opened=now, chat_tokens=self.config.chat_burst, chat_at=now,
                               account=account, peer=peer_key(peer), refused=refusal)
        self._wake(now + self.config.hello_timeout)
        return []

    def receive(self, cid: int, line: bytes, now: float) -> list[Out]:
        """One line from a connection; every mistake becomes an error, nothing else changes."""
        conn = self.conns.get(cid)
        if conn is None or conn.closing:
            return []
        if not line.strip():
            return []  # blank lines keep a connection alive
        if conn.refused:
            conn.closing = True
            return [Out(cid, P.error(conn.refused, fatal=True), close=True)]
        msg = None
        try:
            msg = P.decode(line)
            if not conn.welcomed:
                return self._saved(self._hello(conn, msg, now))
            handler = self._handlers.get(msg["type"])
            if handler is None:
                raise P.ProtocolError(f"unknown message type {msg['type'][:32]!r}")
            return self._saved(handler(self, conn, msg, now))
        except P.ProtocolError as exc:
            if not conn.welcomed:  # the first line must be a good hello: else error and close
                exc.fatal = True
                self.guard.log(log, now, "refused a hello from %s: %s", conn.peer, exc.message)
            return self._fail(conn, exc, ref=_ref(msg))

    def oversized(self, cid: int) -> list[Out]:
        """The peer sent a line longer than the limit: refuse it and close (its tail is never
        read as a message)."""
        conn = self.conns.get(cid)
        if conn is None:
            return []
        return self._fail(conn, P.ProtocolError(f"a message may be at most {P.MAX_LINE} bytes",
                                                fatal=True))

    def disconnect(self, cid: int, now: float) -> list[Out]:
        """The connection is gone (closed, reset, too slow): hold the seat, tell the others."""
        conn = self.conns.pop(cid, None)
        if conn is None or conn.player is None or conn.player.cid != cid:
            return []
        player = conn.player
        player.cid = None
        if not self.started:
            self.players.remove(player)
            return [*self._notice(f"{player.name} left the lobby"), *self._lobby_all()]
        seat = self.seat_of(player)
        out = [*self._notice(f"{player.name} lost the connection; the seat is held "
                             f"(the turn timer plays for them)")] if not self._left(seat) else []
        return out + self._lobby_all()

    def _left(self, seat: int | None) -> bool:
        return seat is None or self.table is None or self.table.state.seats[seat].status == LEFT

    def _fail(self, conn: Conn, exc: P.ProtocolError, ref: int | None = None) -> list[Out]:
        conn.errors += 1
        fatal = exc.fatal or conn.errors > self.config.max_errors
        text = exc.message if conn.errors <= self.config.max_errors else "too many errors"
        if fatal:
            conn.closing = True
            if conn.welcomed:
                log.info("closing connection %s: %s", conn.cid, text)
        return [Out(conn.cid, P.error(text, ref=ref, fatal=fatal), close=fatal)]

    # -- hello ------------------------------------------------------------------
    def _hello(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        h = P.check_hello(msg)
        wait = self.guard.wait(conn.peer, now)
        if wait > 0:  # not even looked at: guessing gets slower with each failure
            raise P.ProtocolError(f"too many failed attempts: wait {wait:.0f} s and try again",
                                  fatal=True)
        if conn.account is not None:  # the kernel said who this is: no password, no token
            conn.admin = conn.account.uid == self.config.owner_uid and not self.config.headless
            h["name"] = conn.account.seat_name()
        else:
            conn.admin = bool(self.admin_token and h["admin"]
                              and P.secret_matches(h["admin"], self.admin_token))
            if self.password_digest and not conn.admin and not P.password_matches(
                    h["password"], self.password_digest):
                self.guard.failed(conn.peer, now)
                raise P.ProtocolError("wrong password" if h["password"] else
                                      "this table has a password (join with --password, "
                                      "--password-file FILE or POKEROULETTE_PASSWORD)", fatal=True)
        conn.name = h["name"]
        if h["spectate"]:
            if sum(c.spectator for c in self.conns.values()) >= self.config.max_spectators:
                raise P.ProtocolError("too many spectators", fatal=True)
            conn.spectator = conn.welcomed = True
            out = [Out(conn.cid, self._welcome(conn, None))]
            out += self._catch_up(conn, now)
            return out + self._notice(f"{conn.name} is watching") + self._lobby_all(but=conn)
        player, token, replaced, existing = self._claim(conn, h["name"], h["token"])
        conn.player, conn.welcomed = player, True
        out = []
        old = self.conns.get(replaced) if replaced is not None else None
        if old is not None:
            old.closing, old.player = True, None
            out.append(Out(old.cid, P.error("replaced by a new connection for this seat",
                                            fatal=True), close=True))
        out.append(Out(conn.cid, self._welcome(conn, token)))
        out += self._catch_up(conn, now)
        out += self._notice(f"{player.name} {'is back' if existing else 'joined'}")
        out += self._lobby_all(but=conn)
        return out + self._maybe_autostart(now)

    def _claim(self, conn: Conn, name: str,
               token: str) -> tuple[Player, str | None, int | None, bool]:
        """The seat this hello takes: its own (the same account, or the resume token) or a
        new one."""
        if conn.account is not None:
            mine = next((p for p in self.players if p.uid == conn.account.uid), None)
            if mine is not None:
                old = mine.cid
                return self._take_back(mine, conn), None, old, True
            name = self._free_name(name, conn.account.uid)
        for p in self.players if conn.account is None else ():
            if not P.same_name(p.name, name):
                continue
            if p.bot is not None:
                raise P.ProtocolError(f"{p.name} is a bot's name here; choose another", fatal=True)
            if p.uid is not None:
                raise P.ProtocolError(f"the name {p.name} belongs to an account of this "
                                      "machine", fatal=True)
            if P.token_matches(token, p.token_digest) or (conn.admin and p.host):
                old = p.cid
                self._take_back(p, conn)
                new = None
                if conn.admin and not P.token_matches(token, p.token_digest):
                    new = secrets.token_urlsafe(24)
                    p.token_digest = P.token_digest(new)
                return p, new, old, True
            raise P.ProtocolError(f"the name {p.name} is taken; to take your seat back, rejoin "
                                  "with your resume token", fatal=True)
        if self.started:
            raise P.ProtocolError("the game has already started; join with --spectate to watch",
                                  fatal=True)
        if len(self.players) >= self.rules.max_players:
            bots = [p for p in self.players if p.bot is not None]
            if not bots:
                raise P.ProtocolError("the table is full", fatal=True)
            self.players.remove(bots[-1])  # bots only fill empty seats
        token = None if conn.account is not None else secrets.token_urlsafe(24)
        p = Player(name=name, token_digest=P.token_digest(token) if token else "", cid=conn.cid,
                   host=conn.admin and not any(q.host for q in self.players),
                   uid=conn.account.uid if conn.account is not None else None)
        first_bot = next((i for i, q in enumerate(self.players) if q.bot is not None),
                         len(self.players))
        self.players.insert(first_bot, p)
        return p, token, None, False

    def _take_back(self, p: Player, conn: Conn) -> Player:
        """``conn`` takes its seat ``p`` back (the caller closes the old connection)."""
        if self.started and self.table is not None:
            seat = self.seat_of(p)
            if seat is not None and self.table.state.seats[seat].status == LEFT:
                raise P.ProtocolError("you left this table; join with --spectate to watch",
                                      fatal=True)
        p.cid = conn.cid
        return p

    def _free_name(self, name: str, uid: int) -> str:
        """An account's seat name, made distinct if a bot or another account has it."""
        if not any(P.same_name(p.name, name) for p in self.players):
            return name
        return f"{name[:P.MAX_NAME - 12]}#{uid}"

    def _welcome(self, conn: Conn, token: str | None) -> dict[str, Any]:
        return {"type": "welcome", "version": P.VERSION, "name": conn.player.name if conn.player
                else conn.name, "seat": self.seat_of(conn.player), "token": token,
                "spectator": conn.spectator, "admin": conn.admin, "started": self.started,
                "password": bool(self.password_digest),
                "account": conn.account.login if conn.account is not None else None}

    def _catch_up(self, conn: Conn, now: float) -> list[Out]:
        """Everything a (re)joining connection needs: lobby, recent chat, and in a game the
        history, the deck commitment, the openings so far and the current view."""
        out = [Out(conn.cid, self._lobby_msg(conn))]
        out += [Out(conn.cid, m) for m in self.chat_log[-20:]]
        if not self.started:
            return out
        seat = self.seat_of(conn.player)
        hands = self.table.history[-self.config.history_hands:]
        out.append(Out(conn.cid, {"type": "history", "hands": [
            [e.redacted_for(seat).to_dict() for e in hand] for hand in hands]}))
        if self.committer.cards:
            out.append(Out(conn.cid, self.committer.commit_message()))
        out.append(Out(conn.cid, data=self._state_lines([seat], [], now, {
            seat: self.committer.opened(seat)})[seat]))
        return out

    # -- lobby ------------------------------------------------------------------
    def _lobby_msg(self, conn: Conn) -> dict[str, Any]:
        seats = []
        for i, p in enumerate(self.players):
            seats.append({"seat": i, "name": p.name, "bot": p.bot, "ready": p.ready or p.bot is not None,
                          "connected": p.cid is not None or p.bot is not None, "host": p.host,
                          "away": self.away(i), "left": self.started and self._left(i)})
        return {"type": "lobby", "started": self.started, "you": self.seat_of(conn.player),
                "seats": seats, "spectators": sum(c.spectator for c in self.conns.values()),
                "rules": self._rules_wire()[0], "rules_text": self._rules_wire()[1],
                "min_players": self.rules.min_players, "max_players": self.rules.max_players,
                "turn_timeout": self.config.turn_timeout, "headless": self.config.headless,
                "bot_level": self.config.bot_level, "start_problem": self.start_problem()}

    def _rules_wire(self) -> tuple[dict[str, Any], list[str]]:
        """The rules as the lobby sends them, made once per rule set (shared: never mutate)."""
        cached = self.__dict__.get("_rules_cache")
        if cached is None or cached[0] is not self.rules:
            cached = self._rules_cache = (self.rules, self.rules.to_dict(),
                                          describe_rules(self.rules))
        return cached[1], cached[2]

    def _lobby_all(self, but: Conn | None = None) -> list[Out]:
        return [Out(c.cid, self._lobby_msg(c)) for c in self._live() if c is not but]

    def _live(self) -> list[Conn]:
        return [c for c in self.conns.values() if c.welcomed and not c.closing]

    def _notice(self, text: str) -> list[Out]:
        log.info("%s", text)
        msg = {"type": "notice", "text": text}
        return [Out(c.cid, msg) for c in self._live()]

    def _set_bots(self, count: int, level: str) -> None:
        humans = self.humans()
        count = max(0, min(count, self.rules.max_players - len(humans)))
        taken = {p.name.casefold() for p in humans}
        bots, n = [], 0
        while len(bots) < count:
            n += 1
            name = f"Bot {n}"
            if name.casefold() not in taken:
                bots.append(Player(name=name, bot=level, ready=True))
        self.players = humans + bots

    def _on_ready(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        if self.started:
            raise P.ProtocolError("the game has already started")
        if conn.player is None:
            raise P.ProtocolError("spectators are always ready")
        conn.player.ready = P.want_bool(msg, "ready", True)
        return self._lobby_all() + self._maybe_autostart(now)

    def _on_bots(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        if not conn.admin:
            raise P.ProtocolError("only the host seats bots")
        if self.started:
            raise P.ProtocolError("the game has already started")
        count = P.want_int(msg, "count", lo=0, hi=self.rules.max_players)
        level = P.want_str(msg, "level", limit=20, default=self.config.bot_level)
        if level not in LEVELS:
            raise P.ProtocolError(f"unknown bot level {level!r} (choose {', '.join(LEVELS)})")
        self.config.bot_level = level
        self._set_bots(count, level)
        return self._lobby_all()

    def _on_start(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        if not conn.admin:
            raise P.ProtocolError("only the host starts the game")
        problem = self.start_problem()
        if problem:
            raise P.ProtocolError(f"cannot start: {problem}")
        return self._start(now)

    def _maybe_autostart(self, now: float) -> list[Out]:
        if self.config.headless and not self.started and not self.start_problem():
            return self._start(now)
        return []

    def _start(self, now: float) -> list[Out]:
        seats = [SeatConfig(name=p.name, bot=p.bot) for p in self.players]
        table = NetTable.create(self.rules, seats, seed=self.config.seed,
                                save_path=self.config.save_path)
        self._adopt(table, now)
        table.autosave()  # the first checkpoint
        self._wake(self.driver.next_auto)
        log.info("game started: %s", ", ".join(p.name for p in self.players))
        out = self._notice("The game starts: " + ", ".join(p.name for p in self.players))
        out += self._lobby_all()
        return out + self._broadcast([], now)

    # -- chat, back, leave, ping ----------------------------------------------------
    def _on_chat(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        raw = P.want_str(msg, "text", limit=4 * P.MAX_CHAT)
        text = P.clean_text(raw, 4 * P.MAX_CHAT)
        if len(text) > P.MAX_CHAT:
            raise P.ProtocolError(f"chat messages are at most {P.MAX_CHAT} characters")
        if not text:
            raise P.ProtocolError("empty chat message")
        cfg = self.config
        conn.chat_tokens = min(cfg.chat_burst, conn.chat_tokens + (now - conn.chat_at) * cfg.chat_rate)
        conn.chat_at = now
        if conn.chat_tokens < 1:
            raise P.ProtocolError("slow down: too many chat messages")
        conn.chat_tokens -= 1
        name = conn.player.name if conn.player else conn.name
        line = {"type": "chat", "seat": self.seat_of(conn.player), "name": name, "text": text,
                "spectator": conn.spectator}
        self.chat_log = self.chat_log[-49:] + [line]
        return [Out(c.cid, line) for c in self._live()]

    def _on_back(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        seat = self.seat_of(conn.player)
        if seat is None or not self.started or not self.away(seat):
            return [Out(conn.cid, {"type": "notice", "text": "you are not away"})]
        self.table.state.timeouts[seat] = 0
        self.driver.rearm(now)  # a full turn again
        self._wake_for_timer()
        return self._notice(f"{conn.player.name} is back") + self._lobby_all()

    def _on_ping(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        reply: dict[str, Any] = {"type": "pong"}
        if "id" in msg:
            reply["id"] = P.want_int(msg, "id", lo=0, hi=2**53)
        return [Out(conn.cid, reply)]

    def _on_leave(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        player = conn.player
        conn.closing = True
        conn.player = None
        out = [Out(conn.cid, {"type": "bye", "reason": "you left the table"}, close=True)]
        if player is None:
            return out
        player.cid = None
        if not self.started:
            self.players.remove(player)
            return out + self._notice(f"{player.name} left") + self._lobby_all() \
                + self._maybe_autostart(now)
        seat = self.seat_of(player)
        out += self._apply(self.driver.leave(seat, now), Leave(seat=seat), now)
        return out + self._lobby_all()

    # -- actions ----------------------------------------------------------------
    def _on_act(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        ref = P.want_int(msg, "id", lo=0, hi=2**53)
        if ref <= conn.last_id:
            raise P.ProtocolError("this request id was used already (replayed action ignored)")
        conn.last_id = ref
        if not self.started:
            raise P.ProtocolError("the game has not started")
        seat = self.seat_of(conn.player)
        if seat is None:
            raise P.ProtocolError("spectators cannot act")
        version = P.want_int(msg, "version", lo=0, hi=2**53)
        raw = msg.get("action")
        if not isinstance(raw, dict):
            raise P.ProtocolError('"action" must be an object')
        P.check_amounts(raw)
        if raw.get("seat", seat) != seat:
            raise P.ProtocolError("you can only act for your own seat")
        try:
            action = action_from_dict({**raw, "seat": seat})
        except IllegalAction as exc:
            raise P.ProtocolError(str(exc)) from None
        if isinstance(action, (StartHand, Advance)):
            raise P.ProtocolError("only the dealer deals")
        if isinstance(action, Leave):
            return self._on_leave(conn, msg, now)
        if not self.driver.turn_start <= version <= self.version:
            raise P.ProtocolError("stale action: the table has moved on since that view, "
                                  "nothing was done")
        try:
            events = self.driver.play(action, now)
        except IllegalAction as exc:
            raise P.ProtocolError(str(exc)) from None
        was_away = self.away(seat)
        self.table.state.timeouts[seat] = 0
        out = self._apply(events, action, now)
        if was_away:
            out += self._notice(f"{conn.player.name} is back") + self._lobby_all()
        return out + [Out(conn.cid, {"type": "ack", "id": ref, "version": self.version})]

    def _apply(self, events: list[Event], action: Action, now: float) -> list[Out]:
        """What the others learn after the driver played ``action``: commitments, views."""
        if not events:
            return []
        self.version = len(self.table.actions)
        out = [Out(c.cid, m) for m in self.committer.refresh(self.table.state) for c in self._live()]
        self._wake(self.driver.next_auto)
        self._wake_for_timer()
        out += self._broadcast(events, now)
        state = self.table.state
        if state.game_over:
            out += self._notice("Game over: " + (state.game_over_reason or "the game has ended"))
        return out

    def _wake_for_timer(self) -> None:
        if self.driver is not None and self.driver.deadline is not None:
            self._wake(self.driver.deadline)

    def _broadcast(self, events: list[Event], now: float) -> list[Out]:
        """The new state to every connection, each seen from its own seat: the public part
        is built and encoded once, each seat's own cards and options added
        (:mod:`pokeroulette_tui.net.wire`); spectators share one line."""
        live = [(c, self.seat_of(c.player)) for c in self._live()]
        lines = self._state_lines([seat for _, seat in live], events, now)
        return [Out(c.cid, data=lines[seat]) for c, seat in live]

    def _seat_status(self) -> list[dict[str, bool]]:
        return [{"connected": p.cid is not None or p.bot is not None, "away": self.away(i),
                 "bot": p.bot is not None} for i, p in enumerate(self.players)]

    def _state_lines(self, seats: list[int | None], events: list[Event], now: float,
                     extra: dict[int | None, list[list[Any]]] | None = None
                     ) -> dict[int | None, bytes]:
        """Encoded ``state`` lines for these seats (docs/PROTOCOL.md §4): the view has no
        ``rules`` (the ``lobby`` message carries them)."""
        state, driver = self.table.state, self.driver
        deadline_in = next_deal_in = None
        if driver.deadline is not None:
            deadline_in = round(max(0.0, driver.deadline - now), 3)
        if driver.next_deal() is not None:
            next_deal_in = round(max(0.0, driver.next_deal() - now), 3)
        return self._states.build(
            state, seats, events, {"type": "state", "version": self.version},
            {"deadline_in": deadline_in, "next_deal_in": next_deal_in, "turn": state.to_act,
             "seats": self._seat_status()},
            self.committer.reveal, extra)

    # -- the clock ------------------------------------------------------------------
    def _wake(self, at: float) -> None:
        if self.next_wakeup is None or at < self.next_wakeup:
            self.next_wakeup = at

    def poll(self, now: float, *, max_steps: int = 64) -> list[Out]:
        """Everything that is due by ``now``: hello timeouts, dealer and bot steps, the turn
        timer. Afterwards ``next_wakeup`` is when to call again (None: only on news)."""
        self.next_wakeup = None
        out: list[Out] = []
        for c in list(self.conns.values()):
            if not c.welcomed and not c.closing:
                if now - c.opened >= self.config.hello_timeout:
                    c.closing = True
                    out.append(Out(c.cid, P.error(
                        f"no hello within {self.config.hello_timeout:g} seconds", fatal=True),
                        close=True))
                else:
                    self._wake(c.opened + self.config.hello_timeout)
        if self.table is None or self.table.state.game_over:
            return out
        for _ in range(max_steps):
            step = self.driver.step(now)
            if step.job is not None:
                self._bot_job = step.job  # for take_bot_job(): it thinks in a worker thread
                break
            if step.action is None:
                if self.driver.wakeup is not None:
                    self._wake(self.driver.wakeup)
                break
            try:
                events = self.driver.play(step.action, now)
            except IllegalAction as exc:  # pragma: no cover - the driver's steps are legal
                log.error("automatic action %s refused: %s", step.action, exc)
                break
            out += self._apply(events, step.action, now)
            if step.timed_out is not None:
                out += self._timed_out(step.timed_out, step.action)
        else:
            self._wake(now)
        return self._saved(out)

    def take_bot_job(self) -> BotJob | None:
        """The bot decision waiting to be worked out (call ``bot.choose(view, legal)`` in a
        worker thread, then :meth:`bot_chose`)."""
        job, self._bot_job = self._bot_job, None
        return job

    def bot_chose(self, job: BotJob, action: Action | None, now: float) -> list[Out]:
        """A bot's decision is back (None: the bot failed; it then plays like the timer).
        It is played when its pause is over, if the table has not moved on meanwhile."""
        if self.driver is None:
            return []
        self.driver.bot_chose(job, action)
        return self.poll(now, max_steps=1)

    def _timed_out(self, seat: int, action: Action) -> list[Out]:
        state = self.table.state
        if self.away(seat):
            return []
        state.timeouts[seat] = state.timeouts.get(seat, 0) + 1
        name = self.players[seat].name
        n, limit = state.timeouts[seat], self.config.away_after
        if n >= limit:
            return self._notice(f"{name} timed out {n} times and is away: the table checks or "
                                f"folds for them until they are back") + self._lobby_all()
        return self._notice(f"Time ran out for {name}: {action.kind.replace('_', ' ')} "
                            f"({n} of {limit} before sitting out)")

    _handlers: dict[str, Callable[..., list[Out]]] = {
        "ready": _on_ready, "chat": _on_chat, "act": _on_act, "start": _on_start,
        "bots": _on_bots, "back": _on_back, "leave": _on_leave, "ping": _on_ping,
    }


def _ref(msg: Any) -> int | None:
    if isinstance(msg, dict) and msg.get("type") == "act":
        ref = msg.get("id")
        if isinstance(ref, int) and not isinstance(ref, bool):
            return ref
    return None
