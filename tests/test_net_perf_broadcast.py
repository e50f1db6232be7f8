"""The host's cost per action, by counting work rather than timing it (timings on a shared
machine are for benchmarks/bench_server.py): one public projection per action, a seat's own
projection only when its cards change, the deck committer's fast path equal to the plain
one, journals of several tables written in one group with one fdatasync each, and a failing
journal that stops no other."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random

import pytest

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine import view as view_mod
from pokeroulette_tui.engine.game import apply, dealer_to_act, legal_actions, new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.net import wire
from pokeroulette_tui.net.commit import DeckCommitter, install_tracking
from pokeroulette_tui.net.nettable import JournalWrite, write_all, write_groups
from pokeroulette_tui.net.wire import StateMessages

from net_helpers import Served, autoplay, seeded_nonces


def _seat_cards(g, seat):
    s = g.seats[seat]
    return (tuple(map(id, s.stock)), tuple(s.stock_public), tuple(map(id, s.actives)),
            s.actives_up, s.moved, tuple(map(id, s.hand)), s.shown)


def _seat_now(g, i):
    """Seat ``i`` by value (its card lists by their cards' identities), without the two
    fields no projection reads (``acted``, ``can_raise``)."""
    s = g.seats[i]
    return tuple(tuple(map(id, v)) if isinstance(v, list) and f.name != "stock_public"
                 else tuple(v) if isinstance(v, list) else v
                 for f in dataclasses.fields(s) if f.name not in ("acted", "can_raise")
                 for v in [getattr(s, f.name)])


@pytest.mark.parametrize("preset", ["classic", "draw"])
def test_one_public_projection_per_action_and_own_ones_only_when_cards_change(preset,
                                                                              monkeypatch):
    """No seat's whole view is projected: the public part is projected at most once per
    build (each player at most once, and again exactly when its seat changed), a seat's own
    entry only when its cards change (a turn alone, its options, projects nothing again)."""
    calls: list = []
    real = view_mod.view_for

    def counting(state, seat):
        calls.append(("view", seat))
        return real(state, seat)

    for module in (view_mod, wire):
        monkeypatch.setattr(module, "view_for", counting, raising=False)
    real_player = wire.player_view

    def counting_player(state, i, viewer):
        calls.append((i, viewer))
        return real_player(state, i, viewer)

    monkeypatch.setattr(wire, "player_view", counting_player)
    g = new_game(PRESETS[preset].replace(suit_order="SHDC"), ["Ana", "Bo", "Cy", "Di"], seed=5)
    rng = random.Random(5)
    msgs = StateMessages()
    seats = [None, 0, 1, 2, 3]
    before = {s: None for s in range(4)}
    seat_before = {s: None for s in range(4)}
    events: list = []
    reused = 0
    for step in range(300):
        calls.clear()
        msgs.build(g, seats, events, {"type": "state", "version": step}, {},
                   lambda seat, cards: [])
        assert [c for c in calls if c[0] == "view" and c[1] is not None] == []
        public = [i for i, viewer in calls if viewer is None and i != "view"]
        assert len(public) == len(set(public))  # the public part: at most once
        assert set(public) == {s for s in range(4) if _seat_now(g, s) != seat_before[s]}
        reused += len(public) < 4
        changed = {s for s in range(4) if _seat_cards(g, s) != before[s]}
        own = [viewer for i, viewer in calls if viewer is not None and i != "view"]
        assert len(own) == len(set(own)) and set(own) == changed
        before = {s: _seat_cards(g, s) for s in range(4)}
        seat_before = {s: _seat_now(g, s) for s in range(4)}
        if g.game_over:
            break
        events = apply(g, rng.choice(legal_actions(g, None if dealer_to_act(g) else g.to_act)))
    assert reused > 10


@pytest.mark.parametrize("preset", ["classic", "swedish", "pagat", "draw"])
def test_the_committers_fast_path_sends_the_same_bytes_and_openings(preset):
    """Given the DeckCommitter (the host's case), the openings are looked up once for the
    public cards; given any other ``reveal(seat, cards)``, every card is passed: the same
    lines, the same openings remembered."""
    rules = PRESETS[preset].replace(suit_order="SHDC")
    g = new_game(rules, ["Ana", "Bo", "Cy", "Di", "Ed"], seed=2)
    install_tracking(g)
    rng = random.Random(2)
    fast, plain = DeckCommitter(seeded_nonces(3)), DeckCommitter(seeded_nonces(3))
    a, b = StateMessages(), StateMessages()
    events: list = []
    for step in range(400):
        kept = list(g.rng.reshuffled)  # both committers see the same reshuffles
        commits = fast.refresh(g)
        g.rng.reshuffled[:] = kept
        assert plain.refresh(g) == commits
        seats = [s for s in [None, 0, 1, 2, 3, 4] if rng.random() < 0.8] or [None]
        extra = {seats[0]: [["x"]]} if step % 9 == 0 else None
        head, tail = {"type": "state", "version": step}, {"turn": g.to_act}
        one = a.build(g, seats, events, head, tail, fast, extra)
        two = b.build(g, seats, events, head, tail,
                      lambda seat, cards: plain.reveal(seat, cards), extra)
        assert one == two
        assert fast.revealed == plain.revealed
        if g.game_over:
            break
        events = apply(g, rng.choice(legal_actions(g, None if dealer_to_act(g) else g.to_act)))


def test_a_group_joins_appends_per_file_syncs_each_once_and_isolates_a_failure(tmp_path,
                                                                              monkeypatch):
    files = [journal.JournalFile(tmp_path / f"t{i}.jsonl") for i in range(3)]
    for f in files:
        f.start('{"format":"pokeroulette-journal"}\n')
    writes, syncs = [], []
    real_write, real_sync = os.write, os.fdatasync
    monkeypatch.setattr(os, "write", lambda fd, data: writes.append(fd) or real_write(fd, data))
    monkeypatch.setattr(os, "fdatasync", lambda fd: syncs.append(fd) or real_sync(fd))
    group = [JournalWrite(files[0], "a1\n"), JournalWrite(files[0], "a2\n"),
             JournalWrite(files[1], "b1\n"), JournalWrite(files[0], "a3\n"),
             JournalWrite(files[1], "b2\n"), JournalWrite(files[1], "b3\n")]
    assert write_groups(group) == {}
    assert len(writes) == 4 and len(syncs) == 2  # a1+a2, b1, a3, b2+b3; one sync a file
    assert (tmp_path / "t0.jsonl").read_text().endswith("a1\na2\na3\n")
    assert (tmp_path / "t1.jsonl").read_text().endswith("b1\nb2\nb3\n")

    (tmp_path / "t1.jsonl").unlink()  # the file is gone and cannot be opened again
    files[1].close()
    failed = write_groups([JournalWrite(files[1], "b4\n"), JournalWrite(files[2], "c1\n"),
                           JournalWrite(files[1], "b5\n")])
    assert set(failed) == {id(files[1])}
    assert (tmp_path / "t2.jsonl").read_text().endswith("c1\n")  # written all the same
    with pytest.raises(OSError):
        write_all([JournalWrite(files[1], "b6\n")])


async def test_tables_on_one_loop_share_disk_writes_and_every_step_is_on_disk(tmp_path):
    """Two journaled tables play at once on one event loop: their steps' lines go to disk in
    shared groups (fewer thread hand-offs than steps, one fdatasync per journal per group),
    and every state a client saw is in its table's journal."""
    from pokeroulette_tui.net.client import RemoteSession
    from pokeroulette_tui.net.server import GroupCommit

    rules = RuleSet(suit_order="SHDC", betting="final_only")
    async with Served(rules, bots=2, delay=0.0, hand_pause=0.0, start_countdown=0.0,
                      save_path=tmp_path / "a.json") as one, \
            Served(rules, bots=2, delay=0.0, hand_pause=0.0, start_countdown=0.0,
                   save_path=tmp_path / "b.json") as two:
        players = [RemoteSession("127.0.0.1", s.port, "Ana") for s in (one, two)]
        for p in players:
            await p.connect()
            await p.set_ready()
        await asyncio.wait_for(asyncio.gather(*(autoplay(p, hands=2) for p in players)), 60)
        seen = [p.view(p.seat).hand_no for p in players]
        group = GroupCommit.of(asyncio.get_running_loop())
        steps = sum(len(s.host.table.actions) for s in (one, two))
        assert 0 < group.groups < steps
        assert group.groups <= group.syncs <= 2 * group.groups
        versions = [p.version for p in players]
        for p in players:
            await p.close()
    for name, version, hand_no in zip(("a.json", "b.json"), versions, seen):
        loaded = journal.load(tmp_path / name)
        assert len(loaded.actions) >= version and loaded.state.hand_no >= hand_no


async def test_quick_groups_are_written_on_the_loop_slow_ones_in_worker_threads(tmp_path,
                                                                                monkeypatch):
    """A group of journal writes runs on the event loop while groups are quick (a thread
    hand-off costs more than the write); once they take longer than INLINE_WRITE on average
    (a slow disk) they go to worker threads, and come back when the disk is quick again."""
    import threading
    import time

    from pokeroulette_tui.net import server as S

    f = journal.JournalFile(tmp_path / "t.jsonl")
    f.start('{"format":"pokeroulette-journal"}\n')
    threads: list[bool] = []
    slow = [True]
    real = S.write_groups

    def timed(writes):
        threads.append(threading.current_thread() is threading.main_thread())
        if slow[0]:
            time.sleep(S.INLINE_WRITE * 3)
        return real(writes)

    monkeypatch.setattr(S, "write_groups", timed)
    group = S.GroupCommit()
    for k in range(4):  # the disk turns slow: the average passes the limit
        assert await group._write([JournalWrite(f, f"{k}\n")]) == {}
    assert threads[0] is True and threads[-1] is False and group.threaded >= 1
    slow[0] = False
    threads.clear()
    for k in range(30):  # quick again: back on the loop
        await group._write([JournalWrite(f, f"q{k}\n")])
    assert threads[0] is False and threads[-1] is True
    assert group.write_time < S.INLINE_WRITE
    text = (tmp_path / "t.jsonl").read_text()
    assert text.endswith("".join(f"q{k}\n" for k in range(30)))  # all written, in order
