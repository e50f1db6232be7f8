"""``pokeroulette serve-ssh``: the flags, the host key, the banner, then the room until
Ctrl-C or SIGTERM; and :func:`make_room_app`, the app each SSH session runs. The room's
network side is :mod:`pokeroulette_tui.net.ssh`; asyncssh (the optional ``ssh`` extra) is
imported only when the command runs."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.errors import CliError

log = logging.getLogger("pokeroulette.ssh")

LANG_VARIABLE = "POKEROULETTE_ROOM_LANG"
"""``--per-process``: how a session's process learns the server's language."""


def _missing() -> str:
    return _("serve-ssh needs asyncssh: install pokeroulette_tui[ssh] (pip install "
             "'pokeroulette_tui[ssh]')")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve-ssh", help=_("a card room anyone reaches with ssh (needs the ssh "
                                           "extra)"))
    p.add_argument("--port", type=int, default=2222,
                   help=_("the port to listen on (default {port})").format(port=2222))
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                   help=_("the address to listen on (default 0.0.0.0: every interface)"))
    p.add_argument("--host-key", default=None, metavar="FILE",
                   help=_("the server's private host key (default: made once in the data "
                          "folder)"))
    p.add_argument("--authorized-keys", default=None, metavar="FILE",
                   help=_("only these keys may log in (OpenSSH authorized_keys; a line's "
                          "name=\"NAME\" option, or its comment's first word, is the name); "
                          "without it a name's first key claims it"))
    p.add_argument("--max-sessions", type=int, default=200,
                   help=_("players and watchers in the room at once (default {n})").format(n=200))
    p.add_argument("--turn-timeout", type=float, default=60.0,
                   help=_("seconds a player has to act (default 60; 0 = no timer)"))
    p.add_argument("--per-process", action="store_true",
                   help=_("run each session's app in a process of its own on a "
                          "pseudo-terminal (about 30 MiB a session instead of 3; uses every "
                          "core)"))


def make_room_app(front: Any, door: Any, terminal: Any, env: dict[str, str]) -> Any:
    """The app of one SSH session (``Front.make_app``): the room's screens, this player's
    settings (none kept for a watcher), the client's terminal.

    Called in the session's own task, before its app runs: from here on that task and every
    task of its app speak the player's language (their saved choice, else the server's) and
    ``g`` changes it for this session only (:func:`~pokeroulette_tui.engine.i18n.own_language`)."""
    from pokeroulette_tui.engine.i18n import language, own_language
    from pokeroulette_tui.net.ssh.keys import name_key
    from pokeroulette_tui.ui.screens.room import RoomApp, RoomUserConfig

    config = RoomUserConfig.for_user(None if door.watcher else front.users,
                                     name_key(door.username))
    own_language(config.language or language())
    return RoomApp(config, front.room, door.account, terminal, watcher=door.watcher, env=env)


CHILD = ["-m", "pokeroulette_tui.ui.sshroom"]
"""``--per-process``: how the server starts a session's app (after ``sys.executable``)."""


def child_main(argv: list[str]) -> int:
    """A session's app in a process of its own (``--per-process``): ``NAME play|watch FD
    SETTINGS``, on the pseudo-terminal the server gives it, the room behind the control
    socket ``FD``."""
    import os

    from textual.drivers.linux_driver import LinuxDriver

    from pokeroulette_tui.engine.i18n import set_language
    from pokeroulette_tui.net.identity import Account
    from pokeroulette_tui.net.ssh.control import ProxyRoom
    from pokeroulette_tui.ui.screens.room import RoomApp, RoomUserConfig

    name, mode, fd, settings = argv
    config = RoomUserConfig.for_user(Path(settings).parent, Path(settings).stem) if settings \
        else RoomUserConfig.for_user(None, "")
    set_language(config.language or os.environ.get(LANG_VARIABLE, "") or "en")
    app = RoomApp(config, ProxyRoom(int(fd)), Account(0, name), None,  # type: ignore[arg-type]
                  watcher=mode == "watch", env=dict(os.environ))
    app.driver_class = LinuxDriver
    app.run()
    return 0


def preload() -> None:
    """Load the screens every session needs once, before the room starts (and before the
    server freezes what is loaded out of the garbage collector's way)."""
    import pokeroulette_tui.ui.screens.room
    import pokeroulette_tui.ui.screens.setup
    import pokeroulette_tui.ui.screens.table
    import pokeroulette_tui.ui.ssh_driver  # noqa: F401


