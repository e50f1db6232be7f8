"""Keys at the card table (QA round 10): Esc on a hand's result leaves the table waiting,
the standings come back after game over, f asks before folding a free check, more "Not now"
reasons, a spectator's i, the prompt and status lines, the help's keys and the tutorial's
first note."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_ui_keys import draw_session, notes
from test_ui_preactions import SEATS as PRE_SEATS
from test_ui_preactions import SLOW, footer, status, waiting_to_bet
from ui_pilot import (
    SIZE,
    app_for,
    fake_at_turn,
    local_session,
    press,
    press_passive,
    screen_text,
    settle,
    step,
    table_screen,
    table_until,
)

from pokeroulette_tui.engine.actions import Check, Fold
from pokeroulette_tui.engine.game import new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.ui.refusals import refusal
from pokeroulette_tui.ui.screens.gameover import GameOverScreen
from pokeroulette_tui.ui.screens.help import KEYS
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen
from pokeroulette_tui.ui.screens.table import TableScreen
from pokeroulette_tui.ui.tutorial import NOTES

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


async def until_result(pilot, app, session, limit: int = 80) -> None:
    """Play passively (check/call, keep, cut, stand pat) until a hand's result is shown."""
    for _ in range(limit):
        await settle(pilot, session)
        if isinstance(app.screen, ShowdownScreen):
            return
        await press_passive(pilot, table_screen(app).view)
    raise AssertionError("no hand ended")


# -- 1. Esc on a hand's result: the table waits ----------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "draw"])
async def test_esc_on_the_result_leaves_the_table_waiting_and_enter_there_deals(variant):
    session = (local_session(PRESETS["classic"], SEATS, seed=1) if variant == "classic"
               else draw_session())
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_result(pilot, app, session)
        hand = session.table.state.hand_no
        await press(pilot, "escape")
        for _ in range(30):  # however long the player looks at the final table
            await step(pilot)
        assert isinstance(app.screen, TableScreen)
        assert session.table.state.hand_no == hand and session.result_pending()
        text = screen_text(app)
        assert "Hand over · Enter deals the next hand · s shows the result again" in text
        assert "the next hand follows" not in text
        assert "Next hand" in footer(app)
        await press(pilot, "s")  # the result again; Esc once more: still waiting
        assert isinstance(app.screen, ShowdownScreen)
        await press(pilot, "escape")
        await settle(pilot, session)
        assert session.table.state.hand_no == hand
        await press(pilot, "enter")  # Enter at the table deals
        await settle(pilot, session)
        assert session.table.state.hand_no == hand + 1


async def test_enter_on_the_result_still_deals_at_once():
    session = local_session(PRESETS["classic"], SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_result(pilot, app, session)
        hand = session.table.state.hand_no
        await press(pilot, "enter")
        await settle(pilot, session)
        assert session.table.state.hand_no == hand + 1


# -- 2. the standings come back after Esc at game over ----------------------------------------
async def test_after_esc_at_game_over_g_and_enter_show_the_standings_and_n_starts_anew():
    session = local_session(PRESETS["classic"].replace(hand_limit=1), SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_result(pilot, app, session)
        await press(pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, TableScreen)
        keys = footer(app)
        assert "Standings" in keys and "New game" in keys
        await press(pilot, "g")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "escape")
        await press(pilot, "enter")
        assert isinstance(app.screen, GameOverScreen)
        await press(pilot, "escape")
        await press(pilot, "n")  # from the table too
        for _ in range(20):
            await step(pilot)
            if type(app.screen).__name__ == "StartScreen":
                break
        assert type(app.screen).__name__ == "StartScreen"


# -- 3. f on a free check asks first ----------------------------------------------------------
def free_check(s) -> bool:
    return (s.phase == "betting" and s.to_act == 0 and s.current_bet == s.seats[0].bet)


async def test_f_with_a_free_check_asks_once_then_folds():
    table = table_until(PRESETS["classic"], PRE_SEATS, 2, free_check)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert table_screen(app).view.my_turn
        count = len(table.actions)
        await press(pilot, "f")
        assert len(table.actions) == count  # nothing played
        assert "Checking is free: f again folds, c checks." in notes(app)
        await press(pilot, "f")
        assert table.actions[count] == Fold(seat=0)


async def test_c_after_the_question_checks():
    table = table_until(PRESETS["classic"], PRE_SEATS, 2, free_check)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        count = len(table.actions)
        await press(pilot, "f")
        assert "Checking is free: f again folds, c checks." in notes(app)
        await press(pilot, "c")
        assert table.actions[count] == Check(seat=0)
        await step(pilot)
        # the question was about the move just made: it goes with it (not left for the next
        # player, for whom it may be wrong)
        assert "Checking is free: f again folds, c checks." not in notes(app)


async def test_not_now_notes_replace_each_other_instead_of_piling_up():
    table = table_until(PRESETS["classic"], PRE_SEATS, 2, free_check)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "7", "7", "7")
        assert notes(app).count("That key does nothing now: the keys you can use are in the "
                                "bar at the bottom.") == 1


