"""Hand evaluation: the rules of RULES.md 2.4 (and 3), against treys and a brute force."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest
import treys
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokeroulette_tui.engine.cards import JOKER, RANK_CHARS, STANDARD_DECK, Card, parse_cards
from pokeroulette_tui.engine.hands import (
    CATEGORY_NAMES,
    Category,
    HandValue,
    compare,
    evaluate,
    strength,
    suit_key,
)

C = Category


def ev(text: str, **kw) -> HandValue:
    return evaluate(parse_cards(text), **kw)


def cat_ranks(text: str, **kw) -> tuple:
    v = ev(text, **kw)
    return v.category, v.ranks


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# ---------------------------------------------------------------------------
# A tiny independent reference: classify at most five natural cards, then try
# every subset of at most five cards and every joker substitution.

def classify(cards, high: bool = True) -> tuple:
    """(category, ranks) of at most five natural cards, the plain way."""
    ranks = tuple(sorted([c.rank for c in cards], reverse=True))
    is_flush = len(cards) == 5 and len({c.suit for c in cards}) == 1
    return classify_ranks(ranks, is_flush, high)


@functools.lru_cache(maxsize=None)
def classify_ranks(ranks: tuple, is_flush: bool, high: bool) -> tuple:
    """(category, ranks) from the ranks (high to low) and whether all suits are one."""
    n = len(ranks)
    ranks = list(ranks)
    counts = Counter(ranks)
    # rank groups: bigger group first, then higher rank
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [k for _, k in groups]
    by_group = tuple(r for r, _ in groups)
    top = 0
    if n == 5 and len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            top = 5
    options = []
    if shape[0] == 5:
        options.append((C.FIVE_OF_A_KIND, (ranks[0],)) if high else (C.FOUR_OF_A_KIND, (ranks[0], ranks[0])))
    if top and is_flush:
        options.append((C.STRAIGHT_FLUSH, (top,)))
    if shape[0] == 4:
        options.append((C.FOUR_OF_A_KIND, by_group))
    if shape[:2] == [3, 2]:
        options.append((C.FULL_HOUSE, by_group))
    if is_flush:
        options.append((C.FLUSH, tuple(ranks)))
    if top:
        options.append((C.STRAIGHT, (top,)))
    if shape[0] == 3:
        options.append((C.THREE_OF_A_KIND, by_group))
    if shape[:2] == [2, 2]:
        options.append((C.TWO_PAIR, by_group))
    if shape[0] == 2:
        options.append((C.PAIR, by_group))
    options.append((C.HIGH_CARD, tuple(ranks)))
    return max(options)


def reference_suit_key(cards, stands, value, score) -> tuple:
    """Suit scores of the played cards in order of significance: bigger rank
    groups first (by rank alone for flushes, straights and high cards), then
    higher rank (the ace of A-2-3-4-5 plays as 1), then higher suit; a joker
    scores 0, below every natural suit."""
    cat = value[0]
    play = [s.rank for s in stands]
    if cat in (C.STRAIGHT, C.STRAIGHT_FLUSH) and value[1] == (5,):
        play = [1 if r == 14 else r for r in play]
    counts = Counter(play)
    if cat in (C.FLUSH, C.HIGH_CARD, C.STRAIGHT, C.STRAIGHT_FLUSH):
        counts = Counter()
    scores = [score.get(c.suit, 0) for c in cards]
    slots = sorted(zip((counts[r] for r in play), play, scores), reverse=True)
    return tuple(sc for _, _, sc in slots)


def reference(stock, *, high: bool = True, suit_order: str | None = None):
    """Best (category, ranks) by brute force, and the best suit key with it."""
    naturals = [c for c in stock if not c.is_joker]
    j = len(stock) - len(naturals)
    score = {s: 4 - i for i, s in enumerate(suit_order or "SHDC")}
    best = None
    best_key = None
    for size in range(1, min(5, len(stock)) + 1):
        for k in range(0, min(j, size) + 1):
            # jokers are alike: a multiset of substitutes is enough
            for subs in itertools.combinations_with_replacement(STANDARD_DECK, k):
                for nats in itertools.combinations(naturals, size - k):
                    stands = list(nats) + list(subs)
                    value = classify(stands, high)
                    if best is not None and value < best:
                        continue
                    if suit_order is not None:
                        cards = list(nats) + [JOKER] * k
                        key = reference_suit_key(cards, stands, value, score)
                        if best is None or value > best or key > best_key:
                            best, best_key = value, key
                    elif best is None or value > best:
                        best = value
    return best, best_key


def shoe(decks: int = 1, jokers: int = 0) -> list[Card]:
    return list(STANDARD_DECK) * decks + [JOKER] * jokers


def check_well_formed(value: HandValue, stock, high: bool = True) -> None:
    """The hand is made of the stock's cards and is what its cards make."""
    assert len(value.cards) == len(value.stands_for) == min(5, len(stock))
    assert not Counter(value.cards) - Counter(stock)
    for card, plays in zip(value.cards, value.stands_for):
        assert not plays.is_joker
        if not card.is_joker:
            assert plays == card
    if value.cards:
        assert classify(list(value.stands_for), high) == (value.category, value.ranks)


