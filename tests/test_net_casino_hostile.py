"""The casino host (``pokeroulette host --casino``) against a hostile peer, over raw loopback
sockets: silent floods, garbage, huge lines, forged tokens, names that would forge screen
content; the deck is never sent before the deal; the host never falls over."""

from __future__ import annotations

import asyncio
import json
import random
import socket

from pokeroulette_tui.net import casino_wire as W
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.server import Server

HELLO = {"type": "hello", "version": P.VERSION, "game": "casino"}


async def plain(**kw):
    host = CasinoHost(CasinoConfig(seed=3, deal_pause=0.05, result_pause=0.3, **kw))
    server = Server(host)
    _, port = await server.start("127.0.0.1", 0)
    return host, server, port


class Line:
    """A raw TCP peer speaking JSON lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Line:
        r, w = await asyncio.open_connection("127.0.0.1", port, limit=4 * 1024 * 1024)
        return cls(r, w)

    def send(self, msg: dict | bytes) -> None:
        self.writer.write(msg if isinstance(msg, bytes) else json.dumps(msg).encode() + b"\n")

    async def read(self, timeout: float = 5.0) -> dict | None:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        return json.loads(line) if line else None

    async def until(self, kind: str, timeout: float = 5.0) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.read(timeout)
                assert msg is not None, f"closed before a {kind!r}"
                if msg["type"] == kind:
                    return msg

    def close(self) -> None:
        self.writer.close()


async def test_a_crowd_of_silent_sockets_does_not_keep_a_player_out():
    """64 connections that never say hello (the waiting room's size) must not refuse an
    honest player who says hello at once: the oldest silent one makes way."""
    _host, server, port = await plain(max_pending=8, hello_timeout=30.0)
    silent = []
    try:
        for _ in range(20):
            silent.append(await Line.open(port))
        await asyncio.sleep(0.2)
        ana = await Line.open(port)
        ana.send({**HELLO, "name": "Ana"})
        first = await ana.read()
        assert first is not None and first["type"] == "welcome", first
        ana.close()
    finally:
        for s in silent:
            s.close()
        await server.close()


async def test_garbage_huge_lines_and_forged_tokens_leave_the_table_playing():
    host, server, port = await plain()
    try:
        ana = await Line.open(port)
        ana.send({**HELLO, "name": "Ana"})
        welcome = await ana.until("welcome")
        ana.send({"type": "bet", "id": 1, "kind": "colour", "target": "red", "amount": 10})
        await ana.until("ok")
        rng = random.Random(1)
        # garbage, a line far over the limit, a forged and a replayed-elsewhere token
        junk = await Line.open(port)
        junk.send(bytes(rng.randrange(256) for _ in range(4000)) + b"\n")
        big = await Line.open(port)
        big.send(b'{"type": "hello", "name": "' + b"A" * (P.MAX_LINE * 4) + b'"}\n')
        forged = await Line.open(port)
        forged.send({**HELLO, "name": "Ana", "token": "x" * 32})
        msg = await forged.until("error")
        assert msg["fatal"] and "seated" in msg["message"]
        lookalike = await Line.open(port)
        lookalike.send({**HELLO, "name": "\u0410na"})  # a Cyrillic A
        msg = await lookalike.until("error")  # (or the back-off after the forged token)
        assert "seated" in msg["message"] or "too many failed" in msg["message"]
        for s in (junk, big, forged, lookalike):
            s.close()
        # Ana's seat, bankroll and bet are untouched and the table answers her
        ana.send({"type": "ping", "id": 7})
        await ana.until("pong")
        state = host.state_for(0)
        assert state["players"][0]["bets"] == [{"kind": "colour", "target": "red",
                                                "amount": 10}]
        assert welcome["token"] and len(host.seats) == 1
    finally:
        await server.close()


async def test_a_name_with_escapes_or_bidi_reaches_nobody_raw():
    host, server, port = await plain()
    try:
        ana = await Line.open(port)
        ana.send({**HELLO, "name": "Ana"})
        await ana.until("welcome")
        evil = await Line.open(port)
        evil.send({**HELLO, "name": "\x1b[2J\x1b]0;x\x07Bo\u202e\u200b\r\nOK"})
        msg = await evil.until("welcome")
        note = await ana.until("notice")
        for text in (msg["name"], note["text"],
                     *(p["name"] for p in host.state_for(0)["players"])):
            assert not any(ord(c) < 32 or c in "\x7f\u202e\u200b" for c in text), text
    finally:
        await server.close()


async def test_the_deck_is_never_sent_before_the_deal():
    """Everything a player receives from the hello to the settlement: no card is named
    before it is dealt (the host's shoe stays in the host)."""
    _host, server, port = await plain()
    try:
        ana = await Line.open(port)
        ana.send({**HELLO, "name": "Ana"})
        await ana.until("welcome")
        ana.send({"type": "bet", "id": 1, "kind": "colour", "target": "red", "amount": 10})
        ana.send({"type": "ready", "id": 2})
        seen: list[dict] = []
        async with asyncio.timeout(10):
            while True:
                m = await ana.read()
                assert m is not None
                seen.append(m)
                if m["type"] == "casino" and m["stage"] == "settled":
                    break
        dealt = seen[-1]["dealt"]
        assert len(dealt) == 5
        for i, m in enumerate(seen):
            raw = json.dumps(m)
            assert "deck" not in raw and "shoe" not in raw
            if m["type"] == "casino":
                # no card of a later position appears in any message before it is dealt
                assert m["dealt"] == dealt[:len(m["dealt"])]
                later = [json.dumps(c) for c in dealt[len(m["dealt"]):]]
                shown = json.dumps({k: v for k, v in m.items() if k not in ("history",)})
                assert not any(c in shown for c in later if c not in
                               json.dumps(m["dealt"])), (i, m)
    finally:
        await server.close()


def test_random_requests_never_raise_out_of_the_host():
    """Fuzzed lines from many connections, seated or not: every one becomes an answer."""
    h = CasinoHost(CasinoConfig(seed=1, deal_pause=0, result_pause=0, bet_timeout=0))
    rng = random.Random(5)
    vals = [None, 1, -1, 2**60, 1.5, "x", "", [], {}, True, "\x1b[31m", "a" * 5000]
    kinds = ["hello", "bet", "undo", "clear", "rebet", "ready", "rebuy", "ping", "quit",
             "which", "casino", 5, None]
    for cid in range(1, 12):
        h.connect(cid, 0.0, ("127.0.0.1", 1000 + cid))
        h.receive(cid, P.encode(W.hello(f"p{cid}")), 0.1)
    for i in range(5000):
        cid = rng.randint(1, 14)
        if cid > 11:
            h.connect(cid, i * 0.01, None)
        msg: dict = {"type": rng.choice(kinds)}
        for f in ("id", "kind", "target", "amount", "ready", "name", "version", "game",
                  "token", "spectate", "password"):
            if rng.random() < 0.4:
                msg[f] = rng.choice(vals)
        if rng.random() < 0.3:
            msg["amount"] = rng.randint(1, 100)
        line = json.dumps(msg).encode() if rng.random() < 0.95 else \
            bytes(rng.randrange(256) for _ in range(rng.randint(0, 50)))
        h.receive(cid, line, i * 0.01)
        h.poll(i * 0.01)


async def test_a_client_that_never_reads_does_not_stall_the_others():
    _host, server, port = await plain()
    try:
        slow = socket.create_connection(("127.0.0.1", port))
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.sendall(json.dumps({**HELLO, "name": "Slow"}).encode() + b"\n")
        ana = await Line.open(port)
        ana.send({**HELLO, "name": "Ana"})
        await ana.until("welcome")
        # Slow never reads; Ana's pings keep the host busy sending states to both
        for ref in range(60):  # (within the host's rate: no "slow down")
            ana.send({"type": "bet", "id": ref, "kind": "colour", "target": "red", "amount": 1})
            await asyncio.sleep(0.11)
        ana.send({"type": "ping", "id": 99_999})
        await ana.until("pong", timeout=10)
        slow.close()
    finally:
        await server.close()


def test_a_hostile_hosts_names_and_words_reach_the_player_clean():
    """The other way round: a host that sends escapes, bidi overrides or a megabyte-long
    name in its state has them taken out before anything is drawn."""
    from pokeroulette_tui.engine.casino.paytable import DEFAULT
    from pokeroulette_tui.net.casino_client import heard

    evil = "\x1b]0;pwned\x07\x1b[2J\u202eBo\r\nHOST"
    msg = {"type": "casino", "stage": "settled", "round": 2, "jackpot": 100, "dealt": [],
           "players": [{"name": evil, "bankroll": 10, "bets": [], "connected": True,
                        "ready": False, "results": []}],
           "history": [{"number": 1, "cards": [], "hand": evil, "nets": [0],
                        "names": [evil]}],
           "log": [evil], "you": 0}
    c, _seats, _you = W.read_state(msg, DEFAULT, None)
    texts = [c.players[0].name, c.history[0].hand, *c.history[0].names, *c.log, heard(evil)]
    for text in texts:
        assert not any(ord(ch) < 32 or ch in "\x7f\u202e" for ch in text), repr(text)
    # a history entry of the wrong shape is a protocol error, not a traceback
    import pytest
    with pytest.raises(P.ProtocolError):
        W.read_state({**msg, "history": [[1, 2]]}, DEFAULT, None)
    with pytest.raises(P.ProtocolError):
        W.read_state({**msg, "history": "ab"}, DEFAULT, None)
