"""The lobby of a hosted table: seats shown to everyone, ready, bots, and starting the game."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.bots import LEVELS
from pokeroulette_tui.engine.rules import describe_rules
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.nettable import NetTable
from pokeroulette_tui.net.seats import Conn, HostConfig, Out, Player
from pokeroulette_tui.table import SeatConfig

if TYPE_CHECKING:
    from pokeroulette_tui.driver import Driver
    from pokeroulette_tui.engine.rules import RuleSet

log = logging.getLogger("pokeroulette.net")


class Lobby:
    """Before the game: who is seated and ready; the host's start."""

    config: HostConfig
    rules: RuleSet
    conns: dict[int, Conn]
    players: list[Player]
    table: NetTable | None
    driver: Driver | None
    clock: float
    _lobby_sent: float
    _lobby_due: float | None

    @property
    def started(self) -> bool:
        return self.table is not None

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
