"""The way into the game in Finnish and Swedish: the start screen, the setup screen, a
tutorial step and the statistics screen at 80×24 (SVG snapshots), ``g`` on the start screen
and the setup screen's language row switching at run time (and remembered in the settings),
and the tutorials translated whole.

The pictures are made like tests/test_snapshots.py's (fixed login name, settings in a
temporary folder). After a deliberate change, look at the new pictures and accept them:
``python -m pytest tests/test_i18n_screens.py --snapshot-update``.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from pokeroulette_tui.engine.i18n import _, set_language
from pokeroulette_tui.engine.tutorial_deals import DEALS
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.setup import SetupScreen
from pokeroulette_tui.ui.screens.start import StartScreen
from pokeroulette_tui.ui.screens.stats import hand_words
from pokeroulette_tui.ui.tutorial import NOTES, TUTORIALS, WRONG_MOVE, TutorialSession
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from test_stats_screen import record_games
from ui_pilot import SIZE, press, screen_text, step

LANGS = ("fi", "sv")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


# -- the pictures ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_start_screen(snap_compare, lang):
    set_language(lang)
    assert snap_compare(make_app(AppConfig(delay=0)), terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGS)
def test_setup_screen(snap_compare, lang):
    set_language(lang)
    assert snap_compare(make_app(AppConfig(delay=0)), press=["s"], terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGS)
def test_tutorial_step(snap_compare, lang):
    set_language(lang)
    session = TutorialSession("roulette", step=DEALS["roulette"].beat_index("claim"),
                              player="Ada", remember=False)

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()
        await step(pilot)

    assert snap_compare(TutorialApp(AppConfig(delay=0), session), terminal_size=SIZE,
                        run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_screen(snap_compare, lang):
    record_games()
    set_language(lang)

    async def run_before(pilot) -> None:
        await step(pilot)
        await press(pilot, "t")
        await step(pilot)

    assert snap_compare(make_app(AppConfig(delay=0)), terminal_size=SIZE, run_before=run_before)


# -- switching at run time ------------------------------------------------------------------

async def settle(pilot) -> None:
    """Let a language switch run its screens' retranslate (a recompose) and redraw."""
    for __ in range(3):
        await pilot.pause()
        await step(pilot)


async def test_g_on_the_start_screen_speaks_finnish_then_swedish_and_remembers_it():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        text = screen_text(app)
        assert "Poker Roulette" in text and "Deal (Enter)" in text and "q Quit" in text

        await press(pilot, "g")
        await settle(pilot)
        text = screen_text(app)
        assert "Pokeriruletti" in text and "Kieli: suomi" in text
        assert "Jaa (Enter)" in text and "Pöydän asetukset (s)" in text
        assert "q Lopeta" in text and "t Tilastot" in text and "l Opastus" in text  # the footer
        assert "Quit" not in text and "Deal (Enter)" not in text
        assert app.config.language == "fi" and AppConfig.load().language == "fi"

        await press(pilot, "g")
        await settle(pilot)
        text = screen_text(app)
        assert "Pokerroulette" in text and "Språk: svenska" in text
        assert "Dela ut (Enter)" in text and "q Avsluta" in text and "t Statistik" in text
        assert "Lopeta" not in text and "Pokeriruletti" not in text
        assert AppConfig.load().language == "sv"

        await press(pilot, "g")
        await settle(pilot)
        text = screen_text(app)
        assert "Deal (Enter)" in text and "q Quit" in text
        assert AppConfig.load().language == "en"


async def test_the_setup_screen_opened_after_a_switch_speaks_the_new_language():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "g")  # Finnish
        await settle(pilot)
        await press(pilot, "s")
        await settle(pilot)
        assert isinstance(app.screen, SetupScreen)
        text = screen_text(app)
        assert "Pöydän asetukset — sopikaa talon säännöistä" in text
        assert "Peruuta" in text or "Peru" in text
        assert "Table setup" not in text


async def test_the_setup_screens_language_row_switches_at_once_and_keeps_what_was_typed():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "s")
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#seed", Input).value = "42"
        setup.query_one("#opt-ante", Input).value = "3"
        language = setup.query_one("#language", Select)
        assert language.value == "en"
        language.focus()
        language.value = "sv"
        await settle(pilot)

        assert app.screen is setup
        text = screen_text(app)
        assert "Bordsinställningar — kom överens om husreglerna" in text
        assert setup.query_one("#seed", Input).value == "42"   # what was typed stays
        assert setup.query_one("#opt-ante", Input).value == "3"
        assert setup.query_one("#language", Select).value == "sv"
        assert app.focused is not None and app.focused.id == "language"
        assert AppConfig.load().language == "sv"

        await press(pilot, "escape")  # back: the start screen under it speaks Swedish too
        await settle(pilot)
        assert isinstance(app.screen, StartScreen)
        text = screen_text(app)
        assert "Språk: svenska" in text and "Dela ut (Enter)" in text


# -- the words ------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_tutorial_word_is_translated(lang):
    set_language(lang)
    texts = {TUTORIALS[name] for name in TUTORIALS} | set(WRONG_MOVE.values())
    for notes in NOTES.values():
        for note in notes.values():
            texts |= {note.text, note.keys, note.hint}
    untranslated = sorted(t for t in texts if _(t) == t)
    assert untranslated == []


def test_a_recorded_hand_is_said_again_in_the_players_language():
    assert hand_words("four of a kind, sevens", "FOUR_OF_A_KIND", ["7h", "7d", "7s", "*", "Ac"]) \
        == "four of a kind, sevens"  # English: as recorded
    set_language("sv")
    assert hand_words("four of a kind, sevens", "FOUR_OF_A_KIND",
                      ["7h", "7d", "7s", "*", "Ac"]) == "fyrtal i sjuor"
    set_language("fi")
    said = hand_words("pair of aces", "PAIR", ["As", "Ac", "Ts", "7s", "6h"])
    assert said != "pair of aces" and "ässä" in said
