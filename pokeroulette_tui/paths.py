"""Where the program keeps its files: the per-user config and data folders.

Below every layer but the engine (standard library and platformdirs; the engine's
``private_dir`` when a folder is made), so that the screens, the network glue and the
command line find the same folders without importing each other.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pokeroulette_tui.engine.presets import PresetFolder

APP = "pokeroulette"


def doc_path(name: str) -> Path:
    """One of the project's documents (``RULES.md``, ``PROTOCOL.md``): inside the installed
    package, or in a source checkout's ``docs/`` folder."""
    package = Path(__file__).resolve().parent
    shipped = package / "docs" / name
    return shipped if shipped.is_file() else package.parent / "docs" / name


def translated_doc_path(name: str, lang: str | None = None) -> Path:
    """A document in a language: ``RULES.fi.md`` for ``RULES.md`` in Finnish, when that
    translation exists; otherwise the document itself (English). ``lang`` defaults to the
    language spoken now (engine.i18n).

    >>> translated_doc_path("RULES.md", "en").name, translated_doc_path("RULES.md", "de").name
    ('RULES.md', 'RULES.md')
    """
    if lang is None:
        from pokeroulette_tui.engine.i18n import language

        lang = language()
    if lang and lang != "en" and lang.isalpha():
        stem, dot, suffix = name.rpartition(".")
        translated = doc_path(f"{stem}.{lang}.{suffix}" if dot else f"{name}.{lang}")
        if translated.is_file():
            return translated
    return doc_path(name)


def config_home() -> Path:
    """The config folder, not made: ``$POKEROULETTE_HOME/config`` when that is set."""
    home = os.environ.get("POKEROULETTE_HOME")
    if home:
        return Path(home) / "config"
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP))


def settings_file() -> Path | None:
    """The settings file to read (it may be missing), or None while there is no config
    folder; a folder another account owns or could swap raises ForeignFolderError, its file
    unread (``engine.folders.checked_dir``, standard library only, so that a
    start shows its first screen without the game's engine)."""
    folder = config_home()
    if not os.path.isdir(folder):
        return None
    from pokeroulette_tui.engine.folders import checked_dir

    checked = checked_dir(folder)
    return None if checked is None else checked / "settings.json"


def data_home() -> Path:
    """The data folder, not made: ``$POKEROULETTE_HOME/data`` when that is set."""
    home = os.environ.get("POKEROULETTE_HOME")
    if home:
        return Path(home) / "data"
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP))


def presets_home() -> Path:
    """The folder of the table's saved presets, not made: ``presets`` in the data folder
    (made, owner-only, when the first preset is saved)."""
    return data_home() / "presets"


def saved_presets() -> PresetFolder:
    """The saved presets (the presets module is imported when asked for)."""
    from pokeroulette_tui.engine.presets import PresetFolder

    return PresetFolder(presets_home())


def config_dir() -> Path:
    """Per-user config folder (``$POKEROULETTE_HOME/config`` when that is set), owner-only."""
    from pokeroulette_tui.engine.folders import private_dir

    return private_dir(config_home())


def data_dir() -> Path:
    """Per-user data folder for autosaves, logs and the jackpot, owner-only (0700)."""
    from pokeroulette_tui.engine.folders import private_dir

    return private_dir(data_home())
