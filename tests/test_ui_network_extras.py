"""Network extras at the table: the deck check on the status line, and chat (m)."""

from __future__ import annotations

import re

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.ui.widgets.status import StatusLine
from ui_pilot import (SIZE, app_for, fake_at_turn, local_session, press, press_passive,
                      screen_text, settle, step, table_screen)

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


async def test_deck_check_result_is_on_the_status_line():
    session = fake_at_turn(PRESETS["classic"], SEATS, 4)
    session.fairness = ("deck check ✓ hand 1: all 9 cards you were shown match the dealer's "
                        "commitment")
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert "deck ✓ 9" in screen_text(app)
        session.fairness = "deck check FAILED (hand 1): card 3 does not match its commitment"
        app.screen.refresh_view()
        await pilot.pause()
        assert "deck ✗ FAILED" in screen_text(app)


async def test_a_local_table_shows_no_deck_check():
    session = fake_at_turn(PRESETS["classic"], SEATS, 4)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert app.screen.query_one(StatusLine).fairness == ""
        assert "deck ✓" not in screen_text(app) and "deck ✗" not in screen_text(app)


async def test_chat_key_sends_a_line_to_the_table():
    session = fake_at_turn(PRESETS["classic"], SEATS, 4, chat=True)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert table_screen(app).check_action("chat", ()) is True
        await press(pilot, "m")
        await pilot.press(*"hi [red]all")
        await press(pilot, "enter")
        await pilot.pause()
        assert session.chats == ["hi [red]all"]
        await press(pilot, "m")
        await press(pilot, "escape")  # cancelled: nothing sent
        assert session.chats == ["hi [red]all"]
    assert session.acts == []  # chat is not an action at the table


async def test_no_chat_key_at_a_local_table():
    session = fake_at_turn(PRESETS["classic"], SEATS, 4)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert not table_screen(app).check_action("chat", ())


class SelfPacedSession(LocalSession):
    """A table that deals on its own pace, as a network host does (``--result-pause``)."""

    def __init__(self, table, **kw) -> None:
        super().__init__(table, hand_pause=0.0, **kw)

    @property
    def next_deal(self) -> float:  # the host's result pause: four seconds from now
        import asyncio
        return asyncio.get_running_loop().time() + 4


async def test_a_self_paced_table_shows_the_result_without_blocking_the_next_hand():
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen

    session = SelfPacedSession(local_session(PRESETS["classic"], SEATS, 4).table, delay=0)
    app = app_for(session)
    shown: list[ShowdownScreen] = []
    push = app.push_screen

    def watched_push(screen, *args, **kwargs):
        if isinstance(screen, ShowdownScreen):
            shown.append(screen)
        return push(screen, *args, **kwargs)

    app.push_screen = watched_push
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await settle(pilot, session)
            if session.table.state.hand_no >= 2 and session.table.waiting_for_human() is not None:
                break
            if isinstance(app.screen, ShowdownScreen):  # only while the next hand is not dealt
                assert session.table.state.phase in ("hand_over", "game_over")
            view = table_screen(app).view
            if view.options is not None and not {"check", "call"} & set(view.options.kinds):
                await press(pilot, "f")  # never all in: the game goes on to a second hand
            else:
                await press_passive(pilot, view)
        assert shown, "the hand's result was shown"
        assert re.search(r"the host deals the next hand in [34] s", shown[0]._prompt_text())
        # the next hand was dealt: the result is out of the way, the player's turn is live
        assert not isinstance(app.screen, ShowdownScreen)
        assert table_screen(app).view.my_turn
        await press(pilot, "s")  # and the result is still there to read
        assert isinstance(app.screen, ShowdownScreen)
        assert "back to the table" in screen_text(app)
