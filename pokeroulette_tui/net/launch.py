"""``pokeroulette host`` and ``pokeroulette join``: from the command line to a served table."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path

from pokeroulette_tui.cli import CliError
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.save import SaveError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.client import ConnectError, RemoteSession, parse_address
from pokeroulette_tui.net import unix
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.net.identity import policy
from pokeroulette_tui.net.files import (PASSWORD_ENV, default_save_path, load_admin,
                                        load_token, log_to, private_log, read_password,
                                        store_admin, store_token, tokens_path)
from pokeroulette_tui.net.serve import IDLE_EXIT, Listen, serve, spawn_server

log = logging.getLogger("pokeroulette.net")


def lan_addresses(bind: str) -> list[str]:
    """Addresses friends can use to reach a server bound to ``bind``."""
    if bind not in ("", "0.0.0.0", "::"):
        return [bind]
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if info[4][0] not in found:
                found.append(str(info[4][0]))
    except OSError:
        pass
    found = [a for a in found if not a.startswith("127.")]
    return found or ["127.0.0.1"]


# -- host ---------------------------------------------------------------------------

def host_config(args: argparse.Namespace, rules: RuleSet,
                password: str | None = None) -> HostConfig:
    """The ``host`` flags checked and turned into a HostConfig (raises CliError)."""
    from pokeroulette_tui.bots import LEVELS

    if not 0 <= args.port <= 65535:
        raise CliError("--port must be between 0 and 65535 (0 picks a free port)")
    if args.turn_timeout < 0 or args.turn_timeout > 86400:
        raise CliError("--turn-timeout must be between 0 (no timer) and 86400 seconds")
    level = getattr(args, "bot_level", None) or _default_level()
    if level not in LEVELS:
        raise CliError(f"unknown bot level {level!r} (choose {', '.join(LEVELS)})")
    if not 0 <= args.bots <= rules.max_players:
        raise CliError(f"--bots must be between 0 and {rules.max_players}")
    delay = getattr(args, "delay", None)
    delay = 0.6 if delay is None else delay
    if not 0 <= delay <= 10:
        raise CliError("--delay must be between 0 and 10 seconds")
    pause = getattr(args, "result_pause", None)
    pause = 4.0 if pause is None else pause
    if not 0 <= pause <= 60:
        raise CliError("--result-pause must be between 0 and 60 seconds")
    if password is not None and not 0 < len(password) <= P.MAX_PASSWORD:
        raise CliError(f"the password must be 1 to {P.MAX_PASSWORD} characters")
    save = getattr(args, "save", None)
    config = HostConfig(rules=rules, password=password or None, seed=getattr(args, "seed", None),
                        save_path=Path(save) if save else None, turn_timeout=args.turn_timeout,
                        delay=delay, hand_pause=pause, bots=args.bots,
                        bot_level=level, headless=bool(args.headless))
    if getattr(args, "unix", None) is not None:
        owner = unix.account_of(os.geteuid())
        config.owner_uid = owner.uid
        config.access = unix_policy(args)
    return config


def check_unix_flags(args: argparse.Namespace) -> None:
    """``--unix`` and ``--allow`` go together, and never with passwords or TCP flags."""
    if getattr(args, "unix", None) is None:
        if getattr(args, "allow", None):
            raise CliError("--allow chooses who may join a --unix table; add --unix")
        return
    problem = unix.unsupported()
    if problem:
        raise CliError(problem)
    if getattr(args, "password", None) is not None or getattr(args, "password_file", None):
        raise CliError("a --unix table needs no password: the kernel tells it who connects "
                       "(choose who may with --allow)")
    if getattr(args, "name", None):
        raise CliError("at a --unix table your seat is named after your login; drop --name")
    if args.port != 7777 or args.bind != "0.0.0.0":
        raise CliError("--port and --bind are for TCP tables, not --unix")


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
        raise CliError(f"the socket path {path} is too long for a Unix socket (100 bytes at most)")
    return path


def listen_for(args: argparse.Namespace, host: TableHost) -> Listen:
    """Where the table listens; for ``--unix``, its folder made (or checked) first."""
    if getattr(args, "unix", None) is None:
        return Listen(bind=args.bind, port=args.port)
    path = unix_path(args)
    allow = bool(getattr(args, "allow", None))
    group = None if allow else os.getegid()
    try:
        unix.check_base(path.parent.parent)
        unix.prepare_dir(path.parent, mode=0o711 if allow else 0o750, group=group)
        unix.clear_stale(path)  # a table of ours already there is said now, in one line
    except unix.UnixError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot prepare {path}: {exc.strerror}") from None
    return Listen(unix=path, mode=0o666 if allow else 0o660, group=group)


def _default_level() -> str:
    from pokeroulette_tui.ui.config import default_bot_level
    return default_bot_level()


def make_host(args: argparse.Namespace, rules: RuleSet, admin_token: str | None, *,
              password: str | None = None) -> TableHost:
    config = host_config(args, rules, password)
    if args.resume:
        try:
            return TableHost.resume(Path(args.resume), config, admin_token=admin_token)
        except SaveError as exc:
            raise CliError(str(exc)) from None
    if config.save_path is None:
        config.save_path = default_save_path()
    return TableHost(config, admin_token=admin_token)


def run_host(args: argparse.Namespace, rules: RuleSet) -> int:
    """``pokeroulette host``: serve a table; sit at it too unless ``--headless`` (the table
    then runs in a process of its own, and this terminal is one of its clients)."""
    check_unix_flags(args)
    if getattr(args, "stop", False):
        return stop_table(args)
    if getattr(args, "detach", False) and not args.headless:
        raise CliError("--detach goes with --headless (a host who plays gets a table that "
                       "runs on its own anyway)")
    password = None if args.unix is not None else read_password(args)
    if args.headless and getattr(args, "detach", False):
        return _detach(args, rules, password)
    if args.headless:
        host = make_host(args, rules, None, password=password)
        listen = listen_for(args, host)
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                            datefmt="%H:%M:%S", stream=sys.stderr)

        def ready(where: Listen) -> None:
            for line in _banner(host, where, args):
                _say(line)
            _say("Press Ctrl-C to stop.")
        try:
            asyncio.run(serve(host, listen, ready=ready))
        except (OSError, unix.UnixError) as exc:
            raise CliError(str(exc)) from None
        except KeyboardInterrupt:
            return 0
        return 0
    return _host_and_play(args, rules, password)


def stop_table(args: argparse.Namespace) -> int:
    """``host --stop``: end your own table (the one at ``--unix [PATH]``, or on ``--port``).
    The process is found through the kernel and must be your own account's."""
    me = os.geteuid()
    if args.unix is not None:
        path = unix_path(args)
        try:
            pid = unix.listener_pid(unix.Target(path, unix.account_of(me)))
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
    else:
        pid = unix.tcp_listener_pid(args.port, me)
        if pid is None:
            raise CliError(f"no table of yours listens on port {args.port}")
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError as exc:
        raise CliError(f"cannot stop the table (pid {pid}): {exc.strerror}") from None
    _say(f"Stopping your table (pid {pid}): everyone at it is told the host closed it.")
    return 0


