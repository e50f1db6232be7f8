"""``pokeroulette host`` and ``pokeroulette join``: from the command line to a served table."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import secrets
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from pokeroulette_tui.cli import CliError
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.save import SaveError, atomic_write
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.client import ConnectError, RemoteSession, parse_address
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.net.server import Server

log = logging.getLogger("pokeroulette.net")


# -- where things live -------------------------------------------------------------

def _data_dir() -> Path:
    from pokeroulette_tui.ui.config import data_dir
    return data_dir()


def default_save_path() -> Path:
    return _data_dir() / "hosted" / time.strftime("table-%Y%m%d-%H%M%S.json")


def tokens_path() -> Path:
    return _data_dir() / "resume-tokens.json"


def _token_key(host: str, port: int, name: str) -> str:
    return f"{host.lower()}:{port}/{name.casefold()}"


def load_token(host: str, port: int, name: str) -> str | None:
    """The resume token kept from an earlier join of this table under this name."""
    try:
        data = json.loads(tokens_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get(_token_key(host, port, name)) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def store_token(host: str, port: int, name: str, token: str) -> None:
    """Keep a resume token (owner-only file) so a later join takes the seat back."""
    try:
        data = json.loads(tokens_path().read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[_token_key(host, port, name)] = token
    if len(data) > 200:
        data = dict(list(data.items())[-200:])
    try:
        atomic_write(tokens_path(), json.dumps(data, indent=1))
    except OSError as exc:  # the token is a convenience: play on without it
        log.warning("cannot keep the resume token: %s", exc)


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

def host_config(args: argparse.Namespace, rules: RuleSet) -> HostConfig:
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
    if args.password is not None and not 0 < len(args.password) <= P.MAX_PASSWORD:
        raise CliError(f"--password must be 1 to {P.MAX_PASSWORD} characters")
    save = getattr(args, "save", None)
    return HostConfig(rules=rules, password=args.password or None, seed=getattr(args, "seed", None),
                      save_path=Path(save) if save else None, turn_timeout=args.turn_timeout,
                      delay=delay, hand_pause=max(delay * 4, 0.0), bots=args.bots,
                      bot_level=level, headless=bool(args.headless))


def _default_level() -> str:
    from pokeroulette_tui.ui.config import default_bot_level
    return default_bot_level()


def make_host(args: argparse.Namespace, rules: RuleSet, admin_token: str | None) -> TableHost:
    config = host_config(args, rules)
    if args.resume:
        try:
            return TableHost.resume(Path(args.resume), config, admin_token=admin_token)
        except SaveError as exc:
            raise CliError(str(exc)) from None
    if config.save_path is None:
        config.save_path = default_save_path()
    return TableHost(config, admin_token=admin_token)


def run_host(args: argparse.Namespace, rules: RuleSet) -> int:
    """``pokeroulette host``: serve a table; sit at it too unless ``--headless``."""
    admin = None if args.headless else secrets.token_urlsafe(24)
    host = make_host(args, rules, admin)
    if args.headless:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                            datefmt="%H:%M:%S", stream=sys.stderr)
        try:
            return asyncio.run(_serve_headless(host, args.bind, args.port))
        except KeyboardInterrupt:
            return 0
    return _host_and_play(host, args, admin or "")


def _banner(host: TableHost, bind: str, port: int) -> list[str]:
    lines = [f"Hosting {'a resumed' if host.started else 'a'} Poker Roulette table on "
             f"{bind or '*'}:{port}" + (" (headless)" if host.config.headless else "")]
    for addr in lan_addresses(bind):
        lines.append(f"  friends join with:  pokeroulette join {addr}:{port} --name NAME")
    if bind in ("", "0.0.0.0", "::"):
        lines.append(f"  on this machine:    pokeroulette join 127.0.0.1:{port} --name NAME")
    if host.password_digest:
        lines.append("  (add --password PW: this table has a password)")
    if host.config.save_path is not None:
        lines.append(f"  saving to {host.config.save_path}")
        lines.append(f"  after a crash:      pokeroulette host --resume {host.config.save_path}")
    return lines


def _say(line: str) -> None:
    """Print for the person at the host's terminal; a closed stdout never stops the table."""
    try:
        print(line, flush=True)
    except (OSError, ValueError):
        pass


