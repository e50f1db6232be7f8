"""Saves that pass a quick look but cannot be played give SaveError, never a traceback or a
silent stop; odd action types and ports are refused in words."""

from __future__ import annotations

import asyncio
import json

import pytest

from pokeroulette_tui.engine.actions import IllegalAction, action_from_dict
from pokeroulette_tui.engine.rules import PRESETS
from pokeroulette_tui.engine.save import SaveError, loads
from pokeroulette_tui.net.client import ConnectError, parse_address
from pokeroulette_tui.net.host import HostConfig, TableHost
from pokeroulette_tui.session import LocalSession
from pokeroulette_tui.table import SeatConfig, Table


def _saved(tmp_path, steps=6):
    seats = [SeatConfig("Ana", "random"), SeatConfig("Bo", "simple"), SeatConfig("Cy", "random")]
    t = Table.create(PRESETS["classic"], seats, seed=3, save_path=tmp_path / "s.json")
    t.autosave()
    for _ in range(steps):
        t.apply(t.auto_action())
    return tmp_path / "s.json"


def _edit(path, change):
    """Change the save's first document (a journal's checkpoint line, or a whole save)."""
    first, _, rest = path.read_text().partition("\n")
    doc = json.loads(first)
    change(doc)
    path.write_text(json.dumps(doc) + ("\n" + rest if rest else ""))


def _edit_line(path, number, change):
    lines = path.read_text().split("\n")
    lines[number - 1] = change(lines[number - 1])
    path.write_text("\n".join(lines))


@pytest.mark.parametrize("name, change", [
    ("seats not a list", lambda d: d["meta"].update(seats={"a": 1})),
    ("seat without a name", lambda d: d["meta"]["seats"][0].pop("name")),
    ("too few seat settings", lambda d: d["meta"]["seats"].pop()),
    ("unknown bot level", lambda d: d["meta"]["seats"][1].update(bot="godlike")),
    ("checkpoint event without kind", lambda d: d.update(events=[{"text": "x"}])),
    ("checkpoint action unknown", lambda d: d.update(actions=[{"type": "teleport"}])),
    ("state not a state", lambda d: d.update(state=[1, 2])),
])
def test_damaged_table_data_is_a_save_error(tmp_path, name, change):
    path = _saved(tmp_path)
    _edit(path, change)
    with pytest.raises(SaveError, match="damaged"):
        Table.resume(path)


@pytest.mark.parametrize("name, change", [
    ("a line that is not JSON", lambda line: line[:-3]),
    ("an action that is not legal there", lambda line: '{"a":{"seat":0,"type":"bet","amount":999}}'),
    ("a line that is a list", lambda line: "[1]"),
    ("a shuffle whose state is broken", lambda line: '{"a":{"type":"start_hand","seat":null},'
                                                     '"state":{"n":1}}'),
])
def test_a_damaged_journal_line_is_a_save_error(tmp_path, name, change):
    path = _saved(tmp_path)
    _edit_line(path, 3, change)
    with pytest.raises(SaveError, match="damaged"):
        Table.resume(path)


def test_a_torn_last_line_is_cut_off_and_the_game_goes_on(tmp_path):
    path = _saved(tmp_path, steps=8)
    whole = Table.resume(path)
    text = path.read_text()
    path.write_text(text + '{"a":{"seat":0,"ty')  # a crash in the middle of a write
    t = Table.resume(path)
    assert t.state.to_dict() == whole.state.to_dict() and t.actions == whole.actions
    t.apply(t.auto_action())  # the next line goes where the torn one was
    assert Table.resume(path).actions == t.actions


@pytest.mark.parametrize("change", [
    lambda d: d["meta"].update(net={"tokens": {"x": "y"}}),
    lambda d: d["meta"].update(net=[1, 2]),
])
def test_damaged_network_data_is_a_save_error(tmp_path, change):
    path = _saved(tmp_path)
    _edit(path, change)
    with pytest.raises(SaveError):
        TableHost.resume(path, HostConfig(save_path=path))


def _phase_save(tmp_path, phase):
    path = _saved(tmp_path, steps=0)
    t = Table.resume(path)
    while t.state.phase != phase:
        t.apply(t.auto_action())
    return path


def test_a_dealt_round_without_its_match_card_is_refused(tmp_path):
    from pokeroulette_tui.engine.save import dumps

    t = Table.resume(_phase_save(tmp_path, "dealt"))
    doc = json.loads(dumps(t.state, t.actions))
    st = doc["state"]
    st["deck"].append(st["match"])
    st["match"] = None
    with pytest.raises(SaveError, match="cannot go on"):
        loads(json.dumps(doc))


def test_a_save_that_loads_can_take_its_next_step(tmp_path):
    path = _phase_save(tmp_path, "matched")
    t = Table.resume(path)
    t.save_path = None
    t.apply(t.auto_action())


@pytest.mark.parametrize("kind", [[1], {"a": 1}, 7, None])
def test_an_action_type_that_is_not_text_is_refused(kind):
    with pytest.raises(IllegalAction, match="unknown action type"):
        action_from_dict({"type": kind})


@pytest.mark.parametrize("text", ["host:²", "host:" + "9" * 5000, "host:0", "host:70000"])
def test_odd_ports_are_refused_in_words(text):
    with pytest.raises(ConnectError, match="port"):
        parse_address(text)


async def test_an_internal_error_in_the_local_table_is_reported_not_silent(tmp_path):
    t = Table.create(PRESETS["classic"], [SeatConfig("Ana", "random"), SeatConfig("Bo", "random"),
                                          SeatConfig("Cy", "random")], seed=2)

    def broken():
        raise RuntimeError("boom")

    t.bot_turn = broken  # type: ignore[method-assign]
    session = LocalSession(t, delay=0)
    await session.start()
    updates = session.updates()
    update = await asyncio.wait_for(updates.__anext__(), 5)
    while not update.note:  # the dealer deals first; the bots' turn fails
        update = await asyncio.wait_for(updates.__anext__(), 5)
    assert "internal error" in update.note and "saved" in update.note
    await session.close()