# -- 4. more "Not now" reasons ----------------------------------------------------------------
def draw_view_at(phase: str, seed: int = 3):
    """A five-card draw game played passively until seat 0 is to act in ``phase``."""
    from conftest import play

    from pokeroulette_tui.engine.actions import Cut, Discard
    from pokeroulette_tui.engine.game import legal_actions

    g = new_game(PRESETS["draw"], ["Ana", "Bo", "Cy"], seed=seed)
    for _ in range(500):
        if g.phase == phase and g.to_act == 0:
            return g
        seat = g.to_act
        legal = legal_actions(g, seat)
        cut = next((a for a in legal if isinstance(a, Cut)), None)
        pat = next((a for a in legal if isinstance(a, Discard) and not a.indices), None)
        play(g, cut or pat or legal[0])
    raise AssertionError(f"never {phase}")


def test_cut_letters_sorted_hand_local_chat_and_spectator_keys_say_why():
    cut = draw_view_at("cut")
    me = view_for(cut, 0)
    assert me.my_turn
    for key in ("o", "m"):
        why = refusal(me, key, players_here=True, ended=False)
        assert why is not None and "e" in why and "o one" in why and "m middle" in why
    drawing = view_for(draw_view_at("draw"), 0)
    assert refusal(drawing, "o", players_here=True, ended=False) is None  # o sorts (bound)
    assert refusal(drawing, "o", players_here=True, ended=False, sorted_hand=True) == \
        "Your hand is sorted already (for the rest of this hand)."
    assert refusal(drawing, "m", players_here=True, ended=False) == \
        "This table has no chat: chat is for network play."
    assert refusal(drawing, "m", players_here=True, ended=False, can_chat=True) is None
    watching = view_for(draw_view_at("draw"), None)
    said = {k: refusal(watching, k, players_here=False, ended=False, can_chat=True,
                       can_pace=False) for k in ("n", "v", "l", "L")}
    assert said["n"] == "You are watching this table: there is no turn of yours to skip to."
    assert said["v"] == "You are watching this table: its host sets the speed."
    assert said["l"] == said["L"] == \
        "You are watching this table: you have no seat to leave (q quits)."
    # nothing hidden: the reasons name no card
    assert not any(re.search(r"[2-9TJQKA][♠♥♦♣]", w or "") for w in said.values())


async def test_at_a_local_table_m_says_there_is_no_chat():
    session = local_session(PRESETS["classic"], SEATS, seed=1)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, session)
        await press(pilot, "m")
        assert "This table has no chat: chat is for network play." in notes(app)


# -- 5. a spectator's i -----------------------------------------------------------------------
async def test_a_spectator_pressing_i_is_told_it_watches_not_about_the_host():
    fake = fake_at_turn(PRESETS["classic"], SEATS, seed=2,
                        local_seats=())
    app = app_for(fake)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "i")
        said = notes(app)
        assert "You are watching this table: hints are for a player's own seat." in said
        assert "The host does not allow hints at this table." not in said


# -- 6. the status line and the "Not now" toasts -----------------------------------------------
def test_skipping_at_hand_over_says_it_goes_on_in_the_next_hand():
    from types import SimpleNamespace as NS

    from pokeroulette_tui.ui.screens.pace import TablePace

    session = local_session(PRESETS["classic"], SEATS, seed=1)
    from ui_pilot import passive_step
    while session.table.state.phase != "hand_over":
        passive_step(session.table)
    me = NS(seating=NS(humans=(0,), hot_seat=False), view=session.table.view(0),
            session=NS(armed=lambda seat: None, skipping=True))
    assert TablePace.armed_text(me) == "next hand: skipping to your turn"


async def test_a_not_now_toast_goes_when_the_turn_comes():
    table = table_until(PRESETS["classic"], PRE_SEATS, 2, waiting_to_bet)
    session = LocalSession(table, delay=SLOW)
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        assert not table_screen(app).view.my_turn
        await press(pilot, "b")
        assert any("not your turn" in n for n in notes(app))
        app.notify("kept", title="Other")  # a toast that is not the table's "Not now"
        await press(pilot, "n")  # skip to my turn
        for _ in range(200):
            await step(pilot)
            if table_screen(app).view.my_turn:
                break
        await step(pilot)
        assert table_screen(app).view.my_turn
        assert not any("not your turn" in n for n in notes(app))
        assert "kept" in notes(app)
        assert "skipping" not in status(app)


# -- 7. the help and the README say the same keys -----------------------------------------------
def test_help_and_readme_name_l_and_the_cut_box_letters():
    keys = dict(KEYS)
    assert "l / L" in keys
    cut = keys["← → ↑ ↓ / e"]
    assert "in the box: o one, q quarter, m middle, l last" in cut
    readme = README.read_text(encoding="utf-8")
    section = readme.split("### Keys at the table", 1)[1].split("\n### ", 1)[0]
    assert "| `l` / `L` |" in section
    assert "`e`: type the cut (in the box: `o` one, `q` quarter, `m` middle, `l` last)" in section
    assert "`f` again folds" in section and "f again folds" in keys["f"]


# -- 8. the tutorial's first note --------------------------------------------------------------
def test_the_first_tutorial_note_says_bo_and_cy_are_the_others():
    text = NOTES["roulette"]["welcome"].text
    assert "You play Bo and Cy." not in text and "against Bo and Cy" in text
