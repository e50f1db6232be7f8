"""Persistence as a write-ahead journal: a checkpoint, then one appended line per action.

A journal is JSON lines. The first line is a *checkpoint*: the table's set-up (seed,
names, metadata), every action so far, the state after them and the current hand's
events. Then each action appends one line. An action that shuffles (a new hand, a
reshuffle of the discards, the suit draw) carries the state after it and its events,
because a shuffle from the operating system's generator cannot be replayed; any other
action is replayed from the state before it. A finished hand appends its events once,
so the hand history survives without being rewritten.

A host's resume data (token digests, account bindings, deck commitments) rides along as
``"net"`` records: an object under the key ``"net"``, on an action's line or on a line of
its own, whose keys replace the same keys of what was known before (the checkpoint's
``meta["net"]``, then each record in turn), except that a key ending in ``+`` adds its
list's items to the list of the key without it. The loader hands back the result as
``Loaded.meta["net"]``.

Appending a line costs the same after 8,000 actions as after 100. A torn last line
(a crash in the middle of a write) is ignored on load and cut off before the next
append, and so are the whole lines of a write of several lines cut short (see
:func:`in_one_write`); damage anywhere else is a :class:`~pokeroulette_tui.engine.save.SaveError`.

>>> from pokeroulette_tui.engine.game import legal_actions, new_game
>>> from pokeroulette_tui.engine.rules import RuleSet
>>> g = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3)
>>> lines = [checkpoint(g, [], seed=3, names=["Ana", "Bo", "Cy"])]
>>> acts = []
>>> for __ in range(12):
...     a = legal_actions(g, None if dealer_to_act(g) else g.to_act)[0]
...     events = apply(g, a); acts.append(a); lines.append(action_line(a, g, events))
>>> loaded = loads("".join(lines))
>>> loaded.state.to_dict() == g.to_dict(), len(loaded.actions)
(True, 12)
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, Callable, Sequence

from pokeroulette_tui.engine.actions import Action, IllegalAction, StartHand, action_from_dict
from pokeroulette_tui.engine.events import Event, add_to_history
from pokeroulette_tui.engine.game import apply, dealer_to_act  # noqa: F401 - dealer_to_act: doctest
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleError
from pokeroulette_tui.engine.save import (MAX_SAVE_BYTES, Saved, SaveError, atomic_write,
                                          checked_state, empty_words, os_problem, problem_words)
from pokeroulette_tui.engine.state import GameState

FORMAT = "pokeroulette-journal"
VERSION = 1
RANDOM_EVENTS = frozenset({"shuffle", "reshuffle", "suit_order"})
"""Event kinds of steps that draw on the generator: their state is written, not replayed."""


_FORMAT_KEY = re.compile(rb'"format"\s*:\s*"' + re.escape(FORMAT.encode()) + rb'"')


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def is_journal(head: bytes) -> bool:
    """Whether a file starting with ``head`` is a journal (else, perhaps an older save).

    >>> is_journal(b'{"format":"pokeroulette-journal","version":1}'), is_journal(b'{"format":"x"}')
    (True, False)
    >>> is_journal(b'{ "format": "pokeroulette-journal",')  # written again by another tool
    True
    """
    return _FORMAT_KEY.search(head[:200]) is not None


def checkpoint(state: GameState, actions: Sequence[Action], *, seed: int | None,
               names: Sequence[str], meta: dict[str, Any] | None = None,
               events: Sequence[Event] = ()) -> str:
    """The first line: everything needed to go on from here."""
    return _dumps({"format": FORMAT, "version": VERSION, "seed": seed, "names": list(names),
                   "meta": meta or {}, "actions": [a.to_dict() for a in actions],
                   "state": state.to_dict(), "events": [e.to_dict() for e in events]}) + "\n"


def shuffles(action: Action, events: Sequence[Event]) -> bool:
    """Whether this step drew on the generator (its result is written, not replayed)."""
    return isinstance(action, StartHand) or any(e.kind in RANDOM_EVENTS for e in events)


def in_one_write(lines: list[str]) -> list[str]:
    """Lines written together, marked so that a load takes all of them or none: each but the
    last gets ``"b":1`` (more of this write follows); a load that ends on such a line drops
    the lines of the write it has (the write was cut short).

    >>> from pokeroulette_tui.engine.game import new_game
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3)
    >>> text = checkpoint(g, [], seed=3, names=["Ana", "Bo", "Cy"])
    >>> lines = in_one_write([net_line({"a": 1}), net_line({"a": 2})])
    >>> lines[0]
    '{"b":1,"net":{"a":1}}\\n'
    >>> loads(text + "".join(lines)).meta["net"], loads(text + lines[0]).meta
    ({'a': 2}, {})
    """
    return [line if i == len(lines) - 1 else '{"b":1,' + line[1:]
            for i, line in enumerate(lines)]


def action_line(action: Action, state: GameState, events: Sequence[Event], *,
                net: dict[str, Any] | None = None,
                encode: Callable[[GameState], dict[str, Any]] = GameState.to_dict) -> str:
    """The line for one action, given the state after it and its events (and, on a host,
    the resume data that changed with it: see :func:`net_line`). ``encode`` turns a state
    into its saved form (a faster encoder giving the same data may stand in). Most steps (a
    check, a call, a bet: no shuffle, plain numbers) are written straight from the action's
    fields, exactly as the mapping would be encoded (:func:`_plain_line`)."""
    shuffled = shuffles(action, events)
    if not shuffled and not net:
        line = _plain_line(action)
        if line is not None:
            return line
    record: dict[str, Any] = {"a": action.to_dict()}
    if shuffled:
        record["state"] = encode(state)
        record["events"] = [e.to_dict() for e in events]
    if net:
        record["net"] = net
    return _dumps(record) + "\n"


_FORMS: dict[type, Any] = {}
_INT_TEXT = int.__repr__  # (how json writes an int)


def _plain_line(action: Action) -> str | None:
    """``_dumps({"a": action.to_dict()}) + "\\n"`` for an action of a kind with the usual
    ``to_dict``, a seat and at most one other field, whose values are ints, None or tuples
    of ints, written from pieces made once per kind; None for any other (left to the
    encoder). A test holds the two equal for every kind and odd values."""
    cls = type(action)
    form = _FORMS.get(cls, _FORMS)
    if form is _FORMS:
        form = None
        if getattr(cls, "to_dict", None) is Action.to_dict:
            names = [f.name for f in dataclass_fields(cls)]
            if names[:1] == ["seat"] and len(names) <= 2 and "type" not in names:
                other = names[1] if len(names) == 2 else None
                form = ('{"a":{"seat":', other,
                        None if other is None else "," + _dumps(other) + ":",
                        ',"type":' + _dumps(cls.kind) + "}}\n")
        _FORMS[cls] = form
    if form is None:
        return None
    head, name, mid, tail = form
    seat = _value_text(action.seat)
    if seat is None:
        return None
    if name is None:
        return head + seat + tail
    other = _value_text(getattr(action, name))
    return None if other is None else head + seat + mid + other + tail


def _value_text(value: Any) -> str | None:
    """A field as json writes it, for the plain values (an int, None, a tuple of ints);
    None for any other."""
    kind = type(value)
    if kind is int:
        return _INT_TEXT(value)
    if value is None:
        return "null"
    if kind is tuple and all(type(v) is int for v in value):
        return "[" + ",".join(map(_INT_TEXT, value)) + "]"
    return None


def net_line(net: dict[str, Any]) -> str:
    """A line of a host's resume data alone: its keys replace the same keys known before.

    >>> from pokeroulette_tui.engine.game import new_game
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3)
    >>> text = checkpoint(g, [], seed=3, names=["Ana", "Bo", "Cy"], meta={"net": {"a": 1, "b": 2}})
    >>> loads(text + net_line({"b": 3}) + net_line({"c": 4})).meta["net"]
    {'a': 1, 'b': 3, 'c': 4}

    A key ending in ``+`` appends to a list (after the record's other keys):

    >>> text = checkpoint(g, [], seed=3, names=["Ana", "Bo", "Cy"], meta={"net": {"l": [1]}})
    >>> loads(text + net_line({"l+": [2, 3]}) + net_line({"l+": [4], "l": [0]})).meta["net"]
    {'l': [0, 4]}
    """
    return _dumps({"net": net}) + "\n"


def hand_line(events: Sequence[Event]) -> str:
    """The line for a finished hand's events (the hand history)."""
    return _dumps({"hand": [e.to_dict() for e in events]}) + "\n"


@dataclass
class Loaded(Saved):
    """A loaded journal: the state, every action, the finished hands and the current one."""

    hands: list[list[Event]] = field(default_factory=list)   # finished hands, oldest first
    current: list[Event] = field(default_factory=list)      # the hand in progress so far
    good_bytes: int = 0    # the length in bytes of the journal up to its last whole line
    torn: bool = False     # a torn last line was found (and is not part of the game)
    damaged: str = ""      # salvaged: the damage the game was read up to (not part of it)


_DAMAGE = (SaveError, RuleError, IllegalAction, KeyError, TypeError, ValueError, AttributeError,
           IndexError, OverflowError, RecursionError)
"""What damaged data raises while a journal is replayed."""


class _Damaged(Exception):
    """The journal is damaged at its line ``number``: ``message`` says how."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number
        self.message = message


def loads(text: str, *, source: str = "the journal", history: int = 50,
          salvage: bool = False) -> Loaded:
    """Parse a journal and replay it; any damage raises SaveError with a readable message.

    Keeps the last ``history`` finished hands. With ``salvage``, damage after the first
    line ends the game read there instead: the game as it was before the damaged line (and
    before the rest of the write that line was part of) is loaded, and ``damaged`` says
    what was found; damage to the first line (the checkpoint) still raises.
    """
    lines = text.split("\n")
    tail = lines.pop()  # "" when the text ends with a newline, else a torn last line
    good = len(text.encode("utf-8")) - len(tail.encode("utf-8"))  # in bytes, for truncate
    torn = bool(tail)
    if not text.strip():
        raise SaveError(empty_words(source))
    if not lines:  # a first line with no end: the checkpoint every later line starts from
        raise SaveError(_("{source} is cut short inside its first line (the game it starts "
                          "from is incomplete)").format(source=source))
    try:
        head = json.loads(lines[0])
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise SaveError(_("{source} is not a pokeroulette journal ({error})").format(
            source=source, error=type(exc).__name__)) from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SaveError(_("{source} is not a pokeroulette journal").format(source=source))
    if type(head.get("version")) is not int or head["version"] != VERSION:
        raise SaveError(_("{source} is journal version {version}; this version of the game reads version "
                          "{current}").format(source=source, version=repr(head.get('version')),
                                              current=VERSION))
    try:
        return _replay(head, lines[1:], source, history, good, torn)
    except _Damaged as damage:
        if not salvage or damage.number < 2:
            raise SaveError(damage.message) from None
        first = damage
    # salvaged: the lines before the damaged one (and again, should an earlier line turn
    # out damaged when the game is replayed without them); the replay drops the rest of a
    # write the damaged line was part of, as it does a write cut short at the end
    kept, damage = lines, first
    while True:
        kept = kept[:damage.number - 1]
        good = sum(len(line.encode("utf-8")) + 1 for line in kept)
        try:
            loaded = _replay(head, kept[1:], source, history, good, True)
        except _Damaged as again:
            if again.number < 2:
                raise SaveError(again.message) from None
            damage = again
            continue
        loaded.damaged = first.message
        return loaded


def _replay(head: dict[str, Any], lines: list[str], source: str, history: int, good: int,
            torn: bool) -> Loaded:
    """The game from the checkpoint ``head`` and the ``lines`` after it; damage raises
    :class:`_Damaged` with the number of the line it was found at (1: the checkpoint)."""
    number = 1
    try:
        state = checked_state(head["state"], source)
        actions = [action_from_dict(a) for a in head.get("actions", [])]
        current = [Event.from_dict(e) for e in head.get("events", [])]
        meta = head.get("meta") if isinstance(head.get("meta"), dict) else {}
        names = [str(n) for n in head.get("names", [])] if isinstance(head.get("names"), list) \
            else []
        seed = head.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise _Damaged(1, _("{source} is damaged: the seed is not a number").format(
                source=source))
    except _DAMAGE as exc:
        raise _Damaged(1, _damage_text(source, exc)) from None
    hands: list[list[Event]] = []
    base = meta.get("net")
    net: dict[str, Any] = dict(base) if isinstance(base, dict) else {}
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue  # a blank line (an editor's, say) holds nothing
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError, ValueError):
            raise _Damaged(number, _("{source} is damaged at line {number} (not JSON)").format(
                source=source, number=number)) from None
        if not isinstance(record, dict):
            raise _Damaged(number, _("{source} is damaged at line {number}").format(
                source=source, number=number))
        records.append((number, record))
    # a write of several lines marks all but its last ("b": more of this write follows):
    # lines of a write cut short (a power cut, a full disk) are not part of the game
    while records and records[-1][1].get("b"):
        number = records.pop()[0]
        good -= sum(len(line.encode("utf-8")) + 1 for line in lines[number - 2:])
        lines = lines[:number - 2]
        torn = True
    for number, record in records:
        try:
            if "net" in record:
                if not isinstance(record["net"], dict):
                    raise _Damaged(number, _("{source} is damaged at line {number} (its net "
                                             "data)").format(source=source, number=number))
                _merge_net(net, record["net"])
                if "a" not in record:
                    continue
            if "hand" in record:
                hands.append([Event.from_dict(e) for e in record["hand"]])
                del hands[:-history]
                continue
            action = action_from_dict(record["a"])
            if "state" in record:
                state = checked_state(record["state"], source, playable=False)
                events = [Event.from_dict(e) for e in record.get("events", [])]
            else:
                events = apply(state, action)
        except _DAMAGE as exc:
            raise _Damaged(number, _("{source} is damaged at line {number}: {problem}").format(
                source=source, number=number, problem=_problem(exc))) from None
        groups = [current] if current else []  # grouped as Table.apply groups them
        add_to_history(groups, events)          # (a finished group is a hand line)
        current = groups[-1] if groups else []
        actions.append(action)
    try:
        state = checked_state(state.to_dict(), source)  # the end state must be a game that can go on
    except _DAMAGE as exc:
        raise _Damaged(number, _damage_text(source, exc)) from None
    if net:
        meta = {**meta, "net": net}
    return Loaded(state=state, actions=actions, seed=seed, names=names, meta=meta, hands=hands,
                  current=current, good_bytes=good, torn=torn)


def _problem(exc: BaseException) -> str:
    return problem_words(exc)


def _damage_text(source: str, exc: BaseException) -> str:
    if isinstance(exc, SaveError):
        return str(exc)
    if isinstance(exc, (RuleError, IllegalAction)):
        return _("{source} is damaged: {problem}").format(source=source, problem=exc)
    return _("{source} is damaged ({error})").format(source=source, error=_problem(exc))


def _merge_net(net: dict[str, Any], record: dict[str, Any]) -> None:
    """A net record's keys replace those known; then its ``key+`` lists extend ``key``."""
    net.update((k, v) for k, v in record.items() if not k.endswith("+"))
    for k, items in record.items():
        if k.endswith("+"):
            if not isinstance(items, list):
                raise TypeError(f"{k} is not a list")
            before = net.get(k[:-1])
            net[k[:-1]] = (list(before) if isinstance(before, list) else []) + items


def load(path: Path | str, *, history: int = 50, salvage: bool = False) -> Loaded:
    """Load a journal file; a missing, unreadable or damaged one raises SaveError (see
    :func:`loads` for ``salvage``)."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(_("{path} is too large to be a save file").format(path=path))
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(_("no save file at {path}").format(path=path)) from None
    except OSError as exc:
        raise SaveError(_("cannot read {path}: {problem}").format(
            path=path, problem=os_problem(exc))) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # a torn write can end inside a character: only the last line may be cut
        cut = data.rfind(b"\n") + 1
        try:
            text = data[:cut].decode("utf-8") + "\ufffd"
        except UnicodeDecodeError:
            raise SaveError(_("{path} is damaged (not UTF-8 text)").format(path=path)) from None
    return loads(text, source=str(path), history=history, salvage=salvage)


class JournalFile:
    """Appends lines to a journal; :meth:`start` writes a fresh checkpoint atomically.

    Each append is one ``write`` on a file opened for appending: once it returns, the line
    survives the process being killed. :meth:`sync` makes it survive a power cut too.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self.size = 0

    def start(self, text: str) -> None:
        """Replace the journal by ``text`` (a checkpoint, perhaps with hand lines) at once."""
        self.close()
        atomic_write(self.path, text)
        self.size = len(text.encode("utf-8"))

    def resume(self, good_bytes: int) -> None:
        """Go on appending to an existing journal, cutting a torn last line off first."""
        self.close()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        try:
            if os.fstat(fd).st_size != good_bytes:
                os.ftruncate(fd, good_bytes)
        except OSError:
            os.close(fd)
            raise
        self._fd = fd
        self.size = good_bytes

    def append(self, text: str) -> None:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        data = text.encode("utf-8")
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        self.size += len(data)

    def sync(self, *, data_only: bool = False) -> None:
        """Make what was appended survive a power cut (``data_only``: fdatasync)."""
        if self._fd is not None:
            sync = getattr(os, "fdatasync", os.fsync) if data_only else os.fsync
            sync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            finally:
                self._fd = None
