"""Casino polish found by a QA pass: the side bet's loss names the hand dealt, rebet is offered
only when there are last round's bets to repeat, undo after the deal says why nothing
happened, and a host whose messages cannot be read is said on screen (not a blank table)."""

from __future__ import annotations

import asyncio
import json

import pytest
from ui_pilot import SIZE, press, screen_text, step

from pokeroulette_tui.engine.cards import parse_cards
from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import Bet, Kind
from pokeroulette_tui.engine.casino.game import Settled, Stage
from pokeroulette_tui.engine.casino.paytable import DEFAULT, PayTable
from pokeroulette_tui.net import casino_wire as W
from pokeroulette_tui.net.casino_client import RemoteCasino
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.casino_net import CasinoNetApp


from test_ui_casino import home, store_path  # noqa: E402,F401  (the same fixtures)


def make(store_path, names=("Ada",), seed=11) -> CasinoApp:
    return CasinoApp(list(names), DEFAULT, store_path, deal_pause=0.0, seed=seed)


def side_bet_why(cards: str, table: PayTable = DEFAULT) -> tuple[int, str]:
    c = G.new_casino(table, ["Ada"], [100])
    c.dealt = parse_cards(cards)
    bet = Bet(Kind.PROGRESSIVE, "", 1)
    paid, why = G.wins(c, bet)
    assert G.explain(c, Settled(bet, paid, "host's words")) == why
    return paid, why


# -- 2. the side bet's loss names the hand the player had ----------------------------------

def test_a_lost_side_bet_names_the_hand_dealt_and_what_the_side_bet_needs():
    # a pair of eights is in the class "pair of sixes or better": the hand is said, not that
    paid, why = side_bet_why("8s 8h 2d 9c Kd")
    assert paid == 0
    assert why == "your hand was pair of eights (the side bet needs three of a kind or better)"
    assert side_bet_why("4s 4h 2d 9c Kd")[1] == (
        "your hand was pair of fours (the side bet needs three of a kind or better)")
    assert "two pair, eights and twos" in side_bet_why("8s 8h 2d 2c Kd")[1]
    assert side_bet_why("8s 8h 8d 2c Kd") == (4, "three of a kind")  # a win: as before


def test_a_side_bet_that_pays_on_some_hands_only_names_them():
    table = PayTable.from_dict({"progressive": {"three_of_a_kind": 3, "flush": 8}},
                               name="gaps")
    paid, why = side_bet_why("9s Th Jd Qc Kd", table)  # a straight: above trips, unpaid
    assert paid == 0
    assert why == ("your hand was king-high straight (the side bet pays only on three of a "
                   "kind, flush)")


# -- 3. rebet: offered only when there are last round's bets --------------------------------

def rebet_key(app) -> bool:
    """Whether the footer shows the a key (Rebet): only when it is usable (else the key is
    there, hidden, to say why nothing is placed)."""
    active = app.screen.active_bindings["a"]
    if active.binding.action == "rebet":
        assert active.enabled and active.binding.show
        return True
    assert active.binding.action == "rebet_unoffered" and not active.binding.show
    return False


