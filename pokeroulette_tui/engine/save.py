"""Save and load a game in progress (versioned JSON, atomic write) and replay from a seed."""

from __future__ import annotations

import functools
import json
import os
import random
import stat
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pokeroulette_tui.engine.actions import Action, IllegalAction, action_from_dict
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import (apply, check_invariants, dealer_to_act, legal_actions,
                                          new_game)
from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.state import LEFT, OUT, PLAYING, GameState, Seat

FORMAT = "pokeroulette-save"
VERSION = 1
MAX_SAVE_BYTES = 64 * 1024 * 1024


class SaveError(Exception):
    """A save file that cannot be used; the message says why in plain words."""


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


class ForeignFolderError(PermissionError):
    """A folder for our files that another account could read or change: refused. The
    message names the folder, the account, and what to do instead."""


def _owner_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def _refuse(path: Path, problem: str) -> ForeignFolderError:
    return ForeignFolderError(_("not using {path}: {problem}; set POKEROULETTE_HOME to a folder "
                                "of your own").format(path=path, problem=problem))


def _not_ours(path: Path, uid: int) -> ForeignFolderError:
    real = os.path.realpath(path)
    where = path if os.path.abspath(path) == real else _("{path} (a link to {target})").format(
        path=path, target=real)
    return _refuse(where, _("it belongs to {who}, not to you, and that account could read or "
                            "replace the game's files in it").format(who=_owner_name(uid)))


def _check_chain(path: Path, me: int) -> None:
    """Refuse a folder another account could swap: every existing folder and link on the way
    to ``path`` (as written and as resolved) belongs to us or root, and a folder anyone may
    write in is sticky (like /tmp). The folder itself must be ours."""
    written = Path(os.path.abspath(path))
    for chain in (written, Path(os.path.realpath(written))):
        for step in reversed((chain, *chain.parents)):
            try:
                st = os.lstat(step)
            except FileNotFoundError:
                break  # not made yet: we make the rest, owner-only
            link = stat.S_ISLNK(st.st_mode)
            if step == chain and not link and st.st_uid != me:
                raise _not_ours(path, st.st_uid)
            if st.st_uid not in (0, me):
                what = (_("it is reached through the link {folder}, which belongs to {who}") if link
                        else _("it is in {folder}, which belongs to {who}, who could swap it"))
                raise _refuse(path, what.format(folder=step, who=_owner_name(st.st_uid)))
            if step != chain and stat.S_ISDIR(st.st_mode) and st.st_mode & 0o002 \
                    and not st.st_mode & stat.S_ISVTX:
                raise _refuse(path, _("it is in {folder}, where any account may rename things "
                                      "(that folder is not sticky)").format(folder=step))


def private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (0700), created if need be.

    A folder another account owns, or could swap (it lies in a folder of theirs, or in one
    anyone may write in without the sticky bit), raises ForeignFolderError: that account
    could read our files there or plant its own. A folder of ours that cannot be made
    private is used as it is (the files in it are 0600) unless others can write in it.
    """
    if not hasattr(os, "geteuid"):  # pragma: no cover - not a Unix: no owners to check
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return path
    me = os.geteuid()
    _check_chain(path, me)  # before making anything in there
    missing = [p for p in (path, *path.parents) if not os.path.lexists(p)]
    for step in reversed(missing):
        try:
            os.mkdir(step, 0o700)  # each folder we make, owner-only (not just the last)
        except FileExistsError:
            pass
    _check_chain(path, me)
    fd = os.open(os.path.realpath(path), os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        st = os.fstat(fd)
        if st.st_uid != me:  # swapped since the check
            raise _not_ours(path, st.st_uid)
        if st.st_mode & 0o077:
            try:
                os.fchmod(fd, 0o700)
            except OSError:
                pass
            if os.fstat(fd).st_mode & 0o022:
                raise _refuse(path, _("other accounts can write in it and it cannot be made "
                                      "private"))
    finally:
        os.close(fd)
    return path


def atomic_write(path: Path | str, text: str, *, mode: int = 0o600) -> None:
    """Write ``text`` so that a crash leaves either the old file or the new one, never half.
    A missing folder is created owner-only."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    import tempfile  # here, not at the top: the start screen needs no saving machinery

    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save(path: Path | str, state: GameState, actions: Sequence[Action] = (), **kw: Any) -> None:
    """Save atomically with owner-only permissions."""
    atomic_write(path, dumps(state, actions, **kw))


def loads(text: str, *, source: str = "the save") -> Saved:
    """Parse a save; any problem raises SaveError with a readable message."""
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
            source=source, error=f"{type(exc).__name__}: {str(exc)[:80]}")) from None
    seed = doc.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise SaveError(_("{source} is damaged: the seed is not a number").format(source=source))
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    names = [str(n) for n in doc.get("names", [])] if isinstance(doc.get("names"), list) else []
    return Saved(state=state, actions=actions, seed=seed, names=names, meta=meta)


def checked_state(data: Any, source: str, *, playable: bool = True) -> GameState:
    """A saved state, checked: right types, seats in range, cards and chips conserved and
    (with ``playable``) a game that can go on. Any problem raises SaveError."""
    try:
        if not isinstance(data, dict):
            raise SaveError(_("it holds no game state"))
        state = GameState.from_dict(data)
        _validate(state)
        problems = check_invariants(state)
    except (RuleError, IllegalAction, SaveError) as exc:
        raise SaveError(_("{source} is damaged: {problem}").format(source=source, problem=exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
            RecursionError) as exc:
        raise SaveError(_("{source} is damaged ({error})").format(
            source=source, error=f"{type(exc).__name__}: {str(exc)[:80]}")) from None
    if problems:
        raise SaveError(_("{source} is damaged: {problem}").format(source=source, problem=problems[0]))
    problem = _playable(state) if playable else ""
    if problem:
        raise SaveError(_("{source} is damaged: the game cannot go on from it ({problem})").format(
            source=source, problem=problem))
    return state


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
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(_("cannot read {path}: {problem}").format(path=path, problem=exc)) from None
    return loads(text, source=str(path))


def replay(rules: RuleSet, names: Sequence[str], seed: int, actions: Sequence[Action],
           bots: Sequence[bool] | None = None) -> tuple[GameState, list[Event]]:
    """Rebuild a game from its seed and action list: the same cards, the same events."""
    state = new_game(rules, names, seed=seed, bots=bots)
    events: list[Event] = []
    for a in actions:
        events.extend(apply(state, a))
    return state, events