async def _serve_headless(host: TableHost, bind: str, port: int) -> int:
    server = Server(host)
    try:
        _, real_port = await server.start(bind, port)
    except OSError as exc:
        raise CliError(f"cannot listen on {bind}:{port}: {exc.strerror or exc}") from None
    for line in _banner(host, bind, real_port):
        _say(line)
    _say("Press Ctrl-C to stop.")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
            pass
    await stop.wait()
    _say("Closing the table…")
    await server.close()
    return 0


class ServerThread(threading.Thread):
    """The server in its own thread and event loop, so the host's own screen never slows it."""

    def __init__(self, host: TableHost, bind: str, port: int) -> None:
        super().__init__(name="table-server", daemon=True)
        self.host, self.bind, self.port = host, bind, port
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.address: tuple[str, int] = ("", 0)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Event | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to the main thread
            self.error = exc
            self.ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._closing = asyncio.Event()
        server = Server(self.host)
        self.address = await server.start(self.bind, self.port)
        self.ready.set()
        await self._closing.wait()
        await server.close()

    def stop(self) -> None:
        if self._loop is not None and self._closing is not None:
            self._loop.call_soon_threadsafe(self._closing.set)
        self.join(10)


def _host_and_play(host: TableHost, args: argparse.Namespace, admin: str) -> int:
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    log_file = _data_dir() / "host.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, filename=str(log_file),
                        format="%(asctime)s %(name)s %(message)s")
    name = args.name
    if name is None and host.started:
        name = next((p.name for p in host.players if p.host), None)
    name = name or "Host"
    thread = ServerThread(host, args.bind, args.port)
    thread.start()
    thread.ready.wait(10)
    if thread.error is not None or not thread.address[1]:
        raise CliError(f"cannot listen on {args.bind}:{args.port}: {thread.error}")
    port = thread.address[1]
    banner = _banner(host, args.bind, port)
    for line in banner:
        print(line, flush=True)
    session = RemoteSession("127.0.0.1", port, name, admin=admin, password=args.password)
    app = LobbyApp(AppConfig.load(), session, info=banner)
    try:
        app.run()
    finally:
        others = [p for p in host.players if p.bot is None and p.cid is not None and not p.host]
        if others and host.started and not host.table.state.game_over:
            print(f"The table is still running for {', '.join(p.name for p in others)}. "
                  "Press Ctrl-C to close it.", flush=True)
            try:
                while thread.is_alive():
                    thread.join(0.5)
            except KeyboardInterrupt:
                pass
        thread.stop()
    return app.return_code or 0


# -- join ---------------------------------------------------------------------------

def run_join(args: argparse.Namespace) -> int:
    """``pokeroulette join HOST[:PORT] --name NAME``: the lobby, then the table."""
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    try:
        host, port = parse_address(args.address)
    except ConnectError as exc:
        raise CliError(str(exc)) from None
    try:
        name = P.clean_name(args.name)
    except P.ProtocolError as exc:
        raise CliError(exc.message) from None
    token = None if args.spectate else load_token(host, port, name)
    session = RemoteSession(host, port, name, password=args.password, token=token,
                            spectate=bool(args.spectate),
                            on_token=lambda t: store_token(host, port, name, t))
    log_file = _data_dir() / "join.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, filename=str(log_file),
                        format="%(asctime)s %(name)s %(message)s")
    app = LobbyApp(AppConfig.load(), session, info=[f"Joining {host}:{port} as {name}"])
    app.run()
    return app.return_code or 0
