"""QA findings on the casino at 80x24: the network table's timer seen by the players not
ready yet, the host's join lines out of the way once someone joins, the host asked before
closing the table on the others, no dead Tab in the single player's hint, and the newest bet
in view with PgUp / PgDn to the rest."""

from __future__ import annotations

import pytest
from ui_pilot import SIZE, press, screen_text, step, wait_for

from pokeroulette_tui.engine.casino.game import Stage
from pokeroulette_tui.engine.casino.paytable import DEFAULT, NAMED
from pokeroulette_tui.net import tls
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.casino_launch import banner
from pokeroulette_tui.net.server import Server
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.casino_net import CasinoNetApp
from pokeroulette_tui.ui.screens.casino_dialogs import ConfirmScreen


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def panel(app, selector: str) -> str:
    """A panel of the casino screen as on the screen, its lines joined (no scrollbar)."""
    region = app.screen.query_one(selector).region
    rows = screen_text(app).splitlines()[region.y:region.bottom]
    return " ".join(row[region.x:region.right - 1].strip() for row in rows)


def hint(app) -> str:
    return panel(app, "#casino-hint")


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


async def hosted(tmp_path, **config):
    """A host who plays (Ana, at the app), and Bo's session for the same table."""
    conf = CasinoConfig(table=NAMED["tight"], seed=8, **config)
    ident = tls.host_identity(tmp_path / "host")
    server = Server(CasinoHost(conf))
    ana = RemoteCasino("127.0.0.1", 0, "Ana", tls=True, fingerprint=ident.fingerprint)
    lines: list[str] = []

    async def serve() -> Server:
        __, port = await server.start("127.0.0.1", 0, ssl=tls.server_context(ident))
        ana.port = port
        lines[:] = banner(conf, "127.0.0.1", port, tls=True, fingerprint=ident.fingerprint,
                          headless=False)
        return server

    app = CasinoNetApp(ana, info=lines, serve=serve)
    bo = RemoteCasino("127.0.0.1", 0, "Bo", tls=True, fingerprint=ident.fingerprint)
    return app, server, ana, bo, ident


async def seated(pilot, app, bo) -> None:
    """The host's screen is up (its toast gone), and Bo has joined."""
    await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
    app.clear_notifications()
    bo.port = app.session.port
    await bo.connect()
    await wait_for(pilot, lambda: len(app.session.casino.players) == 2
                   and "Bo" in panel(app, "#casino-results"))


# -- 1. the timer, for a player not ready yet -------------------------------------------------

async def test_a_player_not_ready_sees_the_timer_whatever_was_said_last(tmp_path):
    app, server, ana, bo, __ = await hosted(tmp_path, bet_timeout=60.0)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await seated(pilot, app, bo)
            await press(pilot, "plus")  # something said on the hint line: it stays
            await wait_for(pilot, lambda: "Chip size 25" in hint(app))
            await bo.place(1, "colour", "red", 25)
            await bo.deal(1)  # Bo is ready: the table's timer runs for Ana
            await wait_for(pilot, lambda: ana.closes_at is not None)
            await wait_for(pilot, lambda: "Bets close in" in hint(app))
            assert "Chip size 25" in hint(app)  # (what was said is still there)
            deal = panel(app, "#casino-deal")
            assert "Round 1: bets close in" in deal, deal
            # it counts down
            first = app.screen._bets_close_in()
            await wait_for(pilot, lambda: app.screen._bets_close_in() < first, timeout=5)
            await bo.close()
    finally:
        await server.close()


# -- 2. the host's join lines leave the bets panel once someone joins ---------------------------

