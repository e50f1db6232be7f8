"""QA: the casino footer offered keys that did not work (Rebet and Undo before any round or bet,
Deal with no bet, Undo and Rebet after the deal), and a refusal said in a notice went away
before it could be read. The footer now shows only the keys that work now; the hidden keys
still say why nothing happened, and a refusal stays up for a few seconds (or, on the hint
line, until the next key)."""

from __future__ import annotations

import asyncio

import pytest
from test_ui_casino import home, store_path  # noqa: F401  (the same fixtures)
from test_ui_casino_net import table_of_two
from ui_pilot import SIZE, press, screen_text, step, wait_for

from pokeroulette_tui.engine.casino.game import Stage
from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.casino_net import CasinoNetApp


def make(store_path, names=("Ada",), pause=0.0) -> CasinoApp:
    return CasinoApp(list(names), DEFAULT, store_path, deal_pause=pause, seed=11)


def footer(app) -> str:
    """The footer line as drawn."""
    return " ".join(screen_text(app).splitlines()[-1].split())


def footer_keys(app) -> set[str]:
    """The footer's keys as the screen offers them: none shown but off."""
    shown = {key: active for key, active in app.screen.active_bindings.items()
             if active.binding.show}
    assert all(active.enabled for active in shown.values()), shown  # no key shown off
    return {active.binding.action for active in shown.values()}


async def test_round_one_offers_no_rebet_undo_or_deal_and_the_keys_still_say_why(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert footer(app) == "Space Bet o Odds ? Keys q Quit"
        assert footer_keys(app) == {"bet_here", "odds", "keys", "quit"}
        for key, why in (("a", "✗ No bets from the last round to place again"),
                         ("u", "✗ No bet to take back"), ("d", "✗ Place a bet first")):
            await press(pilot, key)
            await step(pilot)
            assert why in screen_text(app), key
        assert app.casino_screen.casino.stage is Stage.BETTING
        # a bet: undo and the deal are offered (and work)
        await press(pilot, "space")
        await step(pilot)
        assert footer(app) == "Space Bet d Deal u Undo o Odds ? Keys q Quit"
        await press(pilot, "u")
        await step(pilot)
        assert "Took back the last chip." in screen_text(app)
        assert "u Undo" not in footer(app) and "d Deal" not in footer(app)
        await press(pilot, "space", "d")
        await step(pilot)
        # the results: no undo or rebet offered, the keys say bets are closed
        assert app.casino_screen.casino.stage is Stage.SETTLED
        assert footer(app) == "Enter Next round o Odds ? Keys q Quit"
        await press(pilot, "a")
        await step(pilot)
        said = list(app._notifications)
        assert len(said) == 1 and said[0].message.startswith("Bets are closed")
        # the next round: rebet is offered now (a round was played), and works
        await press(pilot, "enter")
        await step(pilot)
        assert footer(app) == "Space Bet a Rebet o Odds ? Keys q Quit"
        await press(pilot, "a")
        await step(pilot)
        assert app.casino_screen.player.bets
        assert footer(app) == "Space Bet d Deal u Undo a Rebet o Odds ? Keys q Quit"


async def test_hot_seat_offers_keys_by_each_players_own_bets_and_nothing_while_dealing(
        store_path):
    app = make(store_path, names=("Ada", "Bo"), pause=0.3)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert footer(app) == "Tab Player Space Bet o Odds ? Keys q Quit"
        await press(pilot, "space", "tab")  # Ada bets; Bo has none: the deal, no undo
        await step(pilot)
        assert footer(app) == "Tab Player Space Bet d Deal o Odds ? Keys q Quit"
        await press(pilot, "d")
        await step(pilot)
        assert app.casino_screen.casino.stage is Stage.DEALING
        assert footer(app) == "o Odds ? Keys q Quit"  # (Tab waits for the results)
        assert footer_keys(app) == {"odds", "keys", "quit"}
        await wait_for(pilot, lambda: app.casino_screen.casino.stage is Stage.SETTLED)
        await step(pilot)
        assert footer(app) == "Tab Player Enter Next round o Odds ? Keys q Quit"


async def test_a_refusal_stays_up_long_enough_to_read(store_path):
    app = make(store_path, pause=0.2)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await step(pilot)
        await press(pilot, "a")  # on the hint line: until the next key
        await asyncio.sleep(2.0)
        await step(pilot)
        assert "✗ No bets from the last round to place again" in screen_text(app)
        await press(pilot, "space", "d", "u")  # in a notice while the cards are dealt
        await step(pilot)
        said = list(app._notifications)
        assert len(said) == 1 and said[0].message.startswith("Bets are closed")
        assert said[0].timeout >= 6  # (Textual's default, 5 s, went before it was read)
        for __ in range(2):  # the round settles meanwhile: the notice stays
            await asyncio.sleep(1.5)
            await step(pilot)
            assert "Bets are closed: the cards are being" in screen_text(app)
        assert app.casino_screen.casino.stage is Stage.SETTLED


async def test_a_network_seat_is_offered_ready_and_undo_only_with_bets(tmp_path):
    _host, server, ana, bo = await table_of_two(tmp_path, deal_pause=0.05, result_pause=30.0)
    app = CasinoNetApp(ana)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CasinoScreen))
            await step(pilot)
            assert "d Ready" not in footer(app) and "u Undo" not in footer(app)
            assert "a Rebet" not in footer(app)
            await press(pilot, "d")  # the key still says why
            await wait_for(pilot, lambda: "✗ Place a bet first" in screen_text(app))
            await bo.connect()
            await bo.place(1, "colour", "red", 25)  # Bo's bet: Ana may say ready, not undo
            await wait_for(pilot, lambda: "d Ready" in footer(app))
            assert "u Undo" not in footer(app)
            await press(pilot, "space")
            await wait_for(pilot, lambda: "u Undo" in footer(app))
            assert footer_keys(app) >= {"ready", "undo"}
            await press(pilot, "q")
            await wait_for(pilot, lambda: app.return_code is not None)
    finally:
        await server.close()


@pytest.mark.parametrize("action", ["rebet", "undo", "deal", "next_player"])
async def test_no_casino_key_is_ever_shown_off(store_path, action):
    """check_action answers True or False, never None (a key shown but dead)."""
    app = make(store_path, names=("Ada", "Bo"))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = app.casino_screen
        for keys in ((), ("space", "d")):
            await press(pilot, *keys)
            await step(pilot)
            assert screen.check_action(action, ()) in (True, False), (action, keys)
