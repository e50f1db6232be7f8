"""Types for facts: the phase enum, one class per kind of event, the engine's hand result
(and the showdown screen showing it as given, never ranking hands itself)."""

from __future__ import annotations

import inspect
import json
import random
from dataclasses import replace

import pytest
from textual.app import App

from conftest import C, game, random_game
from pokeroulette_tui.engine.events import KINDS, CardsMatched, Event, Folded, StockDealt
from pokeroulette_tui.engine.game import apply, legal_actions, new_game
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.save import dumps, loads
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.state import GameState
from pokeroulette_tui.engine.view import SeatView, view_for
from pokeroulette_tui.ui.screens import showdown
from pokeroulette_tui.ui.screens.showdown import ShowdownScreen, result_text

# the kinds docs/PROTOCOL.md §10 lists: the wire names, unchanged
WIRE_KINDS = {"hand_started", "ante", "shuffle", "stock_dealt", "actives_dealt", "match_card",
              "matched", "betting", "check", "call", "bet", "raise", "fold", "all_in",
              "new_actives", "stock_kept", "stock_to_active", "reshuffle", "matching_over", "cut",
              "hand_dealt", "draw", "drew", "show", "pot_won", "token_lost", "out", "sit_out",
              "decider", "hand_over", "game_over", "left", "suit_order", "returned"}

RULES = [RuleSet(), RuleSet(betting="none", stock_to_active=True), PRESETS["draw"],
         RuleSet(variant="draw", betting="each_round", suit_tiebreak=True, min_players=2),
         RuleSet(betting="none", scoring="forfeit", jokers_at_end="removed")]


def played(rules: RuleSet, seed: int, n: int = 3):
    """A whole random game: the final state and every event in order."""
    state = new_game(rules.replace(hand_limit=12), [f"P{i}" for i in range(n)], seed=seed)
    events = [e for _, ev in random_game(state, random.Random(seed), leave_chance=0.01)
              for e in ev]
    return state, events


# -- events -------------------------------------------------------------------------------

def test_one_class_per_wire_kind():
    assert set(KINDS) == WIRE_KINDS
    assert all(cls.kind == kind and issubclass(cls, Event) for kind, cls in KINDS.items())
    assert len(set(KINDS.values())) == len(KINDS)


@pytest.mark.parametrize("kind", sorted(WIRE_KINDS))
def test_every_event_class_round_trips_and_redacts_to_itself(kind):
    cls = KINDS[kind]
    e = cls("Ana gets 7♥", seat=0, cards=tuple(C("7h *")), amount=2, private=True,
            public_text="Ana gets a card", hand_no=4)
    data = e.to_dict()
    assert list(data) == ["kind", "text", "seat", "cards", "amount", "private", "public_text",
                          "hand_no"]
    assert data["kind"] == kind and data["cards"] == ["7h", "*"]
    back = Event.from_dict(json.loads(json.dumps(data)))
    assert type(back) is cls and back == e and back.to_dict() == data
    hidden = e.redacted_for(1)
    assert type(hidden) is cls and hidden.kind == kind
    assert hidden.cards == (None, None) and hidden.text == "Ana gets a card"
    assert Event.from_dict(hidden.to_dict()) == hidden
    assert e.redacted_for(0) is e and e.redacted_for(None).cards == (None, None)


def test_the_wire_form_is_byte_for_byte_the_old_one():
    line = ('{"kind": "matched", "text": "Bo turns 9♠ 6♥: 9♠ matched by suit", "seat": 1, '
            '"cards": ["9s", "6h"], "amount": 1, "private": false, "public_text": "", '
            '"hand_no": 3}')  # docs/PROTOCOL.md §10
    e = Event.from_dict(json.loads(line))
    assert isinstance(e, CardsMatched) and e.added == tuple(C("9s")) and e.discarded == tuple(C("6h"))
    assert json.dumps(e.to_dict(), ensure_ascii=False) == line


