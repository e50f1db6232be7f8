"""Pre-actions (check/fold, check/call any) and skipping to your turn, at a real local table
played by key presses: one person with bots, and hot-seat (the pre-action is played for
the seat that armed it, at once, and shows nobody's cards)."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.actions import AllIn, Call, Check, Fold, PlaceBet
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.screens.amount import AmountScreen
from pokeroulette_tui.ui.screens.privacy import PrivacyScreen
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from test_ui_hotseat import FrameWatcher
from ui_pilot import SIZE, app_for, fake_at_turn, press, screen_text, step, table_screen, table_until

RULES = PRESETS["classic"]  # betting after each round
SLOW = 30.0  # the dealer and bots would wait this long: only skipping gets them going


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


def status(app) -> str:
    return screen_text(app).splitlines()[0]


def waiting_to_bet(s) -> bool:
    """A bot is to bet, seat 0 can still bet and has not acted in this round, nothing bet."""
    return (s.phase == "betting" and s.to_act not in (None, 0) and s.current_bet == 0
            and s.seats[0].can_act and not s.seats[0].acted)


def replayed(table: Table, seats, seed: int, count: int) -> Table:
    """The same table with only its first ``count`` actions played (the state then)."""
    twin = Table.create(table.state.rules, [SeatConfig(n, b) for n, b in seats], seed=seed)
    for action in table.actions[:count]:
        twin.apply(action)
    return twin


async def run_until(pilot, done, limit: int = 400) -> None:
    for _ in range(limit):
        if done():
            return
        await step(pilot)
    raise AssertionError("never happened")


SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random"), ("Di", "random")]


@pytest.mark.parametrize("kind, key, allowed", [
    ("check_fold", "f", (Check, Fold)),
    ("call_any", "c", (Check, Call, AllIn)),
])
async def test_armed_before_my_turn_then_skip_plays_it_for_me(kind, key, allowed):
    seed = 2
    table = table_until(RULES, SEATS, seed, waiting_to_bet)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert not screen.view.my_turn
        keys = footer(app)
        assert "c Check/call any" in keys and "f Check/fold" in keys and "n Skip to my turn" in keys
        # arm, cancel with the same key, switch from one to the other
        await press(pilot, "f")
        assert session.armed(0) == "check_fold" and "▶ check/fold armed" in status(app)
        assert "f Cancel" in footer(app)
        await press(pilot, "f")
        assert session.armed(0) is None and "armed" not in status(app)
        await press(pilot, "c")
        assert session.armed(0) == "call_any" and "▶ check/call any armed" in status(app)
        await press(pilot, "f")
        assert session.armed(0) == "check_fold"
        if kind == "call_any":
            await press(pilot, "c")
        assert session.armed(0) == kind
        assert table.waiting_for_human() is None  # nothing moved meanwhile (a slow table)
        before = len(table.actions)
        await press(pilot, "n")
        assert session.skipping or any(a.seat == 0 for a in table.actions[before:])
        await run_until(pilot, lambda: any(a.seat == 0 for a in table.actions[before:]))
        k = next(i for i in range(before, len(table.actions)) if table.actions[i].seat == 0)
        move = table.actions[k]
        assert isinstance(move, allowed)
        then = replayed(table, SEATS, seed, k)
        legal = then.legal(0)
        can_check = any(isinstance(a, Check) for a in legal)
        assert isinstance(move, Check) == can_check  # a check whenever it was free
        assert session.armed(0) is None  # played once
        # skipping goes on until I must decide (or the hand ends), then the usual pace again
        await run_until(pilot, lambda: table.waiting_for_human() == 0 or session.result_pending()
                        or table.state.game_over)
        await step(pilot)
        assert not session.skipping or session.result_pending()
        if table.waiting_for_human() == 0:
            assert "skipping" not in status(app)
            assert "Skip to my turn" not in footer(app) and "Check/fold" not in footer(app)


async def test_no_pre_action_keys_on_my_turn_or_when_folded():
    table = table_until(RULES, SEATS, 2, lambda s: s.phase == "betting" and s.to_act == 0)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert table_screen(app).view.my_turn
        keys = footer(app)
        assert "Check/fold" not in keys and "Check/call any" not in keys and "Skip" not in keys
        await press(pilot, "f", "f")  # on my turn f folds (a free check: the second f)
        assert table.actions[-1] == Fold(seat=0)
        await step(pilot)
        keys = footer(app)
        assert "Check/fold" not in keys and "Check/call any" not in keys  # nothing left to bet
        assert "n Skip to my turn" in keys  # (the next hand)
        await press(pilot, "c")
        assert session.armed(0) is None


async def test_n_again_stops_skipping():
    table = table_until(RULES, SEATS, 2, waiting_to_bet)
    session = LocalSession(table, delay=SLOW)
    session.driver.skip = lambda now, on=True: setattr(session.driver, "skipping", on)  # no rush
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "n")
        assert session.skipping and "▶ skipping to your turn" in status(app)
        assert "n Stop skipping" in footer(app)
        await press(pilot, "n")
        assert not session.skipping and "skipping" not in status(app)


async def test_no_pre_actions_where_the_session_cannot_play_them():
    session = fake_at_turn(RULES, SEATS, 2)  # (a network table's turns are the host's)
    assert not session.can_preact
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert not screen.check_action("arm", ("check_fold",))
        assert not screen.check_action("skip", ())
        assert "Skip" not in footer(app) and "Check/fold" not in footer(app)


# -- hot-seat ---------------------------------------------------------------------------------

HOT = [("Ana", None), ("Bot", "random"), ("Bo", None)]


def ana_first_with_bot_then_bo(s) -> bool:
    return (s.phase == "betting" and s.to_act == 0 and s.current_bet == 0
            and all(s.seats[i].can_act and not s.seats[i].acted for i in range(3)))


async def test_hot_seat_pre_action_is_played_for_the_seat_that_armed_it_and_shows_nothing():
    seed = next(sd for sd in range(1, 40) if _reaches(sd))
    table = table_until(RULES, HOT, seed, ana_first_with_bot_then_bo)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        watch = FrameWatcher(app, session)
        await step(pilot)
        assert isinstance(app.screen, PrivacyScreen) and app.screen.player == "Ana"
        watch.open(0)
        await press(pilot, "enter")
        await press(pilot, "c")  # Ana checks; the bot is next (and waits: a slow table)
        assert table.actions[-1] == Check(seat=0) and table.state.to_act == 1
        assert table_screen(app).view.seat is None  # public again
        assert "f Check/fold" in footer(app)  # for Ana, who has the keyboard
        await press(pilot, "f")
        assert session.armed(0) == "check_fold" and session.armed(2) is None
        assert "▶ Ana: check/fold" in status(app)
        await press(pilot, "n")  # the bot at once, then Bo decides
        await run_until(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        assert app.screen.player == "Bo" and not session.skipping
        watch.open(2)
        await press(pilot, "enter")
        view = table_screen(app).view
        assert view.seat == 2 and view.my_turn
        assert "Check/fold" not in footer(app)  # Bo's keys are Bo's bets
        # nor is Ana's plan on Bo's screen: it would tell him a bet makes her fold
        assert "check/fold" not in status(app) and "Ana:" not in status(app), status(app)
        before = len(table.actions)
        if view.options.bet_min:  # Bo bets (the bot checked) ...
            await press(pilot, "b")
            if isinstance(app.screen, AmountScreen):
                await press(pilot, "m", "enter")
            assert isinstance(table.actions[before], PlaceBet)
        else:  # ... or calls the bot's bet
            await press(pilot, "c")
            assert isinstance(table.actions[before], (Call, AllIn))
        assert table.actions[before].seat == 2
        # Ana's turn came: her check/fold folds against Bo's bet, at once, with no privacy
        # screen for her and nothing of hers on screen
        assert table.actions[-1] == Fold(seat=0)
        await step(pilot)
        assert not isinstance(app.screen, PrivacyScreen)
        assert table_screen(app).view.seat is None
        assert session.armed(0) is None and "armed" not in status(app)
    assert not watch.violations, watch.violations[0]
    assert watch.frames > 3


def _reaches(seed: int) -> bool:
    try:
        table_until(RULES, HOT, seed, ana_first_with_bot_then_bo, limit=400)
    except AssertionError:
        return False
    return True


async def test_hot_seat_arming_needs_someone_who_has_acted():
    """A fresh hot-seat table: nobody has had the keyboard yet, so nothing can be armed."""
    table = table_until(RULES, HOT, 3, lambda s: s.phase == "betting" and s.to_act == 1)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert not isinstance(app.screen, (PrivacyScreen, ShowdownScreen))
        assert "Check/fold" not in footer(app)
        await press(pilot, "f", "c")
        assert session.armed(0) is None and session.armed(2) is None
