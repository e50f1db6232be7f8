"""When calling costs the whole stack, c calls all in (and the footer says so)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.actions import AllIn
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.screens.table import calls_all_in
from ui_pilot import SIZE, app_for, press, screen_text, settle, table_screen

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


def facing_a_bet_for_the_whole_stack(state) -> bool:
    me = state.seats[0]
    return (state.to_act == 0 and state.phase == "betting"
            and state.current_bet - me.bet >= me.chips > 0)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


async def test_c_calls_all_in_when_the_call_takes_the_whole_stack():
    from pokeroulette_tui.session import LocalSession

    table = next(t for seed in range(1, 60) for t in [_try(seed)] if t is not None)
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        view = table_screen(app).view
        assert calls_all_in(view)
        assert "Call all in" in screen_text(app)
        n = len(session.table.actions)
        await press(pilot, "c")
        assert isinstance(session.table.actions[n], AllIn)
        assert session.table.actions[n].seat == 0


def _try(seed, stop=facing_a_bet_for_the_whole_stack):
    """Bots play as bots, Ana checks or calls, until ``stop`` (None if the game ends first)."""
    from pokeroulette_tui.engine.actions import Call, Check, MoveStockToActive
    from pokeroulette_tui.table import SeatConfig, Table

    table = Table.create(PRESETS["classic"], [SeatConfig(n, b) for n, b in SEATS], seed=seed)
    for _ in range(2000):
        if table.state.game_over:
            return None
        if stop(table.state):
            return table
        action = table.auto_action()
        if action is None:
            legal = table.legal(0)
            action = next((a for a in legal if isinstance(a, (Check, Call))
                           or (isinstance(a, MoveStockToActive) and a.index is None)), legal[-1])
        table.apply(action)
    return None


async def test_an_ordinary_call_is_still_a_call():
    from pokeroulette_tui.session import LocalSession

    def facing_a_small_bet(state) -> bool:
        me = state.seats[0]
        return (state.to_act == 0 and state.phase == "betting"
                and 0 < state.current_bet - me.bet < me.chips)

    table = next(t for seed in range(1, 60) for t in [_try(seed, facing_a_small_bet)] if t)
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert not calls_all_in(table_screen(app).view)
        assert "Call all in" not in screen_text(app)


async def test_moving_the_only_stock_card_asks_for_a_second_press():
    from pokeroulette_tui.engine.actions import MoveStockToActive
    from pokeroulette_tui.session import LocalSession
    from ui_pilot import table_until

    def only_card_choice(state) -> bool:
        return (state.to_act == 0 and state.phase == "stock_to_active"
                and len(state.seats[0].stock) == 1)

    rules = PRESETS["swedish"].replace(betting="none")
    table = table_until(rules, SEATS, 2, only_card_choice)
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        n = len(session.table.actions)
        await press(pilot, "1")
        assert len(session.table.actions) == n, "the first press only warns"
        assert any("only stock card" in n.message for n in app._notifications)
        await press(pilot, "1")
        assert session.table.actions[n] == MoveStockToActive(seat=0, index=0)
