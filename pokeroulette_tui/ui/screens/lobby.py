"""The network lobby: seats, who is ready, the host's rules (the table agreement), bots, chat.

Names and chat come from other people: they are shown as ``Text``, never as markup.
When the server deals the first hand the lobby hands the session to ``app.open_table``.
"""

from __future__ import annotations

import asyncio

from typing import Any, Callable, Sequence

from rich.table import Table as RichTable
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, RichLog, Static

from pokeroulette_tui.bots import level_words
from pokeroulette_tui.engine.actions import IllegalAction
from pokeroulette_tui.engine.i18n import N_, _, language
from pokeroulette_tui.engine.rules import RuleSet, describe_rules
from pokeroulette_tui.net.client import ConnectError, RemoteSession
from pokeroulette_tui.net.messages import heard
from pokeroulette_tui.session import Session
from pokeroulette_tui.ui.app import PokerApp
from pokeroulette_tui.ui.widgets.chat import chat_text
from pokeroulette_tui.ui.widgets.footer import TidyFooter
from pokeroulette_tui.ui.widgets.typed_input import TypedInput


def seats_table(lobby: dict[str, Any]) -> RichTable:
    """The seats as a table of plain ``Text`` cells (a name like ``[red]`` stays literal)."""
    t = RichTable(box=None, show_header=True, header_style="bold", expand=True, pad_edge=False)
    t.add_column("#", width=3)
    t.add_column(_("Player"), ratio=1)
    t.add_column(_("Status"), width=24)
    you = lobby.get("you")
    for s in lobby.get("seats", []):
        name = Text(str(s.get("name", "?")), style="bold" if s.get("seat") == you else "")
        if s.get("host"):
            name.append(" " + _("(host)"), style="italic")
        if s.get("seat") == you:
            name.append(" " + _("← you"), style="italic")
        if s.get("bot"):
            status = Text(_("bot ({level})").format(level=level_words(str(s["bot"]))), style="dim")
        elif s.get("left"):
            status = Text(_("left"), style="dim")
        elif not s.get("connected"):
            status = Text(_("disconnected (seat held)"), style="italic")
        elif s.get("away"):
            status = Text(_("away"), style="italic")
        elif lobby.get("started"):
            status = Text(_("playing"))
        else:
            status = Text(_("ready ✓") if s.get("ready") or s.get("host") else _("not ready"),
                          style="bold" if s.get("ready") else "")
        t.add_row(Text(str(int(s.get("seat", 0)) + 1)), name, status)
    return t


def lobby_summary(lobby: dict[str, Any], width: int | None = None) -> Text:
    """Two lines: who is here and the turn timer, then whether the game can start.

    With ``width`` the first line fits it: parts are left out whole, the least needed first,
    until it does: the players the game takes (the rules say it too), then the turn timer.
    How many are seated stays, and so does how many watch (said nowhere else).

    >>> lobby = {"seats": [{}] * 4, "min_players": 3, "max_players": 10, "spectators": 1}
    >>> print(lobby_summary(lobby).plain.splitlines()[0])
    4 seated · 3–10 players · no turn timer · 1 watching
    >>> print(lobby_summary(lobby, width=43).plain.splitlines()[0])
    4 seated · no turn timer · 1 watching
    >>> print(lobby_summary(lobby, width=30).plain.splitlines()[0])
    4 seated · 1 watching
    """
    timeout = lobby.get("turn_timeout") or 0
    parts: list[str | None] = [
        _("{n} seated").format(n=len(lobby.get("seats", []))),
        _("{lo}–{hi} players").format(lo=lobby.get('min_players', '?'),
                                      hi=lobby.get('max_players', '?')),
        _("turn timer {seconds} s").format(seconds=f"{timeout:g}") if timeout
        else _("no turn timer"),
        _("{n} watching").format(n=lobby['spectators']) if lobby.get("spectators") else None,
    ]

    def line() -> str:
        return " · ".join(part for part in parts if part)

    for drop in (1, 2):  # (the least needed first)
        if width is None or Text(line()).cell_len <= width:
            break
        parts[drop] = None
    out = Text(line())
    problem = lobby.get("start_problem") or ""
    out.append("\n")
    starts_in = lobby.get("starts_in")
    you = lobby.get("you")
    me = next((s for s in lobby.get("seats", []) if you is not None and s.get("seat") == you),
              None)
    if problem:  # the host's words: said again in this player's language when known
        out.append(_("Not ready to deal: {problem}").format(problem=heard(problem)),
                   style="italic")
    elif isinstance(starts_in, (int, float)) and starts_in > 0:
        out.append(_("Everyone is ready: dealing in {seconds} s (unless someone joins)").format(
            seconds=f"{starts_in:.0f}"), style="bold")
    elif me is not None and not (me.get("ready") or me.get("host")):
        # (the leader: nothing stops its start but its own ready, which starting gives)
        out.append(_("Everyone else is ready: s starts the game at once"), style="bold")
    elif lobby.get("headless"):
        out.append(_("Everyone is ready: dealing…"), style="bold")
    else:
        out.append(_("Ready to deal: the host can start"), style="bold")
    return out


