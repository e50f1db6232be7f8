"""RULES.md 2.3: the matching rules, in order (the first that applies decides), the
one-card rules, the claim of the match card and its options, in isolation and in play."""

from __future__ import annotations

import pytest

from conftest import C, c1, dealer, game, passive, play, put_on_top, rig, roulette_deal_order
from pokeroulette_tui.engine.actions import StartHand
from pokeroulette_tui.engine.matching import matches, resolve
from pokeroulette_tui.engine.rules import RuleSet

CLASSIC = RuleSet()


def outcome(actives: str, match: str, **opts):
    o = resolve(C(actives), c1(match), RuleSet(**opts))
    return o


def added(actives: str, match: str, **opts) -> str:
    return " ".join(c.text for c in outcome(actives, match, **opts).added)


# -- "matches" -----------------------------------------------------------------------


@pytest.mark.parametrize("card,match,expected", [
    ("7h", "7s", True),    # rank
    ("2h", "Kh", True),    # suit
    ("7h", "7h", True),    # both (several decks)
    ("2h", "Ks", False),
    ("*", "7s", False),    # jokers never match by suit or rank
    ("7s", "*", False),
    ("*", "*", False),
])
def test_rule_2_3_matches_means_same_suit_or_same_rank(card, match, expected):
    assert matches(c1(card), c1(match)) is expected


# -- the seven rules, two actives ----------------------------------------------------


def test_rule_2_3_1_two_joker_actives_both_discarded():
    o = outcome("* *", "7s")
    assert (o.added, o.discarded, o.rule, o.claims_match) == ((), tuple(C("* *")), 1, False)


def test_rule_2_3_1_two_jokers_against_a_joker_match_card_rule_1_first():
    o = outcome("* *", "*")
    assert o.added == () and o.rule == 1


@pytest.mark.parametrize("actives", ["* 7s", "7s *", "* *"])
def test_rule_2_3_2_joker_match_card_and_a_joker_active_both_discarded(actives):
    o = outcome(actives, "*")
    assert o.added == () and len(o.discarded) == 2 and o.rule in (1, 2)
    if actives != "* *":
        assert o.rule == 2


@pytest.mark.parametrize("actives", ["7s 2h", "As As", "2c 9d"])
def test_rule_2_3_3_joker_match_card_no_joker_active_both_added(actives):
    o = outcome(actives, "*")
    assert o.added == tuple(C(actives)) and o.rule == 3 and not o.claims_match


@pytest.mark.parametrize("actives,match", [("* 7h", "7s"), ("7h *", "2h"), ("* Kd", "Kd")])
def test_rule_2_3_4_joker_and_a_matching_card_both_added(actives, match):
    o = outcome(actives, match)
    assert o.added == tuple(C(actives)) and o.rule == 4 and not o.claims_match


@pytest.mark.parametrize("actives,match", [("* 7h", "8s"), ("2c *", "Kh")])
def test_rule_2_3_4_joker_and_a_non_matching_card_both_discarded(actives, match):
    o = outcome(actives, match)
    assert o.added == () and o.discarded == tuple(C(actives)) and o.rule == 4


def test_rule_2_3_4_joker_active_ignores_actives_match_each_other():
    """A joker has only its own rules: it never 'matches' the other active."""
    o = outcome("* 7h", "8s", actives_match_each_other=True)
    assert o.added == () and o.rule == 4


def test_rule_2_3_5_both_rank_claims_match_card():
    o = outcome("7h 7c", "7s")
    assert o.added == tuple(C("7h 7c")) and o.claims_match and o.rule == 5


def test_rule_2_3_5_claim_match_card_off_adds_both_never_claims():
    o = outcome("7h 7c", "7s", claim_match_card=False)
    assert o.added == tuple(C("7h 7c")) and not o.claims_match and o.rule == 5


