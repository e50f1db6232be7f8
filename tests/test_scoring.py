"""RULES.md 2.4 and 5: the showdown, chips and forfeit tokens, eliminations, the end of the
game, and leaving between hands."""

from __future__ import annotations

import pytest

from conftest import (C, deal_draw, game, kinds, passive, play, rig, roulette_to_showdown,
                      set_chips)
from pokeroulette_tui.engine.actions import (Call, Check, Cut, Discard, Fold, Leave, PlaceBet,
                                             StartHand)
from pokeroulette_tui.engine.scoring import hand_value, standings
from pokeroulette_tui.engine.state import LEFT, OUT, PLAYING
from pokeroulette_tui.engine.view import view_for


def stand_pat(g):
    events = []
    while g.phase == "draw":
        events += play(g, Discard(seat=g.to_act, indices=()))
    return events


def showdown(n=3, stocks=None, **opts):
    """A Poker Roulette hand straight to its showdown with the given stocks."""
    opts.setdefault("betting", "none")
    g = game(n, **opts)
    play(g, StartHand())
    events = roulette_to_showdown(g, stocks)
    return g, events


JUNK = {0: "2c 3d", 3: "2d 3c", 4: "2h 3s", 5: "4h 5s"}


def stocks_with(n, **by_seat):
    out = {i: JUNK.get(i, "4c 5d") for i in range(n)}
    out.update({int(k[1:]): v for k, v in by_seat.items()})
    return out


# -- 2.4 the showdown ---------------------------------------------------------------------


def test_rule_2_4_jokers_in_the_stock_are_wild():
    g, _ = showdown(3, stocks_with(3, s1="* Ah Ad", s2="Kh Kd Kc"))
    assert g.result.winners == (1,)
    assert g.result.hand(1).name == "three of a kind, aces"


def test_rule_2_4_jokers_removed_option():
    g, _ = showdown(3, stocks_with(3, s1="* Ah Ad", s2="Kh Kd Kc"), jokers_at_end="removed")
    assert g.result.winners == (2,)
    assert g.result.hand(1).name == "pair of aces"


@pytest.mark.parametrize("option,winner", [("high", 1), ("as_four", 2)])
def test_rule_2_4_five_of_a_kind_option(option, winner):
    g, _ = showdown(3, stocks_with(3, s1="9s 9h 9d 9c *", s2="Ah Kh Qh Jh Th"),
                    five_of_a_kind=option)
    assert g.result.winners == (winner,)


def test_rule_2_4_short_stock_plays_all_its_cards_best_five_of_a_big_one():
    g, _ = showdown(3, stocks_with(3, s1="Ks Kd 2c 3c", s2="As", s0="Qs Qd Qh 7c 7d 2s 3s 4s"))
    assert g.result.winners == (0,)
    assert g.result.hand(0).name == "full house, queens over sevens"
    assert len(g.result.hand(0).cards) == 5
    assert [c.text for c in g.result.hand(2).cards] == ["As"]


@pytest.mark.parametrize("order,winner", [("SHDC", 2), ("HSDC", 1)])
def test_rule_2_4_suit_tiebreak_by_the_agreed_order(order, winner):
    g, events = showdown(3, stocks_with(3, s1="Ah Kd", s2="As Kc"), suit_order=order)
    assert g.result.winners == (winner,)
    why = {"SHDC": "A♠ outranks A♥ (spades over hearts)", "HSDC": "A♥ outranks A♠ (hearts over spades)"}
    assert why[order] in next(e.text for e in events if e.kind == "pot_won")


def test_rule_2_4_suit_tiebreak_uses_the_drawn_order():
    g = game(3, betting="none", suit_order="drawn")
    rig(g, C("2h Kc 9s 4d"))  # the suit draw: hearts, clubs, spades, diamonds
    play(g, StartHand())
    assert g.suit_order == "HCSD"
    roulette_to_showdown(g, stocks_with(3, s1="Ah Kd", s2="As Kc"))
    assert g.result.winners == (1,)  # hearts rank above spades at this table


def test_rule_2_4_joker_suit_counts_below_every_natural_suit():
    """Two decks: Ks + joker (a pair of kings) loses to Ks Kc on the second card's suit."""
    g, events = showdown(6, stocks_with(6, s1="Ks *", s2="Ks Kc"))
    assert g.result.winners == (2,)
    # the explanation names the real reason (it used to say "clubs over hearts")
    assert "K♣ outranks ★ (clubs over joker)" in next(e.text for e in events if e.kind == "pot_won")


