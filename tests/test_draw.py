"""RULES.md 3: five-card draw (Mörkpoker): shuffle, cut, deal, draw, bets, showdown."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import C, deal_draw, dealer, game, kinds, passive, play, rig
from pokeroulette_tui.engine import draw
from pokeroulette_tui.engine.actions import (Call, Check, Cut, Discard, Fold, IllegalAction, Leave,
                                             PlaceBet)
from pokeroulette_tui.engine.cards import STANDARD_DECK
from pokeroulette_tui.engine.game import apply, check_invariants, legal_actions
from pokeroulette_tui.engine.view import view_for


def draw_game(n=4, **opts):
    return game(n, preset="draw", **opts)


# -- shuffle and cut ---------------------------------------------------------------------


def test_rule_3_one_52_card_deck_no_jokers():
    g = draw_game(7)
    dealer(g)
    assert Counter(g.deck) == Counter(STANDARD_DECK)


@pytest.mark.parametrize("n,button,cutter", [(2, 0, 1), (3, 0, 2), (4, 0, 3), (7, 0, 6)])
def test_rule_3_player_on_dealers_right_cuts(n, button, cutter):
    g = draw_game(n)
    events = dealer(g)
    assert g.button == button and g.phase == "cut" and g.to_act == cutter
    assert draw.cutter(g) == cutter
    assert "cuts" in events[-1].text


def test_rule_3_cutter_follows_the_button():
    g = draw_game(4)
    dealer(g)
    passive(g)
    dealer(g)
    assert g.button == 1 and g.to_act == 0


def test_rule_3_only_the_cutter_cuts_between_1_and_51():
    g = draw_game(3)
    dealer(g)
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(g, Cut(seat=0, position=10))
    for bad in (0, 52, -3):
        with pytest.raises(IllegalAction, match="between 1 and 51"):
            apply(g, Cut(seat=2, position=bad))
    assert {a.position for a in legal_actions(g, 2)} == {1, 26, 51}


@pytest.mark.parametrize("position", [1, 13, 26, 51])
def test_rule_3_cut_changes_the_deal_exactly(position):
    """Cutting p cards from the top moves them to the bottom; the five cards then go one at
    a time clockwise from the dealer's left."""
    g = draw_game(3)
    dealer(g)
    shuffled = list(g.deck)  # top = end
    play(g, Cut(seat=2, position=position))
    after_cut = shuffled[-position:] + shuffled[:-position]
    off = after_cut[::-1]  # the order cards come off the cut deck
    order = [1, 2, 0]  # the dealer's left first
    for k in range(5):
        for j, seat in enumerate(order):
            assert g.seats[seat].hand[k] == off[k * 3 + j]
    assert g.deck == after_cut[:-15]


def test_rule_3_different_cuts_deal_different_hands():
    hands = []
    for position in (10, 11):
        g = draw_game(3)
        rig(g, None, seed=99)
        dealer(g)
        play(g, Cut(seat=2, position=position))
        hands.append([list(s.hand) for s in g.seats])
    assert hands[0] != hands[1]


def test_rule_3_hands_are_private_until_showdown():
    g = draw_game(3)
    dealer(g)
    events = play(g, Cut(seat=2, position=20))
    dealt = [e for e in events if e.kind == "hand_dealt"]
    assert [e.seat for e in dealt] == [1, 2, 0] and all(e.private for e in dealt)
    for e in dealt:
        for viewer in (None, 0, 1, 2):
            r = e.redacted_for(viewer)
            if viewer == e.seat:
                assert r.cards == tuple(g.seats[e.seat].hand)
            else:
                assert r.cards == (None,) * 5 and "five cards" in r.text
            assert view_for(g, viewer).players[e.seat].hand == (
                tuple(g.seats[e.seat].hand) if viewer == e.seat else (None,) * 5)


# -- the draw --------------------------------------------------------------------------


def test_rule_3_draw_in_turn_from_dealers_left_zero_to_three():
    g = draw_game(4)
    deal_draw(g, {})
    assert g.phase == "draw" and g.pending == [1, 2, 3, 0]
    assert [a.indices for a in legal_actions(g, 1)] == [(), (0,), (0, 1), (0, 1, 2)]
    for seat, k in ((1, 0), (2, 1), (3, 3), (0, 2)):
        assert g.to_act == seat
        top = g.deck[-k:][::-1] if k else []
        keep = g.seats[seat].hand[k:]
        events = play(g, Discard(seat=seat, indices=tuple(range(k))))
        assert g.seats[seat].hand == keep + top and g.seats[seat].drawn == k
        ev = events[0]
        assert ev.kind == "drew" and ev.amount == k and ev.private
        assert ("stands pat" in ev.public_text) == (k == 0)
    assert g.phase == "hand_over"


