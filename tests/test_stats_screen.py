"""The statistics screen (start screen ``t``, help ``t``) and the table screen's recording."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.ui.app import make_app
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.stats import StatsScreen
from pokeroulette_tui.ui.stats_recorder import StatsRecorder, stats_store
from stats_helpers import TableSession, new_table, play
from ui_pilot import SIZE, app_for, fake_at_turn, local_session, press, screen_text, settle, step

CLOCK = "2025-03-14T20:15:00+01:00"


def record_games() -> None:
    """Ana (hot-seat with Bo) and Bo: seeded games, a fixed clock."""
    for preset, seed in (("classic", 3), ("classic", 4), ("draw", 5)):
        table = new_table(PRESETS[preset], humans=[0, 1], seed=seed)
        play(table, TableSession(table, [0, 1]), StatsRecorder(stats_store(), clock=lambda: CLOCK),
             seed=seed)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    return tmp_path


async def test_t_on_the_start_screen_shows_each_players_statistics():
    record_games()
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "t")
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "Statistics · Ana" in text and "1 of 2 players" in text
        assert "roulette · classic" in text and "draw · draw" in text and "Best hand" in text
        await press(pilot, "right")
        assert "Statistics · Bo" in screen_text(app)
        await press(pilot, "left", "left")
        assert "Statistics · Bo" in screen_text(app)
        await press(pilot, "escape")
        assert not isinstance(app.screen, StatsScreen)


async def test_no_statistics_yet_says_so():
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "t")
        assert "No games recorded yet" in screen_text(app)


async def test_t_in_the_tables_help_opens_the_statistics():
    session = fake_at_turn(RuleSet(), [("Ana", None), ("Bo", "random"), ("Cy", "random")], 1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "question_mark", "t")
        assert isinstance(app.screen, StatsScreen)
        await press(pilot, "escape")
        assert type(app.screen).__name__ == "HelpScreen"


async def test_the_table_screen_records_each_hand_of_the_seats_played_here():
    session = local_session(RuleSet(betting="none"),
                            [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=2)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)  # the first hand's result waits to be seen
        assert stats_store().load("Ana").tally().hands == 1
        await press(pilot, "enter")
        await settle(pilot, session)
        assert stats_store().load("Ana").tally().hands == 2
    assert stats_store().players() == ["Ana"]  # the bots are not recorded


async def test_a_damaged_only_statistics_file_is_said_not_taken_for_no_games():
    """The only statistics file's first line is damaged: the screen says it was set aside (and
    that none could be read), not "No games recorded yet"."""
    record_games()
    store = stats_store()
    for path in store.folder.glob("*.jsonl"):
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("hello\n" + "".join(lines[1:]))
    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "t")
        assert isinstance(app.screen, StatsScreen)
        text = " ".join(screen_text(app).split())
        assert "No statistics could be read here." in text
        assert "was damaged" in text and "set aside" in text
        assert "No games recorded yet" not in text