def _banner(host: TableHost, where: Listen, args: argparse.Namespace) -> list[str]:
    kind = f"{'a resumed' if host.started else 'a'} Poker Roulette table"
    if where.unix is not None:
        me = unix.account_of(os.geteuid())
        access = host.config.access
        lines = [f"Hosting {kind} on this machine for {access.describe() if access else 'you'}"
                 + (" (headless)" if host.config.headless else "")]
        if where.unix == unix.table_socket(me.uid):
            lines.append(f"  players join with:  pokeroulette join @{me.login}")
        else:
            lines.append(f"  players join with:  pokeroulette join --unix {where.unix}")
        if access is not None and access.allow is None and unix.private_group(me):
            lines.append(f"  your group {access.group_name} is yours alone: let players in "
                         f"with --allow LOGIN,LOGIN")
    else:
        bind, port = where.bind, where.port
        lines = [f"Hosting {kind} on {bind or '*'}:{port}"
                 + (" (headless)" if host.config.headless else "")]
        for addr in lan_addresses(bind):
            lines.append(f"  friends join with:  pokeroulette join {addr}:{port} --name NAME")
        if bind in ("", "0.0.0.0", "::"):
            lines.append(f"  on this machine:    pokeroulette join 127.0.0.1:{port} --name NAME")
        if host.password_digest:
            lines.append("  (this table has a password: join with --password, --password-file "
                         f"FILE or {PASSWORD_ENV})")
    if host.config.save_path is not None:
        lines.append(f"  saving to {host.config.save_path}")
        lines.append(f"  after a crash:      pokeroulette host --resume {host.config.save_path}"
                     + (" --unix" if where.unix is not None else ""))
    return lines


