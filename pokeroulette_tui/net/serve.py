"""Serving a table until it is time to stop: in the foreground (``host --headless``) or as a
detached process of its own (a host who also plays: the screen is an ordinary client, so a
lost terminal leaves the table running).

The detached server is started as ``python -m pokeroulette_tui.net.serve``: nothing on its
command line; its settings, the password and the host's admin secret arrive as one JSON line
on its standard input (a pipe), and it reports ``ok <address>`` or ``error <reason>`` on a
status pipe. It runs in a new session, ignores SIGHUP, logs to an owner-only file, and stops
on SIGTERM, or by itself once nobody has been connected for a while.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pokeroulette_tui.cli import CliError
from pokeroulette_tui.net.files import PASSWORD_ENV
from pokeroulette_tui.net.host import TableHost
from pokeroulette_tui.net.server import Server

log = logging.getLogger("pokeroulette.net")

IDLE_EXIT = 600.0
"""A detached table closes after this many seconds with nobody connected …"""
IDLE_EXIT_OVER = 60.0
"""… or this many once the game is over."""


@dataclass
class Listen:
    """Where a table listens: a TCP address, or a Unix socket (with its mode and group)."""

    bind: str = "127.0.0.1"
    port: int = 0
    unix: Path | None = None
    mode: int = 0o660
    group: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"bind": self.bind, "port": self.port, "unix": str(self.unix) if self.unix else None,
                "mode": self.mode, "group": self.group}


async def start(server: Server, listen: Listen) -> Listen:
    """Start listening; returns where (the port actually bound)."""
    if listen.unix is not None:
        from pokeroulette_tui.net import unix
        try:
            unix.clear_stale(listen.unix)
        except OSError as exc:
            raise unix.UnixError(f"cannot replace {listen.unix}: {exc.strerror}") from None
        await server.start_unix(listen.unix, mode=listen.mode, group=listen.group)
        return listen
    bind, port = await server.start(listen.bind, listen.port)
    return Listen(bind=bind, port=port)


def _people_connected(host: TableHost) -> bool:
    return any(c.welcomed and not c.closing for c in host.conns.values())


async def serve(host: TableHost, listen: Listen, *, ready: Callable[[Listen], None],
                idle_exit: float | None = None, idle_exit_over: float = IDLE_EXIT_OVER,
                tick: float = 1.0) -> None:
    """Serve until SIGINT/SIGTERM (or, with ``idle_exit``, until nobody has been connected
    for that long). ``ready`` is called once listening (raises what ``start`` raises)."""
    server = Server(host)
    try:
        where = await start(server, listen)
    except OSError as exc:
        what = listen.unix or f"{listen.bind}:{listen.port}"
        raise OSError(f"cannot listen on {what}: {exc.strerror or exc}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
            pass
    ready(where)
    last_seen = loop.time()
    try:
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), tick)
            except asyncio.TimeoutError:
                pass
            if idle_exit is None:
                continue
            now = loop.time()
            if _people_connected(host):
                last_seen = now
                continue
            over = host.table is not None and host.table.state.game_over
            if now - last_seen >= (idle_exit_over if over else idle_exit):
                log.info("nobody has been connected for %.0f s: closing the table",
                         now - last_seen)
                break
    finally:
        log.info("closing the table")
        await server.close()


def _jsonable(args: argparse.Namespace) -> dict[str, Any]:
    out = {}
    for key, value in vars(args).items():
        if key in ("save", "resume") and value:
            value = str(Path(value).expanduser().absolute())
        if key == "unix" and value:
            value = str(Path(value).expanduser().absolute())
        out[key] = value
    return out


def spawn_server(args: argparse.Namespace, *, password: str | None, admin: str | None,
                 log_path: Path, idle_exit: float = IDLE_EXIT,
                 timeout: float = 30.0) -> tuple[subprocess.Popen[bytes], Listen]:
    """Start the table in a detached process of its own (new session, stdio to the owner-only
    log); its orders, password and admin secret go through a pipe, never the command line.
    Returns the process and where it listens (raises CliError with the server's reason)."""
    status_r, status_w = os.pipe()
    log_fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    env = {k: v for k, v in os.environ.items() if k != PASSWORD_ENV}
    if env.get("POKEROULETTE_HOME"):
        env["POKEROULETTE_HOME"] = str(Path(env["POKEROULETTE_HOME"]).absolute())
    try:
        proc = subprocess.Popen([sys.executable, "-m", "pokeroulette_tui.net.serve"],
                                stdin=subprocess.PIPE, stdout=log_fd, stderr=log_fd,
                                pass_fds=(status_w,), start_new_session=True, env=env)
    except OSError as exc:
        os.close(status_r)
        raise CliError(f"cannot start the table server: {exc.strerror}") from None
    finally:
        os.close(status_w)
        os.close(log_fd)
    orders = {"args": _jsonable(args), "password": password, "admin": admin,
              "status_fd": status_w, "idle_exit": idle_exit}
    assert proc.stdin is not None
    try:
        proc.stdin.write(json.dumps(orders).encode() + b"\n")
        proc.stdin.close()
    except OSError:
        pass
    data = b""
    end = time.monotonic() + timeout
    try:
        while b"\n" not in data and time.monotonic() < end:
            ready, _, _ = select.select([status_r], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                break
            chunk = os.read(status_r, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(status_r)
    line = data.decode("utf-8", "replace").strip().splitlines()[:1]
    if line and line[0].startswith("ok "):
        where = json.loads(line[0][3:])
        return proc, Listen(bind=where["bind"], port=where["port"],
                            unix=Path(where["unix"]) if where["unix"] else None)
    if proc.poll() is None:
        proc.terminate()
    reason = line[0][6:] if line and line[0].startswith("error ") else \
        f"the table server did not start; see {log_path}"
    raise CliError(reason)


# -- the detached process ---------------------------------------------------------------------

def child_main() -> int:
    """The detached server: read its orders from stdin, serve, report on the status pipe."""
    try:
        orders = json.loads(sys.stdin.readline())
        status = os.fdopen(int(orders["status_fd"]), "w", encoding="utf-8", buffering=1)
    except (ValueError, KeyError, TypeError, OSError) as exc:
        print(f"pokeroulette table server: bad start orders ({exc})", file=sys.stderr)
        return 2
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(message)s")

    def report(line: str) -> None:
        try:
            status.write(line + "\n")
            status.close()
        except (OSError, ValueError):
            pass

    from pokeroulette_tui.cli import rules_from_args
    from pokeroulette_tui.net import launch
    from pokeroulette_tui.net.unix import UnixError
    try:
        args = argparse.Namespace(**orders["args"])
        rules = rules_from_args(args)
        host = launch.make_host(args, rules, orders.get("admin"), password=orders.get("password"))
        listen = launch.listen_for(args, host)
        log.info("table server pid %s starting", os.getpid())
        asyncio.run(serve(host, listen, idle_exit=float(orders.get("idle_exit", IDLE_EXIT)),
                          ready=lambda where: report("ok " + json.dumps(where.to_json()))))
    except (CliError, UnixError, OSError) as exc:
        report(f"error {exc}")
        log.error("%s", exc)
        return 2
    except Exception as exc:  # a bug: say so on the pipe and in the log, not silently
        log.exception("the table server failed")
        report(f"error the table server failed ({type(exc).__name__}); see the log")
        return 1
    finally:
        report("error the table server stopped")  # no-op once reported
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a separate process
    sys.exit(child_main())
