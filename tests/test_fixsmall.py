"""Terminals smaller than 80×24 (QA): the casino and the start screen show the too-small
notice in place of what they cannot draw (and come back as the terminal grows), the notice
says the keys of the screen showing it, and the tutorial ignores keys silently while its
table is away."""

from __future__ import annotations

import pytest
from ui_pilot import SIZE, app_for, fake_at_turn, press, screen_text, step

from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.casino import CasinoApp
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.casino_dialogs import CasinoKeysScreen
from pokeroulette_tui.ui.screens.tutorial import TutorialNotes, TutorialScreen
from pokeroulette_tui.ui.tutorial import TutorialSession
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from pokeroulette_tui.ui.widgets.casino_board import CasinoBoard
from pokeroulette_tui.ui.widgets.toosmall import (
    TooSmallNotice,
    table_keys,
    too_small_text,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    return tmp_path


def notice_line(app) -> str:
    """The notice's last line (its keys), as on the screen."""
    notice = app.screen.query_one(TooSmallNotice)
    assert notice.display
    return notice.render().plain.splitlines()[-1]


# -- 1. the casino -------------------------------------------------------------------------------

async def test_the_casino_shows_the_notice_below_80x24_and_its_table_again_after(tmp_path):
    app = CasinoApp(["Ada"], DEFAULT, tmp_path / "casino.json", deal_pause=0.0, seed=11)
    async with app.run_test(size=(70, 20)) as pilot:
        await step(pilot)
        screen = app.casino_screen
        text = screen_text(app)
        assert "Too small for the table" in text and "70×20 now · 80×24 needed" in text, text
        assert not screen.query_one(CasinoBoard).display
        assert "♠" not in text  # no board wrapped half onto the next line
        # nothing is done blind: no bet, no deal, no chip change
        chip, said, cursor = screen.chip, screen.message, screen.cursor
        await press(pilot, "space", "j", "plus", "left", "d")
        assert screen.player.bets == [] and screen.chip == chip and screen.cursor == cursor
        assert screen.message == said  # (not even "place a bet first")
        await press(pilot, "question_mark")  # the keys still open
        assert isinstance(app.screen, CasinoKeysScreen)
        await press(pilot, "escape")
        await pilot.resize_terminal(80, 24)
        await step(pilot)
        text = screen_text(app)
        assert "Too small" not in text and "A♠" in text
        assert screen.query_one(CasinoBoard).display
        assert not screen.query_one(TooSmallNotice).display
        await press(pilot, "space")  # the keys work again
        assert len(screen.player.bets) == 1
        await pilot.resize_terminal(60, 15)
        await step(pilot)
        assert "60×15 now" in screen_text(app)
        await press(pilot, "q")  # quit still works
        await step(pilot)
    assert not app.is_running


# -- 2. the start screen ------------------------------------------------------------------------

async def test_the_start_screen_shows_the_notice_below_80x24_and_its_menu_again_after():
    app = make_app(AppConfig(delay=0, tutorial_offered=True))
    async with app.run_test(size=(60, 15)) as pilot:
        await step(pilot)
        text = screen_text(app)
        assert "60×15 now · 80×24 needed" in text and "Too small for the menu" in text, text
        assert notice_line(app) == "q quit"
        assert "Deal (Enter)" not in text
        await pilot.resize_terminal(80, 24)
        await step(pilot)
        text = screen_text(app)
        assert "Too small" not in text and "Deal (Enter)" in text and "Quit (q)" in text
        await pilot.resize_terminal(70, 20)
        await step(pilot)
        assert "70×20 now" in screen_text(app)
        await press(pilot, "q")
        await step(pilot)
    assert not app.is_running


# -- 3. each screen says its own keys -----------------------------------------------------------

def test_the_table_notice_names_the_leave_key():
    class Local:
        session = None
    local = too_small_text(70, 20, keys=table_keys(Local())).plain.splitlines()[-1]
    assert local == "? help · l leave · q quit (the game is saved)"
    assert TooSmallNotice.table_keys is table_keys


async def test_the_table_notice_names_the_leave_key_at_the_table():
    """(Needs the table screen to pass TooSmallNotice(keys=TooSmallNotice.table_keys).)"""
    session = fake_at_turn(PRESETS["classic"], [("Ana", None), ("Bo", "random"),
                                                ("Cy", "random")], 4)
    app = app_for(session)
    async with app.run_test(size=(70, 20)) as pilot:
        await step(pilot)
        assert "l leave" in notice_line(app)


async def test_the_tutorial_notice_says_q_leaves_the_tutorial():
    app = TutorialApp(AppConfig(delay=0), TutorialSession("draw", player="Ada"))
    async with app.run_test(size=(70, 20)) as pilot:
        await step(pilot)
        line = notice_line(app)
        assert "q leave" in line and "quit" not in line, line
        assert "q Leave" in screen_text(app).splitlines()[-1]  # as the footer says


# -- 4. the tutorial ignores keys silently while its table is away --------------------------------

async def test_the_tutorial_gives_no_hint_while_the_terminal_is_too_small():
    app = TutorialApp(AppConfig(delay=0), TutorialSession("roulette", player="Ada"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, TutorialScreen)
        at = screen.tutorial.step
        notes = screen.query_one(TutorialNotes)
        said = str(notes.render())
        await pilot.resize_terminal(70, 20)
        await step(pilot)
        await press(pilot, "enter", "x")
        assert screen.tutorial.step == at
        assert notes.hint == "" and str(notes.render()) == said
        await pilot.resize_terminal(*SIZE)
        await step(pilot)
        await press(pilot, "enter")  # back at 80×24 the step goes on
        assert screen.tutorial.step == at + 1
