"""Hostile peers over real sockets: each gets a clear error and changes nothing; the server
never dies, and the other players and tables do not notice."""

from __future__ import annotations

import asyncio
import json
import socket
import struct

import pytest

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import protocol as P

from net_helpers import RawClient, Served

RULES = RuleSet(suit_order="SHDC")


def snap(srv: Served) -> str:
    return json.dumps([srv.host.version, srv.host.table.state.to_dict()], sort_keys=True)


def is_turn(seat):
    return lambda m: m["type"] == "state" and m["view"]["to_act"] == seat \
        and not m["view"]["dealer_step"]


@pytest.fixture
async def table():
    """A started table waiting for a human: Ana and Bo (people) and a bot; plus a second,
    unrelated table with its own player, to prove other tables do not notice.

    Yields a list [server, mover, idle, other server, other player]; a test that replaces a
    client puts the new one in the list, and the checks at the end use it."""
    async with Served(RULES, bots=1, hello_timeout=0.4, queue_size=16) as srv, \
            Served(RULES, bots=2, seed=99) as other:
        ana, bo, zed = RawClient("Ana"), RawClient("Bo"), RawClient("Zed")
        await ana.connect(srv.port)
        await bo.connect(srv.port)
        await zed.connect(other.port)
        for c in (ana, bo, zed):
            await c.send({"type": "ready", "ready": True})
        m = await ana.recv_until(lambda m: m["type"] == "state" and m["view"]["to_act"] in (0, 1)
                                 and not m["view"]["dealer_step"])
        mover, idle = (ana, bo) if m["view"]["to_act"] == 0 else (bo, ana)
        await mover.recv_until(is_turn(mover.seat))
        await zed.recv_until(is_turn(zed.seat))
        ctx = [srv, mover, idle, other, zed]
        yield ctx
        await survives(*ctx)
        for c in ctx[1:3] + ctx[4:]:
            await c.close()


def last_view(c: RawClient) -> dict:
    return next(m for m in reversed(c.msgs) if m["type"] == "state")["view"]


async def play_one(srv: Served, clients: list[RawClient]) -> None:
    """The human the table waits for plays one passive action, which the table applies."""
    seat = srv.host.table.waiting_for_human()
    c = next(c for c in clients if c.seat == seat)
    if last_view(c)["to_act"] != seat or last_view(c)["dealer_step"]:
        await c.recv_until(is_turn(seat))
    before = srv.host.version
    await c.act(c.policy(last_view(c)))
    await c.recv_until(lambda m: m["type"] == "ack")
    assert srv.host.version > before


async def survives(srv, mover, idle, other, zed) -> None:
    """After the attack: the honest players were told nothing odd and can still play."""
    for c in (mover, idle, zed):
        await c.send({"type": "ping", "id": 7})
        await c.recv_until(lambda m: m["type"] == "pong")
        bad = [m for m in c.msgs if m["type"] == "error"]
        assert not bad, bad
    await play_one(srv, [mover, idle])
    await play_one(other, [zed])


async def attacker(srv: Served, name: str = "Eve", **hello) -> RawClient:
    eve = RawClient(name, spectate=True)
    w = await eve.connect(srv.port, **hello)
    assert w["type"] == "welcome"
    return eve


async def expect_error(c: RawClient, text: str, *, fatal: bool = False) -> dict:
    m = await c.recv_until(lambda m: m["type"] == "error")
    assert text in m["message"], m
    assert bool(m.get("fatal")) == fatal
    return m


async def expect_closed(c: RawClient) -> None:
    with pytest.raises((EOFError, ConnectionError)):
        for _ in range(100):
            await c.recv(5)


# -- garbage ---------------------------------------------------------------------------------

