"""``serve-ssh --per-process``: each session's app in a child process on a pseudo-terminal,
the room (its tables, the seats' identities) staying in the server's process and answering
the child over an inherited control socket (:mod:`pokeroulette_tui.net.ssh.control`)."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import asyncssh

from pokeroulette_tui.net.ssh.seat import Seat

log = logging.getLogger("pokeroulette.ssh")


class ProcessSeat(Seat):
    """``--per-process``: the session's app runs in a child process on a pseudo-terminal
    (``front.child_command`` plus the name, ``watch`` or ``play`` and the control socket's
    descriptor); the room stays here and answers it over that socket
    (:mod:`pokeroulette_tui.net.ssh.control`), the seat's identity still the SSH login's."""

    proc: Any = None
    master = -1

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.master >= 0:
            try:
                os.write(self.master, data)
            except OSError:
                pass

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.size = (width, height)
        if self.master >= 0:
            _set_size(self.master, *self.size)

    def _hang_up(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            try:
                self.proc.terminate()
            except ProcessLookupError:
                pass

    async def _run(self) -> None:
        import pty
        import socket

        from pokeroulette_tui.net.ssh.control import serve_control
        from pokeroulette_tui.net.ssh.keys import name_key
        from pokeroulette_tui.net.ssh.terminal import clamp_size

        door, chan = self.door, self.chan
        master, slave = pty.openpty()
        self.master = master
        _set_size(master, *clamp_size(*self.size))
        ctl, child_end = socket.socketpair()
        env = {k: v for k, v in os.environ.items()
               if k in ("PATH", "HOME", "LANG", "LC_ALL", "POKEROULETTE_HOME", "PYTHONPATH")}
        from pokeroulette_tui.net.ssh.seat import client_env, socket_backlog
        client = client_env(self.term, chan.get_environment())  # (checked: no NUL, short)
        env.update({k: v for k, v in client.items() if k in ("COLORTERM", "NO_COLOR", "TERM")})
        from pokeroulette_tui.engine.i18n import language
        env["POKEROULETTE_ROOM_LANG"] = language()  # the server's (ui.sshroom.LANG_VARIABLE)
        users = "" if door.watcher or self.front.users is None else \
            str(self.front.users / f"{name_key(door.username)}.json")
        loop = asyncio.get_running_loop()
        control = None
        done = loop.create_future()
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.front.child_command, door.username, "watch" if door.watcher else "play",
                str(child_end.fileno()), users, stdin=slave, stdout=slave, stderr=slave,
                pass_fds=[child_end.fileno()], env=env, start_new_session=True)
            child_end.close()
            os.close(slave)
            slave = -1
            control = asyncio.create_task(serve_control(ctl, self.front.room, door.account,
                                                        watcher=door.watcher))

            def readable() -> None:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    data = b""
                if not data:
                    loop.remove_reader(master)
                    if not done.done():
                        done.set_result(None)
                    return
                try:
                    chan.write(data)
                except (OSError, asyncssh.Error):  # the client is gone: the child is ended
                    loop.remove_reader(master)
                    self._hang_up()
                    return
                if chan.get_write_buffer_size() + socket_backlog(door.conn) > \
                        self.front.limits.max_buffer:
                    self._too_slow()

            loop.add_reader(master, readable)
            await self.proc.wait()
            try:
                await asyncio.wait_for(done, 1)
            except TimeoutError:
                pass
        except OSError as exc:
            log.error("cannot start the app of %s: %s", door.username, exc)
        finally:
            self.front.sessions -= 1
            if slave >= 0:
                os.close(slave)
            child_end.close()
            try:
                loop.remove_reader(master)
            except (ValueError, OSError):
                pass
            os.close(master)
            self.master = -1
            if control is not None:
                control.cancel()
            ctl.close()
            try:
                chan.exit(0)
            except (OSError, asyncssh.Error):
                pass


def _set_size(fd: int, width: int, height: int) -> None:
    import fcntl
    import struct
    import termios

    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
    except OSError:
        pass
