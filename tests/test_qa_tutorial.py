"""QA of the tutorials: q in the result window leaves the tutorial (not the program), every
step's note and every wrong key's hint fit the notes box at 80×24 in each language, and the
notes say only what the player can see.
"""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.i18n import _, set_language
from pokeroulette_tui.engine.tutorial_deals import DEALS
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.tutorial import (TutorialNotes, TutorialScreen, farewell_text,
                                                  notes_text)
from pokeroulette_tui.ui.tutorial import NOTES, WRONG_MOVE, TutorialSession, read_progress
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from ui_pilot import press, screen_text

SIZE = (80, 24)
MOVE_KEYS = {("roulette", "bet"): ("b", "enter"), ("roulette", "result"): ("s",),
             ("draw", "cut"): ("enter",), ("draw", "exchange"): ("2", "4", "5", "enter"),
             ("draw", "result"): ("s",)}
"""The keys of each step that is not read-and-go-on (as tests/test_tutorial.py's)."""
WRONG_MOVES = {"bet": (("b", "5", "enter"), ()), "cut": (("right", "enter"), ("left",)),
               "exchange": (("1", "enter"), ("1",))}
"""A move other than the step's (the keys, then the keys that undo what they chose)."""


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    return tmp_path


# -- 1: q in the result window -----------------------------------------------------------------

async def at_the_result(app, pilot, name: str) -> TutorialScreen:
    """Play the open tutorial to its result step and press s (the result window is up)."""
    screen = app.screen
    assert isinstance(screen, TutorialScreen)
    session = screen.tutorial
    while session.beat.name != "result":
        await press(pilot, *MOVE_KEYS.get((name, session.beat.name), ("enter",)))
    await press(pilot, "s")
    assert isinstance(app.screen, ShowdownScreen)
    return screen


@pytest.mark.parametrize("name", ["roulette", "draw"])
async def test_q_in_the_result_window_leaves_the_tutorial_for_the_start_screen(name):
    app = make_app(AppConfig(delay=0, tutorial_offered=True))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "l", "R" if name == "roulette" else "D")
        tutorial = await at_the_result(app, pilot, name)
        footer = screen_text(app).splitlines()[-1]
        assert "q Leave" in footer and "Quit" not in footer, footer
        step = tutorial.tutorial.step
        await press(pilot, "q")
        for _ in range(10):
            await pilot.pause()
        assert app.is_running  # (the program went on)
        assert type(app.screen).__name__ == "StartScreen" and app.session is None
        assert read_progress() == {name: step}  # carries on there, as Esc or q elsewhere
        await press(pilot, "l")
        assert f"carries on at step {step + 1}" in screen_text(app)


async def test_q_in_the_result_window_of_pokeroulette_tutorial_says_where_it_stopped():
    session = TutorialSession("draw", player="Ada")
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        await at_the_result(app, pilot, "draw")
        await press(pilot, "q")
        await pilot.pause()
    assert app.farewell == farewell_text(session) and "step 9 of 9" in app.farewell


# -- 2: the notes fit the box ------------------------------------------------------------------

def box_words(app) -> str:
    """The words the notes box shows on the terminal (under its title line)."""
    box = app.screen.query_one(TutorialNotes)
    r = box.region
    lines = screen_text(app).splitlines()[r.y + 1:r.y + r.height]
    return " ".join(" ".join(line[r.x:r.x + r.width] for line in lines).split())


async def assert_whole(pilot, what: str) -> None:
    app = pilot.app
    await pilot.pause()  # (the table lays itself out, then the notes take the log's place)
    await pilot.pause()
    box = app.screen.query_one(TutorialNotes)
    session = app.screen.tutorial
    want = " ".join(notes_text(session, box.hint, in_app=False).plain.split())
    assert box_words(app) == want, (what, box.hint)


@pytest.mark.parametrize("lang", ["en", "fi", "sv"])
@pytest.mark.parametrize("name", ["roulette", "draw"])
async def test_every_note_and_hint_fits_the_box_at_80x24(name, lang):
    set_language(lang)
    session = TutorialSession(name, player="Ada", remember=False)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        app.clear_notifications()
        while not session.finished:
            beat = session.beat.name
            where = f"{lang} {name} step {session.step + 1} {beat}"
            await assert_whole(pilot, where)
            await press(pilot, "x")  # a key of nothing: the step's hint
            box = app.screen.query_one(TutorialNotes)
            assert box.hint == _(session.note.hint) and box.hint
            await assert_whole(pilot, where + " after x")
            if beat in WRONG_MOVES:  # the move of another lesson: its own hint
                wrong, undo = WRONG_MOVES[beat]
                await press(pilot, *wrong)
                assert session.beat.name == beat and box.hint, where
                await assert_whole(pilot, where + " after a wrong move")
                await press(pilot, *undo)
            await press(pilot, *MOVE_KEYS.get((name, beat), ("enter",)))
            if isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")


def test_the_hints_no_longer_repeat_how_to_leave():
    session = TutorialSession("roulette", step=DEALS["roulette"].beat_index("bet"),
                              remember=False)
    leave = "Esc leaves; the tutorial carries on here next time."
    assert leave not in notes_text(session, WRONG_MOVE["bet"]).plain
    assert leave in notes_text(TutorialSession("roulette", remember=False)).plain  # once


# -- 3 and 4: the words ------------------------------------------------------------------------

def test_round_5_does_not_tell_bos_hidden_card():
    deal = DEALS["roulette"]
    session = TutorialSession("roulette", step=deal.beat_index("round5"), remember=False)
    bo = session.view(0).players[1]
    hidden = sum(1 for c in bo.stock if c is None)
    assert hidden == 1  # the stock card is face down until the showdown
    text = NOTES["roulette"]["round5"].text
    assert "five hearts" not in text and "four hearts" in text


def test_step_3_in_plain_english():
    assert "you neither" not in NOTES["roulette"]["actives"].text
