"""Whole hands of both variants played through the table screen with key presses only."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, step, table_screen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def bet_key(view) -> str:
    kinds = view.options.kinds
    return "c" if ("check" in kinds or "call" in kinds) else "a"


def kinds_played(session) -> list[str]:
    return [e.kind for hand in session.table.history for e in hand]


async def test_roulette_hand_with_betting_and_stock_to_active():
    rules = PRESETS["swedish"]  # betting each round, stock to active on
    assert rules.betting == "each_round" and rules.stock_to_active
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    app = app_for(session)
    phases: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await settle(pilot, session)
            if isinstance(app.screen, ShowdownScreen):
                break
            assert isinstance(app.screen, TableScreen)
            view = table_screen(app).view
            assert view.my_turn
            phases.append(view.phase)
            if view.phase == "betting":
                await press(pilot, bet_key(view))
            elif view.phase == "stock_to_active":
                # the first time move stock card 1, then keep
                await press(pilot, "1" if phases.count("stock_to_active") == 1 else "k")
        else:
            pytest.fail("no showdown")
        text = screen_text(app)
        assert "showdown" in text and "WINS" in text
        assert "betting" in phases and "stock_to_active" in phases
        played = kinds_played(session)
        assert "stock_to_active" in played and "stock_kept" in played and "show" in played
        await press(pilot, "enter")
        assert not isinstance(app.screen, ShowdownScreen)
        # the result can be read again
        await press(pilot, "s")
        assert isinstance(app.screen, ShowdownScreen)
        await press(pilot, "escape")


async def test_draw_hand_with_cut_exchange_and_betting():
    rules = PRESETS["draw"].replace(betting="each_round")
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=3)
    app = app_for(session)
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(80):
            await settle(pilot, session)
            if isinstance(app.screen, ShowdownScreen):
                if {"cut", "draw", "betting"} <= seen:
                    break
                await press(pilot, "enter")
                continue
            if isinstance(app.screen, GameOverScreen):
                pytest.fail(f"game over before a full hand: saw {seen}")
            view = table_screen(app).view
            seen.add(view.phase)
            if view.phase == "betting":
                await press(pilot, bet_key(view))
            elif view.phase == "cut":
                await press(pilot, "left", "left", "up")
                assert table_screen(app).cut_pos == 52 // 2 - 2 + 5
                await press(pilot, "enter")
            elif view.phase == "draw":
                before = len(session.table.actions)
                await press(pilot, "enter")  # nothing chosen: asked, not played (issue 10)
                assert len(session.table.actions) == before
                assert any("No card chosen" in n.message for n in app._notifications)
                await press(pilot, "1", "3")
                assert table_screen(app).selected == {0, 2}
                assert "1 out" in screen_text(app)
                await press(pilot, "enter")
                drew = [e for hand in session.table.history for e in hand
                        if e.kind == "drew" and e.seat == 0 and e.hand_no == view.hand_no]
                assert drew and drew[-1].amount == 2
        else:
            pytest.fail(f"no full hand: saw {seen}")
        played = kinds_played(session)
        assert "cut" in played and "drew" in played and "show" in played
        assert "showdown" in screen_text(app)


async def test_bots_only_table_is_watched_in_public():
    rules = PRESETS["classic"]
    session = local_session(rules, [("Bo", "random"), ("Cy", "random"), ("Di", "random")], seed=2)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):
            await step(pilot)
            screen = table_screen(app)
            if screen.view is not None:
                assert screen.view.seat is None
            if isinstance(app.screen, (ShowdownScreen, GameOverScreen)):
                break
        text = ""
        for _ in range(20):  # a screen pushed a moment ago is drawn on the next refresh
            await step(pilot)
            text = screen_text(app)
            if text.strip():
                break
        assert "[watching]" in text and "Spectator" in text


async def test_game_over_shows_standings_and_quits():
    rules = PRESETS["classic"].replace(hand_limit=1)
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await settle(pilot, session)
            if session.table.state.game_over:
                break
            if isinstance(app.screen, TableScreen):
                view = table_screen(app).view
                if view.phase == "betting":
                    await press(pilot, bet_key(view))
        await settle(pilot, session)
        while isinstance(app.screen, ShowdownScreen):
            await press(pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Game over" in text and "Ana" in text and "Bo" in text
        await press(pilot, "q")
    assert session._closed
