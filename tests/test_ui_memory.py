"""The table's memory stays flat while hands go by: the footer does not keep old keys."""

from __future__ import annotations

import gc

import pytest
from textual.widgets._footer import FooterKey

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from ui_pilot import SIZE, app_for, local_session, press, press_passive, settle, table_screen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def footer_keys_alive() -> int:
    gc.collect()
    return sum(isinstance(o, FooterKey) for o in gc.get_objects())


async def test_footer_keys_do_not_pile_up_over_many_hands(monkeypatch):
    from textual.widgets import Footer

    rules = PRESETS["swedish"].replace(betting="none")  # no all-ins: a long game
    session = local_session(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], seed=7)
    app = app_for(session)
    refreshes = 0
    rebuild = Footer.recompose

    async def counted(self) -> None:  # a real rebuild of a footer's keys
        nonlocal refreshes
        refreshes += 1
        await rebuild(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        start = footer_keys_alive()
        queries = len(table_screen(app)._query_one_cache)
        for _ in range(400):
            await settle(pilot, session)
            if session.table.state.game_over or session.table.state.hand_no > 6:
                break
            if isinstance(app.screen, ShowdownScreen):
                await press(pilot, "enter")
            else:
                await press_passive(pilot, table_screen(app).view)
        actions = len(session.table.actions)
        assert actions > 150
        # the footer is rebuilt only when the live keys change, not on every update
        assert refreshes < actions / 2
        # and a rebuild leaves no key behind: the count does not grow with the hands
        assert footer_keys_alive() <= start + 30
        # the table's widgets are looked up once, not once per update: Textual's cache of
        # looked-up widgets (up to 1,024 entries, keyed by the state of the screen's
        # children) does not fill with entries never used again
        assert len(table_screen(app)._query_one_cache) <= queries + 10


async def test_the_tidy_footer_still_follows_compact():
    session = local_session(PRESETS["classic"], [("Ana", None), ("Bo", "random"), ("Cy", "random")],
                            seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        footer = table_screen(app).query_one(TidyFooter)
        footer.compact = True
        await pilot.pause()
        keys = list(footer.query(FooterKey))
        assert keys and all(k.compact for k in keys)
