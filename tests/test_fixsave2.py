"""A game that can no longer be saved says so at the table, once, as soon as saving fails
(at resume or mid-game), keeps a mark on the status line, and says when it works again."""

from __future__ import annotations

import asyncio

import pytest
from ui_pilot import SIZE, app_for, passive_step, screen_text, settle, table_screen

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession, Update
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.app import farewell_for

SEATS = [SeatConfig("Ana"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
HOT = [SeatConfig("Ana"), SeatConfig("Eve"), SeatConfig("Bo", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def _read_only(m: pytest.MonkeyPatch) -> None:
    """Every journal write fails as on a read-only file system (no real mount)."""
    def refuse(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    for name in ("start", "append", "resume"):
        m.setattr(journal.JournalFile, name, refuse)


def _saved_game(tmp_path, seats=SEATS, steps: int = 12) -> Table:
    table = Table.create(PRESETS["classic"], seats, seed=5, save_path=tmp_path / "autosave.json")
    table.autosave()
    for _ in range(steps):
        passive_step(table)
    table.close()
    return table


def _drain(session: LocalSession) -> list[Update]:
    out = []
    while not session._queue.empty():
        out.append(session._queue.get_nowait())
    return out


def _warnings(updates: list[Update]) -> list[str]:
    return [u.note for u in updates if getattr(u, "warning", False)]


async def test_a_resumed_game_that_cannot_be_written_says_so_at_once(tmp_path, monkeypatch):
    _saved_game(tmp_path)
    with monkeypatch.context() as m:
        _read_only(m)
        table = Table.resume(tmp_path / "autosave.json")
        session = LocalSession(table, delay=0)
        await session.start()
        await asyncio.sleep(0)
        said = _warnings(_drain(session))
        await session.close()
    assert len(said) == 1, said
    assert "not being saved" in said[0] and "Read-only file system" in said[0]
    assert "Errno" not in said[0] and "30" not in said[0].replace(str(tmp_path), "")
    assert session.save_problem  # (the status line's mark reads it)


async def test_a_failure_mid_game_is_told_once_and_its_end_is_told_too(tmp_path, monkeypatch):
    table = Table.create(PRESETS["classic"], SEATS, seed=5, save_path=tmp_path / "autosave.json")
    session = LocalSession(table, delay=0)
    table.autosave()
    await session.start()
    await asyncio.sleep(0)
    for _ in range(3):
        passive_step(table)
    assert _warnings(_drain(session)) == []  # saving works: nothing said
    with monkeypatch.context() as m:
        _read_only(m)
        notes = []
        for _ in range(10):  # many moves while the disk refuses: one warning
            if table.waiting_for_human() is not None:
                await session.act(table.legal(table.waiting_for_human())[0])
            else:
                session._publish(table.apply(table.auto_action()))
            notes += _drain(session)
    assert len(_warnings(notes)) == 1 and "Read-only file system" in _warnings(notes)[0]
    passive_step(table)  # (a step of the table itself: the disk works again)
    session._publish(table.apply(table.auto_action() or table.legal(0)[0]))
    again = [u.note for u in _drain(session) if u.note]
    assert any("being saved again" in n for n in again), again
    assert session.save_problem == ""
    await session.close()
    assert "is saved" in farewell_for(session)  # (true: the last checkpoint was written)
    assert Table.resume(tmp_path / "autosave.json").actions == table.actions


async def test_the_farewell_never_says_saved_when_the_last_save_failed(tmp_path, monkeypatch):
    table = Table.create(PRESETS["classic"], SEATS, seed=5, save_path=tmp_path / "autosave.json")
    session = LocalSession(table, delay=0)
    with monkeypatch.context() as m:
        _read_only(m)
        await session.close()
    said = farewell_for(session)
    assert "could NOT be saved" in said and "Read-only file system" in said
    assert "Errno" not in said


async def test_the_table_screen_warns_and_marks_the_status_line_on_resume(tmp_path, monkeypatch):
    _saved_game(tmp_path)
    with monkeypatch.context() as m:
        _read_only(m)
        session = LocalSession(Table.resume(tmp_path / "autosave.json"), delay=0)
        app = app_for(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, session)
            toasts = [n for n in app._notifications if "not being saved" in n.message]
            assert len(toasts) == 1, [n.message for n in app._notifications]
            assert toasts[0].severity == "warning" and toasts[0].timeout >= 10
            status = screen_text(app).splitlines()[0]
            assert "not saved" in status, status
            # two more moves: still one toast, the mark stays
            for _ in range(2):
                if session.table.waiting_for_human() is not None:
                    await pilot.press("c")
                await settle(pilot, session)
            assert len([n for n in app._notifications if "not being saved" in n.message]) == 1
            assert "not saved" in screen_text(app).splitlines()[0]
            assert table_screen(app).session is session
            await pilot.press("q")
            await pilot.pause()
    assert "could NOT be saved" in app.farewell


async def test_the_mark_goes_when_saving_works(tmp_path):
    table = Table.create(PRESETS["classic"], SEATS, seed=5, save_path=tmp_path / "autosave.json")
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        assert "not saved" not in screen_text(app).splitlines()[0]
        assert not [n for n in app._notifications if n.severity == "warning"]
        await pilot.press("q")
        await pilot.pause()


async def test_hot_seat_the_notice_shows_no_cards(tmp_path, monkeypatch):
    _saved_game(tmp_path, HOT, steps=8)
    with monkeypatch.context() as m:
        _read_only(m)
        table = Table.resume(tmp_path / "autosave.json")
        session = LocalSession(table, delay=0)
        await session.start()
        await asyncio.sleep(0)
        said = _warnings(_drain(session))
        await session.close()
    assert len(said) == 1
    cards = {str(c) for seat in table.state.seats for c in (*seat.actives, *seat.stock, *seat.hand)}
    assert cards  # (a hand is on the table)
    words = said[0].replace(str(tmp_path / "autosave.json"), "")
    assert not any(card in words for card in cards)
    assert "Ana" not in said[0] and "Eve" not in said[0]  # nobody's hand, nobody's name


async def test_quitting_where_only_a_rewrite_fails_says_saved_and_resumes(tmp_path, monkeypatch):
    """Every move was appended to the journal; at quit only a fresh checkpoint (a rewrite: a
    new file renamed over the save) would fail, as in a data folder made read-only while
    the save itself stays writable. The journal is the save: the farewell says so, and
    the game resumes at the last move."""
    table = Table.create(PRESETS["classic"], SEATS, seed=5, save_path=tmp_path / "autosave.json")
    session = LocalSession(table, delay=0)
    table.autosave()
    for _ in range(6):
        passive_step(table)
    assert table.save_error == ""
    with monkeypatch.context() as m:
        def refuse(*args, **kwargs):
            raise PermissionError(13, "Permission denied")

        m.setattr(journal.JournalFile, "start", refuse)  # (appends still work)
        await session.close()
    said = farewell_for(session)
    assert "is saved" in said and "NOT" not in said, said
    assert Table.resume(tmp_path / "autosave.json").actions == table.actions
