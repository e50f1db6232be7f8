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

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.save import SaveError
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net import unix
from pokeroulette_tui.net import loop as server_loop
from pokeroulette_tui.net.files import PASSWORD_ENV, check_save_path, default_save_path
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.net.identity import policy
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
    tls: bool = False       # TCP: TLS with the host's own certificate …
    fingerprint: str = ""   # … whose fingerprint players check (known once listening)

    def to_json(self) -> dict[str, Any]:
        return {"bind": self.bind, "port": self.port, "unix": str(self.unix) if self.unix else None,
                "mode": self.mode, "group": self.group, "tls": self.tls,
                "fingerprint": self.fingerprint}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Listen":
        return cls(bind=data["bind"], port=data["port"],
                   unix=Path(data["unix"]) if data.get("unix") else None,
                   tls=bool(data.get("tls")), fingerprint=str(data.get("fingerprint") or ""))


def _room_for_sockets(host: TableHost) -> None:
    """Raise this process's open-file limit towards its ceiling, and keep the host's
    connection cap below it (a crowd of sockets must never leave the host unable to accept
    its players)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
    except (ImportError, ValueError, OSError):
        return
    if soft != resource.RLIM_INFINITY:
        cfg = host.config
        cfg.max_connections = max(16, min(cfg.max_connections, soft - 64))
        cfg.max_pending = min(cfg.max_pending, cfg.max_connections * 3 // 4)


async def start(server: Server, listen: Listen) -> Listen:
    """Start listening; returns where (the port actually bound)."""
    _room_for_sockets(server.host)
    if listen.unix is not None:
        try:
            unix.clear_stale(listen.unix)
        except OSError as exc:
            raise unix.UnixError(_("cannot replace {path}: {problem}").format(
                path=listen.unix, problem=exc.strerror)) from None
        await server.start_unix(listen.unix, mode=listen.mode, group=listen.group)
        return listen
    context, fingerprint = None, ""
    if listen.tls:
        from pokeroulette_tui import paths
        from pokeroulette_tui.net import tls
        try:
            identity = tls.host_identity(paths.data_dir())
        except (OSError, ValueError) as exc:
            raise CliError(_("cannot make or read the table's TLS certificate: {problem}").format(
                problem=exc)) from None
        context, fingerprint = tls.server_context(identity), identity.fingerprint
    bind, port = await server.start(listen.bind, listen.port, ssl=context)
    return Listen(bind=bind, port=port, tls=listen.tls, fingerprint=fingerprint)


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
        raise OSError(_("cannot listen on {where}: {problem}").format(
            where=what, problem=exc.strerror or exc)) from None
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
        host.closing = True  # (everyone is let go: no "seat is held" for them)
        await server.close()


# -- the table the host flags ask for -------------------------------------------------

def _number(args: argparse.Namespace, name: str, default: float, top: float,
            between: str) -> float:
    """A host flag's number (``default`` when not given), from 0 to ``top`` (raises CliError)."""
    value = getattr(args, name, None)
    value = default if value is None else value
    if not 0 <= value <= top:
        raise CliError(_("{flag} must be between {between}").format(
            flag="--" + name.replace("_", "-"), between=between))
    return value


def bind_problem(bind: str) -> None:
    """``--bind`` as a host name or address the table can listen on (raises CliError)."""
    from pokeroulette_tui.net.client import host_problem

    problem = host_problem(bind or "")
    if problem:
        raise CliError(f"--bind: {problem}")


