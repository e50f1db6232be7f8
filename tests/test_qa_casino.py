"""A QA pass over the casino: the line under the board is never cut (two lines when needed,
fewer words when even that is short), the four-colour deck and the theme follow ctrl+k and
ctrl+t at once (in the main app and in the casino's own), chips that fit a table's limits,
pay tables no player could bet on refused, numbers with thousands separators, and the words
for clearing nothing, the start of a deal and a damaged casino file."""

from __future__ import annotations

from dataclasses import replace

import pytest

from test_ui_casino import home, store_path  # noqa: F401 (the casino screen tests' fixtures)
from ui_pilot import SIZE, press, screen_text, step

from pokeroulette_tui.engine.casino import game as G
from pokeroulette_tui.engine.casino.board import Bet, Kind
from pokeroulette_tui.engine.casino.paytable import DEFAULT, PayTableError, load_file
from pokeroulette_tui.ui import casino as casino_ui
from pokeroulette_tui.ui.casino import CasinoApp, CasinoScreen
from pokeroulette_tui.ui.widgets.casino_board import CasinoBoard


def make(store_path, names=("Ana", "Bo"), table=DEFAULT, pause=0.0) -> CasinoApp:
    return CasinoApp(list(names), table, store_path, deal_pause=pause, seed=11)


def hint(app) -> str:
    """The hint line(s) under the board, as shown (wrapped lines joined by a space)."""
    screen = app.casino_screen
    region = screen.query_one("#casino-hint").region
    lines = screen_text(app).splitlines()[region.y:region.bottom]
    return " ".join(line.strip() for line in lines)


def words(text: str) -> str:
    return " ".join(text.split())


# -- 1: the hint line is never cut -------------------------------------------------------------

async def test_long_messages_under_the_board_are_said_whole_on_two_lines(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, *["down"] * 6, "p")
        assert hint(app).endswith("1 on the progressive side bet: 1 there now, pays by hand, "
                                  "jackpot.")
        await press(pilot, "w")
        said = hint(app)
        assert said.endswith("5 on the joker bet (first and fifth cards jokers): 5 there "
                             "now, pays 1250:1.")
        assert ") (" not in said  # no doubled brackets
        await press(pilot, "p")
        assert hint(app).endswith("✗ The progressive side bet is one stake of 1 a round, and "
                                  "it is already placed")
        # two lines for the hint, and still everything else on an 80x24 terminal
        text = screen_text(app)
        assert app.casino_screen.query_one("#casino-hint").region.height == 2
        assert "Ana's bets (6 staked)" in text and "Bo: no bets yet" in text
        assert "Round 1: bets open" in text and "q Quit" in text.splitlines()[-1]
        assert ") (" not in words(text)  # nor in the bets panel
        await press(pilot, "up", "up")  # a short line again: one line
        assert app.casino_screen.query_one("#casino-hint").region.height == 1, hint(app)


