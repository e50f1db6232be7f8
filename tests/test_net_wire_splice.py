"""The cheaper state lines: views made without the dataclasses' ``__init__``, a seat's own
entry spliced into its public entry's JSON, and the openings checked in one pass. Over many
random hands the view a client rebuilds from each line (as ``RemoteSession`` does) is the one
``view_for`` gives that seat, no line shows a card its seat may not see, and the openings
are those of the plain path."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest
from net_helpers import seeded_nonces

from pokeroulette_tui.engine.actions import Leave
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.view import PlayerView, SeatView, view_for
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net import wire
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.wire import StateMessages


def _play(preset: str, seed: int, names: list[str]):
    """Yield (state, events) after each step of a random game (no one leaves)."""
    g = new_game(PRESETS[preset].replace(suit_order="SHDC"), names, seed=seed)
    install_tracking(g)
    rng = random.Random(seed)
    events: list = []
    yield g, events
    while not g.game_over:
        legal = [a for a in legal_actions(g, None if dealer_to_act(g) else g.to_act)
                 if not isinstance(a, Leave)]
        events = apply(g, rng.choice(legal))
        yield g, events


def _rebuilt(line: bytes, rules) -> SeatView:
    """What the client makes of a state line (the lobby gave it the rules)."""
    msg = P.decode(line)
    return SeatView.from_dict({**msg["view"], "rules": rules.to_dict()})


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
@pytest.mark.parametrize("seed", [3, 4])
def test_the_view_each_client_rebuilds_is_view_for_its_seat_over_many_hands(preset, seed):
    hands = steps = 0
    game = 0
    while hands < 12:  # random play ends games fast: several games, a dozen hands at least
        game += 1
        committer = DeckCommitter(seeded_nonces(seed))
        msgs = StateMessages()
        seats = [None, 0, 1, 2, 3, 4]
        for step, (g, events) in enumerate(_play(preset, seed * 100 + game,
                                                 ["Ana", "Bo", "Cy", "Di", "Ed"])):
            committer.refresh(g)
            lines = msgs.build(g, seats, events, {"type": "state", "version": step},
                               {"turn": g.to_act}, committer)
            for seat in seats:
                want = view_for(g, seat)
                assert _rebuilt(lines[seat], g.rules) == want, (game, step, seat)
                # no card in the line that this seat may not see
                shown = {c.text for c in want.all_cards()}
                for p in P.decode(lines[seat])["view"]["players"]:
                    for key in ("stock", "actives", "hand", "added"):
                        assert {c for c in p[key] if c is not None} <= shown
            steps += 1
        hands += g.hand_no
    assert steps > 100


def test_views_made_without_init_are_the_dataclasses_own():
    names = {f.name for f in fields(SeatView)}
    player_names = {f.name for f in fields(PlayerView)}
    for step, (g, _) in enumerate(_play("classic", 8, ["Ana", "Bo", "Cy"])):
        for seat in (None, 0, 1, 2):
            v = view_for(g, seat)
            assert set(vars(v)) == names
            assert v == SeatView(**{k: getattr(v, k) for k in names})
            for p in v.players:
                assert set(vars(p)) == player_names
                assert p == PlayerView(**{k: getattr(p, k) for k in player_names})
                assert hash(p) == hash(PlayerView(**{k: getattr(p, k) for k in player_names}))
        with pytest.raises(AttributeError):  # still frozen
            v.hand_no = 3  # type: ignore[misc]
        if step > 200:
            break


def test_a_name_that_is_the_splice_mark_itself_is_encoded_whole():
    mark = wire._MARK
    msgs = StateMessages()
    for step, (g, events) in enumerate(_play("classic", 2, [mark, "Bo", "Cy"])):
        lines = msgs.build(g, [None, 0, 1, 2], events, {"type": "state", "version": step},
                           {"turn": g.to_act}, lambda seat, cards: [])
        for seat in (None, 0, 1, 2):
            want = view_for(g, seat).to_dict()
            del want["rules"]
            # (json, not P.decode: a client refuses control characters, and names are
            # cleaned of them before they are seated; the fallback is for safety only)
            assert json.loads(lines[seat])["view"] == json.loads(json.dumps(want))
        if step > 60:
            break
    assert msgs._public[0].cut is None and msgs._public[1].cut is not None


def test_an_opening_is_given_once_even_when_a_card_is_shown_twice():
    committer = DeckCommitter(seeded_nonces(1))
    g = new_game(PRESETS["classic"].replace(suit_order="SHDC"), ["Ana", "Bo", "Cy"], seed=1)
    install_tracking(g)
    apply(g, legal_actions(g, None)[0])
    committer.refresh(g)
    first = committer.indices(g.deck[:3])
    opened = committer.open(0, first + first[:1] + first)
    assert [o[0] for o in opened] == first  # in order, each once
    assert committer.open(0, first) == []  # and never again
    assert [o[0] for o in committer.open(1, first[1:])] == first[1:]  # another viewer's own


@pytest.mark.parametrize("preset", ["classic", "draw"])
def test_the_committers_openings_equal_those_of_every_card_over_many_hands(preset):
    """The committer's path (the public indices looked up once, openings checked with one
    pass) gives the same lines and openings as the plain path that passes every card, with
    viewers skipping builds, builds for one seat (a catch-up) and several games."""
    hands = 0
    game = 0
    while hands < 12:
        game += 1
        g = new_game(PRESETS[preset].replace(suit_order="SHDC"), ["Ana", "Bo", "Cy", "Di"],
                     seed=game)
        install_tracking(g)
        rng = random.Random(game)
        fast, plain = DeckCommitter(seeded_nonces(game)), DeckCommitter(seeded_nonces(game))
        a, b = StateMessages(), StateMessages()
        events: list = []
        for step in range(2000):
            kept = list(g.rng.reshuffled)
            commits = fast.refresh(g)
            g.rng.reshuffled[:] = kept
            assert plain.refresh(g) == commits
            if step % 7 == 3:  # a catch-up: one seat, its openings so far first
                seats = [rng.choice([None, 0, 1, 2, 3])]
                extra = {seats[0]: fast.opened(seats[0])}
            else:
                seats = [s for s in [None, 0, 1, 2, 3] if rng.random() < 0.85] or [0]
                extra = None
            head, tail = {"type": "state", "version": step}, {"turn": g.to_act}
            one = a.build(g, seats, events, head, tail, fast, extra)
            two = b.build(g, seats, events, head, tail,
                          lambda seat, cards, plain=plain: plain.reveal(seat, cards), extra)
            assert one == two, (game, step)
            assert fast.revealed == plain.revealed
            if g.game_over:
                break
            legal = [x for x in legal_actions(g, None if dealer_to_act(g) else g.to_act)
                     if not isinstance(x, Leave)]
            events = apply(g, rng.choice(legal))
        hands += g.hand_no
