"""RULES.md 2.1-2.2: the Poker Roulette hand flow, step by step, and leaving in every phase."""

from __future__ import annotations

import pytest

from conftest import (C, c1, dealer, game, kinds, passive, play, put_on_top, rig, set_chips,
                      roulette_deal_order, step_passive, until)
from pokeroulette_tui.engine import roulette
from pokeroulette_tui.engine.actions import (Advance, AllIn, Call, Check, Fold, IllegalAction,
                                             Leave, MoveStockToActive, PlaceBet, StartHand)
from pokeroulette_tui.engine.game import apply, check_invariants, legal_actions
from pokeroulette_tui.engine.view import view_for


def deal(g, stocks, actives, match):
    rig(g, roulette_deal_order(stocks, actives, match))
    return play(g, StartHand())


def leave_only(g, n):
    """Move cards from the bottom of the deck to the discard pile until ``n`` are left."""
    while len(g.deck) > n:
        g.discards.append(g.deck.pop(0))
        g.discards_public.append(True)


def need(g):
    """Cards the next round needs: new actives for every live player plus the match card."""
    return sum(2 if g.seats[i].added else 1 for i in g.live_seats()) + 1


# -- 2.2.1 antes and the button ----------------------------------------------------------


def test_rule_2_2_1_antes_paid_and_button_moves_one_seat_clockwise():
    g = game(4, betting="none", ante=2)
    buttons = []
    for _ in range(5):
        events = play(g, StartHand())
        buttons.append(g.button)
        ante = next(e for e in events if e.kind == "ante")
        assert ante.amount == 8
        assert all(g.seats[i].contributed == 2 for i in range(4))
        passive(g)
    assert buttons == [0, 1, 2, 3, 0]


def test_rule_2_2_1_short_stack_antes_what_it_has_and_is_all_in():
    g = game(3, ante=5)
    set_chips(g, {1: 3})
    play(g, StartHand())
    assert g.seats[1].chips == 0 and g.seats[1].contributed == 3 and g.seats[1].all_in


def test_rule_2_2_1_no_antes_without_chips():
    g = game(3, betting="none", scoring="forfeit")
    events = play(g, StartHand())
    assert "ante" not in kinds(events)
    assert all(s.chips == 0 and s.contributed == 0 for s in g.seats)


# -- 2.2.2 the deal ------------------------------------------------------------------------


def test_rule_2_2_2_deal_order_left_of_button_stock_then_two_actives_then_match():
    g = game(4, betting="none")
    # dealing order 1, 2, 3, 0: stock round, first-active round, second-active round, match
    events = deal(g, ["2c", "3c", "4c", "5c"], ["6d 7d", "8d 9d", "Td Jd", "Qd Kd"], "Ah")
    assert g.button == 0
    assert [g.seats[i].stock for i in (1, 2, 3, 0)] == [C("2c"), C("3c"), C("4c"), C("5c")]
    assert [g.seats[i].actives for i in (1, 2, 3, 0)] == [C("6d 7d"), C("8d 9d"), C("Td Jd"),
                                                          C("Qd Kd")]
    assert g.match == c1("Ah")
    assert g.phase == "dealt" and g.round_no == 1
    assert kinds(events)[-6:] == ["stock_dealt"] * 4 + ["actives_dealt", "match_card"]
    assert [e.seat for e in events if e.kind == "stock_dealt"] == [1, 2, 3, 0]


def test_rule_2_2_2_one_card_at_a_time_exact_positions_in_the_shoe(monkeypatch):
    """The k-th card off the shuffled shoe goes where the rules say (no rigging by value)."""
    g = game(3, betting="none")
    original = roulette.shuffled
    seen = []

    def spy(cards, rng):
        out = original(cards, rng)
        seen.append(list(out))
        return out

    monkeypatch.setattr(roulette, "shuffled", spy)
    play(g, StartHand())
    shoe = seen[0]
    top = shoe[::-1]  # the order cards come off the deck
    assert [g.seats[i].stock[0] for i in (1, 2, 0)] == top[0:3]
    assert [g.seats[i].actives[0] for i in (1, 2, 0)] == top[3:6]
    assert [g.seats[i].actives[1] for i in (1, 2, 0)] == top[6:9]
    assert g.match == top[9]
    assert g.deck == shoe[:-10]


def test_rule_2_2_2_second_hand_dealt_from_left_of_the_new_button():
    g = game(3, betting="none")
    play(g, StartHand())
    passive(g)
    deal(g, ["2c", "3c", "4c"], ["6d 7d", "8d 9d", "Td Jd"], "Ah")
    assert g.button == 1
    assert g.seats[2].stock == C("2c") and g.seats[0].stock == C("3c") and g.seats[1].stock == C("4c")