def test_untyped_and_unknown_events_still_work():
    assert Event("fold", "Bo folds", seat=1).to_dict() == Folded("Bo folds", seat=1).to_dict()
    odd = Event.from_dict({"kind": "juggles", "text": "Bo juggles"})
    assert type(odd) is Event and odd.kind == "juggles" and odd.to_dict()["text"] == "Bo juggles"


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_the_engine_makes_only_typed_events(rules):
    _, events = played(rules, seed=5)
    assert events and all(type(e) is not Event for e in events)
    for e in events:
        back = Event.from_dict(json.loads(json.dumps(e.to_dict())))
        assert type(back) is type(e) and back == e
        assert type(e.redacted_for(None)) is type(e)


# -- the phase ------------------------------------------------------------------------------

def test_phase_equals_and_serialises_as_its_name():
    for phase in Phase:
        assert phase == phase.value and str(phase) == phase.value and f"{phase}" == phase.value
        assert json.dumps(phase) == f'"{phase.value}"' and {phase.value: 1}[phase] == 1
        assert Phase.parse(phase.value) is phase
    with pytest.raises(ValueError, match="unknown phase 'dancing'"):
        Phase.parse("dancing")


def test_states_and_views_carry_phases_through_json():
    g = game(3, betting="none")
    assert g.phase is Phase.WAITING
    apply(g, legal_actions(g, None)[0])
    assert g.phase is Phase.DEALT
    text = dumps(g)
    assert '"phase":"dealt"' in text
    assert loads(text).state.phase is Phase.DEALT
    view = SeatView.from_dict(json.loads(json.dumps(view_for(g, 0).to_dict())))
    assert view.phase is Phase.DEALT and view == view_for(g, 0)


# -- the hand's result ------------------------------------------------------------------------

def _results(rules: RuleSet, seed: int) -> list[HandResult]:
    """The result of every hand of a random game."""
    state = new_game(rules.replace(hand_limit=12), ["Ana", "Bo", "Cy", "Di"], seed=seed)
    out = []
    for _ in random_game(state, random.Random(seed)):
        if state.result is not None and (not out or out[-1] is not state.result):
            out.append(state.result)
            view = view_for(state, None)
            assert view.result is state.result
            assert SeatView.from_dict(json.loads(json.dumps(view.to_dict()))).result == state.result
    return out


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_results_of_played_hands_round_trip(rules):
    results = _results(rules, seed=8)
    assert results
    for r in results:
        data = json.loads(json.dumps(r.to_dict()))
        assert list(data) == ["hand_no", "by_fold", "hands", "pots", "token_losers", "winners"]
        assert HandResult.from_dict(data) == r
        for h in r.hands:
            assert list(data["hands"][str(h.seat)])[:3] == ["cards", "name", "category"]
            assert set(h.made) <= set(range(len(h.shown))) and len(h.made) == len(h.cards)
        if r.hands:
            assert min(h.place for h in r.hands) == 1
            assert list(r.order)[0] in {h.seat for h in r.hands if h.place == 1}
        if not rules.uses_chips and not r.by_fold:
            assert set(r.winners) == {h.seat for h in r.hands if h.place == 1}
        assert sum(r.won(s) for s in range(4)) == sum(p.amount for p in r.pots)


def test_a_result_saved_before_the_new_fields_still_loads():
    r = next(r for r in _results(RuleSet(betting="none"), seed=3) if r.hands)
    old = r.to_dict()
    for h in old["hands"].values():
        del h["shown"], h["jokers"], h["place"]
    back = HandResult.from_dict(old)
    assert back.winners == r.winners and [h.name for h in back.hands] == [h.name for h in r.hands]
    assert all(h.shown == h.cards for h in back.hands)
    g = game(3, betting="none")
    while g.result is None:
        apply(g, legal_actions(g, None)[0])
    data = g.to_dict()
    data["result"] = old
    assert GameState.from_dict(data).result.winners == r.winners


