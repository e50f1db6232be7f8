"""Bot levels: seeded self-play is always legal, clear spots get the obvious decision, bots
read only their SeatView, and the strong (Monte Carlo) level beats the rule-of-thumb one."""

from __future__ import annotations

import ast
import functools
import random
import statistics
from collections import Counter
from pathlib import Path

import pytest

from conftest import C, deal_draw, dealer, game, play, roulette_to_showdown, step_passive
from pokeroulette_tui import bots
from pokeroulette_tui.bots import LEVELS, make_bot
from pokeroulette_tui.bots.common import draw_discards, unknown_cards
from pokeroulette_tui.bots.draw_mc import draw_equities
from pokeroulette_tui.bots.equity import small_strength
from pokeroulette_tui.bots.roulette_mc import _NO_CARD, _flags, roulette_equities
from pokeroulette_tui.bots.reads import Reads
from pokeroulette_tui.bots.simple import SimpleBot
from pokeroulette_tui.bots.strong import StrongBot
from pokeroulette_tui.bots.trivial import TRIVIAL, make_trivial
from pokeroulette_tui.engine.actions import (AllIn, Call, Check, Discard, Fold, PlaceBet, RaiseTo)
from pokeroulette_tui.engine.cards import make_shoe
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.hands import strength
from pokeroulette_tui.engine.matching import resolve
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.state import GameState
from pokeroulette_tui.engine.view import SeatView, view_for
from pokeroulette_tui.simulate import play_game

ROULETTE_RULES = [
    RuleSet(),
    PRESETS["swedish"],
    PRESETS["pagat"],
    RuleSet(limit="fixed", claim_match_card=False),
    RuleSet(betting="final_only", five_of_a_kind="as_four", jokers_at_end="removed"),
    RuleSet(betting="none", scoring="forfeit", stock_to_active=True),
    RuleSet(scoring="forfeit", forfeit_mode="all_but_winner", actives_match_each_other=True),
    RuleSet(scoring="forfeit", forfeit_mode="most_chips_lost", game_end="last_standing",
            sit_out=True, stock_to_active=True),
    RuleSet(starting_chips=12, ante=2, stock_to_active=True, reshuffle_discards_once=True),
    RuleSet(min_players=2, suit_order="CDHS"),
]
DRAW_RULES = [
    PRESETS["draw"],
    RuleSet(variant="draw", min_players=2),
    RuleSet(variant="draw", min_players=2, limit="fixed", suit_tiebreak=True),
    RuleSet(variant="draw", min_players=2, max_draw=5, starting_chips=15),
    PRESETS["draw"].replace(max_draw=1, forfeit_tie="all_lose", game_end="last_standing",
                            sit_out=True),
    RuleSet(variant="draw", min_players=2, scoring="forfeit", forfeit_mode="most_chips_lost"),
    RuleSet(variant="draw", min_players=2, scoring="forfeit", forfeit_mode="all_but_winner",
            max_draw=0),
]


@pytest.fixture
def quick_strong(monkeypatch):
    """The strong level with a handful of playouts a decision: same code, test-sized work."""
    monkeypatch.setitem(LEVELS, "strong", functools.partial(StrongBot, samples=3))


