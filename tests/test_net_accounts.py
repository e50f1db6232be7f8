"""Opt-in: real accounts on this machine (``POKEROULETTE_TEST_USERS=1``, as root, Linux).

Creates three throw-away accounts (alice, bob, mallory, with random suffixes), runs each
part of the story in a process that has really become that account (fork, setgid, setuid:
the kernel's credentials are real), and removes the accounts afterwards:

- mallory creates alice's table folder first: alice's ``host --unix`` refuses it, plainly;
- alice hosts (``host --unix --headless --allow bob``); bob joins ``@alice``: his seat is
  "bob" whatever his hello claims, he needs no password or token, and gets it back after a
  drop; mallory is refused with one line;
- a squatter (mallory) listens on a socket that looks like alice's: bob's client refuses
  before sending a byte, and says who is really there.

The processes do not exec (the interpreter may live under a folder other accounts cannot
enter): every module they need is imported before the fork.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from pokeroulette_tui import cli
from pokeroulette_tui.net import launch, serve, unix  # noqa: F401 - imported before the fork
from pokeroulette_tui.net.client import ConnectError, RemoteSession
from pokeroulette_tui.ui import config as _ui_config  # noqa: F401 - imported before the fork

pytestmark = pytest.mark.skipif(
    os.environ.get("POKEROULETTE_TEST_USERS") != "1" or os.geteuid() != 0
    or bool(unix.unsupported()),
    reason="opt-in: POKEROULETTE_TEST_USERS=1, as root, on Linux (creates real accounts)")


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=60)


@pytest.fixture
def accounts():
    suffix = secrets.token_hex(3)
    names = {role: f"prt{role[0]}{suffix}" for role in ("alice", "bob", "mallory")}
    made = []
    try:
        for login in names.values():
            _run("useradd", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin",
                 login)
            made.append(login)
        yield {role: unix.account_named(login) for role, login in names.items()}
    finally:
        for login in made:
            subprocess.run(["userdel", login], capture_output=True, timeout=60)


@pytest.fixture
def shared(monkeypatch):
    """A sticky, world-writable folder standing in for /tmp, removed afterwards."""
    base = Path(f"/tmp/prt-{secrets.token_hex(4)}")
    base.mkdir(mode=0o700)
    base.chmod(0o1777)
    monkeypatch.setenv(unix.BASE_ENV, str(base))
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def as_account(acct, base: Path, fn, *args) -> tuple[int, int]:
    """Run ``fn(*args)`` in a child process that is ``acct``; returns (pid, read end) — the
    child writes ``fn``'s JSON result (or the error) there."""
    home = base / f"home-{acct.login}"
    if not home.exists():
        home.mkdir(mode=0o700)
        os.chown(home, acct.uid, acct.gid)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        code = 1
        try:
            os.close(r)
            os.setgroups([])
            os.setgid(acct.gid)
            os.setuid(acct.uid)
            os.environ.update({"HOME": str(home), "POKEROULETTE_HOME": str(home / "pr"),
                               "USER": acct.login, "LOGNAME": acct.login})
            result = fn(*args)
            code = 0
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            result = {"exception": f"{type(exc).__name__}: {exc}"}
        try:
            os.write(w, json.dumps(result).encode())
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def result_of(pid: int, r: int, timeout: float = 60) -> object:
    end = time.monotonic() + timeout
    data = b""
    done = 0
    while True:
        if not done:
            done, _ = os.waitpid(pid, os.WNOHANG)
        chunk = b""
        try:
            os.set_blocking(r, False)
            chunk = os.read(r, 1 << 20)
        except BlockingIOError:
            pass
        data += chunk
        if done and not chunk:
            break
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError("the account's process did not finish")
        time.sleep(0.02)
    os.close(r)
    return json.loads(data) if data else None


# -- what each account does --------------------------------------------------------------

def cli_run(*argv: str) -> dict:
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        code = cli.main(list(argv))
    return {"code": code, "stderr": err.getvalue(), "stdout": out.getvalue()}


def make_folder(path: str) -> dict:
    os.mkdir(path, 0o755)
    return {"made": path}


def join_table(owner: str, claim: str, times: int = 2) -> dict:
    async def main() -> dict:
        out: dict = {"welcomes": []}
        for _ in range(times):
            s = RemoteSession("", 0, claim, unix=unix.target_for(owner), reconnect=False)
            try:
                w = await s.connect()
            except ConnectError as exc:
                out["refused"] = str(exc)
                return out
            out["welcomes"].append({k: w.get(k) for k in ("name", "seat", "account", "token",
                                                          "admin")})
            await s.close()
        return out
    return asyncio.run(main())