def test_rule_2_1_first_stock_card_is_private():
    g = game(3)
    events = play(g, StartHand())
    for seat in range(3):
        s = g.seats[seat]
        assert s.stock_public == [False]
        for viewer in (None, 0, 1, 2):
            seen = view_for(g, viewer).players[seat].stock
            assert seen == ((s.stock[0],) if viewer == seat else (None,))
    dealt = [e for e in events if e.kind == "stock_dealt"]
    assert all(e.private for e in dealt)
    for e in dealt:
        other = (e.seat + 1) % 3
        assert e.redacted_for(other).cards == (None,)
        assert e.cards[0].symbol not in e.redacted_for(other).text


def test_rule_2_1_actives_face_down_until_turned_up_together():
    g = game(3, betting="none")
    play(g, StartHand())
    for viewer in (None, 0, 1, 2):
        v = view_for(g, viewer)
        assert all(c is None for p in v.players for c in p.actives)
    dealer(g)
    assert all(s.actives_up for s in g.seats)
    ev_view = view_for(g, None)
    for seat, p in enumerate(ev_view.players):
        assert p.actives == tuple(g.seats[seat].actives)


# -- 2.2.3-4 matching and betting ---------------------------------------------------------


def test_rule_2_2_4_betting_round_after_each_matching_round_when_each_round():
    g = game(3)
    play(g, StartHand())
    events = dealer(g)
    assert g.phase == "betting" and g.betting_round == "round"
    assert g.to_act == 1  # left of the button
    assert kinds(events)[-1] == "betting"


@pytest.mark.parametrize("betting", ["final_only", "none"])
def test_rule_2_2_4_no_betting_during_matching_otherwise(betting):
    g = game(3, betting=betting)
    play(g, StartHand())
    dealer(g)
    assert g.phase == "matched"


# -- 2.2.5 clean up ------------------------------------------------------------------------


