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

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import (
    PRESET_NOTES,
    PRESETS,
    RuleError,
    RuleSet,
    preset_note,
)

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


class PresetExists(PresetError):
    """A saved preset of that name already exists (the message says it in words)."""


class BuiltInName(PresetError):
    """The name is a built-in preset's (the message says it in words)."""


@dataclass(frozen=True)
class Preset:
    """A named rule set: built in (``classic`` …) or saved by this table."""

    name: str
    rules: RuleSet
    note: str = ""
    built_in: bool = False

    @property
    def note_words(self) -> str:
        """The note to show: a built-in preset's in the player's language, a saved one's as
        its table wrote it (``note`` itself stays as it is: it is what files keep)."""
        return preset_note(self.name) if self.built_in else self.note


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
    pokeroulette_tui.engine.presets.BuiltInName: 'Classic' is a built-in preset: choose another name
    """
    if not isinstance(name, str):
        raise PresetError(_("A preset name must be text"))
    name = name.strip()
    if not name:
        raise PresetError(_("A preset needs a name"))
    if "/" in name or "\\" in name:
        raise PresetError(_("A preset name cannot contain / or \\ (got {name})").format(name=repr(name)))
    if len(name) > MAX_NAME:
        raise PresetError(_("A preset name is at most {most} characters (got {n})").format(
            most=MAX_NAME, n=len(name)))
    if not all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name):
        raise PresetError(_("A preset name may use letters, digits, spaces and {punctuation} only "
                            "(got {name})").format(punctuation=NAME_PUNCTUATION[1:], name=repr(name)))
    if name.startswith("."):
        raise PresetError(_("A preset name cannot start with a dot (got {name})").format(name=repr(name)))
    if built_in(name) is not None:
        raise BuiltInName(_("{name} is a built-in preset: choose another name").format(name=repr(name)))
    return name


def check_note(note: object) -> str:
    """A preset's note (a line about it), trimmed, or PresetError."""
    if not isinstance(note, str):
        raise PresetError(_("A preset's note must be text"))
    note = note.strip()
    if len(note) > MAX_NOTE or not note.isprintable():
        raise PresetError(_("A preset's note must be one line of at most {most} characters").format(
            most=MAX_NOTE))
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
        raise PresetError(_("{source} is too large to be a preset (at most {most} bytes)").format(
            source=source, most=MAX_PRESET_BYTES))
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        doc = json.loads(text)
    except UnicodeDecodeError:
        raise PresetError(_("{source} is not a preset file (not text)").format(source=source)) from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise PresetError(_("{source} is not a preset file (damaged JSON at line {line})").format(
                source=source, line=exc.lineno)) from None
        raise PresetError(_("{source} is not a preset file (damaged JSON)").format(source=source)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PresetError(_("{source} is not a pokeroulette preset file").format(source=source))
    version = doc.get("version")
    if version != VERSION or isinstance(version, bool):
        raise PresetError(_("{source} is a preset of another version ({version}; this program reads "
                            "version {ours})").format(source=source, version=repr(str(version)[:20]),
                                                      ours=VERSION))
    try:
        name = check_name(doc.get("name", "") if name is None else name)
        note = check_note(doc.get("note", ""))
    except PresetError as exc:
        raise type(exc)(_("{source}: {problem}").format(source=source, problem=exc)) from None
    try:
        rules = RuleSet.from_dict(doc.get("rules"))  # type: ignore[arg-type]
    except RuleError as exc:
        raise PresetError(_("{source}: its rules cannot be played: {problem}").format(
            source=source, problem=exc)) from None
    return Preset(name, rules, note)


def read_preset_file(path: Path, *, name: str | None = None) -> Preset:
    """Read and check one preset file (a regular file, at most MAX_PRESET_BYTES are read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise PresetError(_("{path} does not exist").format(path=path)) from None
    except OSError as exc:
        raise PresetError(_("{path} cannot be read ({why})").format(path=path, why=exc.strerror)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise PresetError(_("{path} is not a file").format(path=path))
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(MAX_PRESET_BYTES + 1)
        except OSError as exc:
            raise PresetError(_("{path} cannot be read ({why})").format(path=path,
                                                                         why=exc.strerror)) from None
    return parse_preset(data, source=str(path), name=name)


class PresetFolder:
    """The saved presets: one ``NAME.json`` file each in ``folder`` (made when first saved)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, name: str) -> Path:
        return self.folder / f"{check_name(name)}.json"

    def _files(self) -> list[Path]:
        """The folder's ``*.json`` files (none before it is made). A folder another account
        owns or could swap is not read: ForeignFolderError (what it holds may be planted)."""
        from pokeroulette_tui.engine.folders import checked_dir

        folder = checked_dir(self.folder)
        return [] if folder is None else list(folder.glob("*.json"))

    def scan(self) -> tuple[list[Preset], list[str]]:
        """The saved presets (by name) and a line for each file that cannot be used.

        A saved preset's name is its file's name (whatever the file says); damaged files are
        reported, never touched.
        """
        from pokeroulette_tui.engine.folders import ForeignFolderError

        presets: list[Preset] = []
        problems: list[str] = []
        try:
            paths = sorted(self._files(), key=lambda p: p.name.casefold())
        except ForeignFolderError as exc:  # another account's folder: not read, said why
            return presets, [str(exc)]
        except OSError:
            return presets, problems
        for path in paths:
            try:
                name = check_name(path.stem)
            except PresetError as exc:
                problems.append(_("{path} is ignored: {problem}").format(path=path, problem=exc))
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
        from pokeroulette_tui.engine.folders import ForeignFolderError

        key = name.strip().casefold()
        try:
            return next((p for p in self._files() if p.stem.casefold() == key), None)
        except ForeignFolderError as exc:  # another account's folder: not read (nor deleted)
            raise PresetError(str(exc)) from None
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
            if saved:
                raise PresetError(_("unknown preset {name} (built in: {built_in}; saved: {saved})").format(
                    name=repr(name), built_in=", ".join(PRESETS), saved=", ".join(saved)))
            raise PresetError(_("unknown preset {name} (built in: {built_in})").format(
                name=repr(name), built_in=", ".join(PRESETS)))
        return found

    def save(self, preset: Preset, *, replace: bool = False) -> Path:
        """Keep ``preset`` (its name checked); an existing one of that name only if ``replace``."""
        name = check_name(preset.name)
        note = check_note(preset.note)
        old = self._existing(name)
        if old is not None and not replace:
            raise PresetExists(_("a saved preset called {name} already exists").format(name=repr(old.stem)))
        from pokeroulette_tui.engine.folders import (
            ForeignFolderError,
            atomic_write,
            private_dir,
        )

        path = self.folder / f"{name}.json"
        try:
            private_dir(self.folder)
            atomic_write(path, preset_text(Preset(name, preset.rules, note)))
            if old is not None and old != path:
                old.unlink()  # the same name in another case: the new spelling replaces it
        except ForeignFolderError as exc:
            raise PresetError(str(exc)) from None  # it names the folder and what to do
        except OSError as exc:
            raise PresetError(_("the preset cannot be saved in {folder} ({why})").format(
                folder=self.folder, why=exc.strerror)) from None
        return path

    def delete(self, name: str) -> Path:
        """Remove a saved preset; built-in ones cannot be removed."""
        if built_in(name) is not None:
            raise PresetError(_("{name} is a built-in preset: it cannot be deleted").format(name=repr(name)))
        path = self._existing(name) if isinstance(name, str) else None
        if path is None:
            raise PresetError(_("there is no saved preset called {name}").format(name=repr(name)))
        try:
            path.unlink()
        except OSError as exc:
            raise PresetError(_("{path} cannot be deleted ({why})").format(path=path, why=exc.strerror)) from None
        return path

    def export(self, name: str, target: Path, *, replace: bool = False) -> Preset:
        """Write a preset (saved or built in) to the file ``target``; an existing file only if
        ``replace``."""
        preset = self.get(name)
        from pokeroulette_tui.engine.folders import atomic_write, export_problem

        problem = export_problem(target, replace=replace)
        if problem:
            raise PresetError(problem)

        try:
            atomic_write(target, preset_text(preset), mode=0o644)
        except OSError as exc:
            raise PresetError(_("cannot write {path} ({why})").format(path=target, why=exc.strerror)) from None
        return preset

    def import_file(self, source: Path, *, name: str | None = None,
                    replace: bool = False) -> Preset:
        """Check the preset file ``source`` and save it (as ``name`` if given)."""
        found = read_preset_file(source, name=name)
        self.save(found, replace=replace)
        return found
