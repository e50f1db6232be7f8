"""Find the app's stylesheets (``styles/*.tcss``) in an installed wheel or a source checkout."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

THEMES = ("dark", "light")
"""Colour files: ``styles/dark.tcss`` and ``styles/light.tcss`` (rules scoped by ``:dark`` /
``:light``), on top of ``styles/app.tcss`` (layout)."""


@lru_cache(maxsize=1)
def styles_dir() -> Path:
    """The folder holding the ``.tcss`` files.

    The wheel ships the repository's top-level ``styles/`` as ``pokeroulette_tui/styles``
    (beside this package's modules, so found from ``__file__`` without importlib.resources);
    an editable or source checkout has it beside the package. A package loaded some other
    way (a zip) is asked through importlib.resources.

    >>> (styles_dir() / "app.tcss").is_file()
    True
    """
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "styles", package.parent / "styles"):
        if (folder / "app.tcss").is_file():
            return folder
    from importlib.resources import files  # pragma: no cover - not a plain folder

    return Path(str(files("pokeroulette_tui") / "styles"))  # pragma: no cover


def theme_path(theme: str) -> Path:
    """The colour file of ``theme`` ("dark" or "light"; anything else is "dark")."""
    return styles_dir() / f"{theme if theme in THEMES else 'dark'}.tcss"


def css_paths(theme: str | None = None) -> list[Path]:
    """The stylesheets the app loads, layout first: the colours of ``theme`` only (the
    other colour file is read when the theme is switched), or of every theme.

    >>> [p.name for p in css_paths()]
    ['app.tcss', 'dark.tcss', 'light.tcss']
    >>> [p.name for p in css_paths("light")]
    ['app.tcss', 'light.tcss']
    """
    themes = THEMES if theme is None else (theme if theme in THEMES else "dark",)
    return [styles_dir() / "app.tcss"] + [theme_path(t) for t in themes]
