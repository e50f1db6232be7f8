"""A hand a seat folded, then quit and resumed before it ended, is counted once for it."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from stats_helpers import TableSession, new_table, play

from pokeroulette_tui.bots import make_bot
from pokeroulette_tui.engine.actions import Fold
from pokeroulette_tui.engine.events import redact_all
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.session import Update
from pokeroulette_tui.table import Table
from pokeroulette_tui.ui.stats_recorder import StatsRecorder

RULES = {**PRESETS, "draw with betting": replace(PRESETS["draw"], betting="each_round",
                                                  scoring="chips")}
"""(The draw preset has no betting, so no fold: five-card draw with a betting round.)"""


class Spy:
    """The engine's results hand by hand, and every card each watched seat could see."""

    def __init__(self, seats) -> None:
        self.results = {}
        self.seats = tuple(seats)
        self.seen: dict[int, dict[int, set[str]]] = {s: {} for s in self.seats}
        self.dealt: dict[int, set[int]] = {}

    def __call__(self, table: Table) -> None:
        r = table.state.result
        if r is not None:
            self.results[r.hand_no] = r
        self.dealt.setdefault(table.state.hand_no, set()).update(
            i for i, seat in enumerate(table.state.seats) if seat.in_hand)
        for s in self.seats:
            cards = self.seen[s].setdefault(table.state.hand_no, set())
            cards |= {c.text for c in view_for(table.state, s).all_cards()}
            if r is not None:
                for h in r.hands:  # (and what a shown joker stands for: public too)
                    cards |= {c.text for c in (*h.shown, *h.jokers)}


def fold_then_quit(table: Table, session: TableSession, recorder: StatsRecorder, spy: Spy,
                   folders: set[int], *, seed: int = 5) -> set[int]:
    """Play the hand in play (humans by random stand-ins, except that each seat of
    ``folders`` folds at its first chance) and stop, as a quit does, once one of them has
    folded and the hand is still going on (the hand goes on without them). Returns the
    seats that folded."""
    rng = random.Random(seed)
    stand_in = make_bot("random", rng)
    folded: set[int] = set()
    for _ in range(10_000):
        action = table.auto_action()
        if action is None:
            seat = table.waiting_for_human()
            assert seat is not None
            legal = table.legal(seat)
            fold = next((a for a in legal if isinstance(a, Fold)), None)
            if seat in folders and seat not in folded and fold is not None:
                action = fold
                folded.add(seat)
            else:
                action = stand_in.choose(table.view(seat), legal)
        events = table.apply(action)
        over = any(e.kind == "hand_over" for e in events)
        spy(table)
        viewer = session.local_seats[0] if len(session.local_seats) == 1 else None
        recorder.on_update(session, Update(events=tuple(redact_all(events, viewer)),
                                           result=table.state.result if over else None))
        if over or table.state.game_over:
            return set()  # the hand ended before any quit: the caller tries another hand
        if folded and table.state.seats[min(folded)].folded:
            return folded
    raise AssertionError("no fold")


def _hands(store: StatsStore, name: str) -> list[dict]:
    path = store.path(name)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()
            if '"kind":"hand"' in line]


def _cards_in(rec: dict) -> set[str]:
    cards = set(rec["cards"]) | set(rec["held"]) | set(rec["match"])
    for hand in rec["result"]["hands"].values():
        cards |= set(hand["cards"]) | set(hand["shown"]) | set(hand["jokers"])
    return cards - {"*"}


def _quit_and_resume(tmp_path: Path, preset: str, humans: list[int], folders: set[int],
                     n: int, seed: int, before: int = 1):
    """Play ``before`` hands whole, then fold in a later hand and quit; resume from the
    journal in a fresh table and recorder (a new run of the program) and play the game to
    its end."""
    store = StatsStore(tmp_path / "stats")
    path = tmp_path / "autosave.json"
    table = new_table(RULES[preset], humans=humans, n=n, seed=seed, save_path=path)
    table.autosave()
    spy = Spy(humans)
    session, recorder = TableSession(table, humans), StatsRecorder(store)
    play(table, session, recorder, hands=before, spy=spy)
    quit_in = None
    for _ in range(20):  # a hand where the fold leaves the hand going on
        if table.state.game_over:
            break
        folded = fold_then_quit(table, session, recorder, spy, folders)
        if folded:
            quit_in = table.state.hand_no
            break
    assert quit_in is not None, "no hand was quit after a fold"
    assert table.state.result is None or table.state.result.hand_no != quit_in
    table.close()
    resumed = Table.resume(path)
    assert resumed.state.hand_no == quit_in and resumed.state.seats[min(folders)].folded
    recorder = StatsRecorder(store)  # a new run of the program
    session = TableSession(resumed, humans)
    play(resumed, session, recorder, spy=spy)
    return store, resumed, spy, quit_in


