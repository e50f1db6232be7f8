"""A host whose messages this program cannot read: the player is told, once a connection for
each kind of message (not an empty table with no word why), and the game goes on."""

from __future__ import annotations

import asyncio

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net.client import RemoteSession

from net_helpers import Served

RULES = RuleSet(suit_order="SHDC")
SAID = "cannot read was ignored"


async def notes_until_quiet(session: RemoteSession, quiet: float = 0.5) -> list[str]:
    notes = []
    while True:
        try:
            u = await asyncio.wait_for(session._updates.get(), quiet)
        except asyncio.TimeoutError:
            return notes
        notes.append(u.note)


async def test_unreadable_states_are_said_once_and_the_table_goes_on():
    async with Served(RULES) as srv:
        sessions = []
        for name in ("Ana", "Bo", "Cy"):
            s = RemoteSession("127.0.0.1", srv.port, name)
            await s.connect()
            sessions.append(s)
        for s in sessions:
            await s.set_ready(True)
        ana = sessions[0]
        for _ in range(200):
            if ana.game_started and ana.view(ana.seat) is not None:
                break
            await asyncio.sleep(0.05)
        assert ana.game_started
        await notes_until_quiet(ana)
        before = ana.view(ana.seat)
        # the host "sends" states this program cannot read, of two kinds of damage, and a
        # deal of another known type with a bad field
        for line in (b'{"type":"state","view":5}\n', b'{"type":"state","serial":"x"}\n',
                     b'{"type":"state","view":[]}\n', b'{"type":"ack","id":"seven"}\n'):
            ana._reader.feed_data(line)
        notes = [n for n in await notes_until_quiet(ana) if SAID in n]
        assert len(notes) == 2, notes  # once for the states, once for the ack
        assert ana.view(ana.seat) == before  # nothing of the table was lost to them
        for s in sessions:
            await s.close()
