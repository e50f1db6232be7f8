"""The SSH front door of the card room: keys prove names, and a terminal gets the app.

Locked down: public keys only (no passwords), a login deadline, no exec, no subsystem (no
SFTP), no port, agent or X11 forwarding; per-address back-off after failed logins; a cap
on the connections yet to log in (the oldest make way, so a crowd of silent sockets never
keeps an honest player out), on the connections one address keeps logged in, and on the
sessions of the room; a client that stops reading is dropped (its seat is held).

What a client is told before it logs in (refusals, the banner before the login) is in the
server's language: the SSH library's callbacks run in the process's context, not a
session's (:mod:`pokeroulette_tui.engine.i18n`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.net.identity import HelloGuard
from pokeroulette_tui.net.ssh.keys import WATCH, AuthorizedKeys, NameBook, name_problem
from pokeroulette_tui.net.ssh.room import Room
from pokeroulette_tui.net.ssh.seat import NO_TERMINAL, Seat  # noqa: F401  (NO_TERMINAL: tests)
from pokeroulette_tui.net.ssh.terminal import Terminal

log = logging.getLogger("pokeroulette.ssh")

@dataclass
class Limits:
    """How much the room takes at once, and how fast."""

    login_timeout: float = 20.0      # seconds to log in, after which the connection goes
    pending: int = 256               # connections yet to log in, at once (the oldest goes)
    pending_per_address: int = 64    # … from one address
    per_address: int = 16            # logged-in connections one address keeps at once
    max_sessions: int = 200          # apps running at once in the room
    backoff_base: float = 1.0        # after a failed login an address waits this, doubling …
    backoff_cap: float = 60.0        # … up to this
    max_buffer: int = 2 * 1024 * 1024  # bytes waiting for a client before it is dropped
    keepalive: float = 30.0          # seconds between keep-alives (3 unanswered: dropped)


#: Makes the app of one session: ``make_app(front, door, terminal, env)`` (the screens are
#: the UI layer's: :func:`pokeroulette_tui.ui.sshroom.make_room_app`). The app must have
#: ``run_async()``, ``hang_up()`` and ``close_session()``.
AppMaker = Callable[["Front", "Door", Terminal, dict[str, str]], Any]


@dataclass(eq=False)
class Front:
    """What every connection of one room shares."""

    room: Room
    book: NameBook | AuthorizedKeys
    make_app: AppMaker
    limits: Limits = field(default_factory=Limits)
    users: Path | None = None         # the players' settings folder (None: not kept)
    child_command: list[str] = field(default_factory=list)  # --per-process: the app's
                                      # process (ProcessSeat); empty: apps run here
    guard: HelloGuard = field(default_factory=HelloGuard)
    pending: OrderedDict[int, Door] = field(default_factory=OrderedDict)
    logged_in: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    apps: set[Any] = field(default_factory=set)
    refused: int = 0                  # connections turned away (for the log and the tests)

    def __post_init__(self) -> None:
        self.guard = HelloGuard(base=self.limits.backoff_base, cap=self.limits.backoff_cap)
        self._stdout, self._stderr = sys.stdout, sys.stderr

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def arrive(self, door: Door) -> str:
        """A new connection: "" to go on, else why it is turned away."""
        wait = self.guard.wait(door.ip, self.now())
        if wait > 0:
            return _("too many failed logins from your address: wait {seconds:.0f} s").format(
                seconds=wait)
        mine = [d for d in self.pending.values() if d.ip == door.ip]
        victim = None
        if len(mine) >= self.limits.pending_per_address:
            victim = mine[0]
        elif len(self.pending) >= self.limits.pending:
            victim = next(iter(self.pending.values()))
        if victim is not None:  # the oldest silent one makes way
            self.pending.pop(id(victim), None)
            victim.turn_away(_("too many connections are waiting to log in; try again"))
        self.pending[id(door)] = door
        return ""

    def logged(self, door: Door) -> str:
        """``door`` logged in: "" to go on, else why not."""
        self.pending.pop(id(door), None)
        if self.logged_in.get(door.ip, 0) >= self.limits.per_address:
            return _("too many connections from your address")
        self.logged_in[door.ip] = self.logged_in.get(door.ip, 0) + 1
        door.counted = True
        return ""

    def gone(self, door: Door) -> None:
        self.pending.pop(id(door), None)
        if door.counted:
            door.counted = False
            left = self.logged_in.get(door.ip, 1) - 1
            if left > 0:
                self.logged_in[door.ip] = left
            else:
                self.logged_in.pop(door.ip, None)
        elif door.tried_keys:  # offered keys, none would do: slower next time
            now = self.now()
            self.guard.failed(door.ip, now)
            self.guard.log(log, now, "failed login as %r from %s", door.username, door.ip)

    def app_ended(self, app: Any) -> None:
        self.apps.discard(app)
        if not self.apps:  # each app redirects print(); with none left, give them back
            sys.stdout, sys.stderr = self._stdout, self._stderr


def plain_reason(text: str) -> str:
    """A disconnect's reason in plain ASCII: OpenSSH prints a reason through its log, which
    shows any other byte as an octal escape (``ep\\303\\244onnistunut``), so Finnish and
    Swedish letters lose their dots there (the login banner keeps them: it is printed as text).

    >>> plain_reason("odota 2 s: liian monta epäonnistunutta"), plain_reason("för många")
    ('odota 2 s: liian monta epaonnistunutta', 'for manga')
    """
    import unicodedata

    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c)).encode(
        "ascii", "replace").decode("ascii")


class Door(asyncssh.SSHServer):
    """One SSH connection, from its first byte to its close."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.conn: asyncssh.SSHServerConnection | None = None
        self.ip = "?"
        self.username = ""
        self.key_fp: str | None = None
        self.tried_keys = False
        self.account: Any = None
        self.watcher = False
        self.counted = False
        self.sessions = 0
        self._told = False

    def turn_away(self, reason: str) -> None:
        if self.conn is not None:
            self.front.refused += 1
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, plain_reason(reason))

    # -- the connection ---------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?",)
        self.ip = str(peer[0])
        problem = self.front.arrive(self)
        if problem:
            self.front.refused += 1
            # after the server's version line (sent when this returns): a disconnect before
            # it is bytes an OpenSSH client cannot read ("banner line contains invalid
            # characters"); after it, the client prints the reason
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, plain_reason(problem))

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.gone(self)

    # -- who ------------------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = username
        if username == WATCH:  # watchers need no key and get no seat
            return False
        problem = name_problem(username)
        if problem:
            self._tell(_("{problem}; log in as another name (or as watch to watch)").format(
                problem=problem))
        return True

    def _tell(self, text: str) -> None:
        if not self._told and self.conn is not None:
            self._told = True
            self.conn.send_auth_banner(text + "\r\n")

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.tried_keys = True
        fp = key.get_fingerprint("sha256")
        if self.front.book.may_use(username, fp):
            self.key_fp = fp  # the last key accepted is the one that signed
            return True
        if isinstance(self.front.book, NameBook) and self.front.book.owner(username):
            self._tell(_("the name {name} belongs to another key").format(name=username))
        elif not name_problem(username):
            self._tell(_("this key may not log in as {name} here").format(name=username))
        return False

    def auth_completed(self) -> None:
        assert self.conn is not None
        if self.username == WATCH:
            self.watcher = True
            self.account = self.front.room.account(WATCH, watcher=True)
        else:
            problem = self.front.book.claim(self.username, self.key_fp or "", time.time())
            if problem:  # someone else's key claimed it a moment ago
                self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                     plain_reason(problem))
                return
            self.account = self.front.room.account(self.username)
        problem = self.front.logged(self)
        if problem:
            self.turn_away(problem)

    # -- what a logged-in connection may ask for ---------------------------------------------
    def session_requested(self) -> Any:
        if self.account is None or self.sessions >= 1:
            return False
        self.sessions += 1
        if self.front.child_command:
            from pokeroulette_tui.net.ssh.perprocess import ProcessSeat
            return ProcessSeat(self)
        return Seat(self)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        log.info("refused a forwarding to %s:%s from %s", dest_host, dest_port, self.ip)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused a remote forwarding from %s", self.ip)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


async def start(front: Front, *, bind: str, port: int, host_key: Any) -> Any:
    """Listen; returns the asyncssh server (``.sockets`` tells the port)."""
    import gc

    lim = front.limits
    # what is loaded by now (Textual and the screens: ``make_app``'s module loads them) stays
    # for good: kept out
    # of the garbage collector's full passes, which with many apps in one process would
    # otherwise scan it all again and again (a pause for every session at once)
    gc.collect()
    gc.freeze()
    return await asyncssh.create_server(
        lambda: Door(front), bind, port, server_host_keys=[host_key],
        encoding=None, login_timeout=lim.login_timeout, keepalive_interval=lim.keepalive,
        keepalive_count_max=3, agent_forwarding=False, x11_forwarding=False,
        allow_scp=False, sftp_factory=None, password_auth=False, kbdint_auth=False,
        public_key_auth=True, allow_pty=True, line_editor=False)
