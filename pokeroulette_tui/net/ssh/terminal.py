"""One SSH client's terminal as the room's app sees it: where output goes (queued, one
write per frame), keys in, the window's size; and the client that stops reading. No Textual
here: the driver that draws on it is :mod:`pokeroulette_tui.ui.ssh_driver`."""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import Callable
from typing import Any

INPUT_SLICE = 512
"""Characters of input handed to the app in one turn of the loop."""
INPUT_HOLD = 64 * 1024
"""Characters of input waiting past which the client is not read until the app catches up."""


class Terminal:
    """One client terminal: where the driver writes, what it reads, its size.

    ``send`` takes the encoded output; ``too_slow`` is called once when more than
    ``max_buffer`` bytes wait for a client that is not reading (``buffered`` says how many)."""

    def __init__(self, send: Callable[[bytes], None], size: tuple[int, int], *,
                 buffered: Callable[[], int] = lambda: 0, max_buffer: int = 2 * 1024 * 1024,
                 too_slow: Callable[[], None] = lambda: None,
                 hold: Callable[[bool], None] = lambda on: None) -> None:
        self.send = send
        self.size = clamp_size(*size)
        self.buffered = buffered
        self.max_buffer = max_buffer
        self.too_slow = too_slow
        self.driver: Any = None
        self.closed = False
        self.written = 0
        self._out: list[str] = []
        self._flush_soon = False
        self._early: list[str] = []  # keys that arrived before the app listened
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self.hold = hold              # hold(True): stop reading the client; hold(False): go on
        self._held = False
        self._inbox: list[str] = []   # keys not yet handed to the app (a slice a turn)
        self._inbox_size = 0
        self._draining = False

    def write(self, text: str) -> None:
        """Queue output; it goes out at :meth:`flush` (Textual flushes after each frame) or
        at the next turn of the loop, so a frame is one SSH packet, not three."""
        if self.closed or not text:
            return
        self._out.append(text)
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self._flush_soon = False
        if self.closed or not self._out:
            self._out.clear()
            return
        data = "".join(self._out).encode("utf-8", "replace")
        self._out.clear()
        self.written += len(data)
        try:
            self.send(data)
        except OSError:  # the channel closed under us (the session is ending anyway)
            self.closed = True
            return
        if self.buffered() > self.max_buffer:
            self.closed = True
            self.too_slow()

    def feed(self, data: bytes | str) -> None:
        """Keys (and mouse reports) from the client: handed to the app a slice of
        :data:`INPUT_SLICE` characters a turn of the loop, so that a client pasting megabytes
        cannot keep every other session of the process waiting (the app would otherwise
        take tens of thousands of keys in one go); past :data:`INPUT_HOLD` characters
        waiting, the client is not read (its SSH window closes) until the app catches up."""
        text = data if isinstance(data, str) else self._decode(data)
        if not text:
            return
        if self.driver is None:
            self._early.append(text)
            return
        self._inbox.append(text)
        self._inbox_size += len(text)
        if self._inbox_size > INPUT_HOLD and not self._held:
            self._held = True
            self.hold(True)
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().call_soon(self._drain)

    def _drain(self) -> None:
        self._draining = False
        if self.driver is None or self.closed:
            self._inbox.clear()
            self._inbox_size = 0
            return
        text = "".join(self._inbox)
        piece, rest = text[:INPUT_SLICE], text[INPUT_SLICE:]
        self._inbox = [rest] if rest else []
        self._inbox_size = len(rest)
        self.driver.feed(piece)
        if rest:
            self._draining = True
            asyncio.get_running_loop().call_soon(self._drain)
        elif self._held:
            self._held = False
            self.hold(False)

    def resize(self, width: int, height: int) -> None:
        self.size = clamp_size(width, height)
        if self.driver is not None:
            self.driver.resized(*self.size)

    def attach(self, driver: Any) -> None:
        self.driver = driver
        early, self._early = self._early, []
        for text in early:
            self.feed(text)

    def detach(self) -> None:
        self.driver = None


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A size a client asked for, kept sane (0 means "unknown": 80×24).

    >>> clamp_size(0, 0), clamp_size(100000, 3), clamp_size(120, 40)
    ((80, 24), (1000, 3), (120, 40))
    """
    width = 80 if width <= 0 else min(width, 1000)
    height = 24 if height <= 0 else min(height, 500)
    return width, height
