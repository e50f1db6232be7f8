"""A networked client that loses its table: explicit connection state (not the words of
``link_note``), a short wait for a table that is not running (refused) but the long one for
a network blip, a restart within the wait takes the seat back, and the lost-for-good line
itself says how to come back, within the table screen's three lines at 80 columns."""

from __future__ import annotations

import asyncio
import textwrap
from types import SimpleNamespace

import pytest

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import launch
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.client import ConnectError, RemoteSession, fitted_lost_note, refused
from pokeroulette_tui.net.server import Server
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import LobbyApp

from net_helpers import Served
from ui_pilot import screen_text, wait_for

RULES = RuleSet(suit_order="SHDC")


def crash(server: Server) -> None:
    """The host's process dies without a word (kill -9): the port is closed, every
    connection drops."""
    server._server.close()
    for conn in list(server.conns.values()):
        conn.writer.transport.abort()


async def until(pred, timeout: float = 10.0) -> float:
    """Wait for ``pred``; how long it took."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    async with asyncio.timeout(timeout):
        while not pred():
            await asyncio.sleep(0.02)
    return loop.time() - start


# -- the policy: refused for a short while, a blip for the whole schedule --------------------

def test_refused_is_told_from_a_blip():
    assert refused(ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 1)"))
    assert refused(FileNotFoundError(2, "No such file"))  # (a Unix socket removed)
    assert not refused(TimeoutError())
    assert not refused(OSError(113, "No route to host"))
    assert not refused(OSError("Multiple exceptions: [Errno 111] Connect call failed, "
                               "[Errno 101] Network is unreachable"))


async def test_a_table_that_is_not_running_is_given_up_after_gone_after_seconds():
    async with Served(RULES, bots=1) as srv:
        port = srv.port
        ana = RemoteSession("127.0.0.1", port, "Ana", retry_delays=(0.1,) * 100,
                            gone_after=0.6)
        ana.way_back = lambda: launch.come_back(launch.rejoin_command(ana))
        await ana.connect()
        assert not (ana.reconnecting or ana.ended or ana.lost_for_good)
        crash(srv.server)
        await until(lambda: ana.reconnecting)
        assert not ana.connected and not ana.ended and not ana.lost_for_good
        took = await until(lambda: ana.ended, timeout=8)
        # some 0.6 s of refusals, not the 10 s the delays add up to
        assert took < 3.0
        assert ana.lost_for_good and not ana.reconnecting and not ana.connected
        assert f"the table at 127.0.0.1:{port} is not running" in ana.end_reason
        # the line the table screen shows: why, q, and the way back, in three lines
        assert ana.link_note.startswith("Disconnected (could not reconnect: the table at")
        assert ana.link_note.endswith(f"To take your seat back, type: pokeroulette join "
                                      f"127.0.0.1:{port} --name Ana --no-tls")
        assert len(textwrap.wrap("⚠ " + ana.link_note, 78, break_on_hyphens=False)) <= 3
        await ana.close()
        assert ana.lost_for_good is False  # (this terminal closed it now)


async def test_a_network_blip_is_tried_for_the_whole_schedule():
    ana = RemoteSession("127.0.0.1", 1, "Ana", token="t", retry_delays=(0.05,) * 12,
                        gone_after=0.1)
    tries: list[int] = []

    async def unreachable() -> dict:
        tries.append(1)
        raise ConnectError("cannot reach 127.0.0.1:1 (timed out)", retry=True)
    ana._open = unreachable  # type: ignore[method-assign]
    assert not await ana._reconnect("the connection was reset")
    assert len(tries) == 12  # every delay, though that took longer than gone_after
    assert ana.ended and "timed out" in ana.end_reason

    bo = RemoteSession("127.0.0.1", 1, "Bo", token="t", retry_delays=(0.05,) * 40,
                       gone_after=0.3)
    tries.clear()

    async def not_running() -> dict:
        tries.append(1)
        raise ConnectError("the table is not running", retry=True, gone=True)
    bo._open = not_running  # type: ignore[method-assign]
    assert not await bo._reconnect("the connection was reset")
    assert 4 <= len(tries) <= 12  # some 0.3 s of refusals, not the 40 tries
    assert bo.ended and bo.end_reason == "could not reconnect: the table is not running"


async def test_a_table_served_again_within_the_wait_gives_the_seat_back():
    async with Served(RULES, bots=1) as srv:
        port = srv.port
        ana = RemoteSession("127.0.0.1", port, "Ana", retry_delays=(0.1,) * 100,
                            gone_after=3.0)
        await ana.connect()
        seat = ana.seat
        crash(srv.server)
        await until(lambda: ana.reconnecting)
        await asyncio.sleep(1.0)  # refused meanwhile: still trying
        assert ana.reconnecting and not ana.ended
        again = Server(srv.host)  # the table is served again on its port
        await again.start("127.0.0.1", port)
        try:
            await until(lambda: ana.connected, timeout=5)
            assert ana.seat == seat and not ana.reconnecting and not ana.ended
            assert ana.link_note == ""
        finally:
            await ana.close()
            await again.close()


async def test_a_casino_client_gives_up_on_a_table_that_is_not_running_soon():
    cas = RemoteCasino("127.0.0.1", 1, "Ana", tls=False, retry_delays=(0.05,) * 100,
                       gone_after=0.3)
    tries: list[int] = []
    real = cas._open

    async def counted() -> dict:
        tries.append(1)
        return await real()  # (port 1: refused)
    cas._open = counted  # type: ignore[method-assign]
    assert not await cas._reconnect()
    assert 4 <= len(tries) <= 15


# -- the lobby app: the state, not the words ---------------------------------------------------

def app_for(session: RemoteSession, **kw) -> LobbyApp:
    session.game_started = True  # (a seat is held once the game has started)
    return LobbyApp(AppConfig(autosave=False, delay=0), session, info=["t"],
                    back="pokeroulette join 127.0.0.1:7777 --name Ana --no-tls", **kw)


def test_lost_for_good_follows_the_session_state_not_its_line():
    session = RemoteSession("127.0.0.1", 7777, "Ana")
    app = app_for(session)
    # still trying, whatever the line says (a line in another language, say)
    session.reconnecting, session.link_note = True, "Yhteys katkesi: yhdistetään uudelleen…"
    assert not app.lost_for_good()
    # … unless the host's own table's process has ended
    assert app_for(session, table_gone=lambda: True).lost_for_good()
    session.reconnecting = False
    session._finish("could not reconnect: the table at 127.0.0.1:7777 is not running")
    assert app.lost_for_good()
    assert session.link_note.endswith("To take your seat back, type: pokeroulette join "
                                      "127.0.0.1:7777 --name Ana --no-tls")
    words = launch.lost_words(session, app.come_back())
    assert words.startswith("The connection to the table at 127.0.0.1:7777 ended: could not "
                            "reconnect: the table at 127.0.0.1:7777 is not running\n")
    assert "press q" not in words


def test_a_game_that_is_over_is_not_a_lost_table():
    session = RemoteSession("127.0.0.1", 7777, "Ana")
    session.seat = 0
    session.view = lambda seat=None: SimpleNamespace(game_over=True)  # type: ignore[method-assign]
    session.table_closed = True
    app = app_for(session)
    session._finish("the game is over")
    assert not app.lost_for_good()  # no "The table is lost" notice on the game-over screen
    assert app.come_back() == ""
    assert session.link_note == "Disconnected (the game is over): press q to quit"


def test_the_lost_line_fits_three_lines_and_keeps_the_way_back():
    hint = "To take your seat back, type: pokeroulette join 192.168.100.200:27911 --name Ana"
    long_why = ("could not reconnect: 127.0.0.1:27771 is now served by qassh_x, not qassh_a: "
                "someone else took the port; your password and token were not sent")
    note = fitted_lost_note(long_why, hint)
    assert note.endswith(hint) and "press q to quit" in note and "…" in note
    assert len(textwrap.wrap("⚠ " + note, 78, break_on_hyphens=False)) <= 3
    # a hint that leaves room for only a stub of the reason goes without it (the host whose
    # table's process ended: the hint says why)
    crash_hint = ("The table's process ended (killed by signal 9). Bring the table back with: "
                  "pokeroulette host --resume /tmp/h/data/hosted/table-20261202-145138.json "
                  "--port 27912")
    note = fitted_lost_note("could not reconnect: the table at 127.0.0.1:27912 is not "
                            "running; nothing listens on that port", crash_hint)
    assert note == "Disconnected: press q to quit. " + crash_hint
    # a hint that cannot fit is left out (the notice and the farewell say it)
    assert fitted_lost_note("why", "x " * 200) == "Disconnected (why): press q to quit"


# -- on the screen: the table's line says the way back at once ----------------------------------

async def test_the_table_screen_says_how_to_come_back_when_the_table_is_lost():
    from pokeroulette_tui.ui.screens.table import LinkLine

    async with Served(RULES, bots=2, start_countdown=0.0, delay=0.0) as srv:
        port = srv.port
        session = RemoteSession("127.0.0.1", port, "Ana", retry_delays=(0.1,) * 100,
                                gone_after=0.5)
        back = launch.rejoin_command(session)
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"],
                       back=back)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: getattr(app.screen, "lobby", None))
            await pilot.press("r")
            await wait_for(pilot, lambda: session.game_started and
                           type(app.screen).__name__ == "TableScreen", timeout=10)
            crash(srv.server)
            await wait_for(pilot, lambda: session.ended, timeout=5)
            await wait_for(pilot, lambda: "seat back" in " ".join(screen_text(app).split()),
                           timeout=5)
            link = app.screen.query_one(LinkLine)
            flat = " ".join(screen_text(app).split())
            assert f"pokeroulette join 127.0.0.1:{port} --name Ana --no-tls" in flat
            assert "press q to quit" in flat and link.size.height <= 3
            line = " ".join(str(link.render()).split())
            assert line.endswith(f"To take your seat back, type: pokeroulette join "
                                 f"127.0.0.1:{port} --name Ana --no-tls")
            await wait_for(pilot, lambda: any(n.title == "The table is lost"
                                              for n in app._notifications), timeout=3)
            await app.action_quit()
        assert app.farewell.startswith(f"The connection to the table at 127.0.0.1:{port} "
                                       "ended: could not reconnect: the table at")
        assert app.farewell.endswith(f"To take your seat back, type: pokeroulette join "
                                     f"127.0.0.1:{port} --name Ana --no-tls")


@pytest.mark.parametrize("gone", [True, False])
async def test_quitting_while_it_still_tries_says_the_connection_was_lost(gone):
    session = RemoteSession("127.0.0.1", 7777, "Ana")
    app = app_for(session)
    session.reconnecting = True
    session.link_note = "Connection lost: reconnecting…"
    if gone:
        session.end_reason = "stale"  # (never said while it still tries)
    words = launch.lost_words(session, app.come_back())
    assert words.startswith("The connection to the table at 127.0.0.1:7777 ended: the "
                            "connection to the table was lost\nTo take your seat back")


# -- a table on this machine (--unix): a socket nobody serves is a table not running -----------

async def test_a_unix_table_whose_process_died_is_given_up_soon(tmp_path, monkeypatch):
    from pokeroulette_tui.net import unix

    from test_net_unix import ME, UnixServed

    base = tmp_path / "run"
    base.mkdir()
    base.chmod(0o1777)
    monkeypatch.setenv(unix.BASE_ENV, str(base))
    srv = UnixServed(headless=True)
    await srv.__aenter__()
    session = RemoteSession("", 0, "x", unix=unix.target_for("me"), retry_delays=(0.1,) * 100,
                            gone_after=0.6)
    session.way_back = f"To take your seat back, type: pokeroulette join @{ME.login}"
    try:
        await session.connect()
        crash(srv.server)  # a stale socket file is left: connecting to it is refused
        took = await until(lambda: session.ended, timeout=8)
        assert took < 3.0 and srv.path.exists()
        assert "is not running" in session.end_reason
        assert session.link_note.endswith(f"pokeroulette join @{ME.login}")
        srv.path.unlink()  # (a table stopped cleanly leaves no socket: as soon given up)
        again = RemoteSession("", 0, "x", unix=unix.target_for("me"), token="t",
                              retry_delays=(0.1,) * 100, gone_after=0.4)
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert not await again._reconnect("the connection was reset")
        assert loop.time() - start < 3.0  # (not the 10 s of the delays)
        assert "not hosting a table right now" in again.end_reason
    finally:
        await session.close()
        await srv.server.close()
