"""One OS lock helper (engine/folders.py) for the autosave, the statistics and the casino
file: another process holding the lock is waited for (statistics, casino) or named (the
autosave), and a lock dies with its process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pokeroulette_tui.engine.folders import LockHeld, locked, take_lock

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="flock: Unix only")

_HOLD = """
import sys, time
from pokeroulette_tui.engine.folders import locked
with locked(sys.argv[1]):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _holder(path: Path, seconds: float = 30.0) -> subprocess.Popen[str]:
    """Another process that holds the lock on ``path`` (until killed or ``seconds`` pass)."""
    child = subprocess.Popen([sys.executable, "-c", _HOLD, str(path), str(seconds)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    return child


def test_a_lock_another_process_holds_is_refused_and_freed_when_it_dies(tmp_path):
    path = tmp_path / "x.lock"
    child = _holder(path)
    try:
        with pytest.raises(LockHeld):
            take_lock(path, wait=False)
    finally:
        child.kill()
        child.wait()
    fd = take_lock(path, wait=False)  # (kill -9 let go of it)
    assert fd >= 0
    os.close(fd)
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_no_lock_to_be_had_goes_on_without_one(tmp_path):
    assert take_lock(tmp_path / "missing" / "x.lock") == -1
    ran = []
    with locked(tmp_path / "missing" / "x.lock"):
        ran.append(1)
    assert ran == [1]


def _waits_for(path: Path, write) -> None:
    """``write()`` in a thread does not finish while another process holds ``path``'s lock,
    and finishes once it lets go."""
    child = _holder(path)
    done = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            write()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        done.set()

    try:
        threading.Thread(target=run, daemon=True).start()
        assert not done.wait(0.5), "wrote while another process held the lock"
    finally:
        child.kill()
        child.wait()
    assert done.wait(10) and not errors


def test_statistics_wait_for_another_process_writing(tmp_path):
    from pokeroulette_tui.engine.rules import PRESETS
    from pokeroulette_tui.engine.stats_store import LOCK_FILE, StatsStore
    from pokeroulette_tui.ui.stats_recorder import StatsRecorder
    from stats_helpers import TableSession, new_table, play

    played = StatsStore(tmp_path / "played")
    table = new_table(PRESETS["classic"], humans=[0], seed=6)
    play(table, TableSession(table, [0]), StatsRecorder(played), hands=2)
    _, records = played.records("Ana")
    assert records

    store = StatsStore(tmp_path / "stats")
    store.folder.mkdir(mode=0o700)
    _waits_for(store.folder / LOCK_FILE, lambda: store.append("Ana", records))
    assert store.records("Ana")[1] == records


def test_the_casino_file_waits_for_another_process_writing(tmp_path):
    from pokeroulette_tui.engine.casino.paytable import START_BANKROLL
    from pokeroulette_tui.engine.casino.store import CasinoStore

    path = tmp_path / "casino" / "casino.json"
    path.parent.mkdir(mode=0o700)
    store = CasinoStore.open(path)
    store.bankrolls["Ana"] = 5
    _waits_for(path.with_name("casino.json.lock"), lambda: store.reset_bankroll("Ana"))
    assert CasinoStore.open(path).bankroll("Ana") == START_BANKROLL
    assert path.exists()
