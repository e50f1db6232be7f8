"""Who you are in the SSH card room: the server's host key, and the names keys have claimed.

No sockets here and no asyncssh at import time (the key helpers import it when called).

Two ways to decide whether a public key may use a name (the SSH user name):

* trust on first use (:class:`NameBook`): a name's first key claims it; the claim is kept in
  ``ssh/names.json`` in the server's data folder (written atomically, owner-only); some
  names are reserved (``root``, ``admin``, ``watch`` …) and one key may claim at most
  :data:`NAMES_PER_KEY` names;
* a fixed list (:class:`AuthorizedKeys`): an OpenSSH ``authorized_keys`` file whose lines
  say which name each key may use: a ``name="alice"`` option (several names: one line each),
  or else the key's comment's first word (``ssh-ed25519 AAAA… alice@laptop`` → ``alice``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokeroulette_tui.engine.i18n import _, ngettext
from pokeroulette_tui.net import protocol as P

log = logging.getLogger("pokeroulette.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
NAMES_FILE = "names.json"
NAMES_PER_KEY = 3
"""Names one key may claim on a trust-on-first-use room."""
MAX_NAMES = 100_000
"""Names a room keeps at most (a flood of new keys cannot fill the disk)."""
WATCH = "watch"
"""The user name that watches without a key or a seat."""
RESERVED = frozenset({
    "root", "admin", "administrator", "watch", "guest", "server", "host", "dealer", "bot",
    "system", "operator", "sysop", "mod", "moderator", "support", "help", "info", "nobody",
    "daemon", "pokeroulette", "anonymous", "sshd", "git", "ubuntu", "user", "test",
})
"""Names nobody may claim (``watch`` is the spectators' door)."""

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,23}$")


class KeyError_(Exception):
    """A key or key file that cannot be used; the message says why, in one line."""


def name_problem(name: str) -> str:
    """Why ``name`` cannot be a player's name here ("" when it can).

    >>> name_problem("alice"), name_problem("Bob_2")
    ('', '')
    >>> name_problem("9lives")
    'a name starts with a letter and has 1 to 24 letters, digits, dots, dashes or underscores'
    >>> name_problem("Root")
    'the name Root is reserved'
    """
    if not _NAME.match(name or ""):
        return _("a name starts with a letter and has 1 to 24 letters, digits, dots, dashes "
                 "or underscores")
    if name.casefold() in RESERVED:
        return _("the name {name} is reserved").format(name=name)
    return ""


def name_key(name: str) -> str:
    """The key names are compared under: case and look-alike digits folded (``B0b`` is
    ``bob``), so nobody claims a name that reads like someone else's.

    >>> name_key("B0b") == name_key("bob")
    True
    """
    return P.name_skeleton(name)


# -- the host key ----------------------------------------------------------------------------

def host_key(path: Path) -> tuple[Any, str, bool]:
    """The server's host key at ``path``, made (Ed25519, owner-only 0600) if missing:
    ``(key, fingerprint, made_now)``. Raises :class:`KeyError_` for a key that cannot be
    read or a file others may read."""
    import asyncssh

    made = False
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="pokeroulette room")
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        made = True
    import stat

    try:  # opened once, then checked and read through the same descriptor (no race)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise KeyError_(_("cannot read the host key {path}: {problem}").format(
            path=path, problem=exc.strerror)) from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise KeyError_(_("cannot read the host key {path}: {problem}").format(
                path=path, problem=_("not a file")))
        if info.st_uid != os.geteuid():  # planted by another account: it knows the key
            raise KeyError_(_("the host key {path} belongs to another user").format(path=path))
        if info.st_mode & 0o077:
            raise KeyError_(_("the host key {path} may be read by others (chmod 600 {path})"
                              ).format(path=path))
        data = f.read(1024 * 1024)
    try:
        key = asyncssh.import_private_key(data)
    except (ValueError, asyncssh.KeyImportError) as exc:
        raise KeyError_(_("cannot read the host key {path}: {problem}").format(
            path=path, problem=exc)) from None
    return key, key.get_fingerprint("sha256"), made


def fingerprint(key: Any) -> str:
    """A public key's SHA256 fingerprint, as ``ssh-keygen -lf`` prints it."""
    return key.get_fingerprint("sha256")


# -- trust on first use --------------------------------------------------------------------

def _claimed_at(record: dict) -> float:
    at = record.get("at")
    return at if type(at) in (int, float) else float("inf")


