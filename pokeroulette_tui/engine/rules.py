"""The table agreement: RuleSet (frozen, keyword-only) and the named presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any

from pokeroulette_tui.engine.cards import SUIT_SYMBOLS, SUITS
from pokeroulette_tui.engine.i18n import N_, _, pgettext, number
from pokeroulette_tui.engine.words import OPTION_HELP, option_words, value_words, yes_no  # noqa: F401 - OPTION_HELP: importable from here, as it always was


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


MAX_HAND_LIMIT = 1_000_000
"""The most hands ``hand_limit`` may agree on."""


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
        if self.variant == "casino":  # RULES §6: not a variant of this table but a command
            # TRANSLATORS: "Game (variant): the casino game is its own command: pokeroulette casino"
            raise RuleError(
                _("{option} ({name}): the casino game is its own command: {command}").format(
                    option=option_words("variant"), name="variant", command="pokeroulette casino"),
                "variant")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RuleError(_("{option} ({name}) must be one of {choices} (got {value})").format(
                    option=option_words(name), name=name, choices=", ".join(choices),
                    value=repr(value)), name)
        for f in fields(self):
            value = getattr(self, f.name)
            want = type(f.default)
            what = option_words(f.name)
            if want is int and (not isinstance(value, int) or isinstance(value, bool)):
                raise RuleError(_("{option} must be a whole number (got {value})").format(
                    option=what, value=repr(value)), f.name)
            if want is bool and not isinstance(value, bool):
                raise RuleError(_("{option} must be yes or no (got {value})").format(
                    option=what, value=repr(value)), f.name)
            if want is str and not isinstance(value, str):
                raise RuleError(_("{option} must be text (got {value})").format(
                    option=what, value=repr(value)), f.name)
        if self.suit_order != "drawn":
            order = self.suit_order.upper()
            if sorted(order) != sorted(SUITS):
                raise RuleError(
                    _("{option} must be drawn, or the four suits S, H, D, C in an order "
                      "such as SHDC (got {value})").format(option=option_words("suit_order"),
                                                           value=repr(self.suit_order)),
                    "suit_order")
            object.__setattr__(self, "suit_order", order)
        for name, lo, hi in (("min_players", 2, 10), ("max_draw", 0, 5), ("tokens", 5, 7),
                             ("ante", 0, 1_000_000), ("starting_chips", 1, 1_000_000_000)):
            value = getattr(self, name)
            if not lo <= value <= hi:
                raise RuleError(_("{option} must be between {lo} and {hi} (got {value})").format(
                    option=option_words(name), lo=lo, hi=hi, value=value), name)
        # (no game lasts longer; and a number past 2**53 would not cross the network whole)
        if not 0 <= self.hand_limit <= MAX_HAND_LIMIT:
            raise RuleError(_("{option} must be 0 (no limit) to {hi} (got {value})").format(
                option=option_words("hand_limit"), hi=number(MAX_HAND_LIMIT, ","),
                value=self.hand_limit), "hand_limit")
        if not self.token_name.strip() or len(self.token_name) > 20:
            # TRANSLATORS: {option} is the option's name in words, "Tokens are called"
            raise RuleError(_("{option}: the name must be 1 to 20 characters").format(
                option=option_words("token_name")), "token_name")
        if not self.token_name.isprintable():
            raise RuleError(_("{option}: the name must be plain text (no control characters)").format(
                option=option_words("token_name")), "token_name")
        if self.scoring == "forfeit" and self.forfeit_mode == "most_chips_lost" and self.betting == "none":
            raise RuleError(_("“{choice}” needs betting: choose a betting round, or another way to "
                              "lose a token").format(choice=value_words("forfeit_mode", "most_chips_lost")),
                            "forfeit_mode")
        if self.scoring == "chips" and self.betting == "none" and self.ante == 0:
            raise RuleError(_("Chip scoring with no betting needs an ante above 0, or no chip ever "
                              "changes hands"), "ante")
        if self.variant == "draw" and self.betting == "final_only":
            raise RuleError(_("Five-card draw bets before and after the draw: choose no betting or "
                              "betting after every round"), "betting")

    @property
    def uses_chips(self) -> bool:
        """True when chips change hands (antes and bets are played)."""
        return self.scoring == "chips" or self.betting != "none"

    @property
    def fewest_players(self) -> int:
        """The fewest players these rules deal for: ``min_players`` for Poker Roulette (3 by
        the book; a table may allow 2); five-card draw deals from 2 (RULES §3: 2–7 players).

        >>> RuleSet().fewest_players, RuleSet(variant="draw").fewest_players
        (3, 2)
        """
        return 2 if self.variant == "draw" else self.min_players

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
            raise RuleError(_("rules must be a mapping of option names to values"))
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleError(_("unknown rule option(s): {names}").format(names=", ".join(unknown)))
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
    "classic": N_("the English original behind the Finnish text (default)"),
    "swedish": N_("the Swedish text: match card never claimed, stock card may become an active card"),
    "pagat": N_("pagat.com: stock card to active on a miss, discards reused once, jokers removed at the end"),
    "draw": N_("Mörkpoker: five-card draw, no betting, forfeit tokens"),
}
"""A line about each built-in preset (marked: shown through :func:`preset_note`)."""

OPTION_GROUPS: dict[str, tuple[str, ...]] = {  # the group names are marked: show them with _()
    N_("Table"): ("variant", "min_players", "suit_order"),
    N_("Matching (Poker Roulette)"): ("claim_match_card", "actives_match_each_other", "stock_to_active",
                                  "reshuffle_discards_once", "jokers_at_end", "five_of_a_kind"),
    N_("Draw (Mörkpoker)"): ("max_draw", "suit_tiebreak"),
    N_("Betting"): ("betting", "limit", "ante", "starting_chips"),
    N_("Scoring"): ("scoring", "tokens", "token_name", "forfeit_tie", "forfeit_mode", "game_end",
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
        raise RuleError(_("unknown preset {name} (choose {choices})").format(
            name=repr(name), choices=", ".join(PRESETS))) from None


def preset_note(name: str) -> str:
    """The line about a built-in preset, in the player's language ("" for another name).

    >>> preset_note("draw")
    'Mörkpoker: five-card draw, no betting, forfeit tokens'
    """
    note = PRESET_NOTES.get(name)
    return _(note) if note else ""


def token_words(r: RuleSet) -> str:
    """What the forfeit tokens are called, in the player's language when the table kept a
    built-in name (``tokens``, ``items``); a name the table chose stays as it was typed.

    >>> token_words(PRESETS["draw"]), token_words(RuleSet(token_name="beers"))
    ('items', 'beers')
    """
    name = r.token_name
    if name == "tokens":
        return pgettext("token name", "tokens")
    if name == "items":
        return pgettext("token name", "items")
    return name


def _onoff(flag: bool) -> str:
    return yes_no(flag)


def describe_rules(r: RuleSet) -> list[str]:
    """The rule set in plain words, one line each.

    >>> describe_rules(PRESETS["classic"])[0]
    'Game: Poker Roulette, 3 or more players; decks = one per 5 players, each 52 cards + 2 jokers.'
    """
    lines: list[str] = []
    if r.variant == "roulette":
        lines.append(_("Game: Poker Roulette, {n} or more players; decks = one per 5 players, "
                       "each 52 cards + 2 jokers.").format(n=r.min_players))
    else:
        lines.append(_("Game: five-card draw (Mörkpoker), {n}-7 players, one 52-card deck, "
                       "no jokers.").format(n=r.fewest_players))
    if r.variant == "draw" and not r.suit_tiebreak:
        lines.append(_("Suit ranking: none; suits do not break ties between equal hands "
                       "(they split the pot).") if r.scoring == "chips" else
                     _("Suit ranking: none; suits do not break ties between equal hands."))
    elif r.suit_order == "drawn":
        lines.append(_("Suit ranking: drawn before the first hand (first suit turned up ranks highest)."))
    else:
        lines.append(_("Suit ranking: agreed, {order}.").format(
            order=" > ".join(SUIT_SYMBOLS[s] for s in r.suit_order)))
    if r.variant == "roulette":
        lines.append(_("Both actives of the match card's rank claim the match card: {yes_no}.").format(
            yes_no=_onoff(r.claim_match_card)))
        lines.append(_("Two actives matching each other are kept whatever the match card: "
                       "{yes_no}.").format(yes_no=_onoff(r.actives_match_each_other)))
        lines.append(_("A player getting one new active may move a stock card back to active: "
                       "{yes_no}.").format(yes_no=_onoff(r.stock_to_active)))
        lines.append(_("Discards reshuffled once when the deck runs short: {yes_no}.").format(
            yes_no=_onoff(r.reshuffle_discards_once)))
        lines.append(_("Jokers in the stock at the end: wild.") if r.jokers_at_end == "wild" else
                     _("Jokers in the stock at the end: removed before hands are made."))
        lines.append(_("Five of a kind: beats a straight flush.") if r.five_of_a_kind == "high" else
                     _("Five of a kind: counts as four of a kind."))
    else:
        lines.append(_("Draw: exchange 0-{n} cards once; suits break ties: {yes_no}.").format(
            n=r.max_draw, yes_no=_onoff(r.suit_tiebreak)))
    if r.betting == "none":
        lines.append(_("Betting: no betting."))
    elif r.betting == "final_only":
        lines.append(_("Betting: one round before the showdown."))
    elif r.variant == "roulette":
        lines.append(_("Betting: after every matching round and before the showdown."))
    else:
        lines.append(_("Betting: before and after the draw."))
    if r.uses_chips:
        if r.limit == "no_limit":
            lines.append(_("Chips: {chips} each, ante {ante}, no limit (minimum raise = the last "
                           "bet or raise).").format(chips=r.starting_chips, ante=r.ante))
        else:
            lines.append(_("Chips: {chips} each, ante {ante}, fixed limit (bets of {unit}, at most "
                           "3 raises a round).").format(chips=r.starting_chips, ante=r.ante,
                                                         unit=r.bet_unit))
    if r.scoring == "chips":
        if r.hand_limit:
            lines.append(_("Scoring: chips; the game ends when one player has every chip or after "
                           "{n} hands.").format(n=r.hand_limit))
        else:
            lines.append(_("Scoring: chips; the game ends when one player has every chip."))
    else:
        mode = {"weakest": _("the weakest hand loses one"),
                "all_but_winner": _("everyone but the best hand loses one"),
                "most_chips_lost": _("whoever lost the most chips in the hand loses one")}[r.forfeit_mode]
        if r.forfeit_mode == "weakest":
            tie = (_("tied weakest hands play a deciding hand") if r.forfeit_tie == "replay"
                   else _("tied weakest hands each lose one"))
        elif r.forfeit_mode == "most_chips_lost":
            tie = (_("players tied for it play a deciding hand") if r.forfeit_tie == "replay"
                   else _("players tied for it each lose one"))
        else:  # everyone but the best hand loses one: no tie to break
            tie = ""
        if r.game_end == "first_out":
            end = _("the game ends when the first player runs out, who loses")
        elif r.sit_out:
            end = _("players at zero drop out (after sitting out one hand, on a last life) until "
                    "one player is left")
        else:
            end = _("players at zero drop out until one player is left")
        if tie:
            # TRANSLATORS: {mode}, {tie} and {end} are whole clauses of their own
            lines.append(_("Scoring: {tokens} {token_name} each; {mode}; {tie}; {end}.").format(
                tokens=r.tokens, token_name=token_words(r), mode=mode, tie=tie, end=end))
        else:
            # TRANSLATORS: {mode} and {end} are whole clauses of their own
            lines.append(_("Scoring: {tokens} {token_name} each; {mode}; {end}.").format(
                tokens=r.tokens, token_name=token_words(r), mode=mode, end=end))
        if r.hand_limit:
            lines.append(_("The game also ends after {n} hands.").format(n=r.hand_limit))
    if r.min_players < 3 and r.variant == "roulette":
        lines.append(_("Warning: Poker Roulette is meant for 3 or more players."))
    return lines