def host_config(args: argparse.Namespace, rules: RuleSet,
                password: str | None = None) -> HostConfig:
    """The ``host`` flags checked and turned into a HostConfig (raises CliError)."""
    from pokeroulette_tui.bots import LEVELS

    if not 0 <= args.port <= 65535:
        raise CliError(_("--port must be between 0 and 65535 (0 picks a free port)"))
    bind_problem(getattr(args, "bind", ""))
    turn_timeout = 60.0 if getattr(args, "turn_timeout", None) is None else args.turn_timeout
    if not 0 <= turn_timeout <= 86400:  # (so written, NaN is refused too)
        raise CliError(_("--turn-timeout must be between 0 (no timer) and 86400 seconds"))
    level = getattr(args, "bot_level", None) or _default_level()
    if level not in LEVELS:
        raise CliError(_("unknown bot level {level} (choose {levels})").format(
            level=repr(level), levels=", ".join(LEVELS)))
    if not 0 <= args.bots <= rules.max_players:
        raise CliError(_("--bots must be between 0 and {n}").format(n=rules.max_players))
    delay = _number(args, "delay", 0.6, 10, _("0 and 10 seconds"))
    pause = _number(args, "result_pause", 4.0, 60, _("0 and 60 seconds"))
    countdown = _number(args, "start_countdown", 10.0, 600, _("0 and 600 seconds"))
    lobby = _number(args, "lobby_timeout", 60.0, 7 * 24 * 60, _("0 (never) and 10080 minutes"))
    if password is not None and not 0 < len(password) <= P.MAX_PASSWORD:
        raise CliError(_("the password must be 1 to {n} characters").format(n=P.MAX_PASSWORD))
    save = getattr(args, "save", None)
    config = HostConfig(rules=rules, password=password or None, seed=getattr(args, "seed", None),
                        save_path=Path(save) if save else None, turn_timeout=turn_timeout,
                        delay=delay, hand_pause=pause, bots=args.bots,
                        bot_level=level, headless=bool(args.headless),
                        start_countdown=countdown, lobby_timeout=lobby * 60,
                        allow_hints=bool(getattr(args, "allow_hints", False)))
    if getattr(args, "unix", None) is not None:
        owner = unix.account_of(os.geteuid())
        config.owner_uid = owner.uid
        config.access = unix_policy(args)
    return config


def unix_policy(args: argparse.Namespace):
    owner = unix.account_of(os.geteuid())
    if getattr(args, "allow", None):
        logins = [n.strip().lstrip("@") for n in args.allow.split(",") if n.strip()]
        try:
            accounts = [unix.account_named(n) for n in logins]
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
        return policy(owner, allow=accounts)
    return policy(owner, group_name=unix.group_name(owner.gid))


def unix_path(args: argparse.Namespace) -> Path:
    path = Path(args.unix).expanduser().absolute() if args.unix else \
        unix.table_socket(os.geteuid())
    if len(os.fsencode(str(path))) > 100:
        raise CliError(_("the socket path {path} is too long for a Unix socket (100 bytes at "
                         "most)").format(path=path))
    return path


def listen_for(args: argparse.Namespace, host: TableHost) -> Listen:
    """Where the table listens; for ``--unix``, its folder made (or checked) first."""
    if getattr(args, "unix", None) is None:
        return Listen(bind=args.bind, port=args.port, tls=not getattr(args, "no_tls", False))
    path = unix_path(args)
    allow = bool(getattr(args, "allow", None))
    group = None if allow else os.getegid()
    own = path.parent == unix.table_dir(os.geteuid())
    note = ""
    try:
        if own:  # the program's own per-user folder: made, checked and set here
            unix.check_base(path.parent.parent)
            unix.prepare_dir(path.parent, mode=0o711 if allow else 0o750, group=group)
        else:  # a folder the user chose: never changed; only said if it keeps players out
            if not path.parent.exists():
                raise unix.UnixError(_("there is no folder {folder}").format(folder=path.parent))
            if not path.parent.is_dir():
                raise unix.UnixError(_("{path} is not a folder").format(path=path.parent))
            note = unix.reach_note(path.parent, host.config.access)
        unix.clear_stale(path)  # a table of ours already there is said now, in one line
    except unix.UnixError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot prepare {path}: {problem}").format(
            path=path, problem=exc.strerror)) from None
    if note:
        print("pokeroulette: " + note, file=sys.stderr, flush=True)
    return Listen(unix=path, mode=0o666 if allow else 0o660, group=group)


def _default_level() -> str:
    """The level of a new table's bots (the start screen's rule: "simple" once it exists)."""
    from pokeroulette_tui.bots import LEVELS
    return "simple" if "simple" in LEVELS else "random"


