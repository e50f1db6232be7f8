"""One SSH session of the card room: a terminal gets the room's app (made by the front
door's ``make_app``, drawn on the channel through a :class:`Terminal`); a session without
one gets a one-line answer; commands and subsystems are refused."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import asyncssh

from pokeroulette_tui.engine.i18n import N_, _
from pokeroulette_tui.net.ssh.terminal import Terminal

log = logging.getLogger("pokeroulette.ssh")

NO_TERMINAL = N_("This is a card room: it needs a terminal. Connect with ssh -t (and no "
                 "command).")
"""Said (in the server's language) to a session without a terminal."""
ROOM_FULL = N_("The room is full just now; try again in a while.")
FAILED = N_("The room could not open your session; try again in a while.")

_TERM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")
_VALUE = re.compile(r"^[\x20-\x7e]{0,64}$")


def client_env(term: str | None, env: Any) -> dict[str, str]:
    """What the app may take from the client's environment: TERM (a terminal's name, else
    ``xterm``), COLORTERM, NO_COLOR and LANG, each only as short printable ASCII (the app
    puts some of them in ``os.environ`` for a moment: a NUL byte or a megabyte must not get
    there).

    >>> client_env("xterm\\x00evil", {"COLORTERM": "truecolor", "NO_COLOR": "1\\x00", "X": "y"})
    {'COLORTERM': 'truecolor', 'TERM': 'xterm'}
    """
    out: dict[str, str] = {}
    for k, v in (env or {}).items():
        if isinstance(k, bytes):
            k = k.decode("ascii", "replace")
        if isinstance(v, bytes):
            v = v.decode("ascii", "replace")
        if k in ("COLORTERM", "NO_COLOR", "LANG") and isinstance(v, str) and _VALUE.match(v):
            out[k] = v
    out["TERM"] = term if term and _TERM.match(term) else "xterm"
    return out


def socket_backlog(conn: Any) -> int:
    """Bytes the SSH connection ``conn`` has handed to its socket and not yet sent (0 when
    that cannot be told). Uses asyncssh's transport (not a public attribute: checked by
    ``tests/test_ssh_hostile.py``)."""
    transport = getattr(conn, "_transport", None)
    try:
        return int(transport.get_write_buffer_size()) if transport is not None else 0
    except (AttributeError, RuntimeError, TypeError, ValueError):
        return 0


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

    def buffered(self) -> int:
        """Bytes waiting for this client: in the channel (past the client's window) and in
        the connection's socket. asyncssh takes no notice of a full socket, so a client that
        opens a huge window and stops reading would otherwise pile up output here without
        end (hundreds of MB in seconds with a flood of window changes)."""
        return self.chan.get_write_buffer_size() + socket_backlog(self.door.conn)

    def _hold(self, on: bool) -> None:
        """Stop (and start again) reading the client's keys: its SSH window closes meanwhile."""
        try:
            if on:
                self.chan.pause_reading()
            else:
                self.chan.resume_reading()
        except (OSError, asyncssh.Error, AttributeError):
            pass

    def _too_slow(self) -> None:
        log.warning("%s (%s) is not reading: dropped (the seat is held)", self.door.username,
                    self.door.ip)
        if self.door.conn is not None:
            self.door.conn.abort()

    async def _run(self) -> None:
        chan = self.chan
        self.terminal = Terminal(chan.write, self.size, buffered=self.buffered,
                                 max_buffer=self.front.limits.max_buffer,
                                 too_slow=self._too_slow, hold=self._hold)
        for data in self._early:
            self.terminal.feed(data)
        self._early = []
        env = client_env(self.term, chan.get_environment())
        door = self.door
        try:
            app = self.app = self.front.make_app(self.front, door, self.terminal, env)
            self.front.apps.add(app)
            await app.run_async(mouse=True)
        except Exception:
            log.exception("the app of %s failed", door.username)
            if self.app is None and not self.terminal.closed:  # it never started: say so
                try:
                    chan.write((_(FAILED) + "\r\n").encode())
                except (OSError, asyncssh.Error):
                    pass
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