async def test_garbage_bytes_and_invalid_json(table):
    srv, mover, idle, *_ = table
    before = snap(srv)
    eve = await attacker(srv)
    for raw, why in [(b"\x00\x01\x02\xff\xfe\n", "UTF-8"), (b"{oops\n", "not valid JSON"),
                     (b"[1,2]\n", "JSON object"), (b'{"type": 3}\n', '"type"'),
                     (b'{"type": "act", "amount": NaN}\n', "not valid JSON"),
                     (b"[" * 60_000 + b"\n", "nested too deeply"),
                     (b'{"type": "hello", "version": 2, "name": "Again"}\n', "unknown message type")]:
        await eve.send(raw)
        await expect_error(eve, why)
    # the same junk from a seated player: errors, no harm
    await idle.send(b"\x1b[2J\x1b]0;owned\x07\n")
    await expect_error(idle, "not valid JSON")
    idle.msgs = [m for m in idle.msgs if m["type"] != "error"]
    assert snap(srv) == before
    await eve.close()


async def test_unknown_types_and_wrong_fields(table):
    srv, mover, idle, *_ = table
    before = snap(srv)
    await mover.send({"type": "teleport"})
    await expect_error(mover, "unknown message type")
    await mover.send({"type": "ready", "ready": "yes"})
    await expect_error(mover, "already started")
    await mover.send({"type": "act", "id": "one", "version": 0, "action": {"type": "check"}})
    await expect_error(mover, '"id"')
    mover.msgs = [m for m in mover.msgs if m["type"] != "error"]
    assert snap(srv) == before


@pytest.mark.parametrize("hello, why", [
    ({"type": "hello", "version": 1, "name": "Old"}, "protocol version 2"),
    ({"type": "hello", "version": "2", "name": "Old"}, "protocol version 2"),
    ({"type": "hello", "name": "Old"}, "protocol version 2"),
    ({"type": "chat", "text": "hi"}, "first message must be"),
])
async def test_wrong_version_or_no_hello_first(table, hello, why):
    srv, *_ = table
    r, w = await asyncio.open_connection("127.0.0.1", srv.port)
    w.write(P.encode(hello))
    await w.drain()
    m = json.loads(await r.readline())
    assert m["type"] == "error" and why in m["message"] and m["fatal"]
    assert await r.readline() == b""  # and closed
    w.close()


async def test_a_client_that_never_says_hello_is_dropped(table):
    srv, *_ = table
    r, w = await asyncio.open_connection("127.0.0.1", srv.port)
    m = json.loads(await asyncio.wait_for(r.readline(), 5))
    assert m["type"] == "error" and "no hello" in m["message"]
    assert await r.readline() == b""
    w.close()
    # and one that sends half a hello and stalls
    r, w = await asyncio.open_connection("127.0.0.1", srv.port)
    w.write(b'{"type": "hello", "vers')
    await w.drain()
    m = json.loads(await asyncio.wait_for(r.readline(), 5))
    assert "no hello" in m["message"]
    w.close()
    assert len(srv.server.conns) == 2


# -- oversized lines ---------------------------------------------------------------------------

@pytest.mark.parametrize("pieces", [1, 40])
async def test_oversized_line_is_refused_and_its_tail_never_runs(table, pieces):
    srv, mover, idle, *_ = table
    before = snap(srv)
    eve = await attacker(srv, "Eve")
    tail = P.encode({"type": "chat", "text": "PWNED"})
    action = json.dumps({"type": "act", "id": 1, "version": srv.host.version,
                         "action": {"type": "fold"}}).encode()
    # a huge chat line whose end is a newline-terminated message that must never run
    payload = b'{"type": "chat", "text": "' + b"A" * (P.MAX_LINE + 100) + b'"}' + b"\n" + tail
    step = len(payload) // pieces + 1
    for i in range(0, len(payload), step):
        eve.writer.write(payload[i:i + step])
        await eve.writer.drain()
    m = await expect_error(eve, "at most 65536 bytes", fatal=True)
    assert m["fatal"]
    await expect_closed(eve)
    # the mover's oversized action (its tail is a real action) is refused the same way
    mover.writer.write(b" " * (P.MAX_LINE + 10) + action + b"\n")
    await mover.writer.drain()
    await expect_error(mover, "at most", fatal=True)
    assert snap(srv) == before
    await asyncio.sleep(0.05)
    assert not any(m["type"] == "chat" and "PWNED" in m["text"] for m in idle.msgs)
    # the mover takes the seat back with its token; nothing was played for it
    again = RawClient(mover.name)
    w = await again.connect(srv.port, token=mover.token)
    assert w["seat"] == mover.seat
    again.ids = 0
    table[1] = again


