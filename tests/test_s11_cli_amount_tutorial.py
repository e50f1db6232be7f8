"""The amount box names every key it left out (not only the last); the tutorial's ``s``
works whenever the table's status line offers it (the hand is over)."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Input, Static

from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.tutorial import TutorialScreen
from pokeroulette_tui.ui.tutorial import TutorialSession
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from ui_pilot import press, screen_text

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


class AmountHost(App):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[int | None] = []

    def on_mount(self) -> None:
        from pokeroulette_tui.ui.screens.amount import AmountScreen

        self.push_screen(AmountScreen("Bet", 2, 97, presets=[("min", 2), ("½ pot", 6),
                                                               ("pot", 12), ("all in", 97)]),
                         self.chosen.append)


def said(app) -> str:
    return str(app.screen.query_one("#amount-error", Static).render())


async def test_every_key_left_out_is_named_not_only_the_last():
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#amount-input", Input)
        await pilot.press("backspace", "x", "1", "e", "3")
        assert box.value == "13"
        assert said(app) == "Digits only: 'x', 'e' were left out."
        await pilot.press("e")  # the same key again: named once
        assert said(app) == "Digits only: 'x', 'e' were left out."
        await pilot.press("enter")
        assert app.chosen == []
        assert said(app) == "'x', 'e' were left out: the box says 13. Enter again to confirm."
        await pilot.press("z")  # after Enter: a fresh count
        assert said(app) == "Digits only: 'z' was left out."
        await pilot.press("enter", "enter")
        assert app.chosen == [13]


async def test_many_keys_left_out_are_named_up_to_a_few():
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("backspace", *"bcdgijknorstuvw")
        text = said(app)
    assert text.startswith("Digits only: 'b', 'c', ") and "…" in text and "'w'" not in text


# -- the tutorial: s at the steps after the showdown ---------------------------------------------

async def test_s_shows_the_result_once_the_hand_is_over_and_the_steps_go_on_as_before():
    from pokeroulette_tui.engine.tutorial_deals import DEALS

    session = TutorialSession("roulette", step=DEALS["roulette"].beat_index("showdown"),
                              player="Ada", remember=False)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        assert session.beat.name == "showdown"
        assert "s shows the result" in screen_text(app)  # what the status line offers …
        # (the prepared hand is the whole game: no next hand is promised, nor "again")
        assert "next hand follows" not in screen_text(app)
        assert "Hand over · s shows the result" in screen_text(app)
        assert "result again" not in screen_text(app)
        await press(pilot, "s")  # … works: the result, as a game shows it
        assert isinstance(app.screen, ShowdownScreen)
        await press(pilot, "enter")
        assert isinstance(app.screen, TutorialScreen)
        assert session.beat.name == "showdown"  # the step is not skipped
        await press(pilot, "enter")
        assert session.beat.name == "best_five"
        await press(pilot, "enter", "enter")
        assert session.beat.name == "result"
        await press(pilot, "s")  # the step that asks for it goes on, as before
        assert isinstance(app.screen, ShowdownScreen)
        await press(pilot, "enter")
        assert session.beat.name == "the_end"


async def test_s_before_the_hand_is_over_still_gets_the_hint():
    session = TutorialSession("roulette", step=2, player="Ada", remember=False)
    app = TutorialApp(AppConfig(delay=0), session)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        step = session.step
        await press(pilot, "s")
        assert isinstance(app.screen, TutorialScreen) and session.step == step
        from pokeroulette_tui.ui.screens.tutorial import TutorialNotes

        assert "Press Enter to go on" in app.screen.query_one(TutorialNotes).hint
