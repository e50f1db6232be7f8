"""Find the app's stylesheets (``styles/*.tcss``) in an installed wheel or a source checkout."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

THEMES = ("dark", "light")
"""Colour files: ``styles/dark.tcss`` and ``styles/light.tcss`` (rules scoped by ``:dark`` /
``:light``), on top of ``styles/app.tcss`` (layout)."""


def styles_dir() -> Path:
    """The folder holding the ``.tcss`` files.

    The wheel ships the repository's top-level ``styles/`` as ``pokeroulette_tui/styles``;
    an editable or source checkout has it beside the package.

    >>> (styles_dir() / "app.tcss").is_file()
    True
    """
    packaged = Path(str(files("pokeroulette_tui") / "styles"))
    if (packaged / "app.tcss").is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "styles"


def css_paths() -> list[Path]:
    """Every stylesheet the app loads, layout first.

    >>> [p.name for p in css_paths()]
    ['app.tcss', 'dark.tcss', 'light.tcss']
    """
    folder = styles_dir()
    return [folder / "app.tcss"] + [folder / f"{t}.tcss" for t in THEMES]
