"""One SSH session of the card room: a terminal gets the room's app (made by the front
door's ``make_app``, drawn on the channel through a :class:`Terminal`); a session without
one gets a one-line answer; commands and subsystems are refused."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncssh

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.net.ssh.terminal import Terminal

log = logging.getLogger("pokeroulette.ssh")

NO_TERMINAL = N_("This is a card room: it needs a terminal. Connect with ssh -t (and no "
                 "command).")
"""Said (in the server's language) to a session without a terminal."""
ROOM_FULL = N_("The room is full just now; try again in a while.")


class Seat(asyncssh.SSHServerSession):
    """One SSH session: a terminal gets the room's app; anything else a one-line answer."""

    def __init__(self, door: Any) -> None:  # (a server.Door)
        self.door = door
        self.front = door.front
        self.chan: Any = None
        self.term: str | None = None
        self.size = (80, 24)
        self.terminal: Any = None
        self.app: Any = None
        self.task: asyncio.Task[None] | None = None
        self._early: list[bytes] = []

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type or "xterm"
        self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        log.info("refused a command from %s", self.door.ip)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused the subsystem %r from %s", subsystem[:40], self.door.ip)
        return False

    def session_started(self) -> None:
        if self.term is None:
            self.chan.write((_(NO_TERMINAL) + "\r\n").encode())
            self.chan.exit(1)
            return
        if self.front.sessions >= self.front.limits.max_sessions:
            self.chan.write((_(ROOM_FULL) + "\r\n").encode())
            self.chan.exit(1)
            return
        self.front.sessions += 1
        self.task = asyncio.create_task(self._run(), name=f"ssh-app-{self.door.username}")

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.terminal is not None:
            self.terminal.feed(data)
        elif len(self._early) < 64:
            self._early.append(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.size = (width, height)
        if self.terminal is not None:
            self.terminal.resize(width, height)

    def eof_received(self) -> bool:
        self._hang_up()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._hang_up()

    def _hang_up(self) -> None:
        if self.terminal is not None:
            self.terminal.closed = True
        if self.app is not None:
            self.app.hang_up()

    def _too_slow(self) -> None:
        log.warning("%s (%s) is not reading: dropped (the seat is held)", self.door.username,
                    self.door.ip)
        if self.door.conn is not None:
            self.door.conn.abort()

    async def _run(self) -> None:
        chan = self.chan
        self.terminal = Terminal(chan.write, self.size, buffered=chan.get_write_buffer_size,
                                 max_buffer=self.front.limits.max_buffer,
                                 too_slow=self._too_slow)
        for data in self._early:
            self.terminal.feed(data)
        self._early = []
        env = {k: v for k, v in chan.get_environment().items()
               if k in ("COLORTERM", "NO_COLOR", "LANG")}
        env["TERM"] = self.term or "xterm"
        door = self.door
        try:
            app = self.app = self.front.make_app(self.front, door, self.terminal, env)
            self.front.apps.add(app)
            await app.run_async(mouse=True)
        except Exception:
            log.exception("the app of %s failed", door.username)
        finally:
            self.front.sessions -= 1
            if self.app is not None:
                self.front.app_ended(self.app)
                try:
                    await self.app.close_session()  # (the seat is held at the table)
                except Exception:
                    log.exception("closing the table session of %s", door.username)
            if not self.terminal.closed:
                try:
                    chan.exit(0)
                except (OSError, asyncssh.Error):
                    pass