def test_rule_2_4_equal_hands_split_the_pot():
    g, events = showdown(6, stocks_with(6, s1="As Kd", s2="As Kd"))
    assert g.result.winners == (1, 2)
    assert g.result.pots[0].shares == {1: 3, 2: 3}
    assert "split" in next(e.text for e in events if e.kind == "pot_won")


def test_rule_2_4_showdown_shows_every_live_stock_private_card_included():
    g, events = showdown(3, stocks_with(3, s1="Ah Kd", s2="As Kc"))
    assert [e.seat for e in events if e.kind == "show"] == [1, 2, 0]
    for seat in range(3):
        assert g.seats[seat].stock_public == [True] * len(g.seats[seat].stock)
        for viewer in (None, 0, 1, 2):
            assert view_for(g, viewer).players[seat].stock == tuple(g.seats[seat].stock)


def test_rule_2_4_hand_value_is_the_stock_in_roulette():
    g, _ = showdown(3, stocks_with(3, s1="Ah Kd", s2="As Kc"))
    assert hand_value(g, 1).describe() == "ace high"


# -- 5 chips -------------------------------------------------------------------------------


def test_rule_5_chips_busted_player_is_out_and_not_dealt_in():
    g = game(3, betting="none")
    set_chips(g, {2: 1})
    play(g, StartHand())
    events = roulette_to_showdown(g, stocks_with(3, s1="Ah Ad", s2="2h 3h", s0="Kc Kd"))
    assert g.seats[2].status == OUT and "out" in kinds(events)
    assert not g.game_over
    play(g, StartHand())
    assert not g.seats[2].in_hand and g.button != 2


def test_rule_5_chips_game_over_when_one_player_holds_every_chip():
    g = game(3, betting="none")
    set_chips(g, {1: 1, 2: 1})
    play(g, StartHand())
    events = roulette_to_showdown(g, stocks_with(3, s1="2h 3h", s2="2s 4d", s0="Kc Kd"))
    assert g.game_over and "Ana wins the game" in g.game_over_reason
    assert kinds(events)[-1] == "game_over"
    top = standings(g)[0]
    assert top["name"] == "Ana" and top["chips"] == g.total_chips


def test_rule_5_chips_hand_limit_ends_the_game():
    g = game(3, betting="none", hand_limit=3)
    for _ in range(3):
        play(g, StartHand())
        passive(g)
    assert g.game_over and "3 hands" in g.game_over_reason


def test_rule_5_standings_best_first_leavers_last():
    g = game(3)
    set_chips(g, {0: 50, 1: 120, 2: 80})
    play(g, Leave(seat=1))
    assert [r["seat"] for r in standings(g)] == [2, 0, 1]


# -- 5 forfeit -----------------------------------------------------------------------------


def forfeit_hand(g, hands):
    """One draw hand with these hands; everyone stands pat."""
    events = deal_draw(g, hands)
    return events + stand_pat(g)


WEAK, MID, STRONG = "2c 4d 6h 8s Tc", "Ah Kh 9d 7c 3s", "Qs Qd Qh 7s 2d"
TIE = "2h 4s 6d 8c Td"  # ties WEAK on every rank
MID2 = "Ad Kd 9h 7d 3c"  # ties MID


def test_rule_5_forfeit_weakest_hand_loses_one_named_token():
    g = game(3, preset="draw")
    assert [s.tokens for s in g.seats] == [6, 6, 6]
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    events = []
    while g.phase == "draw":
        events += play(g, Discard(seat=g.to_act, indices=()))
    assert [s.tokens for s in g.seats] == [6, 5, 6]
    lost = next(e for e in events if e.kind == "token_lost")
    assert lost.seat == 1 and "items" in lost.text
    assert g.result.token_losers == (1,)


def test_rule_5_forfeit_tie_replay_deciding_hand_among_tied_only():
    g = game(4, preset="draw")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    assert [s.tokens for s in g.seats] == [6, 6, 6, 6]
    assert g.decider == [1, 2] and not g.game_over
    events = play(g, StartHand())
    assert "Deciding hand" in next(e.text for e in events if e.kind == "hand_started")
    assert [i for i, s in enumerate(g.seats) if s.in_hand] == [1, 2]
    play(g, Cut(seat=g.to_act, position=26))
    stand_pat(g)
    assert g.decider is None
    assert sorted(s.tokens for s in g.seats) == [5, 6, 6, 6]
    assert [g.seats[i].tokens for i in (0, 3)] == [6, 6]