def test_rule_2_2_5_match_and_unmatched_actives_go_face_up_to_discards():
    g = game(3, betting="none")
    deal(g, ["2c", "3c", "4c"], ["9h 2h", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)
    dealer(g)
    assert g.discards == [c1("Ah")] + C("Qd") + C("5d 6d")  # the match card, then seat by seat
    assert g.discards_public == [True] * 4
    assert g.seats[0].stock == C("4c Jh")


# -- 2.2.6 new actives and stock-to-active ---------------------------------------------------


def test_rule_2_2_6_two_new_actives_if_any_added_else_one():
    g = game(4, betting="none")
    deal(g, ["2c", "3c", "4c", "5c"], ["9h 8s", "5d 6d", "Jh Qd", "7s 7c"], "Ah")
    dealer(g)  # seat 1 added 9h, seat 2 none, seat 3 added Jh, seat 0 none
    events = dealer(g)
    assert {i: len(g.seats[i].actives) for i in range(4)} == {1: 2, 2: 1, 3: 2, 0: 1}
    assert "Ana 1" in next(e.text for e in events if e.kind == "new_actives")
    assert g.round_no == 2 and g.match is not None


def test_rule_2_2_6_stock_to_active_off_by_default():
    g = game(3, betting="none")
    deal(g, ["2c", "3c", "4c"], ["5d 6d", "7d 8d", "9d Td"], "Ah")
    dealer(g)
    dealer(g)
    assert g.phase == "dealt" and g.pending == []


def test_rule_2_2_6_stock_to_active_offered_to_one_card_players_in_turn_before_the_match():
    g = game(4, betting="none", stock_to_active=True)
    deal(g, ["2c", "3c", "4c", "5c"], ["9h 8s", "5d 6d", "Jh Qd", "7s 7c"], "Ah")
    dealer(g)
    dealer(g)
    assert g.phase == "stock_to_active"
    assert g.pending == [2, 0] and g.to_act == 2  # the one-card players, left of the button first
    assert g.match is None  # the next match card waits for the choices
    # before looking at it: nobody, the owner included, sees the new active
    for viewer in (None, 0, 1, 2, 3):
        assert view_for(g, viewer).players[2].actives == (None,)
    with pytest.raises(IllegalAction):
        apply(g, MoveStockToActive(seat=0, index=0))  # not seat 0's turn yet
    with pytest.raises(IllegalAction, match="stock card"):
        apply(g, MoveStockToActive(seat=2, index=1))  # seat 2 has one stock card
    assert legal_actions(g, 2) == [MoveStockToActive(seat=2, index=None),
                                   MoveStockToActive(seat=2, index=0)]
    play(g, MoveStockToActive(seat=2, index=0))
    assert g.to_act == 0 and g.match is None
    play(g, MoveStockToActive(seat=0, index=None))
    assert g.phase == "dealt" and g.match is not None
    assert len(g.seats[2].actives) == 2 and g.seats[2].stock == []
    assert len(g.seats[0].actives) == 1 and g.seats[0].stock == C("5c")


def test_rule_2_2_6_moved_private_stock_card_stays_hidden_from_others():
    g = game(3, betting="none", stock_to_active=True)
    deal(g, ["2c", "3c", "4c"], ["5d 6d", "9h 8h", "7d 8d"], "Ah")
    dealer(g)  # seat 2 keeps 9h 8h; seats 1 and 0 miss
    dealer(g)
    assert g.pending == [1, 0]
    events = play(g, MoveStockToActive(seat=1, index=0))  # the private 2c
    (ev,) = events
    assert ev.private and ev.redacted_for(2).cards == (None,) and "2♣" not in ev.redacted_for(2).text
    assert ev.redacted_for(1).cards == (c1("2c"),)
    new, moved = g.seats[1].actives
    assert moved == c1("2c")
    assert view_for(g, 1).players[1].actives == (None, moved)  # the owner knows the moved card
    for viewer in (None, 0, 2):
        assert view_for(g, viewer).players[1].actives == (None, None)
    play(g, MoveStockToActive(seat=0, index=None))
    dealer(g)  # turned up with the new active, matched with the two-card rules
    assert g.seats[1].actives_up
    assert view_for(g, 2).players[1].actives == tuple(g.seats[1].actives)


def test_rule_2_2_6_moved_public_stock_card_is_seen_by_everyone():
    g = game(3, betting="none", stock_to_active=True)
    deal(g, ["2c", "3c", "4c"], ["5h 6h", "9h 8s", "7d 8d"], "Ah")
    dealer(g)  # seat 1 keeps 5h 6h (rule 6); seat 2 keeps 9h; seat 0 misses
    put_on_top(g, C("Kc Qc Jd Tc 9c 2s"))  # new actives 1, 2, 0, then 1, 2; match 2s
    dealer(g)
    assert g.pending == [0]
    play(g, MoveStockToActive(seat=0, index=None))
    dealer(g)  # nobody matches 2s
    put_on_top(g, C("3d 4d 5d"))
    dealer(g)
    assert g.pending == [1, 2, 0]
    assert g.seats[1].stock == C("2c 5h 6h") and g.seats[1].stock_public == [False, True, True]
    (ev,) = play(g, MoveStockToActive(seat=1, index=1))
    assert not ev.private and ev.cards == (c1("5h"),)
    assert g.seats[1].actives == C("3d 5h") and g.seats[1].stock == C("2c 6h")
    for viewer in (None, 0, 1, 2):
        assert view_for(g, viewer).players[1].actives == (None, c1("5h"))


# -- 2.2.7-8 the end of the matching phase ------------------------------------------------


def test_rule_2_2_8_matching_ends_when_deck_cannot_supply_next_round():
    g = game(3, betting="none")
    deal(g, ["2c", "3c", "4c"], ["9h 8s", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)
    n = need(g)
    assert n == 2 + 1 + 2 + 1
    leave_only(g, n - 1)
    events = dealer(g)
    assert "matching_over" in kinds(events)
    over = next(e for e in events if e.kind == "matching_over")
    assert over.amount == n - 1 and str(n - 1) in over.text  # the leftover count is shown
    assert len(g.deck) == n - 1  # leftover cards stay undealt
    assert view_for(g, None).deck_count == n - 1
    assert g.phase == "hand_over"  # betting none: straight to the showdown
    assert all(not s.actives for s in g.seats)


def test_rule_2_2_8_round_dealt_when_deck_exactly_suffices():
    g = game(3, betting="none")
    deal(g, ["2c", "3c", "4c"], ["9h 8s", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)
    leave_only(g, need(g))
    dealer(g)
    assert g.phase == "dealt" and g.deck == []


def test_rule_2_2_8_folded_players_do_not_count_in_what_the_deck_must_supply():
    g = game(3)
    deal(g, ["2c", "3c", "4c"], ["9h 8s", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)
    play(g, Fold(seat=1))
    play(g, Check(seat=2))
    play(g, Check(seat=0))
    leave_only(g, 1 + 2 + 1)  # seat 2: one new active, seat 0: two, the match card
    dealer(g)
    assert g.phase == "dealt"
    assert g.seats[1].actives == [] and g.seats[1].stock == []  # no further cards


def test_rule_2_2_8_reshuffle_discards_once_then_phase_ends():
    g = game(3, betting="none", reshuffle_discards_once=True)
    deal(g, ["2c", "3c", "4c"], ["9h 8s", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)
    leave_only(g, 2)
    remaining = list(g.deck)
    events = dealer(g)
    assert "reshuffle" in kinds(events) and "matching_over" not in kinds(events)
    assert g.reshuffled
    # the discards went under the remaining cards: those are dealt first
    assert [g.seats[i].actives[0] for i in (1, 2)] == remaining[::-1]
    assert g.discards == [] and g.discards_public == []
    # the second time the deck runs short, the matching phase ends
    dealer(g)
    leave_only(g, 0)
    events = dealer(g)
    assert "reshuffle" not in kinds(events) and "matching_over" in kinds(events)


def test_rule_2_2_8_reshuffle_allowed_again_next_hand():
    g = game(3, betting="none", reshuffle_discards_once=True)
    play(g, StartHand())
    passive(g)
    play(g, StartHand())
    assert g.reshuffled is False


def test_rule_2_2_8_without_reshuffle_option_first_shortage_ends_phase():
    g = game(3, betting="none")
    play(g, StartHand())
    dealer(g)
    leave_only(g, 0)
    assert "reshuffle" not in kinds(dealer(g))


def test_rule_2_2_7_rounds_repeat_until_deck_runs_short():
    g = game(3, betting="none")
    play(g, StartHand())
    rounds = 0
    while g.phase != "hand_over":
        if g.phase == "dealt":
            rounds += 1
        wanted = need(g) if g.phase == "matched" else None
        left = len(g.deck)
        dealer(g)
        if wanted is not None and g.phase == "hand_over":
            assert left < wanted  # it stopped only because the deck could not supply
    assert rounds == g.round_no >= 5


# -- 2.2.9 final betting and showdown ---------------------------------------------------------


def test_rule_2_2_9_final_betting_round_then_showdown():
    g = game(3, betting="final_only")
    play(g, StartHand())
    events = until(g, "betting")
    assert "matching_over" in kinds(events)
    assert g.betting_round == "final" and g.to_act == 1
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    assert g.phase == "hand_over"
    assert g.result is not None and not g.result.by_fold


def test_rule_2_2_9_each_round_betting_has_one_last_round_not_two_on_the_same_cards():
    """With a betting round after every matching round, the one after the last matching round
    is the final betting: no second round follows on the same cards (issue 10)."""
    g = game(3)
    play(g, StartHand())
    rounds = []
    while g.phase != "hand_over":
        if g.phase == "betting" and all(not g.seats[i].acted for i in range(3)):
            rounds.append((g.betting_round, g.round_no))
        step_passive(g)
    assert [r for r, _ in rounds] == ["round"] * len(rounds)  # no "final" repeat
    assert [n for _, n in rounds] == list(range(1, g.round_no + 1))  # one per matching round
    assert g.result is not None and not g.result.by_fold


def test_rule_2_2_9_final_only_betting_still_has_its_final_round():
    g = game(3, betting="final_only")
    play(g, StartHand())
    rounds = []
    while g.phase != "hand_over":
        if g.phase == "betting" and all(not g.seats[i].acted for i in range(3)):
            rounds.append(g.betting_round)
        step_passive(g)
    assert rounds == ["final"]


# -- folding -------------------------------------------------------------------------------


def test_rule_2_2_fold_puts_stock_and_actives_on_discards_private_card_face_down():
    g = game(3)
    deal(g, ["2c", "3c", "4c"], ["9h 8s", "5d 6d", "Jh Qd"], "Ah")
    dealer(g)  # seat 1 keeps 9h, 8s waits face up
    before = len(g.discards)
    play(g, Fold(seat=1))
    assert g.seats[1].stock == [] and g.seats[1].actives == []
    pile = list(zip(g.discards[before:], g.discards_public[before:]))
    assert pile == [(c1("2c"), False), (c1("9h"), True), (c1("8s"), True)]
    for viewer in (None, 0, 2):
        assert view_for(g, viewer).discards[before:] == (None, c1("9h"), c1("8s"))
    play(g, Check(seat=2))
    play(g, Check(seat=0))
    dealer(g)  # new actives: none for the folded seat
    assert g.seats[1].actives == [] and 1 not in g.live_seats()


def test_rule_2_2_all_in_players_keep_taking_cards():
    g = game(3)
    set_chips(g, {1: 5})
    play(g, StartHand())
    dealer(g)
    play(g, AllIn(seat=1))
    play(g, Call(seat=2))
    play(g, Call(seat=0))
    dealer(g)
    assert g.seats[1].all_in and g.seats[1].actives


# -- leaving in every phase ------------------------------------------------------------


def _assert_ok(g):
    assert not check_invariants(g), check_invariants(g)


@pytest.mark.parametrize("leaver", [0, 1, 2])
def test_leave_roulette_while_dealt(leaver):
    g = game(4, betting="none")
    play(g, StartHand())
    play(g, Leave(seat=leaver))
    _assert_ok(g)
    assert g.seats[leaver].stock == [] and g.seats[leaver].folded
    assert g.discards_public.count(False) == 3  # stock card and two face-down actives
    passive(g)
    assert g.phase == "hand_over" and leaver not in g.result.winners


@pytest.mark.parametrize("leaver", [1, 2, 0])
def test_leave_roulette_during_betting_to_act_or_not(leaver):
    g = game(3)
    play(g, StartHand())
    dealer(g)
    assert g.to_act == 1
    play(g, PlaceBet(seat=1, amount=4))
    play(g, Leave(seat=leaver))
    _assert_ok(g)
    if leaver == 1:
        assert g.to_act == 2
    else:
        assert g.to_act == (0 if leaver == 2 else 2)
    passive(g)
    assert g.phase == "hand_over"


def test_leave_roulette_lone_player_facing_no_bet_is_not_asked():
    """Seat 2 is all in; seat 0 leaves while seat 1 is to act with no bet to face: seat 1
    has nobody left to bet against, so the round closes (decision: no pointless turn)."""
    g = game(3)
    set_chips(g, {2: 1})
    play(g, StartHand())
    assert g.seats[2].all_in
    dealer(g)
    assert g.phase == "betting" and g.to_act == 1
    play(g, Leave(seat=0))
    _assert_ok(g)
    assert g.phase == "matched" and g.to_act is None


def test_leave_roulette_stock_to_active_chooser_on_turn_and_waiting():
    g = game(4, betting="none", stock_to_active=True)
    deal(g, ["2c", "3c", "4c", "5c"], ["5d 6d", "8d 9d", "Td Jd", "Qs Kd"], "Ah")
    dealer(g)
    dealer(g)
    assert g.pending == [1, 2, 3, 0]
    play(g, Leave(seat=3))  # waiting
    assert g.pending == [1, 2, 0] and g.to_act == 1
    play(g, Leave(seat=1))  # on turn
    assert g.pending == [2, 0] and g.to_act == 2
    _assert_ok(g)
    play(g, MoveStockToActive(seat=2, index=None))
    play(g, Leave(seat=0))  # the last chooser leaves: the hand ends, seat 2 wins
    _assert_ok(g)
    assert g.game_over and g.result.winners == (2,)


def test_leave_roulette_while_matched_and_between_hands():
    """Decision: the game goes on while at least two players remain (even below
    min_players), and ends when one is left."""
    g = game(4, betting="none")
    play(g, StartHand())
    dealer(g)
    play(g, Leave(seat=2))
    _assert_ok(g)
    passive(g)
    play(g, Leave(seat=3))
    assert not g.game_over  # two players remain: the game goes on
    play(g, StartHand())
    assert [i for i, s in enumerate(g.seats) if s.in_hand] == [0, 1]
    passive(g)
    play(g, Leave(seat=0))
    assert g.game_over and "Bo wins" in g.game_over_reason


def test_leave_roulette_when_one_live_player_remains_they_win_the_pot():
    g = game(3)
    play(g, StartHand())
    play(g, Leave(seat=0))
    events = play(g, Leave(seat=1))
    assert g.result.by_fold and g.result.winners == (2,)
    assert "show" not in kinds(events)
    assert g.game_over  # one player is left at the table
    assert g.seats[2].chips == 102  # 99 after the ante, plus the pot of 3


def test_leave_twice_refused():
    g = game(3)
    play(g, Leave(seat=0))
    with pytest.raises(IllegalAction, match="already left"):
        apply(g, Leave(seat=0))
    with pytest.raises(IllegalAction):
        apply(g, Leave(seat=7))


def test_advance_refused_for_players_and_between_hands():
    g = game(3)
    with pytest.raises(IllegalAction):
        apply(g, Advance())
    with pytest.raises(IllegalAction):
        apply(g, StartHand(seat=0))
    play(g, StartHand())
    with pytest.raises(IllegalAction):
        apply(g, StartHand())
