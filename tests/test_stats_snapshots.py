"""SVG snapshots of the statistics screen (start screen ``t``) at 80×24 and 160×48.

The games are seeded and recorded with a fixed clock, the settings live in a temporary
folder: the picture is the same on every run. After a deliberate change, look at the new
pictures and accept them: ``python -m pytest tests/test_stats_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from test_stats_screen import record_games
from ui_pilot import press, step

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.mark.parametrize("size", SIZES)
def test_statistics_screen(snap_compare, size):
    record_games()

    async def run_before(pilot) -> None:
        await step(pilot)
        await press(pilot, "t")
        await step(pilot)

    assert snap_compare(make_app(AppConfig(delay=0)), terminal_size=SIZES[size],
                        run_before=run_before)