def test_rule_5_forfeit_tie_replay_again_when_the_decider_ties():
    g = game(4, preset="draw")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    assert g.decider == [1, 2]
    # the deciding hand: seats 1 and 2; the button moves to seat 1, seat 2 is dealt first
    forfeit_hand(g, {1: WEAK, 2: TIE})
    assert g.decider == [1, 2] and all(s.tokens == 6 for s in g.seats)
    forfeit_hand(g, {1: WEAK, 2: MID})
    assert g.decider is None and [s.tokens for s in g.seats] == [6, 5, 6, 6]


def test_rule_5_forfeit_tie_all_lose():
    g = game(4, preset="draw", forfeit_tie="all_lose")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    assert [s.tokens for s in g.seats] == [6, 5, 5, 6] and g.decider is None


def test_rule_5_forfeit_all_but_winner():
    g = game(4, preset="draw", forfeit_mode="all_but_winner")
    forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert [s.tokens for s in g.seats] == [6, 5, 5, 5]


def test_rule_5_forfeit_all_but_winner_tied_winners_both_keep():
    g = game(3, preset="draw", forfeit_mode="all_but_winner")
    forfeit_hand(g, {1: WEAK, 2: MID, 0: MID2})
    assert [s.tokens for s in g.seats] == [6, 5, 6] and g.decider is None


def test_rule_5_forfeit_most_chips_lost():
    g = game(3, preset="draw", betting="each_round", forfeit_mode="most_chips_lost")
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Fold(seat=2))
    play(g, Call(seat=0))
    stand_pat(g)
    play(g, Check(seat=1))
    play(g, Check(seat=0))
    assert g.result.winners == (0,)
    # seat 1 lost 11, seat 2 lost its ante of 1
    assert [s.tokens for s in g.seats] == [6, 5, 6]


def test_rule_5_forfeit_most_chips_lost_falls_back_to_weakest_when_no_chips_were_lost():
    """Decision: with no ante and nothing bet (or every stack empty), nobody lost chips; the
    weakest hand loses, as in the main variant (not a deciding hand among everyone, which
    could repeat forever)."""
    g = game(3, preset="draw", betting="each_round", forfeit_mode="most_chips_lost", ante=0)
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    stand_pat(g)
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    assert [s.tokens for s in g.seats] == [6, 5, 6] and g.decider is None


def test_rule_5_forfeit_folded_players_count_as_weakest():
    """Decision: a player who folds counts as the weakest hand; several folders are tied."""
    g = game(3, preset="draw", betting="each_round")
    deal_draw(g, {1: STRONG, 2: MID, 0: WEAK})
    play(g, PlaceBet(seat=1, amount=5))
    play(g, Fold(seat=2))
    play(g, Call(seat=0))
    stand_pat(g)
    play(g, Check(seat=1))
    play(g, Check(seat=0))
    assert [s.tokens for s in g.seats] == [6, 6, 5]  # the folder, not the weakest shown hand


def test_rule_5_forfeit_hand_ends_when_all_but_one_fold():
    g = game(3, preset="draw", betting="each_round", forfeit_tie="all_lose")
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    play(g, PlaceBet(seat=1, amount=5))
    play(g, Fold(seat=2))
    events = play(g, Fold(seat=0))
    assert g.result.by_fold and "show" not in kinds(events)
    assert [s.tokens for s in g.seats] == [5, 6, 5]


def test_rule_5_first_out_game_ends_and_that_player_loses():
    g = game(3, preset="draw")
    g.seats[1].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert g.game_over and g.seats[1].tokens == 0
    assert g.game_over_reason == "Bo ran out of items and loses the game"


def test_rule_5_last_standing_players_at_zero_drop_out_and_play_goes_on():
    g = game(3, preset="draw", game_end="last_standing")
    g.seats[1].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert g.seats[1].status == OUT and not g.game_over
    play(g, StartHand())
    assert not g.seats[1].in_hand
    passive(g)
    g2 = game(2, preset="draw", game_end="last_standing")
    g2.seats[0].tokens = 1
    forfeit_hand(g2, {1: STRONG, 0: WEAK})
    assert g2.game_over and "Bo wins the game" in g2.game_over_reason