# ---------------------------------------------------------------------------
# every category

@pytest.mark.parametrize(
    "text, category, ranks",
    [
        ("Ks 9h 7d 4c 2s", C.HIGH_CARD, (13, 9, 7, 4, 2)),
        ("7s 7h Kd 4c 2s", C.PAIR, (7, 13, 4, 2)),
        ("Ks Kh 5d 5c 2s", C.TWO_PAIR, (13, 5, 2)),
        ("Qs Qh Qd 5c 2s", C.THREE_OF_A_KIND, (12, 5, 2)),
        ("9s Th Jd Qc Ks", C.STRAIGHT, (13,)),
        ("2h 7h 9h Jh Kh", C.FLUSH, (13, 11, 9, 7, 2)),
        ("Ts Th Td 2c 2s", C.FULL_HOUSE, (10, 2)),
        ("9s 9h 9d 9c As", C.FOUR_OF_A_KIND, (9, 14)),
        ("5d 6d 7d 8d 9d", C.STRAIGHT_FLUSH, (9,)),
        ("Qs Qh Qd Qc *", C.FIVE_OF_A_KIND, (12,)),
    ],
)
def test_every_category_is_recognised(text, category, ranks):
    v = ev(text)
    assert (v.category, v.ranks) == (category, ranks)
    check_well_formed(v, parse_cards(text))


def test_categories_rank_from_high_card_to_five_of_a_kind():
    hands = ["Ks 9h 7d 4c 2s", "2s 2h 4d 5c 7s", "3s 3h 2d 2c 4s", "2s 2h 2d 3c 4s",
             "As 2h 3d 4c 5s", "2h 3h 4h 5h 7h", "2s 2h 2d 3c 3s", "2s 2h 2d 2c 3s",
             "Ah 2h 3h 4h 5h", "2s 2h 2d 2c *"]
    values = [ev(h) for h in hands]
    assert [v.category for v in values] == list(Category)
    assert values == sorted(values)
    assert [strength(parse_cards(h)) for h in hands] == sorted(strength(parse_cards(h)) for h in hands)


def test_category_names_cover_every_category():
    assert set(CATEGORY_NAMES) == set(Category)
    assert CATEGORY_NAMES[C.TWO_PAIR] == "two pair"
    assert CATEGORY_NAMES[C.STRAIGHT_FLUSH] == "straight flush"


# ---------------------------------------------------------------------------
# aces, straights, kickers

def test_ace_plays_low_in_the_wheel_and_it_is_the_lowest_straight():
    assert cat_ranks("As 2h 3d 4c 5s") == (C.STRAIGHT, (5,))
    assert ev("As 2h 3d 4c 5s") < ev("2h 3d 4c 5s 6h")
    assert cat_ranks("Ah 2h 3h 4h 5h") == (C.STRAIGHT_FLUSH, (5,))
    assert ev("Ah 2h 3h 4h 5h") < ev("2h 3h 4h 5h 6h")
    # the ace of the wheel comes last in the cards
    assert [c.rank for c in ev("As 2h 3d 4c 5s").cards] == [5, 4, 3, 2, 14]


def test_ace_plays_high_in_the_ace_high_straight():
    assert cat_ranks("Ts Jh Qd Kc As") == (C.STRAIGHT, (14,))
    assert ev("Ts Jh Qd Kc As").describe() == "ace-high straight"


def test_straights_do_not_wrap_around_the_ace():
    assert cat_ranks("Qs Kh Ad 2c 3s")[0] == C.HIGH_CARD


def test_ace_high_beats_king_high():
    assert ev("As 7h 5d 4c 2s") > ev("Ks Qh Jd 9c 8s")


def test_kickers_decide_within_a_category():
    assert ev("7s 7h Kd 4c 3s") > ev("7d 7c Kh 4s 2d")
    assert ev("Ks Kh 5d 5c 3s") > ev("Kd Kc 5s 5h 2d")
    assert ev("7s 7h Kd 4c 3s") == ev("7d 7c Kh 4s 3d")


