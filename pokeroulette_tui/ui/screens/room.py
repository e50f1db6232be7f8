"""The SSH card room's first screen: the tables (preset, seats, players, watching); open a
new one with the table agreement screen, join one, or watch. And the app an SSH session
runs (:class:`RoomApp`): the room, then a table's lobby and the table itself, then back.

Names come from other people: they are shown as ``Text``, never as markup.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from pokeroulette_tui.engine.i18n import N_, _, ngettext, pgettext
from pokeroulette_tui.ui.config import _RUNTIME, AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp
from pokeroulette_tui.ui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from pokeroulette_tui.net.identity import Account
    from pokeroulette_tui.net.ssh.room import Room
    from pokeroulette_tui.net.ssh.terminal import Terminal
    from pokeroulette_tui.ui.config import TableSetup


@dataclass
class RoomUserConfig(AppConfig):
    """One SSH player's settings (theme, four colours, pace, language …, and true colour,
    which ssh does not tell the server), kept under the room's data folder, never in the
    server account's own settings. ``language`` "" means the server's language."""

    truecolor: bool = False
    path: Path | None = field(default=None, metadata=_RUNTIME)

    @classmethod
    def for_user(cls, folder: Path | None, key: str) -> RoomUserConfig:
        path = None if folder is None else folder / f"{key}.json"
        config = cls()
        if path is not None:
            with contextlib.suppress(OSError, ValueError, TypeError):
                data = json.loads(path.read_text(encoding="utf-8"))
                known = {f.name: f for f in fields(cls) if not f.metadata.get("runtime")}
                for k, v in data.items():
                    if k in known and isinstance(v, type(getattr(config, k))):
                        setattr(config, k, v)
        config.path = path
        config.autosave = False  # (no local tables here)
        return config

    def save(self) -> None:
        if self.path is None:
            return
        from pokeroulette_tui.engine.folders import atomic_write

        data = {f.name: getattr(self, f.name) for f in fields(self)
                if not f.metadata.get("runtime") and f.name != "last_setup"}
        with contextlib.suppress(OSError):
            atomic_write(self.path, json.dumps(data, indent=1))


@contextlib.contextmanager
def client_environ(env: Mapping[str, str]) -> Iterator[None]:
    """For the (synchronous) making of one app: the client's TERM, COLORTERM and NO_COLOR
    in place of the server's. Textual and Rich read them when an app is made."""
    keys = ("TERM", "COLORTERM", "NO_COLOR")
    saved = {k: os.environ.get(k) for k in keys}
    try:
        for k in keys:
            if env.get(k) is not None:
                os.environ[k] = env[k]
            else:
                os.environ.pop(k, None)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


COLUMNS = ("#", N_("Preset"), N_("Seats"), N_("Players"), N_("Watching"), N_("State"))
"""The headings of the room's list."""


def state_words(state: str) -> str:
    """A table's state (``RoomTable.summary``) in words."""
    words = {"lobby": pgettext("table state", "waiting for players"),
             "playing": pgettext("table state", "playing"),
             "over": pgettext("table state", "game over")}
    return words.get(state, state)


def table_rows(listing: list[dict[str, Any]]) -> list[tuple[Text, ...]]:
    """The room's tables as rows of plain ``Text`` (a player's name stays literal); the
    variant is a preset's name, said as typed.

    >>> [str(c) for c in table_rows([{"number": 3, "variant": "classic", "seats": 6,
    ...     "min": 3, "players": ["ana"], "bots": 2, "watching": 1, "state": "lobby"}])[0]]
    ['3', 'classic', '3/6', 'ana + 2 bots', '1', 'waiting for players']
    """
    rows = []
    for t in listing:
        seated = len(t["players"]) + t["bots"]
        who = ", ".join(t["players"]) or _("nobody")
        if t["bots"]:
            who = ngettext("{players} + {n} bot", "{players} + {n} bots", t["bots"]).format(
                players=who, n=t["bots"])
        state = state_words(t["state"])
        rows.append((Text(str(t["number"])), Text(t["variant"]), Text(f"{seated}/{t['seats']}"),
                     Text(who), Text(str(t["watching"])), Text(state)))
    return rows


