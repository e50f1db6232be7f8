"""The casino screen played by keys and the mouse: every kind of bet, undo, clear and
rebet, mistakes said on screen, a seeded deal settled and saved, hot-seat players, the odds
and the history, bankroll resets, and the store's warning for a damaged file."""

from __future__ import annotations

import json

import pytest
from textual import events

from ui_pilot import SIZE, press, screen_text, step

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import Kind
from pokeroulette_tui.engine.casino.paytable import DEFAULT
from pokeroulette_tui.engine.casino.store import START_BANKROLL, CasinoStore
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.casino_words import check_names
from pokeroulette_tui.ui.screens.casino_dialogs import (
    CasinoHistoryScreen,
    CasinoKeysScreen,
    ConfirmScreen,
    OddsScreen,
)
from pokeroulette_tui.ui.widgets.casino_board import COMPACT


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


@pytest.fixture
def store_path(tmp_path):
    return tmp_path / "data" / "casino.json"


def make(store_path, names=("Ada",), seed=11, pause=0.0) -> CasinoApp:
    return CasinoApp(list(names), DEFAULT, store_path, deal_pause=pause, seed=seed)


def screen(app) -> CasinoScreen:
    return app.casino_screen


def spots(app, seat=0) -> dict[tuple[Kind, str], int]:
    return {b.spot: b.amount for b in screen(app).casino.players[seat].bets}


