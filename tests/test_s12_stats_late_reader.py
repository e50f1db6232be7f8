"""A network client's statistics are right however late the screen reads its updates: at a
table with no result pause the next hand's deal arrives a moment after a hand ends, and the
recorder must read each update's own view, not the session's newest one (hands folded were
lost, hands played through were marked as joined part-way)."""

from __future__ import annotations

import asyncio
import json

from net_helpers import Served, autoplay, passive_action

from pokeroulette_tui.engine.actions import Call, Check, Fold
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.stats_store import StatsStore
from pokeroulette_tui.net.client import RemoteSession
from pokeroulette_tui.ui.stats_recorder import StatsRecorder

RULES = RuleSet(suit_order="SHDC", starting_chips=100_000)


async def test_statistics_read_late_count_every_hand_whole(tmp_path):
    folded: set[int] = set()

    def folds_odd_hands(view):
        """Fold at the first betting turn of each odd hand, else play passively."""
        action = passive_action(view)
        if view.hand_no % 2 == 1 and isinstance(action, (Check, Call)):
            folded.add(view.hand_no)
            return Fold(seat=view.seat)
        return action

    async with Served(RULES, delay=0.0, hand_pause=0.0, bots=2, bot_level="simple") as srv:
        ana = RemoteSession("127.0.0.1", srv.port, "Ana")
        await ana.connect()
        await ana.set_ready(True)
        updates = await asyncio.wait_for(autoplay(ana, hands=8, policy=folds_odd_hands), 60)
        await ana.close()
    # the screen reads them only now: the session's own view is long past these hands
    store = StatsStore(tmp_path / "stats")
    recorder = StatsRecorder(store)
    for update in updates:
        assert recorder.on_update(ana, update) is None
    results = sorted(u.result.hand_no for u in updates if u.result is not None)
    assert len(results) >= 6 and folded & set(results)
    hands = [json.loads(line) for line in store.path("Ana").read_text().splitlines()
             if '"kind":"hand"' in line]
    assert sorted(h["hand_no"] for h in hands) == results
    assert not [h["hand_no"] for h in hands if h.get("partial")]
    assert all(h["cards"] for h in hands)  # each hand's own cards, not the next deal's
