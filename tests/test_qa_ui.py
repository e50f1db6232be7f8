"""Layout, input and small behaviour defects a QA play-through found (each test failed
before its fix): keys lost in a burst on the setup screen, Start that did not deal, the
Finnish setup keys' third line, the privacy box on a narrow terminal, stale "all in" and
"Bet to match" once a hand is over, "Skip to my turn" with no turn to skip to, and the
command line's empty preset and its help."""

from __future__ import annotations

import pytest
from fake_session import FakeSession
from test_ui_markup_names import AmountHost
from test_ui_setup import StubApp, home  # noqa: F401  (the setup tests' app and home)
from textual import events
from textual.app import App
from textual.widgets import Input, Static
from ui_pilot import (
    SIZE,
    app_for,
    local_session,
    screen_text,
    settle,
    table_screen,
    table_until,
)

from pokeroulette_tui.engine.i18n import language, set_language
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.ui.config import AppConfig, LaunchOptions, TableSetup
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.setup import SetupScreen
from pokeroulette_tui.ui.screens.start import StartScreen


@pytest.fixture
def lang():
    """Set a language for one test; English again after it."""
    before = language()
    yield set_language
    set_language(before)


def burst(app: App, *keys: str) -> None:
    """Keys arriving in one read from the terminal: all queued before any is handled."""
    for key in keys:
        char = key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


async def settled(pilot) -> None:
    for _ in range(4):
        await pilot.pause()


async def setup_screen(app: App, pilot) -> SetupScreen:
    """``s`` on the start screen: the setup screen, settled."""
    await pilot.press("s")
    await settled(pilot)
    assert isinstance(app.screen, SetupScreen)
    return app.screen


# -- 1. no typed key is lost, however fast ---------------------------------------------------
async def test_setup_keeps_every_key_typed_in_a_burst():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await setup_screen(app, pilot)
        field = screen.query_one("#opt-min_players", Input)
        field.focus()
        await settled(pilot)
        burst(app, "end", "backspace", "backspace", "backspace", "4", "5", "6")
        await settled(pilot)
        assert field.value == "456"
        burst(app, "end", "backspace", "backspace", "backspace", "backspace", "9", "9", "x")
        await settled(pilot)
        assert field.value == "99"  # (x is not a digit: refused, the digits kept)
        name = screen.query_one("#seat-name-1", Input)
        assert name.value == "Bot 1"
        name.focus()
        await settled(pilot)
        burst(app, "end", *["backspace"] * 6, "B", "o")
        await settled(pilot)
        assert name.value == "Bo"
        # keys pressed one by one, as before
        await pilot.press("end", "backspace", "backspace", "A", "d", "a")
        assert name.value == "Ada"


# -- 2. Start deals at once -------------------------------------------------------------------
async def test_start_on_the_setup_screen_deals_the_table():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await setup_screen(app, pilot)
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert len(app.opened) == 1  # no second Enter on the start screen
        assert isinstance(app.screen, StartScreen)


async def test_the_start_button_deals_what_was_agreed():
    app = StubApp(AppConfig(delay=0, launch=LaunchOptions(
        setup=TableSetup.default(PRESETS["draw"], "draw"), open_setup=True)))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#start").focus()
        await pilot.press("enter")
        await settled(pilot)
        assert len(app.opened) == 1
        assert app.opened[0].table.state.rules == PRESETS["draw"]


async def test_a_refused_start_stays_and_deals_nothing():
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await setup_screen(app, pilot)
        screen.query_one("#opt-min_players", Input).value = ""
        await settled(pilot)
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert app.screen is screen and not app.opened


# -- 3. the setup screen's keys fit two lines in every language ------------------------------
@pytest.mark.parametrize("code", ["en", "fi", "sv"])
async def test_setup_keys_fit_two_lines_at_80_columns(lang, code):
    lang(code)
    app = StubApp(AppConfig(delay=0))
    async with app.run_test(size=SIZE) as pilot:
        keys = (await setup_screen(app, pilot)).query_one("#setup-keys", Static)
        assert keys.size.height <= 2, str(keys.render())


