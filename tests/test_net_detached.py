"""A host who also plays loses its terminal: the table runs in a process of its own, keeps
serving the others, and the host comes back to its seat with ``join @me``. Real processes,
a real pseudo-terminal, a real hang-up."""

from __future__ import annotations

import asyncio
import errno
import os
import pty
import select
import signal
import sys
import time

import pytest

from pokeroulette_tui.net import unix
from pokeroulette_tui.net.client import RemoteSession

from net_helpers import RawClient

pytestmark = pytest.mark.skipif(bool(unix.unsupported()), reason="Linux only (SO_PEERCRED)")


def _drain(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError as exc:
                if exc.errno == errno.EIO:
                    break
                raise
            if not chunk:
                break
            out += chunk
    return out


def _wait_exit(pid: int, timeout: float) -> int | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    return None


class Spectator(RawClient):
    async def open_unix(self, path) -> dict:
        self.reader, self.writer = await unix.open_verified(unix.target_for("me"), limit=8 << 20)
        await self.send({"type": "hello", "version": 2, "name": "watch", "spectate": True})
        return await self.recv()


async def test_a_hang_up_of_the_hosts_screen_leaves_the_table_serving(tmp_path, monkeypatch):
    base = tmp_path / "run"
    base.mkdir()
    base.chmod(0o1777)
    env = {**os.environ, "POKEROULETTE_HOME": str(tmp_path / "home"), unix.BASE_ENV: str(base),
           "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    monkeypatch.setenv(unix.BASE_ENV, str(base))
    argv = [sys.executable, "-m", "pokeroulette_tui", "host", "--unix", "--bots", "2",
            "--delay", "0", "--turn-timeout", "1", "--result-pause", "0.2"]
    pid, master = pty.fork()
    if pid == 0:  # the host's terminal session: this child is its controlling process
        try:
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    server_pid = None
    spectator = Spectator("watch", spectate=True)
    try:
        path = unix.table_socket(os.geteuid())
        loop = asyncio.get_running_loop()
        screen = b""
        end = loop.time() + 30
        while not path.exists():  # the detached server is up …
            screen += await asyncio.to_thread(_drain, master, 0.2)
            assert loop.time() < end, f"no socket; the screen said: {screen[-2000:]!r}"
        welcome = await spectator.open_unix(path)
        assert welcome["type"] == "welcome" and welcome["spectator"]
        server_pid = unix.peer_credentials(spectator.writer.get_extra_info("socket"))[0]
        assert server_pid != pid and os.getsid(server_pid) != os.getsid(pid)
        # … and the host's screen sits at it: press s (start) until the game starts
        lobby = await spectator.recv_until(
            lambda m: m["type"] == "lobby" and any(s["host"] and s["connected"]
                                                   for s in m["seats"]), timeout=30)
        host_seat = next(s["seat"] for s in lobby["seats"] if s["host"])
        for _ in range(60):
            os.write(master, b"s")
            screen += await asyncio.to_thread(_drain, master, 0.2)
            try:
                await spectator.recv_until(lambda m: m["type"] == "lobby" and m["started"],
                                           timeout=0.3)
                break
            except asyncio.TimeoutError:
                continue
        else:
            raise AssertionError(f"the host's screen did not start the game: {screen[-3000:]!r}")
        # the terminal goes away
        os.close(master)
        master = -1
        status = await asyncio.to_thread(_wait_exit, pid, 20)
        assert status is not None, "the host's screen did not end on the hang-up"
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGHUP or \
            os.WIFEXITED(status)
        pid = -1
        # the table plays on: the timer plays for the absent host, bots play, hands go by
        seen = spectator.version
        await spectator.recv_until(lambda m: m["type"] == "state" and m["version"] > seen + 5,
                                   timeout=30)
        os.kill(server_pid, 0)  # still alive
        # the host comes back to its own seat, with its admin right, no token needed
        back = RemoteSession("", 0, "ignored", unix=unix.target_for("me"), reconnect=False)
        w = await back.connect()
        assert w["seat"] == host_seat and w["admin"] is True and w["started"] is True
        assert w["token"] is None
        await back.close()
        stop = await asyncio.to_thread(
            lambda: __import__("subprocess").run(
                [sys.executable, "-m", "pokeroulette_tui", "host", "--unix", "--stop"],
                capture_output=True, text=True, timeout=60, env=env))
        assert stop.returncode == 0 and f"pid {server_pid}" in stop.stdout, stop.stderr
        bye = await spectator.recv_until(lambda m: m["type"] == "bye", timeout=20)
        assert "host closed" in bye["reason"]
    finally:
        await spectator.close()
        if master >= 0:
            os.close(master)
        if pid > 0:
            os.kill(pid, signal.SIGKILL)
            _wait_exit(pid, 5)
        if server_pid:
            os.kill(server_pid, signal.SIGTERM)
            for _ in range(100):
                try:
                    os.kill(server_pid, 0)
                except ProcessLookupError:
                    break
                await asyncio.sleep(0.05)
    log = (tmp_path / "home" / "data" / "host.log")
    assert log.exists() and oct(log.stat().st_mode & 0o777) == oct(0o600)


async def test_a_detached_headless_table_keeps_its_password_off_every_command_line(tmp_path):
    pw = tmp_path / "pw"
    pw.write_text("hunter2-but-longer\n")
    pw.chmod(0o600)
    env = {**os.environ, "POKEROULETTE_HOME": str(tmp_path / "home")}
    env.pop("POKEROULETTE_PASSWORD", None)
    out = await asyncio.to_thread(
        lambda: __import__("subprocess").run(
            [sys.executable, "-m", "pokeroulette_tui", "host", "--headless", "--detach",
             "--bind", "127.0.0.1", "--port", "0", "--password-file", str(pw)],
            capture_output=True, text=True, timeout=60, env=env))
    assert out.returncode == 0, out.stderr
    port = int(out.stdout.split("127.0.0.1:")[1].split()[0])
    server_pid = int(out.stdout.split("in the background (pid ")[1].split(",")[0])
    try:
        cmdline = open(f"/proc/{server_pid}/cmdline", "rb").read()
        assert b"hunter2" not in cmdline and b"pokeroulette_tui.net.serve" in cmdline
        assert os.getsid(server_pid) == server_pid  # a session of its own: no terminal to lose
        wrong = RawClient("Ana")
        assert (await wrong.connect(port, tls=True, password="nope"))["message"] == \
            "wrong password"
        await wrong.close()
        await asyncio.sleep(1.1)  # the back-off after a failed hello
        right = RawClient("Ana")
        assert (await right.connect(port, tls=True,
                                    password="hunter2-but-longer"))["type"] == "welcome"
        await right.close()
        log = (tmp_path / "home" / "data" / "host.log")
        assert oct(log.stat().st_mode & 0o777) == oct(0o600)
        assert oct((tmp_path / "home" / "data").stat().st_mode & 0o777) == oct(0o700)
        assert b"hunter2" not in log.read_bytes()
        # `host --stop` finds the table through the kernel and ends it
        stop = await asyncio.to_thread(
            lambda: __import__("subprocess").run(
                [sys.executable, "-m", "pokeroulette_tui", "host", "--stop", "--port", str(port)],
                capture_output=True, text=True, timeout=60, env=env))
        assert stop.returncode == 0 and f"pid {server_pid}" in stop.stdout, stop.stderr
        for _ in range(200):
            if unix.tcp_listener_pid(port, os.geteuid()) is None:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the table did not stop")
        again = await asyncio.to_thread(
            lambda: __import__("subprocess").run(
                [sys.executable, "-m", "pokeroulette_tui", "host", "--stop", "--port", str(port)],
                capture_output=True, text=True, timeout=60, env=env))
        assert again.returncode == 2 and "no table of yours" in again.stderr
    finally:
        os.kill(server_pid, signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.05)


async def test_a_tcp_host_who_loses_the_terminal_comes_back_with_its_admin_secret(tmp_path):
    env = {**os.environ, "POKEROULETTE_HOME": str(tmp_path / "home"),
           "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
    argv = [sys.executable, "-m", "pokeroulette_tui", "host", "--bind", "127.0.0.1",
            "--port", "0", "--bots", "1", "--name", "Hostess"]
    pid, master = pty.fork()
    if pid == 0:
        try:
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    bo = RawClient("Bo")
    port = None
    try:
        screen = b""
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while b"friends join with" not in screen:
            screen += await asyncio.to_thread(_drain, master, 0.2)
            assert loop.time() < end, f"no banner: {screen[-2000:]!r}"
        port = int(screen.split(b"on 127.0.0.1:")[1].split()[0])
        await bo.connect(port, tls=True)
        await bo.recv_until(lambda m: m["type"] == "lobby" and any(
            s["host"] and s["connected"] for s in m["seats"]), timeout=30)
        os.close(master)
        master = -1
        assert await asyncio.to_thread(_wait_exit, pid, 20) is not None
        pid = -1
        await bo.recv_until(lambda m: m["type"] == "notice" and "Hostess" in m["text"], timeout=20)
        # the table is still there for Bo, and the host takes the host's place back
        from pokeroulette_tui.net import files
        os.environ["POKEROULETTE_HOME"] = env["POKEROULETTE_HOME"]
        try:
            secret = files.load_admin(port)
        finally:
            del os.environ["POKEROULETTE_HOME"]
        assert secret
        back = RemoteSession("127.0.0.1", port, "Hostess", admin=secret, reconnect=False,
                             server_uid=os.geteuid(), tls=True)
        w = await back.connect()
        assert w["admin"] is True and w["name"] == "Hostess"
        lobby = await bo.recv_until(lambda m: m["type"] == "lobby" and any(
            s["host"] and s["connected"] for s in m["seats"]), timeout=20)
        assert [s["name"] for s in lobby["seats"] if s["host"]] == ["Hostess"]
        await back.close()
    finally:
        await bo.close()
        if master >= 0:
            os.close(master)
        if pid > 0:
            os.kill(pid, signal.SIGKILL)
            _wait_exit(pid, 5)
        if port:
            server_pid = unix.tcp_listener_pid(port, os.geteuid())
            if server_pid:
                os.kill(server_pid, signal.SIGTERM)

