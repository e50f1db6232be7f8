"""Save and load a game in progress (versioned JSON, atomic write) and replay from a seed."""

from __future__ import annotations

import functools
import json
import os
import random
import re
import threading
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokeroulette_tui.engine.actions import Action, IllegalAction, action_from_dict
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.folders import (  # noqa: F401 - re-exported
    ForeignFolderError,
    LockHeld,
    atomic_write,
    checked_dir,
    os_problem,
    private_dir,
    take_lock,
)
from pokeroulette_tui.engine.game import (
    apply,
    check_invariants,
    dealer_to_act,
    legal_actions,
    new_game,
)
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.engine.state import LEFT, OUT, PLAYING, GameState, Seat

FORMAT = "pokeroulette-save"
VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024


class SaveError(Exception):
    """A save file that cannot be used; the message says why in plain words. ``problem``:
    what is wrong without the file's name (for a message that names the file already)."""

    def __init__(self, message: str, problem: str = "") -> None:
        super().__init__(message)
        self.problem = problem or message


@dataclass
class Saved:
    """A loaded save: the state, the actions so far, and free-form metadata."""

    state: GameState
    actions: list[Action] = field(default_factory=list)
    seed: int | None = None
    names: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def dumps(state: GameState, actions: Sequence[Action] = (), *, seed: int | None = None,
          names: Sequence[str] = (), meta: dict[str, Any] | None = None) -> str:
    doc = {"format": FORMAT, "version": VERSION, "seed": seed, "names": list(names),
           "meta": meta or {}, "actions": [a.to_dict() for a in actions], "state": state.to_dict()}
    return json.dumps(doc, separators=(",", ":"))


def save(path: Path | str, state: GameState, actions: Sequence[Action] = (), **kw: Any) -> None:
    """Save atomically with owner-only permissions."""
    atomic_write(path, dumps(state, actions, **kw))


