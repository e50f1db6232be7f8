"""What a hosted table tells its connections: each seat's state line (the public part built
once), notices, chat and pings.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net.protocol import ProtocolError
from pokeroulette_tui.net.seats import Conn, HostParts, Out

if TYPE_CHECKING:
    pass

log = logging.getLogger("pokeroulette.net")


class Broadcast(HostParts):
    """Messages out to everyone who is connected."""

    chat_log: list[M.ChatLine]
    version: int

    def _live(self) -> list[Conn]:
        return [c for c in self.conns.values() if c.welcomed and not c.closing]

    def _notice(self, text: str) -> list[Out]:
        log.info("%s", text)
        msg = M.Notice(text).to_wire()
        return [Out(c.cid, msg) for c in self._live()]

    def _broadcast(self, events: list[Event], now: float) -> list[Out]:
        """The new state to every connection, each seen from its own seat: the public part
        is built and encoded once, each seat's own cards and options added
        (:mod:`pokeroulette_tui.net.wire`); spectators share one line."""
        live = [(c, self.seat_of(c.player)) for c in self._live()]
        base = self._states.serial
        wants = [c.deltas and c.state_serial == base and c.state_seat == seat for c, seat in live]
        deltas: dict[int | None, bytes] = {}
        lines = self._state_lines([seat for (__, seat), d in zip(live, wants) if not d], events,
                                  now, deltas=[seat for (__, seat), d in zip(live, wants) if d],
                                  delta_out=deltas)
        serial = self._states.serial
        out = []
        for (c, seat), d in zip(live, wants):
            c.state_serial, c.state_seat = serial, seat  # what its next delta builds on
            out.append(Out(c.cid, data=deltas[seat] if d else lines[seat]))
        return out

    def _seat_status(self) -> list[dict[str, bool]]:
        return [{"connected": p.cid is not None or p.bot is not None, "away": self.away(i),
                 "bot": p.bot is not None} for i, p in enumerate(self.players)]

    def _state_lines(self, seats: list[int | None], events: list[Event], now: float,
                     extra: dict[int | None, list[list[Any]]] | None = None, *,
                     deltas: list[int | None] | None = None,
                     delta_out: dict[int | None, bytes] | None = None
                     ) -> dict[int | None, bytes]:
        """Encoded ``state`` lines for these seats (docs/PROTOCOL.md §4): the view has no
        ``rules`` (the ``lobby`` message carries them). With ``deltas`` (a broadcast) the
        build is tracked: those seats' delta lines go to ``delta_out``. Without (a catch-up
        line) its ``serial`` is null, and that connection's next line is whole."""
        state, driver = self.table.state, self.driver
        deadline_in = next_deal_in = None
        if driver.deadline is not None:
            deadline_in = round(max(0.0, driver.deadline - now), 3)
        if driver.next_deal() is not None:
            next_deal_in = round(max(0.0, driver.next_deal() - now), 3)
        return self._states.build(
            state, seats, events, {"type": M.State.kind, "version": self.version},
            {"deadline_in": deadline_in, "next_deal_in": next_deal_in, "turn": state.to_act,
             "seats": self._seat_status()},
            self.committer, extra, deltas=deltas or (), track=deltas is not None,
            delta_out=delta_out)

    def _goodbye(self, conn: Conn) -> Out:
        """The game is over: the last word to a connection, which is then closed (a client
        waiting for more would wait for ever)."""
        conn.closing = True
        return Out(conn.cid, M.Bye(_("the game is over")).to_wire(), close=True)

    def _on_chat(self, conn: Conn, msg: M.Chat, now: float) -> list[Out]:
        """A chat line (cleaned and checked by :meth:`M.Chat.parse`), rate-limited here."""
        if not self._allowed(conn, "chat", now, self.config.chat_burst, self.config.chat_rate):
            raise ProtocolError(_("slow down: too many chat messages"))
        name = conn.player.name if conn.player else conn.name
        line = M.ChatLine(seat=self.seat_of(conn.player), name=name, text=msg.text,
                          spectator=conn.spectator)
        self.chat_log = self.chat_log[-49:] + [line]
        wire = line.to_wire()
        return [Out(c.cid, wire) for c in self._live()]

    def _on_ping(self, conn: Conn, msg: M.Ping, now: float) -> list[Out]:
        return [Out(conn.cid, M.Pong(msg.id).to_wire())]
