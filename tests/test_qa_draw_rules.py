"""QA pass on docs/RULES.md 3 (five-card draw, "Mörkpoker"), 4 (betting in draw) and 5 (the
forfeit-token mode and its house-rule options): each test drives the engine on chosen cards.

Each test documents verified behaviour; four of them were discrepancies this pass found
(everyone short under ``most_chips_lost``, two-player draw, ``min_players`` on a draw
table, the rules panel's tie clause), fixed since.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import deal_draw, dealer, game, kinds, passive, play, set_chips
from pokeroulette_tui.engine.actions import (AllIn, Call, Check, Discard, Fold, IllegalAction,
                                             PlaceBet, RaiseTo, StartHand)
from pokeroulette_tui.engine.cards import STANDARD_DECK
from pokeroulette_tui.engine.game import apply, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleError, RuleSet
from pokeroulette_tui.engine.state import OUT

WEAK, MID, STRONG = "2c 4d 6h 8s Tc", "Ah Kh 9d 7c 3s", "Qs Qd Qh 7s 2d"
TIE = "2h 4s 6d 8c Td"    # ties WEAK on every rank (suits differ)
TIE2 = "2s 4h 6c 8d Ts"   # a third hand tying WEAK
MID2 = "Ad Kd 9h 7d 3c"   # ties MID


def draw_game(n=3, **opts):
    return game(n, preset="draw", **opts)


def stand_pat(g):
    events = []
    while g.phase == "draw":
        events += play(g, Discard(seat=g.to_act, indices=()))
    return events


def forfeit_hand(g, hands):
    return deal_draw(g, hands) + stand_pat(g)


def tokens(g):
    return [s.tokens for s in g.seats]


# -- 3: deck, players, the draw ---------------------------------------------------------


def test_draw_deck_has_no_jokers_even_in_the_suit_draw():
    """RULES 3: one 52-card deck, no jokers; the suit draw (suit_tiebreak on) uses no joker."""
    for seed in range(20):
        g = game(3, preset="draw", suit_tiebreak=True, suit_order="drawn", seed=seed)
        ev = dealer(g)
        assert Counter(g.deck) == Counter(STANDARD_DECK)
        turned = next(e for e in ev if e.kind == "suit_order").cards
        assert not any(c.is_joker for c in turned)
        assert sorted(g.suit_order) == sorted("SHDC")


def test_draw_seats_at_most_seven():
    with pytest.raises(RuleError):
        new_game(PRESETS["draw"], [f"P{i}" for i in range(8)])
    new_game(PRESETS["draw"], [f"P{i}" for i in range(7)])
    new_game(PRESETS["draw"], ["A", "B"])


def test_draw_variant_seats_two_players_by_default():
    """RULES §3: 2–7 players, whatever ``min_players`` (Poker Roulette's option) says."""
    rules = RuleSet(variant="draw", betting="none", scoring="forfeit")
    assert rules.min_players == 3 and rules.fewest_players == 2
    new_game(rules, ["A", "B"])


def test_min_players_is_poker_roulettes_option_and_draw_still_seats_two_to_seven():
    rules = RuleSet(variant="draw", min_players=8)
    new_game(rules, ["A", "B"])
    with pytest.raises(RuleError):
        new_game(rules, [f"P{i}" for i in range(8)])
    with pytest.raises(RuleError):
        new_game(RuleSet(min_players=4), ["A", "B", "C"])


@pytest.mark.parametrize("max_draw", [0, 1, 3, 5])
def test_max_draw_is_the_discard_limit(max_draw):
    g = draw_game(3, max_draw=max_draw)
    deal_draw(g, {})
    seat = g.to_act
    assert max(len(a.indices) for a in legal_actions(g, seat)) == max_draw
    if max_draw < 5:
        with pytest.raises(IllegalAction, match="at most"):
            apply(g, Discard(seat=seat, indices=tuple(range(max_draw + 1))))
    before = list(g.seats[seat].hand)
    play(g, Discard(seat=seat, indices=tuple(range(max_draw))))
    hand = g.seats[seat].hand
    assert len(hand) == 5 and hand[:5 - max_draw] == before[max_draw:]
    assert g.seats[seat].drawn == max_draw


def test_exactly_one_draw_per_player():
    """RULES 3: one draw, in turn from the dealer's left; after it the hand goes on."""
    g = draw_game(3)
    deal_draw(g, {})
    assert g.pending == [1, 2, 0]
    play(g, Discard(seat=1, indices=(0, 1)))
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(g, Discard(seat=1, indices=(0,)))
    play(g, Discard(seat=2, indices=()))
    play(g, Discard(seat=0, indices=(4,)))
    assert g.phase == "hand_over"  # no betting: straight to the showdown, no second draw


def test_seven_players_drawing_five_each_never_get_their_own_discards():
    """RULES 3: when the deck runs out, the discard pile (not the current player's discards)
    is shuffled to continue. 7 x 5 dealt leaves 17; with max_draw 5 the deck runs short."""
    g = draw_game(7, max_draw=5)
    deal_draw(g, {})
    reshuffles = 0
    while g.phase == "draw":
        seat = g.to_act
        mine = list(g.seats[seat].hand)
        ev = play(g, Discard(seat=seat, indices=(0, 1, 2, 3, 4)))
        reshuffles += "reshuffle" in kinds(ev)
        assert not set(map(id, g.seats[seat].hand)) & set(map(id, mine))
        assert not set(g.seats[seat].hand) & set(mine)
    assert reshuffles >= 1 and g.phase == "hand_over"


def test_all_in_player_still_draws():
    g = draw_game(3, betting="each_round", scoring="chips")
    set_chips(g, {2: 5})
    deal_draw(g, {})
    play(g, Check(seat=1))
    play(g, AllIn(seat=2))
    play(g, Call(seat=0))
    play(g, Call(seat=1))
    assert g.phase == "draw" and g.pending == [1, 2, 0]


# -- 4: betting in draw -----------------------------------------------------------------


def test_antes_short_stack_pays_what_it_has_and_is_all_in():
    """RULES 4: option ante; a stack short of the ante pays what it has (all in)."""
    g = draw_game(3, betting="each_round", scoring="chips", ante=2)
    set_chips(g, {2: 1})
    ev = dealer(g)
    assert [s.contributed for s in g.seats] == [2, 2, 1] and g.seats[2].all_in
    assert next(e for e in ev if e.kind == "ante").amount == 5


@pytest.mark.parametrize("ante,chips", [(0, 40), (3, 100), (5, 7)])
def test_ante_and_starting_chips_options_are_honoured(ante, chips):
    g = draw_game(3, betting="each_round", ante=ante, starting_chips=chips)
    assert [s.chips for s in g.seats] == [chips] * 3
    dealer(g)
    assert [s.chips for s in g.seats] == [chips - ante] * 3


def test_button_moves_one_seat_clockwise_each_hand():
    g = draw_game(3, betting="each_round", scoring="chips")
    buttons = []
    for _ in range(4):
        dealer(g)
        buttons.append(g.button)
        passive(g)
    assert buttons == [0, 1, 2, 0]


def test_wheel_is_the_lowest_straight_and_no_wild_cards_in_draw():
    g = draw_game(3)
    forfeit_hand(g, {1: "Ah 2d 3c 4s 5h", 2: "2h 3d 4c 5s 6d", 0: "Kc Kd 8h 8d 3s"})
    assert g.result.order == (2, 1, 0) and g.result.token_losers == (0,)


def test_no_antes_without_chips():
    """The draw preset (no betting, forfeit scoring) moves no chip."""
    g = draw_game(3)
    dealer(g)
    assert all(s.contributed == 0 for s in g.seats)


def test_everyone_folds_before_the_draw_no_draw_no_showdown():
    g = draw_game(3, betting="each_round", scoring="chips")
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    play(g, PlaceBet(seat=1, amount=4))
    play(g, Fold(seat=2))
    ev = play(g, Fold(seat=0))
    assert "draw_started" not in kinds(ev) and "show" not in kinds(ev)
    assert g.result.by_fold and g.result.winners == (1,)
    assert g.seats[1].chips == 100 - 1 - 4 + 3 + 4


def test_side_pot_in_draw_short_all_in_wins_only_what_it_matched():
    """RULES 4: all-in players win at most what they matched."""
    g = draw_game(3, betting="each_round", scoring="chips")
    set_chips(g, {1: 6})
    deal_draw(g, {1: STRONG, 2: MID, 0: WEAK})
    play(g, AllIn(seat=1))  # 5 behind the ante
    play(g, RaiseTo(seat=2, amount=20))
    play(g, Call(seat=0))
    stand_pat(g)
    play(g, Check(seat=2))
    play(g, Check(seat=0))
    main, side = g.result.pots
    assert (main.amount, main.winners) == (18, (1,))
    assert (side.amount, side.winners, set(side.eligible)) == (30, (2,), {0, 2})
    assert [s.chips for s in g.seats] == [79, 18, 109]


def test_split_pot_odd_chip_goes_clockwise_from_the_button():
    g = draw_game(3, scoring="chips", betting="each_round")
    deal_draw(g, {1: WEAK, 2: MID, 0: MID2})   # button 0: seats 2 and 0 tie
    play(g, PlaceBet(seat=1, amount=2))
    play(g, Call(seat=2))
    play(g, Call(seat=0))
    stand_pat(g)
    for seat in (1, 2, 0):
        play(g, Check(seat=seat))
    (pot,) = g.result.pots
    assert pot.amount == 9 and set(pot.winners) == {0, 2}
    assert pot.shares == {2: 5, 0: 4}  # seat 2 is nearest clockwise from the button (0)


def test_fixed_limit_bet_is_twice_the_ante_and_three_raises_at_most():
    g = draw_game(3, betting="each_round", scoring="chips", limit="fixed", ante=3)
    deal_draw(g, {})
    opts = {type(a).__name__: a.amount for a in legal_actions(g, 1) if hasattr(a, "amount")}
    assert opts == {"PlaceBet": 6}
    play(g, PlaceBet(seat=1, amount=6))
    play(g, RaiseTo(seat=2, amount=12))
    play(g, RaiseTo(seat=0, amount=18))
    play(g, RaiseTo(seat=1, amount=24))
    assert not any(isinstance(a, RaiseTo) for a in legal_actions(g, 2))
    with pytest.raises(IllegalAction):
        apply(g, RaiseTo(seat=2, amount=30))


def test_showdown_order_from_the_dealers_left():
    g = draw_game(4)
    ev = forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert [e.seat for e in ev if e.kind == "show"] == [1, 2, 3, 0]
    assert g.result.order[0] == 0


# -- 5: forfeit tokens -------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 6, 7])
def test_tokens_option_every_player_starts_with_it(n):
    g = draw_game(3, tokens=n)
    assert tokens(g) == [n] * 3


def test_token_name_is_used_in_the_events():
    g = draw_game(3, token_name="beers")
    ev = forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert "beers" in next(e for e in ev if e.kind == "token_lost").text


def test_replay_three_way_tie_plays_one_deciding_hand_among_the_three():
    g = draw_game(4)
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: TIE2, 0: STRONG})
    assert g.decider == [1, 2, 3] and tokens(g) == [6] * 4
    play(g, StartHand())
    assert [i for i, s in enumerate(g.seats) if s.in_hand] == [1, 2, 3]


