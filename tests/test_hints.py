"""Hints, the numbers: the exact keep chances against a brute-force enumeration, the equity
estimate against an exact reference, and estimates that read nothing but the seat's view."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction

import pytest

from pokeroulette_tui.bots.common import unknown_cards
from pokeroulette_tui.engine.cards import Card, parse_card, parse_cards
from pokeroulette_tui.engine.hands import compare, evaluate
from pokeroulette_tui.engine.hints import (category_of, improve_odds, keep_count, keep_odds,
                                           unseen_cards)
from pokeroulette_tui.engine.matching import resolve
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.ui.hints import beats_text, estimates, hints_text, pct
from ui_pilot import table_until


def brute_force(pool: list[Card], actives: list[Card | None], match: Card | None,
                rules: RuleSet) -> tuple[list[Fraction], Fraction, Fraction]:
    """Every ordered way to deal the unseen cards (each card of ``pool`` a distinct object,
    so duplicates from several decks count twice), straight through the engine's rules."""
    slots = [i for i, c in enumerate(actives) if c is None] + ([len(actives)] if match is None else [])
    kept = [0] * len(actives)
    some = claim = total = 0
    for deal in itertools.permutations(pool, len(slots)):
        cards = [*actives, match]
        for slot, card in zip(slots, deal):
            cards[slot] = card
        *act, m = cards
        o = resolve(act, m, rules)
        total += 1
        flags = [any(x is c for x in o.added) for c in act]
        for i, f in enumerate(flags):
            kept[i] += f
        some += any(flags)
        claim += o.claims_match
    return [Fraction(k, total) for k in kept], Fraction(some, total), Fraction(claim, total)


POOL = "7h 7h 7s Kh 2c * Ks 7c"  # two 7♥: a card unseen twice (several decks)
CASES = [
    pytest.param([None, None], None, RuleSet(), id="both-actives-and-the-match-unseen"),
    pytest.param([None, None], "7d", RuleSet(), id="the-match-turned"),
    pytest.param([None, None], "*", RuleSet(), id="a-joker-match"),
    pytest.param(["Kc", None], None, RuleSet(), id="a-stock-card-moved-to-active"),
    pytest.param([None], None, RuleSet(), id="a-lone-active"),
    pytest.param([None], "Kd", RuleSet(), id="a-lone-active-the-match-turned"),
    pytest.param([None, None], None, RuleSet(claim_match_card=False), id="no-claim"),
    pytest.param([None, None], None, RuleSet(actives_match_each_other=True),
                 id="actives-match-each-other"),
]


@pytest.mark.parametrize("actives, match, rules", CASES)
def test_keep_chances_are_exact_against_every_deal(actives, match, rules):
    pool = parse_cards(POOL)
    act = [None if a is None else parse_card(a) for a in actives]
    m = None if match is None else parse_card(match)
    odds = keep_count(pool, act, m, rules)
    each, some, claim = brute_force(pool, act, m, rules)
    assert list(odds.each) == each
    assert odds.some == some and odds.claim == claim
    assert odds.match_known == (m is not None)


def test_keep_chances_from_a_dealt_view_count_what_the_seat_cannot_see():
    """Round 1 dealt, the match card up: the seat's two face-down actives against it, over
    the 52 cards it cannot see (the bots' own count of the unseen agrees)."""
    table = table_until(PRESETS["classic"].replace(betting="none"),
                        [("Ada", None), ("Bo", "random"), ("Cy", "random")], 4,
                        lambda s: s.phase == Phase.DEALT)
    view = table.view(0)
    assert view.match is not None and all(c is None for c in view.me.actives)
    pool = unknown_cards(view)
    assert sorted(unseen_cards(view).elements()) == sorted(pool)
    each, some, claim = brute_force(pool, [None, None], view.match, view.rules)
    odds = keep_odds(view)
    assert list(odds.each) == each and odds.some == some and odds.claim == claim


def test_between_rounds_the_keep_chances_are_for_the_next_actives():
    table = table_until(PRESETS["classic"], [("Ada", None), ("Bo", "random"), ("Cy", "random")],
                        5, lambda s: s.to_act == 0 and s.phase == "betting"
                        and s.betting_round == "round")
    view = table.view(0)
    odds = keep_odds(view)
    assert odds.next_round and not odds.match_known
    assert odds.count == (2 if view.me.added else 1)
    each, some, _ = brute_force(unknown_cards(view), [None] * odds.count, None, view.rules)
    assert list(odds.each) == each and odds.some == some


