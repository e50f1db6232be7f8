"""The hot-seat privacy rule on plain views: whose eyes the table is seen with."""

from __future__ import annotations

from pokeroulette_tui.engine.actions import StartHand
from pokeroulette_tui.engine.game import apply, new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.screens.seating import Seating, acting_seat


def cut_phase():
    g = new_game(PRESETS["draw"], ["Ana", "Bo", "Cy"], seed=1)
    apply(g, StartHand())
    assert g.phase == "cut"
    return g


def test_one_human_always_sees_their_seat():
    g = cut_phase()
    s = Seating([2])
    assert not s.hot_seat and s.viewer == 2
    assert s.look(view_for(g, None)) is None and s.viewer == 2


def test_no_human_is_public():
    g = cut_phase()
    s = Seating([])
    assert s.look(view_for(g, None)) is None and s.viewer is None


def test_hot_seat_asks_once_and_shows_after_confirmation():
    g = cut_phase()
    pub = view_for(g, None)
    cutter = acting_seat(pub)
    other = next(i for i in range(3) if i != cutter)
    s = Seating([cutter, other])
    assert s.look(pub) == cutter and s.viewer is None
    assert s.look(pub) is None  # asked already
    s.confirmed(cutter, pub)
    assert s.viewer == cutter and not s.due(pub)


def test_hot_seat_turns_public_when_another_human_is_to_act():
    g = cut_phase()
    pub = view_for(g, None)
    cutter = acting_seat(pub)
    other = next(i for i in range(3) if i != cutter)
    s = Seating([cutter, other])
    s._open = other  # the other human had the keyboard (and the turn moved on without a key)
    assert s.viewer == other and s.due(pub)
    assert s.look(pub) == cutter and s.viewer is None


def test_hot_seat_turns_public_once_the_decision_is_made():
    g = cut_phase()
    pub = view_for(g, None)
    cutter = acting_seat(pub)
    other = next(i for i in range(3) if i != cutter)
    s = Seating([cutter, other])
    assert s.look(pub) == cutter
    s.confirmed(cutter, pub)
    assert s.viewer == cutter
    s.acted(cutter)
    assert s.viewer is None
    # the same seat to act again (a second decision): asked again, public until then
    assert s.look(pub) == cutter and s.viewer is None


def test_one_human_keeps_their_seat_after_acting():
    g = cut_phase()
    s = Seating([1])
    s.acted(1)
    assert s.viewer == 1 and s.look(view_for(g, None)) is None


def test_confirmation_too_late_stays_public():
    g = cut_phase()
    pub = view_for(g, None)
    cutter = acting_seat(pub)
    other = next(i for i in range(3) if i != cutter)
    s = Seating([cutter, other])
    s.look(pub)
    s.confirmed(other, pub)  # not that seat's turn (any more)
    assert s.viewer is None


def test_dealer_steps_have_no_acting_seat():
    g = new_game(PRESETS["classic"], ["Ana", "Bo", "Cy"], seed=1)
    apply(g, StartHand())
    assert g.phase == "dealt"
    assert acting_seat(view_for(g, None)) is None
