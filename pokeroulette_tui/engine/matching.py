"""The matching rules of Poker Roulette: active cards against the match card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.rules import RuleSet


@dataclass(frozen=True)
class MatchOutcome:
    """What one player's actives do against the match card.

    ``added`` go to the stock, ``discarded`` to the discard pile; ``claims_match``
    means the player qualifies to claim the match card (rule 5); ``rule`` is the
    number of the rule in RULES.md 2.3 that decided (0 for the one-card rules) and
    ``reason`` says it in words.
    """

    added: tuple[Card, ...]
    discarded: tuple[Card, ...]
    claims_match: bool
    rule: int
    reason: str


def matches(card: Card, match: Card) -> bool:
    """Same suit or same rank; jokers never match this way.

    >>> from pokeroulette_tui.engine.cards import parse_card as c
    >>> matches(c("7h"), c("7s")), matches(c("2h"), c("Kh")), matches(c("*"), c("*"))
    (True, True, False)
    """
    if card.is_joker or match.is_joker:
        return False
    return card.rank == match.rank or card.suit == match.suit


def _how(card: Card, match: Card) -> str:
    return "rank" if card.rank == match.rank else "suit"


def resolve(actives: Sequence[Card], match: Card, rules: RuleSet) -> MatchOutcome:
    """Apply RULES.md 2.3 to one player's actives; the first rule that applies decides.

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> a, b, m = parse_cards("7h 7c 7s")
    >>> o = resolve([a, b], m, RuleSet())
    >>> o.added, o.claims_match, o.rule
    ((Card('7h'), Card('7c')), True, 5)
    >>> resolve([a, b], m, RuleSet(claim_match_card=False)).claims_match
    False
    """
    if len(actives) == 1:
        (c,) = actives
        if c.is_joker:
            return MatchOutcome((), (c,), False, 0, "a lone joker active is discarded")
        if match.is_joker:
            return MatchOutcome((c,), (), False, 0, "the match card is a joker: the active is kept")
        if matches(c, match):
            return MatchOutcome((c,), (), False, 0, f"matched by {_how(c, match)}")
        return MatchOutcome((), (c,), False, 0, "no match")
    if len(actives) != 2:
        raise ValueError(f"a player has one or two active cards, not {len(actives)}")
    a, b = actives
    both = (a, b)
    if a.is_joker and b.is_joker:
        return MatchOutcome((), both, False, 1, "two jokers: both discarded")
    if match.is_joker and (a.is_joker or b.is_joker):
        return MatchOutcome((), both, False, 2, "joker against a joker match card: both discarded")
    if match.is_joker:
        return MatchOutcome(both, (), False, 3, "the match card is a joker: both kept")
    if a.is_joker or b.is_joker:
        other = b if a.is_joker else a
        if matches(other, match):
            return MatchOutcome(both, (), False, 4,
                                f"a joker and a card matching by {_how(other, match)}: both kept")
        return MatchOutcome((), both, False, 4, "a joker with a card that does not match: both discarded")
    if a.rank == match.rank and b.rank == match.rank:
        if rules.claim_match_card:
            return MatchOutcome(both, (), True, 5, "both actives match by rank: claims the match card")
        return MatchOutcome(both, (), False, 5, "both actives match by rank: both kept")
    if a.suit == match.suit and b.suit == match.suit:
        return MatchOutcome(both, (), False, 6, "both actives match by suit: both kept")
    if rules.actives_match_each_other and (a.rank == b.rank or a.suit == b.suit):
        how = "rank" if a.rank == b.rank else "suit"
        return MatchOutcome(both, (), False, 6, f"the actives match each other by {how}: both kept")
    added = tuple(c for c in both if matches(c, match))
    discarded = tuple(c for c in both if not matches(c, match))
    if len(added) == 2:
        reason = f"{a.symbol} matched by {_how(a, match)}, {b.symbol} by {_how(b, match)}: both kept"
    elif added:
        reason = f"{added[0].symbol} matched by {_how(added[0], match)}"
    else:
        reason = "no match"
    return MatchOutcome(added, discarded, False, 7, reason)
