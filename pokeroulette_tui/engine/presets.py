"""The table's own presets: named rule sets kept as small JSON files, checked on every read.

A preset file is the same at home (one file per preset in a folder, named after the preset)
and when exported to share::

    {"format": "pokeroulette-preset", "version": 1, "name": "Home", "note": "…",
     "rules": {"variant": "roulette", …}}

Every value is checked by :class:`RuleSet` itself; a file that fails any check is reported
in one line and left where it is, untouched.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from pokeroulette_tui.engine.rules import PRESET_NOTES, PRESETS, RuleError, RuleSet

FORMAT = "pokeroulette-preset"
VERSION = 1
MAX_PRESET_BYTES = 16 * 1024
"""A preset is well under 1 KB; anything much bigger is not one (and is not read whole)."""
MAX_NAME = 30
MAX_NOTE = 100
NAME_PUNCTUATION = " -_'.+"
"""Besides letters and digits, what a preset name may contain (never a path separator)."""


class PresetError(ValueError):
    """A preset name, file or action that cannot be used; the message is one line of words."""


@dataclass(frozen=True)
class Preset:
    """A named rule set: built in (``classic`` …) or saved by this table."""

    name: str
    rules: RuleSet
    note: str = ""
    built_in: bool = False


def built_in(name: str) -> Preset | None:
    """The built-in preset of that name (any case), or None.

    >>> built_in("Swedish").rules.claim_match_card, built_in("home")
    (False, None)
    """
    key = name.strip().casefold()
    return next((Preset(n, r, PRESET_NOTES.get(n, ""), True) for n, r in PRESETS.items()
                 if n.casefold() == key), None)


def check_name(name: str) -> str:
    """A name for a saved preset, trimmed, or PresetError saying why it cannot be one.

    >>> check_name("  Friday night ")
    'Friday night'
    >>> check_name("../evil")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.presets.PresetError: A preset name cannot contain / or \\ (got '../evil')
    >>> check_name("Classic")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.presets.PresetError: 'Classic' is a built-in preset: choose another name
    """
    if not isinstance(name, str):
        raise PresetError("A preset name must be text")
    name = name.strip()
    if not name:
        raise PresetError("A preset needs a name")
    if "/" in name or "\\" in name:
        raise PresetError(f"A preset name cannot contain / or \\ (got {name!r})")
    if len(name) > MAX_NAME:
        raise PresetError(f"A preset name is at most {MAX_NAME} characters (got {len(name)})")
    if not all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name):
        raise PresetError(f"A preset name may use letters, digits, spaces and {NAME_PUNCTUATION[1:]} "
                          f"only (got {name!r})")
    if name.startswith("."):
        raise PresetError(f"A preset name cannot start with a dot (got {name!r})")
    if built_in(name) is not None:
        raise PresetError(f"{name!r} is a built-in preset: choose another name")
    return name


def check_note(note: object) -> str:
    """A preset's note (a line about it), trimmed, or PresetError."""
    if not isinstance(note, str):
        raise PresetError("A preset's note must be text")
    note = note.strip()
    if len(note) > MAX_NOTE or not note.isprintable():
        raise PresetError(f"A preset's note must be one line of at most {MAX_NOTE} characters")
    return note