def test_a_hand_with_fewer_kickers_loses_to_an_otherwise_equal_hand_with_more():
    assert ev("7s 7h Kd") < ev("7d 7c Kh 2s")
    assert ev("As") < ev("Ah 2c")
    assert ev("9s 9h 9d 9c") < ev("9s 9h 9d 9c 2s")
    assert strength(parse_cards("7s 7h Kd")) < strength(parse_cards("7d 7c Kh 2s"))


# ---------------------------------------------------------------------------
# stock sizes

@pytest.mark.parametrize(
    "text, category, ranks",
    [
        ("", C.HIGH_CARD, ()),
        ("9h", C.HIGH_CARD, (9,)),
        ("*", C.HIGH_CARD, (14,)),
        ("9h 9d", C.PAIR, (9,)),
        ("9h 3d", C.HIGH_CARD, (9, 3)),
        ("* *", C.PAIR, (14,)),
        ("9h 3d *", C.PAIR, (9, 3)),
        ("9h 9d 9s", C.THREE_OF_A_KIND, (9,)),
        ("9h 9d 3s", C.PAIR, (9, 3)),
        ("9h 9d 9s 9c", C.FOUR_OF_A_KIND, (9,)),
        ("9h 9d * *", C.FOUR_OF_A_KIND, (9,)),
        ("9h 9d 3s 3c", C.TWO_PAIR, (9, 3)),
        ("9h 9d 9s 3c", C.THREE_OF_A_KIND, (9, 3)),
        ("9h 9d 3s 2c", C.PAIR, (9, 3, 2)),
        ("9h Th Jh Qh", C.HIGH_CARD, (12, 11, 10, 9)),
        ("9h Th Jh *", C.PAIR, (11, 10, 9)),
        ("* * * *", C.FOUR_OF_A_KIND, (14,)),
    ],
)
def test_short_stocks_of_four_or_fewer_cards_play_all_their_cards(text, category, ranks):
    stock = parse_cards(text)
    v = evaluate(stock)
    assert (v.category, v.ranks) == (category, ranks)
    assert len(v.cards) == len(stock)
    check_well_formed(v, stock)


def test_short_stocks_cannot_make_straights_flushes_or_full_houses():
    assert ev("9h Th Jh Qh").category == C.HIGH_CARD
    assert ev("Kh Kd Ks").category == C.THREE_OF_A_KIND


def test_big_stocks_of_15_to_20_cards_use_the_best_five():
    stock = parse_cards("2c 3d 4h 7s 7d 8c 9h Jd Js Jc Qs Kh Ah As Ad")
    v = evaluate(stock)
    assert (v.category, v.ranks) == (C.FULL_HOUSE, (14, 11))
    stock = parse_cards("2c 3d 4h 7s 7d 8c 9h Jd Js Jc Qs Kh Ah As Ad 5h 6h 7h 8h 9c")
    assert (evaluate(stock).category, evaluate(stock).ranks) == (C.STRAIGHT_FLUSH, (9,))
    assert len(evaluate(stock).cards) == 5


def test_big_natural_stocks_agree_with_the_brute_force():
    rng = random.Random(20)
    two_decks = shoe(2)
    for size in [8, 9, 10, 11, 12] * 3 + [15, 17, 20]:
        stock = rng.sample(two_decks, size)
        best = max(classify(list(combo)) for combo in itertools.combinations(stock, 5))
        v = evaluate(stock)
        assert (v.category, v.ranks) == best, stock
        assert strength(stock) == v.strength
        check_well_formed(v, stock)


# ---------------------------------------------------------------------------
# several decks, jokers, options

def test_duplicate_cards_from_two_decks_make_a_natural_five_of_a_kind():
    stock = parse_cards("Kh Kh Ks Kd Kc 2c 7d")
    v = evaluate(stock)
    assert (v.category, v.ranks) == (C.FIVE_OF_A_KIND, (13,))
    assert JOKER not in v.cards
    assert strength(stock) == v.strength
    assert cat_ranks("Kh Kh Ks Kd Kc 2c 7d", five_of_a_kind="as_four") == (C.FOUR_OF_A_KIND, (13, 13))


def test_duplicate_cards_make_a_flush_with_a_pair_in_it():
    # two A♥ from two decks: still a flush, above the pair it contains
    assert cat_ranks("Ah Ah 9h 7h 2h") == (C.FLUSH, (14, 14, 9, 7, 2))
    assert cat_ranks("Ah Ah 9h 9h 9c 2h 3h") == (C.FULL_HOUSE, (9, 14))
    assert strength(parse_cards("Ah Ah 9h 9h 9c 2h 3h")) == ev("Ah Ah 9h 9h 9c 2h 3h").strength


