"""The table agreement: RuleSet (frozen, keyword-only) and the named presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any

from pokeroulette_tui.engine.cards import SUIT_SYMBOLS, SUITS
from pokeroulette_tui.engine.words import OPTION_HELP, option_words, value_words  # noqa: F401 - OPTION_HELP: importable from here, as it always was


class RuleError(ValueError):
    """A rule option with a value the engine cannot play; ``option`` names the option to
    blame (None when no single one is), the message says it in words."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("roulette", "draw"),
    "jokers_at_end": ("wild", "removed"),
    "five_of_a_kind": ("high", "as_four"),
    "betting": ("none", "final_only", "each_round"),
    "limit": ("no_limit", "fixed"),
    "scoring": ("chips", "forfeit"),
    "forfeit_tie": ("replay", "all_lose"),
    "forfeit_mode": ("weakest", "all_but_winner", "most_chips_lost"),
    "game_end": ("first_out", "last_standing"),
}


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Every house-rule option of RULES.md, with its default.

    >>> RuleSet().variant, RuleSet().betting
    ('roulette', 'each_round')
    >>> RuleSet(tokens=9)
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.rules.RuleError: Forfeit tokens must be between 5 and 7 (got 9)
    """

    variant: str = "roulette"
    min_players: int = 3
    suit_order: str = "drawn"
    # Poker Roulette
    claim_match_card: bool = True
    actives_match_each_other: bool = False
    stock_to_active: bool = False
    reshuffle_discards_once: bool = False
    jokers_at_end: str = "wild"
    five_of_a_kind: str = "high"
    # five-card draw
    max_draw: int = 3
    suit_tiebreak: bool = False
    # betting
    betting: str = "each_round"
    limit: str = "no_limit"
    ante: int = 1
    starting_chips: int = 100
    # scoring and end of game
    scoring: str = "chips"
    tokens: int = 6
    token_name: str = "tokens"
    forfeit_tie: str = "replay"
    forfeit_mode: str = "weakest"
    game_end: str = "first_out"
    sit_out: bool = False
    hand_limit: int = 0

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RuleError(f"{option_words(name)} ({name}) must be one of {', '.join(choices)} "
                                f"(got {value!r})", name)
        for f in fields(self):
            value = getattr(self, f.name)
            want = type(f.default)
            what = option_words(f.name)
            if want is int and (not isinstance(value, int) or isinstance(value, bool)):
                raise RuleError(f"{what} must be a whole number (got {value!r})", f.name)
            if want is bool and not isinstance(value, bool):
                raise RuleError(f"{what} must be yes or no (got {value!r})", f.name)
            if want is str and not isinstance(value, str):
                raise RuleError(f"{what} must be text (got {value!r})", f.name)
        if self.suit_order != "drawn":
            order = self.suit_order.upper()
            if sorted(order) != sorted(SUITS):
                raise RuleError(
                    f"Suit order must be drawn, or the four suits S, H, D, C in an order "
                    f"such as SHDC (got {self.suit_order!r})", "suit_order")
            object.__setattr__(self, "suit_order", order)
        for name, lo, hi in (("min_players", 2, 10), ("max_draw", 0, 5), ("tokens", 5, 7),
                             ("ante", 0, 1_000_000), ("starting_chips", 1, 1_000_000_000)):
            value = getattr(self, name)
            if not lo <= value <= hi:
                raise RuleError(f"{option_words(name)} must be between {lo} and {hi} (got {value})", name)
        if self.hand_limit < 0:
            raise RuleError(f"Hand limit must be 0 (no limit) or more (got {self.hand_limit})",
                            "hand_limit")
        if not self.token_name.strip() or len(self.token_name) > 20:
            raise RuleError("What the tokens are called must be 1 to 20 characters", "token_name")
        if not self.token_name.isprintable():
            raise RuleError("What the tokens are called must be plain text (no control characters)",
                            "token_name")
        if self.scoring == "forfeit" and self.forfeit_mode == "most_chips_lost" and self.betting == "none":
            raise RuleError(f"“{value_words('forfeit_mode', 'most_chips_lost')}” needs betting: "
                            "choose a betting round, or another way to lose a token", "forfeit_mode")
        if self.scoring == "chips" and self.betting == "none" and self.ante == 0:
            raise RuleError("Chip scoring with no betting needs an ante above 0, or no chip ever "
                            "changes hands", "ante")
        if self.variant == "draw" and self.betting == "final_only":
            raise RuleError("Five-card draw bets before and after the draw: choose no betting or "
                            "betting after every round", "betting")

    @property
    def uses_chips(self) -> bool:
        """True when chips change hands (antes and bets are played)."""
        return self.scoring == "chips" or self.betting != "none"

    @property
    def max_players(self) -> int:
        """Seats the variant allows: draw 2–7; roulette has no upper limit (the UI offers 10)."""
        return 7 if self.variant == "draw" else 10

    @property
    def bet_unit(self) -> int:
        """The fixed-limit bet size and the no-limit minimum bet: twice the ante, at least 1."""
        return max(1, 2 * self.ante)

    def replace(self, **changes: Any) -> "RuleSet":
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RuleSet":
        """Build from a mapping; unknown keys are an error, not silently dropped."""
        if not isinstance(data, dict):
            raise RuleError("rules must be a mapping of option names to values")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(f"unknown rule option(s): {', '.join(unknown)}")
        try:
            return cls(**data)
        except TypeError as exc:  # pragma: no cover - kw_only with known keys
            raise RuleError(str(exc)) from None

    def describe(self) -> list[str]:
        """The agreed rules in plain words, a line each."""
        return describe_rules(self)


PRESETS: dict[str, RuleSet] = {
    "classic": RuleSet(),
    "swedish": RuleSet(claim_match_card=False, stock_to_active=True),
    "pagat": RuleSet(reshuffle_discards_once=True, stock_to_active=True, jokers_at_end="removed"),
    "draw": RuleSet(variant="draw", min_players=2, betting="none", scoring="forfeit",
                    token_name="items"),
}
"""Named rule sets: the table may start from one and change any option."""

PRESET_NOTES = {
    "classic": "the English original behind the Finnish text (default)",
    "swedish": "the Swedish text: match card never claimed, stock card may become an active card",
    "pagat": "pagat.com: stock card to active on a miss, discards reused once, jokers removed at the end",
    "draw": "Mörkpoker: five-card draw, no betting, forfeit tokens",
}

OPTION_GROUPS: dict[str, tuple[str, ...]] = {
    "Table": ("variant", "min_players", "suit_order"),
    "Matching (Poker Roulette)": ("claim_match_card", "actives_match_each_other", "stock_to_active",
                                  "reshuffle_discards_once", "jokers_at_end", "five_of_a_kind"),
    "Draw (Mörkpoker)": ("max_draw", "suit_tiebreak"),
    "Betting": ("betting", "limit", "ante", "starting_chips"),
    "Scoring": ("scoring", "tokens", "token_name", "forfeit_tie", "forfeit_mode", "game_end",
                "sit_out", "hand_limit"),
}

OPTION_CHOICES = _CHOICES


def preset(name: str) -> RuleSet:
    """Look up a preset by name with a clear error.

    >>> preset("swedish").claim_match_card
    False
    >>> preset("texas")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.rules.RuleError: unknown preset 'texas' (choose classic, swedish, pagat, draw)
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleError(f"unknown preset {name!r} (choose {', '.join(PRESETS)})") from None


