"""Leave quietly when the terminal goes away (a dropped SSH connection, a closed window).

Normally the kernel sends SIGHUP and the process ends. But when the game runs under
``su``/``sudo`` or with hang-ups ignored, nothing is sent: Textual's input thread then
spins on a dead terminal and its output queue blocks the app for good, a lost process
burning a core. A small thread watches the terminal for the hang-up and ends the process.
Nothing is lost by that: a local table is in its journal up to the last action, and a
network table keeps the seat for its player to come back.
"""

from __future__ import annotations

import logging
import os
import select
import sys
import threading
from typing import Callable

log = logging.getLogger(__name__)


def _exit_now() -> None:
    os._exit(129)  # 128 + SIGHUP, as if the hang-up had been delivered


def watch_terminal(fd: int | None = None, *, interval: float = 0.5,
                   on_lost: Callable[[], None] = _exit_now) -> threading.Thread | None:
    """Start a daemon thread that calls ``on_lost`` once the terminal on ``fd`` (stdin by
    default) hangs up. Returns None when there is no terminal to watch."""
    if fd is None:
        stream = sys.__stdin__
        if stream is None:
            return None
        try:
            fd = stream.fileno()
        except (OSError, ValueError):
            return None
    if not hasattr(select, "poll") or not os.isatty(fd):
        return None
    poller = select.poll()
    poller.register(fd, select.POLLHUP | select.POLLERR)  # not POLLIN: input is Textual's

    def watch() -> None:
        while True:
            try:
                events = poller.poll(int(interval * 1000))
            except OSError:
                events = [(fd, select.POLLHUP)]
            if any(mask & (select.POLLHUP | select.POLLNVAL) for _, mask in events):
                log.warning("the terminal is gone: leaving")
                on_lost()
                return

    thread = threading.Thread(target=watch, name="terminal-watch", daemon=True)
    thread.start()
    return thread


def terminal_width() -> int:
    """The terminal's columns (``COLUMNS`` when set; 80 when the output is no terminal)."""
    import shutil

    return max(20, shutil.get_terminal_size().columns)


def wrapped(text: str, width: int) -> str:
    """``text`` with each of its lines wrapped at spaces to ``width`` columns: a long path or
    word is kept whole, never cut in two as a terminal's own wrapping does.

    >>> wrapped("Run pokeroulette and press Enter", 16)
    'Run pokeroulette\\nand press Enter'
    """
    import textwrap

    return "\n".join("\n".join(textwrap.wrap(line, width, break_long_words=False,
                                             break_on_hyphens=False)) or line
                     for line in text.splitlines())


def say_wrapped(text: str, file: object = None) -> None:
    """Print ``text`` for the person at the terminal, wrapped (see :func:`wrapped`) to its
    width; as it is where the output is no terminal."""
    out = sys.stdout if file is None else file
    isatty = getattr(out, "isatty", None)
    if callable(isatty) and isatty():
        text = wrapped(text, terminal_width())
    print(text, file=out)  # type: ignore[call-overload]