def given_settings(args: argparse.Namespace) -> frozenset[str]:
    """The table settings (:data:`~pokeroulette_tui.net.host.TABLE_SETTINGS`) this command
    line gives: a resumed table keeps its saved ones for the others (a flag's default is None,
    "not given"; ``--allow-hints`` counts only when given)."""
    flags = {"turn_timeout": "turn_timeout", "delay": "delay", "hand_pause": "result_pause",
             "bot_level": "bot_level"}
    given = {field for field, flag in flags.items() if getattr(args, flag, None) is not None}
    if getattr(args, "allow_hints", False):
        given.add("allow_hints")
    return frozenset(given)


def make_host(args: argparse.Namespace, rules: RuleSet, admin_token: str | None, *,
              password: str | None = None) -> TableHost:
    config = host_config(args, rules, password)
    if config.save_path is not None and not args.resume:  # checked before listening: a save
        check_save_path(config.save_path)  # never written is a promise the banner must not make
    if args.resume:
        if Path(args.resume).is_file():  # (a missing one: resume says so)
            check_save_path(Path(args.resume), "--resume")  # read, then written on as play goes
        try:
            host = TableHost.resume(Path(args.resume), config, admin_token=admin_token,
                                    salvage=True, explicit=given_settings(args))
        except SaveError as exc:
            raise CliError(str(exc)) from None
        if host.table is not None and host.table.state.game_over:  # nothing left to play
            raise CliError(_("the game saved in {path} is over ({reason}): there is nothing "
                             "to resume; host a new table with pokeroulette host").format(
                                 path=args.resume, reason=host.table.state.game_over_reason
                                 or _("the game has ended")))
        if host.table is not None and host.table.salvaged:  # said at once: whatever happens
            print("pokeroulette: " + salvaged_note(host.table), file=sys.stderr, flush=True)
        return host
    if config.save_path is None:
        config.save_path = default_save_path()
    return TableHost(config, admin_token=admin_token)


def salvaged_note(table: Any) -> str:
    """What a host resumed from a damaged journal tells its console (and log)."""
    return _("The journal was damaged, so the table goes on from before the damage: "
             "{problem}. The damaged journal was kept as {path}.").format(
                 problem=table.salvaged, path=table.damaged_copy)


# -- starting the detached process ------------------------------------------------------

def _jsonable(args: argparse.Namespace) -> dict[str, Any]:
    out = {}
    for key, value in vars(args).items():
        if key in ("save", "resume") and value:
            value = str(Path(value).expanduser().absolute())
        if key == "unix" and value:
            value = str(Path(value).expanduser().absolute())
        out[key] = value
    return out


def spawn_server(args: argparse.Namespace, rules: RuleSet, *, password: str | None,
                 admin: str | None, log_path: Path, idle_exit: float = IDLE_EXIT,
                 timeout: float = 30.0) -> tuple[subprocess.Popen[bytes], Listen]:
    """Start the table in a detached process of its own (new session, stdio to the owner-only
    log); its orders (the ``host`` flags and the rules they chose), password and admin secret
    go through a pipe, never the command line.
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
        raise CliError(_("cannot start the table server: {problem}").format(
            problem=exc.strerror)) from None
    finally:
        os.close(status_w)
        os.close(log_fd)
    from pokeroulette_tui.engine.i18n import language

    orders = {"args": _jsonable(args), "rules": rules.to_dict(), "password": password,
              "admin": admin, "status_fd": status_w, "idle_exit": idle_exit,
              "language": language()}  # the table's words (its log, results) in the host's
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
            ready, __, ___ = select.select([status_r], [], [], max(0.0, end - time.monotonic()))
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
        return proc, Listen.from_json(json.loads(line[0][3:]))
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
    from pokeroulette_tui.engine.i18n import set_language

    set_language(str(orders.get("language", "en")))  # the host's language (--lang, settings)
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

    from pokeroulette_tui.engine.rules import RuleError
    try:
        args = argparse.Namespace(**orders["args"])
        try:
            rules = RuleSet.from_dict(orders["rules"])
        except RuleError as exc:
            raise CliError(str(exc)) from None
        host = make_host(args, rules, orders.get("admin"), password=orders.get("password"))
        listen = listen_for(args, host)
        log.info("table server pid %s starting", os.getpid())
        server_loop.run(serve(host, listen, idle_exit=float(orders.get("idle_exit", IDLE_EXIT)),
                          ready=lambda where: report("ok " + json.dumps(where.to_json()))))
    except (CliError, unix.UnixError, OSError) as exc:
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
