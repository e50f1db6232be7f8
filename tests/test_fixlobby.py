"""QA fixes of the network lobby and launch: the whole banner at 80x24 (the crash command),
what a host whose table process died is told, and what a player who quits is told."""

from __future__ import annotations

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import launch
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.ui.config import AppConfig
from pokeroulette_tui.ui.screens.lobby import BannerScreen, LobbyApp, LobbyScreen, crash_command

from net_helpers import Served
from ui_pilot import wait_for

RULES = RuleSet(suit_order="SHDC")
CRASH = ("pokeroulette host --resume /home/ana/.local/share/pokeroulette/hosted/"
         "table-20261202-101010.json --port 7777 --no-tls")
BANNER = [
    "Hosting a Poker Roulette table on 0.0.0.0:7777",
    "  friends join with:  pokeroulette join 192.0.2.2:7777 --name NAME --no-tls",
    "  on this machine:    pokeroulette join 127.0.0.1:7777 --name NAME --no-tls",
    "  NO TLS (--no-tls): anyone on the network sees passwords, tokens and cards",
    "  saving to /home/ana/.local/share/pokeroulette/hosted/table-20261202-101010.json",
    "  after a crash:      " + CRASH,
    ("  the table runs on its own (pid 4242); if this terminal is lost, come back with: "
     "pokeroulette join 127.0.0.1:7777 --name Ana --no-tls"),
]


def rendered(widget) -> str:
    return str(widget.render())


async def test_the_whole_banner_and_the_crash_command_are_reachable_at_80x24():
    async with Served(RULES) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=list(BANNER))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            lobby = app.screen
            box = lobby.query_one("#lobby-banner-box")
            assert box.size.height < len(BANNER)  # (the box shows only some lines)
            footer = " ".join(str(k.render()) for k in lobby.query("FooterKey"))
            assert "i Info" in footer
            await pilot.press("i")
            await wait_for(pilot, lambda: isinstance(app.screen, BannerScreen))
            dialog = app.screen
            text = rendered(dialog.query_one("#banner-text"))
            assert CRASH in text and "come back with" in text
            scroll = dialog.query_one("#banner-scroll")
            assert scroll.region.bottom <= 24 and scroll.has_focus  # the keys scroll it
            copied: list[str] = []
            app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
            await pilot.press("c")
            assert copied == [CRASH]
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is lobby)
        await session.close()


def test_the_crash_command_is_found_in_the_banner():
    assert crash_command(BANNER) == CRASH
    assert crash_command(BANNER[:3]) == ""


class DeadProc:
    pid = 4242

    def __init__(self, code=None) -> None:
        self.code = code

    def poll(self):
        return self.code


def hosted(code, resume=CRASH) -> launch.HostedTable:
    session = RemoteSession("127.0.0.1", 7777, "Ana")
    session._finish("could not reconnect: the name Ana is taken: join under another name (a "
                    "seat of your own is taken back by joining from where you first joined)")
    # (as the tries end)
    return launch.HostedTable(DeadProc(code), session, list(BANNER),  # type: ignore[arg-type]
                              launch.rejoin_command(session), "pokeroulette host --stop", resume)


def test_a_host_whose_table_process_died_is_told_the_crash_command(capsys):
    table = hosted(-9)
    assert table.gone()
    table.after_screen()
    out = capsys.readouterr().out
    assert CRASH in out and "killed by signal 9" in out
    assert "pokeroulette join 127.0.0.1:7777 --name Ana --no-tls" in out
    # the "name is taken" reason, with the command to type
    assert "the name Ana is taken" in out and "press q" not in out
    # a table that kept no save says it cannot come back; a running one, how to sit again
    assert "cannot be brought back" in hosted(-9, resume="").come_back()
    running = hosted(None)
    assert not running.gone()
    assert running.come_back() == "To take your seat back, type: pokeroulette join " \
                                  "127.0.0.1:7777 --name Ana --no-tls"


def test_the_rejoin_command_is_what_join_needs():
    assert launch.rejoin_command(RemoteSession("10.0.0.5", 7000, "Bo Li", tls=True)) == \
        "pokeroulette join 10.0.0.5:7000 --name 'Bo Li'"
    assert launch.rejoin_command(RemoteSession("10.0.0.5", 7000, "Bo", spectate=True)) == \
        "pokeroulette join 10.0.0.5:7000 --name Bo --no-tls --spectate"
    casino = launch.left_words("1.2.3.4:7777", what="casino")
    assert casino.startswith("You left the casino table at 1.2.3.4:7777.")
    assert launch.left_words("1.2.3.4:7777", "pokeroulette join x") == (
        "You left the table at 1.2.3.4:7777. Your seat is held: come back with: "
        "pokeroulette join x")
    # a --unix table is "at" its socket's path (not "at root's table (…)")
    from types import SimpleNamespace

    unix = SimpleNamespace(unix=SimpleNamespace(path="/tmp/t.sock"),
                           address="root's table (/tmp/t.sock)")
    assert launch.place(unix) == "/tmp/t.sock"
    assert launch.place(RemoteSession("10.0.0.5", 7000, "Bo")) == "10.0.0.5:7000"


