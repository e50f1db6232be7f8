"""Turns at a hosted table: a player's action checked and played, leaving, coming back, and the
table's own steps (dealer, bots, the turn timer) from the driver.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pokeroulette_tui.driver import BotJob
from pokeroulette_tui.engine.actions import (
    Action,
    Advance,
    Discard,
    IllegalAction,
    Leave,
    StartHand,
    action_from_dict,
)
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import DEAL_PHASES, SHOWING_PHASES, dealer_to_act
from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.net import messages as M
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import DEALS
from pokeroulette_tui.net.seats import Conn, HostParts, Out

if TYPE_CHECKING:
    pass

log = logging.getLogger("pokeroulette.net")

TIMED_OUT: dict[str, str] = {
    "check": N_("Time ran out for {name}: check ({n} of {limit} before being marked away)"),
    "call": N_("Time ran out for {name}: call ({n} of {limit} before being marked away)"),
    "fold": N_("Time ran out for {name}: fold ({n} of {limit} before being marked away)"),
    "all_in": N_("Time ran out for {name}: all in ({n} of {limit} before being marked away)"),
    "bet": N_("Time ran out for {name}: bet ({n} of {limit} before being marked away)"),
    "raise": N_("Time ran out for {name}: raise ({n} of {limit} before being marked away)"),
    "stock_to_active": N_("Time ran out for {name}: stock to active ({n} of {limit} before "
                          "being marked away)"),
    "cut": N_("Time ran out for {name}: cut ({n} of {limit} before being marked away)"),
    "discard": N_("Time ran out for {name}: discard ({n} of {limit} before being marked away)"),
}
"""What the others are told when the turn timer played for a seat, by the kind of action it
played (a whole sentence each: the action's words sit differently in each language)."""

STOOD_PAT = N_("Time ran out for {name}: stand pat ({n} of {limit} before being marked away)")
"""… when it played a draw that exchanges nothing (what the timer plays at the draw): the
seat stood pat, whatever card was picked on its screen."""


class Turns(HostParts):
    """Actions in, and the driver's steps; what changed goes to :meth:`_broadcast`."""

    version: int
    next_wakeup: float | None
    _bot_job: BotJob | None
    waiting: dict[int, Conn]
    _idle_check: float

    def _on_act(self, conn: Conn, msg: M.Act, now: float) -> list[Out]:
        ref = msg.id
        if ref <= conn.last_id:
            raise P.ProtocolError(_("this request id was used already (replayed action ignored)"))
        conn.last_id = ref
        if not self.started:
            raise P.ProtocolError(_("the game has not started"))
        seat = self.seat_of(conn.player)
        if seat is None:
            raise P.ProtocolError(_("spectators cannot act"))
        version, raw = msg.version, msg.action
        if raw.get("seat", seat) != seat:
            raise P.ProtocolError(_("you can only act for your own seat"))
        try:
            action = action_from_dict({**raw, "seat": seat})
        except IllegalAction as exc:
            raise P.ProtocolError(str(exc)) from None
        if isinstance(action, (StartHand, Advance)):
            raise P.ProtocolError(_("only the dealer deals"))
        if isinstance(action, Leave):
            return self._on_leave(conn, msg, now)
        if not self.driver.turn_start <= version <= self.version:
            raise P.ProtocolError(_("stale action: the table has moved on since that view, "
                                    "nothing was done"))
        try:
            events = self.driver.play(action, now)
        except IllegalAction as exc:
            raise P.ProtocolError(str(exc)) from None
        was_away = self.away(seat)
        self.table.state.timeouts[seat] = 0
        out = self._apply(events, action, now)
        if was_away:
            out += self._notice(_("{name} is back").format(name=conn.player.name)) \
                + self._lobby_all()
        return out + [Out(conn.cid, M.Ack(id=ref, version=self.version).to_wire())]

    def _on_back(self, conn: Conn, msg: M.Back, now: float) -> list[Out]:
        """The player says they are back: only their own seat (the one this connection
        plays) is cleared; a spectator, or a seat that is not away, is told so."""
        seat = self.seat_of(conn.player)
        if seat is None or not self.started or not self.away(seat):
            return [Out(conn.cid, M.Notice(_("you are not away")).to_wire())]
        self._come_back(seat, now)  # a full turn again
        self._wake_for_timer()
        # the new state to everyone: the turn's deadline changed for all who watch it
        return self._notice(_("{name} is back").format(name=conn.player.name)) \
            + self._lobby_all() + self._broadcast([], now)

    def _on_leave(self, conn: Conn, msg: M.Leave | M.Act, now: float) -> list[Out]:
        """Leaving. In the lobby (or a spectator leaving) the connection is closed. In a game
        the seat folds and is out, and the connection stays as a spectator's, as a local
        table goes on for whoever left: a new ``welcome`` (no seat) and from then on the
        public view only."""
        player = conn.player
        conn.player = None
        if player is None or not self.started:
            conn.closing = True
            out = [Out(conn.cid, M.Bye(_("you left the table")).to_wire(), close=True)]
            if player is None:
                return out
            player.cid = None
            log.info("%s left the table", player.name)
            self.players.remove(player)
            return out + self._notice(_("{name} left").format(name=player.name)) + self._lobby_all() \
                + self._maybe_autostart(now)
        player.cid = None
        log.info("%s left the table and watches", player.name)
        seat = self.seat_of(player)
        conn.spectator, conn.name = True, player.name
        conn.state_serial = conn.state_seat = None  # its next state line is whole, and public
        out = [Out(conn.cid, self._welcome(conn, None))]
        events = self.driver.leave(seat, now)
        out += self._apply(events, Leave(seat=seat), now)
        if not events:  # (nothing changed: the new spectator still needs its view)
            out.append(Out(conn.cid, data=self._state_lines([None], [], now, {
                None: self.committer.opened(None)})[None]))
        if isinstance(msg, M.Act):  # (as any action: the ack after the state)
            out.append(Out(conn.cid, M.Ack(id=msg.id, version=self.version).to_wire()))
        return out + self._lobby_all()

    def _on_quit(self, conn: Conn, msg: M.Quit, now: float) -> list[Out]:
        """The player closes this terminal on purpose; the seat is held as for a lost
        connection, and the others are told that they quit (when the connection closes)."""
        conn.quitting = True
        return []

    def _apply(self, events: list[Event], action: Action, now: float) -> list[Out]:
        """What the others learn after the driver played ``action``: commitments, views."""
        if not events:
            return []
        commits = self.committer.refresh(self.table.state)
        events = self._and_dealer(events, now, commits)
        out = [Out(c.cid, m) for m in commits for c in self._live()]
        self.version = len(self.table.actions)
        self._wake(self.driver.next_auto)
        self._wake_for_timer()
        out += self._broadcast(events, now)
        state = self.table.state
        if state.game_over:
            out += self._notice(_("Game over: {reason}").format(
                reason=state.game_over_reason or _("the game has ended")))
            out += [self._goodbye(c) for c in self._live()]
        return out

    def _and_dealer(self, events: list[Event], now: float, commits: list[dict]) -> list[Event]:
        """``events`` and those of the dealer's steps due at once after them (a table with no
        pause), which go out in the same state line: each seat is sent one line, not one a
        step. Once a step has dealt, turned or cut cards, only steps that deal none join it
        (the deck check reads each deal against the view that comes with it), and a hand's
        end is never joined to the next deal. A reshuffle's commitments go to ``commits``
        (sent before the line)."""
        driver, state = self.driver, self.table.state
        while dealer_to_act(state) and state.phase not in DEAL_PHASES and (
                state.phase in SHOWING_PHASES or DEALS.isdisjoint(e.kind for e in events)):
            step = driver.step(now)
            if step.action is None or step.timed_out is not None:
                break
            events = events + driver.play(step.action, now)
            commits += self.committer.refresh(state)
        return events

    def _wake_for_timer(self) -> None:
        if self.driver is not None and self.driver.deadline is not None:
            self._wake(self.driver.deadline)

    def _wake(self, at: float) -> None:
        if self.next_wakeup is None or at < self.next_wakeup:
            self.next_wakeup = at

    def poll(self, now: float, *, max_steps: int = 64) -> list[Out]:
        """Everything that is due by ``now``: hello timeouts, dealer and bot steps, the turn
        timer. Afterwards ``next_wakeup`` is when to call again (None: only on news)."""
        self.next_wakeup = None
        self.clock = now
        out = self._sweep(now) + self._lobby_expiry(now) + self._maybe_autostart(now) \
            + self._lobby_flush(now)
        if self.table is None or self.table.state.game_over:
            return out
        for __ in range(max_steps):
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

    def _sweep(self, now: float) -> list[Out]:
        """Close connections that said no hello in time (the oldest first: the waiting room
        is in order of arrival) and, now and then, spectators silent too long."""
        cfg, out = self.config, []
        for c in list(self.waiting.values()):
            if c.closing:
                self._admitted(c)
                continue
            limit = c.opened + cfg.hello_timeout
            if now < limit:
                self._wake(limit)
                break
            c.closing = True
            self._admitted(c)
            out.append(Out(c.cid, M.Error(_("no hello within {n:g} seconds").format(
                n=cfg.hello_timeout), fatal=True).to_wire(), close=True))
        if cfg.spectator_idle > 0 and now >= self._idle_check:
            self._idle_check = now + min(1.0, cfg.spectator_idle / 4)
            for c in self.conns.values():
                if c.spectator and not c.closing and now >= c.heard + cfg.spectator_idle:
                    c.closing = True
                    out.append(Out(c.cid, M.Error(
                        _("closed after {n:g} seconds without a word").format(
                            n=cfg.spectator_idle), fatal=True).to_wire(), close=True))
            if any(c.spectator for c in self.conns.values()):
                self._wake(self._idle_check)
        return out

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
        self.clock = now
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
            return self._notice(ngettext(
                "{name} timed out {n} time and is away: the table checks or folds for them "
                "until they are back",
                "{name} timed out {n} times and is away: the table checks or folds for them "
                "until they are back", n).format(name=name, n=n)) + self._lobby_all()
        words = STOOD_PAT if isinstance(action, Discard) and not action.indices \
            else TIMED_OUT.get(action.kind)
        if words is None:  # (the timer plays only the kinds above)
            return self._notice(_("Time ran out for {name} ({n} of {limit} before being "
                                  "marked away)").format(name=name, n=n, limit=limit))
        return self._notice(_(words).format(name=name, n=n, limit=limit))