def test_rule_5_sit_out_one_hand_then_a_last_life():
    """Decision (engine): after sitting out, the player at zero plays on a last life (still
    in the game) and drops out when it next loses."""
    g = game(4, preset="draw", game_end="last_standing", sit_out=True)
    g.seats[1].tokens = 1
    events = forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert "sit_out" in kinds(events)
    assert g.seats[1].status == PLAYING and g.seats[1].last_life and g.seats[1].sit_out_hands == 1
    play(g, StartHand())
    assert not g.seats[1].in_hand  # sits out this hand
    passive(g)
    events = forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert g.seats[1].tokens == 0 and "on a last life and is out" in " ".join(e.text for e in events)
    assert g.seats[1].status == OUT


def test_rule_5_sit_out_only_while_enough_players_remain():
    """With one other player left there is nobody to play the sat-out hand: the player at
    zero drops out as without the option (RULES.md: 'instead, while enough players remain')."""
    g = game(2, preset="draw", game_end="last_standing", sit_out=True)
    g.seats[1].tokens = 1
    forfeit_hand(g, {1: WEAK, 0: STRONG})
    assert g.seats[1].status == OUT and g.game_over


def test_rule_5_button_skips_players_who_are_out_or_sitting_out():
    g = game(4, preset="draw", game_end="last_standing")
    g.seats[1].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert g.seats[1].status == OUT
    play(g, StartHand())
    assert g.button == 2  # seat 1 is skipped
    assert g.to_act == 0  # the cutter: right of the dealer among those dealt in


def test_rule_5_forfeit_hand_limit():
    g = game(3, preset="draw", hand_limit=2)
    for _ in range(2):
        play(g, StartHand())
        passive(g)
    assert g.game_over and "2 hands" in g.game_over_reason


# -- leaving between hands and in a deciding hand ----------------------------------------


def test_leave_between_hands_game_continues_with_two():
    """Decision: a game continues while at least two players remain."""
    g = game(3, preset="draw")
    play(g, Leave(seat=0))
    assert not g.game_over and g.seats[0].status == LEFT
    play(g, StartHand())
    assert [i for i, s in enumerate(g.seats) if s.in_hand] == [1, 2]
    passive(g)
    play(g, Leave(seat=2))
    assert g.game_over and g.game_over_reason == "Bo wins the game"


def test_leave_during_a_deciding_hand_ends_it_without_a_token_lost():
    """Decision: the one left in a deciding hand keeps its tokens (the leaver is gone)."""
    g = game(4, preset="draw")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    assert g.decider == [1, 2]
    play(g, StartHand())
    play(g, Leave(seat=2))
    assert g.decider is None and g.phase == "hand_over"
    assert [s.tokens for s in g.seats] == [6, 6, 6, 6]


def test_leave_of_a_tied_player_before_the_deciding_hand_cancels_it():
    g = game(4, preset="draw")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    play(g, Leave(seat=1))
    assert g.decider is None
    play(g, StartHand())
    assert [i for i, s in enumerate(g.seats) if s.in_hand] == [0, 2, 3]


@pytest.mark.parametrize("ante", [1, 0])
def test_rule_5_forfeit_most_chips_lost_a_player_who_cannot_ante_loses_the_token(ante):
    """Decision (issue 10): a player who starts a hand without the whole ante (with no ante:
    without a chip) counts as losing the most chips. Before, an empty stack paid nothing and
    could never lose a token while the others did."""
    g = game(3, preset="draw", betting="each_round", forfeit_mode="most_chips_lost", ante=ante)
    set_chips(g, {2: 0})
    deal_draw(g, {1: STRONG, 2: WEAK, 0: MID})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Call(seat=0))  # seat 0 loses 10 (+ ante) to seat 1 …
    stand_pat(g)
    play(g, Check(seat=1))
    events = play(g, Check(seat=0))
    assert g.result.winners == (1,)
    assert [s.tokens for s in g.seats] == [6, 6, 5]  # … but the empty stack loses the token
    lost = next(e for e in events if e.kind == "token_lost")
    assert lost.seat == 2
    assert ("could not pay the ante" if ante else "had no chips to bet") in lost.text


def test_rule_5_forfeit_most_chips_lost_everyone_short_falls_back_to_weakest():
    g = game(3, preset="draw", betting="each_round", forfeit_mode="most_chips_lost", ante=0)
    set_chips(g, {0: 0, 1: 0, 2: 0})
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    stand_pat(g)
    assert [s.tokens for s in g.seats] == [6, 5, 6] and g.decider is None
