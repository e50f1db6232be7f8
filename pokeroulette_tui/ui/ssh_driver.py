"""A Textual driver that draws on a byte channel (an SSH session) instead of this process's
terminal, so that many apps run in one process, one per connection.

The public parts of Textual's :class:`~textual.driver.Driver` are used (``write``,
``process_message``, ``post_message`` of a Resize); keys and mouse are decoded by Textual's
own xterm parser (``textual._xterm_parser``, not public: hence the ``ssh`` extra's narrower
Textual range, and ``tests/test_ssh_driver.py``, which checks this driver on its own).

It talks to a :class:`~pokeroulette_tui.net.ssh.terminal.Terminal` (``app.terminal``): the
SSH session feeds that keys and sizes, and sends what is written.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from pokeroulette_tui.net.ssh.terminal import Terminal

ESCAPE_WAIT = 0.06
"""Seconds between the parser's checks for a lone Esc (the Esc key, not a sequence's start:
Textual's ESCDELAY, 0.1 s by default, decides), a few times after each packet."""
TICKS = 4


class ChannelDriver(Driver):
    """Draw an app on ``app.terminal`` (a :class:`Terminal`); read its keys from there."""

    def __init__(self, app: Any, *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.terminal: Terminal = app.terminal
        self._parser = XTermParser(debug)
        self._tick: asyncio.TimerHandle | None = None
        self._ticks = 0
        self._active = False

    # -- output ---------------------------------------------------------------------------
    def write(self, data: str) -> None:
        self.terminal.write(data)

    def flush(self) -> None:
        self.terminal.flush()

    def start_application_mode(self) -> None:
        self._active = True
        w = self.write
        w("\x1b[?1049h")  # the alternate screen
        self._mouse_on()
        w("\x1b[?25l")    # hide the cursor
        w("\x1b[?1004h")  # focus in / out
        w("\x1b[?2004h")  # bracketed paste
        w("\x1b[?7l")     # no line wrap
        w("\x1b[?2026$p")  # does the terminal draw frames whole? (the answer is parsed)
        self.terminal.attach(self)
        self.resized(*self.terminal.size)

    def _mouse_on(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h")

    def disable_input(self) -> None:
        self.terminal.detach()
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def stop_application_mode(self) -> None:
        self.disable_input()
        if not self._active:
            return
        self._active = False
        w = self.write
        if self._mouse:
            w("\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l")
        w("\x1b[?2004l\x1b[?7h\x1b[?1004l")
        w("\x1b[?1049l\x1b[?25h")
        self.flush()

    # -- input ----------------------------------------------------------------------------
    def send_message(self, message: Message) -> None:
        self._app.post_message(message)  # (on the app's own loop: no thread hop)

    def feed(self, text: str) -> None:
        """Decode keys and mouse reports and send them to the app."""
        for event in self._parser.feed(text):
            self.process_message(event)
        if "\x1b" not in text:
            return
        self._ticks = TICKS  # a lone Esc waits a moment for the rest of a sequence
        if self._tick is None:
            self._tick = self._loop.call_later(ESCAPE_WAIT, self._flush_parser)

    def _flush_parser(self) -> None:
        self._tick = None
        for event in self._parser.tick():
            self.process_message(event)
        self._ticks -= 1
        if self._ticks > 0 and self._active:
            self._tick = self._loop.call_later(ESCAPE_WAIT, self._flush_parser)

    def resized(self, width: int, height: int) -> None:
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))