def _table(variant: str, seed: int) -> tuple[RuleSet, int]:
    rules_list = ROULETTE_RULES if variant == "roulette" else DRAW_RULES
    rules = rules_list[seed % len(rules_list)]
    low = max(rules.min_players, 2)
    players = low + (seed // len(rules_list)) % (7 - low + 1)  # 2..7 seats (two decks from 6)
    return rules, players


def _levels(level: str, seed: int, players: int) -> list[str]:
    if seed % 3:
        return [level] * players
    mix = [level, "simple", "random", "strong"]
    return [mix[i % len(mix)] for i in range(players)]


# -- self-play: hundreds of seeded games, every action applied by the engine --------------

SELF_PLAY = {  # (level, variant): (games, hands per game)
    ("random", "roulette"): (100, 2), ("random", "draw"): (120, 3),
    ("simple", "roulette"): (100, 2), ("simple", "draw"): (120, 3),
    ("strong", "roulette"): (80, 1), ("strong", "draw"): (100, 2),
}


@pytest.mark.parametrize("level,variant", list(SELF_PLAY))
def test_self_play_is_legal_and_keeps_the_invariants(level, variant, quick_strong):
    games, hands = SELF_PLAY[level, variant]
    played = Counter()
    for seed in range(games):
        rules, players = _table(variant, seed)
        # play_game applies every action with engine.apply (an illegal one raises) and
        # checks the invariants after each
        rec = play_game(rules, players, seed, levels=_levels(level, seed, players),
                        max_hands=hands, check=True, record=True)
        assert not rec.violations, rec.violations
        assert rec.hands >= 1 and rec.reason
        played.update(a.kind for a in rec.actions if a.seat is not None)
    if variant == "roulette":
        assert played["stock_to_active"] and (played["bet"] or played["raise"])
    else:
        assert played["discard"] and played["cut"] and played["bet"]


class CountingSimple(SimpleBot):
    """A simple bot that checks, at every decision, that what it cannot see adds up."""

    def choose(self, view: SeatView | None, legal):
        hidden = sum(c is None for p in view.players for c in p.stock + p.actives + p.hand)
        hidden += sum(c is None for c in view.discards)
        assert len(unknown_cards(view)) == view.deck_count + hidden
        return super().choose(view, legal)


@pytest.mark.parametrize("variant", ["roulette", "draw"])
def test_unseen_cards_are_the_shoe_minus_everything_in_view(variant, monkeypatch):
    monkeypatch.setitem(LEVELS, "simple", CountingSimple)
    for seed in range(30):
        rules, players = _table(variant, seed)
        rec = play_game(rules, players, seed, levels=["simple"] * players, max_hands=2)
        assert not rec.violations


def test_levels_and_factory():
    assert list(LEVELS) == ["random", "simple", "strong"]
    for level in LEVELS:
        bot = make_bot(level, random.Random(1))
        assert bot.level == level and bot.needs_view == (level != "random")
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("genius")


# -- clear spots ---------------------------------------------------------------------------

def _draw_spot(hands: dict[int, str], *, n: int = 3, **opts) -> tuple[GameState, list[int]]:
    """A draw hand dealt as asked; returns the state and the seats from the dealer's left."""
    g = game(n, variant="draw", min_players=2, **opts)
    order = [(g.button + 1 + k) % n for k in range(1, n + 1)]  # next hand's order
    deal_draw(g, {order[k]: text for k, text in hands.items()})
    return g, g.live_seats()


def _to_post_draw_bet(g: GameState, bet: int) -> int:
    """Everyone checks and stands pat; the first to act after the draw bets ``bet``."""
    while not (g.phase == "betting" and g.betting_round == "post_draw"):
        step_passive(g)
    first = g.to_act
    play(g, PlaceBet(seat=first, amount=bet))
    return g.to_act


def _decide(bot, g: GameState):
    seat = g.to_act
    return bot.choose(view_for(g, seat), legal_actions(g, seat))


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_folds_trash_facing_a_big_bet(level):
    g, order = _draw_spot({0: "As Ks Qs Js Ts", 1: "2c 4d 7h 9s Jc"})
    me = _to_post_draw_bet(g, 20)
    assert me == order[1]
    assert isinstance(_decide(make_bot(level, random.Random(3)), g), Fold)


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_raises_quads_before_the_draw(level):
    g, order = _draw_spot({0: "2c 4d 7h 8s Jc", 1: "9s 9h 9d 9c 2h"}, n=2)
    # heads-up, the button acts last: seat order[0] opens with a bet, quads raise
    play(g, PlaceBet(seat=g.to_act, amount=4))
    assert g.to_act == order[1]
    action = _decide(make_bot(level, random.Random(3)), g)
    assert isinstance(action, (RaiseTo, AllIn))
    if isinstance(action, RaiseTo):
        o = view_for(g, order[1]).options
        assert o.raise_min <= action.amount <= o.raise_max


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_bets_a_made_hand_and_checks_nothing(level):
    g, order = _draw_spot({0: "Kh Kd Kc 4s 4d", 1: "2c 3d 8h 9s Jc"}, n=2)
    while not (g.phase == "betting" and g.betting_round == "post_draw"):
        step_passive(g)
    assert g.to_act == order[0]
    bot = make_bot(level, random.Random(3))
    assert isinstance(_decide(bot, g), PlaceBet)


def test_standard_draw():
    assert draw_discards(C("7s 7h Kd 4c 2s")) == (2, 3, 4)      # a pair: draw three
    assert draw_discards(C("Ks Kh Kd 4c 2s")) == (3, 4)         # trips: draw two
    assert draw_discards(C("Ks Kh 4d 4c 2s")) == (4,)           # two pair: draw one
    assert draw_discards(C("9s 8s 3s 2s Kd")) == (4,)           # four to a flush
    assert draw_discards(C("9s 8h 7d 6c Kd")) == (4,)           # open-ended straight
    assert draw_discards(C("Ah Kh Qd Jc 3s")) == (2, 3, 4)      # one-ended: keep two high
    assert draw_discards(C("9s 8s 7s 6s 5s")) == ()             # pat
    assert draw_discards(C("7s 7h Kd 4c 2s"), max_draw=2) == (3, 4)
    assert draw_discards(C("7s 7h Kd 4c 2s"), max_draw=0) == ()


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_draw_keeps_a_pair(level):
    g, order = _draw_spot({0: "7s 7h Kd 4c 2s"}, n=3)
    while g.phase != "draw":
        step_passive(g)
    assert g.to_act == order[0]
    action = _decide(make_bot(level, random.Random(5)), g)
    assert isinstance(action, Discard)
    assert 0 not in action.indices and 1 not in action.indices
    if level == "simple":
        assert action.indices == (2, 3, 4)


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_forfeit_scoring_never_folds_a_token_away(level):
    g, order = _draw_spot({0: "As Ks Qs Js Ts", 1: "2c 4d 7h 9s Jc"}, scoring="forfeit",
                          betting="each_round")
    _to_post_draw_bet(g, 20)
    action = _decide(make_bot(level, random.Random(3)), g)
    assert isinstance(action, (Call, AllIn))


def _roulette_final(stocks: dict[int, str], n: int = 3, **opts) -> GameState:
    """A roulette hand at its final betting round with the stocks given (first card private)."""
    g = game(n, **opts)
    dealer(g)
    roulette_to_showdown(g, stocks)
    assert g.phase == "betting" and g.betting_round == "final"
    return g


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_roulette_bets_four_of_a_kind_at_the_end(level):
    g = _roulette_final({0: "2c 5d Th", 1: "9s 9h 9d 9c Kd", 2: "3c 4d Jh"})
    while g.to_act != 1:
        play(g, Check(seat=g.to_act))
    assert isinstance(_decide(make_bot(level, random.Random(2)), g), PlaceBet)


@pytest.mark.parametrize("level", ["simple", "strong"])
def test_roulette_folds_the_worst_stock_to_a_big_bet(level):
    g = _roulette_final({0: "Kc As Ah Ad", 1: "2c 3d", 2: "4c 6d 8h"})
    while g.to_act != 0:
        play(g, Check(seat=g.to_act))
    play(g, PlaceBet(seat=0, amount=40))
    while g.to_act != 1:
        play(g, Fold(seat=g.to_act))
    assert isinstance(_decide(make_bot(level, random.Random(2)), g), Fold)


def test_simple_moves_a_lone_low_stock_card():
    from pokeroulette_tui.bots.simple import card_to_move
    assert card_to_move(C("4c")) == 0
    assert card_to_move(C("Ah")) is None
    assert card_to_move(C("9s 9h 3d Qc")) == 2
    assert card_to_move(C("2h 5h 9h")) is None  # three to a flush: keep them
    assert card_to_move(C("*")) is None


# -- equity sanity ---------------------------------------------------------------------------

def test_equity_of_a_sure_winner_and_a_sure_loser():
    g = _roulette_final({0: "Kc As Ah Ad", 1: "2c 3d", 2: "4c 6d 8h"})
    rng = random.Random(1)
    best = roulette_equities(view_for(g, 0), rng, 100)[0]
    worst = roulette_equities(view_for(g, 1), rng, 100)[0]
    assert best.win == 1.0 and best.last == 0.0
    assert worst.win == 0.0 and worst.last == 1.0


def test_draw_equity_follows_the_cards():
    g, order = _draw_spot({0: "As Ks Qs Js Ts", 1: "2c 4d 7h 9s Jc"})
    while g.phase != "draw":
        step_passive(g)
    royal = draw_equities(view_for(g, order[0]), random.Random(1), 200)[0]
    assert royal.win == 1.0
    trash = draw_equities(view_for(g, order[1]), random.Random(1), 200)[0]
    assert trash.win < 0.3 < trash.last


def test_fast_paths_agree_with_the_engine():
    rng = random.Random(11)
    shoe = make_shoe(2, jokers=False)
    for _ in range(3000):  # small stocks by rank counting
        cards = rng.sample(shoe, rng.randint(0, 4))
        assert small_strength([c.index for c in cards]) == strength(cards)
    shoe = make_shoe(2)
    for flags in ((True, False), (False, False), (True, True), (False, True)):
        rules = RuleSet(claim_match_card=flags[0], actives_match_each_other=flags[1])
        table: dict = {}
        for _ in range(3000):  # matching answered by the shape of the question
            actives = rng.sample(shoe, rng.choice((1, 2)))
            match = rng.choice(shoe)
            b = actives[1].index if len(actives) == 2 else _NO_CARD
            add_a, add_b, claims = _flags(table, rules, match.index << 12
                                          | actives[0].index << 6 | b)
            o = resolve(actives, match, rules)
            kept = [c for c, f in zip(actives, (add_a, add_b)) if f]
            assert Counter(kept) == Counter(o.added)
            assert claims == o.claims_match


# -- the strong bot reads only its view ------------------------------------------------------

def test_bots_never_import_the_game_state():
    root = Path(bots.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert not name.startswith(("pokeroulette_tui.engine.state",
                                            "pokeroulette_tui.engine.game")), (path.name, name)


def _swap_hidden(g: GameState, seat: int) -> GameState:
    """A copy of ``g`` that differs only in cards ``seat`` cannot see: another player's
    private stock card changes places with a card deep in the deck."""
    h = GameState.from_dict(g.to_dict())
    other = next(i for i in range(h.n) if i != seat and h.seats[i].stock and h.seats[i].live)
    k = next(k for k, c in enumerate(h.deck) if c != h.seats[other].stock[0])
    h.seats[other].stock[0], h.deck[k] = h.deck[k], h.seats[other].stock[0]
    return h


@pytest.mark.parametrize("preset", ["classic", "swedish"])
def test_strong_decides_from_the_view_alone(preset):
    g = game(4, preset=preset)
    rng = random.Random(4)
    decisions = 0
    while decisions < 6 and not g.game_over:
        if g.phase not in ("betting", "stock_to_active"):
            step_passive(g)
            continue
        seat = g.to_act
        twin = _swap_hidden(g, seat)
        view = view_for(g, seat)
        assert view.to_dict() == view_for(twin, seat).to_dict()  # the same sight
        wire = SeatView.from_dict(view.to_dict())  # no object shared with any state
        legal = legal_actions(g, seat)
        choices = {repr(StrongBot(random.Random(9)).choose(v, legal)) for v in (view, wire)}
        choices.add(repr(StrongBot(random.Random(9)).choose(view_for(twin, seat), legal)))
        assert len(choices) == 1, choices
        play(g, StrongBot(rng).choose(view, legal))
        decisions += 1
    assert decisions == 6


# -- strong beats rule-of-thumb ---------------------------------------------------------------

def _head_to_head(rules: RuleSet, players: int, seeds: range,
                  hands: int) -> tuple[list[float], int]:
    """Strong and simple in alternating seats (S s S, then s S s): per game, the mean
    final chips of a strong seat minus those of a simple seat; and games strong led."""
    diffs, led = [], 0
    for g in seeds:
        pair = ("strong", "simple") if g % 2 == 0 else ("simple", "strong")
        levels = [pair[i % 2] for i in range(players)]
        rec = play_game(rules, players, g, levels=levels, max_hands=hands)
        assert not rec.violations
        chips = {"strong": [], "simple": []}
        for row in rec.standings:
            chips[levels[row["seat"]]].append(row["chips"])
        diffs.append(statistics.fmean(chips["strong"]) - statistics.fmean(chips["simple"]))
        led += levels[rec.standings[0]["seat"]] == "strong"
    return diffs, led


def test_strong_beats_rule_of_thumb(monkeypatch):
    """Poker Roulette, 3 seats, 48 seeded games of 6 hands, 24 playouts a decision: measured,
    strong seats end 27 chips (of 100) ahead of simple seats on average (standard error 15)
    and lead 32 of the 48 games. (Before each_round betting lost its repeated final round,
    which moved more chips, 16 games gave 71 ahead; the same 16 now give 23.)
    benchmarks/bench_bots.py shows it at full strength."""
    monkeypatch.setitem(LEVELS, "strong", functools.partial(StrongBot, samples=24))
    diffs, led = _head_to_head(RuleSet(), 3, range(7000, 7048), hands=6)
    assert statistics.fmean(diffs) > 10
    assert led >= 30


# -- trivial strategies cannot exploit the levels ------------------------------------------------

def _versus(rules: RuleSet, make_level, strategy: str, seeds: range, hands: int) -> dict:
    """A level (two seats) against a trivial strategy (two seats) in four, alternating (the
    level in the even seats on even seeds): its share of the games won (most chips), its
    chips gained a seat, and how often it folded facing a bet the strategy made."""
    wins = gain = 0.0
    faced = folds = 0
    for seed in seeds:
        mine = {i for i in range(4) if i % 2 == seed % 2}
        g = new_game(rules, list(NAMES_4), seed=seed, bots=[True] * 4)
        bots = [make_level(random.Random(seed * 10 + i)) if i in mine
                else make_trivial(strategy, random.Random(seed * 10 + i)) for i in range(4)]
        while not g.game_over and not (g.hand_no >= hands
                                       and g.phase in ("waiting", "hand_over")):
            if dealer_to_act(g):
                apply(g, legal_actions(g, None)[0])
                continue
            seat = g.to_act
            view = view_for(g, seat)
            action = bots[seat].choose(view, legal_actions(g, seat))
            if seat in mine and view.phase == "betting" and view.current_bet > view.me.bet and any(
                    view.players[o].bet == view.current_bet for o in range(4) if o not in mine):
                faced += 1
                folds += isinstance(action, Fold)
            apply(g, action)
        chips = [s.chips + s.contributed for s in g.seats]
        top = [i for i in range(4) if chips[i] == max(chips)]
        wins += len(mine.intersection(top)) / len(top)
        gain += sum(chips[i] - rules.starting_chips for i in mine) / 2
    return {"wins": wins / len(seeds), "gain": gain / len(seeds), "fold_rate": folds / faced}


NAMES_4 = ("Ana", "Bo", "Cy", "Di")


def test_trivial_strategies_keep_their_habits():
    for name in TRIVIAL:
        g = new_game(RuleSet(variant="draw", min_players=2), list(NAMES_4), seed=3, bots=[True] * 4)
        bots = [make_trivial(name, random.Random(i)) for i in range(4)]
        seen = Counter()
        while g.hand_no < 3 and not g.game_over:
            if dealer_to_act(g):
                apply(g, legal_actions(g, None)[0])
                continue
            seat = g.to_act
            view = view_for(g, seat)
            action = bots[seat].choose(view, legal_actions(g, seat))
            seen[type(action).__name__] += 1
            if isinstance(action, Discard):
                want = {"always-stand-pat": 0, "always-draw-three": 3}
                assert len(action.indices) == want.get(name, len(action.indices))
            if isinstance(action, (RaiseTo, PlaceBet)) and name == "always-raise":
                o = view.options
                assert action.amount == (o.raise_max if isinstance(action, RaiseTo) else o.bet_max)
            if name in ("always-call", "always-draw-three", "always-raise",
                        "always-stand-pat"):
                assert not isinstance(action, Fold), (name, view.options)
            if name in ("always-call", "always-draw-three", "tight"):
                assert not isinstance(action, (PlaceBet, RaiseTo)), name
            apply(g, action)
        assert seen["Discard"], name
    assert "tight" not in LEVELS and "always-raise" not in LEVELS  # not player-facing


def test_reads_learn_habits_from_views_alone():
    """A seat that puts chips in every hand and always stands pat is read as loose, and its
    pat as rarely a made hand; ordinary seats are not."""
    rules = RuleSet(variant="draw", min_players=2)
    g = new_game(rules, list(NAMES_4), seed=5, bots=[True] * 4)
    bots = [make_trivial("always-stand-pat", random.Random(0))] + [
        SimpleBot(random.Random(i)) for i in range(1, 4)]
    while g.hand_no < 12 and not g.game_over:
        if dealer_to_act(g):
            apply(g, legal_actions(g, None)[0])
            continue
        seat = g.to_act
        apply(g, bots[seat].choose(view_for(g, seat), legal_actions(g, seat)))
    reads: Reads = bots[1].reads
    assert reads.looseness(0) > 0.5 and reads.made_pat(0) < 0.2
    assert reads.looseness(2) == 0.0 and reads.made_pat(2) > 0.5


def test_simple_calls_an_always_raise_bot_down():
    """Issue 10: simple folded 97% of the time an always-raise bot bet into it and lost 72% of
    these 40 seeded Poker Roulette games (12 hands, 4 seats). Measured now: it folds 75%
    (the rest it calls with any hand ahead of the table, or a pair) and the always-raise
    seats win 47.5% of the games (fair share 50%)."""
    r = _versus(RuleSet(), SimpleBot, "always-raise", range(40), hands=12)
    assert r["fold_rate"] <= 0.85
    assert r["wins"] >= 0.40  # the level's share: the raiser wins at most 60%


def test_strong_sees_through_an_always_stand_pat_bettor():
    """Issue 10: strong folded most of the time a seat that always stands pat bet into it.
    Draw with chips, 16 seeded games of 12 hands, 4 seats, 40 playouts a decision: before
    the reads, strong folded 80% facing those bets, won 31% of the games and gained +0.7
    chips a seat; measured now: folds 65%, wins 56%, +41.5 chips a seat."""
    r = _versus(RuleSet(variant="draw", min_players=2),
                functools.partial(StrongBot, samples=40), "always-stand-pat", range(16), hands=12)
    assert r["fold_rate"] <= 0.72
    assert r["gain"] >= 15
    assert r["wins"] >= 0.45