async def test_a_line_exactly_at_the_limit_is_fine(table):
    srv, mover, idle, *_ = table
    msg = {"type": "chat", "text": "hi"}
    line = P.encode(msg)
    padded = line[:-2] + b" " * (P.MAX_LINE - len(line) + 1) + b"}\n"
    assert len(padded) == P.MAX_LINE + 1
    await mover.send(padded)
    m = await mover.recv_until(lambda m: m["type"] in ("chat", "error"))
    assert m["type"] == "chat"


# -- actions -------------------------------------------------------------------------------

async def test_out_of_turn_other_seat_replay_and_absurd_amounts(table):
    srv, mover, idle, *_ = table
    before = snap(srv)
    cases = [
        (idle, {"type": "check"}, "not your turn"),
        (idle, {"type": "check", "seat": mover.seat}, "your own seat"),
        (mover, {"type": "bet", "amount": 10**100}, "out of range"),
        (mover, {"type": "raise", "amount": -3}, ""),
        (mover, {"type": "bet", "amount": 1.5}, "whole number"),
        (mover, {"type": "start_hand"}, "dealer"),
        (mover, {"type": "leave", "seat": idle.seat}, "your own seat"),
    ]
    for c, action, why in cases:
        await c.act(action)
        await expect_error(c, why)
        assert snap(srv) == before
    # a replayed request id
    await mover.send({"type": "act", "id": 1, "version": srv.host.version,
                      "action": {"type": "check"}})
    await expect_error(mover, "replayed")
    # a stale version
    await mover.send({"type": "act", "id": 10_000, "version": 0, "action": {"type": "check"}})
    await expect_error(mover, "stale")
    assert snap(srv) == before
    for c in (mover, idle):
        c.msgs = [m for m in c.msgs if m["type"] != "error"]
    mover.ids = 10_000


async def test_a_replayed_action_message_is_never_applied_twice(table):
    srv, mover, idle, *_ = table
    view = mover.msgs[-1]["view"] if mover.msgs[-1]["type"] == "state" else None
    msg = {"type": "act", "id": 500, "version": srv.host.version,
           "action": mover.policy(view or next(m for m in reversed(mover.msgs)
                                               if m["type"] == "state")["view"])}
    await mover.send(msg)
    await mover.recv_until(lambda m: m["type"] == "ack")
    after = snap(srv)
    await mover.send(msg)
    await expect_error(mover, "replayed")
    msg["id"] = 501
    await mover.send(msg)
    m = await mover.recv_until(lambda m: m["type"] == "error")
    assert "stale" in m["message"] or "not your turn" in m["message"]
    assert snap(srv) == after
    mover.msgs = [m for m in mover.msgs if m["type"] != "error"]
    mover.ids = 501


async def test_chat_flood_and_overlong_chat(table):
    srv, mover, idle, *_ = table
    eve = await attacker(srv)
    for i in range(30):
        await eve.send({"type": "chat", "text": f"flood {i}"})
    await eve.send({"type": "chat", "text": "x" * 301})
    await eve.send({"type": "chat", "text": "\x1b[31m\u202e"})
    await asyncio.sleep(0.1)
    await idle.send({"type": "ping"})
    await idle.recv_until(lambda m: m["type"] == "pong")
    got = [m for m in idle.msgs if m["type"] == "chat"]
    assert len(got) == 5  # the burst; the rest were refused
    errs = []
    while len(errs) < 27:
        m = await eve.recv()
        if m["type"] == "error":
            errs.append(m["message"])
    assert errs.count("slow down: too many chat messages") == 26  # 25 + the cleaned "[31m"
    assert "chat messages are at most 300 characters" in errs
    await eve.close()


