"""Who sits where at a hosted table: players, connections, seat names and the bots that fill
empty seats.

Also the host's plain records (:class:`Out`, :class:`HostConfig`, :class:`Player`,
:class:`Conn`), shared by its parts.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.state import LEFT
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.identity import AccessPolicy, Account

if TYPE_CHECKING:
    from pokeroulette_tui.driver import Driver
    from pokeroulette_tui.net.nettable import NetTable

#: How many messages of each kind a connection may send: (burst, per second after it). Chat's
#: own limits are in :class:`HostConfig`; an ``act`` is legal once a turn, and every refused
#: one counts towards ``max_errors``.
RATES: dict[str, tuple[float, float]] = {
    "ready": (4, 1.0), "bots": (4, 1.0), "start": (4, 1.0),
    "kick": (4, 1.0), "back": (4, 1.0), "leave": (4, 1.0), "ping": (10, 2.0),
    "history": (4, 1.0), "quit": (4, 1.0),
}


class Quiet(P.ProtocolError):
    """A refusal not worth an answer (the same flood again): counted as an error, unsaid."""


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
    absent_grace: float = 60.0     # no turn timer: a disconnected seat's turn waits this long,
                                   # then the table checks or folds for it (0: waits for ever)
    delay: float = 0.6             # pause before each dealer or bot step
    hand_pause: float = 2.0        # the result pause: after a hand, before the next deal
    bots: int = 0
    bot_level: str = "random"
    headless: bool = True          # no host seat: the game starts when every player is ready
    hello_timeout: float = 5.0
    max_connections: int = 2048    # sockets at once (kept below the open-file limit); when
                                   # full, a waiting or idle one goes
    max_pending: int = 1024        # connections yet to say hello: when full, the oldest goes
    max_pending_per_peer: int = 768  # … the same for one address (or account)
    max_spectators: int = 32
    spectator_idle: float = 600.0  # a spectator that sends nothing this long is closed
    lobby_gap: float = 0.25        # lobby updates to everyone at most this often
    lobby_timeout: float = 3600.0  # a lobby that has not started by then closes
    start_countdown: float = 10.0  # headless: everyone ready, the game starts this much later
    chat_burst: int = 5
    chat_rate: float = 1.0         # chat messages per second, after the burst
    max_errors: int = 50           # protocol errors before a connection is closed
    history_hands: int = 2         # hands sent on joining; older ones by pages on request
    history_page: int = 5          # hands in one page of a ``history`` request
    access: AccessPolicy | None = None  # Unix-socket tables: who may connect
    owner_uid: int | None = None   # the hosting account (Unix sockets): admin unless headless
    allow_hints: bool = False      # players' clients may show hints (their own view only)


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
    heard: float = 0.0              # when it last sent anything
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)  # kind: (tokens, at)
    told: set[str] = field(default_factory=set)  # kinds told "slow down" since their last pass
    account: Account | None = None  # who the kernel says is connected (Unix sockets)
    peer: str = "unknown"           # what failed hellos are counted under
    refused: str = ""               # this account may not join: the answer to its hello
    quitting: bool = False          # said it is closing on purpose (``quit``): the seat is held
    deltas: bool = False            # asked for state deltas in its hello (PROTOCOL.md §4)
    state_serial: int | None = None  # the serial of its last state line (None: a catch-up)
    state_seat: int | None = None   # the seat that line was seen from


class HostParts:
    """What every part of the host (admission, lobby, seats, turns, broadcast) reads of the
    TableHost they make up together."""

    config: HostConfig
    rules: RuleSet
    conns: dict[int, Conn]
    players: list[Player]
    table: NetTable | None
    driver: Driver | None
    clock: float


class Seats(HostParts):
    """The seats: whose they are, taking one back, naming, bots."""

    def seat_of(self, player: Player | None) -> int | None:
        if player is None:
            return None
        for i, p in enumerate(self.players):
            if p is player:
                return i
        return None

    def away(self, seat: int) -> bool:
        return self.driver is not None and self.driver.away(seat)

    def _come_back(self, seat: int | None, now: float) -> bool:
        """The seat's player is here again (reconnected, said ``back``, acted): the turn
        timer's count starts afresh and, if the seat was away, its turns are full turns
        again. True when it was away."""
        if seat is None or self.table is None or self.driver is None:
            return False
        was_away = self.away(seat)
        if self.table.state.timeouts.get(seat):
            self.table.state.timeouts[seat] = 0
        if was_away or self.config.turn_timeout <= 0:
            # (its turn now, if it is: a full one; with no turn timer, none, as before it
            # left: the wait of an absent seat's turn ends)
            self.driver.rearm(now)
        return was_away

    def humans(self) -> list[Player]:
        return [p for p in self.players if p.bot is None]

    def _left(self, seat: int | None) -> bool:
        return seat is None or self.table is None or self.table.state.seats[seat].status == LEFT

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
                raise P.ProtocolError(_("{name} is a bot's name here; choose another").format(
                    name=p.name), fatal=True)
            if p.uid is not None:
                raise P.ProtocolError(_("the name {name} belongs to an account of this "
                                        "machine").format(name=p.name), fatal=True)
            if self.started and self._left(self.seat_of(p)):  # (with a token or without)
                raise P.ProtocolError(_("you left this table; join with --spectate to watch"),
                                      fatal=True)
            if P.token_matches(token, p.token_digest) or (conn.admin and p.host):
                old = p.cid
                self._take_back(p, conn)
                # a token works once: the welcome carries the next one, so a token that was
                # seen or stolen is worthless once its owner is back
                new = secrets.token_urlsafe(24)
                p.token_digest = P.token_digest(new)
                return p, new, old, True
            raise P.ProtocolError(_("the name {name} is taken: join under another name (a seat of "
                                    "your own is taken back by joining from where you first "
                                    "joined)").format(name=p.name), fatal=True)
        if self.started:
            raise P.ProtocolError(_("the game has already started; join with --spectate to "
                                    "watch"), fatal=True)
        if len(self.players) >= self.rules.max_players:
            bots = [p for p in self.players if p.bot is not None]
            if not bots:
                raise P.ProtocolError(_("the table is full"), fatal=True)
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
                raise P.ProtocolError(_("you left this table; join with --spectate to watch"),
                                      fatal=True)
        p.cid = conn.cid
        if self.started:  # back at the keyboard: not away any more (the others read "is back")
            self._come_back(self.seat_of(p), self.clock)
        return p

    def _free_name(self, name: str, uid: int) -> str:
        """An account's seat name, made distinct if a bot or another account has it."""
        if not any(P.same_name(p.name, name) for p in self.players):
            return name
        return f"{name[:P.MAX_NAME - 12]}#{uid}"

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
