"""Every rule option and every option value in words a player understands: one table.

The option names (``min_players``) and values (``each_round``) are what a user types on the
command line (``--rule betting=each_round``) and what files store; everything a player reads
(the setup and start screens, messages) says them in these words instead.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Iterable

from pokeroulette_tui.engine.cards import SUIT_SYMBOLS

OPTION_WORDS: dict[str, str] = {
    "variant": "Game",
    "min_players": "Minimum players",
    "suit_order": "Suit order",
    "claim_match_card": "Pair claims match card",
    "actives_match_each_other": "Actives match each other",
    "stock_to_active": "Stock card to active",
    "reshuffle_discards_once": "Reuse discards once",
    "jokers_at_end": "Jokers at the end",
    "five_of_a_kind": "Five of a kind",
    "max_draw": "Most cards to exchange",
    "suit_tiebreak": "Suits break ties",
    "betting": "Betting",
    "limit": "Bet limit",
    "ante": "Ante",
    "starting_chips": "Starting chips",
    "scoring": "Scoring",
    "tokens": "Forfeit tokens",
    "token_name": "Tokens are called",
    "forfeit_tie": "Tied weakest hands",
    "forfeit_mode": "Who loses a token",
    "game_end": "Game ends",
    "sit_out": "Sit out at zero",
    "hand_limit": "Hand limit",
}
"""Each option's name in words (at most 24 characters: the setup screen's label column)."""

VALUE_WORDS: dict[str, dict[str, str]] = {
    "variant": {"roulette": "Poker Roulette", "draw": "Five-card draw"},
    "jokers_at_end": {"wild": "Wild", "removed": "Removed before hands"},
    "five_of_a_kind": {"high": "Beats a straight flush", "as_four": "Same as four of a kind"},
    "betting": {"none": "No betting", "final_only": "Once, before the showdown",
                "each_round": "After every round"},
    "limit": {"no_limit": "No limit", "fixed": "Fixed limit"},
    "scoring": {"chips": "Chips", "forfeit": "Forfeit tokens"},
    "forfeit_tie": {"replay": "Play a deciding hand", "all_lose": "Each loses one"},
    "forfeit_mode": {"weakest": "The weakest hand pays", "all_but_winner": "Everyone but the winner pays",
                     "most_chips_lost": "Who lost most chips pays"},
    "game_end": {"first_out": "When the first is out", "last_standing": "When one is left"},
}
"""Each value of each choice option in words (at most 28 characters: the setup's lists)."""

YES_NO = {True: "yes", False: "no"}
"""The words of an on/off option's two values."""

OPTION_HELP: dict[str, str] = {
    "variant": "Poker Roulette, or five-card draw (Mörkpoker)",
    "min_players": "fewest players needed to deal (3 by the book; 2 allowed with a warning)",
    "suit_order": "suit ranking for ties: drawn before the first hand (turn cards until every "
                  "suit shows), or agreed, written like SHDC (spades highest, clubs lowest)",
    "claim_match_card": "both actives share the match card's rank: the match card goes to the stock too",
    "actives_match_each_other": "another reading: two actives sharing a suit or rank are both kept",
    "stock_to_active": "a player getting one new active may first move a stock card back to active",
    "reshuffle_discards_once": "the first time the deck runs short, shuffle the discards under it once",
    "jokers_at_end": "jokers in a stock at the end stand for any card (wild), or are taken out "
                     "before the showdown",
    "five_of_a_kind": "five of a kind beats a straight flush, or counts as four of a kind",
    "max_draw": "five-card draw: the most cards a player may exchange (0-5)",
    "suit_tiebreak": "five-card draw: break otherwise equal hands by the suit ranking",
    "betting": "no betting, one round just before the showdown, or after every round "
               "(five-card draw: before and after the draw)",
    "limit": "no limit (the smallest raise is the last bet or raise), or fixed "
             "(bets of twice the ante, 3 raises a round)",
    "ante": "chips each player pays into the pot before the deal",
    "starting_chips": "each player's stack at the start",
    "scoring": "chips (win the pot), or forfeit tokens (the weakest hand loses one)",
    "tokens": "forfeit tokens each player starts with (5-7)",
    "token_name": "what the tokens are called at this table",
    "forfeit_tie": "when weakest hands tie: they play a deciding hand, or each loses one",
    "forfeit_mode": "the weakest hand pays; everyone but the winner pays (a quick game); or "
                    "whoever lost the most chips in the hand pays (needs betting)",
    "game_end": "the game ends when the first player runs out of tokens, or players at zero "
                "drop out until one is left",
    "sit_out": "when players drop out: a player at zero sits out one hand, then plays on a last life",
    "hand_limit": "end the game after this many hands (0 = no limit)",
}
"""A line of help for each option, in words (no option value names)."""


def option_words(option: str) -> str:
    """An option's name in words (a name with no words yet: the name, spaced).

    >>> option_words("min_players"), option_words("some_new_option")
    ('Minimum players', 'Some new option')
    """
    words = OPTION_WORDS.get(option)
    if words is None:
        words = option.replace("_", " ").capitalize()
    return words


def value_words(option: str, value: Any) -> str:
    """One value of an option in words.

    >>> value_words("betting", "each_round"), value_words("limit", "no_limit")
    ('After every round', 'No limit')
    >>> value_words("suit_order", "SHDC"), value_words("suit_order", "drawn")
    ('♠ > ♥ > ♦ > ♣', 'Drawn before the first hand')
    >>> value_words("sit_out", True), value_words("hand_limit", 0), value_words("ante", 2)
    ('yes', 'No limit', '2')
    """
    if isinstance(value, bool):
        return YES_NO[value]
    choices = VALUE_WORDS.get(option)
    if choices is not None:
        return choices.get(str(value), str(value))
    if option == "suit_order":
        if value == "drawn":
            return "Drawn before the first hand"
        return " > ".join(SUIT_SYMBOLS.get(s, s) for s in str(value).upper())
    if option == "hand_limit" and value == 0:
        return "No limit"
    return str(value)


def _lower_first(words: str) -> str:
    """Words that can follow a colon: the first letter small, except in a game's name."""
    if words.startswith("Poker Roulette") or not words[1:2].islower():
        return words
    return words[:1].lower() + words[1:]


def setting_words(option: str, value: Any) -> str:
    """``Option: value``, both in words.

    >>> setting_words("forfeit_mode", "all_but_winner")
    'Who loses a token: everyone but the winner pays'
    >>> setting_words("variant", "roulette")
    'Game: Poker Roulette'
    """
    return f"{option_words(option)}: {_lower_first(value_words(option, value))}"


def changed_options(base: Any, rules: Any) -> list[str]:
    """The options (names, in the rule set's order) whose value differs between two rule sets.

    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> changed_options(RuleSet(), RuleSet(min_players=2, suit_order="SHDC"))
    ['min_players', 'suit_order']
    """
    return [f.name for f in fields(rules) if getattr(base, f.name, None) != getattr(rules, f.name)]


def changes_words(base: Any, rules: Any) -> str:
    """What changed from ``base`` to ``rules``, each option with its new value, in words.

    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> changes_words(RuleSet(), RuleSet(min_players=2, betting="none", ante=2))
    'minimum players: 2, betting: no betting, ante: 2'
    >>> changes_words(RuleSet(), RuleSet())
    ''
    """
    return ", ".join(_lower_first(setting_words(o, getattr(rules, o)))
                     for o in changed_options(base, rules))


def names_words(options: Iterable[str]) -> str:
    """Option names as a list in words.

    >>> names_words(["min_players", "suit_order"])
    'minimum players, suit order'
    """
    return ", ".join(option_words(o).lower() for o in options)