def _say(line: str) -> None:
    """Print for the person at the host's terminal; a closed stdout never stops the table."""
    try:
        print(line, flush=True)
    except (OSError, ValueError):
        pass


def _start_detached(args: argparse.Namespace, rules: RuleSet, password: str | None,
                    admin: str | None) -> tuple[TableHost, subprocess.Popen[bytes], Listen, Path]:
    log_file = private_log("host.log")
    log_to(log_file)
    if not args.save and not args.resume:  # the same file for the banner and the server
        args.save = str(default_save_path())
    # check what can be checked here, so that mistakes are told at once
    probe = make_host(args, rules, None, password=password)
    if args.unix is not None:
        listen_for(args, probe)
    proc, where = spawn_server(args, password=password, admin=admin, log_path=log_file)
    return probe, proc, where, log_file


def _stop_command(args: argparse.Namespace, where: Listen) -> str:
    if where.unix is None:
        return f"pokeroulette host --stop --port {where.port}"
    return "pokeroulette host --unix" + (f" {where.unix}" if args.unix else "") + " --stop"


def _detach(args: argparse.Namespace, rules: RuleSet, password: str | None) -> int:
    """``host --headless --detach``: the table in the background; this command returns."""
    probe, proc, where, log_file = _start_detached(args, rules, password, None)
    for line in _banner(probe, where, args):
        _say(line)
    _say(f"The table runs in the background (pid {proc.pid}, log {log_file}). It closes "
         f"{IDLE_EXIT / 60:.0f} minutes after the last player leaves, or with: "
         f"{_stop_command(args, where)}")
    return 0


def _host_and_play(args: argparse.Namespace, rules: RuleSet, password: str | None) -> int:
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    admin = None if args.unix is not None else secrets.token_urlsafe(24)
    probe, proc, where, _ = _start_detached(args, rules, password, admin)
    me = unix.account_of(os.geteuid()) if where.unix is not None else None
    if where.unix is not None:
        session = RemoteSession("", 0, me.seat_name(), unix=unix.Target(where.unix, me))
        back = "pokeroulette join @me" if where.unix == unix.table_socket(me.uid) else \
            f"pokeroulette join --unix {where.unix}"
    else:
        name = args.name
        if name is None and probe.started:
            name = next((p.name for p in probe.players if p.host), None)
        store_admin(where.port, admin or "")
        session = RemoteSession("127.0.0.1", where.port, name or "Host", admin=admin,
                                password=password, server_uid=os.geteuid())
        back = f"pokeroulette join 127.0.0.1:{where.port} --name {session.name}"
    banner = _banner(probe, where, args)
    banner.append(f"  the table runs on its own (pid {proc.pid}); if this terminal is lost, "
                  f"come back with: {back}")
    for line in banner:
        _say(line)
    app = LobbyApp(AppConfig.load(), session, info=banner)
    try:
        app.run()
    finally:
        _after_screen(proc, session, back, _stop_command(args, where))
    return app.return_code or 0