def test_rule_2_3_5_identical_cards_from_several_decks_match_by_rank_first():
    """7s 7s against 7s: rank and suit both match; rule 5 comes before rule 6."""
    o = outcome("7s 7s", "7s")
    assert o.rule == 5 and o.claims_match


def test_rule_2_3_5_one_same_rank_one_same_suit_is_not_rule_5():
    o = outcome("7h 2s", "7s")
    assert o.rule == 7 and not o.claims_match and o.added == tuple(C("7h 2s"))


def test_rule_2_3_6_both_suit_added_match_not_claimed():
    o = outcome("2h 9h", "Kh")
    assert o.added == tuple(C("2h 9h")) and not o.claims_match and o.rule == 6


def test_rule_2_3_6_actives_match_each_other_off_by_default():
    o = outcome("9c 9d", "2h")
    assert o.added == () and o.rule == 7


@pytest.mark.parametrize("actives", ["9c 9d", "2c Kc"])
def test_rule_2_3_6_actives_match_each_other_on_adds_both_whatever_m_is(actives):
    o = outcome(actives, "5h", actives_match_each_other=True)
    assert o.added == tuple(C(actives)) and not o.claims_match and o.rule == 6


def test_rule_2_3_6_actives_match_each_other_still_claims_on_rule_5():
    o = outcome("5c 5d", "5h", actives_match_each_other=True)
    assert o.rule == 5 and o.claims_match


@pytest.mark.parametrize("actives,match,kept", [
    ("7h 2c", "7s", "7h"),      # one by rank
    ("2c 7h", "Kh", "7h"),      # one by suit
    ("7h 2s", "7s", "7h 2s"),   # one by rank, the other by suit: both, no claim
    ("2c 3d", "Kh", ""),        # neither
])
def test_rule_2_3_7_each_matching_card_added_on_its_own(actives, match, kept):
    o = outcome(actives, match)
    assert o.rule == 7 and not o.claims_match
    assert " ".join(c.text for c in o.added) == kept
    assert sorted(o.added + o.discarded) == sorted(C(actives))


# -- one active card ---------------------------------------------------------------


def test_rule_2_3_one_card_joker_discarded():
    o = outcome("*", "7s")
    assert o.added == () and o.discarded == (c1("*"),)


def test_rule_2_3_one_card_joker_against_joker_match_discarded():
    assert outcome("*", "*").added == ()


def test_rule_2_3_one_card_joker_match_card_keeps_it():
    assert added("7s", "*") == "7s"


@pytest.mark.parametrize("card,match,kept", [("7h", "7s", True), ("2s", "Ks", True),
                                              ("2h", "Ks", False)])
def test_rule_2_3_one_card_added_if_it_matches(card, match, kept):
    o = outcome(card, match)
    assert bool(o.added) is kept and not o.claims_match


def test_rule_2_3_one_card_never_claims():
    assert not outcome("7h", "7s").claims_match


def test_rule_2_3_resolve_refuses_zero_or_three_actives():
    with pytest.raises(ValueError):
        resolve([], c1("7s"), CLASSIC)
    with pytest.raises(ValueError):
        resolve(C("7s 7h 7d"), c1("7c"), CLASSIC)


def test_rule_2_3_reason_says_which_rule_decided():
    assert "claims the match card" in outcome("7h 7c", "7s").reason
    assert outcome("2h 9h", "Kh").reason
    assert outcome("2c 3d", "Kh").reason == "no match"


# -- in play: who claims, who keeps what -------------------------------------------


def _deal(g, stocks, actives, match):
    rig(g, roulette_deal_order(stocks, actives, match))
    play(g, StartHand())