def test_all_lose_three_way_tie_each_lose_one():
    g = draw_game(4, forfeit_tie="all_lose")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: TIE2, 0: STRONG})
    assert tokens(g) == [6, 5, 5, 5] and g.decider is None
    assert g.result.token_losers == (1, 2, 3)


def test_suit_tiebreak_leaves_no_tie_for_weakest():
    """With suit_tiebreak on, suits rank the equal hands: one weakest, no deciding hand."""
    g = draw_game(3, suit_tiebreak=True, suit_order="SHDC")
    forfeit_hand(g, {1: WEAK, 2: TIE, 0: STRONG})
    # WEAK's top card is Tc, TIE's Td: diamonds outrank clubs, so WEAK (seat 1) is weakest
    assert g.decider is None and tokens(g) == [6, 5, 6]


def test_first_out_two_reach_zero_together_both_lose():
    g = draw_game(3, forfeit_tie="all_lose")
    g.seats[1].tokens = g.seats[2].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: TIE, 0: STRONG})
    assert g.game_over and g.game_over_reason == "Bo and Cy ran out of items and lose the game"


def test_first_out_waits_for_the_deciding_hand():
    g = draw_game(3)
    g.seats[1].tokens = g.seats[2].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: TIE, 0: STRONG})
    assert not g.game_over and g.decider == [1, 2]
    forfeit_hand(g, {1: STRONG, 2: WEAK})
    assert g.game_over and tokens(g) == [6, 1, 0] and "Cy ran out" in g.game_over_reason