def final_view():
    """Three seats at the final betting: every card is dealt, only the others' first stock
    cards are hidden."""
    rules = PRESETS["classic"].replace(betting="final_only")
    table = table_until(rules, [("Ada", None), ("Bo", "random"), ("Cy", "random")], 11,
                        lambda s: s.to_act == 0 and s.betting_round == "final")
    return table.view(0)


def exact_share(view) -> float:
    """Ada's expected share of the pot, over every way the hidden stock cards can be."""
    pool = unknown_cards(view)
    order = view.suit_order
    r = view.rules
    hands = [[c for c in p.stock] for p in view.players]
    hidden = [(i, j) for i, h in enumerate(hands) for j, c in enumerate(h) if c is None]
    total = share = 0.0
    for deal in itertools.permutations(range(len(pool)), len(hidden)):
        for (i, j), k in zip(hidden, deal):
            hands[i][j] = pool[k]
        values = [evaluate(h, five_of_a_kind=r.five_of_a_kind, jokers=r.jokers_at_end,
                           suit_order=order) for h in hands]
        best = [i for i in range(len(values))
                if all(compare(values[i], v, suit_order=order) >= 0 for v in values)]
        total += 1
        share += (1 / len(best)) if 0 in best else 0.0
    return share / total


def test_equity_estimate_is_within_tolerance_of_the_exact_share():
    view = final_view()
    hidden = sum(c is None for p in view.players for c in p.stock)
    assert hidden == 2
    exact = exact_share(view)
    last = None
    for est in estimates(view, random.Random(7), budget=60):
        last = est
    assert last is not None and last.done and last.samples >= 2000
    sigma = (exact * (1 - exact) / last.samples) ** 0.5
    assert abs(last.win - exact) <= max(0.02, 5 * sigma), (last.win, exact)


def test_improvement_at_the_end_is_none_and_endings_sum_to_one():
    view = final_view()
    imp = improve_odds(view, random.Random(1), 50)
    assert imp.better == 0.0 and imp.ends == {imp.now: 1.0}  # nothing more is dealt
    table = table_until(PRESETS["classic"], [("Ada", None), ("Bo", "random"), ("Cy", "random")],
                        5, lambda s: s.to_act == 0 and s.phase == "betting")
    imp = improve_odds(table.view(0), random.Random(1), 200)
    assert abs(sum(imp.ends.values()) - 1) < 1e-9 and 0 < imp.better < 1
    assert imp.now == category_of([c for c in table.view(0).me.stock if c is not None],
                                  table.view(0).rules)


def test_estimates_read_the_view_only():
    """Two tables that look the same to Ada but hide different cards give the same hints."""
    table = table_until(PRESETS["classic"], [("Ada", None), ("Bo", "random"), ("Cy", "random")],
                        5, lambda s: s.to_act == 0 and s.phase == "betting")
    state = table.state
    other = copy.deepcopy(state)
    bo = other.seats[1]
    hidden = [j for j, pub in enumerate(bo.stock_public) if not pub][0]
    swap = next(k for k, c in enumerate(other.deck) if c != bo.stock[hidden])
    bo.stock[hidden], other.deck[swap] = other.deck[swap], bo.stock[hidden]
    a, b = view_for(state, 0), view_for(other, 0)
    assert a == b and view_for(state, 1) != view_for(other, 1)
    run = [list(estimates(v, random.Random(3), budget=1e9, clock=iter(range(10**6)).__next__))
           for v in (a, b)]
    assert run[0] == run[1]


def test_words():
    assert pct(Fraction(1, 3)) == "33%" and pct(0.004) == "0.4%"
    text = beats_text(RuleSet(five_of_a_kind="as_four", jokers_at_end="removed"), "SHDC").plain
    assert "five of a kind" not in text.split("Jokers")[0]
    assert "Jokers removed" in text and "counts as four of a kind" in text
    assert "♠ > ♥ > ♦ > ♣" in text
    assert "straight flush" in beats_text(PRESETS["draw"], None, chain=True).plain
    assert hints_text(None, None, allowed=False).plain == "Hints are off at this table"
