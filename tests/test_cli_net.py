"""``pokeroulette host`` / ``join`` mistakes: one clear line on stderr, status 2, never a
traceback (and never a password taken from the command line)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pokeroulette_tui import cli


@pytest.mark.parametrize("argv, why", [
    (["host", "--password", "hunter2"], "--password takes no value"),
    (["host", "--headless", "--password=hunter2"], "--password takes no value"),
    (["host", "--unix", "--password"], "needs no password"),
    (["host", "--allow", "bob"], "add --unix"),
    (["host", "--detach"], "--detach goes with --headless"),
    (["host", "--unix", "--allow", "no-such-user-xyz"], "no account named 'no-such-user-xyz'"),
    (["host", "--result-pause", "99", "--headless"], "--result-pause must be between"),
    (["host", "--headless", "--password-file", "/nonexistent/pw"], "cannot read the password file"),
    (["host", "--unix", "--port", "8000"], "for TCP tables"),
    (["host", "--stop", "--port", "1"], "no table of yours listens on port 1"),
    (["join"], "join what?"),
    (["join", "@no-such-user-xyz"], "no account named"),
    (["join", "127.0.0.1:7777"], "needs --name"),
    (["join", "@me"], "is not hosting a table"),
    (["host", "--unix", "--stop"], "is not hosting a table"),
    (["join", "127.0.0.1", "--name", "Bo", "--password", "x"], "--password takes no value"),
])
def test_mistakes_are_one_line(argv, why, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    monkeypatch.setenv("POKEROULETTE_SOCKETS", str(tmp_path))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokeroulette: ") and err.count("\n") == 1 and why in err


def test_a_refused_password_never_gets_as_far_as_a_traceback(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pokeroulette_tui", "host", "--headless",
                          "--password", "hunter2"], capture_output=True, text=True, timeout=60,
                         env={"POKEROULETTE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and "visible" not in out.stdout
