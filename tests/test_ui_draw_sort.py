"""Sorting the draw hand (``o``): by rank, then by suit in the table's order; the cards
chosen to exchange stay chosen, and the keys and the exchange follow the cards."""

from __future__ import annotations

import pytest

from pokeroulette_tui.engine.actions import Discard
from pokeroulette_tui.engine.cards import parse_cards
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.ui.screens.pace import sort_order, suit_rank
from pokeroulette_tui.ui.widgets.hand import HandPanel
from ui_pilot import SIZE, app_for, fake_at_turn, press, screen_text, step, table_screen

SEATS = [("Ana", None), ("Bo", "random"), ("Cy", "random")]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))


def faces_line(text: str, cards) -> list[int]:
    """Where each card's face is on the screen line that shows all of them."""
    faces = [c.symbol for c in cards]
    for line in text.splitlines():
        found = [max(line.find(f), line.find("10" + f[1:]) if f[0] == "T" else -1)
                 for f in faces]
        if all(i >= 0 for i in found):
            return found
    raise AssertionError(f"the hand {faces} is not on one line of the screen:\n{text}")


def draw_turn(seed: int, **rules):
    rules = PRESETS["draw"].replace(**rules)
    return fake_at_turn(rules, SEATS, seed)


def unsorted_seed() -> int:
    """A table whose hand at the draw is not dealt in sorted order."""
    for seed in range(1, 60):
        session = draw_turn(seed)
        v = session.view(0)
        if v.phase == "draw" and sort_order(v.me.hand, suit_rank(v)) != tuple(range(5)):
            return seed
    raise AssertionError("no unsorted hand")


def test_sort_order_ranks_then_suits():
    cards = parse_cards("3h Ac 3s Td 3c")
    assert [str(cards[i]) for i in sort_order(cards, "SHDC")] == ["Ac", "Td", "3s", "3h", "3c"]
    assert [str(cards[i]) for i in sort_order(cards, "CHSD")] == ["Ac", "Td", "3c", "3h", "3s"]


async def test_o_sorts_the_hand_and_the_selection_and_the_exchange_follow_the_cards():
    session = draw_turn(unsorted_seed())
    view = session.view(0)
    hand = view.me.hand
    order = sort_order(hand, suit_rank(view))
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert screen.view.phase == "draw" and screen.view.my_turn
        assert "o Sort" in screen_text(app).splitlines()[-1]
        where = faces_line(screen_text(app), hand)
        assert where == sorted(where)  # as dealt
        await press(pilot, "2", "5")
        assert screen.selected == {1, 4}
        chosen = {hand[1], hand[4]}
        await press(pilot, "o")
        shown = tuple(hand[i] for i in order)
        panel = screen.query_one(HandPanel)
        assert panel.view.me.hand == shown
        where = faces_line(screen_text(app), shown)
        assert where == sorted(where)  # sorted on screen
        assert {shown[i] for i in panel.selected} == chosen  # still the same cards chosen
        assert screen.selected == {1, 4}
        assert "o Sort" not in screen_text(app).splitlines()[-1]  # sorted for the rest of the hand
        # key 1 is the card shown first now
        await press(pilot, "1")
        first = shown[0]
        if first in chosen:
            chosen.discard(first)
        else:
            chosen.add(first)
        assert {shown[i] for i in panel.selected} == chosen
        await press(pilot, "enter")
    discard = session.acts[-1]
    assert isinstance(discard, Discard) and discard.seat == 0
    assert {hand[i] for i in discard.indices} == chosen  # the engine gets the right cards


async def test_clicks_on_a_sorted_hand_choose_the_card_clicked():
    session = draw_turn(unsorted_seed())
    view = session.view(0)
    hand = view.me.hand
    shown = tuple(hand[i] for i in sort_order(hand, suit_rank(view)))
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        await press(pilot, "o")
        screen = table_screen(app)
        panel = screen.query_one(HandPanel)
        await screen.on_hand_panel_card_clicked(HandPanel.CardClicked("hand", 0))
        await step(pilot)
        assert {hand[i] for i in screen.selected} == {shown[0]}
        assert panel.selected == {0}


async def test_no_sort_key_outside_the_draw():
    session = fake_at_turn(PRESETS["draw"].replace(betting="each_round"), SEATS, 2)
    view = session.view(0)
    assert view.phase == "betting"
    app = app_for(session)
    async with app.run_test(size=SIZE) as pilot:
        await step(pilot)
        screen = table_screen(app)
        assert not screen.check_action("sort", ())
        await press(pilot, "o")
        assert screen.query_one(HandPanel).view.me.hand == view.me.hand
