"""SVG snapshots of the casino (pytest-textual-snapshot): the betting board with chips on
every kind of spot, and the board after a seeded deal, at 80×24 and 160×48.

The store lives in a temporary folder, the shuffle is seeded and the cards come without a
pause, so each picture is the same on every run. After a deliberate change, look at the new
pictures and accept them: ``python -m pytest tests/test_casino_snapshots.py
--snapshot-update``.
"""

from __future__ import annotations

import pytest
from ui_pilot import press, step

from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.ui.casino import CasinoApp

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}

# A♠, splits right and down, a corner, the aces, spades; then from 2♠: two and four ranks,
# a bigger chip on 2♠; the joker spot, the side bet; red and a poker bet
BETS = ("space", "s", "v", "c", "k", "f", *["left"] * 12, "2", "4", "plus", "space", "minus",
        "j", "p", *["down"] * 4, "right", "space", "down", "space", "up", "up", "up", "up",
        "right", "right", "right")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)


def app_for(tmp_path) -> CasinoApp:
    return CasinoApp(["Ada", "Bo"], DEFAULT, tmp_path / "casino.json", deal_pause=0, seed=4)


def pressing(*keys: str):
    async def run_before(pilot) -> None:
        await step(pilot)
        await press(pilot, *keys)
        pilot.app.clear_notifications()
        await step(pilot)
    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_casino_board(snap_compare, tmp_path, size):
    assert snap_compare(app_for(tmp_path), terminal_size=SIZES[size],
                        run_before=pressing(*BETS))


@pytest.mark.parametrize("size", SIZES)
def test_casino_after_the_deal(snap_compare, tmp_path, size):
    assert snap_compare(app_for(tmp_path), terminal_size=SIZES[size],
                        run_before=pressing(*BETS, "d"))
