"""The casino host: several players at one casino table, each with their own bets and
bankroll, against the house (the only engine runs here), with no sockets.

Like :class:`~pokeroulette_tui.net.host.TableHost`, a :class:`CasinoHost` takes what arrives
(``connect``, ``receive`` a line, ``disconnect``) and the clock (``poll``) and returns the
messages to send as a list of :class:`~pokeroulette_tui.net.seats.Out`, so
:class:`~pokeroulette_tui.net.server.Server` serves it unchanged (TLS included). It reuses the
hello's checks, names, passwords, tokens and the back-off for failed guesses of the card table.

The round: players place bets while bets are open; each says ``ready`` when done. Bets close
when every connected player is ready (and some bet is on the board), or ``bet_timeout``
seconds after the first player with a bet said ready. The host shuffles only then, deals the
five cards ``deal_pause`` seconds apart, settles, and opens the next round ``result_pause``
seconds later (at once when every connected player says ready again).

Bankrolls: the host keeps one per seat for the table's life, starting at
:data:`~pokeroulette_tui.engine.casino.store.START_BANKROLL` play chips; a player who comes
back (with the seat's token) finds it as they left it. A player with no chips left may
``rebuy`` a fresh bankroll. Nothing of a network table is written to anyone's casino file.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.game import Casino, CasinoError, Stage
from pokeroulette_tui.engine.casino.paytable import DEFAULT, PayTable
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import casino_wire as W
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.identity import Account, HelloGuard, peer_key
from pokeroulette_tui.net.seats import Out

log = logging.getLogger("pokeroulette.net")

RATES = {"bet": (30.0, 10.0), "undo": (30.0, 10.0), "clear": (10.0, 2.0),
         "rebet": (10.0, 2.0), "ready": (10.0, 2.0), "rebuy": (4.0, 1.0), "ping": (10.0, 2.0)}
"""Requests a connection may send of each kind: (burst, per second after it)."""


@dataclass
class CasinoConfig:
    """How a casino table runs. Times are seconds; 0 turns a timer or a pause off."""

    table: PayTable = DEFAULT
    password: str | None = None
    seed: int | None = None
    deal_pause: float = 0.6        # between the five cards
    bet_timeout: float = 30.0      # after the first ready, the others have this long
    result_pause: float = 6.0      # the results stay this long before the next round
    headless: bool = True
    hello_timeout: float = 5.0
    max_connections: int = 256
    max_pending: int = 64
    max_errors: int = 50
    access: Any = None             # (no Unix-socket casino tables: always None)


@dataclass
class Seat:
    name: str
    token_digest: str
    cid: int | None = None
    ready: bool = False


@dataclass(eq=False)
class CConn:
    cid: int
    opened: float
    heard: float
    peer: str
    seat: int | None = None
    welcomed: bool = False
    closing: bool = False
    errors: int = 0
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)


class CasinoHost:
    """One casino table served to the network: seats, the round and its timers."""

    table = None  # (what Server and serve() look at for a card table's journal: none here)

    def __init__(self, config: CasinoConfig) -> None:
        self.config = config
        rng = random.Random(config.seed) if config.seed is not None else secrets.SystemRandom()
        self.casino: Casino = Casino(config.table, [], config.table.jackpot_seed * 100, rng)
        self.seats: list[Seat] = []
        self.conns: dict[int, CConn] = {}
        self.guard = HelloGuard()
        self.password_digest = P.password_digest(config.password) if config.password else ""
        self.password_check = P.PasswordCheck(self.password_digest, config.password)
        self.close_at: float | None = None   # bets close then (the ready timer)
        self.deal_at: float | None = None    # the next card then
        self.next_at: float | None = None    # the next round then
        self.clock = 0.0
        self.closing = False                 # the table is being closed: nothing is held

    # -- what Server calls ------------------------------------------------------------------
    @property
    def next_wakeup(self) -> float | None:
        times = [t for t in (self.close_at, self.deal_at, self.next_at) if t is not None]
        waiting = [c.opened + self.config.hello_timeout for c in self.conns.values()
                   if not c.welcomed and not c.closing]
        times += waiting
        return min(times) if times else None

    def defer(self) -> None:
        """(Server's call for a card table's journal: a casino table writes nothing.)"""

    def take_save(self) -> None:
        return None

    def save_failed(self, exc: OSError) -> None:  # pragma: no cover - nothing is written
        pass

    def take_bot_job(self) -> None:
        return None

    def bot_chose(self, *args: Any) -> list[Out]:  # pragma: no cover - no bots here
        return []

    @property
    def players(self) -> list[Seat]:
        return self.seats

    def connect(self, cid: int, now: float, peer: object = None) -> list[Out]:
        self.clock = now
        live = [c for c in self.conns.values() if not c.closing]
        silent = [c for c in live if not c.welcomed]  # (in order of arrival)
        out: list[Out] = []
        if silent and (len(silent) >= self.config.max_pending or
                       len(live) >= self.config.max_connections):
            # the oldest connection yet to say hello makes way: a crowd of silent sockets
            # never keeps out an honest player, who says hello at once
            victim = silent[0]
            victim.closing = True
            out.append(Out(victim.cid, M.Error(_("the server is full"), fatal=True).to_wire(),
                           close=True))
        elif len(live) >= self.config.max_connections:
            return [Out(cid, M.Error(_("the server is full"), fatal=True).to_wire(), close=True)]
        key = peer_key(peer)
        self.conns[cid] = CConn(cid, now, now, key)
        if isinstance(peer, Account):  # pragma: no cover - casino tables are TCP only
            pass
        return out

    def oversized(self, cid: int) -> list[Out]:
        conn = self.conns.get(cid)
        if conn is None:
            return []
        return self._fail(conn, P.ProtocolError(f"a message may be at most {P.MAX_LINE} bytes",
                                                fatal=True))

    def disconnect(self, cid: int, now: float) -> list[Out]:
        """The connection is gone: the seat, its bankroll and its bets on the board stay
        (they are settled as any other); the others are told."""
        self.clock = now
        conn = self.conns.pop(cid, None)
        if conn is None or conn.seat is None:
            return []
        seat = self.seats[conn.seat]
        if seat.cid != cid:
            return []
        seat.cid, seat.ready = None, False
        if self.closing:  # the host is closing the table: everyone is leaving
            return []
        out = self._notice(_("{name} left the table; their seat and bankroll are held").format(
            name=seat.name))
        out += self._maybe_close(now)
        return out + self._states()

    def receive(self, cid: int, line: bytes, now: float) -> list[Out]:
        """One line from a connection; every mistake becomes an error and nothing changes."""
        self.clock = now
        conn = self.conns.get(cid)
        if conn is None or conn.closing:
            return []
        conn.heard = now
        if not line.strip():
            return []
        ref = None
        try:
            msg = P.decode(line)
            if not conn.welcomed:
                return self._hello(conn, msg, now)
            given = msg.get("id")  # a request's own id, even when its fields are refused
            ref = given if type(given) is int and 0 <= given < 2**53 else None
            kind, ref, fields = W.parse_request(msg)
            self._limit(conn, kind, now)
            if kind == "ping":
                return [Out(cid, M.Pong(msg.get("id") if type(msg.get("id")) is int
                                        else None).to_wire())]
            if kind == "quit":
                conn.closing = True
                return [Out(cid, close=True)]
            return self._request(conn, kind, ref, fields, now)
        except CasinoError as exc:
            conn.errors += 1
            text = str(exc)
            return [Out(cid, M.Error(text[:1].upper() + text[1:], id=ref).to_wire())] \
                if conn.errors <= self.config.max_errors else \
                self._fail(conn, P.ProtocolError(_("too many errors"), fatal=True))
        except P.ProtocolError as exc:
            if not conn.welcomed:
                exc.fatal = True
                self.guard.log(log, now, "refused a casino hello from %s: %s", conn.peer,
                               exc.message)
            return self._fail(conn, exc, ref)

    def poll(self, now: float, max_steps: int | None = None) -> list[Out]:
        """What is due: hellos never said, bets closing on the timer, the next card, the
        next round."""
        self.clock = now
        out: list[Out] = []
        for conn in list(self.conns.values()):
            if not conn.welcomed and not conn.closing and \
                    now >= conn.opened + self.config.hello_timeout:
                conn.closing = True
                out.append(Out(conn.cid, M.Error(_("no hello: closing"), fatal=True).to_wire(),
                               close=True))
        c = self.casino
        if self.close_at is not None and now >= self.close_at:
            self.close_at = None
            if any(p.bets for p in c.players) and c.stage is Stage.BETTING:
                out += self._notice(_("Time is up: no more bets"))
                out += self._close(now)
            else:
                for s in self.seats:
                    s.ready = False
                out += self._states()
        elif self.deal_at is not None and now >= self.deal_at:
            out += self._deal(now)
        elif self.next_at is not None and now >= self.next_at:
            out += self._next_round()
        return out

    # -- admission ----------------------------------------------------------------------------
    def _hello(self, conn: CConn, msg: dict[str, Any], now: float) -> list[Out]:
        if msg.get("type") == "which":  # a client asking what is played here
            conn.closing = True
            return [Out(conn.cid, W.which(), close=True)]
        h = M.Hello.parse(msg)
        if msg.get("game") != W.GAME:
            raise P.ProtocolError(_("this is a casino table: join it with `pokeroulette join` "
                                    "from a version that knows the casino"), fatal=True)
        if h.spectate:
            raise P.ProtocolError(_("a casino table has no spectators' chairs: join as a "
                                    "player"), fatal=True)
        wait = self.guard.wait(conn.peer, now)
        if wait > 0:
            raise P.ProtocolError(_("too many failed attempts: wait {seconds} s and try "
                                    "again").format(seconds=f"{wait:.0f}"), fatal=True)
        if self.password_digest and not self.password_check.matches(h.password):
            self.guard.failed(conn.peer, now)
            raise P.ProtocolError(_("wrong password") if h.password else
                                  _("this table has a password (join with --password, "
                                    "--password-file FILE or POKEROULETTE_PASSWORD)"), fatal=True)
        out: list[Out] = []
        index = next((i for i, s in enumerate(self.seats) if P.same_name(s.name, h.name)), None)
        token = None
        if index is not None:
            seat = self.seats[index]
            if not (h.token and P.token_matches(h.token, seat.token_digest)):
                self.guard.failed(conn.peer, now)
                raise P.ProtocolError((
                    _("{name} is seated at this table (the seat is held for them): join under "
                      "another name") if seat.cid is None else
                    _("{name} is seated at this table: join under another name")).format(
                    name=seat.name), fatal=True)
            old = self.conns.get(seat.cid) if seat.cid is not None else None
            if old is not None:
                old.closing, old.seat = True, None
                out.append(Out(old.cid, M.Error(_("replaced by a new connection for this seat"),
                                                fatal=True).to_wire(), close=True))
            back = True
        else:
            if len(self.seats) >= W.MAX_SEATS:
                raise P.ProtocolError(_("the table is full ({n} players)").format(
                    n=W.MAX_SEATS), fatal=True)
            token = secrets.token_urlsafe(24)
            self.seats.append(Seat(h.name, P.token_digest(token)))
            self.casino.players.append(G.Player(h.name, START_BANKROLL))
            index = len(self.seats) - 1
            back = False
        seat = self.seats[index]
        seat.cid, seat.ready = conn.cid, False
        conn.seat, conn.welcomed = index, True
        cfg = self.config
        out.append(Out(conn.cid, W.welcome(
            name=seat.name, seat=index, token=token, password=bool(self.password_digest),
            seeded=cfg.seed is not None, table=cfg.table, deal_pause=cfg.deal_pause,
            bet_timeout=cfg.bet_timeout, result_pause=cfg.result_pause)))
        log.info("%s %s the casino table", seat.name, "is back at" if back else "joined")
        out += self._notice((_("{name} is back") if back else
                             _("{name} joined the table")).format(name=seat.name))
        return out + self._states()

    def _limit(self, conn: CConn, kind: str, now: float) -> None:
        burst, rate = RATES.get(kind, (10.0, 2.0))
        tokens, at = conn.buckets.get(kind, (burst, now))
        tokens = min(burst, tokens + (now - at) * rate)
        if tokens < 1:
            conn.buckets[kind] = (tokens, now)
            raise P.ProtocolError(_("slow down: too many {kind} messages").format(kind=kind))
        conn.buckets[kind] = (tokens - 1, now)

    def _fail(self, conn: CConn, exc: P.ProtocolError, ref: int | None = None) -> list[Out]:
        conn.errors += 1
        fatal = exc.fatal or conn.errors > self.config.max_errors
        text = exc.message if conn.errors <= self.config.max_errors else _("too many errors")
        if fatal:
            conn.closing = True
        return [Out(conn.cid, M.Error(text, id=ref, fatal=fatal).to_wire(), close=fatal)]

    # -- the round --------------------------------------------------------------------------
    def _request(self, conn: CConn, kind: str, ref: int | None, fields: dict[str, Any],
                 now: float) -> list[Out]:
        c = self.casino
        i = conn.seat
        assert i is not None
        seat = self.seats[i]
        if kind == "ready":
            return self._ready(conn, ref, fields["ready"], now)
        if kind == "rebuy":
            p = c.players[i]
            if p.bankroll + p.staked >= c.table.min_bet:
                raise CasinoError(_("you still have {amount:,} chips: a fresh bankroll is for a "
                                    "player with none left").format(amount=p.bankroll + p.staked))
            p.bankroll = START_BANKROLL
            out = [Out(conn.cid, W.ok(ref, _("A fresh bankroll of {amount:,} play chips.").format(
                amount=START_BANKROLL)))]
            return out + self._notice(_("{name} starts again with {amount:,} play chips").format(
                name=seat.name, amount=START_BANKROLL)) + self._states()
        bet = None
        if kind == "bet":
            bet = G.place(c, i, fields["kind"], fields["target"], fields["amount"])
        elif kind == "undo":
            G.undo(c, i)
        elif kind == "clear":
            G.clear(c, i)
        elif kind == "rebet":
            G.rebet(c, i)
        seat.ready = False  # changed bets: ready again when done
        if not any(s.ready for s in self.seats):
            self.close_at = None  # nobody is waiting any more: no timer
        return [Out(conn.cid, W.ok(ref, bet=bet))] + self._states()

    def _ready(self, conn: CConn, ref: int | None, ready: bool, now: float) -> list[Out]:
        c = self.casino
        seat = self.seats[conn.seat]  # type: ignore[index]
        if c.stage is Stage.DEALING:
            raise CasinoError(_("the cards are being dealt"))
        seat.ready = ready
        if not any(s.ready for s in self.seats):
            self.close_at = None
        out = [Out(conn.cid, W.ok(ref))]
        if c.stage is Stage.SETTLED:
            if self._all_ready():
                out += self._next_round()
                return out
            return out + self._states()
        if ready and self.close_at is None and any(p.bets for p in c.players) \
                and self.config.bet_timeout > 0:
            self.close_at = now + self.config.bet_timeout
        return out + self._maybe_close(now) + (self._states() if c.stage is Stage.BETTING
                                               else [])

    def _all_ready(self) -> bool:
        here = [s for s in self.seats if s.cid is not None]
        return bool(here) and all(s.ready for s in here)

    def _maybe_close(self, now: float) -> list[Out]:
        c = self.casino
        if c.stage is Stage.BETTING and self._all_ready() and any(p.bets for p in c.players):
            return self._close(now)
        if c.stage is Stage.SETTLED and self._all_ready():
            return self._next_round()
        return []

    def _close(self, now: float) -> list[Out]:
        G.close(self.casino)  # the deck is shuffled now, and never sent
        self.close_at = None
        for s in self.seats:
            s.ready = False
        self.deal_at = now + self.config.deal_pause
        if self.config.deal_pause <= 0:
            return self._deal(now)
        return self._notice(_("Round {number}: no more bets").format(
            number=self.casino.round_no)) + self._states()

    def _deal(self, now: float) -> list[Out]:
        c = self.casino
        self.deal_at = None
        if self.config.deal_pause <= 0:
            G.deal_all(c)
        elif c.stage is Stage.DEALING:
            G.deal(c)
        if c.stage is Stage.DEALING:
            self.deal_at = now + self.config.deal_pause
            return self._states()
        won = c.history[-1].jackpot_won if c.history else 0
        nets = ", ".join(f"{p.name} {p.net:+,}" for p in c.players if p.results)
        log.info("casino round %s: %s", c.round_no, nets or "no bets")
        out = self._notice(_("THE JACKPOT of {amount:,} is won!").format(amount=won)) if won \
            else []
        self.next_at = now + self.config.result_pause
        if self.config.result_pause <= 0:
            return out + self._next_round()
        return out + self._states()

    def _next_round(self) -> list[Out]:
        c = self.casino
        if c.stage is not Stage.SETTLED:
            return []
        G.next_round(c)
        self.next_at = None
        for s in self.seats:
            s.ready = False
        return self._states()

    # -- sending ------------------------------------------------------------------------------
    def _here(self) -> list[CConn]:
        return [c for c in self.conns.values() if c.welcomed and not c.closing
                and c.seat is not None]

    def _notice(self, text: str) -> list[Out]:
        msg = M.Notice(text).to_wire()
        return [Out(c.cid, msg) for c in self._here()]

    def state_for(self, seat: int | None) -> dict[str, Any]:
        now = self.clock
        base = W.state(self.casino, [(s.cid is not None, s.ready) for s in self.seats],
                       closes_in=None if self.close_at is None else max(0.0,
                                                                         self.close_at - now),
                       next_in=None if self.next_at is None else max(0.0, self.next_at - now))
        base["you"] = seat
        return base

    def _states(self) -> list[Out]:
        return [Out(c.cid, self.state_for(c.seat)) for c in self._here()]
