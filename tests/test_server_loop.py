"""The servers' event loop (pokeroulette_tui/net/loop.py): uvloop where installed, asyncio's
on request; a TLS table with its journal, and a Unix-socket table with the kernel's word on
who connected, played on it for real (the rest of the suite runs the servers in-process on
asyncio's loop)."""
from __future__ import annotations

import asyncio
import os
import sys

import pytest

from pokeroulette_tui.engine.journal import load
from pokeroulette_tui.net import loop as server_loop
from pokeroulette_tui.net import unix
from pokeroulette_tui.net.client import RemoteSession

from net_helpers import RawClient, Served

uvloop = pytest.importorskip("uvloop") if sys.platform != "win32" else None


def test_uvloop_unless_asked_for_asyncios_loop_or_not_installed(monkeypatch):
    monkeypatch.delenv("POKEROULETTE_LOOP", raising=False)
    assert server_loop.factory() is uvloop.new_event_loop and server_loop.name() == "uvloop"
    monkeypatch.setenv("POKEROULETTE_LOOP", " AsyncIO ")
    assert server_loop.factory() is None and server_loop.name() == "asyncio"
    assert type(server_loop.run(_running_loop())).__module__.startswith("asyncio")
    monkeypatch.delenv("POKEROULETTE_LOOP")
    assert type(server_loop.run(_running_loop())).__module__.startswith("uvloop")
    monkeypatch.setitem(sys.modules, "uvloop", None)  # (an installation without it)
    assert server_loop.factory() is None


async def _running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_a_tls_table_with_its_journal_plays_on_the_servers_loop(tmp_path, monkeypatch):
    monkeypatch.delenv("POKEROULETTE_LOOP", raising=False)
    save = tmp_path / "table.json"

    async def game() -> tuple[str, list[RawClient]]:
        async with Served(tls_dir=tmp_path / "tls", save_path=save) as srv:
            clients = [RawClient(n) for n in ("Ana", "Bo", "Cy")]
            for c in clients:
                assert (await c.connect(srv.port, tls=True))["type"] == "welcome"
            for c in clients:
                await c.send({"type": "ready", "ready": True})
            await asyncio.gather(*(c.play(hands=2) for c in clients))
            for c in clients:
                await c.close()
            return type(asyncio.get_running_loop()).__module__, clients

    kind, clients = server_loop.run(game())
    assert kind.startswith("uvloop")
    for c in clients:
        states = [m for m in c.msgs if m["type"] == "state"]
        assert states[-1]["view"]["hand_no"] > 2 or states[-1]["view"]["game_over"]
        seen = {m["view"]["seat"] for m in states}
        assert seen == {c.seat}  # each saw its own seat's view only
    loaded = load(save)  # every action acknowledged is in the journal
    assert loaded.state.hand_no >= 2 and len(loaded.actions) > 10


@pytest.mark.skipif(bool(unix.unsupported()), reason="Linux only (SO_PEERCRED)")
def test_a_unix_table_knows_the_account_on_the_servers_loop(tmp_path, monkeypatch):
    from test_net_unix import ME, UnixServed
    base = tmp_path / "run"
    base.mkdir()
    base.chmod(0o1777)
    monkeypatch.setenv(unix.BASE_ENV, str(base))
    monkeypatch.delenv("POKEROULETTE_LOOP", raising=False)

    async def join() -> tuple[str, dict]:
        async with UnixServed() as srv:
            session = RemoteSession("", 0, "Anything", unix=unix.target_for("me"))
            welcome = await session.connect()
            assert len(srv.host.players) == 1
            await session.close()
            return type(asyncio.get_running_loop()).__module__, welcome

    kind, welcome = server_loop.run(join())
    assert kind.startswith("uvloop")
    assert welcome["account"] == ME.login and welcome["name"] == ME.seat_name()
    assert os.listdir(unix.table_dir(ME.uid)) == []  # the socket was removed at the end
