"""A card room on loopback and SSH clients that read its screens (for tests/test_ssh_*.py
and benchmarks/bench_ssh.py)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from pokeroulette_tui.net.ssh.keys import NameBook
from pokeroulette_tui.net.ssh.room import Room
from pokeroulette_tui.net.ssh.server import Front, Limits, start
from pokeroulette_tui.ui.sshroom import make_room_app, preload

_ESCAPES = re.compile(r"\x1b\[[0-9;?<>=$ ]*[A-Za-z@`~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78DEHM]")


def plain(text: str) -> str:
    """The text of terminal output with its escape sequences taken out."""
    return _ESCAPES.sub("", text)


@dataclass
class Served:
    front: Front
    room: Room
    server: Any
    port: int

    async def close(self) -> None:
        self.server.close()
        for app in list(self.front.apps):
            app.hang_up()
        await asyncio.sleep(0.05)
        await self.room.close()


async def serve_room(folder: Path | None = None, *, book: Any = None, limits: Limits | None = None,
                     room: Room | None = None, per_process: bool = False) -> Served:
    key = asyncssh.generate_private_key("ssh-ed25519")
    room = room or Room(turn_timeout=30.0, delay=0.0, hand_pause=0.0, start_countdown=0.0)
    if book is None:
        book = NameBook.load(folder / "names.json" if folder else None)
    preload()
    front = Front(room, book, make_room_app, limits or Limits(backoff_base=0.05, backoff_cap=0.2,
                                               login_timeout=5.0),
                  users=folder / "users" if folder else None)
    if per_process:
        import sys

        from pokeroulette_tui.ui.sshroom import CHILD
        front.child_command = [sys.executable, *CHILD]
    server = await start(front, bind="127.0.0.1", port=0, host_key=key)
    return Served(front, room, server, server.sockets[0].getsockname()[1])


@dataclass
class Player:
    """One SSH client with a terminal: what it was sent, as text."""

    conn: Any
    writer: Any
    reader: Any
    chan: Any
    out: list[str] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self) -> None:
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.out.append(data.decode("utf-8", "replace"))
                self.changed.set()
        except (asyncssh.Error, OSError):
            return

    @property
    def text(self) -> str:
        return plain("".join(self.out))

    def clear(self) -> None:
        self.out.clear()

    async def wait_for(self, words: str, timeout: float = 10.0) -> None:
        """Wait until ``words`` has been drawn (since the last :meth:`clear`)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while words not in self.text:
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"{words!r} never appeared; the screen said:\n"
                                     + self.text[-2000:])
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    def press(self, keys: str) -> None:
        self.writer.write(keys.encode())

    async def close(self) -> None:
        self.conn.close()
        if self._task is not None:
            self._task.cancel()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        except (TimeoutError, asyncssh.Error, OSError):
            pass


async def connect(port: int, user: str, key: Any = None, *, size: tuple[int, int] = (100, 30),
                  term: str | None = "xterm-256color", env: dict[str, str] | None = None,
                  start_reading: bool = True) -> Player:
    conn = await asyncssh.connect("127.0.0.1", port, username=user,
                                  client_keys=[key] if key is not None else [],
                                  known_hosts=None, agent_path=None, config=[],
                                  ignore_encrypted=True)
    kw: dict[str, Any] = {"encoding": None, "env": env or {}}
    if term is not None:
        kw.update(term_type=term, term_size=size)
    writer, reader, _ = await conn.open_session(**kw)
    player = Player(conn, writer, reader, writer.channel)
    if start_reading:
        player.start()
    return player


def new_key():
    return asyncssh.generate_private_key("ssh-ed25519")


async def until(check, timeout: float = 10.0, step: float = 0.05):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(step)
