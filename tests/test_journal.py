"""The write-ahead journal: a line per action, torn tails cut off, kill -9 loses nothing written."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine import save as saving
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.table import SeatConfig, Table

SEATS = [SeatConfig("Ana", "random"), SeatConfig("Bo", "simple"), SeatConfig("Cy", "random"),
         SeatConfig("Di", "random")]


def run_bots(table: Table, steps: int) -> None:
    for _ in range(steps):
        if table.state.game_over:
            return
        table.apply(table.auto_action())


def played(tmp_path, preset="classic", steps=120, seed=None) -> Table:
    t = Table.create(PRESETS[preset], SEATS, seed=seed, save_path=tmp_path / "j.json")
    t.autosave()
    run_bots(t, steps)
    return t


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
def test_an_unseeded_game_resumes_to_the_same_state(tmp_path, preset):
    """The operating system's shuffles cannot be replayed: their results are in the journal."""
    t = played(tmp_path, preset, steps=150)
    assert t.seed is None
    back = Table.resume(tmp_path / "j.json")
    assert back.state.to_dict() == t.state.to_dict()
    assert back.actions == t.actions
    assert [e.to_dict() for e in back.history[-1]] == [e.to_dict() for e in t.history[-1]]
    assert len(back.history) == min(len(t.history), 50)


def test_one_line_per_action_and_hands_written_once(tmp_path):
    t = played(tmp_path, steps=80, seed=1)  # seeded: an unseeded game may end within 40 actions
    lines = (tmp_path / "j.json").read_text().splitlines()
    records = [json.loads(line) for line in lines[1:]]
    assert sum("a" in r for r in records) == len(t.actions) > 40
    assert sum("hand" in r for r in records) == len(t.history) - 1
    # only the shuffles carry a state; everything else is replayed
    with_state = [r for r in records if "state" in r]
    assert with_state and len(with_state) < len(t.actions) / 3
    assert all(r["a"]["type"] == "start_hand" or any(
        e["kind"] in journal.RANDOM_EVENTS for e in r["events"]) for r in with_state)


def test_resume_then_play_on_appends_to_the_same_journal(tmp_path):
    t = played(tmp_path, steps=40, seed=5)
    size = (tmp_path / "j.json").stat().st_size
    t.close()
    t.save_path = None  # the journal is the resumed table's now
    back = Table.resume(tmp_path / "j.json")
    run_bots(back, 40)
    run_bots(t, 40)
    assert (tmp_path / "j.json").stat().st_size > size
    again = Table.resume(tmp_path / "j.json")
    assert again.state.to_dict() == t.state.to_dict() and again.actions == t.actions


def test_an_older_one_document_save_is_read_and_continued_as_a_journal(tmp_path):
    path = tmp_path / "old.json"
    t = Table.create(PRESETS["classic"], SEATS, seed=9)
    run_bots(t, 30)
    saving.save(path, t.state, t.actions, seed=9, names=[s.name for s in SEATS],
                meta={"seats": [{"name": s.name, "bot": s.bot} for s in SEATS]})
    back = Table.resume(path)
    assert back.state.to_dict() == t.state.to_dict()
    run_bots(back, 5)
    assert journal.is_journal(path.read_bytes()[:200])
    assert Table.resume(path).actions == back.actions


@settings(max_examples=60, deadline=None)
@given(cut=st.floats(min_value=0.0, max_value=1.0))
def test_a_journal_cut_anywhere_loads_a_prefix_of_the_game(tmp_path_factory, cut):
    tmp = tmp_path_factory.mktemp("cut")
    t = played(tmp, steps=60, seed=4)
    data = (tmp / "j.json").read_bytes()
    first = data.index(b"\n") + 1
    end = first + int(cut * (len(data) - first))
    (tmp / "j.json").write_bytes(data[:end])
    back = Table.resume(tmp / "j.json")
    n = len(back.actions)
    assert back.actions == t.actions[:n]
    state = new_game(PRESETS["classic"], [s.name for s in SEATS], seed=4,
                     bots=[True] * len(SEATS))
    for a in t.actions[:n]:
        apply(state, a)
    assert back.state.to_dict() == state.to_dict()


def test_a_journal_cut_inside_its_checkpoint_is_a_clear_error(tmp_path):
    played(tmp_path, steps=5)
    path = tmp_path / "j.json"
    path.write_bytes(path.read_bytes()[:300])
    with pytest.raises(saving.SaveError, match="cut short|damaged|not a pokeroulette"):
        Table.resume(path)