def test_rule_2_3_5_first_clockwise_claimer_takes_match_card():
    """Seats 2 and 4 both qualify (two decks: six players); the button is seat 0, so seat 2
    (the first of them clockwise from the button) claims; seat 4 still adds its two actives.
    Decision: the claim goes to the first qualifier in dealing order (left of the button)."""
    g = game(6, betting="none")
    # dealing order: seats 1, 2, 3, 4, 5, 0
    _deal(g, ["2c", "3c", "4c", "5c", "6c", "8c"],
          ["9d Jh", "7h 7c", "9s Js", "7d 7s", "Qd Qs", "Kd Ks"], "7s")
    assert g.button == 0
    dealer(g)  # turn the actives
    assert g.match_claimed_by == 2
    assert g.seats[2].stock == C("3c 7h 7c 7s")
    assert g.seats[4].stock == C("5c 7d 7s")
    assert g.seats[1].stock == C("2c")  # 9d Jh: nothing
    assert g.match is None
    before = g.discards.count(c1("7s"))
    dealer(g)  # clean up: the claimed match card is not discarded
    assert g.discards.count(c1("7s")) == before


def test_rule_2_3_5_claim_order_follows_the_button():
    """Next hand the button is seat 1: seat 3 is now the first qualifier clockwise."""
    g = game(6, betting="none")
    play(g, StartHand())
    passive(g)
    # dealing order: seats 2, 3, 4, 5, 0, 1; seats 1 and 3 qualify
    _deal(g, ["2c", "3c", "4c", "5c", "6c", "8c"],
          ["9d Jh", "7d 7s", "9s Js", "Qd Qs", "Kd Ks", "7h 7c"], "7s")
    assert g.button == 1
    dealer(g)
    assert g.match_claimed_by == 3
    assert g.seats[3].stock == C("3c 7d 7s 7s")
    assert g.seats[1].stock == C("8c 7h 7c")


def test_rule_2_3_5_claim_off_match_card_always_discarded():
    g = game(3, betting="none", claim_match_card=False)
    _deal(g, ["2c", "3c", "4c"], ["7h 7c", "9d Jh", "5d 6h"], "7s")
    dealer(g)
    assert g.match_claimed_by is None
    assert g.seats[1].stock == C("2c 7h 7c")
    dealer(g)  # clean up
    assert c1("7s") in g.discards


def test_rule_2_3_every_player_matches_against_the_same_match_card():
    g = game(4, betting="none")
    _deal(g, ["2c", "3c", "4c", "5c"], ["9h 2h", "Kd Kc", "* Ah", "8c 9c"], "Kh")
    dealer(g)
    # dealt 1, 2, 3, 0
    assert g.seats[1].stock == C("2c 9h 2h")          # rule 6
    assert g.seats[2].stock == C("3c Kd Kc Kh")       # rule 5 and the claim
    assert g.seats[3].stock == C("4c * Ah")           # rule 4
    assert g.seats[0].stock == C("5c")                # rule 7, nothing
    assert g.seats[0].actives == C("8c 9c")           # the misses wait face up for clean-up
    assert all(s.actives_up for s in g.seats)
    assert g.seats[1].stock_public == [False, True, True]


def test_rule_2_3_one_card_rules_in_play():
    """A player who added nothing gets one new active, matched by the one-card rules."""
    g = game(3, betting="none")
    _deal(g, ["2c", "3c", "4c"], ["9h 2h", "5d 6d", "Jd Qd"], "Ah")
    dealer(g)  # seat 1 keeps 9h 2h; seats 2 and 0 miss
    # new actives go round once, then a second to whoever added: seat 1, 2, 0, then 1 again
    put_on_top(g, C("Tc 7s 8s Ts Kd"))
    dealer(g)
    assert [g.seats[i].actives for i in (1, 2, 0)] == [C("Tc Ts"), C("7s"), C("8s")]
    assert g.match == c1("Kd")
    dealer(g)
    assert g.seats[1].stock == C("2c 9h 2h")        # Tc Ts vs Kd: rule 7, nothing
    assert g.seats[2].stock == C("3c")              # 7s vs Kd: no match
    assert g.seats[0].stock == C("4c")
    assert [len(g.seats[i].actives) for i in (1, 2, 0)] == [2, 1, 1]  # face up, to be discarded