async def test_the_hosts_join_lines_make_room_once_someone_joins(tmp_path):
    app, server, ana, bo, ident = await hosted(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            app.clear_notifications()
            await step(pilot)
            alone = panel(app, "#casino-results").replace(" ", "")
            assert ident.fingerprint in alone  # alone at the table: how the others join
            await seated(pilot, app, bo)
            await bo.place(1, "colour", "red", 25)
            await press(pilot, "space")
            await wait_for(pilot, lambda: "25 on red" in panel(app, "#casino-results"))
            shown = panel(app, "#casino-results")
            assert ident.fingerprint not in shown.replace(" ", "")
            assert "friends join with" not in shown
            assert "Ana's bets" in shown and "Bo: bankroll" in shown
            assert "? shows how others join this table." in shown
            await press(pilot, "question_mark")  # where they are now
            assert ident.fingerprint in screen_text(app).replace(" ", "")
            await bo.close()
    finally:
        await server.close()


# -- 3. the host is asked before the table closes on the others --------------------------------

async def test_the_host_is_asked_before_closing_the_table_on_the_others(tmp_path):
    app, server, ana, bo, __ = await hosted(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await seated(pilot, app, bo)
            await press(pilot, "q")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert "Leave and close the table? Bo is still at it" in screen_text(app)
            await press(pilot, "escape")  # stays
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            assert app.return_code is None and app.server is not None
            await press(pilot, "q", "n")  # stays
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            assert app.return_code is None
            await press(pilot, "q", "y")  # leaves: the table closes for Bo
            await wait_for(pilot, lambda: app.return_code is not None)
    finally:
        await bo.close()
        await server.close()


async def test_a_host_alone_at_the_table_leaves_without_a_question(tmp_path):
    app, server, ana, bo, __ = await hosted(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            await press(pilot, "q")
            await wait_for(pilot, lambda: app.return_code is not None)
    finally:
        await server.close()


# -- 4. no dead Tab in a single player's hint -------------------------------------------------

async def test_a_single_players_hint_after_the_deal_offers_no_tab(tmp_path):
    app = CasinoApp(["Root"], DEFAULT, tmp_path / "casino.json", deal_pause=0.0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "space", "d")
        await wait_for(pilot, lambda: app.casino_screen.casino.stage is Stage.SETTLED)
        await step(pilot)
        said = hint(app)
        assert "Enter: next round · h: history" in said and "Tab" not in said, said


async def test_hot_seat_players_hint_after_the_deal_offers_tab(tmp_path):
    app = CasinoApp(["Ada", "Bo"], DEFAULT, tmp_path / "casino.json", deal_pause=0.0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "space", "d")
        await wait_for(pilot, lambda: app.casino_screen.casino.stage is Stage.SETTLED)
        await step(pilot)
        assert "Tab: another player's results" in hint(app)


# -- 5. the newest bet in view, and PgUp / PgDn to the rest -----------------------------------

TEN_BETS = ("space", *["left", "space"] * 6, "j", "w", "p")
"""Seven single cards (A♠ leftwards), the joker spot, the joker bet and the side bet."""


async def test_the_newest_bet_is_in_view_and_the_list_scrolls_by_keys(tmp_path):
    app = CasinoApp(["Root"], DEFAULT, tmp_path / "casino.json", deal_pause=0.0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *TEN_BETS)
        await step(pilot)
        results = panel(app, "#casino-results")
        assert len(app.casino_screen.player.bets) == 10
        assert "1 on the progressive side bet" in results, results
        assert "pays by hand, jackpot" in results, results  # (its second line too)
        assert "Root's bets" not in results  # (out of view above: PgUp brings it)
        assert "PgUp" in footer(app) and "PgDn" not in footer(app), footer(app)
        await press(pilot, "pageup", "pageup")
        await step(pilot)
        results = panel(app, "#casino-results")
        assert "Root's bets (46 staked)" in results and "5 on A♠" in results, results
        assert "progressive" not in results
        assert "PgDn" in footer(app), footer(app)
        await press(pilot, "pagedown", "pagedown")
        await step(pilot)
        assert "1 on the progressive side bet" in panel(app, "#casino-results")
        # a chip more on a spot out of view above: its line comes into view
        await press(pilot, *["right"] * 6)  # the cursor back on A♠
        await step(pilot)
        assert "A♠" not in panel(app, "#casino-results")
        await press(pilot, "space")
        await step(pilot)
        assert "10 on A♠" in panel(app, "#casino-results")


async def test_after_the_deal_the_results_start_from_the_top(tmp_path):
    app = CasinoApp(["Root"], DEFAULT, tmp_path / "casino.json", deal_pause=0.0, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *TEN_BETS, "d")
        await wait_for(pilot, lambda: app.casino_screen.casino.stage is Stage.SETTLED)
        await step(pilot)
        assert "Root: net" in panel(app, "#casino-results")