def test_rule_3_exchanged_cards_go_face_down_to_discards():
    g = draw_game(3)
    deal_draw(g, {1: "2c 7d 9h Jc Ks"})
    play(g, Discard(seat=1, indices=(0, 2)))
    assert g.discards == C("2c 9h") and g.discards_public == [False, False]
    for viewer in (None, 0, 2):
        assert view_for(g, viewer).discards == (None, None)


@pytest.mark.parametrize("indices,msg", [((0, 1, 2, 3), "at most 3"), ((0, 0), "only once"),
                                         ((5,), "1 to 5"), ((-1,), "1 to 5")])
def test_rule_3_bad_discards_refused(indices, msg):
    g = draw_game(3)
    deal_draw(g, {})
    before = list(g.seats[1].hand)
    with pytest.raises(IllegalAction, match=msg):
        apply(g, Discard(seat=1, indices=indices))
    assert g.seats[1].hand == before
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(g, Discard(seat=2, indices=()))


@pytest.mark.parametrize("max_draw", [0, 1, 5])
def test_rule_3_max_draw_option(max_draw):
    g = draw_game(3, max_draw=max_draw)
    deal_draw(g, {})
    assert max(len(a.indices) for a in legal_actions(g, 1)) == max_draw
    play(g, Discard(seat=1, indices=tuple(range(max_draw))))
    if max_draw < 5:
        with pytest.raises(IllegalAction):
            apply(g, Discard(seat=2, indices=tuple(range(max_draw + 1))))


def test_rule_3_deck_runs_out_discards_reshuffled_but_not_the_current_players():
    """Seven players each exchange three: 17 cards are left after the deal, so the sixth
    player finds 2 in the deck; the 15 earlier discards are shuffled under them."""
    g = draw_game(7)
    deal_draw(g, {})
    order = [1, 2, 3, 4, 5, 6, 0]
    for seat in order[:5]:
        play(g, Discard(seat=seat, indices=(0, 1, 2)))
    assert len(g.deck) == 2 and len(g.discards) == 15
    remaining = list(g.deck)
    mine = g.seats[6].hand[:3]
    events = play(g, Discard(seat=6, indices=(0, 1, 2)))
    assert kinds(events)[0] == "reshuffle" and events[0].amount == 15
    new = g.seats[6].hand[2:]
    assert new[:2] == remaining[::-1]  # the deck's own cards first
    assert g.discards == mine and g.discards_public == [False] * 3  # own discards kept out
    assert len(g.deck) == 15 - 1
    for card in mine:
        assert card not in g.deck
    play(g, Discard(seat=0, indices=(0, 1, 2)))
    assert not check_invariants(g)


def test_rule_3_standing_pat_keeps_the_hand():
    g = draw_game(3)
    deal_draw(g, {1: "2c 7d 9h Jc Ks"})
    play(g, Discard(seat=1, indices=()))
    assert g.seats[1].hand == C("2c 7d 9h Jc Ks") and g.seats[1].drawn == 0


# -- betting and the end of the hand ----------------------------------------------------


def test_rule_3_no_betting_in_the_draw_preset():
    g = draw_game(3)
    deal_draw(g, {})
    assert g.phase == "draw" and all(s.chips == 0 for s in g.seats)


def test_rule_3_betting_before_and_after_the_draw_when_on():
    g = draw_game(3, betting="each_round")
    deal_draw(g, {})
    assert g.phase == "betting" and g.betting_round == "pre_draw" and g.to_act == 1
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    assert g.phase == "draw"
    for seat in (1, 2, 0):
        play(g, Discard(seat=seat, indices=()))
    assert g.phase == "betting" and g.betting_round == "post_draw" and g.to_act == 1
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    assert g.phase == "hand_over" and not g.result.by_fold


def test_rule_3_player_alone_after_folds_wins_without_showing():
    g = draw_game(3, betting="each_round", scoring="chips")
    deal_draw(g, {})
    play(g, PlaceBet(seat=1, amount=2))
    play(g, Fold(seat=2))
    events = play(g, Fold(seat=0))
    assert "show" not in kinds(events)
    assert g.result.by_fold and g.result.winners == (1,) and g.result.hands == ()
    assert not g.seats[1].shown
    for viewer in (None, 0, 2):
        assert view_for(g, viewer).players[1].hand == (None,) * 5
    assert g.seats[1].chips == 100 - 1 - 2 + 3 + 2


