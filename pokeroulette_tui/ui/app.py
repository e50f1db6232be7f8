"""The Textual app and ``make_app``, the one factory the CLI and the tests use."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import LANGUAGES, N_, _, language, set_language
from pokeroulette_tui.ui.styles import css_paths, theme_path
from pokeroulette_tui.ui.widgets.footer import TidyFooter

if TYPE_CHECKING:  # the engine and the screens load when a table or the start screen opens
    from pokeroulette_tui.session import Session
    from pokeroulette_tui.ui.config import AppConfig

TEXTUAL_THEMES = {"dark": "textual-dark", "light": "textual-light"}


class PlaceholderStart(Screen[None]):
    """Shown when the start screen is not part of this build."""

    BINDINGS = [Binding("q", "app.quit", N_("Quit"))]

    def compose(self) -> ComposeResult:
        yield Static(_("Poker Roulette") + "\n\n"
                     + _("Start a table with: {command}").format(command="pokeroulette play --help"),
                     id="placeholder")
        yield TidyFooter()


def farewell_for(session: object) -> str:
    """What to tell the player after quitting a local table: saved where, and how to carry on."""
    table = getattr(session, "table", None)
    path = getattr(table, "save_path", None)
    if table is None or path is None:
        return ""
    if table.state.game_over:
        return _("The game is over. Run pokeroulette to deal a new one.")
    if table.save_error:
        return _("Your game could NOT be saved: {problem}").format(problem=table.save_error)
    return _("Your game is saved ({path}). Run pokeroulette and press Enter to carry on "
             "where you left off.").format(path=path)


_startup_frozen = False

GC_PAUSE = 1.5
"""Seconds after the app has mounted during which the garbage collector does not run (see
:func:`freeze_startup_objects`)."""


def freeze_startup_objects() -> bool:
    """Once a process, on the way to its first frames: hide what the imports made (modules,
    classes, functions, alive as long as the process) from the garbage collector, and pause
    it. Its full collections walk every tracked object (one such walk over them all cost
    ~30 ms on the way to a table), and the young ones ran ~150 times, ~15 ms, while the
    start screen and the table were built, reclaiming next to nothing. The app turns it
    back on :data:`GC_PAUSE` seconds after mounting. True if this call did it."""
    global _startup_frozen
    if _startup_frozen:
        return False
    _startup_frozen = True
    gc.freeze()
    if gc.isenabled():
        gc.disable()
        return True
    return False


class PokerApp(App[None]):
    """Poker Roulette and five-card draw at one terminal (hot-seat, bots) or over the network."""

    TITLE = "Poker Roulette"
    ENABLE_COMMAND_PALETTE = False
    # every screen (dialogs too) gets the class -wide from 120 columns on
    HORIZONTAL_BREAKPOINTS = [(120, "-wide")]
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        Binding("ctrl+t", "toggle_theme", N_("Theme"), show=False),
        Binding("ctrl+k", "toggle_four_color", N_("Four colours"), show=False),
    ]

    def __init__(self, config: AppConfig, session: Session | None = None) -> None:
        # the layout and the colours of the theme in use (each colour file scopes its rules
        # with :dark / :light); the other colour file is read when the theme is switched
        super().__init__(css_path=css_paths(config.theme))
        from pokeroulette_tui.ui import csscache

        csscache.install(self.stylesheet)  # the parsed rules of the last start, if the same
        self.config = config
        self.session = session
        self.four_color = bool(config.four_color)

    _gc_paused = False

    def run(self, *args, **kwargs):
        """Run the app in this terminal (the process's one app: its start-up objects are
        frozen first and the garbage collector paused, see :func:`freeze_startup_objects`)."""
        self._gc_paused = freeze_startup_objects()
        try:
            return super().run(*args, **kwargs)
        finally:
            self._resume_gc()

    def _resume_gc(self) -> None:
        if self._gc_paused:
            self._gc_paused = False
            gc.enable()

    WATCH_TERMINAL = True
    """Whether the app watches this process's terminal (a lost terminal ends the program).
    False for an app that draws on another terminal (the SSH room's, one per session)."""

    def on_mount(self) -> None:
        if self._gc_paused:
            self.set_timer(GC_PAUSE, self._resume_gc, name="garbage collector back on")
        if self.WATCH_TERMINAL and not self.is_headless:  # a lost terminal ends the program
            from pokeroulette_tui.ui.terminal import watch_terminal

            watch_terminal()
        self.theme = TEXTUAL_THEMES.get(self.config.theme, "textual-dark")
        said = self.config.keep_damaged_aside()  # a damaged settings file: where it went
        if said:
            self.notify(said, severity="warning", timeout=15, markup=False)
        self.config.on_save_problem = lambda words: self.notify(
            words, title=_("Settings"), severity="warning", timeout=10, markup=False)
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

    def open_table(self, session: Session, *, then: Callable[[], object] | None = None):
        """Sit down at ``session``'s table: push the table screen, which starts the session.

        ``then`` is called once the table's first frame is out. Returns the push's awaitable
        (awaiting it is optional).
        """
        from pokeroulette_tui.ui.screens.table import TableScreen

        self.session = session
        screen = TableScreen(session)
        mounted = self.push_screen(screen)
        if then is not None:
            screen.call_after_refresh(then)
        return mounted

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

    #: Said in the terminal once the app has closed (where the game was saved).
    farewell = ""

    async def action_quit(self) -> None:
        session = self.session
        await self.close_session()
        self.farewell = farewell_for(session)
        self.exit()

    def action_toggle_theme(self) -> None:
        """Switch between the dark and the light theme, and remember the choice."""
        name = "light" if self.current_theme.dark else "dark"
        self._read_colours(name)
        self.theme = TEXTUAL_THEMES[name]  # restyles with every stylesheet read so far
        self.config.theme = name
        self.config.save()

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it; a screen may say it for the moment
        (``key_display_for``: the table's "1-2" for a stock of two)."""
        shown = getattr(self.screen, "key_display_for", None)
        return (shown(binding) if shown is not None else None) or super().get_key_display(binding)

    def _read_colours(self, theme: str) -> None:
        """Add ``theme``'s colour file to the stylesheet if it is not in it yet."""
        path = theme_path(theme)
        if path not in self.css_path:
            self.css_path.append(path)
            self.stylesheet.read(path)

    def action_toggle_four_color(self) -> None:
        """Switch the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green) on or off, and remember it."""
        self.four_color = not self.four_color
        self.config.four_color = self.four_color
        self.config.save()
        for screen in self.screen_stack:
            follow = getattr(screen, "follow_four_color", None)  # (a screen with its own)
            refresh = getattr(screen, "refresh_view", None)
            if callable(follow):
                follow(self.four_color)
            elif callable(refresh) and getattr(screen, "session", None) is not None:
                refresh()
        self.notify(_("Four-colour deck on") if self.four_color else _("Four-colour deck off"),
                    markup=False)

    def switch_language(self, code: str) -> None:
        """Speak ``code`` from now on, remember it, and say every screen's words again: each
        screen with a ``retranslate`` method redraws its words, and every footer its keys."""
        set_language(code)
        self.config.language = code
        self.config.save()
        for screen in self.screen_stack:
            retranslate = getattr(screen, "retranslate", None)
            if callable(retranslate):
                screen.call_later(retranslate)
            screen.refresh_bindings()
            screen.refresh(layout=True)

    def action_next_language(self) -> None:
        """The next language (English → Finnish → Swedish → English), said in that language."""
        codes = list(LANGUAGES)
        code = codes[(codes.index(language()) + 1) % len(codes)]
        self.switch_language(code)
        self.notify(_("Language: {name}").format(name=LANGUAGES[code]), markup=False)


def make_app(config: AppConfig, session: Session | None = None) -> PokerApp:
    """The app: at ``session``'s table if given, else at the start screen."""
    return PokerApp(config, session)
