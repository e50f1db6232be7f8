"""The table agreement: every option of RULES.md 1-5 exists, has its default, is validated,
is shown on the setup screen, and the presets are the ones the rules name."""

from __future__ import annotations

import dataclasses

import pytest

from pokeroulette_tui.engine.rules import (OPTION_CHOICES, OPTION_GROUPS, OPTION_HELP, PRESETS,
                                           RuleError, RuleSet, describe_rules, preset)

# Every option RULES.md names, with its documented default.
DEFAULTS = {
    "variant": "roulette",
    "min_players": 3,
    "suit_order": "drawn",
    "claim_match_card": True,
    "actives_match_each_other": False,
    "stock_to_active": False,
    "reshuffle_discards_once": False,
    "jokers_at_end": "wild",
    "five_of_a_kind": "high",
    "max_draw": 3,
    "suit_tiebreak": False,
    "betting": "each_round",
    "limit": "no_limit",
    "ante": 1,
    "starting_chips": 100,
    "scoring": "chips",
    "tokens": 6,
    "forfeit_tie": "replay",
    "forfeit_mode": "weakest",
    "game_end": "first_out",
    "sit_out": False,
}


@pytest.mark.parametrize("name,default", DEFAULTS.items())
def test_rules_every_option_exists_with_its_default(name, default):
    assert getattr(RuleSet(), name) == default


def test_rules_every_option_is_shown_on_the_setup_screen():
    names = {f.name for f in dataclasses.fields(RuleSet)}
    grouped = [n for group in OPTION_GROUPS.values() for n in group]
    assert sorted(grouped) == sorted(names)
    assert set(OPTION_HELP) == names
    assert all(OPTION_HELP[n].strip() for n in names)


@pytest.mark.parametrize("name,choices", OPTION_CHOICES.items())
def test_rules_choice_options_refuse_other_values(name, choices):
    for choice in choices:
        kw = {name: choice}
        if name == "forfeit_mode" and choice == "most_chips_lost":
            kw["scoring"] = "forfeit"
        RuleSet(**kw)
    with pytest.raises(RuleError, match=name):
        RuleSet(**{name: "nonsense"})


def test_rules_option_choices_match_rules_md():
    assert OPTION_CHOICES["betting"] == ("none", "final_only", "each_round")
    assert OPTION_CHOICES["limit"] == ("no_limit", "fixed")
    assert OPTION_CHOICES["scoring"] == ("chips", "forfeit")
    assert OPTION_CHOICES["forfeit_tie"] == ("replay", "all_lose")
    assert OPTION_CHOICES["forfeit_mode"] == ("weakest", "all_but_winner", "most_chips_lost")
    assert OPTION_CHOICES["game_end"] == ("first_out", "last_standing")
    assert OPTION_CHOICES["jokers_at_end"] == ("wild", "removed")
    assert OPTION_CHOICES["five_of_a_kind"] == ("high", "as_four")


@pytest.mark.parametrize("tokens", [5, 6, 7])
def test_rule_5_tokens_five_to_seven(tokens):
    assert RuleSet(tokens=tokens).tokens == tokens


@pytest.mark.parametrize("tokens", [0, 4, 8])
def test_rule_5_tokens_outside_five_to_seven_refused(tokens):
    with pytest.raises(RuleError, match="tokens"):
        RuleSet(tokens=tokens)


def test_rule_5_the_table_may_name_its_tokens():
    assert RuleSet(token_name="items").token_name == "items"
    with pytest.raises(RuleError):
        RuleSet(token_name="  ")


@pytest.mark.parametrize("kw", [
    {"min_players": 1}, {"min_players": 11}, {"max_draw": 6}, {"max_draw": -1}, {"ante": -1},
    {"starting_chips": 0}, {"hand_limit": -1}, {"tokens": True}, {"claim_match_card": 1},
    {"ante": 1.5}, {"token_name": 5}, {"token_name": "x" * 21},
])
def test_rules_bad_values_refused_with_a_readable_error(kw):
    with pytest.raises(RuleError):
        RuleSet(**kw)


def test_rule_5_most_chips_lost_needs_betting():
    with pytest.raises(RuleError, match="betting"):
        RuleSet(scoring="forfeit", forfeit_mode="most_chips_lost", betting="none")
    RuleSet(scoring="forfeit", forfeit_mode="most_chips_lost", betting="final_only")


