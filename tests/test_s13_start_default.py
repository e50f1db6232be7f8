"""The start screen offers "d: the default table" only when the table set up differs from
it: the default table remembered from a game in English is still the default one in Finnish
(its bots' default names, "Bot 1" and "Botti 1", count as the same)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.i18n import set_language
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig, SeatChoice, TableSetup
from pokeroulette_tui.ui.screens.start import StartScreen
from pokeroulette_tui.ui.tables import remember
from ui_pilot import SIZE, step


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")


@pytest.mark.parametrize("renamed", [False, True])
async def test_the_default_table_in_another_language_is_still_the_default(renamed):
    set_language("en")
    setup = TableSetup.default()
    if renamed:  # a bot named by the player: not the default table
        setup.seats = [*setup.seats[:-1], SeatChoice("Rex", setup.seats[-1].bot)]
    config = AppConfig(delay=0)
    remember(config, setup)
    set_language("fi")
    app = make_app(config)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert screen.check_action("default_table", ()) is renamed
