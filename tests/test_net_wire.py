"""State messages spliced from a public part built once and each seat's own part equal what
``view_for`` gives each seat, and open exactly the cards that seat is shown."""

from __future__ import annotations

import json
import random

import pytest

from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.wire import StateMessages


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
@pytest.mark.parametrize("seed", [1, 2])
def test_spliced_state_lines_equal_each_seats_own_view(preset, seed):
    rules = PRESETS[preset].replace(suit_order="SHDC")
    g = new_game(rules, ["Ana", "Bo", "Cy", "Di"], seed=seed)
    rng = random.Random(seed)
    msgs = StateMessages()
    seats = [None, 0, 1, 2, 3]
    events: list = []
    for step in range(250):
        given: dict = {}

        def reveal(seat, cards):
            given[seat] = [c for c in cards if c is not None]
            return [[len(given[seat])]]

        lines = msgs.build(g, seats, events, {"type": "state", "version": step},
                           {"deadline_in": None, "turn": g.to_act}, reveal,
                           {0: [["x"]]})
        for seat in seats:
            line = lines[seat]
            assert line.endswith(b"\n") and line.count(b"\n") == 1
            msg = P.decode(line)
            assert list(msg)[:2] == ["type", "version"] and msg["turn"] == g.to_act
            view = view_for(g, seat)
            want = view.to_dict()
            del want["rules"]
            assert msg["view"] == json.loads(json.dumps(want))
            shown = [e.redacted_for(seat) for e in events]
            assert msg["events"] == [e.to_dict() for e in shown]
            assert msg["reveals"] == ([["x"]] if seat == 0 else []) + [[len(given[seat])]]
            # exactly the card objects this seat is shown: openings never leak a hidden card
            expect = {id(c) for c in view.all_cards()} | {id(c) for e in shown for c in e.cards
                                                          if c is not None}
            assert {id(c) for c in given[seat]} == expect
        if g.game_over:
            break
        seat = None if dealer_to_act(g) else g.to_act
        legal = legal_actions(g, seat)
        events = apply(g, rng.choice(legal))