def test_first_out_all_but_winner_ends_the_game():
    g = draw_game(3, forfeit_mode="all_but_winner")
    g.seats[2].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert tokens(g) == [6, 5, 0] and g.game_over


def test_first_out_ignores_sit_out():
    g = draw_game(4, sit_out=True)
    g.seats[1].tokens = 1
    ev = forfeit_hand(g, {1: WEAK, 2: MID, 3: MID2, 0: STRONG})
    assert "sit_out" not in kinds(ev) and g.game_over


def test_last_standing_play_goes_on_until_one_has_tokens():
    g = draw_game(3, game_end="last_standing")
    g.seats[1].tokens = 1
    g.seats[2].tokens = 1
    forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert g.seats[1].status == OUT and not g.game_over
    forfeit_hand(g, {2: WEAK, 0: STRONG})
    assert g.game_over and g.game_over_reason == "Ana wins the game"
    assert g.result.token_losers == (2,)


def test_last_standing_last_two_tie_all_lose_nobody_is_left():
    """RULES 5 says play goes on 'until one player still has tokens'; with all_lose the last
    two can reach zero together. The engine ends the game with nobody left (see report)."""
    g = draw_game(2, game_end="last_standing", forfeit_tie="all_lose")
    g.seats[0].tokens = g.seats[1].tokens = 1
    forfeit_hand(g, {1: WEAK, 0: TIE})
    assert g.game_over and g.game_over_reason == "no players are left"