def preset_text(preset: Preset) -> str:
    """The file text of a preset (every option written out, so the file says it all)."""
    doc = {"format": FORMAT, "version": VERSION, "name": preset.name, "note": preset.note,
           "rules": preset.rules.to_dict()}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def parse_preset(text: str | bytes, *, source: str = "the preset", name: str | None = None) -> Preset:
    """A preset from its file text, every value checked; PresetError (one line) if unusable.
    ``name``: the name to give it instead of the file's own.

    >>> p = parse_preset(preset_text(Preset("Home", RuleSet(ante=2), "Fridays")))
    >>> p.name, p.rules.ante, p.note
    ('Home', 2, 'Fridays')
    >>> parse_preset('{"format": "pokeroulette-preset", "version": 1, "name": "x", '
    ...              '"rules": {"tokens": 9}}', source="x.json")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.presets.PresetError: x.json: its rules cannot be played: Forfeit tokens must be between 5 and 7 (got 9)
    """
    if len(text) > MAX_PRESET_BYTES:
        raise PresetError(f"{source} is too large to be a preset (at most {MAX_PRESET_BYTES} bytes)")
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        doc = json.loads(text)
    except UnicodeDecodeError:
        raise PresetError(f"{source} is not a preset file (not text)") from None
    except (ValueError, RecursionError) as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise PresetError(f"{source} is not a preset file (damaged JSON{where})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PresetError(f"{source} is not a pokeroulette preset file")
    version = doc.get("version")
    if version != VERSION or isinstance(version, bool):
        raise PresetError(f"{source} is a preset of another version ({str(version)[:20]!r}; "
                          f"this program reads version {VERSION})")
    try:
        name = check_name(doc.get("name", "") if name is None else name)
        note = check_note(doc.get("note", ""))
    except PresetError as exc:
        raise PresetError(f"{source}: {exc}") from None
    try:
        rules = RuleSet.from_dict(doc.get("rules"))  # type: ignore[arg-type]
    except RuleError as exc:
        raise PresetError(f"{source}: its rules cannot be played: {exc}") from None
    return Preset(name, rules, note)


def read_preset_file(path: Path, *, name: str | None = None) -> Preset:
    """Read and check one preset file (a regular file, at most MAX_PRESET_BYTES are read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise PresetError(f"{path} does not exist") from None
    except OSError as exc:
        raise PresetError(f"{path} cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise PresetError(f"{path} is not a file")
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(MAX_PRESET_BYTES + 1)
        except OSError as exc:
            raise PresetError(f"{path} cannot be read ({exc.strerror})") from None
    return parse_preset(data, source=str(path), name=name)


class PresetFolder:
    """The saved presets: one ``NAME.json`` file each in ``folder`` (made when first saved)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, name: str) -> Path:
        return self.folder / f"{check_name(name)}.json"

    def scan(self) -> tuple[list[Preset], list[str]]:
        """The saved presets (by name) and a line for each file that cannot be used.

        A saved preset's name is its file's name (whatever the file says); damaged files are
        reported, never touched.
        """
        presets: list[Preset] = []
        problems: list[str] = []
        try:
            paths = sorted(self.folder.glob("*.json"), key=lambda p: p.name.casefold())
        except OSError:
            return presets, problems
        for path in paths:
            try:
                name = check_name(path.stem)
            except PresetError as exc:
                problems.append(f"{path} is ignored: {exc}")
                continue
            try:
                found = read_preset_file(path, name=name)
            except PresetError as exc:
                problems.append(str(exc))
                continue
            presets.append(found)
        return presets, problems

    def names(self) -> list[str]:
        """The names of the usable saved presets."""
        return [p.name for p in self.scan()[0]]

    def _existing(self, name: str) -> Path | None:
        """The file of the saved preset called ``name`` in any case, if there is one."""
        key = name.strip().casefold()
        try:
            return next((p for p in self.folder.glob("*.json") if p.stem.casefold() == key), None)
        except OSError:
            return None

    def find(self, name: str) -> Preset | None:
        """A built-in or saved preset by name (any case); None if there is no such preset.
        Raises PresetError if the saved one is damaged (the file stays as it is)."""
        found = built_in(name)
        if found is not None:
            return found
        if not isinstance(name, str) or not name.strip() or "/" in name or "\\" in name:
            return None
        path = self._existing(name)
        if path is None:
            return None
        return read_preset_file(path, name=path.stem)

    def get(self, name: str) -> Preset:
        """Like :meth:`find`, but an unknown name is a PresetError naming the choices."""
        found = self.find(name)
        if found is None:
            saved = self.names()
            mine = f"; saved: {', '.join(saved)}" if saved else ""
            raise PresetError(f"unknown preset {name!r} (built in: {', '.join(PRESETS)}{mine})")
        return found

    def save(self, preset: Preset, *, replace: bool = False) -> Path:
        """Keep ``preset`` (its name checked); an existing one of that name only if ``replace``."""
        name = check_name(preset.name)
        note = check_note(preset.note)
        old = self._existing(name)
        if old is not None and not replace:
            raise PresetError(f"a saved preset called {old.stem!r} already exists")
        from pokeroulette_tui.engine.save import atomic_write, private_dir

        private_dir(self.folder)
        path = self.folder / f"{name}.json"
        try:
            atomic_write(path, preset_text(Preset(name, preset.rules, note)))
            if old is not None and old != path:
                old.unlink()  # the same name in another case: the new spelling replaces it
        except OSError as exc:
            raise PresetError(f"the preset cannot be saved in {self.folder} ({exc.strerror})") from None
        return path

    def delete(self, name: str) -> Path:
        """Remove a saved preset; built-in ones cannot be removed."""
        if built_in(name) is not None:
            raise PresetError(f"{name!r} is a built-in preset: it cannot be deleted")
        path = self._existing(name) if isinstance(name, str) else None
        if path is None:
            raise PresetError(f"there is no saved preset called {name!r}")
        try:
            path.unlink()
        except OSError as exc:
            raise PresetError(f"{path} cannot be deleted ({exc.strerror})") from None
        return path

    def export(self, name: str, target: Path, *, replace: bool = False) -> Preset:
        """Write a preset (saved or built in) to the file ``target``; an existing file only if
        ``replace``."""
        preset = self.get(name)
        if target.exists() and not replace:
            raise PresetError(f"{target} already exists (add --replace to overwrite it)")
        if target.exists() and not target.is_file():
            raise PresetError(f"{target} is not a file")
        if not target.parent.is_dir():
            raise PresetError(f"there is no folder {target.parent}")
        from pokeroulette_tui.engine.save import atomic_write

        try:
            atomic_write(target, preset_text(preset), mode=0o644)
        except OSError as exc:
            raise PresetError(f"cannot write {target} ({exc.strerror})") from None
        return preset

    def import_file(self, source: Path, *, name: str | None = None,
                    replace: bool = False) -> Preset:
        """Check the preset file ``source`` and save it (as ``name`` if given)."""
        found = read_preset_file(source, name=name)
        self.save(found, replace=replace)
        return found
