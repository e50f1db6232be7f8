"""The wire protocol: newline-delimited JSON messages, their validation and text cleaning.

No sockets here. Every function takes and returns plain values, so the rules of the
protocol are tested without a network (see docs/PROTOCOL.md for the whole protocol).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import unicodedata
from dataclasses import fields
from typing import Any

from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.cards import BY_INDEX, Card
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.state import GameState, Seat
from pokeroulette_tui.engine.view import PlayerView, SeatView

VERSION = 2
"""The protocol version a client sends in ``hello`` and the server answers in ``welcome``."""

MAX_LINE = 64 * 1024
"""Longest line (one message) the server reads from a client, in bytes."""
CLIENT_MAX_LINE = 8 * 1024 * 1024
"""Longest line a client reads from the server (views and the hand history are larger)."""
MAX_NAME = 24
MAX_CHAT = 300
MAX_PASSWORD = 256
MAX_TOKEN = 128
MAX_AMOUNT = 10**12
"""Amounts beyond this are refused before they reach the engine."""

# The message kinds (their classes are in net/messages.py, whose tests hold these equal)
CLIENT_TYPES = ("hello", "ready", "chat", "act", "start", "bots", "kick", "back", "leave",
                "ping", "history", "quit")
SERVER_TYPES = ("welcome", "error", "lobby", "commit", "state", "history", "chat", "notice",
                "ack", "pong", "bye")

# Unicode categories removed from names and chat: controls (ESC, BEL, C1 controls …),
# format characters (bidi overrides and isolates, zero-width joiners), line and paragraph
# separators, surrogates, private use and unassigned code points.
_DROP = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))
_MAX_MARKS = 2  # combining marks kept after one base character (no "zalgo" towers)


class ProtocolError(Exception):
    """A message the server cannot accept; the text goes back to the peer as an error."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.fatal = fatal


# -- framing ---------------------------------------------------------------------

