"""``pokeroulette host`` and ``pokeroulette join``: from the command line to a served table.

Everything here runs without a screen (the detached server imports it too); the screens
a host or a player sits at are run by :mod:`pokeroulette_tui.ui.netplay`.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pokeroulette_tui.engine.i18n import _, pgettext
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net import unix
from pokeroulette_tui.net import loop as server_loop
from pokeroulette_tui.net.client import ConnectError, RemoteSession, parse_address
from pokeroulette_tui.net.files import (PASSWORD_ENV, default_save_path, load_admin,  # noqa: F401
                                        load_token, log_to, private_log, read_password,
                                        store_admin, store_token, tokens_path)
from pokeroulette_tui.net.host import TableHost
# the table the flags ask for (also made by the detached server), importable from here too
from pokeroulette_tui.net.serve import (IDLE_EXIT, Listen, host_config, listen_for,  # noqa: F401
                                        make_host, serve, spawn_server, unix_path, unix_policy)

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

def check_unix_flags(args: argparse.Namespace) -> None:
    """``--unix`` and ``--allow`` go together, and never with passwords or TCP flags."""
    if getattr(args, "unix", None) is None:
        if getattr(args, "allow", None):
            raise CliError(_("--allow chooses who may join a --unix table; add --unix"))
        return
    problem = unix.unsupported()
    if problem:
        raise CliError(problem)
    if getattr(args, "password", None) is not None or getattr(args, "password_file", None):
        raise CliError(_("a --unix table needs no password: the kernel tells it who connects "
                         "(choose who may with --allow)"))
    if getattr(args, "name", None):
        raise CliError(_("at a --unix table your seat is named after your login; drop --name"))
    if args.port != 7777 or args.bind != "0.0.0.0":
        raise CliError(_("--port and --bind are for TCP tables, not --unix"))


#: Sits the host at a table served by a process of its own: ``play(args, rules, password)``
#: runs the host's screens and returns the exit status (``ui.netplay.play_hosted``).
Play = Callable[[argparse.Namespace, RuleSet, str | None], int]


def typed_name(raw: str) -> str:
    """A name given with ``--name``, cleaned as a table cleans it; CliError (the table's
    words) for one it would refuse."""
    try:
        return P.clean_name(raw)
    except P.ProtocolError as exc:
        raise CliError(exc.message) from None


def run_host(args: argparse.Namespace, rules: RuleSet, *, play: Play | None = None) -> int:
    """``pokeroulette host``: serve a table; sit at it too unless ``--headless`` (the table
    then runs in a process of its own, and this terminal is one of its clients, through
    ``play``; :func:`pokeroulette_tui.ui.netplay.run_host` passes the screens)."""
    check_unix_flags(args)
    if getattr(args, "stop", False):
        return stop_table(args)
    if getattr(args, "name", None) is not None:  # (refused before the table is served)
        typed_name(args.name)
    if getattr(args, "detach", False) and not args.headless:
        raise CliError(_("--detach goes with --headless (a host who plays gets a table that "
                         "runs on its own anyway)"))
    password = None if args.unix is not None else read_password(args)
    if args.headless and getattr(args, "detach", False):
        return _detach(args, rules, password)
    if args.headless:
        host = make_host(args, rules, None, password=password)
        listen = listen_for(args, host)
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                            datefmt="%H:%M:%S", stream=sys.stderr)

        def ready(where: Listen) -> None:
            for line in banner(host, where, args):
                say(line)
            say(_("Press Ctrl-C to stop."))
        try:
            server_loop.run(serve(host, listen, ready=ready))
        except (OSError, unix.UnixError) as exc:
            raise CliError(str(exc)) from None
        except KeyboardInterrupt:
            return 0
        return 0
    if play is None:
        raise CliError(_("sitting at your own table needs the terminal screens; host it "
                         "with --headless"))
    return play(args, rules, password)


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
            raise CliError(_("no table of yours listens on port {port}").format(port=args.port))
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError as exc:
        raise CliError(_("cannot stop the table (pid {pid}): {problem}").format(
            pid=pid, problem=exc.strerror)) from None
    say(_("Stopping your table (pid {pid}): everyone at it is told the host closed it.").format(
        pid=pid))
    return 0


def expected_server(args: argparse.Namespace, host: str,
                    port: int) -> tuple[int | None, str | None]:
    """Who must serve a table joined over TCP on this machine, and this account's own host
    secret for that port: ``--owner LOGIN``'s account, or this account when it holds the
    port's host secret (None: any, the first connection pins it). A card table and a casino
    table alike: to another account's port neither password nor token is sent (CliError
    for ``--owner`` off this machine or an unknown login)."""
    local = host in unix.LOOPBACK or host.startswith("127.")
    owner = getattr(args, "owner", None)
    if owner and not local:
        raise CliError(_("--owner checks who serves a table on this machine: use it with "
                         "--unix PATH or a 127.0.0.1 address"))
    admin = load_admin(port) if local else None
    if owner:
        try:
            return unix.account_named(owner).uid, admin
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
    if admin:  # the host's own secret goes only to a table this account serves
        return os.geteuid(), admin
    return None, None


def banner(host: TableHost, where: Listen, args: argparse.Namespace) -> list[str]:
    headless = _(" (headless)") if host.config.headless else ""
    players, friends, here = _("players join with:"), _("friends join with:"), \
        _("on this machine:")
    cert, crash = _("TLS certificate:"), _("after a crash:")
    width = max(map(len, (players, friends, here, cert, crash))) + 2
    draw = getattr(host.rules, "variant", "roulette") == "draw"
    if where.unix is not None:
        me = unix.account_of(os.geteuid())
        access = host.config.access
        who = access.describe() if access else pgettext("access", "you")
        if draw:
            title = _("Hosting a resumed five-card draw table on this machine for {who}") \
                if host.started else _("Hosting a five-card draw table on this machine for {who}")
        else:
            title = _("Hosting a resumed Poker Roulette table on this machine for {who}") \
                if host.started else _("Hosting a Poker Roulette table on this machine for {who}")
        lines = [title.format(who=who) + headless]
        if where.unix == unix.table_socket(me.uid):
            lines.append(f"  {players:<{width}}pokeroulette join @{me.login}")
        else:
            lines.append(f"  {players:<{width}}pokeroulette join --unix {where.unix}")
        if access is not None and access.allow is None and unix.private_group(me):
            lines.append("  " + _("your group {group} is yours alone: let players in with "
                                  "--allow LOGIN,LOGIN").format(group=access.group_name))
    else:
        bind, port = where.bind, where.port
        if draw:
            title = _("Hosting a resumed five-card draw table on {where}") if host.started \
                else _("Hosting a five-card draw table on {where}")
        else:
            title = _("Hosting a resumed Poker Roulette table on {where}") if host.started \
                else _("Hosting a Poker Roulette table on {where}")
        lines = [title.format(where=f"{bind or '*'}:{port}") + headless]
        plain = "" if where.tls else " --no-tls"
        for addr in lan_addresses(bind):
            lines.append(f"  {friends:<{width}}pokeroulette join {addr}:{port} --name NAME"
                         + plain)
        if bind in ("", "0.0.0.0", "::"):
            lines.append(f"  {here:<{width}}pokeroulette join 127.0.0.1:{port} --name NAME"
                         + plain)
        if where.tls and where.fingerprint:
            lines.append(f"  {cert:<{width}}{where.fingerprint}")
            lines.append("  " + _("(players see it on their first visit: tell them, or they "
                                  "join with --fingerprint and this value)"))
        elif not where.tls:
            lines.append("  " + _("NO TLS (--no-tls): anyone on the network sees passwords, "
                                  "tokens and cards"))
        if host.password_digest:
            lines.append("  " + _("(this table has a password: join with --password, "
                                  "--password-file FILE or {env})").format(env=PASSWORD_ENV))
    if host.table is not None and host.table.salvaged and not host.config.headless:
        # (a headless host said it on its terminal before listening; this is the lobby's)
        from pokeroulette_tui.net.serve import salvaged_note

        lines.append("  " + salvaged_note(host.table))
    if host.config.save_path is not None:
        lines.append("  " + _("saving to {path}").format(path=host.config.save_path))
        lines.append(f"  {crash:<{width}}{resume_command(host, where, args)}")
    return lines


def resume_command(host: TableHost, where: Listen, args: argparse.Namespace) -> str:
    """The command that brings this table back after a crash, served as it is now: the same
    port (the one actually bound), address, headless or not, TLS or not, socket and who may
    join it, and password file (never a password; a password asked for or taken from the
    environment need not be given again: the save keeps the table's password, as a digest).
    The table's own settings (the turn timer, the pace…) are in the save too."""
    words = ["pokeroulette", "host", "--resume", str(host.config.save_path)]
    if host.config.headless:
        words.append("--headless")
    if where.unix is not None:
        words.append("--unix")
        if getattr(args, "unix", None):
            words.append(str(where.unix))
        if getattr(args, "allow", None):
            words += ["--allow", args.allow]
    else:
        words += ["--port", str(where.port)]
        bind = getattr(args, "bind", "0.0.0.0")
        if bind != "0.0.0.0":
            words += ["--bind", bind]
        if not where.tls:
            words.append("--no-tls")
        pw_file = getattr(args, "password_file", None)
        if pw_file:
            words += ["--password-file", str(Path(pw_file).expanduser().absolute())]
    return shlex.join(words)


def known_tables():
    """The certificates this account has pinned (an owner-only file in its data folder)."""
    from pokeroulette_tui import paths
    from pokeroulette_tui.net import tls
    return tls.KnownTables(paths.data_dir() / tls.KNOWN_FILE)


def tls_options(args: argparse.Namespace) -> tuple[str | None, bool]:
    """A join's ``--fingerprint`` (checked, CliError when malformed; kept as typed, so that
    a refusal quotes it as the player gave it) and whether it uses TLS (not with
    ``--no-tls``, which a fingerprint cannot go with)."""
    fingerprint = getattr(args, "fingerprint", None)
    if fingerprint is not None:
        from pokeroulette_tui.net import tls
        try:
            tls.normal_fingerprint(fingerprint)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        fingerprint = fingerprint.strip()
    use_tls = not getattr(args, "no_tls", False)
    if not use_tls and fingerprint:
        raise CliError(_("--fingerprint checks a TLS certificate: it cannot go with --no-tls"))
    return fingerprint, use_tls


def say(line: str) -> None:
    """Print for the person at the host's terminal; a closed stdout never stops the table."""
    try:
        print(line, flush=True)
    except (OSError, ValueError):
        pass


def start_detached(args: argparse.Namespace, rules: RuleSet, password: str | None,
                    admin: str | None) -> tuple[TableHost, subprocess.Popen[bytes], Listen, Path]:
    log_file = private_log("host.log")
    log_to(log_file)
    if not args.save and not args.resume:  # the same file for the banner and the server
        args.save = str(default_save_path())
    # check what can be checked here, so that mistakes are told at once
    probe = make_host(args, rules, None, password=password)
    if args.unix is not None:
        listen_for(args, probe)
    proc, where = spawn_server(args, rules, password=password, admin=admin, log_path=log_file)
    return probe, proc, where, log_file


def stop_command(args: argparse.Namespace, where: Listen) -> str:
    if where.unix is None:
        return f"pokeroulette host --stop --port {where.port}"
    return "pokeroulette host --unix" + (f" {where.unix}" if args.unix else "") + " --stop"


def _detach(args: argparse.Namespace, rules: RuleSet, password: str | None) -> int:
    """``host --headless --detach``: the table in the background; this command returns."""
    probe, proc, where, log_file = start_detached(args, rules, password, None)
    for line in banner(probe, where, args):
        say(line)
    say(_("The table runs in the background (pid {pid}, log {log}). It closes {minutes} "
          "minutes after the last player leaves, or with: {command}").format(
        pid=proc.pid, log=log_file, minutes=f"{IDLE_EXIT / 60:.0f}",
        command=stop_command(args, where)))
    return 0


@dataclass
class HostedTable:
    """A table served by a process of its own, with the host's session at it."""

    proc: subprocess.Popen[bytes]
    session: RemoteSession
    banner: list[str]   # what the host's terminal is told (printed, and shown in the lobby)
    back: str           # the command that comes back to the table
    stop: str           # the command that stops it
    resume: str = ""    # the command that brings the table back after a crash ("": no save)

    def after_screen(self) -> None:
        """The host's screen closed: stop the table unless others still play at it; a
        table whose process ended by itself (killed, crashed) is told how to come back."""
        if self.proc.poll() is not None:
            say(lost_words(self.session, self.come_back()))
            return
        after_screen(self.proc, self.session, self.back, self.stop)

    def gone(self) -> bool:
        """The table's process ended (killed, crashed, stopped)."""
        return self.proc.poll() is not None

    def come_back(self) -> str:
        """How the host gets back to a table this terminal lost for good: while its process
        runs, the seat back; once it ended, its "after a crash" command first."""
        code = self.proc.poll()
        if code is None:  # the table runs: only this connection is gone
            return come_back(self.back)
        # (a negative status is the signal that ended it: -9 is "killed by signal 9")
        how = _("killed by signal {n}").format(n=-code) if code < 0 else \
            _("exit status {code}").format(code=code)
        if not self.resume:
            return _("The table's process ended ({how}); it kept no save, so it "
                     "cannot be brought back.").format(how=how)
        return _("The table's process ended ({how}). Bring the table back "
                 "with: {command}\nIf it is back already, come back to your seat with: "
                 "{back}").format(how=how, command=self.resume, back=self.back)


def serve_and_sit(args: argparse.Namespace, rules: RuleSet, password: str | None) -> HostedTable:
    """Start the table in a process of its own and make the host's session at it."""
    admin = None if args.unix is not None else secrets.token_urlsafe(24)
    probe, proc, where, __ = start_detached(args, rules, password, admin)
    me = unix.account_of(os.geteuid()) if where.unix is not None else None
    if where.unix is not None:
        session = RemoteSession("", 0, me.seat_name(), unix=unix.Target(where.unix, me))
        back = "pokeroulette join @me" if where.unix == unix.table_socket(me.uid) else \
            f"pokeroulette join --unix {where.unix}"
    else:
        name = args.name
        if name is None and probe.started:
            name = next((p.name for p in probe.players if p.host), None)
        name = name or "Host"
        store_admin(where.port, admin or "")
        port = where.port
        # the seat's resume token is kept like a player's, so that ``back`` takes the seat
        # back at this table served again without this secret (resumed --headless)
        session = RemoteSession("127.0.0.1", port, name, admin=admin,
                                password=password, server_uid=os.geteuid(), tls=where.tls,
                                fingerprint=where.fingerprint or None,
                                on_token=lambda t: store_token("127.0.0.1", port, name, t))
        back = rejoin_command(session)
    lines = banner(probe, where, args)
    lines.append("  " + _("the table runs on its own (pid {pid}); if this terminal is lost, "
                          "come back with: {command}").format(pid=proc.pid, command=back))
    resume = resume_command(probe, where, args) if probe.config.save_path is not None else ""
    return HostedTable(proc, session, lines, back, stop_command(args, where), resume)


def rejoin_command(session: RemoteSession) -> str:
    """The command that takes this session's seat back (or watches again): this account
    keeps the seat's resume token (and a host's secret), so nothing else need be given."""
    if session.unix is not None:
        target = session.unix
        if Path(target.path) == unix.table_socket(target.owner.uid):
            return f"pokeroulette join @{target.owner.login}" + (
                " --spectate" if session.spectate else "")
        words = ["pokeroulette", "join", "--unix", str(target.path)]
    else:
        words = ["pokeroulette", "join", session.address, "--name", session.name]
        if not session.tls:
            words.append("--no-tls")
    if session.spectate:
        words.append("--spectate")
    return shlex.join(words)


def place(session: RemoteSession) -> str:
    """Where the table is, to go after "the table at": ``host:port``, or a ``--unix``
    socket's path (its "alice's table (…)" reads wrongly there)."""
    unix = getattr(session, "unix", None)
    return str(unix.path) if unix is not None else session.address


def left_words(address: str, back: str = "", *, what: str = "", watch: str = "") -> str:
    """What a player who left a network table on purpose is told at the terminal: the
    table, and (``back``: the seat is held) how to sit down again, or (``watch``: watching
    a game still going on) how to watch it again. ``what`` says what the table is
    ("casino": the casino's bankrolls are the table's)."""
    if what == "casino":
        words = _("You left the casino table at {address}. Its bankrolls are the table's: "
                  "play money only.").format(address=address)
    else:
        words = _("You left the table at {address}.").format(address=address)
    if back:
        words += " " + _("Your seat is held: come back with: {command}").format(command=back)
    elif watch:
        words += " " + come_back(watch, watching=True)
    return words


def come_back(back: str, *, watching: bool = False, joining: bool = False) -> str:
    """The line that says how to take a seat back (this account keeps the resume token:
    a seat "taken" by another connection, another terminal of the same player or a table
    served again, is taken back the same way); ``watching``: how to watch again;
    ``joining``: how to join again (no seat is held before the game starts)."""
    if watching:
        return _("To watch again, type: {command}").format(command=back)
    if joining:
        return _("To join again, type: {command}").format(command=back)
    return _("To take your seat back, type: {command}").format(command=back)


def lost_words(session: RemoteSession, hint: str) -> str:
    """What a player whose connection ended for good (not by leaving) is told at the
    terminal: why (:attr:`RemoteSession.end_reason`), then ``hint``."""
    # (quit while it tried again: nothing ended it but this terminal)
    note = "" if session.reconnecting else session.end_reason
    if not note:
        note = _("the connection to the table was lost")
    return _("The connection to the table at {address} ended: {why}").format(
        address=place(session), why=note) + ("\n" + hint if hint else "")


def after_screen(proc: subprocess.Popen[bytes], session: RemoteSession, back: str,
                 stop: str) -> None:
    """The host's screen closed: the table keeps running if others still play at it, or if
    the terminal was lost (the host comes back with ``back``)."""
    if proc.poll() is not None:
        return
    if terminal_lost():
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
        say(_("The table is still running for {names} (pid {pid}). Come back with: {back}; "
              "stop it with: {stop}. It closes by itself {minutes} minutes after the last "
              "player leaves.").format(names=", ".join(map(str, others)), pid=proc.pid,
                                       back=back, stop=stop, minutes=f"{IDLE_EXIT / 60:.0f}"))
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def terminal_lost() -> bool:
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

def join_session(args: argparse.Namespace) -> tuple[RemoteSession, list[str]]:
    """The RemoteSession ``join``'s flags ask for (raises CliError)."""
    address = (args.address or "").strip()
    if address.startswith("@") or getattr(args, "unix", None):
        if address and not address.startswith("@"):
            raise CliError(_("give either an address or --unix PATH, not both"))
        problem = unix.unsupported()
        if problem:
            raise CliError(problem)
        if args.name:
            raise CliError(_("at a table on this machine your seat is named after your login; "
                             "drop --name"))
        if getattr(args, "password", None) is not None or getattr(args, "password_file", None):
            raise CliError(_("a table on this machine needs no password: the kernel tells it "
                             "who you are"))
        try:
            target = unix.target_for(address[1:]) if address else \
                unix.target_at(args.unix, getattr(args, "owner", None))
            unix.check_target(target)  # nobody there, or not theirs: say so before any screen
        except unix.UnixError as exc:
            raise CliError(str(exc)) from None
        me = unix.account_of(os.geteuid())
        session = RemoteSession("", 0, me.seat_name(), unix=target,
                                spectate=bool(args.spectate))
        # a whole sentence (not "Joining {table}" around "{login}'s table": in Finnish the
        # two halves do not go together)
        return session, [_("Joining {login}'s table ({path}) as {name}").format(
            login=target.owner.login, path=target.path, name=me.login)]
    if not address:
        raise CliError(_("join what? `pokeroulette join @LOGIN` (a table on this machine) or "
                         "`pokeroulette join HOST[:PORT] --name NAME`"))
    try:
        host, port = parse_address(address)
    except ConnectError as exc:
        raise CliError(str(exc)) from None
    if not args.name:
        raise CliError(_("join HOST[:PORT] needs --name NAME (your name at the table)"))
    name = typed_name(args.name)
    server_uid, admin = expected_server(args, host, port)
    password = read_password(args)
    token = None if args.spectate else load_token(host, port, name)
    fingerprint, use_tls = tls_options(args)
    session = RemoteSession(host, port, name, password=password, token=token,
                            spectate=bool(args.spectate), admin=admin, server_uid=server_uid,
                            on_token=lambda t: store_token(host, port, name, t),
                            tls=use_tls, fingerprint=fingerprint, known=known_tables())
    return session, [_("Joining {table} as {name}").format(table=f"{host}:{port}", name=name)]
