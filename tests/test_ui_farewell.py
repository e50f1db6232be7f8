"""Quitting a local table says where the game was saved and how to carry on (issue 10)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.app import farewell_for
from ui_pilot import SIZE, app_for, settle

SEATS = [SeatConfig("Ana"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


async def test_q_at_the_table_says_where_the_game_is_saved(tmp_path):
    table = Table.create(PRESETS["classic"], SEATS, seed=3, save_path=tmp_path / "game.json")
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await pilot.press("q")
        await pilot.pause()
    assert str(tmp_path / "game.json") in app.farewell and "carry on" in app.farewell
    assert Table.resume(tmp_path / "game.json").actions == table.actions  # it really is


def test_the_farewell_says_game_over_or_a_failed_save(tmp_path):
    table = Table.create(PRESETS["classic"], SEATS, seed=3, save_path=tmp_path / "g.json")
    session = LocalSession(table, delay=0)
    table.save_error = "autosave to g.json failed: No space left on device"
    assert "could NOT be saved" in farewell_for(session) and "No space" in farewell_for(session)
    table.save_error = ""
    table.state.game_over = True
    assert "game is over" in farewell_for(session)
    assert farewell_for(None) == ""