@pytest.mark.parametrize(
    "text, category, ranks",
    [
        ("Ks 9h 7d 4c 2s", C.HIGH_CARD, (13, 9, 7, 4, 2)),  # 0 jokers
        ("Ks 9h 7d 4c *", C.PAIR, (13, 9, 7, 4)),
        ("Ks 9h 7d * *", C.THREE_OF_A_KIND, (13, 9, 7)),
        ("Ks 9h * * *", C.FOUR_OF_A_KIND, (13, 9)),
        ("Ks * * * *", C.FIVE_OF_A_KIND, (13,)),
        ("* * * * *", C.FIVE_OF_A_KIND, (14,)),
        ("Kh 9h 7h 4h *", C.FLUSH, (14, 13, 9, 7, 4)),
        ("Kh Qh 9h * *", C.STRAIGHT_FLUSH, (13,)),
        ("Kh Qs 9h * *", C.STRAIGHT, (13,)),
        ("Ks Kh 9h 9c *", C.FULL_HOUSE, (13, 9)),
        ("As 2d 3c * 5h", C.STRAIGHT, (5,)),
        ("As 2d 3c * 9h", C.PAIR, (14, 9, 3, 2)),
        ("2s 3d 4c * 6h", C.STRAIGHT, (6,)),
        ("2h 3h 4h * 6h", C.STRAIGHT_FLUSH, (6,)),
        ("Ah 2h 3h * 5h", C.STRAIGHT_FLUSH, (5,)),
    ],
)
def test_jokers_are_wild_for_any_rank_and_suit(text, category, ranks):
    stock = parse_cards(text)
    v = evaluate(stock)
    assert (v.category, v.ranks) == (category, ranks)
    check_well_formed(v, stock)
    assert strength(stock) == v.strength


def test_a_joker_stands_for_a_natural_card_and_shows_as_a_joker():
    v = ev("Qs Qh * 7d 2c")
    assert v.cards == (Card(12, "S"), Card(12, "H"), JOKER, Card(7, "D"), Card(2, "C"))
    assert v.stands_for[2].rank == 12 and v.stands_for[2].suit in "DC"
    v = ev("Kh Qh 9h * *")
    assert [c.text for c in v.stands_for] == ["Kh", "Qh", "Jh", "Th", "9h"]
    assert v.cards[2:4] == (JOKER, JOKER)


def test_five_of_a_kind_high_beats_a_straight_flush():
    assert ev("2s 2h 2d 2c *") > ev("Ah Kh Qh Jh Th")
    assert ev("2s 2h 2d 2c *").describe() == "five of a kind, twos"


def test_five_of_a_kind_as_four_counts_as_four_of_a_kind():
    v = ev("Qs Qh Qd Qc *", five_of_a_kind="as_four")
    # with a spare joker the best four of a kind takes an ace kicker
    assert (v.category, v.ranks) == (C.FOUR_OF_A_KIND, (12, 14))
    assert cat_ranks("As Ah Ad Ac *", five_of_a_kind="as_four") == (C.FOUR_OF_A_KIND, (14, 14))
    assert cat_ranks("Qs Qh Qd Qc Qc", five_of_a_kind="as_four") == (C.FOUR_OF_A_KIND, (12, 12))
    assert ev("Qs Qh Qd Qc Qc", five_of_a_kind="as_four") < ev("Ah Kh Qh Jh Th")
    assert cat_ranks("* * * * *", five_of_a_kind="as_four") == (C.STRAIGHT_FLUSH, (14,))
    assert strength(parse_cards("Qs Qh Qd Qc Qc"), five_of_a_kind="as_four") == ev(
        "Qs Qh Qd Qc Qc", five_of_a_kind="as_four").strength


def test_jokers_removed_are_taken_out_before_the_hand_is_made():
    v = ev("Ks Kh * * 2c", jokers="removed")
    assert (v.category, v.ranks) == (C.PAIR, (13, 2))
    assert JOKER not in v.cards and len(v.cards) == 3
    assert ev("* *", jokers="removed") == HandValue(C.HIGH_CARD, (), (), ())
    assert ev("* *", jokers="removed").cards == ()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"five_of_a_kind": "highest"}, "five_of_a_kind"),
        ({"jokers": "tame"}, "jokers"),
        ({"suit_order": "SHD"}, "suit_order"),
        ({"suit_order": "SHDX"}, "suit_order"),
    ],
)
def test_bad_option_values_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ev("As Ks", **kwargs)


