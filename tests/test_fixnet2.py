"""QA findings on the network and the casino (fixnet2): a casino host keeps the TLS
fingerprint in view, a damaged casino file is said whole at 80x24, quitting a network table
says you left (not "disconnected"), a spectator is no host, and two sentences are whole
and translated (``join @login``, a bad port)."""

from __future__ import annotations

import argparse
import asyncio

import pytest
from net_helpers import Harness, Served, make_host
from ui_pilot import wait_for, SIZE, screen_text, step

from pokeroulette_tui.engine.casino.paytable import DEFAULT, NAMED
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import client as client_module
from pokeroulette_tui.net import launch, tls, unix
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.casino_launch import banner
from pokeroulette_tui.net.client import ConnectError, RemoteSession
from pokeroulette_tui.net.identity import Account
from pokeroulette_tui.net.server import Server
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.casino_net import CasinoNetApp
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp, LobbyScreen

RULES = RuleSet(suit_order="SHDC")
TIMEOUT = 20


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))



def right_panel(app) -> str:
    """The casino's lower right panel as on the screen, as one string (its lines joined, no
    wrapping; the scrollbar's column left out)."""
    region = app.screen.query_one("#casino-results").region
    rows = screen_text(app).splitlines()[region.y:region.bottom]
    return " ".join(row[region.x:region.right - 1].strip() for row in rows)


# -- 1. the casino host keeps the fingerprint in view ------------------------------------------

async def test_a_casino_host_who_plays_sees_the_fingerprint_after_the_toast_is_gone(tmp_path):
    config = CasinoConfig(table=NAMED["tight"], seed=8)
    ident = tls.host_identity(tmp_path / "host")
    server = Server(CasinoHost(config))
    session = RemoteCasino("127.0.0.1", 0, "Ana", tls=True, fingerprint=ident.fingerprint)
    lines: list[str] = []

    async def serve() -> Server:
        __, port = await server.start("127.0.0.1", 0, ssl=tls.server_context(ident))
        session.port = port
        lines[:] = banner(config, "127.0.0.1", port, tls=True, fingerprint=ident.fingerprint,
                          headless=False)
        return server

    app = CasinoNetApp(session, info=lines, serve=serve)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            # the toast: the join command alone, briefly (the panel it would cover has all)
            toasts = [n for n in app._notifications if n.title == "Your casino table"]
            assert len(toasts) == 1 and toasts[0].timeout <= 8
            assert "pokeroulette join" in toasts[0].message
            assert "TLS certificate" not in toasts[0].message
            app.clear_notifications()
            await wait_for(pilot, lambda: not app._notifications)
            await step(pilot)
            panel = right_panel(app)
            assert ident.fingerprint in panel.replace(" ", ""), panel  # (it folds)
            assert f"pokeroulette join 127.0.0.1:{session.port} --name NAME" in panel, panel
            # however many bets push them down the panel, ? shows them first
            await pilot.press("question_mark")
            await step(pilot)
            from pokeroulette_tui.ui.screens.casino_dialogs import CasinoKeysScreen
            assert isinstance(app.screen, CasinoKeysScreen)
            shown = screen_text(app).replace(" ", "")
            assert ident.fingerprint in shown
            assert f"pokeroulettejoin127.0.0.1:{session.port}--nameNAME" in shown
            # a network table's bankrolls are the host's: q does not claim they are saved here
            from textual.containers import VerticalScroll
            app.screen.query_one(VerticalScroll).scroll_end(animate=False)
            await step(pilot)
            end = screen_text(app).replace(" ", "")
            assert "thehostkeepsyourseatandbankroll" in end, end
            assert "savedaftereveryround" not in end
    finally:
        await server.close()


# -- 2. a damaged casino file is said whole at 80x24 -------------------------------------------

