"""Save and load a game in progress (versioned JSON, atomic write) and replay from a seed."""

from __future__ import annotations

import functools
import json
import os
import random
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
    atomic_write,
    checked_dir,
    private_dir,
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
