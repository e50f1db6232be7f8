"""The notice shown instead of the table when the terminal is too small to draw it."""

from __future__ import annotations

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


def too_small_text(width: int, height: int, *, remote: bool = False) -> Text:
    """What to do about it, with the size now and the size needed (no cards: nothing
    private can show while the table is away). ``remote``: a table served elsewhere (a
    network or SSH seat), which this terminal does not save: quitting leaves it going on.

    >>> print(too_small_text(40, 12).plain)
    Too small for the table
    40×12 now · 80×24 needed
    Make the window bigger
    or the font smaller:
    the table comes back by itself.
    ? help · q quit (the game is saved)
    >>> print(too_small_text(40, 12, remote=True).plain.splitlines()[-1])
    ? help · q quit (the table goes on)
    """
    out = Text()
    out.append(_("Too small for the table") + "\n", style="bold")
    out.append(f"{width}×{height}", style="bold reverse")
    out.append(" " + _("now · {size} needed").format(size=f"{MIN_WIDTH}×{MIN_HEIGHT}") + "\n")
    out.append(_("Make the window bigger\nor the font smaller:\nthe table comes back by itself.")
               + "\n")
    out.append(_("? help · q quit (the table goes on)") if remote
               else _("? help · q quit (the game is saved)"), style="italic")
    return out


def served_elsewhere(session: object) -> bool:
    """True for a session whose table another process serves (network, SSH): it saves
    nothing here."""
    from pokeroulette_tui.net.client import RemoteSession
    return isinstance(session, RemoteSession)


class TooSmallNotice(Widget):
    """Says the terminal is too small, and how small (the screen shows it in place of the
    table and sets :attr:`size_now` as the terminal resizes)."""

    DEFAULT_CSS = """
    TooSmallNotice { height: 1fr; content-align: center middle; text-align: center; }
    """

    size_now: reactive[tuple[int, int]] = reactive((0, 0))

    def render(self) -> Text:
        try:
            session = getattr(self.screen, "session", None)
        except Exception:  # noqa: BLE001 - not on a screen yet
            session = None
        return too_small_text(*self.size_now, remote=served_elsewhere(session))