@dataclass
class NameBook:
    """Names and the key that claimed each, kept in ``path`` (a JSON object
    ``{"names": {key: {"name", "key", "at"}}}``; ``key`` is the public key's fingerprint)."""

    path: Path | None
    per_key: int = NAMES_PER_KEY
    names: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def load(cls, path: Path | None, *, per_key: int = NAMES_PER_KEY) -> NameBook:
        book = cls(path, per_key=per_key)
        if path is None or not path.exists():
            return book
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            names = data["names"]
            if not isinstance(names, dict):
                raise ValueError("names is not an object")
            # filed again under today's name key: names that read alike count as one now
            # where an older version told them apart (i, l, 1 …); of two such claims the
            # older one keeps the name
            book.names = {}
            for k, v in names.items():
                if not isinstance(v, dict) or not isinstance(v.get("key"), str):
                    continue
                key = name_key(v["name"]) if isinstance(v.get("name"), str) else str(k)
                held = book.names.get(key)
                if held is None or _claimed_at(v) < _claimed_at(held):
                    book.names[key] = dict(v)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise KeyError_(_("cannot read the room's names {path}: {problem}; move it away "
                              "to start afresh").format(path=path, problem=exc)) from None
        return book

    def owner(self, name: str) -> str | None:
        """The fingerprint of the key that claimed ``name`` (None: nobody has)."""
        rec = self.names.get(name_key(name))
        return None if rec is None else rec["key"]

    def may_use(self, name: str, key_fp: str) -> bool:
        """Whether the key ``key_fp`` may log in as ``name`` now (it owns the name, or may
        claim it)."""
        if name_problem(name):
            return False
        owner = self.owner(name)
        if owner is not None:
            return owner == key_fp
        return self.claimed_by(key_fp) < self.per_key and len(self.names) < MAX_NAMES

    def claimed_by(self, key_fp: str) -> int:
        return sum(1 for rec in self.names.values() if rec["key"] == key_fp)

    def claim(self, name: str, key_fp: str, now: float) -> str:
        """``key_fp`` logs in as ``name``: "" when it owns the name (claimed now if it was
        free, and written to disk before the answer), else why not."""
        problem = name_problem(name)
        if problem:
            return problem
        with self._lock:
            owner = self.owner(name)
            if owner == key_fp:
                return ""
            if owner is not None:
                return _("the name {name} belongs to another key").format(name=name)
            if self.claimed_by(key_fp) >= self.per_key:
                return ngettext("this key has claimed {n} name already",
                                "this key has claimed {n} names already",
                                self.per_key).format(n=self.per_key)
            if len(self.names) >= MAX_NAMES:
                return _("this room takes no new names")
            self.names[name_key(name)] = {"name": name, "key": key_fp, "at": round(now)}
            try:
                self._save()
            except OSError as exc:
                del self.names[name_key(name)]
                log.error("cannot write %s: %s", self.path, exc)
                return _("the room cannot record new names just now")
            log.info("%s claimed by %s", name, key_fp)
            return ""

    def _save(self) -> None:
        if self.path is None:
            return
        from pokeroulette_tui.engine.folders import atomic_write

        atomic_write(self.path, json.dumps({"names": self.names}, indent=1, sort_keys=True))


# -- a fixed list of keys ---------------------------------------------------------------------

_OPTION = re.compile(r'([A-Za-z0-9-]+)(?:="((?:[^"\\]|\\.)*)")?')


def _split_options(line: str) -> tuple[str, str]:
    """``options key-type base64 comment`` → (options, the rest); ("", line) without options.

    >>> _split_options('name="al ice",no-pty ssh-ed25519 AAAA c')
    ('name="al ice",no-pty', 'ssh-ed25519 AAAA c')
    >>> _split_options('ssh-ed25519 AAAA c')
    ('', 'ssh-ed25519 AAAA c')
    """
    if line.startswith(("ssh-", "ecdsa-", "sk-")):
        return "", line
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch in " \t" and not quoted:
            return line[:i], line[i:].strip()
    return line, ""


@dataclass
class AuthorizedKeys:
    """``--authorized-keys FILE``: only these keys, each under the names its lines give."""

    path: Path
    names: dict[str, set[str]] = field(default_factory=dict)  # fingerprint -> name keys
    shown: dict[str, str] = field(default_factory=dict)       # name key -> name as written
    skipped: list[str] = field(default_factory=list)          # lines not used, and why

    @classmethod
    def load(cls, path: Path) -> AuthorizedKeys:
        """Read ``path`` (raises :class:`KeyError_` when it cannot be read or names no key)."""
        import asyncssh

        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyError_(_("cannot read {path}: {problem}").format(
                path=path, problem=getattr(exc, "strerror", None) or exc)) from None
        keys = cls(path)
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            options, rest = _split_options(line)
            parts = rest.split(None, 2)
            if len(parts) < 2:
                keys.skipped.append(_("line {number}: not a key").format(number=number))
                continue
            try:
                key = asyncssh.import_public_key(f"{parts[0]} {parts[1]}")
            except (ValueError, asyncssh.KeyImportError):
                keys.skipped.append(_("line {number}: not a key").format(number=number))
                continue
            name = ""
            for m in _OPTION.finditer(options):
                if m.group(1).lower() == "name" and m.group(2) is not None:
                    name = m.group(2)
            if not name and len(parts) > 2:
                name = re.split(r"[@\s]", parts[2].strip(), maxsplit=1)[0]
            problem = name_problem(name) if name else _("no name (add name=\"NAME\")")
            if problem:
                keys.skipped.append(_("line {number}: {problem}").format(number=number,
                                                                         problem=problem))
                continue
            keys.names.setdefault(fingerprint(key), set()).add(name_key(name))
            keys.shown.setdefault(name_key(name), name)
        if not keys.names:
            raise KeyError_(_("{path} lists no key with a usable name ({problems})").format(
                path=path, problems="; ".join(keys.skipped[:3])) if keys.skipped
                else _("{path} lists no key with a usable name").format(path=path))
        return keys

    def may_use(self, name: str, key_fp: str) -> bool:
        # a name as the rules want it (no look-alike letter, space or escape that folds to
        # a listed name: the login is the name the others read)
        return not name_problem(name) and name_key(name) in self.names.get(key_fp, ())

    def claim(self, name: str, key_fp: str, now: float) -> str:
        return "" if self.may_use(name, key_fp) else "this key may not use that name here"
