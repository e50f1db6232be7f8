"""``pokeroulette tutorial``: the app with a tutorial as its first screen."""

from __future__ import annotations

from pokeroulette_tui.ui.app import PokerApp
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.tutorial import TutorialScreen, start_tutorial


class TutorialApp(PokerApp):
    """The app of ``pokeroulette tutorial``: the tutorial is its first screen, and leaving it
    ends the program."""

    def open_table(self, session, *, then=None):  # (PokerApp opens its session's table)
        return self.push_screen(TutorialScreen(session, exit_on_leave=True))


def run_tutorial(name: str, *, restart: bool = False) -> int:
    """``pokeroulette tutorial [roulette|draw]``: the app at that tutorial, until it is left
    or finished."""
    app = TutorialApp(AppConfig.load(), start_tutorial(name, restart=restart))
    app.run()
    if app.farewell:
        from pokeroulette_tui.ui.terminal import say_wrapped

        say_wrapped(app.farewell)
    return app.return_code or 0
