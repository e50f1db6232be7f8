"""SVG snapshots of the tutorials at 80×24: a Poker Roulette step and a five-card draw step.

The tutorials are prepared deals, the login name is fixed and the settings live in a
temporary folder, so each picture is the same on every run. After a deliberate change, look
at the new pictures and accept them:
``python -m pytest tests/test_tutorial_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.tutorial_deals import DEALS
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.tutorial_app import TutorialApp
from pokeroulette_tui.ui.tutorial import TutorialSession
from ui_pilot import press, step


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)


def tutorial_at(name: str, beat: str) -> TutorialApp:
    session = TutorialSession(name, step=DEALS[name].beat_index(beat), player="Ada",
                              remember=False)
    return TutorialApp(AppConfig(delay=0), session)


def quiet(*keys: str):
    """``run_before``: press ``keys``, then clear the notes (the resume toast among them)."""
    async def run_before(pilot) -> None:
        await press(pilot, *keys)
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()
        await step(pilot)
    return run_before


def test_roulette_claiming_the_match_card(snap_compare):
    assert snap_compare(tutorial_at("roulette", "claim"), terminal_size=(80, 24),
                        run_before=quiet())


def test_draw_choosing_the_cards_to_exchange(snap_compare):
    assert snap_compare(tutorial_at("draw", "exchange"), terminal_size=(80, 24),
                        run_before=quiet("2", "4"))
