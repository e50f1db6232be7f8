"""The Textual app and ``make_app``, the one factory the CLI and the tests use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.ui.widgets.footer import TidyFooter

from pokeroulette_tui.ui.styles import css_paths

if TYPE_CHECKING:  # the engine and the screens load when a table or the start screen opens
    from pokeroulette_tui.session import Session
    from pokeroulette_tui.ui.config import AppConfig

TEXTUAL_THEMES = {"dark": "textual-dark", "light": "textual-light"}


class PlaceholderStart(Screen[None]):
    """Shown when the start screen is not part of this build."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static("Poker Roulette\n\nStart a table with: pokeroulette play --help", id="placeholder")
        yield TidyFooter()


class PokerApp(App[None]):
    """Poker Roulette and five-card draw at one terminal (hot-seat, bots) or over the network."""

    TITLE = "Poker Roulette"
    ENABLE_COMMAND_PALETTE = False
    # every screen (dialogs too) gets the class -wide from 120 columns on
    HORIZONTAL_BREAKPOINTS = [(120, "-wide")]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
        Binding("ctrl+k", "toggle_four_color", "Four colours", show=False),
    ]

    def __init__(self, config: AppConfig, session: Session | None = None) -> None:
        # both colour files load; each scopes its rules with :dark / :light
        super().__init__(css_path=css_paths())
        self.config = config
        self.session = session
        self.four_color = bool(config.four_color)

    def on_mount(self) -> None:
        self.theme = TEXTUAL_THEMES.get(self.config.theme, "textual-dark")
        if self.session is not None:
            self.open_table(self.session)
        else:
            self.push_screen(self._start_screen())

    @staticmethod
    def _start_screen() -> Screen:
        try:
            from pokeroulette_tui.ui.screens.start import StartScreen
        except ImportError:
            return PlaceholderStart()
        return StartScreen()

    def can_start_new(self) -> bool:
        """True when a start screen exists to begin another game."""
        try:
            import pokeroulette_tui.ui.screens.start  # noqa: F401
        except ImportError:
            return False
        return True

    def open_table(self, session: Session):
        """Sit down at ``session``'s table: push the table screen, which starts the session.

        Returns the push's awaitable (awaiting it is optional).
        """
        from pokeroulette_tui.ui.screens.table import TableScreen

        self.session = session
        return self.push_screen(TableScreen(session))

    async def close_session(self) -> None:
        """Stop the current session (a local one saves first)."""
        session, self.session = self.session, None
        if session is not None:
            await session.close()

    async def back_to_start(self) -> None:
        """Leave the table for the start screen."""
        await self.close_session()
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(self._start_screen())

    async def action_quit(self) -> None:
        await self.close_session()
        self.exit()

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme, and remember the choice."""
        dark = self.current_theme.dark
        self.theme = TEXTUAL_THEMES["light" if dark else "dark"]
        self.config.theme = "light" if dark else "dark"
        self.config.save()


    def action_toggle_four_color(self) -> None:
        """Switch the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green) on or off, and remember it."""
        self.four_color = not self.four_color
        self.config.four_color = self.four_color
        self.config.save()
        for screen in self.screen_stack:
            refresh = getattr(screen, "refresh_view", None)
            if callable(refresh) and getattr(screen, "session", None) is not None:
                refresh()
        self.notify("Four-colour deck " + ("on" if self.four_color else "off"))


def make_app(config: AppConfig, session: Session | None = None) -> PokerApp:
    """The app: at ``session``'s table if given, else at the start screen."""
    return PokerApp(config, session)
