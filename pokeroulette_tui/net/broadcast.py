"""What a hosted table tells its connections: each seat's state line (the public part built
once), notices, chat and pings.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.seats import Conn, HostConfig, Out, Player

if TYPE_CHECKING:
    from pokeroulette_tui.driver import Driver
    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.net.nettable import NetTable

log = logging.getLogger("pokeroulette.net")


class Broadcast:
    """Messages out to everyone who is connected."""

    config: HostConfig
    rules: RuleSet
    conns: dict[int, Conn]
    players: list[Player]
    table: NetTable | None
    driver: Driver | None
    chat_log: list[dict[str, Any]]
    version: int

    def _live(self) -> list[Conn]:
        return [c for c in self.conns.values() if c.welcomed and not c.closing]

    def _notice(self, text: str) -> list[Out]:
        log.info("%s", text)
        msg = {"type": "notice", "text": text}
        return [Out(c.cid, msg) for c in self._live()]

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
            self.committer, extra)

    def _goodbye(self, conn: Conn) -> Out:
        """The game is over: the last word to a connection, which is then closed (a client
        waiting for more would wait for ever)."""
        conn.closing = True
        return Out(conn.cid, {"type": "bye", "reason": "the game is over"}, close=True)

    def _on_chat(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        raw = P.want_str(msg, "text", limit=4 * P.MAX_CHAT)
        text = P.clean_text(raw, 4 * P.MAX_CHAT)
        if len(text) > P.MAX_CHAT:
            raise P.ProtocolError(f"chat messages are at most {P.MAX_CHAT} characters")
        if not text:
            raise P.ProtocolError("empty chat message")
        if not self._allowed(conn, "chat", now, self.config.chat_burst, self.config.chat_rate):
            raise P.ProtocolError("slow down: too many chat messages")
        name = conn.player.name if conn.player else conn.name
        line = {"type": "chat", "seat": self.seat_of(conn.player), "name": name, "text": text,
                "spectator": conn.spectator}
        self.chat_log = self.chat_log[-49:] + [line]
        return [Out(c.cid, line) for c in self._live()]

    def _on_ping(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        reply: dict[str, Any] = {"type": "pong"}
        if "id" in msg:
            reply["id"] = P.want_int(msg, "id", lo=0, hi=2**53)
        return [Out(conn.cid, reply)]
