"""``pokeroulette host`` and ``pokeroulette join`` at the terminal: the lobby, then the table.

The network side (flags, the served table, the session) is :mod:`pokeroulette_tui.net.launch`;
this module only runs the screens on top of it. The screens load when they are shown, so
``host --headless`` or a mistaken flag never loads Textual.
"""

from __future__ import annotations

import argparse

from pokeroulette_tui.engine.i18n import _
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import launch


def run_host(args: argparse.Namespace, rules: RuleSet) -> int:
    """``pokeroulette host``: serve a table, and sit at it unless ``--headless``."""
    return launch.run_host(args, rules, play=play_hosted)


def play_hosted(args: argparse.Namespace, rules: RuleSet, password: str | None) -> int:
    """The host sits at the table, which runs in a process of its own: the lobby, then the
    table; when the screen closes the table stops, unless others still play at it."""
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    hosted = launch.serve_and_sit(args, rules, password)
    for line in hosted.banner:
        launch.say(line)
    # (the host's terminal is told by after_screen: whether the table goes on, or, its
    # process gone, the command that brings it back)
    app = LobbyApp(AppConfig.load(), hosted.session, info=hosted.banner, back=hosted.back,
                   lost=hosted.come_back, table_gone=hosted.gone)
    try:
        app.run()
    finally:
        hosted.after_screen()
    return app.return_code or 0


def reachable(host: str, port: int, timeout: float = 5.0) -> str:
    """"" when something listens at ``host:port``, else what is wrong, in words."""
    import errno
    import socket

    where = f"{host}:{port}"
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return ""
    except (socket.gaierror, UnicodeError):  # (UnicodeError: a name no resolver could take)
        return _("cannot join {address}: there is no machine called {host}").format(
            address=where, host=repr(host))
    except (TimeoutError, socket.timeout):
        return _("cannot join {address}: no answer in {seconds} s (is the address right, "
                 "and does a firewall let the port through?)").format(
            address=where, seconds=f"{timeout:g}")
    except OSError as exc:
        if exc.errno == errno.ECONNREFUSED:
            return _("cannot join {address}: nothing is listening there (is the table "
                     "running, and is this its port?)").format(address=where)
        if exc.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
            return _("cannot join {address}: that machine cannot be reached from here").format(
                address=where)
        return _("cannot join {address}: {problem}").format(address=where,
                                                            problem=exc.strerror or exc)


def run_join(args: argparse.Namespace) -> int:
    """``pokeroulette join HOST[:PORT] --name NAME`` (TCP), or ``join @LOGIN`` /
    ``join --unix PATH`` (a table on this machine): the lobby, then the table."""
    session, info = launch.join_session(args)  # a mistake is told before any screen
    if session.unix is None:
        problem = reachable(session.host, session.port)
        if problem:  # said in one line, before the full screen opens
            from pokeroulette_tui.errors import CliError
            raise CliError(problem)
    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.lobby import LobbyApp

    launch.log_to(launch.private_log("join.log"))
    app = LobbyApp(AppConfig.load(), session, info=info, back=launch.rejoin_command(session))
    app.run()
    if app.farewell:  # left (the seat held: how to come back), or the table lost: why, and how
        launch.say(app.farewell)  # (unwrapped: the terminal's own wrapping copies whole)
    return app.return_code or 0
