"""The casino screen at a network table, driven by the pilot: a real casino host over
loopback TLS, this terminal's player at the screen and a second player by the session API.
"""

from __future__ import annotations


import pytest
from ui_pilot import wait_for, SIZE, press, screen_text

from pokeroulette_tui.engine.casino.game import Stage
from pokeroulette_tui.engine.casino.paytable import NAMED
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.net import tls
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.server import Server
from pokeroulette_tui.ui.casino import CasinoScreen
from pokeroulette_tui.ui.casino_net import CasinoNetApp


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))



async def table_of_two(tmp_path, **config):
    """A tight casino table served over loopback TLS, and two players' sessions for it
    (Ana, Bo; not connected yet)."""
    host = CasinoHost(CasinoConfig(table=NAMED["tight"], seed=8, **config))
    server = Server(host)
    ident = tls.host_identity(tmp_path / "host")
    __, port = await server.start("127.0.0.1", 0, ssl=tls.server_context(ident))
    ana, bo = (RemoteCasino("127.0.0.1", port, name, tls=True, fingerprint=ident.fingerprint)
               for name in ("Ana", "Bo"))
    return host, server, ana, bo


async def test_a_network_casino_screen_bets_readies_and_sees_the_other_player(tmp_path):
    host, server, ana, bo = await table_of_two(tmp_path, deal_pause=0.05, result_pause=30.0)
    app = CasinoNetApp(ana)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            await bo.connect()
            await bo.place(1, "colour", "red", 25)
            await wait_for(pilot, lambda: "25 on red" in screen_text(app))
            text = screen_text(app)
            assert "Bo: bankroll 975, 25 staked" in text and "Ana's bets" in text
            # Ana bets by keys: the cursor starts on A♠, the chip is 5
            await press(pilot, "space", "f")
            await wait_for(pilot, lambda: len(host.casino.players[0].bets) == 2)
            assert {b.target for b in host.casino.players[0].bets} == {"As", "S"}
            assert "staked 10" in screen_text(app)
            # a bet over the tight table's limit: the host's words on the hint line
            await press(pilot, *["plus"] * 3)  # chip 100
            await press(pilot, "space", "space", "space")
            await wait_for(pilot, lambda: "At most 250 on one spot" in screen_text(app))
            assert host.casino.players[0].bankroll == START_BANKROLL - 10 - 200
            # d: ready (not a deal); the table waits for Bo
            assert "d Ready" in screen_text(app)
            await press(pilot, "d")
            await wait_for(pilot, lambda: "waiting for Bo" in screen_text(app))
            assert host.casino.stage is Stage.BETTING
            await bo.deal(1)
            await wait_for(pilot, lambda: ana.casino.stage is Stage.SETTLED)
            await wait_for(pilot, lambda: "Net this round" in screen_text(app))
            text = screen_text(app)
            assert "Enter: ready for the next round" in text and "Bo: net" in text
            me = host.casino.players[0]
            assert f"Ana · bankroll {me.bankroll:,}" in text
            # Enter from both: the next round
            await press(pilot, "enter")
            await bo.next_round(1)
            await wait_for(pilot, lambda: ana.casino.stage is Stage.BETTING)
            await wait_for(pilot, lambda: "round 2" in screen_text(app))
            # the host goes away: the screen says so, and only leaving is left
            await bo.close()
            await server.close()
            await wait_for(pilot, lambda: "Press q to leave" in screen_text(app))
            await press(pilot, "space")
            assert host.casino.players[0].bets == []
            await press(pilot, "q")
            await wait_for(pilot, lambda: app.return_code is not None)
    finally:
        await server.close()


@pytest.mark.parametrize("width", [80, 120])
async def test_the_ready_line_never_ends_cut_into_the_opposite(tmp_path, width):
    """With the timer running the ready line is too long for 80 columns: the clause about a
    bet making you not ready is left out whole ("… a bet makes you" said the opposite)."""
    host, server, ana, bo = await table_of_two(tmp_path, bet_timeout=60.0)
    app = CasinoNetApp(ana)
    try:
        async with app.run_test(size=(width, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            await bo.connect()
            await press(pilot, "space", "d")  # a bet, then ready: the timer starts
            await wait_for(pilot, lambda: "bets close in" in screen_text(app))
            text = screen_text(app)
            assert "You are ready: waiting for Bo (bets close in" in text
            if width == 80:
                assert "a bet makes you" not in text
            else:
                assert "a bet makes you not ready" in text
            await bo.close()
    finally:
        await ana.close()
        await server.close()
