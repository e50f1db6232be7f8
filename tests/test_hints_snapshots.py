"""SVG snapshots of the hints (pytest-textual-snapshot): the panel at 80×24 beside a table at
Ada's turn, and the "what beats what" card.

The table is a still picture (a FakeSession), the estimates use fixed random numbers, a fixed
number of samples and a clock that ticks per look, so each picture is the same on every run.
After a deliberate change, look at the new pictures and accept them:
``python -m pytest tests/test_hints_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui import hints as hints_module
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.widgets.hints import HintsPanel
from ui_pilot import fake_at_turn, press, step, table_screen

SEATS = [("Ada", None), ("Bo", "simple"), ("Cy", "simple"), ("Di", "simple")]


@pytest.fixture(autouse=True)
def fixed(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(hints_module, "BUDGET", 1e9)
    monkeypatch.setattr(hints_module, "MAX_SAMPLES", 400)
    monkeypatch.setattr(HintsPanel, "seed", 1)
    ticks = itertools.count(0, 0.01)
    monkeypatch.setattr(HintsPanel, "clock", staticmethod(lambda: next(ticks)))


def table():
    fake = fake_at_turn(PRESETS["classic"], SEATS, 5, holds_results=False)
    fake.hints_allowed = True
    return fake


async def hints_done(pilot) -> None:
    await step(pilot)
    await press(pilot, "i")
    panel = table_screen(pilot.app).query_one(HintsPanel)
    for _ in range(2000):
        if panel._estimate is not None and panel._estimate.done:
            break
        await asyncio.sleep(0.01)
        await step(pilot)
    else:
        raise AssertionError("the estimates never finished")
    pilot.app.clear_notifications()
    await step(pilot)


def test_hints_panel_80x24(snap_compare):
    app = make_app(AppConfig(delay=0), table())
    assert snap_compare(app, terminal_size=(80, 24), run_before=hints_done)


def test_what_beats_what_80x24(snap_compare):
    fake = fake_at_turn(PRESETS["pagat"].replace(suit_order="SHDC"), SEATS, 5, holds_results=False)

    async def run_before(pilot) -> None:
        await step(pilot)
        await press(pilot, "w")
        await step(pilot)

    assert snap_compare(make_app(AppConfig(delay=0), fake), terminal_size=(80, 24),
                        run_before=run_before)