def encode(message: dict[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON (never contains a raw newline).

    >>> encode({"type": "ping"})
    b'{"type":"ping"}\\n'
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line into a message object; raise ProtocolError with a readable reason.

    >>> decode(b'{"type": "ping"}\\n')
    {'type': 'ping'}
    >>> decode(b'{"type": 1}')
    Traceback (most recent call last):
    ...
    pokeroulette_tui.net.protocol.ProtocolError: a message needs a "type" text field
    >>> decode(b'\\xff\\xfe')
    Traceback (most recent call last):
    ...
    pokeroulette_tui.net.protocol.ProtocolError: a message must be UTF-8 text
    """
    if len(line) > MAX_LINE + 2:
        raise ProtocolError(f"a message may be at most {MAX_LINE} bytes", fatal=True)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("a message must be UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ProtocolError("the message is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, ints with too many digits
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise ProtocolError(f"not valid JSON: {reason[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    if not isinstance(data.get("type"), str):
        raise ProtocolError('a message needs a "type" text field')
    return data


# -- text cleaning -----------------------------------------------------------------

def clean_text(text: str, limit: int) -> str:
    """Text safe to show on any terminal: no control or format characters, one line.

    Removes every character of the Unicode categories Cc, Cf, Zl, Zp, Cs, Co and Cn
    (terminal escape sequences lose their ESC, bidi overrides vanish), turns other
    spaces into plain spaces, collapses runs of them, keeps at most two combining marks
    per character, and cuts the result to ``limit`` characters. Rich markup such as
    ``[red]`` is kept as literal text: screens show it with ``Text``, never as markup.

    >>> clean_text("  Ana\\x1b[31m\\u202e  Bo\\n", 24)
    'Ana[31m Bo'
    >>> clean_text("[bold]hi[/]", 24)
    '[bold]hi[/]'
    """
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if cat in _DROP:
            if ch in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029":
                ch, cat = " ", "Zs"
            else:
                continue
        if cat.startswith("M"):
            marks += 1
            if marks > _MAX_MARKS or not out:
                continue
        else:
            marks = 0
        if cat == "Zs":
            if not out or out[-1] == " ":
                continue
            ch = " "
        out.append(ch)
    return "".join(out).strip()[:limit].rstrip()


def clean_name(raw: Any) -> str:
    """A player's name, cleaned; raises ProtocolError if nothing usable is left.

    >>> clean_name(" Ana ")
    'Ana'
    >>> clean_name("\\u202e\\x1b")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.net.protocol.ProtocolError: choose a name of 1 to 24 letters
    >>> clean_name("Ana (host)")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.net.protocol.ProtocolError: a name cannot have ( ) ← ▶ in it: the table marks names with them
    """
    if not isinstance(raw, str) or len(raw) > 4 * MAX_NAME + 64:
        raise ProtocolError(_("choose a name of 1 to {n} letters").format(n=MAX_NAME),
                            fatal=True)
    name = clean_text(raw, 4 * MAX_NAME + 64)
    if not name:
        raise ProtocolError(_("choose a name of 1 to {n} letters").format(n=MAX_NAME),
                            fatal=True)
    if len(name) > MAX_NAME:  # refused, not cut: a cut name may be someone else's
        raise ProtocolError(_("{name}… is too long: a name is at most {n} letters").format(
            name=name[:MAX_NAME], n=MAX_NAME), fatal=True)
    if any(mark in name for mark in NAME_MARKS):  # ("Ana (host)" would pass for the host)
        raise ProtocolError(_("a name cannot have {marks} in it: the table marks names with "
                              "them").format(marks=" ".join(NAME_MARKS)), fatal=True)
    return name


NAME_MARKS = ("(", ")", "←", "▶")
"""What the screens put beside a name ("(host)", "(bot)", "(you)", "← you", "▶"), and so
never in one: a player named "Ana (host)" would pass for the host. (Square brackets stay
allowed: a name such as "[b]x" is shown as typed, never read as markup.)"""


# Letters of other scripts (and digits) that look like Latin ones, after case folding:
# Cyrillic and Greek look-alikes of a-z, and the usual digit-for-letter swaps.
_LOOKALIKE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ј": "j",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z", "γ": "y", "ω": "w",
    "0": "o", "5": "s", "ß": "ss",
    # the upright strokes: capital I (casefolded to i before this table), l, 1, |, and the
    # i-like letters of other scripts are all one letter. Since case never counts, "Ida"
    # is "ida", and it reads as "lda": so i and l are one letter too ("Ali" is "All").
    "i": "l", "1": "l", "|": "l", "ı": "l", "і": "l", "ї": "l", "ι": "l", "ӏ": "l",
    "ǀ": "l",
})


def name_skeleton(name: str) -> str:
    """What a name looks like, for telling look-alike names apart: compatibility forms
    folded, case and accents dropped, other scripts' look-alike letters made Latin, ``rn``
    read as ``m`` (in the spirit of Unicode's confusable skeletons, UTS #39).

    >>> name_skeleton("Аna") == name_skeleton("Ana")   # a Cyrillic А
    True
    >>> name_skeleton("Bo") == name_skeleton("B0"), name_skeleton("Ana") == name_skeleton("Anna")
    (True, False)
    >>> name_skeleton("alice") == name_skeleton("aIice") == name_skeleton("al1ce")
    True
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(c for c in folded if not unicodedata.combining(c))
    return bare.translate(_LOOKALIKE).replace("rn", "m").replace(" ", "")


def same_name(a: str, b: str) -> bool:
    """Names are unique at a table regardless of case, compatibility forms, accents and
    look-alike letters of other scripts."""
    return name_skeleton(a) == name_skeleton(b)


# -- secrets -------------------------------------------------------------------------

def secret_matches(given: Any, expected: str) -> bool:
    """Compare a password or token in constant time (digests of equal length).

    >>> secret_matches("pw", "pw"), secret_matches("pW", "pw"), secret_matches(None, "pw")
    (True, False, False)
    """
    ok_type = isinstance(given, str)
    text = given if ok_type else ""
    a = hashlib.sha256(text.encode("utf-8", "replace")).digest()
    b = hashlib.sha256(expected.encode("utf-8", "replace")).digest()
    return hmac.compare_digest(a, b) and ok_type


SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
"""The cost of the password hash kept in saves (about 16 MiB and a tenth of a second)."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def password_digest(password: str, *, salt: bytes | None = None) -> str:
    """What a save keeps of the table's password (so a resumed table still asks for it): a
    salted, slow scrypt hash, ``scrypt$N$r$p$salt$hash``."""
    salt = os.urandom(16) if salt is None else salt
    key = hashlib.scrypt(password.encode("utf-8", "replace"), salt=salt, n=SCRYPT_N,
                         r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(key)}"


def password_matches(given: Any, digest: str) -> bool:
    """Constant-time check of a password against :func:`password_digest` (or the unsalted
    digest older saves kept)."""
    if not isinstance(given, str) or len(given) > MAX_PASSWORD:
        return False
    raw = given.encode("utf-8", "replace")
    parts = digest.split("$")
    if len(parts) == 6 and parts[0] == "scrypt":
        try:
            n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
            if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16):
                return False
            key = hashlib.scrypt(raw, salt=_unb64(parts[4]), n=n, r=r, p=p, dklen=32,
                                 maxmem=256 * 1024 * 1024)
            return hmac.compare_digest(key, _unb64(parts[5]))
        except (ValueError, TypeError):
            return False
    legacy = hashlib.sha256(b"pokeroulette-password:" + raw).hexdigest()
    return hmac.compare_digest(legacy, digest)


class PasswordCheck:
    """Repeated checks of the table's password without the slow hash each time: a hello
    costs the host one HMAC, not a tenth of a second of its event loop. The slow check runs
    only until one hello has got the password right (a resumed table, which knows only the
    hash), and for every wrong try (which the per-peer back-off slows down)."""

    def __init__(self, digest: str, plain: str | None = None) -> None:
        self.digest = digest
        self._key = os.urandom(32)
        self._known = self._mac(plain) if plain else None

    def _mac(self, text: str) -> bytes:
        return hmac.new(self._key, text.encode("utf-8", "replace"), hashlib.sha256).digest()

    def matches(self, given: Any) -> bool:
        if not isinstance(given, str) or len(given) > MAX_PASSWORD:
            return False
        mac = self._mac(given)
        if self._known is not None:
            return hmac.compare_digest(mac, self._known)
        if password_matches(given, self.digest):
            self._known = mac
            return True
        return False


def token_digest(token: str) -> str:
    """What the server keeps of a resume token (the token itself stays with the client)."""
    return hashlib.sha256(b"pokeroulette-resume:" + token.encode("utf-8", "replace")).hexdigest()


def token_matches(given: Any, digest: str) -> bool:
    if not isinstance(given, str) or not given or len(given) > MAX_TOKEN:
        return False
    return hmac.compare_digest(token_digest(given), digest)


# -- field checks ----------------------------------------------------------------------

def want_int(msg: dict[str, Any], key: str, *, lo: int, hi: int, default: int | None = None) -> int:
    return in_range(key, msg.get(key, default), lo=lo, hi=hi)


def in_range(key: str, value: Any, *, lo: int, hi: int) -> int:
    """``value`` (field ``key``) as a whole number from ``lo`` to ``hi``, else ProtocolError."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ProtocolError(f'"{key}" must be a whole number from {lo} to {hi}')
    return value


def want_bool(msg: dict[str, Any], key: str, default: bool = False) -> bool:
    value = msg.get(key, default)
    if not isinstance(value, bool):
        raise ProtocolError(f'"{key}" must be true or false')
    return value


def want_str(msg: dict[str, Any], key: str, *, limit: int, default: str | None = None) -> str:
    value = msg.get(key, default)
    if not isinstance(value, str):
        raise ProtocolError(f'"{key}" must be text')
    if len(value) > limit:
        raise ProtocolError(f'"{key}" may be at most {limit} characters')
    return value


def check_hello(msg: dict[str, Any]) -> dict[str, Any]:
    """The fields of a ``hello``, checked; wrong versions and bad fields are fatal.

    >>> check_hello({"type": "hello", "version": 2, "name": "Ana"})["name"]
    'Ana'
    >>> check_hello({"type": "hello", "version": 1, "name": "Ana"})  # before rules left views
    Traceback (most recent call last):
    ...
    pokeroulette_tui.net.protocol.ProtocolError: this server speaks protocol version 2, not 1
    """
    if msg.get("type") != "hello":
        raise ProtocolError('the first message must be {"type": "hello", ...}', fatal=True)
    version = msg.get("version")
    if type(version) is not int or version != VERSION:  # (not 2.0, not true)
        raise ProtocolError(_("this server speaks protocol version {version}, not "
                              "{theirs}").format(version=VERSION, theirs=str(version)[:20]),
                            fatal=True)
    try:
        out = {"name": clean_name(msg.get("name")),
               "spectate": want_bool(msg, "spectate"),
               "password": want_str(msg, "password", limit=MAX_PASSWORD, default=""),
               "token": want_str(msg, "token", limit=MAX_TOKEN, default=""),
               "admin": want_str(msg, "admin", limit=MAX_TOKEN, default="")}
    except ProtocolError as exc:
        raise ProtocolError(exc.message, fatal=True) from None
    return out


def check_amounts(action: dict[str, Any]) -> None:
    """Refuse absurd numbers before the engine sees them."""
    for key in ("amount", "position", "index", "seat"):
        value = action.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_AMOUNT:
            raise ProtocolError(f"{key} {str(value)[:16]}… is out of range")


def error(message: str, *, ref: int | None = None, fatal: bool = False) -> dict[str, Any]:
    """An ``error`` message as JSON: ``Error(message, id=ref, fatal=fatal).to_wire()`` of
    :mod:`~pokeroulette_tui.net.messages` (which builds on this module, so it is made here)."""
    msg: dict[str, Any] = {"type": "error", "message": message}
    if ref is not None:
        msg["id"] = ref
    if fatal:
        msg["fatal"] = True
    return msg


# -- views on the wire ------------------------------------------------------------------------

_VIEW_FIELDS = tuple(f.name for f in fields(SeatView))
_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerView))
_OPTION_FIELDS = OPTION_FIELDS = tuple(f.name for f in fields(betting.BetOptions))
_CARD_KEYS = ("stock", "actives", "hand", "added")
_RULES_CACHE: dict[RuleSet, dict[str, Any]] = {}


def _rules_dict(rules: RuleSet) -> dict[str, Any]:
    d = _RULES_CACHE.get(rules)
    if d is None:
        if len(_RULES_CACHE) > 64:
            _RULES_CACHE.clear()
        d = _RULES_CACHE[rules] = rules.to_dict()
    return d


_TEXT: dict[Card, str] = {c: c.text for c in BY_INDEX}


def _text(c: Card | None) -> str | None:
    return None if c is None else _TEXT[c]


def view_to_wire(view: SeatView) -> dict[str, Any]:
    """Exactly ``view.to_dict()`` (a test holds them equal), built several times faster: the
    server sends one per seat after every action. The rules dict is shared: never mutate it."""
    d = {k: getattr(view, k) for k in _VIEW_FIELDS}
    d["rules"] = _rules_dict(view.rules)
    o = view.options
    d["options"] = {k: getattr(o, k) for k in _OPTION_FIELDS} if o is not None else None
    players = []
    for p in view.players:
        pd = {k: getattr(p, k) for k in _PLAYER_FIELDS}
        for key in _CARD_KEYS:
            pd[key] = [None if c is None else _TEXT[c] for c in pd[key]]
        pd["stock_public"] = list(p.stock_public)
        players.append(pd)
    d["players"] = players
    d["suit_draw"] = [_TEXT[c] for c in view.suit_draw]
    d["discards"] = [None if c is None else _TEXT[c] for c in view.discards]
    d["match"] = _text(view.match)
    d["last_match"] = _text(view.last_match)
    d["pots"] = [[a, list(e)] for a, e in view.pots]
    d["pending"] = list(view.pending)
    d["decider"] = list(view.decider) if view.decider is not None else None
    d["result"] = result_to_wire(view.result)
    return d


def result_to_wire(result: Any) -> Any:
    """A hand's result as the view's ``to_dict`` gives it (a typed result has ``to_dict``)."""
    to_dict = getattr(result, "to_dict", None)
    return result if to_dict is None else to_dict()


# -- the state in a save ---------------------------------------------------------------------

_STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name != "rng")
_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


def _json(v: Any) -> Any:
    t = type(v)
    if t is list:
        return [_TEXT[x] if type(x) is Card else _json(x) for x in v]
    if t is Card:
        return _TEXT[v]
    if t is dict:
        return {k: _json(x) for k, x in v.items()}
    if t is RuleSet:
        return _rules_dict(v)
    if v is not None and t not in _PLAIN and hasattr(v, "to_dict"):  # a hand's result
        return v.to_dict()
    return v


_PLAIN = frozenset((int, str, bool, float))


def state_to_save(state: GameState) -> dict[str, Any]:
    """Exactly ``state.to_dict()`` (a test holds them equal), faster: the host saves after
    every action. Holds hidden cards: for the save file only, never for a client."""
    d = {k: _json(getattr(state, k)) for k in _STATE_FIELDS}
    d["seats"] = [{k: _json(getattr(s, k)) for k in _SEAT_FIELDS} for s in state.seats]
    d["hand_start_chips"] = {str(k): v for k, v in state.hand_start_chips.items()}
    d["timeouts"] = {str(k): v for k, v in state.timeouts.items()}
    if state.seeded:
        version, internal, gauss = state.rng.getstate()
        d["rng_state"] = [version, list(internal), gauss]
    return d