async def test_quitting_a_card_table_says_where_and_how_to_come_back():
    async with Served(RULES, bots=2, start_countdown=0.0, delay=0.0) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        back = launch.rejoin_command(session)
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"],
                       back=back)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            await pilot.press("r")
            await wait_for(pilot, lambda: session.game_started, timeout=10)
            await app.action_quit()
        assert app.farewell == (f"You left the table at 127.0.0.1:{srv.port}. Your seat is "
                                f"held: come back with: pokeroulette join 127.0.0.1:{srv.port} "
                                "--name Ana --no-tls")


async def test_a_lobby_lost_for_good_says_how_to_come_back():
    async with Served(RULES) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana", retry_delays=(0.05,))
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"],
                       back="pokeroulette join 127.0.0.1:1 --name Ana --no-tls")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            lobby = app.screen
            await srv.server.close()
            await wait_for(pilot, lambda: lobby._ended, timeout=10)
            info = rendered(lobby.query_one("#lobby-info"))
            # (no seat is held before the game starts: joining again is a new seat)
            assert "To join again, type: pokeroulette join 127.0.0.1:1" in info
            assert "seat back" not in info
            await wait_for(pilot, lambda: app._notifications, timeout=5)
            titles = [n.title for n in app._notifications]
            assert "Disconnected" in titles and "The table is lost" not in titles, titles
            await app.action_quit()
        assert "To join again, type: pokeroulette join 127.0.0.1:1" in app.farewell


async def test_a_spectator_lost_for_good_is_told_how_to_watch_again():
    async with Served(RULES) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Wes", spectate=True,
                                retry_delays=(0.05,))
        back = "pokeroulette join 127.0.0.1:1 --name Wes --no-tls --spectate"
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"],
                       back=back)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: session.connected, timeout=10)
            await srv.server.close()
            await wait_for(pilot, lambda: session.lost_for_good, timeout=10)
            assert app.come_back() == f"To watch again, type: {back}"
            await app.action_quit()
        assert f"To watch again, type: {back}" in app.farewell
        assert "seat" not in app.farewell


async def test_a_player_removed_from_the_lobby_is_told_how_to_join_again():
    """Removed by the table's leader before the game starts: disconnected by the host's
    word (not "the table is lost"), and told how to join again (no seat was held)."""
    async with Served(RULES) as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana", retry_delays=(0.05,))
        await ana.connect()
        bo = RemoteSession("127.0.0.1", srv.port, "Bo", retry_delays=(0.05,))
        back = "pokeroulette join 127.0.0.1:1 --name Bo --no-tls"
        app = LobbyApp(AppConfig(autosave=False, delay=0), bo, info=["test table"], back=back)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            await ana.kick(1)
            await wait_for(pilot, lambda: bo.lost_for_good, timeout=10)
            assert bo.sent_away and "Ana removed you from the table" in bo.end_reason
            assert app.come_back() == f"To join again, type: {back}"
            await wait_for(pilot, lambda: app._notifications, timeout=5)
            titles = [n.title for n in app._notifications]
            assert "Disconnected" in titles and "The table is lost" not in titles, titles
            await app.action_quit()
        await ana.close()
        assert f"To join again, type: {back}" in app.farewell
        assert "seat back" not in app.farewell


async def test_a_player_who_left_the_game_is_told_how_to_watch_it_again():
    """Leaving a game gives the seat up for good: quitting afterwards says how to watch the
    game still going on (not how to take a seat back)."""
    from pokeroulette_tui.engine.actions import Leave

    async with Served(RULES, bots=2, start_countdown=0.0, delay=0.0) as srv:
        session = RemoteSession("127.0.0.1", srv.port, "Ana")
        back = launch.rejoin_command(session)
        app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["test table"],
                       back=back)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and app.screen.lobby)
            await pilot.press("r")
            await wait_for(pilot, lambda: session.game_started and session.seat is not None,
                           timeout=10)
            await session.act(Leave(seat=session.seat))
            await wait_for(pilot, lambda: session.spectate and session.seat is None, timeout=10)
            await app.action_quit()
        assert app.farewell == (f"You left the table at 127.0.0.1:{srv.port}. To watch again, "
                                f"type: pokeroulette join 127.0.0.1:{srv.port} --name Ana "
                                "--no-tls --spectate")


def test_a_network_game_over_offers_no_local_new_game():
    """At a network table's game over, n would have left the others for a local start screen
    (with the table's notes still on it): the standings offer q, not n."""
    session = RemoteSession("127.0.0.1", 7777, "Ana")
    app = LobbyApp(AppConfig(autosave=False, delay=0), session, info=["t"], back="x")
    assert app.can_start_new() is False
