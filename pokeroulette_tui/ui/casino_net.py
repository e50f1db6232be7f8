"""The casino at a network table: the app a player (or the host who plays) runs.

:class:`CasinoNetApp` connects its :class:`~pokeroulette_tui.net.casino_client.RemoteCasino`
and shows the ordinary :class:`~pokeroulette_tui.ui.casino.CasinoScreen` on it. A host who
plays serves the table from this same app (:func:`play_casino_hosted`): the server runs on
the app's event loop, and leaving closes the table for everyone (they are told).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.errors import CliError
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.client import ConnectError
from pokeroulette_tui.ui.casino import APP_KEYS, CasinoAppKeys, CasinoScreen
from pokeroulette_tui.ui.plain import plain


class CasinoNetApp(CasinoAppKeys, App[None]):
    """A seat at a network casino table (and, for its host, the table's server)."""

    TITLE = N_("Poker Roulette casino")
    ENABLE_COMMAND_PALETTE = False
    HORIZONTAL_BREAKPOINTS = [(120, "-wide")]
    BINDINGS = APP_KEYS
    CSS = "#casino-connecting { padding: 1 2; }"

    def __init__(self, session: RemoteCasino, *, info: Sequence[str] = (), serve: Any = None,
                 theme: str = "dark", four_color: bool = False) -> None:
        """``serve``: an async callable that starts the table's server and returns it (a
        host who plays), called before connecting."""
        from pokeroulette_tui.ui.styles import css_paths

        super().__init__(css_path=css_paths(theme))
        self.session = session
        self.info = info if isinstance(info, list) else list(info)  # (serve may fill in the port)
        self._serve = serve
        self.server: Any = None
        self._theme_name = theme
        self.four_color = four_color
        self.casino_screen: CasinoScreen | None = None
        self.farewell = ""
        self._asking = False  # the host's "close the table?" is on screen

    def compose(self) -> ComposeResult:
        yield Static(plain("\n".join([*self.info, "", _("Connecting to {address}…").format(
            address=self.session.address)])), id="casino-connecting")

    async def on_mount(self) -> None:
        self.theme = "textual-light" if self._theme_name == "light" else "textual-dark"
        self.title = _(self.TITLE)
        self.run_worker(self._start(), exclusive=True, group="connect")

    async def _start(self) -> None:
        try:
            if self._serve is not None:
                try:
                    self.server = await self._serve()
                except (ConnectError, OSError) as exc:
                    self.exit(message=_("Could not open the casino table: {problem}").format(
                        problem=exc), return_code=1)
                    return
            await self.session.connect()
        except (ConnectError, OSError) as exc:
            await self._stop_server()
            self.exit(message=_("Could not join the casino table: {problem}").format(
                problem=exc), return_code=1)
            return
        except CliError as exc:  # (the server's TLS certificate could not be made or read)
            await self._stop_server()
            self.exit(message=str(exc), return_code=1)
            return
        self.casino_screen = CasinoScreen(session=self.session, four_color=self.four_color)
        await self.push_screen(self.casino_screen)
        if self._serve is not None:  # the host: how the others join
            joins = table_lines(self.info)
            # (the certificate too: the others check it; the card table's host has it over
            # the lobby, this one with the results, for as long as the table is open)
            self.casino_screen.table_lines = joins
            self.casino_screen.refresh_view()
            # the toast says only the join command, briefly: the whole lines (the certificate
            # too) are under the board while the host is alone, and in ? (a toast of them all
            # covered that very panel for 20 s at 80x24)
            self.notify(joins[0] if joins else self.info[0], title=_("Your casino table"),
                        timeout=8, markup=False)
        elif self.session.tls_note:
            self.notify(self.session.tls_note, timeout=8, markup=False)

    async def _stop_server(self) -> None:
        if self.server is not None:
            server, self.server = self.server, None
            await server.close()

    async def action_quit(self) -> None:
        """Leave the table; a host who plays, with others at it, is asked first (leaving
        closes the table for everyone)."""
        if self._asking:
            return  # (q or ctrl+q again while the question is up: it is answered y or n)
        others = self.others_connected()
        if self.server is not None and others:
            from pokeroulette_tui.ui.screens.casino_dialogs import ConfirmScreen

            async def answered(yes: bool | None) -> None:
                self._asking = False
                if yes:
                    await self._leave()

            self._asking = True
            self.push_screen(ConfirmScreen(ngettext(
                "Leave and close the table? {names} is still at it (and will be told).",
                "Leave and close the table? {names} are still at it (and will be told).",
                len(others)).format(names=", ".join(others))), answered)
            return
        await self._leave()

    def others_connected(self) -> list[str]:
        """The names of the other players connected to this table now."""
        screen = self.casino_screen
        if screen is None or not self.session.casino.players:
            return []
        return [p.name for i, p in enumerate(self.session.casino.players)
                if i != screen.seat and self.session.seat_info(i).connected]

    async def _leave(self) -> None:
        screen = self.casino_screen
        words = await screen.leave() if screen is not None else ""
        if self.server is not None:
            await self._stop_server()
            words = (words + " " if words else "") + _("The casino table is closed.")
        self.exit(message=words or None)


def table_lines(info: Sequence[str]) -> list[str]:
    """What a host who plays keeps in view while the table is open: how the others join
    (the first two such lines of the banner) and the TLS certificate they check."""
    from pokeroulette_tui.net.casino_launch import join_lines

    cert = _("TLS certificate:")
    lines = [*join_lines(list(info))[:2], *(line for line in info
                                            if line.strip().startswith(cert))]
    return [" ".join(line.split()) for line in lines]  # (the banner's columns: no room)


def run_casino_join(session: RemoteCasino, info: Sequence[str]) -> int:
    from pokeroulette_tui.net import launch
    from pokeroulette_tui.ui.config import AppConfig

    config = AppConfig.load()
    launch.log_to(launch.private_log("join.log"))
    app = CasinoNetApp(session, info=info, theme=config.theme,
                       four_color=bool(config.four_color))
    app.run()
    return app.return_code or 0


def play_casino_hosted(args: argparse.Namespace, config: Any, password: str | None) -> int:
    """The host sits at their own casino table, served from this process."""
    from pokeroulette_tui.net import launch
    from pokeroulette_tui.net.casino_host import CasinoHost
    from pokeroulette_tui.net.casino_launch import banner
    from pokeroulette_tui.net.serve import Listen, start
    from pokeroulette_tui.net.server import Server
    from pokeroulette_tui.ui.config import AppConfig, login_name

    host = CasinoHost(config)
    name = args.name or login_name()
    use_tls = not args.no_tls
    fingerprint = ""
    if use_tls:  # (the server reads the same certificate when it starts)
        from pokeroulette_tui import paths
        from pokeroulette_tui.net import tls
        try:
            fingerprint = tls.host_identity(paths.data_dir()).fingerprint
        except (OSError, ValueError) as exc:
            from pokeroulette_tui.errors import CliError
            raise CliError(_("cannot make or read the table's TLS certificate: {problem}").format(
                problem=exc)) from None
    session = RemoteCasino("127.0.0.1", args.port, name, password=password, tls=use_tls,
                           fingerprint=fingerprint or None)
    lines = banner(config, args.bind, args.port, tls=use_tls, fingerprint=fingerprint,
                   headless=False)
    lines.append("  " + _("the table closes when you leave it (q)"))
    for line in lines:
        launch.say(line)

    async def serve() -> Server:
        server = Server(host)
        try:
            where = await start(server, Listen(bind=args.bind, port=args.port, tls=use_tls))
        except OSError as exc:
            raise ConnectError(_("cannot listen on {where}: {problem}").format(
                where=f"{args.bind}:{args.port}", problem=exc.strerror or exc)) from None
        session.port = where.port
        if where.port != args.port:  # --port 0: tell the others the port it picked
            lines[:] = [*banner(config, args.bind, where.port, tls=use_tls,
                                fingerprint=fingerprint, headless=False), lines[-1]]
        return server

    launch.log_to(launch.private_log("host.log"))
    app_config = AppConfig.load()
    app = CasinoNetApp(session, info=lines, serve=serve, theme=app_config.theme,
                       four_color=bool(app_config.four_color))
    app.run()
    return app.return_code or 0