def _onoff(flag: bool) -> str:
    return "yes" if flag else "no"


def describe_rules(r: RuleSet) -> list[str]:
    """The rule set in plain words, one line each.

    >>> describe_rules(PRESETS["classic"])[0]
    'Game: Poker Roulette, 3 or more players; decks = one per 5 players, each 52 cards + 2 jokers.'
    """
    lines: list[str] = []
    if r.variant == "roulette":
        lines.append(f"Game: Poker Roulette, {r.min_players} or more players; decks = one per 5 players, "
                     "each 52 cards + 2 jokers.")
    else:
        lines.append(f"Game: five-card draw (Mörkpoker), {r.min_players}-7 players, one 52-card deck, "
                     "no jokers.")
    if r.variant == "draw" and not r.suit_tiebreak:
        lines.append("Suit ranking: none; suits do not break ties between equal hands"
                     + (" (they split the pot)." if r.scoring == "chips" else "."))
    elif r.suit_order == "drawn":
        lines.append("Suit ranking: drawn before the first hand (first suit turned up ranks highest).")
    else:
        lines.append("Suit ranking: agreed, " + " > ".join(SUIT_SYMBOLS[s] for s in r.suit_order)
                     + ".")
    if r.variant == "roulette":
        lines.append(f"Both actives of the match card's rank claim the match card: {_onoff(r.claim_match_card)}.")
        lines.append(f"Two actives matching each other are kept whatever the match card: "
                     f"{_onoff(r.actives_match_each_other)}.")
        lines.append(f"A player getting one new active may move a stock card back to active: "
                     f"{_onoff(r.stock_to_active)}.")
        lines.append(f"Discards reshuffled once when the deck runs short: {_onoff(r.reshuffle_discards_once)}.")
        lines.append("Jokers in the stock at the end: "
                     + ("wild." if r.jokers_at_end == "wild" else "removed before hands are made."))
        lines.append("Five of a kind: " + ("beats a straight flush." if r.five_of_a_kind == "high"
                                          else "counts as four of a kind."))
    else:
        lines.append(f"Draw: exchange 0-{r.max_draw} cards once; suits break ties: {_onoff(r.suit_tiebreak)}.")
    betting = {"none": "no betting", "final_only": "one round before the showdown",
               "each_round": "after every matching round and before the showdown"
               if r.variant == "roulette" else "before and after the draw"}[r.betting]
    lines.append(f"Betting: {betting}.")
    if r.uses_chips:
        structure = ("no limit (minimum raise = the last bet or raise)" if r.limit == "no_limit"
                     else f"fixed limit (bets of {r.bet_unit}, at most 3 raises a round)")
        lines.append(f"Chips: {r.starting_chips} each, ante {r.ante}, {structure}.")
    if r.scoring == "chips":
        end = f" or after {r.hand_limit} hands" if r.hand_limit else ""
        lines.append(f"Scoring: chips; the game ends when one player has every chip{end}.")
    else:
        mode = {"weakest": "the weakest hand loses one",
                "all_but_winner": "everyone but the best hand loses one",
                "most_chips_lost": "whoever lost the most chips in the hand loses one"}[r.forfeit_mode]
        tie = ("tied weakest hands play a deciding hand" if r.forfeit_tie == "replay"
               else "tied weakest hands each lose one")
        end = ("the game ends when the first player runs out, who loses" if r.game_end == "first_out"
               else "players at zero drop out"
               + (" (after sitting out one hand, on a last life)" if r.sit_out else "")
               + " until one player is left")
        lines.append(f"Scoring: {r.tokens} {r.token_name} each; {mode}; {tie}; {end}.")
        if r.hand_limit:
            lines.append(f"The game also ends after {r.hand_limit} hands.")
    if r.min_players < 3 and r.variant == "roulette":
        lines.append("Warning: Poker Roulette is meant for 3 or more players.")
    return lines
