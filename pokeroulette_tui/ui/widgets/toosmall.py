"""The notice shown instead of the table when the terminal is too small to draw it."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from pokeroulette_tui.engine.i18n import _

MIN_WIDTH = 80
MIN_HEIGHT = 24
"""The smallest terminal the table is drawn in (it is laid out for 80×24)."""


def too_small(width: int, height: int) -> bool:
    """True when a ``width``×``height`` terminal cannot show the table.

    >>> too_small(80, 24), too_small(79, 24), too_small(120, 23)
    (False, True, True)
    """
    return width < MIN_WIDTH or height < MIN_HEIGHT


def too_small_text(width: int, height: int, *, remote: bool = False, keys: str | None = None,
                   menu: bool = False) -> Text:
    """What to do about it, with the size now and the size needed (no cards: nothing
    private can show while the table is away). ``keys``: the keys that still work, as the
    screen showing the notice says them (see :func:`table_keys`); by default the table's
    help and quit, where ``remote`` (a table served elsewhere, a network or SSH seat, which
    this terminal does not save) says that quitting leaves it going on. ``menu``: the start
    screen's menu is away, not a table.

    >>> print(too_small_text(40, 12).plain)
    Too small for the table
    40×12 now · 80×24 needed
    Make the window bigger
    or the font smaller:
    the table comes back by itself.
    ? help · q quit (the game is saved)
    >>> print(too_small_text(40, 12, remote=True).plain.splitlines()[-1])
    ? help · q quit (the table goes on)
    >>> print(too_small_text(60, 15, keys="q quit", menu=True).plain)
    Too small for the menu
    60×15 now · 80×24 needed
    Make the window bigger
    or the font smaller:
    the menu comes back by itself.
    q quit
    """
    if keys is None:
        keys = (_("? help · q quit (the table goes on)") if remote
                else _("? help · q quit (the game is saved)"))
    out = Text()
    out.append((_("Too small for the menu") if menu else _("Too small for the table")) + "\n",
               style="bold")
    out.append(f"{width}×{height}", style="bold reverse")
    out.append(" " + _("now · {size} needed").format(size=f"{MIN_WIDTH}×{MIN_HEIGHT}") + "\n")
    out.append((_("Make the window bigger\nor the font smaller:\nthe menu comes back by itself.")
                if menu else
                _("Make the window bigger\nor the font smaller:\nthe table comes back by itself."))
               + "\n")
    out.append(keys, style="italic")
    return out


def table_keys(screen: object) -> str:
    """The keys the card table takes while it is away: help, leave (the seat, or the table)
    and quit.

    >>> class Here: session = None
    >>> table_keys(Here())
    '? help · l leave · q quit (the game is saved)'
    """
    if served_elsewhere(getattr(screen, "session", None)):
        return _("? help · l leave · q quit (the table goes on)")
    return _("? help · l leave · q quit (the game is saved)")


def served_elsewhere(session: object) -> bool:
    """True for a session whose table another process serves (network, SSH): it saves
    nothing here."""
    from pokeroulette_tui.net.client import RemoteSession
    return isinstance(session, RemoteSession)


class TooSmallNotice(Widget):
    """Says the terminal is too small, and how small (the screen shows it in place of what
    it draws and sets :attr:`size_now` as the terminal resizes).

    ``keys``: what says the keys that still work, asked with the screen each time the notice
    is drawn (in the language of the moment): each screen says its own, such as
    :func:`table_keys` (the card table's, :attr:`table_keys`); by default the table's help
    and quit. ``menu``: the start screen's menu is away, not a table."""

    DEFAULT_CSS = """
    TooSmallNotice { height: 1fr; content-align: center middle; text-align: center; }
    """

    table_keys = staticmethod(table_keys)
    """(for ``TooSmallNotice(keys=TooSmallNotice.table_keys)``)"""

    size_now: reactive[tuple[int, int]] = reactive((0, 0))

    def __init__(self, *, keys: Callable[[object], str] | None = None, menu: bool = False,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.keys = keys
        self.menu = menu

    def render(self) -> Text:
        try:
            screen: object = self.screen
        except Exception:  # noqa: BLE001 - not on a screen yet
            screen = None
        if self.keys is not None:
            return too_small_text(*self.size_now, keys=self.keys(screen), menu=self.menu)
        session = getattr(screen, "session", None)
        return too_small_text(*self.size_now, remote=served_elsewhere(session), menu=self.menu)
