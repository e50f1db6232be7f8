"""A lost terminal ends the program even when no SIGHUP arrives (su, sudo, nohup)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time

import pytest

from pokeroulette_tui.ui.terminal import watch_terminal


def test_the_watch_calls_back_when_the_terminal_hangs_up():
    master, slave = pty.openpty()
    lost = threading.Event()
    assert watch_terminal(slave, interval=0.05, on_lost=lost.set) is not None
    time.sleep(0.2)
    assert not lost.is_set()  # a live terminal, no input: nothing happens
    os.write(master, b"x\n")
    time.sleep(0.2)
    assert not lost.is_set()  # input is not a hang-up
    os.close(master)
    assert lost.wait(2)
    os.close(slave)


def test_no_terminal_no_watch(tmp_path):
    with open(tmp_path / "f", "w") as f:
        assert watch_terminal(f.fileno()) is None


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    end = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty behaviour checked on Linux")
def test_the_game_ends_when_its_terminal_is_gone_without_a_hangup_signal(tmp_path):
    master, slave = pty.openpty()
    env = {**os.environ, "POKEROULETTE_HOME": str(tmp_path), "TERM": "xterm-256color",
           "COLUMNS": "80", "LINES": "24"}

    def child_setup() -> None:
        os.setsid()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under su: no hang-up is delivered

    child = subprocess.Popen([sys.executable, "-m", "pokeroulette_tui", "--new"], stdin=slave,
                             stdout=slave, stderr=slave, env=env, preexec_fn=child_setup,
                             close_fds=True)
    os.close(slave)
    try:
        assert b"Quit" in _read_until(master, b"Quit", 20), "the start screen never came up"
        os.close(master)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
            pytest.fail("the program kept running after its terminal was gone")