class RoomScreen(Screen[None]):
    """The tables of the room: n opens one, Enter joins, w watches, g changes the language
    (this player's: saved in their settings; see :func:`~pokeroulette_tui.engine.i18n.own_language`)."""

    BINDINGS = [
        Binding("n", "new", N_("New table")),
        Binding("enter,j", "join", N_("Join")),
        Binding("w", "watch", N_("Watch")),
        Binding("g", "app.next_language", N_("Language")),
        Binding("t", "truecolor", N_("True colour"), show=False),
        Binding("q", "app.quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    RoomScreen { layout: vertical; }
    RoomScreen #room-head { height: auto; padding: 0 1; }
    RoomScreen #room-tables { height: 1fr; }
    RoomScreen #room-note { height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="room-head")
        yield DataTable(id="room-tables", cursor_type="row", zebra_stripes=True)
        yield Static("", id="room-note")
        yield TidyFooter()

    def on_mount(self) -> None:
        self._say_words()
        self.refresh_tables()
        self.set_interval(1.0, self.refresh_tables)

    def _say_words(self) -> None:
        """The heading and the list's column names, in the language spoken now."""
        app: RoomApp = self.app  # type: ignore[assignment]
        head = Text(_("Poker Roulette · the card room") + "\n", style="bold")
        if app.watcher:
            head.append(_("You are watching: choose a table and press Enter or w."))
        else:
            head.append(_("Welcome, {name}. n opens a table · Enter joins · w watches · "
                          "q leaves the room").format(name=app.account.login))
        self.query_one("#room-head", Static).update(head)
        grid = self.query_one(DataTable)
        grid.clear(columns=True)
        grid.add_columns(*(_(c) for c in COLUMNS))

    async def retranslate(self) -> None:
        """The language was switched (g): say the heading, the columns and the list again."""
        self._say_words()
        self._shown = None
        self._note("")
        self.refresh_tables()

    _shown: list[dict[str, Any]] | None = None

    def refresh_tables(self) -> None:
        """Redraw the list when the room has changed (many sessions share one process:
        an unchanged list costs nothing)."""
        app: RoomApp = self.app  # type: ignore[assignment]
        listing = app.room.listing()
        if listing == self._shown:
            return
        self._shown = listing
        grid = self.query_one(DataTable)
        chosen = self._chosen()
        grid.clear()
        for t, row in zip(listing, table_rows(listing)):
            grid.add_row(*row, key=str(t["number"]))
        if chosen is not None and str(chosen) in {str(t["number"]) for t in listing}:
            with contextlib.suppress(Exception):
                grid.move_cursor(row=grid.get_row_index(str(chosen)))
        if not listing:
            self._note(_("No tables yet.") if app.watcher
                       else _("No tables yet. Press n to open one."))
            self._empty_note = True
        elif self._empty_note:  # a table has opened: "no tables yet" is no longer true
            self._note("")

    def _chosen(self) -> int | None:
        grid = self.query_one(DataTable)
        if not grid.row_count:
            return None
        with contextlib.suppress(Exception):
            key = grid.coordinate_to_cell_key(grid.cursor_coordinate).row_key
            return int(str(key.value))
        return None

    _empty_note = False

    def _note(self, text: str) -> None:
        self._empty_note = False
        self.query_one("#room-note", Static).update(Text(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("new", "join") and getattr(self.app, "watcher", False):
            return False
        return True

    def action_new(self) -> None:
        from pokeroulette_tui.ui.config import TableSetup
        from pokeroulette_tui.ui.screens.setup import SetupScreen

        setup = TableSetup.default()
        if setup.seats and setup.seats[0].bot is None:  # the first seat: the one who opens it
            setup.seats[0].name = self.app.account.login  # type: ignore[attr-defined]
        # no preset saving (the server's folder, shared) and no shuffle seed (not used here)
        self.app.push_screen(SetupScreen(setup, shared_server=True), self._created)

    def _created(self, setup: TableSetup | None) -> None:
        if setup is None:
            return
        from pokeroulette_tui.net.ssh.room import RoomError

        app: RoomApp = self.app  # type: ignore[assignment]
        bots = [s for s in setup.seats if s.bot is not None]
        try:
            table = app.room.create(app.account.login, setup.rules, variant=setup.preset,
                                    bots=len(bots), bot_level=bots[0].bot if bots else "simple")
        except RoomError as exc:
            self._note(str(exc))
            return
        app.sit(table.number, spectate=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        self._go(spectate=bool(getattr(self.app, "watcher", False)))

    def action_watch(self) -> None:
        self._go(spectate=True)

    def _go(self, *, spectate: bool) -> None:
        number = self._chosen()
        if number is None:
            self._note(_("No table chosen.") if self.app.watcher  # type: ignore[attr-defined]
                       else _("No table chosen. Press n to open one."))
            return
        self.app.sit(number, spectate=spectate)  # type: ignore[attr-defined]

    def action_truecolor(self) -> None:
        config: RoomUserConfig = self.app.config  # type: ignore[attr-defined]
        config.truecolor = not config.truecolor
        config.save()
        self.notify(_("True colour on from your next visit (or send COLORTERM=truecolor)")
                    if config.truecolor else
                    _("True colour off from your next visit (or send COLORTERM=truecolor)"),
                    markup=False)


class RoomApp(LobbyApp):
    """The app of one SSH session: the room, a table's lobby, the table; leaving a table
    comes back to the room."""

    WATCH_TERMINAL = False  # the server's terminal is not this player's

    def __init__(self, config: RoomUserConfig, room: Room, account: Account,
                 terminal: Terminal, *, watcher: bool = False,
                 env: Mapping[str, str] | None = None) -> None:
        env = dict(env or {})
        if config.truecolor and not env.get("COLORTERM"):
            env["COLORTERM"] = "truecolor"
        with client_environ(env):
            super().__init__(config, None, info=[])  # type: ignore[arg-type]
        self.room = room
        self.account = account
        self.terminal = terminal
        self.watcher = watcher
        self._hung_up = False
        from pokeroulette_tui.ui.ssh_driver import ChannelDriver
        self.driver_class = ChannelDriver

    def _start_screen(self) -> Screen:  # type: ignore[override]
        return RoomScreen()

    def can_start_new(self) -> bool:
        return True

    def sit(self, number: int, *, spectate: bool) -> None:
        """Sit down at (or watch) table ``number``: its lobby, then the table."""
        from pokeroulette_tui.net.ssh.room import RoomError

        try:
            session = self.room.session(number, self.account, spectate=spectate or self.watcher)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.open_table(session)

    def hang_up(self) -> None:
        """The SSH connection is gone: end at once (the seat is held at the table)."""
        self._hung_up = True
        super().exit()

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        if self.session is not None and not self._hung_up:  # a table's "leave": the room
            self.call_later(self.back_to_start)
            return
        super().exit(result, return_code, message)

    async def close_session(self) -> None:
        """Stop the table session; after a hang-up without a goodbye (the others read that
        the connection was lost; the seat is held either way)."""
        if self._hung_up and self.session is not None:
            self.session.connected = False  # type: ignore[attr-defined]
        await super().close_session()

    async def action_quit(self) -> None:
        if self.session is not None and not self._hung_up:
            await self.back_to_start()
            return
        super().exit()
