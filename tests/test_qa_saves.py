"""QA findings on saves, settings and statistics: a damaged journal line that is JSON but no
move, two pokeroulettes on one autosave, files that cannot be read, and reasons in words."""

from __future__ import annotations

import builtins
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_ui_setup import StubApp, home, text_of  # noqa: F401 (the setup tests' app, home)

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.save import checked_state
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.config import (
    AppConfig,
    TableSetup,
    autosave_path,
    settings_path,
)
from pokeroulette_tui.ui.tables import new_session, read_autosave

SIZE = (80, 24)


def _played(path: Path, hands: int = 3, after: int = 4) -> Table:
    """A bots' table saved at ``path``: a few hands, a fresh checkpoint in the middle of a
    hand (as a session's close writes), then ``after`` more actions appended."""
    seats = [SeatConfig("Ana", "random"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
    table = Table.create(PRESETS["classic"], seats, seed=5, save_path=path)
    table.autosave()
    while table.state.hand_no < hands:
        table.apply(table.auto_action())
    for __ in range(3):  # into the hand: the checkpoint's state is one a replay plays on
        table.apply(table.auto_action())
    table.autosave()
    for __ in range(after):
        table.apply(table.auto_action())
    table.close()
    return table


# -- HIGH 1: a damaged line that is JSON but not a move -----------------------------------------

BAD_LINES = {
    "a fold by a seat not to act": '{"a":{"seat":1,"type":"fold"}}',
    "an unknown action": '{"a":{"seat":0,"type":"teleport"}}',
    "a record with no action": '{"x":1}',
}


@pytest.mark.parametrize("bad", BAD_LINES.values(), ids=list(BAD_LINES))
def test_a_json_line_that_is_no_move_is_salvaged_by_the_loader(home, bad):
    """The loader both the local game and ``host --resume`` use (engine.journal.load): the
    game goes on from before the damage, as it does when the bad line is not JSON."""
    path = home / "game.json"
    table = _played(path)
    path.write_text(path.read_text(encoding="utf-8") + bad + "\n", encoding="utf-8")
    loaded = journal.load(path, salvage=True)
    assert loaded.damaged and "damaged at line" in loaded.damaged
    assert loaded.actions == table.actions
    assert loaded.state.to_dict() == table.state.to_dict()


def test_a_damaged_line_in_the_middle_resumes_the_local_and_the_net_table(home):
    from pokeroulette_tui.net.nettable import NetTable

    path = home / "game.json"
    table = _played(path, after=8)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[-4] = '{"a":{"seat":1,"type":"fold"}}'  # (the QA's line, in place of a good one)
    damaged = "\n".join(lines)
    for cls in (Table, NetTable):
        path.write_text(damaged, encoding="utf-8")
        resumed = cls.resume(path, salvage=True)
        assert resumed.salvaged and resumed.damaged_copy is not None
        n = len(resumed.actions)
        assert 0 < n < len(table.actions) and resumed.actions == table.actions[:n]
        resumed.close()


def test_checked_state_shares_nothing_with_its_data():
    seats = [SeatConfig("Ana", "random"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
    table = Table.create(PRESETS["classic"], seats, seed=5)
    while table.state.hand_no < 2:
        table.apply(table.auto_action())
    for __ in range(3):
        table.apply(table.auto_action())
    data = table.state.to_dict()
    before = json.dumps(data, sort_keys=True)
    state = checked_state(data, "x")
    from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions

    for __ in range(20):
        if state.game_over:
            break
        apply(state, legal_actions(state, None if dealer_to_act(state) else state.to_act)[0])
    assert json.dumps(data, sort_keys=True) == before


# -- HIGH 2: two pokeroulettes, one autosave ----------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from pokeroulette_tui.engine.save import SaveHeld, hold
    try:
        hold(sys.argv[1])
    except SaveHeld as held:
        print("held", held.pid, flush=True)
        sys.exit(0)
    print("ready", flush=True)
    time.sleep(float(sys.argv[2]))
""")


def _other_process(path: Path, seconds: float = 60) -> tuple[subprocess.Popen, str]:
    """Another pokeroulette (a real process) taking the autosave at ``path``: what it said."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def _saved_game() -> bytes:
    seats = [SeatConfig("You"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
    table = Table.create(PRESETS["classic"], seats, seed=11, save_path=autosave_path())
    table.autosave()
    for __ in range(6):
        action = table.auto_action()
        if action is None:
            break
        table.apply(action)
    table.close()
    return autosave_path().read_bytes()


def test_a_game_another_process_holds_is_not_resumed_nor_written_over():
    saved = _saved_game()
    other, said = _other_process(autosave_path())
    try:
        assert said == "ready"
        found = read_autosave()
        assert found.table is None and found.held_by == other.pid
        assert f"pid {other.pid}" in found.problem
        session = new_session(TableSetup.default(), AppConfig(delay=0))
        table = session.table
        assert table.save_path is None and f"pid {other.pid}" in table.save_error
        while table.state.hand_no < 2:
            action = table.auto_action()
            if action is None:
                table.apply(table.legal(table.waiting_for_human())[-1])
            else:
                table.apply(action)
        assert autosave_path().read_bytes() == saved
        assert not list(autosave_path().parent.glob("autosave.json.corrupt-*"))
    finally:
        other.kill()
        other.wait()
    # the other one killed (kill -9): its lock went with it, the game resumes here
    found = read_autosave()
    assert found.table is not None and not found.problem


def test_a_lock_of_a_killed_process_does_not_block(home):
    _saved_game()
    other, said = _other_process(autosave_path())
    assert said == "ready"
    os.kill(other.pid, signal.SIGKILL)
    other.wait()
    assert read_autosave().table is not None


async def test_a_closed_session_lets_another_process_take_the_game():
    _saved_game()
    found = read_autosave()
    assert found.table is not None
    other, said = _other_process(autosave_path(), 0)
    other.wait()
    assert said.startswith("held")  # (this process offers the game: it holds it)
    session = LocalSession(found.table, delay=0)
    await session.close()
    other, said = _other_process(autosave_path(), 0)
    other.wait()
    assert said == "ready"




async def test_the_start_screen_says_the_game_is_open_elsewhere_and_deals_unsaved():
    saved = _saved_game()
    other, said = _other_process(autosave_path())
    try:
        assert said == "ready"
        app = StubApp(AppConfig(delay=0))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            notice = " ".join(text_of(app, "#start-notice").split())
            assert f"open in another pokeroulette (pid {other.pid})" in notice
            assert "not saved" in notice and "could not be read" not in notice
            assert app.screen.query_one("#new-box").display
            await pilot.press("enter")
            await pilot.pause()
        assert app.opened and app.opened[0].table.save_path is None
        assert autosave_path().read_bytes() == saved
    finally:
        other.kill()
        other.wait()


# -- MEDIUM 1: a settings file that cannot be read ----------------------------------------------

def _refuse_reading(monkeypatch, target: Path) -> None:
    """Reading ``target`` fails as for a file chmod 000 (the tests may run as root)."""
    real_open = builtins.open

    def refusing(file, *args, **kw):
        if isinstance(file, (str, Path)) and Path(file) == target:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kw)

    monkeypatch.setattr(builtins, "open", refusing)
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: (
        refusing(self).read() if self == target else Path.read_bytes(self).decode()))


def test_settings_that_cannot_be_read_are_not_written_over(monkeypatch):
    AppConfig(theme="light", delay=0.25).save()
    path = settings_path()
    before = path.read_bytes()
    with monkeypatch.context() as m:
        _refuse_reading(m, path)
        config = AppConfig.load()
        assert config.theme == AppConfig.theme  # the defaults, for now
        config.theme = "dark"
        config.save()
        said = config.keep_damaged_aside()
        config.save()
    assert path.read_bytes() == before  # not written over, not moved
    assert not list(path.parent.glob("settings.json.corrupt-*"))
    assert "could not be read (permission denied)" in said and "left as it is" in said
    assert "Errno" not in said



def test_a_folder_in_place_of_a_file_is_said_alike_for_settings_stats_and_autosave():
    """One wording (engine.folders.os_problem) for why a file cannot be read, wherever."""
    from pokeroulette_tui.engine.folders import private_dir
    from pokeroulette_tui.engine.stats_store import StatsStore
    from pokeroulette_tui.paths import data_home

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.mkdir()
    said = AppConfig.load().keep_damaged_aside()
    assert "could not be read (it is a folder, not a file)" in said
    store = StatsStore(data_home() / "stats")
    private_dir(store.folder)
    store.path("Ana").mkdir()
    assert store.records("Ana")[1] == []
    assert store.problems == [
        "The statistics of Ana cannot be read (it is a folder, not a file)."]

# -- MEDIUM 2: a statistics file or folder that cannot be read ----------------------------------

def _stats_with(player: str):
    from pokeroulette_tui.engine.stats_store import StatsStore
    from pokeroulette_tui.paths import data_home

    store = StatsStore(data_home() / "stats")
    from pokeroulette_tui.engine.folders import private_dir

    private_dir(store.folder)
    (store.path(player)).write_text(json.dumps(
        {"format": "pokeroulette-stats", "version": 1, "player": player}) + "\n")
    return store


def test_an_unreadable_stats_file_is_a_problem_not_no_games(monkeypatch):
    store = _stats_with("Ana")
    path = store.path("Ana")
    _refuse_reading(monkeypatch, path)
    assert store.players() == []
    assert len(store.problems) == 1
    problem = store.problems[0]
    assert str(path) in problem and "cannot be read (permission denied)" in problem
    assert path.exists()  # left as it is: it may be whole, only locked away


def test_an_unreadable_stats_folder_is_a_problem(monkeypatch, capsys):
    import argparse

    from pokeroulette_tui.ui.stats_cli import run_stats

    store = _stats_with("Ana")
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p=".": (_ for _ in ()).throw(
        PermissionError(13, "Permission denied", str(p))) if Path(p) == store.folder else real(p))
    args = argparse.Namespace(player=None, reset=False, yes=False, export=None, export_text=None,
                              json=True)
    import io

    out = io.StringIO()
    run_stats(args, store=store, out=out)
    problems = json.loads(out.getvalue())["problems"]
    assert len(problems) == 1 and "statistics folder" in problems[0]
    assert "permission denied" in problems[0]
    out = io.StringIO()  # in words: not "no games recorded", and the problem on stderr
    run_stats(argparse.Namespace(**{**vars(args), "json": False}), store=store, out=out)
    assert "No statistics could be read here." in out.getvalue()
    assert "No games recorded" not in out.getvalue()
    assert "permission denied" in capsys.readouterr().err


# -- LOW: an autosave that cannot be read; reasons in words -------------------------------------

def test_an_unreadable_autosave_is_left_in_place_and_not_written_over(monkeypatch):
    saved = _saved_game()
    with monkeypatch.context() as m:
        _refuse_reading(m, autosave_path())
        found = read_autosave()
        assert found.table is None and found.left and found.problem == "permission denied"
        session = new_session(TableSetup.default(), AppConfig(delay=0))
        assert session.table.save_path is None and "not written over" in session.table.save_error
    assert autosave_path().read_bytes() == saved
    assert not list(autosave_path().parent.glob("autosave.json.corrupt-*"))


def test_an_autosave_that_is_a_folder_is_said_in_words():
    autosave_path().mkdir(parents=True)
    found = read_autosave()
    assert found.left and found.problem == "it is a folder, not a file"
    assert autosave_path().is_dir()


@pytest.mark.parametrize("content, words", [
    (b"\xeb\x00\x01binary", "not a saved game (binary data)"),
    (b'{"format":"pokeroulette-journal","version":1}\n', "the field 'state' is missing"),
])
def test_reasons_have_no_python_internals(content, words):
    autosave_path().parent.mkdir(parents=True, exist_ok=True)
    autosave_path().write_bytes(content)
    found = read_autosave()
    assert words in found.problem, found.problem
    for internal in ("codec", "KeyError", "Errno", "position 0"):
        assert internal not in found.problem


def test_host_resume_of_an_unreadable_file_says_why_in_words(tmp_path, monkeypatch):
    from pokeroulette_tui.engine.save import SaveError
    from pokeroulette_tui.table import Table

    path = tmp_path / "table.json"
    path.write_text("{}")
    real = open

    def refuse(file, *a, **kw):
        if Path(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real(file, *a, **kw)

    monkeypatch.setattr("builtins.open", refuse)
    with pytest.raises(SaveError) as err:
        Table.resume(path)
    assert str(err.value) == f"cannot read {path}: permission denied"
