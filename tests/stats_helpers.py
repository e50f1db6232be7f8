"""Real engine games fed to the statistics recorder, as the table screen feeds it."""

from __future__ import annotations

import json
import random
from typing import Sequence

from pokeroulette_tui.bots import make_bot
from pokeroulette_tui.engine.events import redact_all
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView
from pokeroulette_tui.session import Session, Update
from pokeroulette_tui.table import SeatConfig, Table
from pokeroulette_tui.ui.stats_recorder import StatsRecorder


class TableSession(Session):
    """Just enough of a Session over a Table for the recorder: the views of the seats played
    here. ``wire``: a network client's view (one seat, rebuilt from JSON as the client does;
    ``view(None)`` is that same view, as RemoteSession answers)."""

    def __init__(self, table: Table, seats: Sequence[int], *, wire: bool = False) -> None:
        self.table = table
        self.rules = table.state.rules
        self.local_seats = tuple(seats)
        self.wire = wire

    def view(self, seat: int | None) -> SeatView:
        if self.wire:
            data = json.loads(json.dumps(self.table.view(self.local_seats[0]).to_dict()))
            return SeatView.from_dict(data)
        return self.table.view(seat)

    async def act(self, action):  # pragma: no cover - not used
        raise NotImplementedError

    def updates(self):  # pragma: no cover - not used
        raise NotImplementedError

    def history(self):
        return []


def new_table(rules: RuleSet, humans: Sequence[int], n: int = 3, *, seed: int = 1,
              save_path=None) -> Table:
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][:n]
    seats = [SeatConfig(name, None if i in humans else "random") for i, name in enumerate(names)]
    return Table.create(rules, seats, seed=seed, save_path=save_path)


def play(table: Table, session: Session, recorder: StatsRecorder, *, seed: int = 5,
         hands: int | None = None, spy=None) -> list[str]:
    """Play the table (humans by random bots of their own) until the game ends or ``hands``
    more hands are over, feeding the recorder each update; returns its messages.
    ``spy(table)`` is called after every action."""
    rng = random.Random(seed)
    stand_in = make_bot("random", rng)
    viewer = session.local_seats[0] if len(session.local_seats) == 1 else None
    notes: list[str] = []
    finished = 0
    for _ in range(50_000):
        if table.state.game_over or (hands is not None and finished >= hands):
            return notes
        action = table.auto_action()
        if action is None:
            seat = table.waiting_for_human()
            assert seat is not None
            action = stand_in.choose(table.view(seat), table.legal(seat))
        events = table.apply(action)
        over = any(e.kind == "hand_over" for e in events)
        finished += over
        update = Update(events=tuple(redact_all(events, viewer)),
                        result=table.state.result if over else None)
        if spy is not None:
            spy(table)
        note = recorder.on_update(session, update)
        if note:
            notes.append(note)
        if table.state.game_over:
            note = recorder.on_update(session, Update(note="game over"))
            if note:
                notes.append(note)
    raise AssertionError("the game did not end")
