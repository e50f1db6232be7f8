"""Hypothesis properties of the engine: random legal play (every preset, 2-12 players, draw
2-7, leaving at random) keeps every card exactly once and every chip; every legal action
applies; illegal actions are refused and change nothing; games end. And the invariant
checks really catch a broken engine."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import game, random_action
from pokeroulette_tui import simulate
from pokeroulette_tui.engine import betting, roulette
from pokeroulette_tui.engine.actions import (Advance, AllIn, Call, Check, Cut, Discard, Fold,
                                             IllegalAction, Leave, MoveStockToActive, PlaceBet,
                                             RaiseTo, StartHand)
from pokeroulette_tui.engine.cards import JOKER, make_shoe
from pokeroulette_tui.engine.game import (apply, card_zones, check, check_invariants, dealer_to_act,
                                          legal_actions, new_game)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.state import GameState

PROPERTY = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAX_STEPS = 30_000


@st.composite
def tables(draw, *, bounded: bool = True):
    """A rule set (from any preset, options varied), a player count, a seed, a leave rate."""
    name = draw(st.sampled_from(list(PRESETS)))
    base = PRESETS[name]
    draw_variant = base.variant == "draw"
    n = draw(st.integers(2, 7 if draw_variant else 12))
    opts = {"min_players": 2,
            "starting_chips": draw(st.sampled_from([3, 10, 40])),
            "ante": draw(st.sampled_from([0, 1, 2])),
            "limit": draw(st.sampled_from(["no_limit", "fixed"])),
            "hand_limit": draw(st.sampled_from([1, 3, 8] if bounded else [0]))}
    if draw(st.booleans()):
        opts["betting"] = draw(st.sampled_from(["none", "each_round"] + ([] if draw_variant
                                                                          else ["final_only"])))
        opts["scoring"] = draw(st.sampled_from(["chips", "forfeit"]))
    scoring = opts.get("scoring", base.scoring)
    betting_on = opts.get("betting", base.betting) != "none"
    if scoring == "forfeit":
        modes = ["weakest", "all_but_winner"] + (["most_chips_lost"] if betting_on else [])
        opts.update(forfeit_mode=draw(st.sampled_from(modes)),
                    forfeit_tie=draw(st.sampled_from(["replay", "all_lose"])),
                    game_end=draw(st.sampled_from(["first_out", "last_standing"])),
                    sit_out=draw(st.booleans()), tokens=draw(st.sampled_from([5, 7])))
    if draw_variant:
        opts.update(max_draw=draw(st.integers(0, 5)), suit_tiebreak=draw(st.booleans()))
    else:
        opts.update(claim_match_card=draw(st.booleans()),
                    actives_match_each_other=draw(st.booleans()),
                    stock_to_active=draw(st.booleans()),
                    reshuffle_discards_once=draw(st.booleans()),
                    jokers_at_end=draw(st.sampled_from(["wild", "removed"])),
                    five_of_a_kind=draw(st.sampled_from(["high", "as_four"])))
    opts["suit_order"] = draw(st.sampled_from(["drawn", "SHDC", "CDHS"]))
    if scoring == "chips" and not betting_on:
        opts["ante"] = max(1, opts["ante"])
    rules = base.replace(**opts)
    seed = draw(st.integers(0, 2 ** 32 - 1))
    leave = draw(st.sampled_from([0.0, 0.0, 0.003, 0.03]))
    return rules, n, seed, leave


def new_table(rules: RuleSet, n: int, seed: int) -> GameState:
    return new_game(rules, [f"P{i}" for i in range(n)], seed=seed)


def assert_sound(state: GameState) -> None:
    problems = check_invariants(state)
    assert not problems, problems
    assert all(s.chips >= 0 and s.contributed >= 0 and s.tokens >= 0 for s in state.seats)
    if state.rules.uses_chips:
        assert state.chips_in_play() == state.total_chips
    if state.decks:
        assert sum(card_zones(state).values()) == len(make_shoe(
            state.decks, jokers=state.rules.variant == "roulette"))


def clone(state: GameState) -> GameState:
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


# -- random legal play ------------------------------------------------------------------


@PROPERTY
@given(tables())
def test_random_legal_play_conserves_cards_and_chips_and_ends(table):
    rules, n, seed, leave = table
    state = new_table(rules, n, seed)
    rng = random.Random(seed)
    for step in range(MAX_STEPS):
        if state.game_over:
            break
        seat = None if dealer_to_act(state) else state.to_act
        legal = legal_actions(state, seat)
        assert legal, f"nobody can move in phase {state.phase}"
        for a in legal:
            check(state, a)  # every listed action is legal
        if step % 11 == 0:  # ... and applies
            for a in legal:
                copy = clone(state)
                apply(copy, a)
                assert_sound(copy)
        action = random_action(state, rng, leave_chance=leave)
        apply(state, action)
        assert_sound(state)
    assert state.game_over, "the game did not end"
    for seat in range(n):
        assert legal_actions(state, seat) == []


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(tables(bounded=False))
def test_games_without_a_hand_limit_end(table):
    rules, n, seed, leave = table
    rules = rules.replace(starting_chips=min(rules.starting_chips, 5), tokens=5)
    n = min(n, 4)
    state = new_table(rules, n, seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if state.game_over:
            break
        apply(state, random_action(state, rng, leave_chance=leave))
    assert state.game_over


# -- illegal actions ----------------------------------------------------------------------


def random_intent(state: GameState, rng: random.Random):
    """Anything at all: wrong seats, wrong phases, silly amounts and indices."""
    seat = rng.choice([None, -1, state.n, state.n + 3, *range(state.n)])
    amount = rng.choice([-5, -1, 0, 1, 2, 3, 7, 50, 10 ** 9])
    kind = rng.randrange(12)
    if kind == 0:
        return StartHand(seat=seat)
    if kind == 1:
        return Advance(seat=seat)
    if kind == 2:
        return Check(seat=seat)
    if kind == 3:
        return Call(seat=seat)
    if kind == 4:
        return Fold(seat=seat)
    if kind == 5:
        return AllIn(seat=seat)
    if kind == 6:
        return PlaceBet(seat=seat, amount=amount)
    if kind == 7:
        return RaiseTo(seat=seat, amount=amount)
    if kind == 8:
        return MoveStockToActive(seat=seat, index=rng.choice([None, -1, 0, 1, 5, 99]))
    if kind == 9:
        return Cut(seat=seat, position=rng.choice([-1, 0, 1, 26, 51, 52, 1000]))
    if kind == 10:
        return Discard(seat=seat, indices=tuple(rng.choice([-1, 0, 1, 4, 5, 9])
                                                for _ in range(rng.randrange(7))))
    return Leave(seat=seat)


@PROPERTY
@given(tables())
def test_illegal_actions_are_refused_and_change_nothing(table):
    rules, n, seed, leave = table
    state = new_table(rules, n, seed)
    rng = random.Random(seed ^ 0x5EED)
    refused = 0
    for step in range(MAX_STEPS):
        if state.game_over:
            break
        if step % 3 == 0:
            before = json.dumps(state.to_dict(), sort_keys=True)
            for _ in range(6):
                intent = random_intent(state, rng)
                if isinstance(intent, Leave):
                    continue
                try:
                    check(state, intent)
                except IllegalAction as exc:
                    assert str(exc)
                    with pytest.raises(IllegalAction):
                        apply(state, intent)
                    refused += 1
            assert json.dumps(state.to_dict(), sort_keys=True) == before
        apply(state, random_action(state, rng, leave_chance=leave))
    assert state.game_over
    for intent in (Check(seat=0), StartHand(), Leave(seat=0)):
        with pytest.raises(IllegalAction, match="over"):
            apply(state, intent)
    assert refused > 0


def test_actions_for_a_finished_or_left_seat_are_refused():
    g = game(3)
    apply(g, StartHand())
    apply(g, Advance())
    apply(g, Leave(seat=1))
    with pytest.raises(IllegalAction):
        apply(g, Check(seat=1))
    with pytest.raises(IllegalAction):
        apply(g, Leave(seat=1))


# -- the invariant checks catch a broken engine ---------------------------------------


def dealt_game() -> GameState:
    g = game(4)
    apply(g, StartHand())
    assert check_invariants(g) == []
    return g


def test_invariants_catch_a_duplicated_card():
    g = dealt_game()
    g.deck.append(g.seats[0].stock[0])
    assert any("cards not conserved" in p for p in check_invariants(g))


def test_invariants_catch_a_lost_card():
    g = dealt_game()
    g.seats[2].actives.pop()
    assert any("missing" in p for p in check_invariants(g))


def test_invariants_catch_a_card_swapped_for_another():
    g = dealt_game()
    card = g.deck.pop()
    g.deck.append(JOKER if card != JOKER else make_shoe(1)[0])
    assert any("cards not conserved" in p for p in check_invariants(g))


def test_invariants_catch_a_created_chip():
    g = dealt_game()
    g.seats[1].chips += 1
    assert any("chips not conserved" in p for p in check_invariants(g))


def test_invariants_catch_a_negative_stack_and_flags_out_of_step():
    g = dealt_game()
    g.seats[1].chips -= 200
    g.seats[2].contributed += 200
    assert any("negative" in p for p in check_invariants(g))
    g = dealt_game()
    g.discards_public.append(True)
    g.seats[0].stock_public.append(True)
    problems = check_invariants(g)
    assert any("discard flags" in p for p in problems) and any("stock flags" in p for p in problems)


def test_invariants_catch_two_private_stock_cards_and_folded_holding_cards():
    g = dealt_game()
    g.seats[0].stock.append(g.deck.pop())
    g.seats[0].stock_public.append(False)
    g.seats[1].folded = True
    problems = check_invariants(g)
    assert any("more than one private" in p for p in problems)
    assert any("folded but holds cards" in p for p in problems)


def test_invariants_catch_a_stuck_phase():
    g = dealt_game()
    apply(g, Advance())
    assert g.phase == "betting"
    g.to_act = None
    assert check_invariants(g)


def _play_with_simulate() -> list[str]:
    rec = simulate.play_game(RuleSet(starting_chips=20), 4, seed=3, max_hands=5)
    return rec.violations


def test_invariants_catch_a_broken_apply_that_creates_chips(monkeypatch):
    assert _play_with_simulate() == []
    real = betting.apply_bet

    def broken(state, action, name):
        events = real(state, action, name)
        state.seats[action.seat].chips += 1
        return events

    monkeypatch.setattr(betting, "apply_bet", broken)
    assert any("chips not conserved" in v for v in _play_with_simulate())


def test_invariants_catch_a_broken_apply_that_loses_a_card(monkeypatch):
    real = roulette.cleanup

    def broken(state):
        events = real(state)
        if state.deck:
            state.deck.pop()
        return events

    monkeypatch.setattr(roulette, "cleanup", broken)
    assert any("cards not conserved" in v for v in _play_with_simulate())


def test_invariants_catch_a_broken_deal_that_duplicates_cards(monkeypatch):
    real = roulette.deal

    def broken(state):
        events = real(state)
        state.seats[0].stock.append(state.seats[1].stock[0])
        state.seats[0].stock_public.append(True)
        return events

    monkeypatch.setattr(roulette, "deal", broken)
    assert any("extra" in v for v in _play_with_simulate())


def test_card_zones_counts_every_zone():
    g = dealt_game()
    zones = card_zones(g)
    assert zones == Counter(make_shoe(g.decks))


def _sweep_rules(rng: random.Random) -> tuple[RuleSet, int]:
    name = rng.choice(list(PRESETS))
    base = PRESETS[name]
    draw_variant = base.variant == "draw"
    opts: dict = {"min_players": 2, "starting_chips": rng.choice([5, 20, 100]),
                  "ante": rng.choice([0, 1, 2]), "hand_limit": rng.choice([0, 3, 6])}
    if rng.random() < 0.6:
        opts.update(betting=rng.choice(["none", "each_round"] + ([] if draw_variant else ["final_only"])),
                    limit=rng.choice(["no_limit", "fixed"]), scoring=rng.choice(["chips", "forfeit"]),
                    forfeit_mode=rng.choice(["weakest", "all_but_winner", "most_chips_lost"]),
                    forfeit_tie=rng.choice(["replay", "all_lose"]),
                    game_end=rng.choice(["first_out", "last_standing"]), sit_out=rng.random() < 0.5)
        if opts["betting"] == "none":
            if opts["forfeit_mode"] == "most_chips_lost":
                opts["forfeit_mode"] = "weakest"
            if opts["scoring"] == "chips":
                opts["ante"] = max(1, opts["ante"])
        if not draw_variant:
            opts.update(claim_match_card=rng.random() < 0.5,
                        actives_match_each_other=rng.random() < 0.3,
                        stock_to_active=rng.random() < 0.5,
                        reshuffle_discards_once=rng.random() < 0.5)
    elif base.scoring == "chips" and base.betting == "none":
        opts["ante"] = max(1, opts["ante"])
    if opts["hand_limit"] == 0:
        opts["starting_chips"] = min(opts["starting_chips"], 20)
    return base.replace(**opts), rng.randint(2, 7 if draw_variant else 12)


@pytest.mark.parametrize("block", range(6))
def test_seeded_sweep_of_random_games_keeps_every_invariant(block):
    """150 seeded games with random options and leavers: a broad, reproducible sweep."""
    for seed in range(block * 25, block * 25 + 25):
        rng = random.Random(seed)
        rules, n = _sweep_rules(rng)
        state = new_table(rules, n, seed)
        for _ in range(MAX_STEPS):
            if state.game_over:
                break
            apply(state, random_action(state, rng, leave_chance=0.01))
            problems = check_invariants(state)
            assert not problems, (seed, rules, problems)
        assert state.game_over, (seed, rules)