def test_strength_takes_card_indices_as_well_as_cards():
    rng = random.Random(3)
    deck = shoe(2, 4)
    for size in list(range(0, 9)) * 20 + [15, 20]:
        stock = rng.sample(deck, size)
        for foak in ("high", "as_four"):
            assert strength([c.index for c in stock], five_of_a_kind=foak) == strength(
                stock, five_of_a_kind=foak) == evaluate(stock, five_of_a_kind=foak).strength


def test_things_that_are_not_cards_raise_value_error():
    for bad in ([Card(15, "S")] * 5, [Card(9, "X")], [(1, "S")] * 7):
        with pytest.raises(ValueError, match="not a card"):
            evaluate(bad)
        with pytest.raises(ValueError, match="not a card"):
            strength(bad)
    with pytest.raises(ValueError, match="not a card"):
        strength([0, 1, 2, 3, 99])


def test_strength_rejects_a_bad_five_of_a_kind_option():
    with pytest.raises(ValueError, match="five_of_a_kind"):
        strength(parse_cards("As Ks Qs 2d 3c"), five_of_a_kind="nope")
    with pytest.raises(ValueError, match="five_of_a_kind"):
        strength(parse_cards("As"), five_of_a_kind="nope")


# ---------------------------------------------------------------------------
# suit tie-break

def test_suit_tie_break_compares_cards_in_order_of_significance():
    # equal pair of kings, same kickers: the highest king decides
    a = ev("Ks Kc 9d 5c 2c", suit_order="SHDC")
    b = ev("Kh Kd 9s 5s 2s", suit_order="SHDC")
    assert compare(a, b) == 0
    assert compare(a, b, suit_order="SHDC") == 1
    assert compare(a, b, suit_order="HSDC") == -1
    # the kings tie suit for suit: the kickers decide in order
    a = ev("Ks Kh 9d 5c 2c", suit_order="SHDC")
    b = ev("Ks Kh 9c 5s 2s", suit_order="SHDC")
    assert compare(a, b, suit_order="SHDC") == 1


def test_suit_tie_break_groups_bigger_rank_groups_first():
    a = ev("2s 2h 2d Kc Kd", suit_order="SHDC")
    b = ev("2s 2h 2c Ks Kh", suit_order="SHDC")
    assert [c.rank for c in a.cards] == [2, 2, 2, 13, 13]
    assert compare(a, b, suit_order="SHDC") == 1  # 2d beats 2c before the kings count


def test_suit_tie_break_a_jokers_suit_counts_below_every_natural_suit():
    natural = ev("Qc Qd 9c 5c 2d", suit_order="SHDC")
    wild = ev("Qs * 9s 5s 2c", suit_order="SHDC")
    assert (natural.category, natural.ranks) == (wild.category, wild.ranks)
    # Q♠ beats Q♦ before the joker (lowest) meets Q♣
    assert compare(natural, wild, suit_order="SHDC") == -1
    wild = ev("Qc * 9s 5s 2s", suit_order="SHDC")
    # the natural hand's first queen Q♦ beats Q♣
    assert compare(natural, wild, suit_order="SHDC") == 1
    both = ev("Qd * 9c 5c 2d", suit_order="SHDC")
    assert suit_key(both, "SHDC") == (2, 0, 1, 1, 2)
    assert compare(natural, both, suit_order="SHDC") == 1


def test_evaluate_picks_the_cards_best_by_the_suit_tie_break():
    # two flushes with the same ranks: the higher suit's is chosen
    stock = parse_cards("Ah Kh 9h 7h 2h As Ks 9s 7s 2s")
    assert {c.suit for c in evaluate(stock, suit_order="SHDC").cards} == {"S"}
    assert {c.suit for c in evaluate(stock, suit_order="HSDC").cards} == {"H"}
    # a natural ace beats a joker standing for one
    stock = parse_cards("Ah Kh 9h 7h 3h * Qs 8s 6s 2s")
    v = evaluate(stock, suit_order="SHDC")
    assert (v.category, v.ranks) == (C.FLUSH, (14, 14, 13, 9, 7))
    assert v.cards[:2] == (Card(14, "H"), JOKER)
    # per rank, the best suit
    v = evaluate(parse_cards("9c 9s Td Th Jc Qd Ks Kh"), suit_order="DCHS")
    assert [c.text for c in v.cards] == ["Kh", "Qd", "Jc", "Td", "9c"]
    # two decks: both aces of spades
    v = evaluate(parse_cards("As As Ad Ah 2c"), suit_order="SHDC")
    assert [c.text for c in v.cards] == ["As", "As", "Ah", "Ad", "2c"]


