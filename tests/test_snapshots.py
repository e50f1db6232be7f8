"""SVG snapshots of the main screens (pytest-textual-snapshot), at 80×24, 160×48 and 200×60,
and the notice of a terminal too small for the table.

Every table is played to its moment with fixed seeds and no pauses, the login name is
fixed and the settings live in a temporary folder, so each picture is the same on every
run. After a deliberate change of the screens, look at the new pictures and accept them:
``python -m pytest tests/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import Table
from pokeroulette_tui.ui.app import PokerApp, make_app
from pokeroulette_tui.ui.config import AppConfig
from fake_session import FakeSession
from ui_pilot import fake_at_turn, press, settle, step, table_until

SIZES = {"80x24": (80, 24), "160x48": (160, 48), "200x60": (200, 60)}
SMALL_SIZES = {k: SIZES[k] for k in ("80x24", "160x48")}  # the screens before the table
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ida", "Jo"]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ada")
    monkeypatch.delenv("NO_COLOR", raising=False)


def seats_for(size: str) -> list[tuple[str, str | None]]:
    """Ada and bots: 4 seats in a small terminal, 10 in a big one."""
    players = 4 if size == "80x24" else 10
    return [(NAMES[i], None if i == 0 else "random") for i in range(players)]


def my_turn(phase: str, round_no: int = 0):
    return lambda s: s.to_act == 0 and s.phase == phase and s.round_no >= round_no


def app_at(table: Table) -> tuple[PokerApp, LocalSession]:
    session = LocalSession(table, delay=0)
    return make_app(AppConfig(delay=0), session), session


def settled_with(session: LocalSession, *keys: str):
    """``run_before``: let the bots and the dealer play until Ada is to act, press ``keys``,
    let the table settle again, and clear the notes (they fade on a timer)."""
    async def run_before(pilot) -> None:
        await settle(pilot, session)
        for key in keys:
            await press(pilot, key)
            await settle(pilot, session)
        pilot.app.clear_notifications()
        await step(pilot)
    return run_before


def mid_hand(size: str) -> Table:
    if size == "80x24":
        return table_until(PRESETS["classic"], seats_for(size), 5, my_turn("betting", 4))
    return table_until(PRESETS["classic"], seats_for(size), 3, my_turn("betting", 3))


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_start_screen(snap_compare, size):
    assert snap_compare(make_app(AppConfig(delay=0)), terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SMALL_SIZES)
def test_setup_screen(snap_compare, size):
    assert snap_compare(make_app(AppConfig(delay=0)), press=["s"], terminal_size=SIZES[size])


@pytest.mark.parametrize("size", SIZES)
def test_table_mid_hand(snap_compare, size):
    app, session = app_at(mid_hand(size))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=settled_with(session))


@pytest.mark.parametrize("size", SIZES)
def test_showdown(snap_compare, size):
    def final_call(s) -> bool:
        """Ada can end the last betting of the hand with a check or call: the betting after
        the last matching round (the deck cannot supply another), which is the final one."""
        if not (s.to_act == 0 and s.phase == "betting" and s.seats[0].bet == s.current_bet):
            return False
        need = sum(2 if s.seats[i].added else 1 for i in s.live_seats()) + 1
        return s.betting_round == "final" or (s.betting_round == "round" and len(s.deck) < need)

    app, session = app_at(table_until(PRESETS["classic"], seats_for(size), 5, final_call))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=settled_with(session, "c"))


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, size):
    app, session = app_at(mid_hand(size))
    assert snap_compare(app, terminal_size=SIZES[size],
                        run_before=settled_with(session, "question_mark"))


def test_draw_exchange(snap_compare):
    rules = PRESETS["draw"].replace(betting="each_round")
    app, session = app_at(table_until(rules, seats_for("80x24"), 2, my_turn("draw")))
    assert snap_compare(app, run_before=settled_with(session, "2", "5"))


def test_leave_confirm(snap_compare):
    app, session = app_at(mid_hand("80x24"))
    assert snap_compare(app, run_before=settled_with(session, "l"))


def test_table_four_seats_wide(snap_compare):
    """Four seats at 160×48: two columns, boxed cards at every seat, big cards in the hand."""
    app, session = app_at(mid_hand("80x24"))
    assert snap_compare(app, terminal_size=(160, 48), run_before=settled_with(session))


def test_terminal_too_small(snap_compare):
    app, session = app_at(mid_hand("80x24"))
    assert snap_compare(app, terminal_size=(40, 12), run_before=settled_with(session))


class ChatTable(FakeSession):
    """A network table as the client sees it: chat on, the messages kept."""

    chat_lines: list[dict] = []


def chat_table() -> ChatTable:
    plain = fake_at_turn(PRESETS["classic"], seats_for("80x24"), 5)
    session = ChatTable(plain.views, local_seats=plain.local_seats, history=plain.history(),
                        chat=True, holds_results=False)
    session.chat_lines = [
        {"name": "Bo", "text": "good luck all", "spectator": False},
        {"name": "Eve", "text": "watching from the train, this is a long line to wrap",
         "spectator": True},
        {"name": "Cy", "text": "[b]no markup[/b] here", "spectator": False},
        {"name": "Ada", "text": "thanks!", "spectator": False},
    ]
    return session


async def _chat_settled(pilot) -> None:
    await step(pilot)
    pilot.app.clear_notifications()
    await step(pilot)


@pytest.mark.parametrize("size", ["160x48", "200x60"])
def test_chat_panel(snap_compare, size):
    session = chat_table()
    assert snap_compare(make_app(AppConfig(delay=0), session), terminal_size=SIZES[size],
                        run_before=_chat_settled)


def test_chat_screen(snap_compare):
    session = chat_table()

    async def run_before(pilot) -> None:
        await _chat_settled(pilot)
        await press(pilot, "m")
        await step(pilot)

    assert snap_compare(make_app(AppConfig(delay=0), session), run_before=run_before)