async def test_rebet_is_offered_only_with_last_rounds_bets_and_not_after_a_restart(
        store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        text = screen_text(app)
        assert "a for last round's bets" not in text and "None yet." in text
        assert not rebet_key(app)
        await press(pilot, "a")  # the key, shown off, still says why nothing is placed
        assert "No bets from the last round" in screen_text(app)
        await press(pilot, "space", "d", "enter")  # a round, and the next
        await step(pilot)
        assert "a for last round's bets again" in screen_text(app)
        assert rebet_key(app)
        await press(pilot, "q")
    # the program again, on the same file: last round's bets were not saved
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert "a for last round's bets" not in screen_text(app)
        assert not rebet_key(app)


@pytest.mark.parametrize("older_host", [False, True])
async def test_a_network_seat_knows_its_last_rounds_bets(older_host):
    """From the host's state (so a client that restarts and rejoins knows them too), or from
    the settled state it saw, from a host that does not send them."""
    c = G.new_casino(DEFAULT, ["Ana", "Bo"], [100, 100], seed=1)
    G.place(c, 0, "colour", "red", 5)
    G.place(c, 1, "card", "As", 5)
    G.close(c)
    G.deal_all(c)
    seats = [(True, False), (True, False)]

    def state() -> dict:
        msg = {**W.state(c, seats, closes_in=None, next_in=None), "you": 0}
        if older_host:
            for p in msg["players"]:
                del p["last_bets"]
        return msg

    session = RemoteCasino("127.0.0.1", 1, "Ana", tls=False)
    session.pay_table, session.seat = DEFAULT, 0
    session._handle(state())
    G.next_round(c)
    rejoined = RemoteCasino("127.0.0.1", 1, "Ana", tls=False)  # first heard after the round
    rejoined.pay_table, rejoined.seat = DEFAULT, 0
    for s in (session, rejoined):
        s._handle(state())
        assert s.casino.stage is Stage.BETTING
    assert session.casino.players[0].last_bets == [Bet(Kind.COLOUR, "red", 5)]
    if older_host:  # only what this client saw settled, and only its own
        assert rejoined.casino.players[0].last_bets == []
        assert session.casino.players[1].last_bets == []
    else:
        assert rejoined.casino.players[0].last_bets == [Bet(Kind.COLOUR, "red", 5)]
        assert session.casino.players[1].last_bets == [Bet(Kind.CARD, "As", 5)]


# -- 4. undo once bets are closed says why -------------------------------------------------

def notes(app) -> list:
    return list(app._notifications)


async def test_undo_after_the_results_says_why_nothing_happened(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space", "d")
        await step(pilot)
        assert app.casino_screen.casino.stage is Stage.SETTLED
        before = app.casino_screen.casino.players[0].bankroll
        await press(pilot, "u")
        await step(pilot)
        said = notes(app)
        assert len(said) == 1
        assert said[0].message.startswith("Bets are closed: this round is settled.")
        assert said[0].markup is False
        assert app.casino_screen.casino.players[0].bankroll == before
        # the footer no longer offers Undo after the deal (the key says why, hidden)
        active = app.screen.active_bindings["u"]
        assert active.binding.action == "bets_closed" and not active.binding.show
        await press(pilot, "enter", "u")  # the next round: undo has nothing to take back
        assert len(notes(app)) == 1 and "No bet to take back" in screen_text(app)


# -- 5. a host whose states cannot be read -------------------------------------------------

async def unreadable_host(close_after: bool):
    """A casino host that welcomes anyone and then sends only states that do not fit."""
    connections = []

    async def serve(reader, writer):
        connections.append(writer)
        await reader.readline()  # the hello
        welcome = W.welcome(name="Ana", seat=0, token="tok", password=False, seeded=False,
                            table=DEFAULT, deal_pause=0.1, bet_timeout=30, result_pause=5)
        writer.write(json.dumps(welcome).encode() + b"\n")
        for n in range(3):
            writer.write(json.dumps({"type": "casino", "stage": "nonsense", "round": n}
                                    ).encode() + b"\n")
        await writer.drain()
        if close_after:
            writer.close()
        else:
            await reader.read()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def wait_for_text(pilot, app, words: str, timeout: float = 10.0) -> str:
    async with asyncio.timeout(timeout):
        while words not in (text := screen_text(app)):
            await asyncio.sleep(0.02)
            await step(pilot)
    return text


@pytest.mark.parametrize("close_after", [False, True])
async def test_a_host_sending_only_unreadable_states_is_said_on_screen(close_after):
    server, port = await unreadable_host(close_after)
    session = RemoteCasino("127.0.0.1", port, "Ana", tls=False,
                           retry_delays=(0.05, 30.0))
    app = CasinoNetApp(session)
    try:
        async with app.run_test(size=SIZE) as pilot:
            async with asyncio.timeout(10):
                while not isinstance(app.screen, CasinoScreen):
                    await asyncio.sleep(0.02)
            text = await wait_for_text(pilot, app, "cannot read")
            flat = " ".join(text.split())
            assert "sends messages this program cannot read" in flat
            assert "There is no table to show" in flat
            if close_after:  # the connection drops: the reconnecting is said with it
                text = await wait_for_text(pilot, app, "reconnecting")
                flat = " ".join(text.split())
                assert "sends messages this program cannot read" in flat
                assert "Connection lost" in flat and "Reconnected" not in flat
            await press(pilot, "q")
    finally:
        server.close()
        await session.close()
