"""RULES.md 4: antes, check/bet/call/raise/fold/all-in, no limit and fixed limit, incomplete
raises, side pots, odd chips, and chips never created or lost."""

from __future__ import annotations

import random

import pytest

from conftest import deal_draw, dealer, game, kinds, passive, play, random_game, set_chips
from pokeroulette_tui.engine import betting
from pokeroulette_tui.engine.actions import (AllIn, Call, Check, Discard, Fold, IllegalAction,
                                             PlaceBet, RaiseTo, StartHand)
from pokeroulette_tui.engine.game import apply, legal_actions, turn
from pokeroulette_tui.engine.view import view_for


def bet_game(n=3, chips=None, hands=None, **opts):
    """A five-card draw table with betting and chips, dealt and waiting for the first bet
    (seat 1 acts first: the button is seat 0)."""
    opts.setdefault("betting", "each_round")
    opts.setdefault("scoring", "chips")
    g = game(n, preset="draw", **opts)
    if chips:
        set_chips(g, chips)
    deal_draw(g, hands or {})
    return g


def opts(g):
    return betting.bet_options(g, g.to_act)


def stand_pat(g):
    while g.phase == "draw":
        play(g, Discard(seat=g.to_act, indices=()))


# -- antes and stacks ------------------------------------------------------------------


def test_rule_4_starting_chips_and_ante_options():
    g = game(3, starting_chips=50, ante=3)
    assert [s.chips for s in g.seats] == [50, 50, 50]
    play(g, StartHand())
    assert [s.chips for s in g.seats] == [47, 47, 47]
    assert g.chips_in_play() == g.total_chips == 150


# -- the actions -------------------------------------------------------------------------


def test_rule_4_opening_options_check_bet_all_in_fold():
    g = bet_game()
    o = opts(g)
    assert o.check and not o.call and o.fold
    assert (o.bet_min, o.bet_max) == (2, 99)  # no limit: at least twice the ante
    assert o.all_in == 99 and not o.raise_min
    assert o.kinds == ("check", "bet", "all_in", "fold")
    assert [a.kind for a in legal_actions(g, 1)] == ["check", "bet", "bet", "all_in", "fold"]


def test_rule_4_no_limit_minimum_bet_is_twice_the_ante():
    """Decision: the no-limit minimum opening bet is the bet unit, 2 x ante."""
    g = bet_game(ante=3)
    with pytest.raises(IllegalAction, match="between 6 and 97"):
        apply(g, PlaceBet(seat=1, amount=5))
    play(g, PlaceBet(seat=1, amount=6))


def test_rule_4_check_call_raise_fold_round():
    g = bet_game()
    play(g, Check(seat=1))
    with pytest.raises(IllegalAction, match="nothing to call"):
        apply(g, Call(seat=2))
    with pytest.raises(IllegalAction, match="cannot raise"):
        apply(g, RaiseTo(seat=2, amount=10))
    play(g, PlaceBet(seat=2, amount=10))
    with pytest.raises(IllegalAction, match="cannot check: 10 to call"):
        apply(g, Check(seat=0))
    with pytest.raises(IllegalAction, match="already a bet"):
        apply(g, PlaceBet(seat=0, amount=20))
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(g, Call(seat=1))
    play(g, Call(seat=0))
    assert g.to_act == 1  # the checker must answer the bet
    play(g, Fold(seat=1))
    assert g.phase == "draw"  # round over: everyone live has matched the bet
    assert [g.seats[i].contributed for i in range(3)] == [11, 1, 11]


def test_rule_4_raise_reopens_the_action_for_callers():
    g = bet_game()
    play(g, PlaceBet(seat=1, amount=4))
    play(g, Call(seat=2))
    play(g, RaiseTo(seat=0, amount=8))
    assert g.to_act == 1
    play(g, Call(seat=1))
    assert g.to_act == 2
    play(g, Call(seat=2))
    assert g.phase == "draw"


def test_rule_4_no_limit_min_raise_is_the_previous_bet_or_raise():
    g = bet_game(4)
    play(g, PlaceBet(seat=1, amount=10))
    assert (opts(g).raise_min, opts(g).raise_max) == (20, 99)
    with pytest.raises(IllegalAction, match="between 20 and 99"):
        apply(g, RaiseTo(seat=2, amount=19))
    play(g, RaiseTo(seat=2, amount=35))  # a raise of 25
    assert opts(g).raise_min == 60
    with pytest.raises(IllegalAction):
        apply(g, RaiseTo(seat=3, amount=59))
    play(g, RaiseTo(seat=3, amount=60))
    assert opts(g).raise_min == 85


