"""The app's parsed stylesheets, kept with the package's bytecode (like the dataclass code,
:mod:`pokeroulette_tui.codecache`).

Textual parses every stylesheet text (the app's files and each widget's ``DEFAULT_CSS``)
at every start of the program: ~30 ms of a ~200 ms way from the imports to the start
screen's first frame on a small machine, and the same text gives the same rules each time.
So the rules parsed here are kept in a file and read at the next start instead:

- The key is everything the rules depend on: the CSS text, where it was read from, whether
  it is a widget's default CSS, its tie breaker and scope, and the stylesheet's variables
  (the theme's colours); the file is for one Textual version and one Python.
- Only rules parsed without an error are kept (a text with an error is parsed, and its
  error reported, as Textual does).
- The file sits beside the package's bytecode and is written like the dataclass code's:
  at exit, if something was added, where Python may write bytecode, in one atomic replace. A
  damaged, foreign or older file is ignored (and replaced at exit).
- It serves the app's own stylesheet (:func:`install`); a stylesheet Textual builds afresh
  (after a change of theme) parses as usual.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from typing import Any

LIMIT = 400
"""At most this many parsed texts are kept: when the file is full and new text comes, it is
written afresh with only those this process used."""


def _magic() -> bytes:
    """The file's first line: this format, and the Textual it was made with (its files' size
    and time, not ``textual.__version__``, which reads the package metadata: ~20 ms)."""
    import textual.css.model
    import textual.css.stylesheet

    stamps = []
    for module in (textual.css.stylesheet, textual.css.model):
        try:
            st = os.stat(module.__file__ or "")
        except OSError:
            return b"pokeroulette css rules 2 textual unknown\n"
        stamps.append(f"{st.st_size}.{st.st_mtime_ns}")
    return f"pokeroulette css rules 2 textual {' '.join(stamps)}\n".encode()


def cache_path() -> str | None:
    """Where the file lives (None: this Python keeps no bytecode)."""
    from pokeroulette_tui.codecache import cache_path as code_cache

    path = code_cache()
    if path is None:
        return None
    return os.path.join(os.path.dirname(path), f"css-rules.{sys.implementation.cache_tag}.bin")


class RulesCache:
    """Parsed rules (pickled) by key, read from ``path`` (see the module)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.entries: dict[str, bytes] = self._read() if path else {}
        self.added = 0
        """Texts parsed in this process and not in the file yet."""
        self.served = 0
        """Texts served from the file in this process."""
        self.used: set[str] = set()

    def _read(self) -> dict[str, bytes]:
        from pokeroulette_tui.codecache import read_beside_bytecode

        assert self.path is not None
        data = read_beside_bytecode(self.path, _magic())
        if data is None:
            return {}
        try:
            entries = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a damaged file is no file
            return {}
        if not isinstance(entries, dict):
            return {}
        return {k: v for k, v in entries.items() if type(k) is str and type(v) is bytes}

    @staticmethod
    def key(variables: dict[str, str], css: str, read_from: Any, is_default_rules: bool,
            tie_breaker: int, scope: str) -> str:
        digest = hashlib.blake2b(digest_size=20)
        for part in (css, repr(read_from), repr(bool(is_default_rules)), repr(tie_breaker),
                     scope, repr(sorted(variables.items()))):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        return digest.hexdigest()

    def get(self, key: str) -> list[Any] | None:
        self.used.add(key)
        data = self.entries.get(key)
        if data is None:
            return None
        try:
            rules = pickle.loads(data)
        except Exception:  # noqa: BLE001 - a damaged entry: parsed again
            del self.entries[key]
            return None
        self.served += 1
        return rules

    def put(self, key: str, rules: list[Any]) -> None:
        if any(getattr(rule, "errors", None) for rule in rules):
            return
        try:
            data = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - rules that cannot be kept are parsed each time
            return
        if len(self.entries) >= LIMIT:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        self.entries[key] = data
        self.added += 1

    def save(self) -> bool:
        """Write the file if something was added and Python may write bytecode (True: it
        was written)."""
        from pokeroulette_tui.codecache import write_beside_bytecode

        if not self.added or self.path is None:
            return False
        data = _magic() + pickle.dumps(self.entries, protocol=pickle.HIGHEST_PROTOCOL)
        if not write_beside_bytecode(self.path, data):
            return False
        self.added = 0
        return True


_installed: RulesCache | None = None


def install(stylesheet: Any) -> RulesCache | None:
    """Parse ``stylesheet``'s texts through the file from now on (None: this Textual's
    stylesheet is not the kind this knows, and it parses as usual)."""
    global _installed
    parse = getattr(stylesheet, "_parse_rules", None)
    memory = getattr(stylesheet, "_parse_cache", None)
    if parse is None or memory is None or not isinstance(getattr(stylesheet, "_variables",
                                                                 None), dict):
        return None
    if _installed is None:
        import atexit

        _installed = RulesCache(cache_path())
        atexit.register(_installed.save)
    cache = _installed

    def parse_rules(css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> list[Any]:
        here = (css, read_from, is_default_rules, tie_breaker, scope)  # Textual's own key
        if here in memory:
            return parse(css, read_from, is_default_rules, tie_breaker, scope)
        key = cache.key(stylesheet._variables, *here)
        rules = cache.get(key)
        if rules is None:
            rules = parse(css, read_from, is_default_rules, tie_breaker, scope)
            cache.put(key, rules)
        else:
            memory[here] = rules
        return rules

    stylesheet._parse_rules = parse_rules
    return cache
