"""A table key that does nothing now says why, from what the player's own view shows."""

from __future__ import annotations

import pytest

from conftest import play
from pokeroulette_tui.engine.actions import AllIn, Call, PlaceBet, RaiseTo
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.refusals import refusal
from test_betting import bet_game
from test_ui_keys import draw_session, notes, until_phase
from ui_pilot import SIZE, app_for, press


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def why(g, key, seat=None, **kw):
    kw.setdefault("players_here", True)
    kw.setdefault("ended", False)
    return refusal(view_for(g, g.to_act if seat is None else seat), key, **kw)


def test_raises_used_up_in_fixed_limit_are_said_and_a_bet_points_to_call():
    g = bet_game(4, limit="fixed")
    play(g, PlaceBet(seat=1, amount=2))
    play(g, RaiseTo(seat=2, amount=4))
    play(g, RaiseTo(seat=3, amount=6))
    play(g, RaiseTo(seat=0, amount=8))
    assert "at most three a round" in why(g, "r")
    assert why(g, "b") == "There is a bet already (6 to call): c calls."
    assert "not allowed here (fixed limit)" in why(g, "a")


def test_an_all_in_short_of_a_full_raise_does_not_reopen_and_that_is_said():
    g = bet_game(4, chips={3: 16})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Call(seat=2))
    play(g, AllIn(seat=3))
    play(g, Call(seat=0))
    assert g.to_act == 1
    said = "You cannot raise again: nobody has raised in full since you last acted."
    assert why(g, "r") == said and why(g, "a") == said
    assert why(g, "b") == "There is a bet already (5 to call): c calls."


def test_no_bet_yet_points_to_b_and_short_stacks_to_all_in():
    g = bet_game(3)
    assert why(g, "r") == "Nobody has bet yet: b opens the betting."
    g = bet_game(3, chips={1: 3})
    assert g.to_act == 1
    assert why(g, "b") == "Your chips do not cover a bet: a goes all in."


def test_not_ones_turn_names_who_is_to_act_and_a_spectator_is_told_it_watches():
    g = bet_game(3)
    other = (g.to_act + 1) % 3
    name = g.seats[g.to_act].name
    assert why(g, "b", seat=other) == f"It is not your turn: {name} is to act."
    assert why(g, "b", players_here=False) == "You are watching this table: only its players act."
    assert why(g, "s") == "No hand has ended yet: s shows the last hand once one has."
    assert why(g, "s", ended=True) is None
    assert why(g, "x") is None and why(g, "q") is None  # not a turn's key


async def test_at_the_table_a_dead_key_says_why_and_a_live_one_says_nothing():
    session = draw_session()
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await until_phase(pilot, app, session, "draw")
        await press(pilot, "1")  # bound: selects, says nothing
        assert app.screen.selected == {0}
        assert not [n for n in notes(app) if "Press 1–5" in n or "does nothing" in n]
        await press(pilot, "7")
        assert "Press 1–5 to choose the cards to exchange, then Enter." in notes(app)
        await press(pilot, "b")
        assert any("does nothing now" in n for n in notes(app))


def test_fixed_limit_all_in_names_the_keys_that_work_and_hand_or_game_over_say_so():
    from dataclasses import replace

    from pokeroulette_tui.engine.phase import Phase

    g = bet_game(3, limit="fixed")
    assert why(g, "a") == "Going all in is not allowed here (fixed limit): c checks, b bets."
    play(g, PlaceBet(seat=g.to_act, amount=2))
    assert why(g, "a") == "Going all in is not allowed here (fixed limit): c calls, r raises."
    view = view_for(g, g.to_act)
    over = replace(view, phase=Phase.HAND_OVER, to_act=None)
    assert refusal(over, "c", players_here=True, ended=True) == \
        "The hand is over: Enter deals the next one, s shows its result again."
    done = replace(view, phase=Phase.GAME_OVER, game_over=True, to_act=None)
    assert refusal(done, "b", players_here=True, ended=True) == \
        "The game is over: Enter or g shows the standings, n starts a new game."
    # a network table's game over: no new game from here, so n is not offered
    assert refusal(done, "b", players_here=True, ended=True, can_start_new=False) == \
        "The game is over: Enter or g shows the standings."