def test_evaluate_picks_the_best_suit_of_equal_straight_flushes():
    stock = parse_cards("9h Th Jh Qh Kh 9s Ts Js Qs Ks")
    assert evaluate(stock, suit_order="SHDC").cards[0] == Card(13, "S")
    assert evaluate(stock, suit_order="HSDC").cards[0] == Card(13, "H")
    # a natural royal flush beats one made with a joker, whatever the suits
    stock = parse_cards("Ah Kh Qh Jh Th Ks Qs Js Ts *")
    assert evaluate(stock, suit_order="SHDC").cards == tuple(parse_cards("Ah Kh Qh Jh Th"))


def test_suit_key_sorts_each_rank_by_the_order_it_is_given():
    v = ev("Ks Kh Kd 9c 9s")  # cards chosen and ordered as if "SHDC"
    assert suit_key(v, "SHDC") == (4, 3, 2, 4, 1)
    assert suit_key(v, "CDHS") == (3, 2, 1, 4, 1)


def test_hands_equal_after_the_suit_tie_break_split():
    a = ev("Ks Kh 9d 5c 2c", suit_order="SHDC")
    b = ev("Ks Kh 9d 5c 2c", suit_order="SHDC")
    assert compare(a, b, suit_order="SHDC") == 0


def test_suit_tie_break_agrees_with_the_brute_force():
    rng = random.Random(7)
    deck = shoe(2, 2)
    for i in range(60):
        order = "".join(rng.sample("SHDC", 4))
        size = rng.randint(1, 7)
        stock = rng.sample(deck, size)
        if sum(c.is_joker for c in stock) > 1:
            continue
        v = evaluate(stock, suit_order=order)
        best, key = reference(stock, suit_order=order)
        assert (v.category, v.ranks) == best, stock
        assert suit_key(v, order) == key, (stock, order, v)


# ---------------------------------------------------------------------------
# describe()

@pytest.mark.parametrize(
    "text, words",
    [
        ("Js 9h 4d 3c 2s", "jack high"),
        ("7s 7h Kd 4c 2s", "pair of sevens"),
        ("6s 6h Kd 4c 2s", "pair of sixes"),
        ("Ks Kh 5d 5c 2s", "two pair, kings and fives"),
        ("Qs Qh Qd 5c 2s", "three of a kind, queens"),
        ("Ts Jh Qd Kc As", "ace-high straight"),
        ("As 2h 3d 4c 5s", "five-high straight"),
        ("2h 7h 9h Jh Kh", "king-high flush"),
        ("Ts Th Td 2c 2s", "full house, tens over twos"),
        ("9s 9h 9d 9c As", "four of a kind, nines"),
        ("5d 6d 7d 8d 9d", "nine-high straight flush"),
        ("Th Jh Qh Kh Ah", "royal flush"),
        ("Qs Qh Qd Qc *", "five of a kind, queens"),
        ("", "no cards"),
    ],
)
def test_describe_names_the_hand(text, words):
    assert ev(text).describe() == words


# ---------------------------------------------------------------------------
# against treys (one deck, natural cards)

_TREYS = treys.Evaluator()


def to_treys(cards) -> list[int]:
    return [treys.Card.new(RANK_CHARS[c.rank] + c.suit.lower()) for c in cards]


def treys_score(cards) -> int:
    t = to_treys(cards)
    return _TREYS.evaluate(t[:2], t[2:])


@pytest.mark.parametrize("size", [5, 6, 7])
def test_same_order_as_treys_on_random_hands(size):
    rng = random.Random(size)
    deck = list(STANDARD_DECK)
    for _ in range(2000):
        if rng.random() < 0.5:
            a, b = rng.sample(deck, size), rng.sample(deck, size)
        else:  # a shared board, as in hold'em: many ties and near ties
            cards = rng.sample(deck, size + 2)
            a, b = cards[:size], cards[2:]
        ta, tb = treys_score(a), treys_score(b)
        expected = sign(tb - ta)  # treys: lower is better
        va, vb = evaluate(a), evaluate(b)
        assert compare(va, vb) == expected, (a, b)
        assert sign(strength(a) - strength(b)) == expected, (a, b)
        assert sign(va.strength - vb.strength) == expected
        # categories agree too (treys class 0 is the royal flush)
        assert va.category == C(9 - max(1, _TREYS.get_rank_class(ta)))


