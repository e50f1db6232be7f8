"""Giving the memory a finished hand freed back to the system.

A hand's screens and event lines are built from many short-lived strings and objects; when
they are freed, the C allocator (glibc's malloc) keeps most of the pages for later instead
of returning them, so a client's resident memory crept up hand after hand although what it
holds did not grow (its live Python objects stay flat over a busy table's minute). At each
new hand :func:`give_back` asks glibc to return its free pages (``malloc_trim(0)``): about
0.3 ms at a fast table, once a hand. Elsewhere (macOS, musl, Windows) there is no such call
and nothing is done.
"""

from __future__ import annotations

import sys
from typing import Callable

_trim: Callable[[int], int] | None = None
_looked = False


def _find_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim  # the C library this process runs on
    except (OSError, AttributeError):  # no glibc (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back() -> bool:
    """Return the allocator's free pages to the system; True if the C library can."""
    global _trim, _looked
    if not _looked:
        _looked = True
        _trim = _find_trim()
    if _trim is None:
        return False
    _trim(0)
    return True