async def test_names_and_chat_are_cleaned_for_everyone(table):
    srv, mover, idle, *_ = table
    eve = await attacker(srv, "\x1b[5m\u202eEve\u2066[bold]")
    assert eve.msgs[0]["name"] == "[5mEve[bold]"
    await eve.send({"type": "chat", "text": "\x1b]52;c;ZXZpbA==\x07 [link=http://x]hi[/link]"})
    m = await idle.recv_until(lambda m: m["type"] == "chat")
    assert "\x1b" not in m["text"] and "\x07" not in m["text"] and "\u202e" not in m["name"]
    assert m["text"] == "]52;c;ZXZpbA== [link=http://x]hi[/link]"
    await eve.close()


# -- slow and broken peers ---------------------------------------------------------------------

async def test_a_client_that_stops_reading_is_disconnected_not_waited_for():
    async with Served(RULES, bots=2, queue_size=8, turn_timeout=0.02) as srv:
        fast = RawClient("Ana")
        await fast.connect(srv.port)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", srv.port))
        r, w = await asyncio.open_connection(sock=sock)
        w.write(P.encode({"type": "hello", "version": 2, "name": "Sloth"}))
        w.write(P.encode({"type": "ready", "ready": True}))
        await w.drain()
        await fast.send({"type": "ready", "ready": True})
        await fast.recv_until(lambda m: m["type"] == "state")
        sloth = next(p for p in srv.host.players if p.name == "Sloth")
        assert sloth.cid is not None
        # Ana plays on; Sloth never reads another byte
        for _ in range(20_000):
            if sloth.cid is None:
                break
            m = await fast.recv(10)
            if m["type"] == "state":
                a = fast.policy(m["view"])
                if a is not None:
                    await fast.act(a)
        assert sloth.cid is None                        # dropped …
        assert sloth in srv.host.players                # … but the seat is held
        assert len(srv.server.conns) == 1
        await fast.recv_until(lambda m: m["type"] == "notice" and "Sloth lost" in m["text"])
        # (a 20 ms turn timer may play for Ana too when the machine is busy: her late action
        # is then refused as stale, which is the timer's doing, not the slow reader's)
        assert not [m for m in fast.msgs if m["type"] == "error"
                    and not m["message"].startswith("stale action")]
        w.transport.abort()
        await fast.close()


async def test_abrupt_resets_mid_write_and_mid_line(table):
    srv, mover, idle, *_ = table
    loop = asyncio.get_running_loop()
    for cut in (10, 200, 5000):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", srv.port))
        await loop.sock_sendall(sock, P.encode({"type": "hello", "version": 2, "name": "Rst",
                                                "spectate": True}))
        await loop.sock_sendall(sock, b'{"type": "chat", "text": "' + b"y" * cut)  # half a line
        await asyncio.sleep(0.02)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # RST while the server is writing the welcome and catch-up
    await asyncio.sleep(0.1)
    assert len(srv.server.conns) == 2
    assert not any("y" * 10 in m.get("text", "") for m in idle.msgs if m["type"] == "chat")


async def test_a_crashing_handler_costs_one_message_not_the_server(table, monkeypatch):
    srv, mover, idle, *_ = table
    real = srv.host._handlers["chat"]

    def boom(self, conn, msg, now):
        raise RuntimeError("bug")

    monkeypatch.setitem(srv.host._handlers, "chat", boom)
    eve = await attacker(srv)
    await eve.send({"type": "chat", "text": "hi"})
    await expect_error(eve, "internal error")
    monkeypatch.setitem(srv.host._handlers, "chat", real)
    await eve.close()