async def test_a_message_too_long_even_for_two_lines_is_said_in_fewer_words(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = app.casino_screen
        screen._say("word " * 60, shorter=["The short way to say it."])
        await step(pilot)
        assert hint(app).endswith("The short way to say it.")
        assert "word word" not in hint(app)


# -- 2: ctrl+k and ctrl+t ------------------------------------------------------------------

async def test_ctrl_k_recolours_a_casino_opened_from_the_start_screen_at_once(tmp_path):
    from pokeroulette_tui.ui.app import make_app
    from pokeroulette_tui.ui.config import AppConfig

    app = make_app(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "c")
        await step(pilot)
        screen = app.screen
        assert isinstance(screen, CasinoScreen) and not screen.four_color
        await press(pilot, "ctrl+k")
        assert screen.four_color and screen.query_one(CasinoBoard).model.four_color
        await press(pilot, "ctrl+k")
        assert not screen.query_one(CasinoBoard).model.four_color


async def test_ctrl_k_and_ctrl_t_work_in_the_casino_app_of_its_own(store_path):
    from pokeroulette_tui.ui.config import AppConfig

    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = app.casino_screen
        await press(pilot, "ctrl+k")
        assert screen.four_color and screen.query_one(CasinoBoard).model.four_color
        assert "Four-colour deck on" in [n.message for n in app._notifications]
        assert AppConfig.load().four_color
        assert app.theme == "textual-dark"
        await press(pilot, "ctrl+t")
        assert app.theme == "textual-light" and AppConfig.load().theme == "light"
        await press(pilot, "ctrl+t")
        assert app.theme == "textual-dark" and AppConfig.load().theme == "dark"


def test_the_network_casino_app_has_the_same_keys():
    from pokeroulette_tui.ui.casino_net import CasinoNetApp

    keys = {b.key: b.action for b in CasinoNetApp.BINDINGS}
    assert keys["ctrl+k"] == "toggle_four_color" and keys["ctrl+t"] == "toggle_theme"
    assert callable(CasinoNetApp.action_toggle_four_color)


# -- 3: chips and pay tables ---------------------------------------------------------------

def test_chip_sizes_fit_the_tables_limits():
    chips_for = casino_ui.chips_for
    assert chips_for(DEFAULT) == (1, 5, 25, 100)
    assert chips_for(replace(DEFAULT, min_bet=10, max_bet=20)) == (10, 20)
    assert chips_for(replace(DEFAULT, min_bet=5, max_bet=5)) == (5,)
    assert chips_for(replace(DEFAULT, min_bet=1, max_bet=30)) == (1, 5, 25)


async def test_a_table_of_10_to_20_can_be_bet_on(store_path):
    app = make(store_path, table=replace(DEFAULT, min_bet=10, max_bet=20))
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space")
        await press(pilot, "minus", "left", "space", "plus", "plus", "left", "space")
        bets = {b.spot: b.amount for b in app.casino_screen.player.bets}
        assert bets == {(Kind.CARD, "As"): 20, (Kind.CARD, "Ks"): 10, (Kind.CARD, "Qs"): 20}
        assert "✗" not in hint(app)


def test_a_pay_table_nobody_could_bet_on_is_refused(tmp_path):
    with pytest.raises(PayTableError, match="progressive_stake must be at most 1,000"):
        replace(DEFAULT, progressive_stake=2000)
    with pytest.raises(PayTableError, match="min_bet must be at most 1,000"):
        replace(DEFAULT, min_bet=1001, max_bet=2000)
    path = tmp_path / "dear.toml"
    path.write_text(_toml(progressive_stake=2000))
    with pytest.raises(PayTableError, match="the bankroll a player starts with"):
        load_file(path)
    replace(DEFAULT, progressive_stake=1000, min_bet=1000, max_bet=1000)  # just fits


def _toml(**extra: int) -> str:
    d = DEFAULT.to_dict()
    d.update(extra)
    d.pop("name", None)
    out = []
    for key, value in d.items():
        if not isinstance(value, dict):
            out.append(f"{key} = {value!r}" if not isinstance(value, str)
                       else f'{key} = "{value}"')
    for key, value in d.items():
        if isinstance(value, dict):
            out.append(f"[{key}]")
            out += [f'"{k}" = {v}' for k, v in value.items()]
    return "\n".join(out) + "\n"


# -- 4: thousands separators ---------------------------------------------------------------

def test_numbers_in_the_casinos_messages_have_thousands_separators():
    table = replace(DEFAULT, max_bet=5000)
    c = G.new_casino(table, ["Ana"], [1200])
    with pytest.raises(G.CasinoError, match="not enough chips: 1,200 left, the bet is 1,300"):
        G.place(c, 0, Kind.CARD, "As", 1300)
    c.players[0].last_bets = [Bet(Kind.CARD, "As", 1500)]
    with pytest.raises(G.CasinoError, match="last round's bets need 1,500 chips; 1,200 left"):
        G.rebet(c, 0)
    G.place(c, 0, Kind.CARD, "As", 1000)
    with pytest.raises(G.CasinoError, match=r"at most 5,000 on one spot \(room for 4,000"):
        G.place(c, 0, Kind.CARD, "As", 4500)


# -- 5: words for nothing to clear, the deal's start and a damaged file --------------------

async def test_clearing_an_empty_board_says_there_is_nothing_to_take_back(store_path):
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "x")
        assert "You have no bets on the board to take back." in hint(app)
        assert "Took back all your bets" not in hint(app)
        await press(pilot, "space", "x")
        assert "Took back all your bets." in hint(app)


async def test_the_start_of_a_deal_says_dealing_not_card_0(store_path):
    app = make(store_path, pause=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "space", "d")
        assert "No more bets: dealing" in hint(app)
        assert "card 0" not in screen_text(app)


async def test_a_damaged_casino_file_leaves_the_bets_on_an_80x24_screen(store_path):
    store_path.parent.mkdir(parents=True)
    store_path.write_text("{ not json")
    app = make(store_path)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        text = screen_text(app)
        assert "The casino file was damaged: see on the right" in text
        assert "Ana's bets" in text  # first in the panel, the notice under them
        results = str(app.casino_screen.query_one("#casino-results-text").render())
        assert results.index("Ana's bets") < results.index("is damaged")
        assert "casino.json.damaged" in results