# -- 4. the privacy box fits a narrow terminal ------------------------------------------------
@pytest.mark.parametrize("size", [(60, 20), (44, 16), SIZE])
async def test_privacy_box_fits_the_terminal(size):
    session = local_session(PRESETS["draw"], [("Ana", None), ("Bo", None), ("Cy", "random")],
                            seed=1)
    app = app_for(session)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, session)
        assert isinstance(app.screen, PrivacyScreen)
        box = app.screen.query_one("#privacy-box")
        assert box.region.x >= 0 and box.region.right <= size[0]
        text = " ".join(screen_text(app).split())
        for word in ("look", "away.", "cards", "shown", "after", "Enter."):
            assert word in text
        if size == SIZE:
            assert box.region.width <= 70  # (as wide as before where it fits)


# -- 5. nothing of a hand still said once it is over ------------------------------------------
async def test_no_all_in_or_bet_to_match_once_the_hand_is_over():
    rules = PRESETS["classic"].replace(betting="final_only")
    table = table_until(rules, [("Root", None), ("Bo", "random"), ("Cy", "random")], seed=2,
                        stop=lambda s: s.phase == Phase.HAND_OVER)
    s = table.state
    s.seats[0].all_in = True  # the engine keeps both until the next deal
    s.current_bet = 99
    app = app_for(FakeSession.of_table(table))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        text = screen_text(app)
        assert "Root" in text
        assert "all in" not in text
        assert "Bet to match" not in text


async def test_bet_to_match_shows_while_betting_and_not_after():
    rules = PRESETS["draw"].replace(betting="each_round", scoring="chips", ante=1)
    seats = [("Ana", None), ("Bo", "random"), ("Cy", "random")]
    for phase, shown in ((Phase.DRAW, False), (Phase.BETTING, True)):
        table = table_until(rules, seats, seed=4, stop=lambda s, phase=phase: s.phase == phase)
        table.state.current_bet = 2  # (after the betting the engine still holds the last bet)
        app = app_for(FakeSession.of_table(table))
        async with app.run_test(size=(100, 40)) as pilot:
            await settled(pilot)
            assert ("Bet to match: 2" in screen_text(app)) == shown, phase


# -- 7. no "Skip to my turn" with no turn to skip to ------------------------------------------
def _all_in_at_the_final_betting(all_in: bool) -> LocalSession:
    rules = PRESETS["classic"].replace(betting="final_only")
    table = table_until(rules, [("Root", None), ("Bo", "simple"), ("Cy", "simple")], seed=3,
                        stop=lambda s: s.phase == Phase.BETTING and s.betting_round == "final"
                        and s.to_act != 0 and s.seats[0].in_hand and not s.seats[0].folded)
    if all_in:
        me = table.state.seats[0]
        me.contributed += me.chips
        me.bet += me.chips
        me.chips, me.all_in = 0, True
    return LocalSession(table, delay=30)  # (a bot's step is far off: the picture holds)


@pytest.mark.parametrize("all_in", [False, True])
async def test_skip_is_offered_only_with_a_turn_ahead(all_in):
    session = _all_in_at_the_final_betting(all_in)
    from pokeroulette_tui.ui.app import make_app
    app = make_app(AppConfig(delay=30), session)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(6):
            await pilot.pause()
        screen = table_screen(app)
        offered = screen.check_action("skip", ())
        footer = " ".join(screen_text(app).split())
        if all_in:  # nothing left for Root in this hand: no turn to skip to
            assert not offered and "Skip to my turn" not in footer
        else:  # (the control: a seat with chips has a turn ahead)
            assert offered and "Skip to my turn" in footer


