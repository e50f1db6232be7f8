"""Admission: a new connection's hello, password or account check, back-off for failed guesses,
the welcome and the catch-up for a (re)joining player.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.identity import Account, HelloGuard, peer_key
from pokeroulette_tui.net.seats import RATES, Conn, HostParts, Out, Quiet

if TYPE_CHECKING:
    pass

#: The answer to a connection that made way for a newer one before saying hello (made once:
#: a crowd of sockets may cost many of them a second).
_CROWDED = P.encode(M.Error("too many connections are waiting to say hello; try again",
                            fatal=True).to_wire())

log = logging.getLogger("pokeroulette.net")


class Admission(HostParts):
    """Connections coming in: who they are and what they may do."""

    guard: HelloGuard
    password_digest: str
    password_check: P.PasswordCheck
    admin_token: str | None
    waiting: dict[int, Conn]
    waiting_from: dict[str, dict[int, Conn]]

    def connect(self, cid: int, now: float, peer: object = None) -> list[Out]:
        """A new connection; ``peer`` is its Account when the kernel told us (Unix sockets),
        else its address (counted for failed hellos and pending connections).

        Nobody is refused for a crowd of sockets that never say hello: when the waiting room
        is full, its oldest connection (from this address first) makes way, so an honest
        client, which says hello at once, always gets its turn."""
        self.clock = now
        if self.opened_at is None:
            self.opened_at = now
        key = peer_key(peer)
        out = self._make_room(key)
        if out is None:
            return [Out(cid, M.Error(_("the server is full"), fatal=True).to_wire(), close=True)]
        account = peer if isinstance(peer, Account) else None
        refusal = ""
        if self.config.access is not None:
            refusal = self.config.access.refusal(account) if account else \
                _("this table admits accounts of this machine only")
            if refusal:  # told in answer to the hello (closing before it could lose the news)
                self.guard.log(log, now, "refused %s: %s", peer_key(peer), refusal)
        conn = self.conns[cid] = Conn(cid=cid, opened=now, heard=now, account=account, peer=key,
                                      refused=refusal)
        self.waiting[cid] = conn
        self.waiting_from.setdefault(key, {})[cid] = conn
        self._wake(now + self.config.hello_timeout)
        return out

    def _admitted(self, conn: Conn) -> None:
        """``conn`` said a good hello, or is gone: it leaves the waiting room."""
        self.waiting.pop(conn.cid, None)
        mine = self.waiting_from.get(conn.peer)
        if mine is not None:
            mine.pop(conn.cid, None)
            if not mine:
                del self.waiting_from[conn.peer]

    def _make_room(self, key: str) -> list[Out] | None:
        """Close what must go for one more connection from ``key``: the oldest connection yet
        to say hello (its address's own first), else the spectator silent longest; None when
        nothing can go (the server is full of players). The waiting room is kept in order of
        arrival, so this costs the same with 5 connections as with 500."""
        cfg = self.config
        mine = self.waiting_from.get(key, {})
        victim = None
        if len(mine) >= cfg.max_pending_per_peer:
            victim = next(iter(mine.values()))
        elif len(self.waiting) >= cfg.max_pending:
            victim = next(iter(self.waiting.values()))
        elif len(self.conns) >= cfg.max_connections:
            if self.waiting:
                victim = next(iter(self.waiting.values()))
            else:
                idle = [c for c in self.conns.values() if c.spectator and not c.closing]
                victim = min(idle, key=lambda c: c.heard) if idle else None
            if victim is None:
                return None
        if victim is None:
            return []
        victim.closing = True
        self._admitted(victim)
        if not victim.welcomed:
            return [Out(victim.cid, data=_CROWDED, close=True)]
        return [Out(victim.cid, M.Error(_("the server is full: making room for a player"),
                                        fatal=True).to_wire(), close=True)]

    def _allowed(self, conn: Conn, kind: str, now: float, burst: float, rate: float) -> bool:
        """Take one of ``conn``'s tokens for ``kind`` (a bucket of ``burst`` refilled at
        ``rate`` a second); False when it has none left."""
        tokens, at = conn.buckets.get(kind, (burst, now))
        tokens = min(burst, tokens + (now - at) * rate)
        if tokens < 1:
            conn.buckets[kind] = (tokens, now)
            return False
        conn.buckets[kind] = (tokens - 1, now)
        return True

    def _limit(self, conn: Conn, kind: str, now: float) -> None:
        """Refuse a message kind sent faster than :data:`RATES` allows."""
        if kind not in RATES:
            return
        burst, rate = RATES[kind]
        if self._allowed(conn, kind, now, burst, rate):
            conn.told.discard(kind)
            return
        if kind in conn.told:  # said once: the rest of the flood is dropped unanswered
            raise Quiet(_("slow down: too many {kind} messages").format(kind=kind))
        conn.told.add(kind)
        raise P.ProtocolError(_("slow down: too many {kind} messages").format(kind=kind))

    def oversized(self, cid: int) -> list[Out]:
        """The peer sent a line longer than the limit: refuse it and close (its tail is never
        read as a message)."""
        conn = self.conns.get(cid)
        if conn is None:
            return []
        return self._fail(conn, P.ProtocolError(f"a message may be at most {P.MAX_LINE} bytes",
                                                fatal=True))

    def _fail(self, conn: Conn, exc: P.ProtocolError, ref: int | None = None) -> list[Out]:
        conn.errors += 1
        fatal = exc.fatal or conn.errors > self.config.max_errors
        text = exc.message if conn.errors <= self.config.max_errors else _("too many errors")
        if fatal:
            conn.closing = True
            if conn.welcomed:
                log.info("closing connection %s: %s", conn.cid, text)
        elif isinstance(exc, Quiet):
            return []
        return [Out(conn.cid, M.Error(text, id=ref, fatal=fatal).to_wire(), close=fatal)]

    def _hello(self, conn: Conn, msg: dict[str, Any], now: float) -> list[Out]:
        """The first line of a connection: it must be a good ``hello`` (else a fatal error),
        or a ``which`` probe (``pokeroulette join`` asking whether this is a casino table),
        answered with what is played here, and the connection closed."""
        if msg.get("type") == "which":
            conn.closing = True
            self._admitted(conn)
            return [Out(conn.cid, {"type": "which", "game": "table", "version": P.VERSION},
                        close=True)]
        h = M.Hello.parse(msg)
        name = h.name
        if self.expired:
            raise P.ProtocolError(_("this table's lobby closed: the game never started"),
                                  fatal=True)
        wait = self.guard.wait(conn.peer, now)
        if wait > 0:  # not even looked at: guessing gets slower with each failure
            raise P.ProtocolError(_("too many failed attempts: wait {seconds} s and try "
                                    "again").format(seconds=f"{wait:.0f}"), fatal=True)
        if conn.account is not None:  # the kernel said who this is: no password, no token
            conn.admin = conn.account.uid == self.config.owner_uid and not self.config.headless
            name = conn.account.seat_name()
        else:
            conn.admin = bool(self.admin_token and h.admin
                              and P.secret_matches(h.admin, self.admin_token))
            if self.password_digest and not conn.admin and not self.password_check.matches(
                    h.password):
                self.guard.failed(conn.peer, now)
                raise P.ProtocolError(_("wrong password") if h.password else
                                      _("this table has a password (join with --password, "
                                        "--password-file FILE or POKEROULETTE_PASSWORD)"),
                                      fatal=True)
        conn.name = name
        conn.deltas = h.deltas
        if h.spectate:
            mine = conn.account.uid if conn.account is not None else None
            # (your own account's seat is fine, and so is a seat whose player left: that
            # player may watch under their own name)
            taken = next((p.name for i, p in enumerate(self.players)
                          if P.same_name(p.name, conn.name) and (mine is None or p.uid != mine)
                          and not (self.started and self._left(i))), None)
            if taken is not None:
                raise P.ProtocolError(_("{name} is seated at this table: watch under another "
                                        "name").format(name=taken), fatal=True)
            if sum(c.spectator for c in self.conns.values()) >= self.config.max_spectators:
                raise P.ProtocolError(_("too many spectators"), fatal=True)
            conn.spectator = conn.welcomed = True
            # the host's own login (or admin token) watching is a spectator like any other:
            # no start, bots or seats from this chair (the admin's word let it in, no more)
            conn.admin = False
            self._admitted(conn)
            out = [Out(conn.cid, self._welcome(conn, None))]
            out += self._catch_up(conn, now)
            return out + self._notice(_("{name} is watching").format(name=conn.name)) \
                + self._lobby_all(but=conn)
        away = {i for i in range(len(self.players)) if self.away(i)} \
            if self.started and self.table is not None else set()
        player, token, replaced, existing = self._claim(conn, name, h.token)
        conn.player, conn.welcomed = player, True
        self._admitted(conn)
        out = []
        old = self.conns.get(replaced) if replaced is not None else None
        if old is not None:
            old.closing, old.player = True, None
            out.append(Out(old.cid, M.Error(_("replaced by a new connection for this seat"),
                                            fatal=True).to_wire(), close=True))
        out.append(Out(conn.cid, self._welcome(conn, token)))
        out += self._catch_up(conn, now)
        out += self._notice((_("{name} is back") if existing else _("{name} joined")).format(
            name=player.name))
        out += self._lobby_all(but=conn)
        if existing and self.seat_of(player) in away:
            # a seat back from away has a full turn again: the new deadline to everyone
            out += self._broadcast([], now)
        return out + self._maybe_autostart(now)

    def _welcome(self, conn: Conn, token: str | None) -> dict[str, Any]:
        return M.Welcome(
            name=conn.player.name if conn.player else conn.name, seat=self.seat_of(conn.player),
            token=token, spectator=conn.spectator, admin=conn.admin, started=self.started,
            password=bool(self.password_digest),
            account=conn.account.login if conn.account is not None else None,
            # a fixed shuffle (--seed, for tests): every deck is predictable
            seeded=self.config.seed is not None or bool(
                self.table is not None and self.table.state.seeded),
            hints=self.config.allow_hints).to_wire()

    def _history_page(self, seat: int | None, end: int, count: int, *,
                      page: bool) -> dict[str, Any]:
        """Up to ``count`` hands of the history before index ``end``, as ``seat`` may see
        them; ``page``: an answer to a request (the client adds it before what it has)."""
        history = self.table.history
        start = max(0, end - count)
        hands = history[start:end]
        return M.History(
            page=page, more=start > 0, first=hands[0][0].hand_no if hands and hands[0] else None,
            hands=[[e.redacted_for(seat).to_dict() for e in hand] for hand in hands]).to_wire()

    def _on_history(self, conn: Conn, msg: M.HistoryRequest, now: float) -> list[Out]:
        """Older hands, a page at a time: ``before`` is the first hand number the client has
        (in a game: see TableHost._may_send)."""
        before = msg.before
        history = self.table.history
        end = next((i for i, hand in enumerate(history) if hand and hand[0].hand_no >= before),
                   len(history))
        return [Out(conn.cid, self._history_page(self.seat_of(conn.player), end,
                                                 self.config.history_page, page=True))]

    def _catch_up(self, conn: Conn, now: float) -> list[Out]:
        """Everything a (re)joining connection needs: lobby, recent chat, and in a game the
        history, the deck commitment, the openings so far and the current view."""
        out = [Out(conn.cid, self._lobby_msg(conn))]
        out += [Out(conn.cid, line.to_wire()) for line in self.chat_log[-20:]]
        if not self.started:
            return out
        seat = self.seat_of(conn.player)
        out.append(Out(conn.cid, self._history_page(seat, len(self.table.history),
                                                    self.config.history_hands, page=False)))
        if self.committer.cards:
            out.append(Out(conn.cid, self.committer.commit_message()))
        out.append(Out(conn.cid, data=self._state_lines([seat], [], now, {
            seat: self.committer.opened(seat)})[seat]))
        if self.table.state.game_over:  # the final table and the standings, then goodbye
            out.append(self._goodbye(conn))
        return out
