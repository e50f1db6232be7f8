"""The event loop a server process runs on.

uvloop where it is installed (a dependency on Linux and macOS: a libuv loop whose TLS
transport is compiled code, not asyncio's pure-Python ``sslproto``), else asyncio's own. On
``benchmarks/bench_server.py`` it takes about a tenth off the host's CPU per client action;
every server feature works the same on both (the test suite runs the servers in-process on
asyncio's loop, and the real commands in subprocesses on this one).
``POKEROULETTE_LOOP=asyncio`` picks asyncio's loop anyway (to compare, or to rule it out).

Only the servers use it: a client's loop is Textual's.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Callable, Coroutine, TypeVar

T = TypeVar("T")


def factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the servers' event loop: uvloop's, or None (asyncio's own)."""
    if os.environ.get("POKEROULETTE_LOOP", "").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # (Windows, or an installation without it)
        return None
    return uvloop.new_event_loop


def name() -> str:
    """Which loop :func:`run` runs on: ``uvloop`` or ``asyncio``."""
    return "asyncio" if factory() is None else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the servers' loop (:func:`factory`); Ctrl-C raises
    KeyboardInterrupt here, as asyncio.run does."""
    with asyncio.Runner(loop_factory=factory()) as runner:
        return runner.run(main)