class LobbySummary(Static):
    """:func:`lobby_summary` as wide as the seats' column (its first line never wraps)."""

    lobby: dict[str, Any] = {}

    def show(self, lobby: dict[str, Any]) -> None:
        self.lobby = lobby
        self.update(lobby_summary(lobby, self.content_size.width or None))

    def on_resize(self) -> None:
        self.show(self.lobby)


def rules_lines(lobby: dict[str, Any]) -> Text:
    """The host's rules, a line each: in English as the host wrote them, in another language
    described here from the rules themselves (the host's lines are in the host's language)."""
    lines = lobby.get("rules_text")
    if language() != "en" and isinstance(lobby.get("rules"), dict):
        try:
            lines = describe_rules(RuleSet.from_dict(lobby["rules"]))
        except Exception:  # rules this version does not know: the host's own words
            pass
    if not isinstance(lines, list):
        try:
            lines = describe_rules(RuleSet.from_dict(lobby.get("rules", {})))
        except Exception:
            lines = []
    out = Text()
    for line in lines:
        out.append("• " + str(line) + "\n")
    out.rstrip()
    return out


def connection_line(session: RemoteSession) -> str:
    """How this connection is protected, in words (the lobby's info lines). A session that
    says it in its own words (``connection_note``: the SSH room's) is taken at its word."""
    note = getattr(session, "connection_note", None)
    if callable(note):
        return note()
    if session.unix is not None:
        return _("Connection: this machine's Unix socket (the kernel vouches for both ends)")
    if not session.tls:
        return _("Connection: PLAIN TCP, NO TLS: others on the network can read it")
    pinned = session.fingerprint or (session.known.get(session.address)
                                     if session.known is not None else None)
    if pinned:
        return _("Connection: TLS, certificate {fingerprint}").format(fingerprint=pinned)
    return _("Connection: TLS")


def crash_command(info: Sequence[str]) -> str:
    """The host's "after a crash" command in the banner's lines ("" when there is none)."""
    crash = _("after a crash:")
    for line in info:
        if line.strip().startswith(crash):
            return line.strip()[len(crash):].strip()
    return ""