def _after_screen(proc: subprocess.Popen[bytes], session: RemoteSession, back: str,
                  stop: str) -> None:
    """The host's screen closed: the table keeps running if others still play at it, or if
    the terminal was lost (the host comes back with ``back``)."""
    if proc.poll() is not None:
        return
    if _terminal_lost():
        return
    seats = session.lobby.get("seats") or []
    others = [s.get("name", "?") for s in seats if not s.get("bot") and s.get("connected")
              and s.get("seat") != session.seat and not s.get("left")]
    over = False
    try:
        over = session.view(session.seat).game_over
    except Exception:  # no view yet: the lobby
        pass
    if others and session.game_started and not over:
        _say(f"The table is still running for {', '.join(map(str, others))} (pid {proc.pid}). "
             f"Come back with: {back}; stop it with: {stop}. It closes by itself "
             f"{IDLE_EXIT / 60:.0f} minutes after the last player leaves.")
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _terminal_lost() -> bool:
    """True when the terminal hung up (its file operations fail with EIO)."""
    import termios
    for stream in (sys.stdin, sys.stdout):
        try:
            termios.tcgetattr(stream.fileno())
            return False
        except termios.error as exc:
            if exc.args and exc.args[0] == 5:  # EIO: hung up
                return True
        except (OSError, ValueError, AttributeError):
            continue
    return False


# -- join ---------------------------------------------------------------------------

def run_join(args: argparse.Namespace) -> int:
    """``pokeroulette join HOST[:PORT] --name NAME`` (TCP), or ``join @LOGIN`` /
    ``join --unix PATH`` (a table on this machine): the lobby, then the table."""
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    session, info = join_session(args)
    log_to(private_log("join.log"))
    app = LobbyApp(AppConfig.load(), session, info=info)
    app.run()
    return app.return_code or 0


def join_session(args: argparse.Namespace) -> tuple[RemoteSession, list[str]]:
    """The RemoteSession ``join``'s flags ask for (raises CliError)."""
    address = (args.address or "").strip()
    if address.startswith("@") or getattr(args, "unix", None):
        if address and not address.startswith("@"):
            raise CliError("give either an address or --unix PATH, not both")
        problem = unix.unsupported()
        if problem:
            raise CliError(problem)
        if args.name:
            raise CliError("at a table on this machine your seat is named after your login; "
                           "drop --name")
        if getattr(args, "password", None) is not None or getattr(args, "password_file", None):
            raise CliError("a table on this machine needs no password: the kernel tells it "
                           "who you are")
        try:
            target = unix.target_for(address[1:]) if address else \
                unix.target_at(args.unix, getattr(args, "owner", None))
            unix.check_target(target)  # nobody there, or not theirs: say so before any screen
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
        me = unix.account_of(os.geteuid())
        session = RemoteSession("", 0, me.seat_name(), unix=target,
                                spectate=bool(args.spectate))
        return session, [f"Joining {target.describe()} as {me.login}"]
    if not address:
        raise CliError("join what? `pokeroulette join @LOGIN` (a table on this machine) or "
                       "`pokeroulette join HOST[:PORT] --name NAME`")
    try:
        host, port = parse_address(address)
    except ConnectError as exc:
        raise CliError(str(exc)) from None
    if not args.name:
        raise CliError("join HOST[:PORT] needs --name NAME (your name at the table)")
    try:
        name = P.clean_name(args.name)
    except P.ProtocolError as exc:
        raise CliError(exc.message) from None
    local = host in unix.LOOPBACK or host.startswith("127.")
    owner = getattr(args, "owner", None)
    if owner and not local:
        raise CliError("--owner checks who serves a table on this machine: use it with "
                       "--unix PATH or a 127.0.0.1 address")
    password = read_password(args)
    token = None if args.spectate else load_token(host, port, name)
    admin = load_admin(port) if local else None
    server_uid = None
    if owner:
        try:
            server_uid = unix.account_named(owner).uid
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
    elif admin:  # the host's own secret goes only to a table this account serves
        server_uid = os.geteuid()
    session = RemoteSession(host, port, name, password=password, token=token,
                            spectate=bool(args.spectate), admin=admin, server_uid=server_uid,
                            on_token=lambda t: store_token(host, port, name, t))
    return session, [f"Joining {host}:{port} as {name}"]
