"""A hand's result: the local table waits until it has been seen (folds too), and resumes there."""

from __future__ import annotations

import asyncio

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import Table
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from ui_pilot import SIZE, app_for, local_session, press, screen_text, settle, step, table_screen

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


def fold_win_seed() -> int:
    """A seed whose first hand ends with everyone but one folded when Ana folds at once
    (bots choose the same way with or without a screen)."""
    from pokeroulette_tui.engine.actions import Fold, MoveStockToActive

    for seed in range(1, 200):
        table = local_session(PRESETS["classic"], SEATS, seed=seed).table
        while table.state.hand_no <= 1 and table.state.phase not in ("hand_over", "game_over"):
            action = table.auto_action()
            if action is None:
                legal = table.legal(0)
                action = next((a for a in legal if isinstance(a, Fold)), None) or next(
                    (a for a in legal if isinstance(a, MoveStockToActive) and a.index is None),
                    legal[0])
            table.apply(action)
        if any("everyone else folded" in e.text for e in table.history[-1]):
            return seed
    raise AssertionError("no seed gives a fold win")


async def test_a_fold_win_waits_for_enter_before_the_next_deal():
    session = local_session(PRESETS["classic"], SEATS, seed=fold_win_seed())
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):
            await settle(pilot, session)
            if isinstance(app.screen, ShowdownScreen):
                break
            view = table_screen(app).view
            await press(pilot, "f" if view.phase == "betting" and "fold" in view.options.kinds
                        else "k" if view.phase == "stock_to_active" else "c")  # as fold_win_seed
        else:
            pytest.fail("the hand never ended")
        state = session.table.state
        hand = state.hand_no
        assert state.phase == "hand_over"
        text = screen_text(app)
        assert f"Hand {hand} is over" in text and "Folded: " in text and "everyone else folded" in text
        assert "Enter: deal the next hand" in text
        for _ in range(20):  # the table waits, however long the player reads
            await asyncio.sleep(0)
            await step(pilot)
        assert session.table.state.hand_no == hand and session.table.state.phase == "hand_over"
        assert session.result_pending()
        await press(pilot, "enter")
        await settle(pilot, session)
        assert session.table.state.hand_no == hand + 1
        assert not isinstance(app.screen, ShowdownScreen)


async def test_the_last_hand_leads_to_the_standings():
    rules = PRESETS["classic"].replace(hand_limit=1)
    session = local_session(rules, SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            await settle(pilot, session)
            if isinstance(app.screen, ShowdownScreen):
                break
            view = table_screen(app).view
            await press(pilot, "k" if view.phase == "stock_to_active" else
                        "c" if {"check", "call"} & set(view.options.kinds) else "f")
        assert "Enter: the final standings" in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "n")  # a new game: back to the start screen, no word of a closed table
        for __ in range(20):
            await step(pilot)
            if type(app.screen).__name__ == "StartScreen":
                break
        assert type(app.screen).__name__ == "StartScreen"
        assert "The table has closed." not in [n.message for n in app._notifications]


async def test_a_table_saved_behind_the_result_shows_it_again_on_resume(home):
    path = home / "save.json"
    session = local_session(PRESETS["classic"], SEATS, seed=2)
    session.table.save_path = path
    from ui_pilot import passive_step
    while session.table.state.phase != "hand_over":
        passive_step(session.table)
    hand = session.table.state.hand_no
    resumed = LocalSession(Table.resume(path), delay=0)
    assert resumed.result_pending()
    app = make_app(AppConfig(delay=0), resumed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, resumed)
        assert isinstance(app.screen, ShowdownScreen)
        assert f"Hand {hand}" in screen_text(app)
        assert resumed.table.state.phase == "hand_over"
        await press(pilot, "enter")
        await settle(pilot, resumed)
        assert resumed.table.state.hand_no == hand + 1


async def test_s_after_a_resume_mid_hand_shows_the_last_finished_hand(home):
    """Issue 10: `s` did nothing after a resume. It shows the last finished hand, told from
    its events."""
    from ui_pilot import passive_step

    path = home / "save.json"
    session = local_session(PRESETS["classic"], SEATS, seed=2)
    session.table.save_path = path
    table = session.table
    while not (table.state.hand_no == 2 and table.waiting_for_human() is not None):
        passive_step(table)
    first = table.history[-2]
    resumed = LocalSession(Table.resume(path), delay=0)
    app = make_app(AppConfig(delay=0), resumed)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, resumed)
        assert not isinstance(app.screen, ShowdownScreen)
        await press(pilot, "s")
        assert isinstance(app.screen, ShowdownScreen)
        assert "Hand 1" in screen_text(app)
        winner = next(e for e in first if e.kind == "pot_won")
        assert winner.text.split(" wins")[0] in screen_text(app)
        await press(pilot, "enter")
        assert not isinstance(app.screen, ShowdownScreen)
        assert resumed.table.state.hand_no == 2  # nothing was dealt by looking back