def test_rule_5_chip_scoring_without_betting_needs_an_ante():
    """Decision: otherwise no chip ever changes hands and the game cannot end."""
    with pytest.raises(RuleError, match="ante"):
        RuleSet(betting="none", ante=0)
    RuleSet(betting="none", ante=1)
    RuleSet(betting="each_round", ante=0)
    RuleSet(betting="none", ante=0, scoring="forfeit")


def test_rule_4_draw_bets_before_and_after_the_draw_or_not_at_all():
    with pytest.raises(RuleError, match="draw"):
        RuleSet(variant="draw", betting="final_only")
    RuleSet(variant="draw", betting="each_round")


def test_rule_1_presets_named_in_the_rules():
    assert set(PRESETS) >= {"classic", "swedish", "pagat", "draw"}
    assert PRESETS["classic"] == RuleSet()


def test_rule_1_swedish_preset_never_claims_and_allows_stock_to_active():
    p = PRESETS["swedish"]
    assert p.claim_match_card is False and p.stock_to_active is True
    assert p.variant == "roulette"


def test_rule_1_pagat_preset():
    """Stock card to active on a miss, discards reused once, jokers removed at the end."""
    p = PRESETS["pagat"]
    assert p.stock_to_active and p.reshuffle_discards_once and p.jokers_at_end == "removed"
    assert p.claim_match_card


def test_rule_4_draw_preset_follows_its_source():
    """The main variant: no betting and forfeit scoring; two players allowed."""
    p = PRESETS["draw"]
    assert (p.variant, p.betting, p.scoring) == ("draw", "none", "forfeit")
    assert p.min_players == 2
    assert p.replace(betting="each_round").betting == "each_round"


def test_rules_presets_are_editable_copies():
    p = preset("classic").replace(ante=5)
    assert p.ante == 5 and PRESETS["classic"].ante == 1
    with pytest.raises(RuleError, match="unknown preset"):
        preset("texas")


def test_rules_are_frozen_and_keyword_only():
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet().ante = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        RuleSet("draw")  # type: ignore[misc]


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_round_trip_through_a_mapping(name):
    rules = PRESETS[name]
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_rules_from_a_mapping_refuse_unknown_options():
    with pytest.raises(RuleError, match="unknown rule option"):
        RuleSet.from_dict({"wild_deuces": True})
    with pytest.raises(RuleError):
        RuleSet.from_dict(["not", "a", "mapping"])  # type: ignore[arg-type]


def test_rule_4_bet_unit_is_twice_the_ante():
    assert RuleSet(ante=1).bet_unit == 2
    assert RuleSet(ante=5).bet_unit == 10
    assert RuleSet(ante=0).bet_unit == 1  # no ante: one chip


def test_rules_uses_chips_when_scoring_chips_or_betting():
    assert RuleSet().uses_chips
    assert RuleSet(scoring="forfeit", betting="each_round").uses_chips
    assert not RuleSet(scoring="forfeit", betting="none").uses_chips


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_describe_in_plain_words(name):
    lines = describe_rules(PRESETS[name])
    assert lines and all(isinstance(line, str) and line for line in lines)
    text = " ".join(lines)
    assert "Suit ranking" in text and "Betting" in text and "Scoring" in text


def test_rules_describe_shows_the_chosen_options():
    text = " ".join(RuleSet(scoring="forfeit", token_name="items", tokens=5, game_end="last_standing",
                            sit_out=True, hand_limit=9, suit_order="HSDC").describe())
    assert "5 items" in text and "9 hands" in text and "♥ > ♠ > ♦ > ♣" in text
    assert "last life" in text


def test_rule_words_show_suit_symbols_and_no_pot_without_chips():
    from pokeroulette_tui.engine.rules import PRESETS, describe_rules
    text = "\n".join(describe_rules(PRESETS["classic"].replace(suit_order="SHDC")))
    assert "Suit ranking: agreed, ♠ > ♥ > ♦ > ♣." in text and "S > H" not in text
    forfeit = "\n".join(describe_rules(PRESETS["draw"]))
    assert PRESETS["draw"].scoring == "forfeit" and "pot" not in forfeit.split("Suit ranking")[1].split("\n")[0]