def test_rule_4_call_for_less_is_all_in():
    g = bet_game(chips={2: 6})
    play(g, PlaceBet(seat=1, amount=20))
    o = opts(g)
    assert not o.call and o.all_in == 5 and not o.raise_min
    with pytest.raises(IllegalAction, match="go all in or fold"):
        apply(g, Call(seat=2))
    events = play(g, AllIn(seat=2))
    assert kinds(events) == ["all_in"] and g.seats[2].all_in
    assert g.current_bet == 20  # an all-in for less does not change the bet


# -- fixed limit ---------------------------------------------------------------------------


def test_rule_4_fixed_limit_bet_is_twice_the_ante():
    g = bet_game(limit="fixed", ante=2)
    o = opts(g)
    assert (o.bet_min, o.bet_max) == (4, 4) and not o.all_in
    with pytest.raises(IllegalAction, match="exactly 4"):
        apply(g, PlaceBet(seat=1, amount=5))
    with pytest.raises(IllegalAction, match="not allowed"):
        apply(g, AllIn(seat=1))
    play(g, PlaceBet(seat=1, amount=4))
    assert (opts(g).raise_min, opts(g).raise_max) == (8, 8)


def test_rule_4_fixed_limit_at_most_three_raises_a_round():
    g = bet_game(4, limit="fixed")
    play(g, PlaceBet(seat=1, amount=2))
    play(g, RaiseTo(seat=2, amount=4))
    play(g, RaiseTo(seat=3, amount=6))
    play(g, RaiseTo(seat=0, amount=8))
    assert g.raises == 3
    o = opts(g)
    assert not o.raise_min and o.call == 6 and not o.all_in
    assert "raise" not in [a.kind for a in legal_actions(g, 1)]
    with pytest.raises(IllegalAction, match="cannot raise"):
        apply(g, RaiseTo(seat=1, amount=10))
    for seat in (1, 2, 3):
        play(g, Call(seat=seat))
    assert g.phase == "draw"
    play(g, Discard(seat=1, indices=()))
    stand_pat(g)
    assert g.betting_round == "post_draw" and g.raises == 0  # counted per round
    play(g, PlaceBet(seat=1, amount=2))
    assert opts(g).raise_min == 4


def test_rule_4_fixed_limit_short_stack_may_go_all_in():
    g = bet_game(limit="fixed", chips={1: 3})
    o = opts(g)
    assert not o.bet_min and o.all_in == 2
    play(g, AllIn(seat=1))  # a bet of 2 chips: a full bet
    assert g.current_bet == 2


# -- incomplete all-in raises --------------------------------------------------------------


def test_rule_4_incomplete_all_in_raise_does_not_reopen_for_players_who_acted():
    g = bet_game(4, chips={3: 16})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Call(seat=2))
    play(g, AllIn(seat=3))  # 15: a raise of 5, less than the bet of 10
    assert g.current_bet == 15
    # seat 0 has not acted: it may raise (a full raise over 15 is at least 25)
    assert opts(g).raise_min == 25
    play(g, Call(seat=0))
    # seats 1 and 2 already acted and face only an incomplete raise: call or fold
    o = opts(g)
    assert g.to_act == 1 and o.call == 5 and not o.raise_min and not o.all_in
    with pytest.raises(IllegalAction, match="cannot raise"):
        apply(g, RaiseTo(seat=1, amount=40))
    with pytest.raises(IllegalAction):
        apply(g, AllIn(seat=1))
    play(g, Call(seat=1))
    play(g, Call(seat=2))
    assert g.phase == "draw"


def test_rule_4_full_raise_after_an_incomplete_one_reopens_for_everyone():
    g = bet_game(4, chips={2: 15})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, AllIn(seat=2))  # 14: incomplete
    play(g, RaiseTo(seat=3, amount=24))  # a full raise of 10 over 14
    play(g, Fold(seat=0))
    assert g.to_act == 1 and opts(g).raise_min == 34


def test_rule_4_incomplete_raises_adding_up_to_a_full_raise_reopen():
    """Decision (TDA rule): short all-ins that together make at least a full raise over what
    a player last faced reopen the betting for that player."""
    g = bet_game(4, chips={2: 15, 3: 21})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, AllIn(seat=2))  # to 14: +4
    play(g, AllIn(seat=3))  # to 20: +6; seat 1 now faces 10 more than its bet
    play(g, Call(seat=0))
    assert g.to_act == 1 and opts(g).raise_min == 30


def test_rule_4_incomplete_opening_bet_lets_a_checker_only_call():
    g = bet_game(chips={2: 2})
    play(g, Check(seat=1))
    play(g, AllIn(seat=2))  # a bet of 1, below the minimum bet of 2
    assert g.current_bet == 1
    play(g, Call(seat=0))
    o = opts(g)
    assert g.to_act == 1 and o.call == 1 and not o.raise_min


