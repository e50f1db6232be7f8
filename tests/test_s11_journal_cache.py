"""The host's journal path keeps its work between steps (the resume data's parts made again
only when they change, the cards' places looked at only when a card moved, common action
lines written without the encoder): the same bytes as before, and a resume restores exactly
whatever part changed."""

from __future__ import annotations

import json
import random
import shutil
from itertools import count

import pytest

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.actions import (AllIn, Call, Check, Cut, Discard, Fold, Leave,
                                             MoveStockToActive, PlaceBet, RaiseTo, StartHand)
from pokeroulette_tui.engine.events import Event
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.commit import _zones
from pokeroulette_tui.net.host import TableHost

from net_helpers import Harness, make_host
from net_helpers import passive_wire as passive

_copies = count()


def started(path, n=4, preset="classic"):
    h = Harness(make_host(PRESETS[preset].replace(suit_order="SHDC"), save_path=path))
    peers = [h.join(f"P{i}") for i in range(n)]
    for p in peers:
        h.send(p, {"type": "ready", "ready": True})
    h.run()
    return h, peers


def step(h, peers, k=1):
    for _ in range(k):
        h.run()
        seat = h.host.table.waiting_for_human()
        if seat is None:
            continue
        p = next(q for q in peers if q.seat == seat)
        h.send(p, {"type": "act", "id": len(h.host.table.actions) + 1,
                   "version": h.host.version, "action": passive(p.last("state")["view"])})


def resumed(h, tmp_path) -> TableHost:
    """The host as a resume of its journal now (a copy: the table goes on)."""
    h.host.table.flush()
    copy = tmp_path / f"copy-{next(_copies)}.json"
    shutil.copy(h.host.table.save_path, copy)
    return TableHost.resume(copy, h.host.config)


def same_commitments(h, h2):
    s1, s2, c1, c2 = h.host.table.state, h2.table.state, h.host.committer, h2.committer
    assert s2.to_dict() == s1.to_dict()
    assert c2.commitments == c1.commitments
    assert c2.zones(s2) == c1.zones(s1)
    assert c2.revealed_list() == c1.revealed_list()


def old_misplaced(c, state):
    """DeckCommitter.misplaced as it was written before (every card looked at)."""
    pos, cards, unique = c.pos, c.cards, c._unique_indices()
    out = []
    for key, zone in _zones(state).items():
        for k, card in enumerate(zone):
            i = pos.get(id(card), -1)
            if i >= 0 and cards[i] is not card:
                i = -1
            if unique.get(card.text, -1) != i:
                out.append([key, k, i])
    return out


# -- the parts are kept while unchanged ---------------------------------------------------

def test_the_resume_data_is_the_same_mapping_while_nothing_changed(tmp_path):
    h, peers = started(tmp_path / "t.json")
    step(h, peers, 5)
    host = h.host
    first = host._net_meta()
    assert host._net_meta() is first  # nothing changed: the same mapping, nothing made
    assert host.table.take_journal() is None
    host.players[2].token_digest = "ab" * 32  # a part changes: a new mapping, only it new
    second = host._net_meta()
    assert second is not first and second["tokens"]["2"] == "ab" * 32
    assert second["commit"] is first["commit"] and second["settings"] is first["settings"]
    write = host.table.take_journal()
    assert write is not None and '"tokens":' in write.text and '"commit":' not in write.text


def test_the_cards_places_are_looked_at_again_only_when_a_card_moved(tmp_path):
    h, peers = started(tmp_path / "t.json", 5)
    step(h, peers, 3)
    c, state = h.host.committer, h.host.table.state
    first = c.misplaced(state)
    assert c.misplaced(state) is first  # (the same answer, not made again)
    assert first == old_misplaced(c, state)
    jokers = [(z, k) for z, cards in _zones(state).items() for k, card in enumerate(cards)
              if card.is_joker and z not in ("match", "last_match")]
    assert len(jokers) == 2  # one deck: two jokers, equal faces but distinct cards
    (z1, k1), (z2, k2) = jokers
    zones = _zones(state)
    zones[z1][k1], zones[z2][k2] = zones[z2][k2], zones[z1][k1]  # swapped: equal faces
    swapped = c.misplaced(state)
    assert swapped is not first and swapped == old_misplaced(c, state) != first


@pytest.mark.parametrize("preset,players", [("classic", 5), ("classic", 6), ("pagat", 4),
                                            ("draw", 5)])
def test_the_places_are_those_of_every_card_looked_at(tmp_path, preset, players):
    h, peers = started(tmp_path / "t.json", players, preset)
    c = h.host.committer
    for _ in range(150):
        step(h, peers)
        state = h.host.table.state
        if state.game_over:
            break
        if c.cards:
            assert c.misplaced(state) == old_misplaced(c, state)


# -- a resume restores whatever part changed ---------------------------------------------

def test_a_seats_token_account_and_host_seat_changed_in_place_are_restored(tmp_path):
    h, peers = started(tmp_path / "t.json")
    step(h, peers, 4)
    h.host._net_meta()  # (the parts as they stand, then each changed in place)
    p1, p3 = h.host.players[1], h.host.players[3]
    p1.token_digest = "cd" * 32
    p3.uid = 1234
    p3.host, h.host.players[0].host = True, False
    h2 = resumed(h, tmp_path)
    assert h2.players[1].token_digest == "cd" * 32
    assert h2.players[3].uid == 1234 and h2.players[3].host and not h2.players[0].host
    step(h, peers, 2)
    p1.token_digest = ""  # (a seat's token gone: no token written for it)
    assert "1" not in json.loads(json.dumps(h.host._net_meta()))["tokens"]
    assert resumed(h, tmp_path).players[1].token_digest == ""