def test_hand_limit_forfeit_waits_for_the_deciding_hand():
    g = draw_game(3, hand_limit=1)
    forfeit_hand(g, {1: WEAK, 2: TIE, 0: STRONG})
    assert not g.game_over and g.decider == [1, 2]
    forfeit_hand(g, {1: STRONG, 2: WEAK})
    assert g.game_over and tokens(g) == [6, 6, 5]


def test_weakest_everyone_folds_to_one_folders_tied_replay():
    """The engine's decision (not in RULES.md): folders count as the weakest hand; two folders
    are tied, so under "replay" they play a deciding hand."""
    g = draw_game(3, betting="each_round")
    deal_draw(g, {1: WEAK, 2: MID, 0: STRONG})
    play(g, PlaceBet(seat=1, amount=4))
    play(g, Fold(seat=2))
    play(g, Fold(seat=0))
    assert g.result.by_fold and g.decider == [0, 2] and tokens(g) == [6] * 3


def test_most_chips_lost_is_honoured():
    g = draw_game(3, betting="each_round", forfeit_mode="most_chips_lost")
    deal_draw(g, {1: STRONG, 2: WEAK, 0: MID})
    play(g, PlaceBet(seat=1, amount=10))
    play(g, Fold(seat=2))   # weakest hand, loses its ante only
    play(g, Call(seat=0))   # loses 11
    stand_pat(g)
    play(g, Check(seat=1))
    play(g, Check(seat=0))
    assert tokens(g) == [5, 6, 6]


