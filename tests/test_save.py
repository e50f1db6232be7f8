"""Replays, golden replays, and saves: a seed plus the actions rebuild the same game; a save
loads back to the same state in every phase; a bad file is a SaveError, never a crash."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import game, random_action, random_game
from pokeroulette_tui.engine.actions import Action, Advance, StartHand, action_from_dict
from pokeroulette_tui.engine.game import (apply, check_invariants, dealer_to_act, legal_actions,
                                          new_game)
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.view import view_for
from pokeroulette_tui.engine.save import (FORMAT, VERSION, SaveError, atomic_write, dumps, load,
                                          loads, replay, save)

FIXTURES = Path(__file__).parent / "fixtures"
REGEN = os.environ.get("POKEROULETTE_REGEN_GOLDEN") == "1"


def recorded_game(rules: RuleSet, n: int, seed: int, *, leave_chance=0.0, max_actions=None):
    """Play a random game from ``seed``; return the actions and events in order."""
    names = [f"P{i}" for i in range(n)]
    state = new_game(rules, names, seed=seed)
    rng = random.Random(seed + 1000)
    actions, events = [], []
    for a, ev in random_game(state, rng, leave_chance=leave_chance):
        actions.append(a)
        events.extend(ev)
        if max_actions and len(actions) >= max_actions:
            break
    return names, state, actions, events


# -- replay determinism ---------------------------------------------------------------


@pytest.mark.parametrize("preset,n,seed", [("classic", 4, 1), ("swedish", 5, 2), ("pagat", 7, 3),
                                           ("draw", 3, 4), ("classic", 11, 5)])
def test_replay_seed_and_actions_rebuild_identical_events_and_state(preset, n, seed):
    rules = PRESETS[preset].replace(min_players=2, hand_limit=3, starting_chips=30)
    names, state, actions, events = recorded_game(rules, n, seed, leave_chance=0.002)
    again, events2 = replay(rules, names, seed, actions)
    assert [e.to_dict() for e in events2] == [e.to_dict() for e in events]
    assert again.to_dict() == state.to_dict()


def test_replay_through_json_actions():
    rules = RuleSet(hand_limit=2)
    names, state, actions, events = recorded_game(rules, 3, 8)
    wire = [action_from_dict(json.loads(json.dumps(a.to_dict()))) for a in actions]
    assert wire == actions
    again, _ = replay(rules, names, 8, wire)
    assert again.to_dict() == state.to_dict()


def test_replay_different_seeds_deal_differently():
    a = game(3, seed=1)
    b = game(3, seed=2)
    apply(a, StartHand())
    apply(b, StartHand())
    assert [s.stock for s in a.seats] + [a.deck] != [s.stock for s in b.seats] + [b.deck]


# -- golden replays -------------------------------------------------------------------

GOLDEN = {
    "classic_3_betting": dict(rules=RuleSet(suit_order="drawn"), n=3, seed=11, max_actions=60),
    "swedish_4_stock_to_active": dict(rules=RuleSet(claim_match_card=False, stock_to_active=True,
                                                    betting="none"), n=4, seed=12, max_actions=60),
    "pagat_3_reshuffle_removed": dict(rules=RuleSet(stock_to_active=True, jokers_at_end="removed",
                                                    reshuffle_discards_once=True, betting="final_only"),
                                      n=3, seed=13, max_actions=80),
    "draw_3_forfeit": dict(rules=RuleSet(variant="draw", min_players=2, betting="none",
                                         scoring="forfeit", token_name="items"),
                           n=3, seed=14, max_actions=40),
    "draw_4_betting_chips": dict(rules=RuleSet(variant="draw", betting="each_round", limit="fixed",
                                               suit_tiebreak=True), n=4, seed=15, max_actions=60),
}


def _golden_doc(name: str) -> dict:
    case = GOLDEN[name]
    names, state, actions, events = recorded_game(case["rules"], case["n"], case["seed"],
                                                  max_actions=case["max_actions"])
    return {"name": name, "rules": case["rules"].to_dict(), "names": names, "seed": case["seed"],
            "actions": [a.to_dict() for a in actions],
            "events": [[e.kind, e.text] for e in events],
            "final": {"phase": state.phase, "hand_no": state.hand_no,
                      "chips": [s.chips for s in state.seats],
                      "tokens": [s.tokens for s in state.seats]}}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_golden_replay(name):
    path = FIXTURES / f"golden_{name}.json"
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"missing fixture {path}; run with POKEROULETTE_REGEN_GOLDEN=1")
        FIXTURES.mkdir(exist_ok=True)
        path.write_text(json.dumps(_golden_doc(name), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    doc = json.loads(path.read_text(encoding="utf-8"))
    rules = RuleSet.from_dict(doc["rules"])
    actions = [action_from_dict(a) for a in doc["actions"]]
    state, events = replay(rules, doc["names"], doc["seed"], actions)
    assert [[e.kind, e.text] for e in events] == doc["events"]
    assert {"phase": state.phase, "hand_no": state.hand_no, "chips": [s.chips for s in state.seats],
            "tokens": [s.tokens for s in state.seats]} == doc["final"]


# -- save and load in every phase -----------------------------------------------------

PHASE_GAMES = {
    "waiting": (RuleSet(), 3),
    "dealt": (RuleSet(), 3),
    "betting": (RuleSet(), 3),
    "matched": (RuleSet(betting="none"), 3),
    "stock_to_active": (RuleSet(stock_to_active=True, betting="none"), 4),
    "cut": (RuleSet(variant="draw", betting="each_round"), 3),
    "draw": (RuleSet(variant="draw", betting="none"), 3),
    "hand_over": (RuleSet(betting="none"), 3),
    "game_over": (RuleSet(betting="none", hand_limit=1), 3),
}


@pytest.mark.parametrize("phase", list(PHASE_GAMES))
def test_save_load_round_trip_in_every_phase(phase, tmp_path):
    rules, n = PHASE_GAMES[phase]
    state = new_game(rules, [f"P{i}" for i in range(n)], seed=21)
    actions: list[Action] = []
    for _ in range(5000):
        if state.phase == phase:
            break
        a = legal_actions(state, None)[0] if dealer_to_act(state) else random_action(
            state, random.Random(len(actions)))
        apply(state, a)
        actions.append(a)
    assert state.phase == phase
    path = tmp_path / "game.json"
    save(path, state, actions, seed=21, names=[s.name for s in state.seats], meta={"k": 1})
    loaded = load(path)
    assert loaded.state.to_dict() == state.to_dict()
    assert loaded.actions == actions and loaded.seed == 21 and loaded.meta == {"k": 1}
    assert loaded.names == [s.name for s in state.seats]
    # both go on identically: the shuffle generator was saved too
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(200):
        if state.game_over:
            break
        a = random_action(state, rng_a)
        b = random_action(loaded.state, rng_b)
        assert a == b
        assert [e.to_dict() for e in apply(state, a)] == [e.to_dict() for e in apply(loaded.state, b)]
    assert loaded.state.to_dict() == state.to_dict()


def test_save_file_is_owner_only_and_written_atomically(tmp_path):
    path = tmp_path / "sub" / "save.json"
    state = game(3)
    save(path, state)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    save(path, state)  # replaces
    assert [p.name for p in path.parent.iterdir()] == ["save.json"]  # no temp files left


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "save.json"
    atomic_write(path, "old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_unseeded_game_saves_and_loads():
    state = new_game(RuleSet(), ["A", "B", "C"])
    apply(state, StartHand())
    loaded = loads(dumps(state))
    assert loaded.state.to_dict() == state.to_dict()
    apply(loaded.state, Advance())  # plays on with the system's generator


# -- bad files ------------------------------------------------------------------------


def _good_text() -> str:
    state = game(4, seed=3)
    rng = random.Random(3)
    actions = []
    for a, _ in random_game(state, rng):
        actions.append(a)
        if len(actions) > 30:
            break
    return dumps(state, actions, seed=3, names=["a", "b", "c", "d"])


GOOD = _good_text()


def test_load_missing_file(tmp_path):
    with pytest.raises(SaveError, match="no save file"):
        load(tmp_path / "nope.json")


def test_load_a_directory_or_binary_file(tmp_path):
    with pytest.raises(SaveError):
        load(tmp_path)
    p = tmp_path / "bin"
    p.write_bytes(bytes(range(256)))
    with pytest.raises(SaveError, match="cannot read|not valid JSON"):
        load(p)


@pytest.mark.parametrize("cut", [0, 1, 10, len(GOOD) // 2, len(GOOD) - 1])
def test_load_truncated_file(cut, tmp_path):
    p = tmp_path / "t.json"
    p.write_text(GOOD[:cut], encoding="utf-8")
    with pytest.raises(SaveError, match="not valid JSON"):
        load(p)


@pytest.mark.parametrize("text", ['{"a": 1}', "[1, 2]", '"hello"', "3",
                                  '{"format": "other", "version": 1}'])
def test_load_foreign_json(text):
    with pytest.raises(SaveError, match="not a pokeroulette save file"):
        loads(text)


@pytest.mark.parametrize("version", [0, 2, "1", True, None])
def test_load_wrong_version(version):
    doc = json.loads(GOOD)
    doc["version"] = version
    with pytest.raises(SaveError, match="version"):
        loads(json.dumps(doc))


def _damage(edit) -> str:
    doc = json.loads(GOOD)
    edit(doc["state"])
    return json.dumps(doc)


@pytest.mark.parametrize("edit,message", [
    (lambda s: s["deck"].append("As"), "cards not conserved"),
    (lambda s: s["deck"].pop(), "cards not conserved"),
    (lambda s: s["seats"][0].update(chips=s["seats"][0]["chips"] + 5), "chips not conserved"),
    (lambda s: s["seats"][0].update(chips=-1), "negative|not conserved"),
    (lambda s: s["seats"][0].update(chips="lots"), "wrong kind"),
    (lambda s: s["seats"][1].update(stock_public=None), "wrong kind"),
    (lambda s: s.update(to_act=99), "out of range"),
    (lambda s: s.update(phase="dancing"), "unknown phase"),
    (lambda s: s.update(decks=10 ** 30), "decks"),
    (lambda s: s["deck"].__setitem__(0, "Zz"), "not a card"),
    (lambda s: s.update(rules={"variant": "chess"}), "variant"),
    (lambda s: s.update(seats="none"), "damaged"),
    (lambda s: s.pop("rules"), "damaged"),
    (lambda s: s.update(rng_state=[3, [-1] * 625, None]), "damaged"),
])
def test_load_damaged_state_is_a_save_error(edit, message):
    with pytest.raises(SaveError, match=message):
        loads(_damage(edit))


def test_load_deeply_nested_json_is_a_save_error():
    with pytest.raises(SaveError):
        loads("[" * 100_000)


def test_load_bad_actions_are_a_save_error():
    doc = json.loads(GOOD)
    doc["actions"] = [{"type": "teleport"}]
    with pytest.raises(SaveError, match="unknown action"):
        loads(json.dumps(doc))


# -- fuzzing ------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
    max_leaves=6)


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            yield from _paths(v, path + (i,))


GOOD_DOC = json.loads(GOOD)
PATHS = [p for p in _paths(GOOD_DOC) if p]


def _must_be_save_error_or_valid(text: str) -> None:
    try:
        saved = loads(text)
    except SaveError as exc:
        assert str(exc)
        return
    assert check_invariants(saved.state) == []
    for seat in [None, *range(saved.state.n)]:  # a loaded game can at least be shown
        view_for(saved.state, seat).to_dict()


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(PATHS), value=json_values, delete=st.booleans())
def test_fuzz_json_mutations_give_save_error_or_a_valid_game(path, value, delete):
    doc = json.loads(GOOD)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    _must_be_save_error_or_valid(json.dumps(doc))


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_fuzz_random_bytes_give_save_error(data, tmp_path):
    p = tmp_path / "f.json"
    p.write_bytes(data)
    with pytest.raises(SaveError):
        load(p)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.integers(0, len(GOOD) - 1), st.integers(0, 255))
def test_fuzz_byte_flips_give_save_error_or_a_valid_game(pos, byte):
    data = bytearray(GOOD.encode())
    data[pos] = byte
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    _must_be_save_error_or_valid(text)


def test_save_format_header():
    doc = json.loads(GOOD)
    assert doc["format"] == FORMAT and doc["version"] == VERSION
    assert set(doc) == {"format", "version", "seed", "names", "meta", "actions", "state"}


def test_a_damage_message_names_the_file_once_and_the_cards_by_their_faces():
    """What a damaged save says has no Python in it (no ``Card('As')``, no ``KeyError``), and
    a message that names the file does not name it again inside."""
    from pokeroulette_tui.engine.save import checked_state

    doc = json.loads(GOOD)
    doc["state"]["deck"].append("As")
    with pytest.raises(SaveError) as caught:
        checked_state(doc["state"], "autosave.json")
    said = str(caught.value)
    assert said.count("autosave.json") == 1, said
    assert "extra A♠" in said and "Card(" not in said and "{" not in said, said
    assert "autosave.json" not in caught.value.problem
    assert caught.value.problem.startswith("cards not conserved")
    from pokeroulette_tui.engine.stats import record_from_dict

    with pytest.raises(ValueError) as bad:
        record_from_dict({"kind": "hand"})
    assert "KeyError" not in str(bad.value) and "missing" in str(bad.value), bad.value
