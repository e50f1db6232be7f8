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


class _Terminal:
    """Standard output as a terminal would be (wrapped by the program itself, not by it)."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def test_the_farewell_is_wrapped_at_spaces_to_the_terminal_and_keeps_a_path_whole(
        tmp_path, monkeypatch):
    from pokeroulette_tui.ui.terminal import say_wrapped

    monkeypatch.setenv("COLUMNS", "40")
    path = tmp_path / ("a-long-folder-name-" * 3) / "autosave.json"
    text = ("Your game is saved ({path}). Run pokeroulette and press Enter to carry on where "
            "you left off.").format(path=path)
    out = _Terminal()
    say_wrapped(text, out)
    lines = out.text.splitlines()
    assert " ".join(lines) == text  # nothing lost, every break at a space
    assert all(len(line) <= 40 for line in lines if str(path) not in line)
    assert any(str(path) in line for line in lines)  # (the path on a line of its own, whole)
    piped = _Terminal()
    piped.isatty = lambda: False  # type: ignore[method-assign]
    say_wrapped(text, piped)
    assert piped.text == text + "\n"  # a file or a pipe gets it as it is