async def test_every_kind_of_bet_by_keys(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        # the cursor starts on A♠ (top right); the chip is 5
        await press(pilot, "space", "s", "v", "c", "k", "f")
        await press(pilot, *["left"] * 12)                      # onto 2♠
        await press(pilot, "2", "4", "6", "enter")
        await press(pilot, "j", "w", "p")
        await press(pilot, "down", "down", "down", "down")      # the outside row
        await press(pilot, "right", "space", "right", "right", "space", "right", "right",
                    "space")
        await press(pilot, "down", "space")                     # a poker bet below
        got = spots(app)
        assert got == {
            (Kind.CARD, "As"): 5, (Kind.SPLIT, "Ks As"): 5, (Kind.SPLIT, "As Ah"): 5,
            (Kind.CORNER, "Ks As Kh Ah"): 5, (Kind.RANK, "A"): 5, (Kind.SUIT, "S"): 5,
            (Kind.RANKS2, "23"): 5, (Kind.RANKS4, "2345"): 5, (Kind.RANKS6, "234567"): 5,
            (Kind.CARD, "2s"): 5, (Kind.JOKER, ""): 5, (Kind.WILD, ""): 5,
            (Kind.PROGRESSIVE, ""): 1, (Kind.COLOUR, "red"): 5, (Kind.PARITY, "odd"): 5,
            (Kind.HALF, "low"): 5, (Kind.POKER, "full_house"): 5,
        }
        p = screen(app).casino.players[0]
        assert p.bankroll == START_BANKROLL - 16 * 5 - 1
        text = screen_text(app)
        assert "staked 81" in text and "PLAY MONEY ONLY" in text and "jackpot 10,000" in text
        lines = text.splitlines()
        assert lines[2].rstrip().endswith("A♠  5")            # the chips on A♠, on the board
        assert lines[2].startswith("♠●2♠  5")                # the suit's chip, 2♠'s chips
        assert "5 on full house or better" in text


async def test_the_chip_size_keys_and_the_mouse(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "plus", "plus")                      # 5 -> 25 -> 100
        assert screen(app).chip == 100
        await press(pilot, "plus", "minus")                     # stays at 100, then 25
        assert screen(app).chip == 25
        g = COMPACT
        # a card: its face; between two cards in a row: the split; under a card: the split
        # down; the corner gap
        await pilot.click("#board", offset=(g.x(0), g.y(1)))            # 2♥
        await pilot.click("#board", offset=(g.x(0) + g.cell, g.y(1)))   # 2♥ 3♥
        await pilot.click("#board", offset=(g.x(0) + 2, g.y(1) + 1))    # 2♥ 2♦
        await pilot.click("#board", offset=(g.x(0) + g.cell, g.y(1) + 1))  # 2♥ 3♥ 2♦ 3♦
        await pilot.click("#board", offset=(g.x(5), 0))                 # the sevens
        await pilot.click("#board", offset=(3, g.spots_y(0)))           # the joker spot
        await step(pilot)
        assert spots(app) == {(Kind.CARD, "2h"): 25, (Kind.SPLIT, "2h 3h"): 25,
                              (Kind.SPLIT, "2h 2d"): 25, (Kind.CORNER, "2h 3h 2d 3d"): 25,
                              (Kind.RANK, "7"): 25, (Kind.JOKER, ""): 25}
        assert screen(app).cursor == (4, 0)  # on the joker spot, the last spot clicked


async def test_undo_clear_and_rebet(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        s = screen(app)
        await press(pilot, "space", "space", "k")
        assert spots(app) == {(Kind.CARD, "As"): 10, (Kind.RANK, "A"): 5}
        await press(pilot, "u")
        assert spots(app) == {(Kind.CARD, "As"): 10}
        await press(pilot, "backspace")
        assert spots(app) == {(Kind.CARD, "As"): 5}
        await press(pilot, "k", "f", "x")
        assert spots(app) == {} and s.player.bankroll == START_BANKROLL
        assert "Took back all your bets" in screen_text(app)
        await press(pilot, "a")
        assert "No bets from the last round" in screen_text(app)
        await press(pilot, "space", "f", "d", "enter")           # a round, and the next
        assert s.casino.round_no == 2 and spots(app) == {}
        await press(pilot, "a")
        assert spots(app) == {(Kind.CARD, "As"): 5, (Kind.SUIT, "S"): 5}


async def test_a_bet_that_cannot_be_placed_is_said_on_screen(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "left", "4")                          # four ranks from the king
        assert "✗ 4 ranks from king run off the board" in screen_text(app)
        await press(pilot, "d")
        assert "✗ Place a bet first" in screen_text(app)
        await press(pilot, "plus", "plus")                       # chips of 100
        await press(pilot, *["space"] * 6)
        text = screen_text(app)
        assert "✗ At most 500 on one spot" in text and "Traceback" not in text
        assert spots(app) == {(Kind.CARD, "Ks"): 500}
        await press(pilot, *["down"] * 4, "c")                   # off the grid
        assert "✗ Move the cursor onto the cards first" in screen_text(app)


async def test_a_seeded_deal_settles_updates_the_bankroll_and_the_store(store_path):
    app = make(store_path, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space", "k", *["down"] * 4, *["left"] * 5, "space", "right",
                    "space", "down", "down", "right", "space")  # A♠, aces, red, black, side bet
        await press(pilot, "d")
        s = screen(app)
        c = s.casino
        assert c.stage is G.Stage.SETTLED and len(c.dealt) == 5
        # the same bets and the same seed without a screen
        twin = G.new_casino(DEFAULT, ["Ada"], [START_BANKROLL], seed=5)
        for kind, target, amount in (("card", "As", 5), ("rank", "A", 5), ("colour", "red", 5),
                                     ("colour", "black", 5), ("progressive", "", 1)):
            G.place(twin, 0, kind, target, amount)
        G.close(twin)
        G.deal_all(twin)
        assert c.dealt == twin.dealt
        assert c.players[0].bankroll == twin.players[0].bankroll
        net = twin.players[0].net
        text = screen_text(app)
        assert f"Ada: net {net:+,}" in text and "Net this round: Ada" in text
        assert any(r.why in " ".join(text.split()) or r.why[:20] in text
                   for r in twin.players[0].results)
        saved = json.loads(store_path.read_text())
        assert saved["bankrolls"] == {"Ada": twin.players[0].bankroll}
        assert saved["jackpots"]["default"] == 1_000_000 + 20
        assert saved["history"][0]["names"] == ["Ada"]
        # the next round, then the store is read again by a new table
        await press(pilot, "enter")
        assert c.stage is G.Stage.BETTING and c.round_no == 2
    again = CasinoStore.open(store_path)
    assert again.bankroll("Ada") == twin.players[0].bankroll and len(again.history) == 1


async def test_the_cards_come_one_by_one_with_a_pause(store_path):
    app = make(store_path, pause=0.01)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space", "d")
        c = screen(app).casino
        assert c.stage is G.Stage.DEALING
        assert "No more bets" in screen_text(app)
        for _ in range(200):
            if c.stage is G.Stage.SETTLED:
                break
            await pilot.pause(0.01)
        assert c.stage is G.Stage.SETTLED
        await step(pilot)
        assert "Net this round" in screen_text(app)


async def test_hot_seat_players_bet_in_turn(store_path):
    app = make(store_path, names=("Ada", "Bo"))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space")
        await press(pilot, "tab")
        assert "Bo (2/2)" in screen_text(app)
        await press(pilot, "left", "space", "space")
        assert spots(app, 0) == {(Kind.CARD, "As"): 5}
        assert spots(app, 1) == {(Kind.CARD, "Ks"): 10}
        assert "Ada: 1 bet, 5 staked" in screen_text(app)
        await press(pilot, "tab")
        assert "Ada (1/2)" in screen_text(app)
        await press(pilot, "d")
        text = screen_text(app)
        assert "Ada: net" in text and "Bo: net" in text
        await press(pilot, "tab")                            # Bo's results on the board
        assert screen(app).seat == 1
        saved = json.loads(store_path.read_text())
        assert set(saved["bankrolls"]) == {"Ada", "Bo"}
        await press(pilot, "enter")
        assert screen(app).seat == 0


async def test_the_odds_history_and_keys_screens_open(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "o")
        assert isinstance(app.screen, OddsScreen)
        text = screen_text(app)
        assert "a single card" in text and "51:1" in text and "96.30%" in text
        notes = str(app.screen.query_one("#odds-notes").render())  # under the table
        assert "Jackpot now: 10,000 play chips (breaks even at 373,675" in notes
        await press(pilot, "escape")
        await press(pilot, "h")
        assert isinstance(app.screen, CasinoHistoryScreen)
        assert "No rounds yet" in screen_text(app)
        await press(pilot, "escape", "space", "d", "h")
        assert isinstance(app.screen, CasinoHistoryScreen)
        assert "Round 1" in screen_text(app) and "Ada " in screen_text(app)
        await press(pilot, "escape", "question_mark")
        assert isinstance(app.screen, CasinoKeysScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, CasinoScreen)


async def test_a_broke_player_is_offered_a_new_bankroll(store_path):
    store = CasinoStore.open(store_path)
    store.bankrolls["Ada"] = 0
    store.write()
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await step(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Ada has no chips left" in screen_text(app)
        await press(pilot, "y")
        assert screen(app).player.bankroll == START_BANKROLL
        assert CasinoStore.open(store_path).bankroll("Ada") == START_BANKROLL


async def test_a_bankroll_reset_on_request_asks_first(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "plus", "plus", "space", "R")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "n")
        assert screen(app).player.bankroll == START_BANKROLL - 100
        await press(pilot, "R", "y")
        assert screen(app).player.bankroll == START_BANKROLL and spots(app) == {}


async def test_a_damaged_store_is_said_and_set_aside(store_path):
    store_path.parent.mkdir(parents=True)
    store_path.write_text("{ not json")
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert "✗ The casino file was damaged: see on the right" in screen_text(app)
        results = str(app.screen.query_one("#casino-results-text").render())
        assert "is damaged" in results and "casino.json.damaged" in results
    assert store_path.with_name("casino.json.damaged").exists()


async def test_quitting_gives_the_chips_on_the_board_back_and_saves(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space", "q")
    assert json.loads(store_path.read_text())["bankrolls"] == {"Ada": START_BANKROLL}


def test_names_and_the_command_line_are_checked(capsys):
    from pokeroulette_tui.cli import main

    assert check_names(["Ada", "Bo"]) is None
    assert "twice" in check_names(["Ada", "ADA"])
    assert main(["casino", "Ada", "ada"]) == 2
    assert "'ada' is there twice" in capsys.readouterr().err


async def test_the_start_screen_opens_the_casino_and_q_comes_back(store_path):
    """Issue 11: the casino is on the start screen (c); q there saves and returns to it."""
    from test_ui_setup import StubApp

    from pokeroulette_tui.ui.config import AppConfig
    from pokeroulette_tui.ui.screens.start import StartScreen

    app = StubApp(AppConfig(delay=0, autosave=False))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert isinstance(app.screen, StartScreen)
        await press(pilot, "c")
        assert isinstance(app.screen, CasinoScreen) and "PLAY MONEY ONLY" in screen_text(app)
        await press(pilot, "space")  # a chip on the board …
        assert app.screen.player.bankroll < START_BANKROLL
        await press(pilot, "q")  # … given back, the bankroll kept, and the start screen again
        assert isinstance(app.screen, StartScreen) and app.is_running
    saved = json.loads(store_path.read_text())["bankrolls"]
    assert list(saved.values()) == [START_BANKROLL]


async def test_keys_typed_at_once_run_in_the_order_typed(store_path):
    """'-' then Space, sent together as a fast typist (or a paste) does: the chip is made
    smaller first, then the bet is placed with it (a priority key used to overtake an
    ordinary one typed just ahead of it)."""
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert screen(app).chip == 5
        for key in ("minus", "space"):  # no pause between them
            app.post_message(events.Key(key, None))
        await step(pilot)
        await step(pilot)
        assert screen(app).chip == 1
        assert sum(spots(app).values()) == 1