def join_path(path: str, owner: str) -> dict:
    async def main() -> dict:
        s = RemoteSession("", 0, "x", unix=unix.Target(Path(path), unix.account_named(owner)),
                          reconnect=False)
        try:
            await s.connect()
        except ConnectError as exc:
            return {"refused": str(exc)}
        return {"refused": None}
    return asyncio.run(main())


def squat(path: str, ready_file: str) -> dict:
    """Listen on ``path`` and report every byte a client sends within 3 seconds."""
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    os.chmod(path, 0o666)
    srv.listen()
    Path(ready_file).write_text("ready")
    srv.settimeout(20)
    conn, _ = srv.accept()
    conn.settimeout(3)
    got = b""
    try:
        while chunk := conn.recv(4096):
            got += chunk
    except (TimeoutError, OSError):
        pass
    return {"received": got.decode("latin-1")}


def _wait_for(path: Path, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.05)


def test_seats_are_bound_to_real_accounts(accounts, shared):
    alice, bob, mallory = accounts["alice"], accounts["bob"], accounts["mallory"]
    alice_dir = unix.table_dir(alice.uid)

    # 1. mallory makes alice's folder first: alice's host refuses it in one line
    assert result_of(*as_account(mallory, shared, make_folder, str(alice_dir))) == \
        {"made": str(alice_dir)}
    res = result_of(*as_account(alice, shared, cli_run, "host", "--unix", "--headless"))
    assert res.get("code") == 2, res
    assert res["stderr"].count("\n") == 1 and f"belongs to {mallory.login}, not you" in \
        res["stderr"]
    # bob's client sees the squatted folder and will not connect either
    res = result_of(*as_account(bob, shared, join_table, alice.login, "bob"))
    assert f"belongs to {mallory.login}, not {alice.login}" in res["refused"]
    os.rmdir(alice_dir)  # the admin clears it

    # 2. alice hosts for bob
    host_pid, host_r = as_account(alice, shared, cli_run, "host", "--unix", "--headless",
                                  "--allow", bob.login, "--bots", "1", "--delay", "0")
    try:
        sock = unix.table_socket(alice.uid)
        _wait_for(sock)
        st = os.lstat(alice_dir)
        assert st.st_uid == alice.uid and st.st_mode & 0o777 == 0o711
        # bob claims to be alice: the kernel says bob; no token, and the seat comes back
        res = result_of(*as_account(bob, shared, join_table, alice.login, alice.login))
        assert "refused" not in res, res
        first, again = res["welcomes"]
        assert first["name"] == bob.login and first["account"] == bob.login
        assert first["token"] is None and first["admin"] is False
        assert again["seat"] == first["seat"]
        # mallory is not on the list
        res = result_of(*as_account(mallory, shared, join_table, alice.login, alice.login))
        assert f"ask {alice.login} to add you with --allow {mallory.login}" in res["refused"]
        assert not res["welcomes"]
        # alice sits at her own (headless) table as a player: her name is still hers
        res = result_of(*as_account(alice, shared, join_table, "me", "bob", 1))
        assert res["welcomes"][0]["name"] == alice.login
    finally:
        os.kill(host_pid, signal.SIGTERM)
        res = result_of(host_pid, host_r)
    assert res["code"] == 0
    assert not unix.table_socket(alice.uid).exists()  # the host removed its socket

    # 3. a squatter listening where bob expects alice learns nothing
    evil_dir = unix.table_dir(mallory.uid)
    as_mallory = as_account(mallory, shared, make_folder, str(evil_dir))
    result_of(*as_mallory)
    evil = evil_dir / "table.sock"
    ready = shared / "squatter-ready"
    sq_pid, sq_r = as_account(mallory, shared, squat, str(evil), str(ready))
    _wait_for(ready)
    # make the files look like alice's (as if mallory had found a way): only the kernel's
    # word on the listening process is left to tell
    os.chown(evil_dir, alice.uid, -1)
    os.chown(evil, alice.uid, -1)
    os.chmod(evil_dir, 0o755)
    res = result_of(*as_account(bob, shared, join_path, str(evil), alice.login))
    assert f"served by {mallory.login}, not {alice.login}" in res["refused"]
    assert "nothing was sent" in res["refused"]
    assert result_of(sq_pid, sq_r) == {"received": ""}