class CountingRandom(random.Random):
    shuffles = 0

    def shuffle(self, x):  # type: ignore[override]
        CountingRandom.shuffles += 1
        super().shuffle(x)


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
def test_every_step_that_shuffles_is_written_with_its_state(preset):
    """If a step drew on the generator without saying so, an unseeded game could not be
    resumed: the journal would replay it with another shuffle."""
    rules = PRESETS[preset].replace(jokers_at_end="removed") if preset == "pagat" else PRESETS[preset]
    pick = random.Random(1)
    for game in range(6):
        g = new_game(rules, ["A", "B", "C", "D"], seed=game)
        g.rng = CountingRandom(game)
        for _ in range(600):
            if g.game_over:
                break
            seat = None if dealer_to_act(g) else g.to_act
            action = pick.choice(legal_actions(g, seat))
            before = CountingRandom.shuffles
            events = apply(g, action)
            drew = CountingRandom.shuffles != before
            assert not drew or journal.shuffles(action, events), (action, [e.kind for e in events])


CHILD = r"""
import sys
from pathlib import Path
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.table import SeatConfig, Table
seats = [SeatConfig("Ana", "random"), SeatConfig("Bo", "random"), SeatConfig("Cy", "random")]
long = {"classic": dict(betting="none", starting_chips=100_000), "draw": dict(scoring="chips", betting="none", starting_chips=100_000, ante=1)}
rules = PRESETS[sys.argv[2]].replace(**long[sys.argv[2]])
t = Table.create(rules, seats, save_path=Path(sys.argv[1]))
t.autosave()
print(0, flush=True)
while not t.state.game_over:
    t.apply(t.auto_action())
    print(len(t.actions), flush=True)   # acknowledged: the line is written
"""


@pytest.mark.parametrize("preset", ["classic", "draw"])
def test_kill_9_at_random_moments_loses_nothing_acknowledged(tmp_path, preset):
    rng = random.Random(preset)
    cut_short = 0
    for round_no in range(6):
        path = tmp_path / f"k{round_no}.json"
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), preset],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "0"
        time.sleep(rng.uniform(0.01, 0.4))
        os.kill(child.pid, signal.SIGKILL)
        acknowledged = [int(line) for line in child.stdout.read().split()]
        child.wait()
        back = Table.resume(path)
        assert len(back.actions) >= (acknowledged[-1] if acknowledged else 0)
        # and it plays on from there
        if not back.state.game_over:
            cut_short += 1
            back.apply(back.auto_action())
    assert cut_short >= 3, "the games ended before the kills: nothing was tested"


def test_net_records_update_the_checkpoints_net_data_key_by_key(tmp_path):
    """A host's resume data: the checkpoint's meta["net"], then each net record (alone on a
    line or on an action's line) replaces the keys it carries; a torn one is ignored."""
    g = new_game(PRESETS["classic"], ["Ana", "Bo", "Cy"], seed=4)
    text = journal.checkpoint(g, [], seed=4, names=["Ana", "Bo", "Cy"],
                              meta={"seats": [], "net": {"tokens": {"0": "t0"}, "commit": {}}})
    text += journal.net_line({"tokens": {"0": "t0", "1": "t1"}})
    a = legal_actions(g, None)[0]
    events = apply(g, a)
    text += journal.action_line(a, g, events, net={"commit": {"hand_no": 1}, "zones": {"deck": [3]}})
    loaded = journal.loads(text)
    assert loaded.meta["net"] == {"tokens": {"0": "t0", "1": "t1"}, "commit": {"hand_no": 1},
                                  "zones": {"deck": [3]}}
    assert len(loaded.actions) == 1 and loaded.state.to_dict() == g.to_dict()
    torn = journal.loads(text + journal.net_line({"tokens": {}})[:-5])
    assert torn.torn and torn.meta["net"]["tokens"] == {"0": "t0", "1": "t1"}
    plain = journal.loads(journal.checkpoint(g, [], seed=4, names=["A", "B", "C"]))
    assert "net" not in plain.meta
    with pytest.raises(saving.SaveError, match="net data"):
        journal.loads(text + '{"net":[1]}\n')


def test_the_resumed_history_is_grouped_by_hand_as_the_table_groups_it(tmp_path):
    """The suit draw (hand 0) and hand 1 come from one step: after a resume in hand 1 the
    suit draw is its own group, as in the table, not repeated at the start of hand 1."""
    t = played(tmp_path, steps=6, seed=3)
    assert t.state.hand_no == 1 and t.history[0][0].kind == "suit_order"
    back = Table.resume(tmp_path / "j.json")
    assert [[e.to_dict() for e in h] for h in back.history] == \
        [[e.to_dict() for e in h] for h in t.history]


def _replayed(actions, seed=4):
    state = new_game(PRESETS["classic"], [s.name for s in SEATS], seed=seed,
                     bots=[True] * len(SEATS))
    for a in actions:
        apply(state, a)
    return state