def test_categories_match_treys_score_bands():
    # 5-card hands of each treys class map to the same category, in order
    rng = random.Random(5)
    seen = {}
    for _ in range(3000):
        hand = rng.sample(STANDARD_DECK, 5)
        seen.setdefault(evaluate(hand).category, []).append(treys_score(hand))
    ordered = sorted(seen)
    for lower, higher in zip(ordered, ordered[1:]):
        assert min(seen[lower]) > max(seen[higher])


# ---------------------------------------------------------------------------
# against a brute force, with jokers

def test_jokers_agree_with_the_brute_force_on_small_stocks():
    rng = random.Random(11)
    deck = shoe(2)
    cases = 0
    for jokers, sizes, count in [(0, range(1, 8), 40), (1, range(1, 8), 120), (2, range(2, 6), 40)]:
        for _ in range(count):
            size = rng.choice(list(sizes))
            stock = rng.sample(deck, size - jokers) + [JOKER] * jokers
            rng.shuffle(stock)
            for high in (True, False):
                v = evaluate(stock, five_of_a_kind="high" if high else "as_four")
                best, _ = reference(stock, high=high)
                assert (v.category, v.ranks) == best, (stock, high)
                check_well_formed(v, stock, high)
                assert strength(stock, five_of_a_kind="high" if high else "as_four") == v.strength
                cases += 1
    assert cases == 400


def test_three_jokers_agree_with_the_brute_force():
    rng = random.Random(13)
    for size, high in ((3, False), (4, True), (4, False), (5, True)):
        stock = rng.sample(shoe(2), size - 3) + [JOKER] * 3
        v = evaluate(stock, five_of_a_kind="high" if high else "as_four")
        assert (v.category, v.ranks) == reference(stock, high=high)[0], stock
        check_well_formed(v, stock, high)


def test_jokers_agree_with_the_brute_force_on_made_up_hard_stocks():
    stocks = [
        "Ah Kh Qh * *", "As Ks * * 2c 2d", "7h 8h * * Ks Kd Kc", "9s 9h * Tc Jc Qc",
        "2s 3s 4s 5s * * Ad", "Kh Kh Kh * Qh Qh", "As Ah * 5s 4s 3s", "* * 2c 3c 4d",
        "Ts Th Td Tc Tc *", "Ac Kd * 2h 3s",
    ]
    for text in stocks:
        stock = parse_cards(text)
        for high in (True, False):
            v = evaluate(stock, five_of_a_kind="high" if high else "as_four")
            assert (v.category, v.ranks) == reference(stock, high=high)[0], text
            check_well_formed(v, stock, high)


# ---------------------------------------------------------------------------
# properties

card_st = st.sampled_from(list(STANDARD_DECK) + [JOKER])
stock_st = st.lists(card_st, min_size=0, max_size=14)
foak_st = st.sampled_from(["high", "as_four"])
order_st = st.permutations("SHDC").map("".join)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(stock_st, card_st, foak_st)
def test_adding_a_card_never_makes_the_best_hand_worse(stock, extra, foak):
    assert evaluate(stock + [extra], five_of_a_kind=foak) >= evaluate(stock, five_of_a_kind=foak)
    assert strength(stock + [extra], five_of_a_kind=foak) >= strength(stock, five_of_a_kind=foak)


@FAST
@given(stock_st, st.randoms(use_true_random=False), foak_st, order_st)
def test_the_hand_does_not_depend_on_the_order_of_the_cards(stock, rnd, foak, order):
    shuffled = list(stock)
    rnd.shuffle(shuffled)
    a = evaluate(stock, five_of_a_kind=foak, suit_order=order)
    b = evaluate(shuffled, five_of_a_kind=foak, suit_order=order)
    assert (a.category, a.ranks) == (b.category, b.ranks)
    assert suit_key(a, order) == suit_key(b, order)
    assert strength(stock, five_of_a_kind=foak) == strength(shuffled, five_of_a_kind=foak)


@FAST
@given(stock_st, foak_st, st.one_of(st.none(), order_st))
def test_the_hand_is_made_of_the_stocks_cards(stock, foak, order):
    v = evaluate(stock, five_of_a_kind=foak, suit_order=order)
    check_well_formed(v, stock, foak == "high")
    assert strength(stock, five_of_a_kind=foak) == v.strength


@FAST
@given(st.lists(card_st, min_size=0, max_size=20))
def test_removed_jokers_equal_a_stock_without_them(stock):
    naturals = [c for c in stock if not c.is_joker]
    v = evaluate(stock, jokers="removed")
    assert v == evaluate(naturals)
    assert len(v.cards) == min(5, len(naturals))