def loads(text: str, *, source: str = "the save") -> Saved:
    """Parse a save; any problem raises SaveError with a readable message."""
    if not text.strip():  # (not "corrupt or truncated?": there is nothing to be either)
        raise SaveError(empty_words(source))
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(_("{source} is not valid JSON (corrupt or truncated?): {error}").format(
            source=source, error=exc.msg)) from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise SaveError(_("{source} is not valid JSON ({error})").format(
            source=source, error=type(exc).__name__)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(_("{source} is not a pokeroulette save file").format(source=source))
    if type(doc.get("version")) is not int or doc.get("version") != VERSION:
        raise SaveError(_("{source} is save format version {version}; this version of the game reads "
                          "version {current}").format(source=source, version=repr(doc.get('version')),
                                                      current=VERSION))
    state = checked_state(doc.get("state"), source)
    try:
        actions = [action_from_dict(a) for a in doc.get("actions", [])]
    except (IllegalAction, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(_("{source} is damaged ({error})").format(
            source=source, error=problem_words(exc))) from None
    seed = doc.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise SaveError(_("{source} is damaged: the seed is not a number").format(source=source))
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    names = [str(n) for n in doc.get("names", [])] if isinstance(doc.get("names"), list) else []
    return Saved(state=state, actions=actions, seed=seed, names=names, meta=meta)


def empty_words(source: str) -> str:
    """What a save or a journal with nothing in it (no byte, or only blanks) is said to be.

    >>> empty_words("autosave.json")
    'autosave.json is empty (not valid JSON: no game was saved in it)'
    """
    return _("{source} is empty (not valid JSON: no game was saved in it)").format(source=source)


def problem_words(exc: BaseException) -> str:
    """What a damaged save's data raised, in words (no Python internals).

    >>> problem_words(KeyError("state")), problem_words(TypeError("x"))
    ("the field 'state' is missing", 'a value is not of the kind a saved game holds')
    """
    if isinstance(exc, SaveError):
        return exc.problem
    if isinstance(exc, (RuleError, IllegalAction)):
        return str(exc)
    if isinstance(exc, KeyError) and exc.args:
        return _("the field {name} is missing").format(name=repr(str(exc.args[0])[:40]))
    if isinstance(exc, RecursionError):
        return _("its data is nested too deeply")
    if isinstance(exc, (IndexError, OverflowError)):
        return _("a number in it is out of range")
    said = str(exc)
    if isinstance(exc, ValueError) and said and not _PYTHON_WORDS.search(said):
        return said[:80]  # the engine's own words ("unknown phase 'x'", "not a card: 'Zz'")
    return _("a value is not of the kind a saved game holds")


_PYTHON_WORDS = re.compile(r"literal|convert|unpack|codec|vector|\(\)|base \d|argument")
"""What marks a ValueError's message as Python's, not the engine's: not shown to players."""


def checked_state(data: Any, source: str, *, playable: bool = True) -> GameState:
    """A saved state, checked: right types, seats in range, cards and chips conserved and
    (with ``playable``) a game that can go on. Any problem raises SaveError.

    The state shares nothing with ``data``: playing on from it leaves ``data`` as it was
    (a journal's checkpoint is replayed again, from the same parsed line, when damage
    further on is salvaged)."""
    try:
        if not isinstance(data, dict):
            raise SaveError(_("it holds no game state"))
        state = GameState.from_dict(_unshared(data))
        _validate(state)
        problems = check_invariants(state)
    except (RuleError, IllegalAction, SaveError) as exc:
        raise SaveError(_("{source} is damaged: {problem}").format(source=source, problem=exc),
                        str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
            RecursionError) as exc:
        words = problem_words(exc)
        raise SaveError(_("{source} is damaged ({error})").format(source=source, error=words),
                        words) from None
    if problems:
        raise SaveError(_("{source} is damaged: {problem}").format(source=source,
                                                                   problem=problems[0]),
                        problems[0])
    problem = _playable(state) if playable else ""
    if problem:
        raise SaveError(_("{source} is damaged: the game cannot go on from it ({problem})").format(
            source=source, problem=problem))
    return state


def _unshared(value: Any) -> Any:
    """Parsed JSON copied: its lists and objects new, all the way down (``GameState.from_dict``
    keeps the lists it is given that are not cards, such as the discards' flags).

    >>> data = {"seats": [{"stock_public": [True]}], "pending": [1]}
    >>> copy = _unshared(data); copy["seats"][0]["stock_public"].append(False)
    >>> copy["pending"] is data["pending"], data["seats"][0]["stock_public"]
    (False, [True])
    """
    if type(value) is list:
        return [_unshared(v) if type(v) in _NESTED else v for v in value]
    if type(value) is dict:
        return {k: _unshared(v) if type(v) in _NESTED else v for k, v in value.items()}
    return value


_NESTED = (list, dict)


MAX_DECKS = 11  # ceil(52 seats / 5)


def _fits(value: Any, hint: Any) -> bool:
    """Whether a loaded value has the type a GameState/Seat field declares."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, Card, RuleSet, Seat, Phase):
        return isinstance(value, hint)
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is dict:
        k, v = typing.get_args(hint)
        return isinstance(value, dict) and all(_fits(a, k) and _fits(b, v) for a, b in value.items())
    return True  # a type this check does not know (the generator): trusted


@functools.cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    return tuple(typing.get_type_hints(cls).items())


def _validate(state: GameState) -> None:
    """Refuse a snapshot whose fields have the wrong types or point at seats that do not exist."""
    for obj in (state, *state.seats):
        for name, hint in _hints(type(obj)):
            if hint is random.Random or name == "rules":
                continue
            if not _fits(getattr(obj, name), hint):
                raise SaveError(_("{name} has a value of the wrong kind").format(name=name))
    n = state.n
    if not 2 <= n <= 52:
        raise SaveError(_("a table has 2 to 52 seats, not {n}").format(n=n))
    seats = [state.to_act, state.match_claimed_by, *state.pending, *(state.decider or ()),
             *state.hand_start_chips, *state.timeouts]
    if any(s is not None and not 0 <= s < n for s in seats) or not -1 <= state.button < n:
        raise SaveError(_("a seat number is out of range"))
    if not 0 <= state.decks <= MAX_DECKS:
        raise SaveError(_("{decks} decks is not a number of decks this game uses").format(
            decks=state.decks))
    if any(s.status not in (PLAYING, OUT, LEFT) for s in state.seats):
        raise SaveError(_("a seat has an unknown status"))


_MID_HAND = (Phase.DEALT, Phase.MATCHED, Phase.BETTING, Phase.STOCK_TO_ACTIVE, Phase.FINAL,
             Phase.CUT, Phase.DRAW)


def _playable(state: GameState) -> str:
    """Why the next step from ``state`` could not be played ("" when it can).

    Checks each phase's preconditions, then plays the next legal step on a copy: a save that
    passes its type checks but cannot be continued is refused here, not mid-game.
    """
    live = state.live_seats()
    if state.phase in _MID_HAND and len(live) < 2:
        return "a hand in progress with fewer than two players in it"
    if state.phase == Phase.DEALT and state.match is None:
        return "a round dealt without a match card"
    if state.phase == Phase.DEALT and any(not 1 <= len(state.seats[i].actives) <= 2 for i in live):
        return "a player without one or two active cards"
    if state.phase in (Phase.STOCK_TO_ACTIVE, Phase.DRAW) and state.to_act not in state.pending:
        return "the player to choose is not among those still to choose"
    if state.phase == Phase.DRAW and any(len(state.seats[i].hand) != 5 for i in live):
        return "a player without five cards"
    if state.game_over:
        return ""
    trial = GameState.from_dict(state.to_dict())
    trial.rng = random.Random(0)
    seat = None if dealer_to_act(trial) else trial.to_act
    legal = legal_actions(trial, seat)
    if not legal:
        return "nobody can act"
    try:
        apply(trial, legal[0])
    except IllegalAction as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - any failure here means the save is unusable
        return f"{type(exc).__name__}: {str(exc)[:60]}"
    return ""


def load(path: Path | str) -> Saved:
    """Load a save file; a missing, unreadable, corrupt or foreign file raises SaveError."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(_("{path} is too large to be a save file").format(path=path))
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(_("no save file at {path}").format(path=path)) from None
    except UnicodeDecodeError:
        raise SaveError(_("cannot read {path}: it is not a saved game (binary data)").format(
            path=path)) from None
    except OSError as exc:
        raise SaveError(_("cannot read {path}: {problem}").format(
            path=path, problem=os_problem(exc))) from None
    return loads(text, source=str(path))


def replay(rules: RuleSet, names: Sequence[str], seed: int, actions: Sequence[Action],
           bots: Sequence[bool] | None = None) -> tuple[GameState, list[Event]]:
    """Rebuild a game from its seed and action list: the same cards, the same events."""
    state = new_game(rules, names, seed=seed, bots=bots)
    events: list[Event] = []
    for a in actions:
        events.extend(apply(state, a))
    return state, events


# -- one process at a time -------------------------------------------------------------------
#
# One running pokeroulette at a time resumes and writes a save that is locked (the
# autosave): it holds an OS lock (flock) on ``<name>.lock`` beside it, as the statistics and
# the casino lock their files. The kernel lets go of it when the process ends, however it
# ends (kill -9 too), so a lock is never stale. The holder writes its pid in the lock file,
# for another process to name.

LOCK_SUFFIX = ".lock"
_held: dict[str, int] = {}   # the saves this process holds: lock file -> its descriptor
_held_guard = threading.Lock()


class SaveHeld(Exception):
    """Another running process holds the save (``pid``: its process id, 0 if unknown)."""

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self.pid = pid


def lock_path(path: Path | str) -> Path:
    path = Path(path)
    return path.with_name(path.name + LOCK_SUFFIX)


def hold(path: Path | str) -> None:
    """Take the save at ``path`` for this process until :func:`release` (or its end); nothing
    to do if it holds it already. Raises SaveHeld if another running process holds it.
    Where no lock can be had (not a Unix, a file system without locks, no lock file) the
    game goes on without one, as it did before there were locks.

    >>> import tempfile, pathlib
    >>> save = pathlib.Path(tempfile.mkdtemp()) / "autosave.json"
    >>> hold(save); hold(save); holds(save), lock_path(save).name
    (True, 'autosave.json.lock')
    >>> release(save); holds(save)
    False
    """
    key = str(lock_path(path))
    with _held_guard:
        if key in _held:
            return
        try:
            fd = take_lock(key, wait=False)
        except LockHeld as held:
            raise SaveHeld(held.pid) from None
        if fd < 0:
            return  # (no lock to be had: the save itself will say what is wrong, if anything)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # (the lock holds; only its holder's pid is not said)
        _held[key] = fd


def release(path: Path | str | None) -> None:
    """Let go of the save at ``path`` (another process may take it from now on)."""
    if path is None:
        return
    with _held_guard:
        fd = _held.pop(str(lock_path(path)), None)
    if fd is not None:
        os.close(fd)  # (the lock goes with it)


def holds(path: Path | str) -> bool:
    """Whether this process holds the save at ``path``."""
    return str(lock_path(path)) in _held


def aside_path(path: Path) -> Path:
    """Where an unusable save is kept: ``<name>.corrupt-<timestamp>`` beside it (a free name)."""
    import time

    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    return target


def copy_aside(path: Path) -> Path | None:
    """Keep a copy of a damaged save, whole, before the game goes on from its good part
    (owner-only, as the save is); None if it cannot be made."""
    import shutil

    target = aside_path(path)
    try:
        with open(path, "rb") as src, open(target, "xb") as dst:
            os.fchmod(dst.fileno(), 0o600)
            shutil.copyfileobj(src, dst)
            dst.flush()
            os.fsync(dst.fileno())  # on the disk before the original is cut short
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)  # (its name too)
        finally:
            os.close(fd)
    except OSError:
        return None
    return target