def missing() -> str:
    """"" when asyncssh can be imported, else the one line to say."""
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        return _missing()
    return ""


def run(args: argparse.Namespace) -> int:
    problem = missing()
    if problem:
        raise CliError(problem)
    if not 0 <= args.port <= 65535:
        raise CliError(_("--port must be between 0 and 65535"))
    if not 1 <= args.max_sessions <= 10000:
        raise CliError(_("--max-sessions must be between 1 and 10000"))
    if not 0 <= args.turn_timeout <= 86400:
        raise CliError(_("--turn-timeout must be between 0 (no timer) and 86400 seconds"))
    from pokeroulette_tui.net.serve import bind_problem

    bind_problem(args.bind)  # (an address no socket could take: one line, not a trace)
    from pokeroulette_tui import paths
    from pokeroulette_tui.engine.folders import private_dir
    from pokeroulette_tui.net.ssh import keys

    folder = private_dir(paths.data_dir() / "ssh")
    key_path = Path(args.host_key).expanduser() if args.host_key else folder / keys.HOST_KEY_FILE
    try:
        if args.host_key and not key_path.exists():
            raise keys.KeyError_(_("no host key at {path}").format(path=key_path))
        if args.authorized_keys:
            book: keys.NameBook | keys.AuthorizedKeys = keys.AuthorizedKeys.load(
                Path(args.authorized_keys).expanduser())
        else:
            book = keys.NameBook.load(folder / keys.NAMES_FILE)
        host_key, fingerprint, made = keys.host_key(key_path)
    except keys.KeyError_ as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot prepare {folder}: {problem}").format(
            folder=folder, problem=exc.strerror or exc)) from None
    import asyncio

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        datefmt="%H:%M:%S", stream=sys.stderr)
    say = _say
    if made:
        say(_("Made the room's host key: {path}").format(path=key_path))
    if isinstance(book, keys.AuthorizedKeys):
        for line in book.skipped:
            say("  " + _("{file}: {line} (skipped)").format(file=args.authorized_keys,
                                                           line=line))
    try:
        asyncio.run(_serve(args, host_key, fingerprint, book, folder))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        raise CliError(_("cannot listen on {address}: {problem}").format(
            address=f"{args.bind}:{args.port}", problem=exc.strerror or exc)) from None
    return 0


def _say(line: str) -> None:
    try:
        print(line, flush=True)
    except (OSError, ValueError):
        pass


async def _serve(args: argparse.Namespace, host_key: object, fingerprint: str, book: object,
                 folder: Path) -> None:
    import asyncio
    import signal

    from pokeroulette_tui.net.ssh.keys import AuthorizedKeys
    from pokeroulette_tui.net.ssh.room import Room
    from pokeroulette_tui.net.ssh.server import Front, Limits, start

    preload()
    room = Room(turn_timeout=args.turn_timeout)
    front = Front(room, book, make_room_app,  # type: ignore[arg-type]
                  Limits(max_sessions=args.max_sessions), users=folder / "users",
                  child_command=[sys.executable, *CHILD] if args.per_process else [])
    server = await start(front, bind=args.bind, port=args.port, host_key=host_key)
    port = server.sockets[0].getsockname()[1] if server.sockets else args.port
    where = "" if port == 22 else f" -p {port}"
    # the labels of the lines below are padded to the longest one, in any language
    rows = [(_("host key fingerprint:"), fingerprint),
            (_("players join with:"), f"ssh{where} NAME@THIS-HOST"),
            (_("watchers:"), f"ssh{where} watch@THIS-HOST")]
    width = max(len(label) for label, _value in rows)
    _say(_("The card room listens on {address}").format(address=f"{args.bind or '*'}:{port}"))
    for label, value in rows:
        _say(f"  {label:<{width}} {value}")
    if isinstance(book, AuthorizedKeys):
        _say("  " + _("only the keys of {file} may log in").format(file=args.authorized_keys))
    else:
        _say("  " + _("a name's first key claims it (kept in {file})").format(
            file=folder / "names.json"))
    _say("  " + (_("each session's app runs in a process of its own (--per-process)")
                 if args.per_process else _("each session's app runs in this process")))
    _say(_("Press Ctrl-C to stop."))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover
            pass
    try:
        await stop.wait()
    finally:
        log.info("closing the room")
        server.close()
        for app in list(front.apps):
            app.hang_up()
        await room.close()


if __name__ == "__main__":  # a session's app, --per-process (see child_main)
    sys.exit(child_main(sys.argv[1:]))
