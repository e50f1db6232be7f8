"""The lobby of a hosted table: seats shown to everyone, ready, bots, and starting the game."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.engine.rules import describe_rules
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.nettable import NetTable
from pokeroulette_tui.net.seats import Conn, HostParts, Out, Player
from pokeroulette_tui.table import SeatConfig

if TYPE_CHECKING:
    pass

log = logging.getLogger("pokeroulette.net")


class Lobby(HostParts):
    """Before the game: who is seated and ready; the host's start."""

    clock: float
    start_at: float | None
    opened_at: float | None
    expired: bool
    _lobby_sent: float
    _lobby_due: float | None

    @property
    def started(self) -> bool:
        return self.table is not None

    def start_problem(self, starter: Player | None = None, you: Player | None = None) -> str:
        """Why the game cannot start now, and how to fix it ("" when it can). ``starter``,
        the leader asking to start, counts as ready; ``you``, the reader, is "you"."""
        if self.started:
            return _("the game has started")
        n, low, high = len(self.players), self.rules.fewest_players, self.rules.max_players
        if not self.humans():
            return _("nobody is seated")
        if n < low:
            short = low - n
            return ngettext(
                "these rules need at least {low} players ({seated} seated): wait for {n} more, "
                "or the table's leader adds a bot (or host with --bots {n} or "
                "--rule min_players={least})",
                "these rules need at least {low} players ({seated} seated): wait for {n} more, "
                "or the table's leader adds bots (or host with --bots {n} or "
                "--rule min_players={least})", short).format(low=low, seated=n, n=short,
                                                             least=max(2, n))
        if n > high:
            return _("these rules seat at most {high} players").format(high=high)
        waiting = [p for p in self.humans() if not (p.ready or p.host or p is starter)]
        names = ", ".join(p.name for p in waiting if p is not you)
        if you is not None and you in waiting:
            return _("waiting for you and {names} to be ready").format(names=names) if names \
                else _("waiting for you to be ready")
        if waiting:
            return _("waiting for {names} to be ready").format(names=names)
        return ""

    def leader(self) -> Player | None:
        """Who runs the lobby: the host's seat, or at a headless table the first person
        seated (bots, removing a seat, starting at once)."""
        host = next((p for p in self.players if p.host), None)
        if host is not None or not self.config.headless:
            return host
        return next(iter(self.humans()), None)

    def _may_lead(self, conn: Conn, what: str) -> None:
        if conn.spectator or not (conn.admin or (conn.player is not None
                                                 and conn.player is self.leader())):
            who = "the host" if not self.config.headless else "the table's leader"
            raise P.ProtocolError(f"only {who} {what}")
        if self.started:
            raise P.ProtocolError("the game has already started")

    def _lobby_msg(self, conn: Conn) -> dict[str, Any]:
        seats = [M.LobbySeat(seat=i, name=p.name, bot=p.bot, ready=p.ready or p.bot is not None,
                             connected=p.cid is not None or p.bot is not None, host=p.host,
                             away=self.away(i), left=self.started and self._left(i))
                 for i, p in enumerate(self.players)]
        rules, rules_text = self._rules_wire()
        return M.Lobby(
            started=self.started, you=self.seat_of(conn.player), seats=seats,
            spectators=sum(c.spectator for c in self.conns.values()), rules=rules,
            rules_text=rules_text, min_players=self.rules.fewest_players,
            max_players=self.rules.max_players, turn_timeout=self.config.turn_timeout,
            headless=self.config.headless, bot_level=self.config.bot_level,
            start_problem=self._start_problem_for(conn), leader=self.seat_of(self.leader()),
            starts_in=None if self.start_at is None
            else round(max(0.0, self.start_at - self.clock), 3)).to_wire()

    def _start_problem_for(self, conn: Conn) -> str:
        """``start_problem`` as one connection reads it: for the leader, what stops its
        ``start`` (its own readiness does not: starting is being ready); for the others what
        stops the game, their own part said to them as "you"."""
        leader = self.leader()
        if conn.player is not None and conn.player is leader:
            return self.start_problem(starter=leader)
        return self.start_problem(you=conn.player)

    def _rules_wire(self) -> tuple[dict[str, Any], list[str]]:
        """The rules as the lobby sends them, made once per rule set (shared: never mutate)."""
        cached = self.__dict__.get("_rules_cache")
        if cached is None or cached[0] is not self.rules:
            cached = self._rules_cache = (self.rules, self.rules.to_dict(),
                                          describe_rules(self.rules))
        return cached[1], cached[2]

    def _lobby_all(self, but: Conn | None = None) -> list[Out]:
        """The lobby to everyone (but ``but``), at most once per ``lobby_gap``: a burst of
        changes makes one update, sent when the gap is over (:meth:`_lobby_flush`)."""
        now, gap = self.clock, self.config.lobby_gap
        if now - self._lobby_sent < gap:
            self._lobby_due = self._lobby_sent + gap
            self._wake(self._lobby_due)
            return []
        self._lobby_sent, self._lobby_due = now, None
        return [Out(c.cid, self._lobby_msg(c)) for c in self._live() if c is not but]

    def _lobby_flush(self, now: float) -> list[Out]:
        """The lobby update held back, once its time has come."""
        if self._lobby_due is None:
            return []
        if now < self._lobby_due:
            self._wake(self._lobby_due)
            return []
        return self._lobby_all()

    # The lobby's messages. Who may send them (:meth:`_may_ready`, :meth:`_may_lead`) is
    # checked by TableHost._may_send before their fields are read.

    def _may_ready(self, conn: Conn) -> None:
        if self.started:
            raise P.ProtocolError(_("the game has already started"))
        if conn.player is None:
            raise P.ProtocolError(_("spectators are always ready"))

    def _on_ready(self, conn: Conn, msg: M.Ready, now: float) -> list[Out]:
        conn.player.ready = msg.ready
        return self._lobby_all() + self._maybe_autostart(now)

    def _on_bots(self, conn: Conn, msg: M.Bots, now: float) -> list[Out]:
        count = P.in_range("count", msg.count, lo=0, hi=self.rules.max_players)
        level = self.config.bot_level if msg.level is None else msg.level
        if level not in LEVELS:
            raise P.ProtocolError(f"unknown bot level {level!r} (choose {', '.join(LEVELS)})")
        self.config.bot_level = level
        self._set_bots(count, level)
        return self._lobby_all() + self._maybe_autostart(now)

    def _on_kick(self, conn: Conn, msg: M.Kick, now: float) -> list[Out]:
        """The leader takes a seat back from someone (or a bot) before the game starts."""
        seat = P.in_range("seat", msg.seat, lo=0, hi=len(self.players) - 1)
        player = self.players[seat]
        if player is conn.player or player.host:
            raise P.ProtocolError(_("you cannot remove yourself or the host; leave instead"))
        self.players.remove(player)
        out = []
        gone = self.conns.get(player.cid) if player.cid is not None else None
        if gone is not None:
            gone.closing, gone.player = True, None
            words = _("{name} removed you from the table").format(name=conn.player.name) \
                if conn.player is not None else _("the host removed you from the table")
            out.append(Out(gone.cid, M.Error(words, fatal=True).to_wire(), close=True))
        return out + self._notice(_("{name} was removed from the table").format(
            name=player.name)) \
            + self._lobby_all() + self._maybe_autostart(now)

    def _on_start(self, conn: Conn, msg: M.Start, now: float) -> list[Out]:
        """The leader starts at once: asking to start is being ready (the others must be)."""
        problem = self.start_problem(starter=conn.player)
        if problem:
            raise P.ProtocolError(_("cannot start: {reason}").format(reason=problem))
        if conn.player is not None:
            conn.player.ready = True
        return self._start(now)

    def _maybe_autostart(self, now: float) -> list[Out]:
        """A headless table starts by itself once everyone seated is ready, after a
        countdown that anyone joining (not ready yet) or changing their mind stops."""
        if not self.config.headless or self.started:
            return []
        problem = self.start_problem()
        if problem:
            if self.start_at is None:
                return []
            self.start_at = None
            return self._notice(_("The start is off: {problem}").format(problem=problem)) \
                + self._lobby_all()
        if self.config.start_countdown <= 0 or (self.start_at is not None
                                                and now >= self.start_at):
            return self._start(now)
        if self.start_at is not None:
            self._wake(self.start_at)
            return []
        self.start_at = now + self.config.start_countdown
        self._wake(self.start_at)
        return self._notice(_("Everyone is ready: the game starts in {seconds} s").format(
            seconds=f"{self.config.start_countdown:g}")) + self._lobby_all()

    def _lobby_expiry(self, now: float) -> list[Out]:
        """A lobby that never starts closes, saying why, and admits nobody after."""
        cfg = self.config
        if self.started or self.opened_at is None or cfg.lobby_timeout <= 0:
            return []
        ends = self.opened_at + cfg.lobby_timeout
        if now < ends:
            self._wake(ends)
            return []
        self.expired = True
        why = (f"the lobby closed: the game did not start within "
               f"{cfg.lobby_timeout / 60:g} minutes")
        out, closed = [], M.Error(why, fatal=True).to_wire()
        for c in self.conns.values():
            if not c.closing:
                c.closing = True
                out.append(Out(c.cid, closed, close=True))
        log.info("%s", why)
        return out

    def _start(self, now: float) -> list[Out]:
        seats = [SeatConfig(name=p.name, bot=p.bot) for p in self.players]
        table = NetTable.create(self.rules, seats, seed=self.config.seed,
                                save_path=self.config.save_path)
        self.start_at = None
        self._adopt(table, now)
        table.autosave()  # the first checkpoint
        self._wake(self.driver.next_auto)
        out = self._notice(_("The game starts: {names}").format(
            names=", ".join(p.name for p in self.players)))
        out += self._lobby_all()
        return out + self._broadcast([], now)
