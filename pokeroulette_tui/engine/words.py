"""Every rule option and every option value in words a player understands: one table.

The option names (``min_players``) and values (``each_round``) are what a user types on the
command line (``--rule betting=each_round``) and what files store; everything a player reads
(the setup and start screens, messages) says them in these words instead.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Iterable

from pokeroulette_tui.engine.cards import SUIT_SYMBOLS
from pokeroulette_tui.engine.i18n import N_, _

OPTION_WORDS: dict[str, str] = {
    "variant": N_("Game"),
    "min_players": N_("Minimum players"),
    "suit_order": N_("Suit order"),
    "claim_match_card": N_("Pair claims match card"),
    "actives_match_each_other": N_("Actives match each other"),
    "stock_to_active": N_("Stock card to active"),
    "reshuffle_discards_once": N_("Reuse discards once"),
    "jokers_at_end": N_("Jokers at the end"),
    "five_of_a_kind": N_("Five of a kind"),
    "max_draw": N_("Most cards to exchange"),
    "suit_tiebreak": N_("Suits break ties"),
    "betting": N_("Betting"),
    "limit": N_("Bet limit"),
    "ante": N_("Ante"),
    "starting_chips": N_("Starting chips"),
    "scoring": N_("Scoring"),
    "tokens": N_("Forfeit tokens"),
    "token_name": N_("Tokens are called"),
    "forfeit_tie": N_("Tied weakest hands"),
    "forfeit_mode": N_("Who loses a token"),
    "game_end": N_("Game ends"),
    "sit_out": N_("Sit out at zero"),
    "hand_limit": N_("Hand limit"),
}
"""Each option's name in words (at most 24 characters: the setup screen's label column)."""

VALUE_WORDS: dict[str, dict[str, str]] = {
    "variant": {"roulette": N_("Poker Roulette"), "draw": N_("Five-card draw")},
    "jokers_at_end": {"wild": N_("Wild"), "removed": N_("Removed before hands")},
    "five_of_a_kind": {"high": N_("Beats a straight flush"), "as_four": N_("Same as four of a kind")},
    "betting": {"none": N_("No betting"), "final_only": N_("Once, before the showdown"),
                "each_round": N_("After every round")},
    "limit": {"no_limit": N_("No limit"), "fixed": N_("Fixed limit")},
    "scoring": {"chips": N_("Chips"), "forfeit": N_("Forfeit tokens")},
    "forfeit_tie": {"replay": N_("Play a deciding hand"), "all_lose": N_("Each loses one")},
    "forfeit_mode": {"weakest": N_("The weakest hand pays"), "all_but_winner": N_("Everyone but the winner pays"),
                     "most_chips_lost": N_("Who lost most chips pays")},
    "game_end": {"first_out": N_("When the first is out"), "last_standing": N_("When one is left")},
}
"""Each value of each choice option in words (at most 28 characters: the setup's lists)."""

YES_NO = {True: N_("yes"), False: N_("no")}
"""The words of an on/off option's two values."""

OPTION_HELP: dict[str, str] = {
    "variant": N_("Poker Roulette, or five-card draw (Mörkpoker)"),
    "min_players": N_("fewest players needed to deal Poker Roulette (3 by the book; 2 allowed "
                         "with a warning); five-card draw deals from 2"),
    "suit_order": N_("suit ranking for ties: drawn before the first hand (turn cards until every "
                     "suit shows), or agreed, written like SHDC (spades highest, clubs lowest)"),
    "claim_match_card": N_("both actives share the match card's rank: the match card goes to the stock too"),
    "actives_match_each_other": N_("another reading: two actives sharing a suit or rank are both kept"),
    "stock_to_active": N_("a player getting one new active may first move a stock card back to active"),
    "reshuffle_discards_once": N_("the first time the deck runs short, shuffle the discards under it once"),
    "jokers_at_end": N_("jokers in a stock at the end stand for any card (wild), or are taken out "
                        "before the showdown"),
    "five_of_a_kind": N_("five of a kind beats a straight flush, or counts as four of a kind"),
    "max_draw": N_("five-card draw: the most cards a player may exchange (0-5)"),
    "suit_tiebreak": N_("five-card draw: break otherwise equal hands by the suit ranking"),
    "betting": N_("no betting, one round just before the showdown, or after every round "
                  "(five-card draw: before and after the draw)"),
    "limit": N_("no limit (the smallest raise is the last bet or raise), or fixed "
                "(bets of twice the ante, 3 raises a round)"),
    "ante": N_("chips each player pays into the pot before the deal"),
    "starting_chips": N_("each player's stack at the start"),
    "scoring": N_("chips (win the pot), or forfeit tokens (the weakest hand loses one)"),
    "tokens": N_("forfeit tokens each player starts with (5-7)"),
    "token_name": N_("what the tokens are called at this table"),
    "forfeit_tie": N_("when weakest hands tie: they play a deciding hand, or each loses one"),
    "forfeit_mode": N_("the weakest hand pays; everyone but the winner pays (a quick game); or "
                       "whoever lost the most chips in the hand pays (needs betting)"),
    "game_end": N_("the game ends when the first player runs out of tokens, or players at zero "
                   "drop out until one is left"),
    "sit_out": N_("when players drop out: a player at zero sits out one hand, then plays on a last life"),
    "hand_limit": N_("end the game after this many hands (0 = no limit)"),
}
"""A line of help for each option, in words (no option value names)."""


def option_words(option: str) -> str:
    """An option's name in words (a name with no words yet: the name, spaced).

    >>> option_words("min_players"), option_words("some_new_option")
    ('Minimum players', 'Some new option')
    """
    words = OPTION_WORDS.get(option)
    if words is None:
        return option.replace("_", " ").capitalize()
    return _(words)


def option_help(option: str) -> str:
    """An option's line of help, in the player's language ("" for an option with none).

    >>> option_help("ante")
    'chips each player pays into the pot before the deal'
    """
    words = OPTION_HELP.get(option)
    return _(words) if words else ""


def yes_no(flag: bool) -> str:
    """An on/off option's value in words, in the player's language.

    >>> yes_no(True), yes_no(False)
    ('yes', 'no')
    """
    return _(YES_NO[bool(flag)])


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
        return yes_no(value)
    choices = VALUE_WORDS.get(option)
    if choices is not None:
        words = choices.get(str(value))
        return str(value) if words is None else _(words)
    if option == "suit_order":
        if value == "drawn":
            return _("Drawn before the first hand")
        return " > ".join(SUIT_SYMBOLS.get(s, s) for s in str(value).upper())
    if option == "hand_limit" and value == 0:
        return _("No limit")
    return str(value)


def _lower_first(words: str) -> str:
    """Words that can follow a colon: the first letter small, except in a game's name."""
    if words.startswith((_("Poker Roulette"), "Poker Roulette")) or not words[1:2].islower():
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


def and_words(names: list[str]) -> str:
    """Names joined as in "Ana and Bo and Cy", in the player's language.

    >>> and_words(["Ana"]), and_words(["Ana", "Bo", "Cy"])
    ('Ana', 'Ana and Bo and Cy')
    """
    out = names[0] if names else ""
    for name in names[1:]:
        out = _("{a} and {b}").format(a=out, b=name)
    return out


def names_words(options: Iterable[str]) -> str:
    """Option names as a list in words.

    >>> names_words(["min_players", "suit_order"])
    'minimum players, suit order'
    """
    return ", ".join(option_words(o).lower() for o in options)