@FAST
@given(st.lists(card_st, min_size=5, max_size=7, unique=True), st.lists(card_st, min_size=5, max_size=7))
def test_strength_orders_like_handvalue(a, b):
    va, vb = evaluate(a), evaluate(b)
    assert sign(strength(a) - strength(b)) == compare(va, vb)


# ---------------------------------------------------------------------------
# the fast paths of strength() against the general evaluator

from pokeroulette_tui.engine import hands as hands_mod  # noqa: E402


def test_every_five_card_table_entry_agrees_with_the_general_evaluator():
    # every rank multiset (no rank five times) as a hand without a flush, and
    # every five distinct ranks as a flush: 6,175 + 1,287 hands
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        if ranks[0] == ranks[4]:
            continue
        counts = Counter()
        hand = []
        for r in ranks:
            hand.append(Card(r, "SHDC"[counts[r]]))
            counts[r] += 1
        if len({c.suit for c in hand}) == 1:  # five distinct ranks, all spades
            hand[0] = Card(hand[0].rank, "H")
        assert strength(hand) == evaluate(hand).strength, hand
        assert strength(hand, five_of_a_kind="as_four") == evaluate(
            hand, five_of_a_kind="as_four").strength
    for ranks in itertools.combinations(range(2, 15), 5):
        hand = [Card(r, "D") for r in ranks]
        assert strength(hand) == evaluate(hand).strength, hand
    assert len(hands_mod._TABLE5) == 6175 and len(hands_mod._FLUSH5) == 1287


def test_every_six_and_seven_card_rank_multiset_agrees_with_the_general_evaluator():
    # the bit-parallel path, memo cold, over its whole domain: every multiset of 6 or 7
    # ranks (no rank five times), dealt round the suits so that no suit has five cards
    hands_mod._MEMO.clear()
    for size in (6, 7):
        for ranks in itertools.combinations_with_replacement(range(2, 15), size):
            hand = [Card(r, "SHDC"[i % 4]) for i, r in enumerate(ranks)]
            if Counter(ranks).most_common(1)[0][1] > 4:
                continue
            assert strength(hand) == evaluate(hand).strength, hand
    hands_mod._MEMO.clear()


def test_every_flush_of_five_to_seven_cards_agrees_with_the_general_evaluator():
    rng = random.Random(19)
    for size in (5, 6, 7):
        for ranks in itertools.combinations(range(2, 15), size):
            hand = [Card(r, "H") for r in ranks]
            if size == 5:  # and five hearts with two other cards, pairing some of them
                others = [c for c in STANDARD_DECK if c.suit != "H"]
                hand += rng.sample(others, 2)
            assert strength(hand) == evaluate(hand).strength, hand
            assert strength([c.index for c in hand]) == evaluate(hand).strength


natural_st = st.sampled_from(STANDARD_DECK)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(natural_st, min_size=5, max_size=7, unique=True),
                 st.lists(natural_st, min_size=5, max_size=7)),  # two decks: duplicates
       foak_st, st.booleans(), st.booleans())
def test_the_fast_path_agrees_with_the_general_evaluator(hand, foak, as_indices, cold):
    if cold:
        hands_mod._MEMO.clear()
    general = evaluate(hand, five_of_a_kind=foak).strength
    given_cards = [c.index for c in hand] if as_indices else hand
    assert strength(given_cards, five_of_a_kind=foak) == general  # memo cold or warm
    assert strength(given_cards, five_of_a_kind=foak) == general  # memo warm


def test_the_seven_card_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(hands_mod, "_MEMO_LIMIT", 50)
    hands_mod._MEMO.clear()
    rng = random.Random(17)
    for _ in range(2000):
        hand = rng.sample(STANDARD_DECK, rng.choice((6, 7)))
        assert strength(hand) == evaluate(hand).strength
        assert len(hands_mod._MEMO) <= 50
    hands_mod._MEMO.clear()


def test_a_bad_five_of_a_kind_option_raises_on_every_fast_path():
    for text in ("As Ks Qs Js 9s", "As Ks Qs Js 9s 2d", "As Ks Qs Js 9s 2d 3c",
                 "As Kd Qs Js 9s 2d 3c", "As Kd Qs Js 9s 2d"):
        cards = parse_cards(text)
        strength(cards)  # fills the tables and the memo first
        with pytest.raises(ValueError, match="five_of_a_kind"):
            strength(cards, five_of_a_kind="nope")