class BannerScreen(ModalScreen[None]):
    """The whole banner of the lobby (at 80x24 its box shows a few lines), in a box the keys
    scroll, the long commands wrapped whole; c copies the "after a crash" command."""

    BINDINGS = [Binding("escape,i,q,enter", "close", N_("Close")),
                Binding("c", "copy", N_("Copy the crash command"))]
    DEFAULT_CSS = """
    BannerScreen { align: center middle; }
    BannerScreen #banner-dialog { width: 100%; height: auto; max-height: 100%;
                                  padding: 0 1; background: $panel; }
    BannerScreen #banner-text { height: auto; }
    BannerScreen VerticalScroll { height: auto; max-height: 1fr; }
    """

    def __init__(self, info: Sequence[str]) -> None:
        super().__init__()
        self.info = list(info)

    def compose(self) -> ComposeResult:
        with Vertical(id="banner-dialog"):
            yield Static(Text(_("This table"), style="bold"), classes="dialog-title")
            with VerticalScroll(id="banner-scroll"):
                # (each line's indent kept, the long commands wrapped: read whole at 80x24)
                yield Static(Text("\n".join(line.strip() for line in self.info)),
                             id="banner-text")
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one("#banner-scroll").focus()  # (↑ ↓ PgUp PgDn scroll it)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy":
            return bool(crash_command(self.info))
        return True

    def action_copy(self) -> None:
        command = crash_command(self.info)
        self.app.copy_to_clipboard(command)
        self.notify(_("Copied (if your terminal lets programs copy): {command}").format(
            command=command), markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


class LobbyScreen(Screen[None]):
    """Before the first deal: who sits where, who is ready, the rules, bots and chat."""

    AUTO_FOCUS = None
    BINDINGS = [
        Binding("i", "banner", N_("Info")),
        # (r says what it does now: ready, or not ready again)
        Binding("r", "ready(True)", N_("Ready")),
        Binding("r", "ready(False)", N_("Not ready")),
        Binding("s", "start", N_("Start")),
        # (one footer entry for both: the leader's keys then fit 80 columns, Leave and Quit
        # included)
        Binding("plus,equals_sign", "bots(1)", N_("Bots"), key_display="+/−"),
        # (the footer's "−" is U+2212: Textual calls it minus_sign, the keyboard's "-" minus)
        Binding("minus,minus_sign", "bots(-1)", N_("Bot −"), show=False),
        Binding("x", "kick", N_("Remove seat")),
        Binding("c", "chat", N_("Chat")),
        # (shown while the chat box has the keys: the other keys are typed into it then)
        Binding("escape", "unfocus", N_("Back")),
        Binding("l", "leave", N_("Leave")),
        Binding("q", "app.quit", N_("Quit")),
    ]
    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    LobbyScreen #lobby-banner-box { height: auto; max-height: 25%; scrollbar-size-vertical: 1; }
    LobbyScreen.-ended #lobby-banner-box { max-height: 100%; }
    LobbyScreen #lobby-banner { height: auto; padding: 0 1; }
    LobbyScreen #lobby-info { height: auto; padding: 0 1; }
    LobbyScreen #lobby-main { height: 2fr; min-height: 7; }
    LobbyScreen #lobby-seats-box { width: 1fr; min-width: 46; padding: 0 1; scrollbar-size-vertical: 1; }
    LobbyScreen #lobby-rules-box { width: 1fr; padding: 0 1; }
    LobbyScreen #lobby-buttons { height: auto; }
    LobbyScreen #lobby-buttons Button { margin: 0 1; min-width: 10; }
    LobbyScreen #lobby-buttons #btn-ready { min-width: 13; }
    LobbyScreen #lobby-chat { height: 1fr; min-height: 3; max-height: 10; padding: 0 1;
                              scrollbar-gutter: stable; overflow-x: hidden; }
    LobbyScreen .lobby-title { text-style: bold; }
    """

    def __init__(self, session: RemoteSession, *, info: Sequence[str] = (), name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.session = session
        self.info = list(info)
        self.lobby: dict[str, Any] = {}
        self.ready = False
        self._entered = False
        self._leads = False
        self._deal_at: float | None = None  # loop time the countdown ends (headless start)
        self._ended = False  # refused, or the connection ended: only the reason and q remain

    def compose(self) -> ComposeResult:
        # the host's banner can be long: at 80x24 it scrolls in a box of its own, so that
        # the seats and the last chat lines stay in view; the status line under it always shows
        banner = VerticalScroll(id="lobby-banner-box")
        banner.can_focus = False
        banner.display = bool(self.info)
        with banner:
            yield Static(Text("\n".join(self.info)), id="lobby-banner")
        yield Static(Text(_("Connecting…")), id="lobby-info")
        with Horizontal(id="lobby-main"):
            with VerticalScroll(id="lobby-seats-box"):
                yield Static(Text(_("Seats"), style="bold"), classes="lobby-title")
                yield Static(Text(""), id="lobby-seats")
                yield LobbySummary(Text(""), id="lobby-summary")
            with VerticalScroll(id="lobby-rules-box"):
                yield Static(Text(_("The table agreement (the host's rules)"), style="bold"),
                             classes="lobby-title")
                yield Static(Text(""), id="lobby-rules")
        with Horizontal(id="lobby-buttons"):
            yield Button(_("Ready"), id="btn-ready", variant="primary")
            yield Button(_("Start"), id="btn-start", variant="success")
            yield Button(_("Bot −"), id="btn-bot-minus")
            yield Button(_("Bot +"), id="btn-bot-plus")
            yield Button(_("Leave"), id="btn-leave", variant="error")
        # (min_width=1: a line as wide as the log, not Textual's 78 columns, which at 80x24
        # drew a sideways scrollbar over the newest line once the log began to scroll)
        yield RichLog(id="lobby-chat", markup=False, highlight=False, wrap=True, max_lines=500,
                      min_width=1)
        yield TypedInput(placeholder=_("chat: type and press Enter (c to chat, Esc to leave the box)"),
                    id="lobby-input", max_length=300, select_on_focus=False)
        yield TidyFooter()  # (translates the keys)

    def on_mount(self) -> None:
        self._show_host_controls(False)
        self.set_interval(1.0, self._tick)
        self.run_lobby()

    def _tick(self) -> None:
        """The start countdown, counted down on screen between the host's messages."""
        if self._deal_at is None or self.lobby.get("started"):
            return
        left = max(0.0, self._deal_at - asyncio.get_running_loop().time())
        self.query_one("#lobby-summary", LobbySummary).show(
            {**self.lobby, "starts_in": round(left)})

    # -- the session --------------------------------------------------------------
    @work(exclusive=True, group="lobby")
    async def run_lobby(self) -> None:
        s = self.session
        if not s.connected and not s.game_started:
            try:
                await s.connect()
            except ConnectError as exc:
                self._end(_("Could not join: {problem}").format(problem=exc) + "\n"
                          + _("Press q to quit."))
                return
        self._show_host_controls(s.leads)
        self.info.append(connection_line(s))
        if s.welcome.get("seeded"):
            self.info.append(_("TEST TABLE: the host fixed the shuffle (--seed): every deck is "
                               "predictable"))
        if s.seat is None:  # watching (the host's own login too): no seat, no ready
            self.query_one("#btn-ready", Button).display = False
            self._info(_("Connected. You are watching: the game shows here when it "
                         "starts."))
        else:
            self._info(_("Connected. You are the host: press s to start when everyone is "
                         "ready.") if s.is_host else _("Connected. Press r when you are ready."))
        if s.tls_note:
            self.query_one("#lobby-chat", RichLog).write(Text(s.tls_note, style="italic"))
        self._leads = s.leads
        if s.lobby:
            self.show_lobby(s.lobby)
        async for msg in s.lobby_messages():
            kind = msg.get("type")
            if kind == "lobby":
                self.show_lobby(msg)
            elif kind == "chat":
                self.query_one("#lobby-chat", RichLog).write(chat_text(msg))
            elif kind in ("notice", "error"):
                text = str(msg.get("text") or msg.get("message") or "")
                self.query_one("#lobby-chat", RichLog).write(Text(text, style="italic"))
            elif kind == "started":
                self.enter_table()
                return
            elif kind == "closed":
                hint = getattr(self.app, "come_back", lambda: "")()
                self._end(_("The connection ended: {reason}. Press q to quit.").format(
                    reason=msg.get('reason') or _("closed")) + ("\n" + hint if hint else ""))
                return

    def show_lobby(self, lobby: dict[str, Any]) -> None:
        self.lobby = lobby
        you = lobby.get("you")
        me = next((s for s in lobby.get("seats", []) if s.get("seat") == you), None)
        self.ready = bool(me and me.get("ready"))
        self.query_one("#lobby-seats", Static).update(seats_table(lobby))
        self.query_one("#lobby-summary", LobbySummary).show(lobby)
        starts_in = lobby.get("starts_in")
        self._deal_at = (asyncio.get_running_loop().time() + starts_in
                         if isinstance(starts_in, (int, float)) and starts_in > 0 else None)
        self.query_one("#lobby-rules", Static).update(rules_lines(lobby))
        self.query_one("#btn-ready", Button).label = _("Not ready") if self.ready else _("Ready")
        self.query_one("#btn-start", Button).disabled = bool(lobby.get("start_problem"))
        leads = self.session.leads
        if leads != self._leads:
            self._leads = leads
            self._show_host_controls(leads)
            if leads and not self.session.is_host:
                self._info(_("Connected. You lead this table: r when ready, s to start at once, "
                             "+/− for bots, x to remove a seat."))
        self.refresh_bindings()

    def enter_table(self) -> None:
        """The first hand is dealt: hand the session over to the table screen."""
        if self._entered:
            return
        self._entered = True
        app = self.app
        session = self.session

        async def swap() -> None:
            await app.pop_screen()
            result = app.open_table(session)  # type: ignore[attr-defined]
            if result is not None:
                await result

        app.call_later(swap)

    def _info(self, text: str) -> None:
        self.query_one("#lobby-banner", Static).update(Text("\n".join(self.info)))
        self.query_one("#lobby-banner-box").display = bool(self.info)
        self.query_one("#lobby-info", Static).update(Text(text))

    def _end(self, text: str) -> None:
        """Nothing here is live any more: only ``text`` (why, and how to quit) stays; the
        seats, buttons and chat go, and no key but q is offered."""
        self._ended = True
        self._deal_at = None
        self.add_class("-ended")  # (the whole banner again: nothing else is left to show)
        self._info(text)
        for part in ("#lobby-main", "#lobby-buttons", "#lobby-chat", "#lobby-input"):
            self.query_one(part).display = False
        self.set_focus(None)
        self.refresh_bindings()

    def _show_host_controls(self, host: bool) -> None:
        for bid in ("#btn-start", "#btn-bot-minus", "#btn-bot-plus"):
            self.query_one(bid, Button).display = host
        self.refresh_bindings()

    # -- keys and buttons -----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "banner":
            return bool(self.info)
        if self._ended or not self.session.connected:
            return False  # (q quits: it is the app's)
        if action in ("start", "bots", "kick"):
            return self.session.leads and not self.lobby.get("started")
        if action == "ready":
            return self.session.seat is not None and not self.lobby.get("started") and (
                not parameters or parameters[0] != self.ready)
        if action == "unfocus":  # (in the footer only while the chat box has the keys)
            return isinstance(self.focused, Input)
        return True

    async def _send(self, coro: Any) -> None:
        try:
            await coro
        except IllegalAction as exc:
            self.notify(str(exc), title=_("Lobby"), severity="warning", markup=False)

    async def action_ready(self, ready: bool | None = None) -> None:
        """Ready (or not ready again); None, the button: the other of what it is now."""
        await self._send(self.session.set_ready(not self.ready if ready is None else ready))

    async def action_start(self) -> None:
        await self._send(self.session.start_game())

    async def action_bots(self, delta: int) -> None:
        bots = sum(1 for s in self.lobby.get("seats", []) if s.get("bot"))
        await self._send(self.session.set_bots(max(0, bots + delta)))

    def action_chat(self) -> None:
        self.query_one("#lobby-input", Input).focus()

    def action_kick(self) -> None:
        """Remove a seat: the chat box asks which (``/remove N``)."""
        box = self.query_one("#lobby-input", Input)
        box.value = "/remove "
        box.cursor_position = len(box.value)
        box.focus()
        self.notify(_("Type the seat number to remove and press Enter (Esc: cancel)."),
                    title=_("Lobby"), markup=False)

    def action_unfocus(self) -> None:
        self.set_focus(None)

    def action_banner(self) -> None:
        """The whole banner, in a dialog (the crash command in one piece)."""
        self.app.push_screen(BannerScreen(self.info))

    async def action_leave(self) -> None:
        await self.session.leave()
        self.app.farewell = _("You left the table at {address}.").format(  # type: ignore[attr-defined]
            address=self.session.address)
        self.app.exit()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text.startswith("/remove"):
            number = text[len("/remove"):].strip()
            seats = self.lobby.get("seats", [])
            if not (number.isdigit() and 1 <= int(number) <= len(seats)):
                self.notify(_("which seat? a number from 1 to {n}").format(n=len(seats)),
                            title=_("Lobby"), severity="warning", markup=False)
                return
            await self._send(self.session.kick(int(number) - 1))
        elif text:
            await self._send(self.session.chat(text))
        # (sent: the keys are the lobby's again, r for ready and the rest; c chats again)
        self.set_focus(None)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"btn-ready": self.action_ready, "btn-start": self.action_start,
                   "btn-leave": self.action_leave}
        if event.button.id in actions:
            await actions[event.button.id]()
        elif event.button.id == "btn-bot-plus":
            await self.action_bots(1)
        elif event.button.id == "btn-bot-minus":
            await self.action_bots(-1)


