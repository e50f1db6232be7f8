"""The code of this package's dataclasses' methods, compiled once and kept with its bytecode.

Each ``@dataclass`` writes its methods (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` of a frozen class …) as source text and compiles it, at every start of the
program: the ~35 dataclasses on the way to a table spend ~30 ms in ``compile`` on a small
machine, a tenth of the start. The text is the same at every start, so the compiled code
is kept in a file beside the package's bytecode and read at the next start
(:func:`install`).

- Only the classes of this package's modules are served (other libraries' dataclasses are
  made as usual).
- A method's code is exactly what ``exec`` would compile from the same text (same file
  name, no inherited ``__future__`` flags), so a class is the same with the cache or
  without it; text not in the cache is compiled as usual and added.
- The file lives where Python keeps this package's bytecode: its ``__pycache__``, or under
  ``PYTHONPYCACHEPREFIX``. It is written only when Python may write bytecode
  (not under ``PYTHONDONTWRITEBYTECODE``), at exit, only if something was added, in one
  atomic replace; a folder that cannot be written is left alone. A file from another
  Python, a damaged or a foreign one is ignored (and replaced at exit).
"""

# (no ``from __future__ import annotations`` here: ``exec`` of a text inherits the calling
# code's future flags, and dataclasses' own module has none, so neither may this one)
import builtins
import dataclasses
import importlib.util
import marshal
import os
import sys
import types
from typing import Any

_MAGIC = importlib.util.MAGIC_NUMBER + b"pokeroulette dataclass code 1\n"
"""What the file starts with: this Python's bytecode magic (its marshal format goes with
it) and this format's name."""

LIMIT = 1000
"""At most this many methods are kept: when the cache is full and new text comes, the file
is written afresh with only the methods this process used."""

_PACKAGE = __name__.rpartition(".")[0] + "."


def cache_path() -> str | None:
    """Where the cache lives (None: this Python keeps no bytecode)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    try:
        pyc = importlib.util.cache_from_source(os.path.join(os.path.dirname(__file__),
                                                            "__init__.py"))
    except (NotImplementedError, ValueError):
        return None
    return os.path.join(os.path.dirname(pyc), f"dataclass-code.{tag}.bin")


class CodeCache:
    """Compiled method code by its source text, read from ``path`` (see the module)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.codes: dict[str, types.CodeType] = self._read() if path else {}
        self.added = 0
        """Methods compiled in this process and not in the file yet."""
        self.served = 0
        """Methods served from the cache in this process."""
        self.used: set[str] = set()
        """The text of every method this process made (what is kept when the cache is full)."""

    def _read(self) -> dict[str, types.CodeType]:
        assert self.path is not None
        data = read_beside_bytecode(self.path, _MAGIC)
        if data is None:
            return {}
        try:
            codes = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return {}
        if not isinstance(codes, dict):
            return {}
        return {k: v for k, v in codes.items()
                if type(k) is str and type(v) is types.CodeType}

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """``exec`` as :mod:`dataclasses` calls it, with the code of this package's classes
        from the cache."""
        if (type(source) is not str or type(globals) is not dict
                or not str(globals.get("__name__", "")).startswith(_PACKAGE)):
            return builtins.exec(source, globals, locals)
        self.used.add(source)
        code = self.codes.get(source)
        if code is None:
            # what exec(source) compiles: "<string>", and not this module's __future__ flags
            code = compile(source, "<string>", "exec", dont_inherit=True)
            if len(self.codes) >= LIMIT:  # full: keep what this process uses
                self.codes = {k: v for k, v in self.codes.items() if k in self.used}
            self.codes[source] = code
            self.added += 1
        else:
            self.served += 1
        return builtins.exec(code, globals, locals)

    def save(self) -> bool:
        """Write the cache if something was added and Python may write bytecode (True: it
        was written)."""
        if not self.added or self.path is None:
            return False
        try:
            data = _MAGIC + marshal.dumps(self.codes)
        except ValueError:
            return False
        if not write_beside_bytecode(self.path, data):
            return False
        self.added = 0
        return True


def read_beside_bytecode(path: str, magic: bytes) -> bytes | None:
    """What a cache file holds after its ``magic`` first line (None: no such file, or one
    of another kind or version)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[len(magic):] if data.startswith(magic) else None


def write_beside_bytecode(path: str, data: bytes) -> bool:
    """Write a cache file where this package's bytecode is kept, in one atomic replace, if
    Python may write bytecode (True: written; a folder that cannot be written: False)."""
    if sys.dont_write_bytecode:
        return False
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True


_installed: CodeCache | None = None


def install() -> CodeCache:
    """Serve this package's dataclasses from the cache from now on (once per process), and
    save what was added at exit."""
    global _installed
    if _installed is None:
        import atexit

        _installed = CodeCache(cache_path())
        dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
        atexit.register(_installed.save)
    return _installed
