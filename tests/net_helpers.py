"""Helpers for the network tests: a socket-free harness around TableHost, card extraction
for leak checks, and a raw line client that records every byte it receives."""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.host import HostConfig, Out, TableHost


def seeded_nonces(seed: int = 1):
    rng = random.Random(seed)
    return lambda n: rng.randbytes(n)


def make_host(rules: RuleSet | None = None, *, admin: str | None = None, nonce_seed: int = 1,
              **kw: Any) -> TableHost:
    kw.setdefault("seed", 7)
    kw.setdefault("delay", 0.0)
    kw.setdefault("lobby_gap", 0.0)  # every lobby change at once (tests of the gap set it)
    kw.setdefault("start_countdown", 0.0)  # headless tables start at once (tests of it set it)
    kw.setdefault("hand_pause", 0.0)
    kw.setdefault("turn_timeout", 0.0)
    return TableHost(HostConfig(rules=rules or RuleSet(suit_order="SHDC"), **kw),
                     admin_token=admin, nonce_source=seeded_nonces(nonce_seed))


@dataclass
class Peer:
    """One fake connection: what it was sent, and whether it was closed."""

    cid: int
    inbox: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    token: str | None = None
    seat: int | None = None

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.inbox if m["type"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        found = self.of(kind)
        assert found, f"no {kind} message in {[m['type'] for m in self.inbox]}"
        return found[-1]

    def errors(self) -> list[str]:
        return [m["message"] for m in self.of("error")]


class Harness:
    """Drive a TableHost with a fake clock and fake connections (every message goes through
    encode/decode, like the real server)."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self.now = 1000.0
        self.peers: dict[int, Peer] = {}
        self._next = 0

    def deliver(self, outs: list[Out]) -> None:
        for o in outs:
            peer = self.peers.get(o.cid)
            if peer is None or peer.closed:
                continue
            if o.data is not None:
                assert o.data.endswith(b"\n") and o.data.count(b"\n") == 1
                peer.inbox.append(P.decode(o.data))
            elif o.msg is not None:
                peer.inbox.append(json.loads(P.encode(o.msg)))
            if o.close:
                peer.closed = True
                self.deliver(self.host.disconnect(o.cid, self.now))

    def connect(self, peer: Any = None) -> Peer:
        """A new connection; ``peer`` is what the server learnt about it (an Account from
        the kernel on a Unix socket, or an address)."""
        self._next += 1
        conn = Peer(self._next)
        self.peers[conn.cid] = conn
        self.deliver(self.host.connect(conn.cid, self.now, peer))
        return conn

    def send(self, peer: Peer, msg: dict[str, Any] | bytes) -> None:
        line = msg if isinstance(msg, bytes) else P.encode(msg)
        self.deliver(self.host.receive(peer.cid, line, self.now))

    def join(self, name: str, *, peer: Any = None, **hello: Any) -> Peer:
        peer = self.connect(peer)
        self.send(peer, {"type": "hello", "version": 2, "name": name, **hello})
        welcome = peer.of("welcome")
        if welcome:
            peer.token = welcome[0]["token"] or hello.get("token")
            peer.seat = welcome[0]["seat"]
        return peer

    def drop(self, peer: Peer) -> None:
        peer.closed = True
        self.deliver(self.host.disconnect(peer.cid, self.now))

    def poll(self, advance: float = 0.0) -> None:
        self.now += advance
        self.deliver(self.host.poll(self.now))
        for _ in range(1000):  # bots think right here (the server uses a worker thread)
            job = self.host.take_bot_job()
            if job is None:
                break
            self.deliver(self.host.bot_chose(job, job.bot.choose(job.view, job.legal), self.now))
            self.deliver(self.host.poll(self.now))

    def run(self, limit: int = 100) -> None:
        """Poll until nothing more is due (bots and the dealer have moved)."""
        for _ in range(limit):
            before = self.host.version
            self.poll()
            if self.host.version == before:
                return


# -- cards in a byte stream ---------------------------------------------------------------

CARD_TEXT = re.compile(r"^(?:[2-9TJQKA][shdc]|\*)$")
CARD_SYMBOL = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA])([♠♥♦♣])")
_SYM = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def cards_in(obj: Any, *, skip: Iterable[str] = ("commitments", "rules", "rules_text")) -> list[str]:
    """Every card named anywhere in a decoded message: card fields ("As", "*") and card
    symbols inside sentences ("A♠"); the suit-ranking draw is a separate deck and skipped."""
    out: list[str] = []
    skip = set(skip)

    def walk(x: Any, key: str = "") -> None:
        if key in skip or key == "suit_draw":
            return
        if isinstance(x, dict):
            if x.get("kind") == "suit_order":
                return
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            if CARD_TEXT.match(x):
                out.append(x)
            else:
                out.extend(r + _SYM[s] for r, s in CARD_SYMBOL.findall(x))
                if "★" in x:
                    out.append("*")

    walk(obj)
    return out


# -- a raw client over real sockets ---------------------------------------------------------

class RawClient:
    """A minimal line client that records every byte received (for leak tests) and can play a
    simple deterministic policy: check, else call, else fold; keep; stand pat; cut middle."""

    def __init__(self, name: str, *, spectate: bool = False) -> None:
        self.name = name
        self.spectate = spectate
        self.raw: list[bytes] = []
        self.msgs: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.token: str | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.ids = 0
        self.version = 0

    async def connect(self, port: int, *, tls: bool = False, **hello: Any) -> dict[str, Any]:
        from pokeroulette_tui.net.tls import client_context
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", port, limit=P.CLIENT_MAX_LINE, ssl=client_context() if tls else None)
        await self.send({"type": "hello", "version": 2, "name": self.name,
                         "spectate": self.spectate, **hello})
        msg = await self.recv()
        if msg["type"] == "welcome":
            self.seat, self.token = msg["seat"], msg["token"]
        return msg

    async def send(self, msg: dict[str, Any] | bytes) -> None:
        assert self.writer is not None
        self.writer.write(msg if isinstance(msg, bytes) else P.encode(msg))
        await self.writer.drain()

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        assert self.reader is not None
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise EOFError("closed")
        self.raw.append(line)
        msg = json.loads(line)
        self.msgs.append(msg)
        if msg["type"] == "state":
            self.version = msg["version"]
        return msg

    async def recv_until(self, pred, timeout: float = 20.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if pred(msg):
                return msg

    def policy(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """The action this client plays for ``view`` (None when it is not its turn)."""
        if view["to_act"] != self.seat or view["seat"] != self.seat or view["game_over"] \
                or view["dealer_step"]:
            return None
        phase = view["phase"]
        if phase == "betting":
            o = view["options"]
            if o["check"]:
                return {"type": "check"}
            if o["call"]:
                return {"type": "call"}
            return {"type": "fold"}  # facing a bet of the whole stack: keep the game going
        if phase == "stock_to_active":
            return {"type": "stock_to_active", "index": None}
        if phase == "draw":
            return {"type": "discard", "indices": []}
        if phase == "cut":
            return {"type": "cut", "position": view["deck_count"] // 2}
        return None

    async def act(self, action: dict[str, Any]) -> None:
        self.ids += 1
        await self.send({"type": "act", "id": self.ids, "version": self.version, "action": action})

    async def play(self, *, hands: int, timeout: float = 60.0) -> None:
        """Play the policy until the game reaches hand ``hands`` + 1 or ends."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.01, end - loop.time()))
            if msg["type"] in ("bye",) or msg["type"] == "error" and msg.get("fatal"):
                return
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if view["game_over"] or view["hand_no"] > hands:
                return
            action = self.policy(view)
            if action is not None:
                await self.act(action)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass


# -- servers and sessions over loopback ----------------------------------------------------

class Served:
    """A TableHost served on 127.0.0.1, port 0 (use ``async with``)."""

    def __init__(self, rules: RuleSet | None = None, **kw: Any) -> None:
        from pokeroulette_tui.net.server import Server
        server_kw = {k: kw.pop(k) for k in ("queue_size", "limit") if k in kw}
        self.tls_dir = kw.pop("tls_dir", None)  # a folder for a TLS identity: serve TLS
        self.host = make_host(rules, **kw)
        self.server = Server(self.host, **server_kw)
        self.port = 0
        self.fingerprint = ""

    async def __aenter__(self) -> "Served":
        context = None
        if self.tls_dir is not None:
            from pokeroulette_tui.net import tls
            identity = tls.host_identity(self.tls_dir)
            context, self.fingerprint = tls.server_context(identity), identity.fingerprint
        _, self.port = await self.server.start("127.0.0.1", 0, ssl=context)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.server.close()


def passive_wire(view: dict) -> dict:
    """A ``state`` message's view's passive choice, as an ``act`` message's action: check,
    call or fold, cut in the middle, swap the first two cards, keep the stock."""
    if view["phase"] == "betting":
        o = view["options"]
        return {"type": "check"} if o["check"] else {"type": "call"} if o["call"] else {"type": "fold"}
    if view["phase"] == "cut":
        return {"type": "cut", "position": 20}
    if view["phase"] == "draw":
        return {"type": "discard", "indices": [0, 1]}
    return {"type": "stock_to_active", "index": None}


def passive_action(view: Any) -> Any:
    """A SeatView's passive choice: check, call, keep, stand pat, cut in the middle."""
    from pokeroulette_tui.engine.actions import (AllIn, Call, Check, Cut, Discard, Fold,
                                                 MoveStockToActive)
    seat = view.seat
    if view.phase == "betting":
        o = view.options
        if o.check:
            return Check(seat=seat)
        if o.call:
            return Call(seat=seat)
        return AllIn(seat=seat) if o.all_in else Fold(seat=seat)
    if view.phase == "stock_to_active":
        return MoveStockToActive(seat=seat, index=None)
    if view.phase == "draw":
        return Discard(seat=seat, indices=())
    return Cut(seat=seat, position=view.deck_count // 2)


async def autoplay(session: Any, *, hands: int, policy=passive_action,
                   stop: Any = None) -> list[Any]:
    """Play ``session`` until hand ``hands`` is over (or the game ends); returns its updates."""
    from pokeroulette_tui.engine.actions import IllegalAction
    seen = []
    async for update in session.updates():
        seen.append(update)
        if update.closed:
            break
        try:
            view = session.view(session.seat)
        except IllegalAction:
            continue
        if view.game_over or view.hand_no > hands or (stop is not None and stop(view)):
            break
        if view.my_turn and not view.dealer_step:
            try:
                await session.act(policy(view))
            except IllegalAction:
                pass
    return seen