@pytest.mark.parametrize("preset", ["classic", "swedish", "draw with betting"])
def test_a_folded_hand_quit_and_resumed_is_counted_once(tmp_path, preset):
    store, _table, spy, quit_in = _quit_and_resume(tmp_path, preset, [0], {0}, n=4, seed=2)
    hands = _hands(store, "Ana")
    numbers = [h["hand_no"] for h in hands]
    assert quit_in in numbers and numbers.count(quit_in) == 1
    assert sorted(numbers) == [h for h in sorted(spy.results) if 0 in spy.dealt[h]]
    assert store.load("Ana").tally().hands == len(numbers)
    rec = next(h for h in hands if h["hand_no"] == quit_in)
    assert rec["seat"] == 0 and "0" not in rec["result"]["hands"]  # folded: nothing shown
    assert 0 not in rec["result"]["winners"]
    # its cards went to the discards face down: the record says they are not known
    assert rec["partial"] is True and rec["cards"] == rec["held"] == []
    assert all("partial" not in h for h in hands if h["hand_no"] != quit_in)
    for h in hands:  # nothing it did not see
        assert _cards_in(h) <= spy.seen[0][h["hand_no"]]
    # and the hand history says why its cards are missing (only for that hand)
    from pokeroulette_tui.engine.stats import record_from_dict
    from pokeroulette_tui.engine.stats_report import hand_text
    said = {h["hand_no"]: "cards before that are not known" in hand_text(record_from_dict(h))
            for h in hands}
    assert said == {n: n == quit_in for n in said}


@pytest.mark.parametrize("before", [0, 1], ids=["quit in hand 1", "quit in hand 2"])
@pytest.mark.parametrize("preset", ["classic", "draw with betting"])
def test_hot_seat_every_human_seat_counts_the_resumed_hand(tmp_path, preset, before):
    """3 people and 2 bots; Player 1 folds, the game is quit and resumed in that hand."""
    humans = [0, 1, 2]
    store, table, spy, quit_in = _quit_and_resume(tmp_path, preset, humans, {0}, n=5, seed=1,
                                                  before=before)
    assert spy.dealt[quit_in] >= set(humans)  # all three were dealt into the quit hand
    for s in humans:
        name = table.state.seats[s].name
        numbers = [h["hand_no"] for h in _hands(store, name)]
        assert numbers.count(quit_in) == 1, (name, numbers)
        assert sorted(numbers) == [h for h in sorted(spy.results) if s in spy.dealt[h]]
        for rec in _hands(store, name):
            assert _cards_in(rec) <= spy.seen[s][rec["hand_no"]]
            assert rec.get("partial", False) == (rec["hand_no"] == quit_in)
        assert store.load(name).tally().hands == len(numbers)


@pytest.mark.parametrize("wire", [False, True], ids=["hot-seat", "network"])
def test_a_game_watched_from_its_start_has_no_partial_hand(tmp_path, wire):
    """Only a hand watched from part way is marked: every hand of a game played through
    (the hand's start seen in its updates, over the wire too) is whole."""
    store = StatsStore(tmp_path / "stats")
    humans = [1] if wire else [0, 1]
    table = new_table(PRESETS["classic"], humans=humans, n=4, seed=11)
    spy = Spy(humans)
    play(table, TableSession(table, humans, wire=wire), StatsRecorder(store), spy=spy)
    for s in humans:
        hands = _hands(store, table.seats[s].name)
        assert [h["hand_no"] for h in hands] == [n for n in sorted(spy.results)
                                                  if s in spy.dealt[n]]
        assert not any(h.get("partial") for h in hands)