def test_rule_3_folded_players_do_not_draw():
    g = draw_game(3, betting="each_round")
    deal_draw(g, {})
    play(g, Fold(seat=1))
    play(g, Check(seat=2))
    play(g, Check(seat=0))
    assert g.phase == "draw" and g.pending == [2, 0]


def test_rule_3_showdown_no_wild_cards_suits_do_not_break_ties():
    """Two equal hands differing only in suits split (chips: an odd chip to the first
    winner clockwise from the button)."""
    g = draw_game(3, scoring="chips")
    deal_draw(g, {1: "Ah Kh 9d 7c 3s", 2: "As Kd 9c 7h 3d", 0: "2c 4d 6h 8s Tc"})
    for seat in (1, 2, 0):
        play(g, Discard(seat=seat, indices=()))
    assert g.result.winners == (1, 2)
    assert "split" in g.result.pots[0].why


def test_rule_3_suit_tiebreak_option_breaks_ties_by_the_suit_order():
    g = draw_game(3, scoring="chips", suit_tiebreak=True, suit_order="CDHS")
    deal_draw(g, {1: "Ah Kh 9d 7c 3s", 2: "As Kd 9c 7h 3d", 0: "2c 4d 6h 8s Tc"})
    for seat in (1, 2, 0):
        play(g, Discard(seat=seat, indices=()))
    # clubs > diamonds > hearts > spades: the ace of hearts beats the ace of spades
    assert g.result.winners == (1,)
    assert "suit" in g.result.pots[0].why


def test_rule_3_showdown_reveals_hands_to_everyone():
    g = draw_game(3)
    deal_draw(g, {})
    for seat in (1, 2, 0):
        play(g, Discard(seat=seat, indices=()))
    for viewer in (None, 0, 1, 2):
        for seat in range(3):
            assert view_for(g, viewer).players[seat].hand == tuple(g.seats[seat].hand)


# -- leaving in every draw phase ---------------------------------------------------------


def test_leave_draw_before_the_cut_by_another_player_gets_no_cards():
    """Bug fixed: a player who left before the cut used to be dealt five cards."""
    g = draw_game(4)
    dealer(g)
    play(g, Leave(seat=1))
    play(g, Cut(seat=3, position=20))
    assert g.seats[1].hand == [] and all(len(g.seats[i].hand) == 5 for i in (0, 2, 3))
    assert g.pending == [2, 3, 0]
    assert not check_invariants(g)


def test_leave_draw_by_the_cutter_the_dealer_cuts():
    """Decision (engine): if the cutter leaves, the dealer cuts in the middle."""
    g = draw_game(3)
    dealer(g)
    events = play(g, Leave(seat=2))
    assert "cut" in kinds(events) and g.phase == "draw"
    assert g.seats[2].hand == [] and len(g.seats[0].hand) == len(g.seats[1].hand) == 5


def test_leave_draw_two_players_cutter_leaves_other_wins():
    g = draw_game(2)
    dealer(g)
    play(g, Leave(seat=1))
    assert g.game_over and g.result.winners == (0,)


@pytest.mark.parametrize("leaver", [1, 2, 0])
def test_leave_draw_during_the_draw(leaver):
    g = draw_game(4)
    deal_draw(g, {})
    if leaver != 1:
        play(g, Discard(seat=1, indices=(0,)))
    assert g.to_act == (1 if leaver == 1 else 2)
    play(g, Leave(seat=leaver))
    assert not check_invariants(g)
    assert leaver not in g.pending
    assert g.seats[leaver].hand == []
    assert g.discards_public.count(False) == (5 if leaver == 1 else 6)
    passive(g)
    assert g.phase == "hand_over"
    assert g.result.hand(leaver) is None and len(g.result.hands) == 3


def test_leave_draw_during_betting_and_between_hands():
    g = draw_game(3, betting="each_round")
    deal_draw(g, {})
    play(g, PlaceBet(seat=1, amount=2))
    play(g, Leave(seat=2))
    assert g.to_act == 0
    play(g, Call(seat=0))
    assert g.phase == "draw"
    passive(g)
    play(g, Leave(seat=0))
    assert g.game_over


def test_rule_3_draw_preset_game_plays_to_the_end():
    g = draw_game(4)
    for _ in range(200):
        if g.game_over:
            break
        dealer(g)
        passive(g)
    assert g.game_over
