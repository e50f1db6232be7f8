"""Settings that cannot be written (a read-only folder, a file where the folder should be)
are said once, at the change that fails, not silently forgotten at the next start."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine import folders
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from ui_pilot import SIZE, press, step


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    return tmp_path


async def test_a_setting_that_cannot_be_saved_is_said_once(monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(folders, "atomic_write", refuse)
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "ctrl+t")
        await press(pilot, "ctrl+t")  # (failing again: not said again)
        said = [n.message for n in app._notifications if n.title == "Settings"]
        assert len(said) == 1, said
        assert "cannot be saved" in said[0] and "until you quit" in said[0], said
        assert app.config.save_problem
    monkeypatch.undo()
    config = AppConfig(delay=0)
    config.save()  # (it works again: nothing to say)
    assert config.save_problem == ""
