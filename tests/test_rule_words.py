"""Every rule option and every option value has words a player understands (one table,
engine/words.py), and the rule checks speak those words and name the option to blame."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from pokeroulette_tui.engine.rules import OPTION_CHOICES, RuleError, RuleSet
from pokeroulette_tui.engine.words import (
    OPTION_HELP,
    OPTION_WORDS,
    VALUE_WORDS,
    YES_NO,
    changes_words,
    names_words,
    option_words,
    setting_words,
    value_words,
)

OPTIONS = [f.name for f in fields(RuleSet)]
VALUE_NAMES = sorted({c for choices in OPTION_CHOICES.values() for c in choices if "_" in c})


def test_every_option_has_words_and_help():
    """Fails when someone adds a RuleSet option without words for it."""
    assert set(OPTION_WORDS) == set(OPTIONS)
    assert set(OPTION_HELP) == set(OPTIONS)
    for name in OPTIONS:
        assert OPTION_WORDS[name].strip() and OPTION_WORDS[name] != name
        assert len(OPTION_WORDS[name]) <= 24, name  # the setup screen's label column
        assert OPTION_HELP[name].strip()
    assert len(set(OPTION_WORDS.values())) == len(OPTIONS)  # no two options read the same


def test_every_option_value_has_words():
    """Fails when someone adds a value to a choice option without words for it."""
    assert set(VALUE_WORDS) == set(OPTION_CHOICES)
    for name, choices in OPTION_CHOICES.items():
        assert set(VALUE_WORDS[name]) == set(choices), name
        words = [VALUE_WORDS[name][c] for c in choices]
        assert len(set(words)) == len(words), name  # every value reads differently
        for choice, said in zip(choices, words):
            assert said.strip() and "_" not in said and len(said) <= 28, (name, choice)
    for f in fields(RuleSet):
        if isinstance(f.default, bool):
            assert value_words(f.name, True) == YES_NO[True] == "yes"
            assert value_words(f.name, False) == "no"


@pytest.mark.parametrize("name", OPTIONS)
def test_help_lines_say_no_value_names(name):
    """A help line is read by players: no ``each_round``, ``no_limit`` …"""
    help_line = OPTION_HELP[name]
    assert not [v for v in VALUE_NAMES if v in help_line], help_line
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", help_line), help_line


def test_values_in_words():
    assert value_words("betting", "each_round") == "After every round"
    assert value_words("limit", "no_limit") == "No limit"
    assert value_words("forfeit_mode", "all_but_winner") == "Everyone but the winner pays"
    assert value_words("five_of_a_kind", "as_four") == "Same as four of a kind"
    assert value_words("suit_order", "HSDC") == "♥ > ♠ > ♦ > ♣"
    assert value_words("hand_limit", 0) == "No limit" and value_words("hand_limit", 12) == "12"
    assert setting_words("betting", "none") == "Betting: no betting"
    assert setting_words("variant", "roulette") == "Game: Poker Roulette"
    assert option_words("some_future_option") == "Some future option"  # never a crash


def test_changes_in_words():
    base = RuleSet()
    changed = RuleSet(min_players=2, suit_order="SHDC", betting="final_only")
    assert names_words(["min_players", "suit_order"]) == "minimum players, suit order"
    assert changes_words(base, changed) == (
        "minimum players: 2, suit order: ♠ > ♥ > ♦ > ♣, betting: once, before the showdown")
    assert changes_words(base, base) == ""


@pytest.mark.parametrize("kw, option, words", [
    ({"min_players": 1}, "min_players", "Minimum players must be between 2 and 10 (got 1)"),
    ({"tokens": 9}, "tokens", "Forfeit tokens must be between 5 and 7 (got 9)"),
    ({"max_draw": 6}, "max_draw", "Most cards to exchange must be between 0 and 5"),
    ({"ante": True}, "ante", "Ante must be a whole number"),
    ({"sit_out": 1}, "sit_out", "Sit out at zero must be yes or no"),
    ({"hand_limit": -1}, "hand_limit", "Hand limit must be 0 (no limit) to 1,000,000 (got -1)"),
    ({"hand_limit": 10**23}, "hand_limit", "Hand limit must be 0 (no limit) to 1,000,000"),
    ({"suit_order": "SSHD"}, "suit_order", "Suit order must be drawn, or the four suits"),
    ({"betting": "often"}, "betting", "Betting (betting) must be one of none, final_only, each_round"),
    ({"token_name": "\x1b[31mred"}, "token_name", "plain text"),
    ({"betting": "none", "ante": 0}, "ante", "Chip scoring with no betting needs an ante"),
    ({"variant": "draw", "betting": "final_only"}, "betting", "choose no betting or betting after"),
    ({"scoring": "forfeit", "forfeit_mode": "most_chips_lost", "betting": "none"}, "forfeit_mode",
     "“Who lost most chips pays” needs betting"),
])
def test_rule_checks_speak_words_and_blame_one_option(kw, option, words):
    with pytest.raises(RuleError) as caught:
        RuleSet(**kw)
    assert caught.value.option == option
    assert words in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1