# -- side pots, odd chips, conservation --------------------------------------------------


def test_rule_4_side_pots_all_in_players_win_at_most_what_they_matched():
    hands = {1: "Ah Ad Ac As 2c",   # best: four aces, all in for 10
             2: "Kh Kd Kc Ks 3c",   # second: four kings, all in for 30
             3: "Qh Qd Qc 4s 4c",   # third: a full house
             0: "2d 5h 7s 9c Jd"}   # worst
    g = bet_game(4, chips={1: 10, 2: 30}, hands=hands)
    play(g, AllIn(seat=1))         # 9 after the ante
    play(g, AllIn(seat=2))         # 29: a full raise of 20
    play(g, RaiseTo(seat=3, amount=60))
    play(g, Call(seat=0))
    assert [(a, sorted(e)) for a, e in betting.pots(g)] == [(40, [0, 1, 2, 3]), (60, [0, 2, 3]),
                                                           (62, [0, 3])]
    assert view_for(g, None).pots == ((40, (0, 1, 2, 3)), (60, (0, 2, 3)), (62, (0, 3)))
    stand_pat(g)
    play(g, Check(seat=3))
    play(g, Check(seat=0))
    assert g.phase == "hand_over"
    assert [g.seats[i].chips for i in range(4)] == [100 - 61, 40, 60, 100 - 61 + 62]
    assert [p.winners for p in g.result.pots] == [(1,), (2,), (3,)]
    assert sum(s.chips for s in g.seats) == g.total_chips


def test_rule_4_folded_chips_stay_in_the_pot():
    g = bet_game(4, hands={1: "Ah Ad Ac As 2c", 2: "Kh Kd Kc Ks 3c"})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Call(seat=2))
    play(g, Call(seat=3))
    play(g, Fold(seat=0))
    assert betting.pots(g) == [(34, [1, 2, 3])]


def test_rule_4_odd_chip_to_the_winner_nearest_clockwise_from_the_button():
    """Pot of 3 split two ways: seats 2 and 0 tie, the button is seat 0; clockwise from the
    button seat 2 comes first, so it gets the odd chip (the button itself comes last)."""
    g = game(3, preset="draw", scoring="chips")
    deal_draw(g, {1: "2c 4d 6h 8s Tc", 2: "Ah Kh 9d 7c 3s", 0: "As Kd 9c 7h 3d"})
    stand_pat(g)
    assert g.result.winners == (0, 2)
    assert g.result.pots[0].shares == {2: 2, 0: 1}
    assert [s.chips for s in g.seats] == [100, 99, 101]


def test_rule_4_odd_chip_seat_left_of_button_before_later_seats():
    g = game(3, preset="draw", scoring="chips")
    deal_draw(g, {1: "Ah Kh 9d 7c 3s", 2: "2c 4d 6h 8s Tc", 0: "As Kd 9c 7h 3d"})
    stand_pat(g)
    assert g.result.pots[0].shares == {1: 2, 0: 1}


@pytest.mark.parametrize("button,winners,expected", [
    (0, [1, 2, 3], {1: 4, 2: 3, 3: 3}),
    (2, [0, 1, 3], {3: 4, 0: 3, 1: 3}),
    (3, [0, 1, 2, 3], {0: 3, 1: 3, 2: 2, 3: 2}),
])
def test_rule_4_split_odd_chips_clockwise_from_button(button, winners, expected):
    g = game(4)
    g.button = button
    amount = sum(expected.values())
    assert betting.split(amount, winners, g) == expected


def test_rule_4_no_betting_when_fewer_than_two_can_act():
    g = game(3)
    set_chips(g, {1: 1, 2: 1})
    play(g, StartHand())
    dealer(g)
    assert g.phase == "matched"  # seats 1 and 2 are all in from the ante


def test_rule_4_bet_options_in_the_view_only_for_the_seat_to_act():
    g = bet_game()
    assert view_for(g, 1).options == betting.bet_options(g, 1) == turn(g).options
    assert view_for(g, 2).options is None and view_for(g, None).options is None


def test_rule_4_chips_conserved_through_a_game_with_betting():
    for seed in range(5):
        g = game(4, seed=seed, starting_chips=20)
        rng = random.Random(seed)
        for _ in random_game(g, rng):
            assert g.chips_in_play() == g.total_chips == 80
            assert all(s.chips >= 0 for s in g.seats)
        assert g.game_over


def test_rule_4_roulette_bets_each_round_left_of_the_button_first():
    g = game(4)
    play(g, StartHand())
    dealer(g)
    assert g.to_act == 1
    passive(g)
    play(g, StartHand())
    dealer(g)
    assert g.button == 1 and g.to_act == 2
