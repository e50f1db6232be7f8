"""The running table: autosave after every action, exact resume, failures that lose nothing."""

from __future__ import annotations

import os
import stat

from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.table import SeatConfig, Table


def _table(tmp_path, seed=5):
    seats = [SeatConfig("Ana"), SeatConfig("Bo", "simple"), SeatConfig("Cy", "simple"),
             SeatConfig("Di", "random")]
    return Table.create(PRESETS["classic"], seats, seed=seed, save_path=tmp_path / "t.json")


def _run_bots(table, steps):
    for _ in range(steps):
        action = table.auto_action()
        if action is None:
            seat = table.waiting_for_human()
            if seat is None:
                break
            action = table.legal(seat)[0]
        table.apply(action)


def test_autosave_after_every_action_owner_only(tmp_path):
    t = _table(tmp_path)
    _run_bots(t, 5)
    path = tmp_path / "t.json"
    assert path.exists()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    resumed = Table.resume(path)
    assert resumed.state.to_dict() == t.state.to_dict()
    assert len(resumed.actions) == len(t.actions) == 5


def test_resume_continues_exactly_bots_included(tmp_path):
    a = _table(tmp_path)
    _run_bots(a, 30)
    b = Table.resume(tmp_path / "t.json")
    b.save_path = None
    a.save_path = None
    _run_bots(a, 60)
    _run_bots(b, 60)
    assert a.state.to_dict() == b.state.to_dict()


def test_autosave_failure_is_reported_and_play_goes_on(tmp_path):
    t = _table(tmp_path)
    t.save_path = tmp_path / "missing" / "deeper"
    (tmp_path / "missing").write_text("a file where a folder should be")
    _run_bots(t, 3)
    assert "autosave" in t.save_error and "failed" in t.save_error
    assert len(t.actions) == 3
    t.save_path = tmp_path / "ok.json"
    _run_bots(t, 1)
    assert t.save_error == ""


def test_the_data_and_config_folders_are_owner_only(tmp_path, monkeypatch):
    from pokeroulette_tui.ui.config import autosave_path, config_dir, data_dir

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    (tmp_path / "data").mkdir(mode=0o755)  # made open by an older version: tightened
    (tmp_path / "data").chmod(0o755)
    assert stat.S_IMODE(os.stat(data_dir()).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(config_dir()).st_mode) == 0o700
    t = Table.create(PRESETS["classic"], [SeatConfig("Ana"), SeatConfig("Bo", "random"),
                                          SeatConfig("Cy", "random")], save_path=autosave_path())
    t.autosave()
    _run_bots(t, 3)
    assert stat.S_IMODE(os.stat(autosave_path()).st_mode) == 0o600