def test_turn_ahead_of_a_busted_seat():
    from dataclasses import replace

    from pokeroulette_tui.ui.screens.table import turn_ahead

    rules = PRESETS["classic"].replace(betting="final_only")
    table = table_until(rules, [("Root", None), ("Bo", "simple"), ("Cy", "simple")], seed=3,
                        stop=lambda s: s.phase == Phase.HAND_OVER)
    view = table.view(None)
    me = view.players[0]
    assert turn_ahead(view, 0) == (me.chips > 0)
    busted = replace(view, players=(replace(me, chips=0, status="out"), *view.players[1:]))
    assert not turn_ahead(busted, 0)
    broke = replace(view, players=(replace(me, chips=0), *view.players[1:]))
    assert not turn_ahead(broke, 0)


# -- 8. the command line ----------------------------------------------------------------------
def test_an_empty_preset_is_refused(capsys):
    from pokeroulette_tui.cli import main

    assert main(["--preset", ""]) == 2
    err = capsys.readouterr().err
    assert "unknown preset ''" in err and len(err.strip().splitlines()) == 1
    assert main(["rules", "--preset", ""]) == 2
    assert "unknown preset ''" in capsys.readouterr().err


def test_help_points_to_the_tables_options(capsys):
    from pokeroulette_tui.cli import main

    with pytest.raises(SystemExit) as exit:
        main(["--help"])
    assert exit.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "pokeroulette play --help" in out


async def focused_bet_box(app: App, pilot) -> Input:
    """The amount box of the markup tests' bet dialog, focused and settled."""
    await settled(pilot)
    box = app.screen.query_one("#amount-input", Input)
    box.focus()
    await settled(pilot)
    return box


async def test_the_bet_box_keeps_every_key_typed_in_a_burst():
    """The bet box too (its keys out of order once made "" or a wrong amount of 25)."""
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_bet_box(app, pilot)
        burst(app, "end", "backspace", "backspace", "backspace", "2", "5")
        await settled(pilot)
        assert box.value == "25"
        burst(app, "home", "delete", "3")
        await settled(pilot)
        assert box.value == "35"


async def test_the_bet_box_presets_act_in_their_turn_in_a_burst():
    """A preset letter typed in a burst with editing keys acts where it was typed (it jumped
    ahead as a priority binding: Backspace then ``a`` gave 9 for an all in of 97)."""
    app = AmountHost()
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_bet_box(app, pilot)
        burst(app, "end", "backspace", "a")
        await settled(pilot)
        assert box.value == "97"
        burst(app, "backspace", "backspace", "5", "0", "m")
        await settled(pilot)
        assert box.value == "2"
        burst(app, "p", "backspace", "backspace", "8")
        await settled(pilot)
        assert box.value == "8"
        burst(app, "backspace", "-", "5")
        await settled(pilot)
        assert box.value == "5"  # (a minus is no digit: left out, and said)
        assert "'-' was left out" in str(app.screen.query_one("#amount-error", Static).render())


@pytest.mark.parametrize("cards, keys", [(2, "1-2"), (3, "1-3")])
async def test_the_footer_offers_as_many_card_keys_as_the_stock_has(cards, keys):
    from pokeroulette_tui.session import LocalSession

    def choice(state) -> bool:
        return (state.to_act == 0 and state.phase == "stock_to_active"
                and len(state.seats[0].stock) == cards)

    rules = PRESETS["swedish"].replace(betting="none")
    table = table_until(rules, [("Ana", None), ("Bo", "random"), ("Cy", "random")], 2, choice)
    session = LocalSession(table, delay=0)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        footer = screen_text(app).splitlines()[-1]
        assert f"{keys} Move card" in footer and "1-9" not in footer


def test_a_cut_of_one_card_is_said_in_the_singular():
    from pokeroulette_tui.ui.widgets.hand import prompt_text

    view = FakeSession.of_table(table_until(
        PRESETS["draw"], [("Ana", None), ("Bo", "random")], 1,
        lambda s: s.phase == "cut" and s.to_act == 0)).view(0)
    assert "1 card from the top" in prompt_text(view, hot_seat=False, cut=1).plain
    assert "2 cards from the top" in prompt_text(view, hot_seat=False, cut=2).plain