def test_a_timeout_count_changed_in_place_is_restored(tmp_path):
    h, peers = started(tmp_path / "t.json")
    step(h, peers, 3)
    timeouts = h.host.table.state.timeouts
    timeouts[2] = 7  # the host's turn timer counts in the state's own mapping
    assert resumed(h, tmp_path).table.state.timeouts == timeouts and timeouts[2] == 7
    step(h, peers, 2)
    timeouts[2] += 1
    timeouts[0] = 5
    assert resumed(h, tmp_path).table.state.timeouts == timeouts and timeouts[0] == 5


def test_a_table_setting_and_the_password_changed_are_restored(tmp_path):
    h, peers = started(tmp_path / "t.json")
    step(h, peers, 3)
    h.host.config.delay = 2.5
    digest = h.host.password_digest = P.password_digest("sesame")
    h2 = resumed(h, tmp_path)
    assert h2.config.delay == 2.5 and h2.password_digest == digest


def test_jokers_swapped_between_steps_are_restored_where_they_are(tmp_path):
    h, peers = started(tmp_path / "t.json", 5)
    step(h, peers, 3)
    h.host.table.flush()
    state = h.host.table.state
    zones = _zones(state)
    (z1, k1), (z2, k2) = [(z, k) for z, cards in zones.items() for k, card in enumerate(cards)
                          if card.is_joker and z not in ("match", "last_match")]
    zones[z1][k1], zones[z2][k2] = zones[z2][k2], zones[z1][k1]
    # (the host looks at the places after an action: a swap outside one is seen with the next)
    step(h, peers)
    same_commitments(h, resumed(h, tmp_path))


def test_a_reshuffled_joker_is_restored_at_its_new_index(tmp_path):
    """A card shuffled back in gets a new, later index: the other joker, which had the later
    one, now is the one whose place is written (the places are looked at anew)."""
    h, peers = started(tmp_path / "t.json", 5)
    step(h, peers, 3)
    state, c = h.host.table.state, h.host.committer
    h.host.table.flush()
    jokers = sorted({id(card): card for cards in _zones(state).values() for card in cards
                     if card.is_joker}.values(), key=lambda card: c.pos[id(card)])
    assert len(jokers) == 2
    before, old = len(c.cards), c.misplaced(state)
    state.rng.reshuffled.append([jokers[0]])  # as the engine's reshuffle of the discards
    c.refresh(state)
    assert len(c.cards) == before + 1 and c.pos[id(jokers[0])] == before
    now = c.misplaced(state)
    assert now == old_misplaced(c, state) and now != old
    step(h, peers)
    same_commitments(h, resumed(h, tmp_path))
    step(h, peers, 3)
    same_commitments(h, resumed(h, tmp_path))


def test_a_journal_moved_elsewhere_starts_afresh_there(tmp_path):
    h, peers = started(tmp_path / "t.json")
    step(h, peers, 3)
    table = h.host.table
    table.save_path = tmp_path / "moved.json"
    step(h, peers, 2)
    assert (tmp_path / "moved.json").exists()
    assert journal.load(tmp_path / "moved.json").state.to_dict() == table.state.to_dict()


# -- lines written straight from the action -----------------------------------------------

def test_an_action_line_is_exactly_the_journals():
    from pokeroulette_tui.engine.game import new_game
    from pokeroulette_tui.engine.rules import RuleSet
    g = new_game(RuleSet(), ["Ana", "Bo", "Cy"], seed=3)
    rng = random.Random(4)
    plain = [Event("check", "Bo checks", seat=1)]
    actions = [Check(seat=1), Call(seat=0), Fold(seat=2), AllIn(seat=1), Leave(seat=0),
               Check(), PlaceBet(seat=1, amount=40), RaiseTo(seat=2, amount=10 ** 20),
               MoveStockToActive(seat=0, index=None), MoveStockToActive(seat=1, index=2),
               Cut(seat=2, position=17), Discard(seat=0, indices=(0, 3, 4)),
               Discard(seat=1, indices=()), Discard(seat=1),
               # odd values take the encoder's way, as written before
               PlaceBet(seat=True, amount=3), PlaceBet(seat=1, amount=2.5),
               Cut(seat=1, position=True), Discard(seat=2, indices=(1, True)),
               Discard(seat=2, indices=[1, 2]), Check(seat="x\u2603")]
    for a in actions:
        for events in (plain, []):  # (the line written from the action's fields, or not)
            assert journal.action_line(a, g, events) == \
                journal._dumps({"a": a.to_dict()}) + "\n", a
            assert journal.action_line(a, g, events, encode=P.state_to_save) == \
                journal._dumps({"a": a.to_dict()}) + "\n", a
    # a step that shuffled carries its state and events
    shuffled = [Event("reshuffle", "the discards are shuffled", hand_no=1)]
    for a in (StartHand(), Check(seat=1), PlaceBet(seat=0, amount=rng.randint(1, 9))):
        events = shuffled if not isinstance(a, StartHand) else []
        line = journal.action_line(a, g, events, encode=P.state_to_save)
        assert line == journal._dumps({"a": a.to_dict(), "state": P.state_to_save(g),
                                       "events": [e.to_dict() for e in events]}) + "\n"
    # the resume data on the line: the encoder's way
    assert journal.action_line(Check(seat=1), g, plain, net={"x": 1}) == \
        '{"a":{"seat":1,"type":"check"},"net":{"x":1}}\n'