async def test_a_damaged_casino_file_is_said_whole_at_80x24(tmp_path):
    folder = tmp_path / "home" / "someone_longer" / ".local" / "share" / "pokeroulette"
    folder.mkdir(parents=True)
    path = folder / "casino.json"
    path.write_text("{bad")
    app = CasinoApp(["Ada"], DEFAULT, path, deal_pause=0.0, seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        panel = right_panel(app)
        assert "Expecting" not in panel  # (not the JSON parser's words)
        said = (f"The casino file is damaged: it was moved to {path}.damaged; bankrolls and "
                "the jackpot start afresh.")
        assert said.replace(" ", "") in panel.replace(" ", ""), panel  # (the path folds)
        assert "Ada's bets" in panel, panel


# -- 3. quitting a network table says you left ------------------------------------------------

async def test_quitting_a_network_table_on_purpose_says_you_left_not_disconnected():
    async with Served(RULES, bots=1) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        bo = RemoteSession("127.0.0.1", srv.port, "Bo")
        for s in (session, bo):
            await asyncio.wait_for(s.connect(), TIMEOUT)
            await s.set_ready(True)
        await asyncio.wait_for(session.wait_started(), TIMEOUT)
        await session.close()  # (the table screen's q; the SSH room's way back to the room)
        await bo.close()

        async def last_note() -> str:
            async for update in session.updates():
                if update.closed:
                    return update.note
            return ""

        assert await asyncio.wait_for(last_note(), TIMEOUT) == "you left the table"


# -- 4. a spectator is no host -----------------------------------------------------------------

def test_the_hosts_own_connection_watching_may_not_start_seat_bots_or_remove_seats():
    h = Harness(make_host(RULES, admin="ADMIN", headless=False))
    h.join("Host", admin="ADMIN")
    bo = h.join("Bo")
    watcher = h.join("Watcher", admin="ADMIN", spectate=True)
    assert not watcher.last("welcome")["admin"] and watcher.last("welcome")["spectator"]
    h.send(bo, {"type": "ready", "ready": True})
    h.send(watcher, {"type": "bots", "count": 2})
    h.send(watcher, {"type": "kick", "seat": 1})
    h.send(watcher, {"type": "start"})
    assert len(watcher.errors()) == 3, watcher.errors()
    assert not h.host.started and [p.name for p in h.host.players] == ["Host", "Bo"]


async def test_a_spectator_by_the_hosts_login_is_offered_no_host_controls():
    async with Served(RULES, admin="ADMIN", headless=False) as srv:
        host = RemoteSession("127.0.0.1", srv.port, "Host", admin="ADMIN")
        await asyncio.wait_for(host.connect(), TIMEOUT)
        session = RemoteSession("127.0.0.1", srv.port, "Eve", admin="ADMIN", spectate=True)
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"])
        try:
            async with app.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                               and app.screen.lobby)
                screen = app.screen
                text = screen_text(app)
                assert "You are the host" not in text and "You are watching" in text, text
                assert not session.is_host
                for action in ("start", "bots", "kick", "ready"):
                    assert not screen.check_action(action, ()), action
                for button in ("#btn-start", "#btn-bot-plus", "#btn-bot-minus", "#btn-ready"):
                    assert not screen.query_one(button).display, button
        finally:
            await host.close()


# -- 5. join @login: one whole sentence ---------------------------------------------------------

def test_joining_a_table_on_this_machine_is_said_in_one_sentence(monkeypatch, tmp_path):
    said: list[str] = []

    def record(text: str) -> str:
        said.append(text)
        return text

    me = Account(1000, "ana")
    target = unix.Target(tmp_path / "table.sock", me)
    monkeypatch.setattr(launch, "_", record)
    monkeypatch.setattr(unix, "unsupported", lambda: "")
    monkeypatch.setattr(unix, "target_for", lambda login: target)
    monkeypatch.setattr(unix, "check_target", lambda t: None)
    monkeypatch.setattr(unix, "account_of", lambda uid: me)
    args = argparse.Namespace(address="@me", unix=None, name=None, password=None,
                              password_file=None, spectate=False, owner=None)
    __, lines = launch.join_session(args)
    assert lines == [f"Joining ana's table ({tmp_path / 'table.sock'}) as ana"]
    assert "Joining {login}'s table ({path}) as {name}" in said
    assert "Joining {table} as {name}" not in said


# -- 6. a bad port, in the player's language ---------------------------------------------------

@pytest.mark.parametrize("port", ["abc", "0", "99999"])
def test_a_bad_port_is_said_through_the_translations(monkeypatch, port):
    monkeypatch.setattr(client_module, "_", lambda text: "»" + text)
    with pytest.raises(ConnectError) as caught:
        client_module.parse_address(f"127.0.0.1:{port}")
    assert str(caught.value) == f"»{port!r} is not a port number (1-65535)"
