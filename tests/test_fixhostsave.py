"""A network host whose journal stops being written (a full disk) says so: every player and
spectator gets one notice (no path, no cards, no error number), anyone joining meanwhile gets
it too, the host's log says it once, and everyone is told once when saving works again. Play
goes on meanwhile (an ``ack`` then means played, not saved)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from net_helpers import RawClient, Served

from pokeroulette_tui.engine import journal
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import messages as M

FAILING = "The host cannot save this table now"
AGAIN = "The host saves this table again."
RULES = RuleSet(suit_order="SHDC")


class Disk:
    """The journal's writes fail while ``full`` (as on a full disk): the appends, their
    fdatasync and a fresh checkpoint alike."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        for name in ("start", "append", "sync", "resume"):
            real = getattr(journal.JournalFile, name)
            monkeypatch.setattr(journal.JournalFile, name, self._wrap(real))

    def _wrap(self, real):
        disk = self

        def write(file, *args, **kwargs):
            if disk.full:
                raise OSError(28, "No space left on device")
            return real(file, *args, **kwargs)
        return write


def _notes(c: RawClient, start: str) -> list[str]:
    return [m["text"] for m in c.msgs if m["type"] == "notice" and m["text"].startswith(start)]


async def _play_until(c: RawClient, pred, timeout: float = 30.0) -> dict:
    """Play the client's policy until a message matches ``pred``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        m = await c.recv(max(0.01, end - loop.time()))
        if pred(m):
            return m
        if m["type"] == "state" and not m["view"]["game_over"]:
            action = c.policy(m["view"])
            if action is not None:
                await c.act(action)


def _is(start: str):
    return lambda m: m["type"] == "notice" and m["text"].startswith(start)


async def test_a_full_disk_is_told_once_to_everyone_and_its_end_too(tmp_path, monkeypatch,
                                                                     caplog):
    caplog.set_level(logging.INFO, logger="pokeroulette")
    disk = Disk(monkeypatch)
    save = tmp_path / "table.json"
    async with Served(RULES, bots=2, save_path=save) as srv:
        ana, spy = RawClient("Ana"), RawClient("Spy", spectate=True)
        await ana.connect(srv.port)
        await spy.connect(srv.port)
        await ana.send({"type": "ready"})
        await _play_until(ana, lambda m: m["type"] == "ack")  # saving works: nothing said
        disk.full = True
        said = await _play_until(ana, _is(FAILING))
        await spy.recv_until(_is(FAILING))
        acks = sum(m["type"] == "ack" for m in ana.msgs)
        await _play_until(ana, lambda m: m["type"] == "ack")  # play goes on, acknowledged
        await _play_until(ana, lambda m: m["type"] == "ack")
        assert sum(m["type"] == "ack" for m in ana.msgs) == acks + 2
        late = RawClient("Late", spectate=True)  # joins meanwhile: told after its catch-up
        await late.connect(srv.port)
        await late.recv_until(_is(FAILING))
        assert any(m["type"] == "state" for m in late.msgs)
        disk.full = False
        await _play_until(ana, _is(AGAIN))
        for c in (spy, late):
            await c.recv_until(_is(AGAIN))
        version = ana.version
        await _play_until(ana, lambda m: m["type"] == "ack")
        for c in (ana, spy, late):
            assert len(_notes(c, FAILING)) == 1 and len(_notes(c, AGAIN)) == 1, c.name
        host_table = srv.host.table
        assert not host_table.save_problem and not host_table.save_error
        for c in (ana, spy, late):
            await c.close()
    assert said == {"type": "notice", "text": said["text"]}  # words only: no cards
    text = said["text"]
    assert "No space left on device" in text and "crash" in text
    assert "Errno" not in text and "28" not in text and str(tmp_path) not in text
    assert len(journal.load(save).actions) >= version  # the journal holds the table again
    logged = [r for r in caplog.records if r.getMessage().startswith(FAILING)]
    assert len(logged) == 1 and logged[0].levelno == logging.WARNING
    assert len([r for r in caplog.records if "failed" in r.getMessage()
                and r.levelno >= logging.ERROR]) == 1  # the path, once: not once an action
    assert any("being saved again" in r.getMessage() for r in caplog.records)


async def test_a_resumed_table_whose_journal_cannot_be_written_tells_who_joins(tmp_path,
                                                                               monkeypatch):
    disk = Disk(monkeypatch)
    save = tmp_path / "table.json"
    async with Served(RULES, bots=2, save_path=save) as srv:
        ana = RawClient("Ana")
        await ana.connect(srv.port)
        await ana.send({"type": "ready"})
        await _play_until(ana, lambda m: m["type"] == "ack")
        token = ana.token
        await ana.close()
    assert not _notes(ana, FAILING)
    from pokeroulette_tui.net.host import HostConfig, TableHost
    from pokeroulette_tui.net.server import Server
    disk.full = True
    host = TableHost.resume(save, HostConfig(rules=RULES, save_path=save, delay=0.0,
                                             hand_pause=0.0, turn_timeout=0.0))
    assert host.table.save_problem  # (the journal could not be opened to append)
    server = Server(host)
    __, port = await server.start("127.0.0.1", 0)
    try:
        again, spy = RawClient("Ana"), RawClient("Spy", spectate=True)
        assert (await again.connect(port, token=token))["type"] == "welcome"
        await again.recv_until(_is(FAILING))
        await spy.connect(port)
        await spy.recv_until(_is(FAILING))
        for c in (again, spy):
            await c.close()
    finally:
        await server.close()
    assert len(_notes(again, FAILING)) == 1


def test_the_notices_are_host_sentences_a_client_says_in_its_players_language():
    """A client says a host's notice again in its player's language (``heard``) only when it
    is one of the host sentences it knows."""
    from pokeroulette_tui.net.host import TableHost

    failing = next(t for t in M.HOST_SENTENCES if t.startswith(FAILING))
    assert "{reason}" in failing and AGAIN in M.HOST_SENTENCES
    host = TableHost.__new__(TableHost)
    host.table = type("T", (), {"save_problem": "No space left on device"})()
    assert host._save_note() == failing.format(reason="No space left on device")