DAMAGES = {
    "a line that is not JSON": lambda line: line[:-3],
    "a list, not a record": lambda line: "[1,2]",
    "an action no rule allows": lambda line: json.dumps({"a": {"type": "fold", "seat": 99}}),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_journal_damaged_in_the_middle_is_salvaged_up_to_the_damage(tmp_path, damage):
    """Strictly read, damage after the checkpoint is an error; salvaged, the game goes on
    from the line before it, a copy of the damaged journal is kept whole, and the journal
    goes on from there (the lines after the damage are not part of the game)."""
    t = played(tmp_path, steps=60, seed=4)
    t.close()
    path = tmp_path / "j.json"
    lines = path.read_text().split("\n")
    at = next(i for i in range(len(lines) // 2, len(lines))
              if '"a":' in lines[i] and '"b":' not in lines[i - 1])  # not inside a write
    lines[at] = DAMAGES[damage](lines[at])
    damaged = "\n".join(lines)
    path.write_text(damaged)
    with pytest.raises(saving.SaveError, match=f"damaged at line {at + 1}"):
        Table.resume(path)
    assert path.read_text() == damaged  # a strict read changes nothing

    back = Table.resume(path, salvage=True)
    assert f"damaged at line {at + 1}" in back.salvaged
    n = len(back.actions)
    assert 0 < n < len(t.actions) and back.actions == t.actions[:n]
    assert back.state.to_dict() == _replayed(t.actions[:n]).to_dict()
    assert back.damaged_copy is not None and back.damaged_copy.read_text() == damaged
    assert back.damaged_copy.stat().st_mode & 0o777 == 0o600
    run_bots(back, 10)  # it goes on from the good part, and is read again as one game
    back.close()
    again = Table.resume(path)
    assert again.actions == back.actions and not again.salvaged


def test_salvage_drops_the_rest_of_a_write_the_damage_was_part_of(tmp_path):
    t = played(tmp_path, steps=30, seed=4)
    t.close()
    path = tmp_path / "j.json"
    lines = path.read_text().split("\n")
    # make lines k, k+1 one write of two (k marked), then damage k+1: k goes too
    k = len(lines) - 4
    record = json.loads(lines[k])
    lines[k] = json.dumps({**record, "b": 1}, separators=(",", ":"))
    lines[k + 1] = "{not json"
    path.write_text("\n".join(lines))
    whole = Table.resume(path, salvage=True)
    strict_prefix = journal.loads("\n".join(lines[:k]) + "\n")
    assert whole.actions == strict_prefix.actions


def test_damage_to_the_checkpoint_is_not_salvaged(tmp_path):
    played(tmp_path, steps=20, seed=4)
    path = tmp_path / "j.json"
    head, rest = path.read_text().split("\n", 1)
    path.write_text(head.replace('"state":{', '"status":{', 1) + "\n" + rest)
    with pytest.raises(saving.SaveError):
        Table.resume(path, salvage=True)
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_blank_lines_are_no_damage(tmp_path):
    t = played(tmp_path, steps=40, seed=4)
    t.close()
    path = tmp_path / "j.json"
    lines = path.read_text().split("\n")
    lines.insert(len(lines) // 2, "")
    lines.insert(len(lines) // 2, "  ")
    path.write_text("\n".join(lines) + "\n")  # (and a blank line at the end)
    back = Table.resume(path)
    assert back.actions == t.actions and not back.salvaged
    run_bots(back, 10)
    back.close()
    assert Table.resume(path).actions == back.actions


def test_two_damaged_lines_salvage_up_to_the_first(tmp_path):
    t = played(tmp_path, steps=60, seed=4)
    t.close()
    path = tmp_path / "j.json"
    lines = path.read_text().split("\n")
    actions = [i for i, line in enumerate(lines) if '"a":' in line and '"b":' not in line]
    early, late = actions[len(actions) // 3], actions[2 * len(actions) // 3]
    lines[late] = "{late"
    lines[early] = json.dumps({"a": {"type": "fold", "seat": 99}})  # read well, plays wrong
    path.write_text("\n".join(lines))
    back = Table.resume(path, salvage=True)
    assert f"line {late + 1}" in back.salvaged  # what was found first (by reading)
    n = len(back.actions)
    assert back.actions == t.actions[:n] and n <= sum(1 for i in actions if i < early) + 1


def test_a_finished_hand_and_its_action_are_one_write(tmp_path):
    """The line of a hand that ended and the line of the action that ended it are written
    together: a load keeps both or neither (never the hand twice in the history)."""
    t = played(tmp_path, steps=80, seed=4)
    t.close()
    path = tmp_path / "j.json"
    lines = path.read_text().split("\n")
    hand = max(i for i, line in enumerate(lines) if line and "hand" in json.loads(line))
    assert lines[hand].startswith('{"b":1,')
    lines[hand + 1] = "{cut"
    path.write_text("\n".join(lines))
    back = Table.resume(path, salvage=True)
    texts = [[e.to_dict() for e in h] for h in back.history]
    assert all(a != b for a, b in zip(texts, texts[1:]))  # no hand twice in a row