def test_most_chips_lost_every_player_short_weakest_hand_loses():
    """RULES 5: 'If every player is short, or nobody lost a chip, the weakest hand loses.'
    Ante 5, every stack 3: all are short, but chips did change hands (the winner took 9)."""
    g = draw_game(3, betting="each_round", forfeit_mode="most_chips_lost", ante=5,
                  forfeit_tie="all_lose")
    set_chips(g, {0: 3, 1: 3, 2: 3})
    forfeit_hand(g, {1: WEAK, 2: MID, 0: STRONG})
    assert g.result.winners == (0,)
    assert tokens(g) == [6, 5, 6]


# -- options shared by both games ------------------------------------------------------------


def test_draw_refuses_final_only_betting():
    """RULES 4: in draw, betting on means before and after the draw."""
    with pytest.raises(RuleError) as err:
        RuleSet(variant="draw", betting="final_only")
    assert err.value.option == "betting"


def test_most_chips_lost_needs_betting():
    with pytest.raises(RuleError) as err:
        RuleSet(variant="draw", scoring="forfeit", betting="none", forfeit_mode="most_chips_lost")
    assert err.value.option == "forfeit_mode"


def test_fixed_limit_with_no_ante_bets_one_chip():
    """RULES 4 says the fixed bet is 'the ante x 2'; with ante 0 the engine bets 1 (see report)."""
    g = draw_game(3, betting="each_round", scoring="chips", limit="fixed", ante=0)
    deal_draw(g, {})
    assert [a.amount for a in legal_actions(g, 1) if isinstance(a, PlaceBet)] == [1]


def test_chips_scoring_in_draw_busted_player_is_out_and_not_dealt_in():
    g = draw_game(3, betting="each_round", scoring="chips")
    set_chips(g, {2: 10})
    deal_draw(g, {1: STRONG, 2: WEAK, 0: MID})
    play(g, AllIn(seat=1))
    play(g, AllIn(seat=2))
    play(g, Fold(seat=0))
    stand_pat(g)
    assert g.seats[2].chips == 0 and g.seats[2].status == OUT and not g.game_over
    play(g, StartHand())
    assert [s.in_hand for s in g.seats] == [True, True, False] and g.button == 1


def test_forfeit_scoring_in_roulette_weakest_stock_loses():
    """RULES 5 applies to both variants: in Poker Roulette the weakest stock loses a token."""
    from conftest import roulette_to_showdown
    g = game(3, betting="none", scoring="forfeit")
    play(g, StartHand())
    roulette_to_showdown(g, {1: "Ah Ad Ac", 2: "2c 3d", 0: "Kh Kd"})
    assert tokens(g) == [6, 6, 5] and g.result.token_losers == (2,)


def test_all_but_winner_tied_weakest_both_lose_no_deciding_hand():
    """Engine: in the fast variant ties for weakest do not matter; both lose one."""
    g = draw_game(4, forfeit_mode="all_but_winner")
    forfeit_hand(g, {1: WEAK, 2: TIE, 3: MID, 0: STRONG})
    assert tokens(g) == [6, 5, 5, 5] and g.decider is None


def test_rules_panel_does_not_promise_a_deciding_hand_under_all_but_winner():
    from pokeroulette_tui.engine.rules import describe_rules
    text = " ".join(describe_rules(PRESETS["draw"].replace(forfeit_mode="all_but_winner")))
    assert "deciding hand" not in text


def test_rules_panel_says_what_a_tie_is_under_most_chips_lost():
    from pokeroulette_tui.engine.rules import describe_rules
    rules = PRESETS["draw"].replace(forfeit_mode="most_chips_lost", betting="each_round")
    text = " ".join(describe_rules(rules))
    assert "tied weakest" not in text and "players tied for it play a deciding hand" in text
    text = " ".join(describe_rules(rules.replace(forfeit_tie="all_lose")))
    assert "players tied for it each lose one" in text
