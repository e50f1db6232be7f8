"""The table screen against a FakeSession: it shows what the session serves, sends keys up as
actions, and follows the updates pushed to it (nothing plays behind the screen)."""

from __future__ import annotations

import pytest

from fake_session import FakeSession
from pokeroulette_tui.engine.actions import Call, Check
from pokeroulette_tui.engine.events import redact_all
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import Update
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.widgets.log import EventLog
from ui_pilot import SIZE, app_for, passive_step, press, screen_text, step, table_screen

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def to_human_turn(table: Table) -> list:
    """Play passively until a human is to act; the events that happened on the way."""
    def flat() -> list:
        return [e for hand in table.history for e in hand]

    seen = len(flat())
    for _ in range(5000):
        if table.waiting_for_human() is not None:
            return flat()[seen:]
        passive_step(table)
    raise AssertionError("no human was ever to act")


def log_text(app) -> str:
    log = table_screen(app).query_one(EventLog)
    return "\n".join("".join(seg.text for seg in strip) for strip in log.lines)


def table_at_turn(seed: int = 1) -> Table:
    table = Table.create(PRESETS["classic"], [SeatConfig(n, b) for n, b in SEATS], seed=seed)
    to_human_turn(table)
    return table


async def test_the_screen_shows_the_served_views_and_starts_the_session():
    table = table_at_turn()
    session = FakeSession.of_table(table)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert session.started
        assert screen.view == session.views[0] and screen.view.my_turn
        assert {None, 0} <= set(session.views_asked)
        text = screen_text(app)
        assert all(name in text for name, _ in SEATS)
    assert session.closed and session.acts == []


async def test_the_table_screen_follows_a_pushed_update():
    table = table_at_turn()
    session = FakeSession.of_table(table)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        before = screen.view
        # the table moves on elsewhere: Ana checks, the match card is turned, bots check
        passive_step(table)
        events = to_human_turn(table)
        assert events and not any(e.kind == "hand_over" for e in events)
        session.push(Update(events=tuple(redact_all(events, 0)), note="Bo is back"),
                     views=FakeSession.views_of(table))
        await step(pilot)
        await step(pilot)
        assert screen.view == table.view(0) and screen.view != before
        assert events[-1].text in log_text(app)
        assert "Bo is back" in [n.message for n in app._notifications]
        # the session ends: the screen says so and stops reading
        session.push(Update(closed=True))
        await step(pilot)
        assert "The table has closed." in [n.message for n in app._notifications]


async def test_keys_become_actions_sent_to_the_session():
    session = FakeSession.of_table(table_at_turn())
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "c")
        assert len(session.acts) == 1
        action = session.acts[0]
        assert isinstance(action, (Check, Call)) and action.seat == 0
        session.refuse = "the table moved on"
        await press(pilot, "c")
        assert len(session.acts) == 1
        assert any("the table moved on" in n.message for n in app._notifications)


async def test_the_result_comes_with_the_update_even_when_the_table_dealt_again():
    """A network table with no result pause: by the time the screen reads the hand's end,
    the view is already the next hand's. The engine's result travels with the update."""
    from pokeroulette_tui.engine.rules import RuleSet
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
    from ui_pilot import passive_step as step_table

    rules = RuleSet(betting="final_only", suit_order="SHDC")
    table = Table.create(rules, [SeatConfig(n, b) for n, b in SEATS], seed=3)
    to_human_turn(table)
    session = FakeSession.of_table(table, holds_results=False)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        seen = sum(len(h) for h in table.history)
        while table.state.phase != "hand_over":
            step_table(table)
        decided = table.state.result
        assert decided is not None and decided.hands
        events = [e for hand in table.history for e in hand][seen:]
        step_table(table)  # the next hand is dealt before the screen reads the update
        assert table.state.result is None or table.state.hand_no > decided.hand_no
        session.push(Update(events=tuple(redact_all(events, 0)), result=decided),
                     views=FakeSession.views_of(table))
        await step(pilot)
        await step(pilot)
        assert isinstance(app.screen, ShowdownScreen)
        shown = app.screen.result.shown
        assert [h.seat for h in shown] == [h.seat for h in decided.hands]
        assert [h.hand_name for h in shown] == [h.name for h in decided.hands]
        assert all(h.hand_name for h in shown)  # named by the engine, not left blank
        assert app.screen.result.winners == set(decided.winners)


@pytest.mark.parametrize("pause", [0.0, 5.0])
async def test_a_result_closed_at_once_by_the_next_deal_leaves_a_note(pause, monkeypatch):
    """A network table with no result pause deals the next hand a moment after the result:
    its dialog closes at once, so a note says who won and that s shows it again. A result
    that stayed up for a while (the host's pause) leaves no note."""
    import pokeroulette_tui.ui.screens.table as table_screen_mod
    from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
    from ui_pilot import passive_step as step_table

    table = Table.create(PRESETS["classic"].replace(suit_order="SHDC"),
                         [SeatConfig(n, b) for n, b in SEATS], seed=3)
    to_human_turn(table)
    session = FakeSession.of_table(table, holds_results=False)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        seen = sum(len(h) for h in table.history)
        while table.state.phase != "hand_over":
            step_table(table)
        decided = table.state.result
        ended = [e for hand in table.history for e in hand][seen:]
        session.push(Update(events=tuple(redact_all(ended, 0)), result=decided),
                     views=FakeSession.views_of(table))
        await step(pilot)
        assert isinstance(app.screen, ShowdownScreen)
        summary = app.screen.result.summary()
        assert summary and "wins" in summary
        # (the dialog has been up for ``pause`` seconds when the next deal comes)
        monkeypatch.setattr(table_screen_mod, "monotonic", lambda: table_screen(app)._result_at + pause)
        step_table(table)  # the next deal
        session.push(Update(events=tuple(redact_all(table.history[-1], 0))),
                     views=FakeSession.views_of(table))
        await step(pilot)
        await step(pilot)
        assert not isinstance(app.screen, ShowdownScreen)
        notes = [n.message for n in app._notifications]
        noted = [n for n in notes if f"Hand {decided.hand_no}: {summary}" in n]
        if pause < table_screen_mod.RESULT_GLANCE:
            assert noted and "s shows the result again" in noted[0], notes
        else:
            assert not noted, notes


async def test_a_table_the_host_closed_is_said_once():
    """The host's goodbye closes the session: one toast says the table closed (the
    goodbye's words are not toasted again beside it)."""
    table = table_at_turn()
    session = FakeSession.of_table(table)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        session.push(Update(note="the host closed the table", closed=True))
        await step(pilot)
        await step(pilot)
        notes = [n.message for n in app._notifications]
        assert notes.count("The table has closed.") == 1
        assert not any("the host closed the table" in n for n in notes), notes