def test_the_suit_tie_break_orders_equal_hands():
    from conftest import roulette_to_showdown
    g = game(3, betting="none", suit_order="SHDC")
    apply(g, legal_actions(g, None)[0])
    roulette_to_showdown(g, {0: "Ah Ad 7c 5c 2d", 1: "As Ac 7d 5d 2c", 2: "Kh Kd 7s 5s 3c"})
    r = g.result
    assert r.hand(1).name == r.hand(0).name  # the same pair of aces and kickers …
    assert (r.hand(1).place, r.hand(0).place, r.hand(2).place) == (1, 2, 3)  # … spades first
    assert r.order == (1, 0, 2) and r.winners == (1,)


# -- the showdown screen shows the engine's result as given ----------------------------------

def _showdown_hand():
    """A hand of three shown hands that rank differently: its events, view and result."""
    for seed in range(1, 50):
        g = game(3, betting="none", seed=seed)
        events = []
        while g.result is None:
            events += apply(g, legal_actions(g, None)[0])
        places = sorted(h.place for h in g.result.hands)
        if places == [1, 2, 3]:
            return events, view_for(g, None), g.result
    raise AssertionError("no seed gives three different hands")


def _upside_down(result: HandResult) -> HandResult:
    """The result with the order and the winner turned round (what ranking would never give)."""
    worst = max(result.hands, key=lambda h: h.place)
    hands = tuple(replace(h, place=len(result.hands) + 1 - h.place, name=f"verdict {h.seat}")
                  for h in sorted(result.hands, key=lambda h: -h.place))
    return replace(result, hands=hands, winners=(worst.seat,))


def test_the_showdown_shows_the_engines_order_and_winner():
    events, view, result = _showdown_hand()
    given = _upside_down(result)
    sheet = showdown.HandResult.from_events(events, view, given)
    names = [view.players[h.seat].name for h in given.hands]
    assert [s.name for s in sheet.shown] == names
    assert sheet.winners == set(given.winners)
    lines = [line for line in result_text(sheet).plain.split("\n") if " — " in line]
    assert [line[2:].split(" — ")[0] for line in lines] == names
    assert lines[0].startswith("★ ") and "WINS" in lines[0]
    assert all(" WINS" not in line and line.startswith("  ") for line in lines[1:])
    assert [line.split(" — ")[1].split()[:2] for line in lines] == [
        ["verdict", str(h.seat)] for h in given.hands]


def test_without_a_current_result_the_screen_names_no_hands():
    events, view, result = _showdown_hand()
    sheet = showdown.HandResult.from_events(events, view, replace(result, hand_no=99))
    assert [s.hand_name for s in sheet.shown] == ["", "", ""]
    assert sheet.winners == {e.seat for e in events if e.kind == "pot_won"}


def test_the_showdown_screen_never_ranks_hands():
    source = inspect.getsource(showdown)
    for name in ("strength_key", "evaluate", "tie_order", "HandValue", "suit_key", "compare"):
        assert name not in source


async def test_the_showdown_screen_draws_the_given_result():
    events, view, result = _showdown_hand()
    given = _upside_down(result)
    sheet = showdown.HandResult.from_events(events, view, given)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ShowdownScreen(sheet))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ShowdownScreen)
        from textual.widgets import Static
        shown = str(app.screen.query_one("#showdown-text", Static).render())
    winner = view.players[given.winners[0]].name
    assert f"★ {winner} — verdict {given.winners[0]}  WINS" in shown
    first = view.players[given.hands[0].seat].name
    assert shown.index(first) < min(shown.index(view.players[h.seat].name)
                                    for h in given.hands[1:])


def test_private_stock_cards_stay_private_in_typed_events():
    g = game(3, betting="none")
    events = apply(g, legal_actions(g, None)[0])
    dealt = [e for e in events if isinstance(e, StockDealt)]
    assert len(dealt) == 3 and all(e.private for e in dealt)
    assert all(e.redacted_for(None).cards == (None,) for e in dealt)
