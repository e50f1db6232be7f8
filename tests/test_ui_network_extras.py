"""Network extras at the table: the deck check on the status line, and chat (m)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.widgets.status import StatusLine
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, table_screen

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


async def test_deck_check_result_is_on_the_status_line():
    session = local_session(PRESETS["classic"], SEATS, 4)
    session.fairness = ("deck check ✓ hand 1: all 9 cards you were shown match the dealer's "
                        "commitment")
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert "deck ✓ 9" in screen_text(app)
        session.fairness = "deck check FAILED (hand 1): card 3 does not match its commitment"
        app.screen.refresh_view()
        await pilot.pause()
        assert "deck ✗ FAILED" in screen_text(app)


async def test_a_local_table_shows_no_deck_check():
    session = local_session(PRESETS["classic"], SEATS, 4)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert app.screen.query_one(StatusLine).fairness == ""
        assert "deck ✓" not in screen_text(app) and "deck ✗" not in screen_text(app)


async def test_chat_key_sends_a_line_to_the_table():
    session = local_session(PRESETS["classic"], SEATS, 4)
    said: list[str] = []

    async def chat(text: str) -> None:
        said.append(text)

    session.chat = chat
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert table_screen(app).check_action("chat", ()) is True
        await press(pilot, "m")
        await pilot.press(*"hi [red]all")
        await press(pilot, "enter")
        await pilot.pause()
        assert said == ["hi [red]all"]
        await press(pilot, "m")
        await press(pilot, "escape")  # cancelled: nothing sent
        assert said == ["hi [red]all"]


async def test_no_chat_key_at_a_local_table():
    session = local_session(PRESETS["classic"], SEATS, 4)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert not table_screen(app).check_action("chat", ())
