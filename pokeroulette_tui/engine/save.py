"""Save and load a game in progress (versioned JSON, atomic write) and replay from a seed."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pokeroulette_tui.engine.actions import Action, IllegalAction, action_from_dict
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.game import apply, check_invariants, new_game
from pokeroulette_tui.engine.rules import RuleError, RuleSet
from pokeroulette_tui.engine.state import GameState

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


def atomic_write(path: Path | str, text: str, *, mode: int = 0o600) -> None:
    """Write ``text`` so that a crash leaves either the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
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
        raise SaveError(f"{source} is not valid JSON (corrupt or truncated?): {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{source} is not a pokeroulette save file")
    if doc.get("version") != VERSION:
        raise SaveError(f"{source} is save format version {doc.get('version')!r}; "
                        f"this version of the game reads version {VERSION}")
    try:
        state = GameState.from_dict(doc["state"])
        actions = [action_from_dict(a) for a in doc.get("actions", [])]
    except (RuleError, IllegalAction) as exc:
        raise SaveError(f"{source} is damaged: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError(f"{source} is damaged ({type(exc).__name__}: {str(exc)[:80]})") from None
    problems = check_invariants(state)
    if problems:
        raise SaveError(f"{source} is damaged: {problems[0]}")
    seed = doc.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise SaveError(f"{source} is damaged: the seed is not a number")
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    names = [str(n) for n in doc.get("names", [])] if isinstance(doc.get("names"), list) else []
    return Saved(state=state, actions=actions, seed=seed, names=names, meta=meta)


def load(path: Path | str) -> Saved:
    """Load a save file; a missing, unreadable, corrupt or foreign file raises SaveError."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(f"{path} is too large to be a save file")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"no save file at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read {path}: {exc}") from None
    return loads(text, source=str(path))


def replay(rules: RuleSet, names: Sequence[str], seed: int, actions: Sequence[Action],
           bots: Sequence[bool] | None = None) -> tuple[GameState, list[Event]]:
    """Rebuild a game from its seed and action list: the same cards, the same events."""
    state = new_game(rules, names, seed=seed, bots=bots)
    events: list[Event] = []
    for a in actions:
        events.extend(apply(state, a))
    return state, events