class LobbyApp(PokerApp):
    """The app for ``join`` and ``host``: the lobby first, then the usual table screen.

    ``back`` is the command that takes this seat back; ``lost`` (the host's) says how to get
    back to a table lost for good instead (its process may have ended: the crash command).
    Leaving or losing the table leaves ``farewell``, the words for the terminal."""

    def __init__(self, config: Any, session: RemoteSession, *, info: Sequence[str] = (),
                 back: str = "", lost: Callable[[], str] | None = None,
                 table_gone: Callable[[], bool] | None = None) -> None:
        super().__init__(config, session)
        self.info = list(info)
        self.remote = session
        self.back = back
        self._lost = lost
        self._gone = table_gone  # (the host's: its table's process ended, no use waiting)
        self._told = False
        if session is not None:  # (the SSH room's app has no table yet)
            # the table screen's lost-for-good line ends with the way back, when it fits
            session.way_back = self.way_back

    def on_mount(self) -> None:  # (PokerApp's runs too: Textual calls each class's)
        self.set_interval(1.0, self._watch_link, name="lost table")

    def can_start_new(self) -> bool:
        """A network table's game over offers no new game here: the next game is the host's
        to start (a game of one's own would be a local table, at the start screen of
        ``pokeroulette``, left behind with the others); q quits."""
        return False

    def come_back(self) -> str:
        """How to get back to the table once this connection to it is gone for good ("" once
        the game is over: there is nothing to come back to; a closed table may be served
        again); a spectator is told how to watch again."""
        if self._lost is not None:
            return self._lost()
        if self.remote is not None and self._over():
            return ""
        from pokeroulette_tui.net.launch import come_back

        remote = self.remote
        watching = remote is not None and bool(remote.spectate)
        joining = remote is not None and not remote.game_started  # (nothing held in a lobby)
        return come_back(self.back, watching=watching, joining=joining) if self.back else ""

    def way_back(self) -> str:
        """:meth:`come_back` in one line, for the table screen's lost-for-good line (the
        host's whole story, the crash command and the seat, is in the notice and the
        farewell)."""
        lines = self.come_back().splitlines()
        return lines[0] if lines else ""

    def lost_for_good(self) -> bool:
        """The connection ended, not by this terminal, and no more tries are made (or the
        host's own table's process ended: the tries will not find it). Not once the game
        is over: its end is on the screen, and nothing is lost."""
        s = self.remote
        if s is None or s.connected or self._over():
            return False  # (the SSH room's app: no table yet)
        if s.lost_for_good:
            return True
        return s.reconnecting and self._gone is not None and self._gone()

    def _watch_link(self) -> None:
        """Once the table is lost for good, say at once how to get back to it (the
        table screen's own line says only why, and to press q)."""
        if self._told or not self.lost_for_good():
            return
        self._told = True
        hint = self.come_back()
        if hint:
            s = self.remote
            # (the host ended this connection with a word: a removal, the table closed)
            ended = s is not None and (s.sent_away or s.table_closed)
            self.notify(hint, title=_("Disconnected") if ended else _("The table is lost"),
                        severity="warning" if ended else "error", timeout=120, markup=False)

    async def action_quit(self) -> None:
        from pokeroulette_tui.net import launch

        s = self.remote
        if not s.connected and (s.reconnecting or s.lost_for_good):  # (or trying still)
            words = launch.lost_words(s, self.come_back())
        else:
            going_on = s.game_started and not self._over()
            held = going_on and s.seat is not None
            # (a spectator, or a player who left the game and watched it: how to watch again)
            watch = launch.rejoin_command(s) if going_on and s.seat is None and s.spectate \
                else ""
            words = launch.left_words(launch.place(s), self.back if held else "", watch=watch)
        await super().action_quit()
        self.farewell = words

    def _over(self) -> bool:
        try:
            return bool(self.remote.view(self.remote.seat).game_over)
        except Exception:  # no view yet
            return False

    def open_table(self, session: Session):
        if session.has_lobby and not session.game_started:
            self.session = session
            return self.push_screen(LobbyScreen(session, info=self.info))
        return super().open_table(session)
