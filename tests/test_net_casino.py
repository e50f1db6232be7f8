"""The casino over the network: a CasinoHost on plain values (hostile input, the round's
timers, seats held and taken back), and real loopback TCP/TLS tables with two players."""

from __future__ import annotations

import asyncio
import os
import json
from typing import Any

import pytest

from pokeroulette_tui.engine.casino.game import CasinoError, Stage
from pokeroulette_tui.engine.casino.paytable import NAMED
from pokeroulette_tui.engine.casino.store import START_BANKROLL
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net import tls
from pokeroulette_tui.net.casino_client import RemoteCasino, plays_casino
from pokeroulette_tui.net.casino_host import CasinoConfig, CasinoHost
from pokeroulette_tui.net.client import ConnectError
from pokeroulette_tui.net.server import Server

HELLO = {"type": "hello", "version": P.VERSION, "game": "casino"}


class Peer:
    def __init__(self, cid: int) -> None:
        self.cid, self.inbox, self.closed = cid, [], False
        self.token: str | None = None

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.inbox if m["type"] == kind]

    def state(self) -> dict[str, Any]:
        return self.of("casino")[-1]

    def errors(self) -> list[str]:
        return [m["message"] for m in self.of("error")]


class Harness:
    """A CasinoHost with a fake clock and fake connections (through encode/decode)."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("seed", 5)
        kw.setdefault("deal_pause", 0.5)
        kw.setdefault("result_pause", 3.0)
        self.host = CasinoHost(CasinoConfig(**kw))
        self.now = 100.0
        self.peers: dict[int, Peer] = {}

    def deliver(self, outs) -> None:
        for o in outs:
            peer = self.peers.get(o.cid)
            if peer is None or peer.closed:
                continue
            if o.msg is not None:
                peer.inbox.append(json.loads(P.encode(o.msg)))
            if o.close:
                peer.closed = True
                self.deliver(self.host.disconnect(o.cid, self.now))

    def connect(self) -> Peer:
        peer = Peer(len(self.peers) + 1)
        self.peers[peer.cid] = peer
        self.deliver(self.host.connect(peer.cid, self.now, ("10.0.0.1", 5000 + peer.cid)))
        return peer

    def send(self, peer: Peer, msg: dict[str, Any] | bytes) -> None:
        line = msg if isinstance(msg, bytes) else P.encode(msg)
        self.deliver(self.host.receive(peer.cid, line, self.now))

    def join(self, name: str, **hello: Any) -> Peer:
        peer = self.connect()
        self.send(peer, {**HELLO, "name": name, **hello})
        if peer.of("welcome"):
            peer.token = peer.of("welcome")[0]["token"]
        return peer

    def drop(self, peer: Peer) -> None:
        peer.closed = True
        self.deliver(self.host.disconnect(peer.cid, self.now))

    def run(self, seconds: float, step: float = 0.25) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now += step
            self.deliver(self.host.poll(self.now))


def bet(ref: int, kind: str, target: str = "", amount: int = 5) -> dict[str, Any]:
    return {"type": "bet", "id": ref, "kind": kind, "target": target, "amount": amount}


def test_two_players_bet_ready_deal_settle_and_see_each_other():
    h = Harness()
    ana, bo = h.join("Ana"), h.join("Bo")
    assert ana.of("welcome")[0]["game"] == "casino" and bo.of("welcome")[0]["seat"] == 1
    h.send(ana, bet(1, "colour", "red", 10))
    h.send(bo, bet(1, "suit", "S", 25))
    h.send(bo, bet(2, "progressive"))
    assert ana.of("ok")[-1]["bet"] == {"kind": "colour", "target": "red", "amount": 10}
    seen = ana.state()["players"]  # Ana sees Bo's bets and bankroll
    assert seen[1]["bets"] == [{"kind": "suit", "target": "S", "amount": 25},
                               {"kind": "progressive", "target": "", "amount": 1}]
    assert seen[1]["bankroll"] == START_BANKROLL - 26 and seen[0]["bankroll"] == START_BANKROLL - 10
    h.send(ana, {"type": "ready", "id": 3})
    assert ana.state()["stage"] == "betting" and ana.state()["players"][0]["ready"]
    assert ana.state()["closes_in"] == 30.0  # the timer for the others
    h.send(bo, {"type": "ready", "id": 4})
    assert bo.state()["stage"] == "dealing" and bo.state()["dealt"] == []
    h.run(0.5)
    assert len(bo.state()["dealt"]) == 1
    h.run(2.0)
    final = ana.state()
    assert final["stage"] == "settled" and len(final["dealt"]) == 5
    for i, (peer, staked) in enumerate(((ana, 10), (bo, 26))):
        me = peer.state()["players"][i]
        paid = sum(r["paid"] for r in me["results"])
        assert me["bankroll"] == START_BANKROLL - staked + paid
        assert peer.state()["you"] == i
    # Enter from both: the next round at once, bankrolls kept
    h.send(ana, {"type": "ready", "id": 5})
    h.send(bo, {"type": "ready", "id": 6})
    assert ana.state()["stage"] == "betting" and ana.state()["round"] == 2
    # and rebet places last round's bets again
    h.send(bo, {"type": "rebet", "id": 7})
    assert len(bo.state()["players"][1]["bets"]) == 2


def test_the_deck_is_never_sent():
    h = Harness()
    ana = h.join("Ana")
    h.send(ana, bet(1, "colour", "red"))
    h.send(ana, {"type": "ready", "id": 2})
    h.run(0.5)  # one card out, four more to come from the shuffled deck
    deck = h.host.casino.deck
    assert len(deck) == 53 and len(ana.state()["dealt"]) == 1
    coming = {c.text for c in deck[-4:]} - set(ana.state()["dealt"])
    seen = "".join(json.dumps(m) for m in ana.inbox)
    assert "deck" not in seen and coming
    for text in coming:
        assert f'"{text}"' not in seen, text


@pytest.mark.parametrize("msg, words", [
    (b"not json\n", "not valid JSON"),
    ({"type": "act", "id": 1}, "takes no 'act'"),
    (bet(1, "nonsense"), "there is no bet called"),
    (bet(1, "split", "As 2d"), "do not adjoin"),
    (bet(1, "card", "As", 0), '"amount" must be a whole number'),
    (bet(1, "card", "As", 10**15), '"amount" must be a whole number'),
    (bet(1, "card", "As", 501), "at most 500 on one spot"),
    (bet(1, "poker", "pair"), "takes no poker bet"),
    ({"type": "bet", "id": 1, "kind": "card", "target": ["As"], "amount": 5}, "must be text"),
    ({"type": "bet", "id": "x", "kind": "card", "target": "As", "amount": 5}, '"id" must be'),
    ({"type": "undo", "id": 1}, "No bet to take back"),
    ({"type": "rebet", "id": 1}, "No bets from the last round"),
    ({"type": "rebuy", "id": 1}, "a fresh bankroll is for a player with none left"),
    ({"type": "ready", "id": 1, "ready": "yes"}, '"ready" must be true or false'),
    ({"type": "hello", "version": 2, "name": "Again", "game": "casino"}, "takes no 'hello'"),
])
def test_hostile_and_illegal_requests_get_one_clear_error(msg, words):
    h = Harness()
    ana = h.join("Ana")
    h.send(ana, msg)
    assert any(words.lower() in e.lower() for e in ana.errors()), ana.errors()
    assert not ana.closed and ana.state()["players"][0]["bankroll"] == START_BANKROLL


def test_amounts_over_the_bankroll_and_bets_after_close_are_refused():
    h = Harness(deal_pause=1.0)
    ana, bo = h.join("Ana"), h.join("Bo")
    for i in range(4):
        h.send(ana, bet(i, "card", ("2s", "3s", "4s", "5s")[i], 250))
    h.send(ana, bet(9, "card", "6s", 1))
    assert any("Not enough chips: 0 left" in e for e in ana.errors())
    h.send(ana, {"type": "ready", "id": 10})
    h.send(bo, {"type": "ready", "id": 11})  # Bo sits this round out
    assert h.host.casino.stage is Stage.DEALING
    h.send(bo, bet(12, "colour", "red"))
    assert bo.errors()[-1] == "Bets are closed: wait for the next round"
    assert bo.of("error")[-1]["id"] == 12


def test_hellos_names_and_passwords():
    h = Harness(password="pw")
    plain = h.connect()
    h.send(plain, {"type": "hello", "version": 2, "name": "Old"})  # a card-table client
    assert plain.closed and "this is a casino table" in plain.errors()[0]
    nopw = h.join("Ana")
    assert nopw.closed and "this table has a password" in nopw.errors()[0]
    h.host.guard = type(h.host.guard)()  # (forget the back-off for the next ones)
    ana = h.join("Ana", password="pw")
    assert ana.of("welcome")
    h.host.guard = type(h.host.guard)()
    thief = h.join("ana", password="pw")  # a taken name without its token
    assert thief.closed and "Ana is seated at this table" in thief.errors()[0]
    probe = h.connect()
    h.send(probe, {"type": "which"})
    assert probe.inbox == [{"type": "which", "game": "casino", "version": P.VERSION}]
    assert probe.closed


def test_a_player_who_drops_mid_round_is_settled_and_can_come_back():
    h = Harness()
    ana, bo = h.join("Ana"), h.join("Bo")
    h.send(ana, bet(1, "colour", "black", 50))
    h.send(bo, bet(1, "colour", "red", 20))
    h.send(ana, {"type": "ready", "id": 2})
    h.drop(ana)  # gone with her bet on the board
    assert any("Ana left the table" in n["text"] for n in bo.of("notice"))
    h.send(bo, {"type": "ready", "id": 2})  # Bo alone decides now
    h.run(3.0)
    assert h.host.casino.stage is Stage.SETTLED
    ana_after = bo.state()["players"][0]
    assert not ana_after["connected"] and ana_after["results"]
    h.run(3.0)  # the result pause: the next round opens by itself
    assert bo.state()["stage"] == "betting"
    back = h.join("Ana", token=ana.token)
    assert back.of("welcome")[0]["seat"] == 0
    assert back.state()["players"][0]["bankroll"] == ana_after["bankroll"]
    # her last round's bets come with the state: a client that restarted can offer rebet
    assert back.state()["players"][0]["last_bets"] == [
        {"kind": "colour", "target": "black", "amount": 50}]
    from pokeroulette_tui.net import casino_wire as W
    casino, __, ___ = W.read_state(back.state(), h.host.casino.table, None)
    assert [(b.target, b.amount) for b in casino.players[0].last_bets] == [("black", 50)]
    h.send(back, {"type": "rebet", "id": 3})
    assert [b["amount"] for b in back.state()["players"][0]["bets"]] == [50]


def test_bets_close_on_the_timer_when_someone_never_says_ready():
    h = Harness(bet_timeout=10.0)
    ana, bo = h.join("Ana"), h.join("Bo")
    h.send(ana, bet(1, "half", "low"))
    h.send(ana, {"type": "ready", "id": 2})
    h.run(9.5)
    assert h.host.casino.stage is Stage.BETTING
    h.run(0.75)
    assert h.host.casino.stage is not Stage.BETTING
    assert any("Time is up" in n["text"] for n in bo.of("notice"))


def test_a_flood_is_refused_and_garbage_never_crashes_the_host():
    h = Harness()
    ana = h.join("Ana")
    for i in range(40):
        h.send(ana, bet(i, "colour", "red", 1))
    assert any("slow down" in e for e in ana.errors())
    for junk in (b"\xff\xfe\n", b"[]\n", b'{"type": 5}\n', b'{"type": "bet"}\n', b"{}\n"):
        h.send(ana, junk)
    assert not ana.closed
    h.host.config.max_errors = 3
    for _ in range(5):
        h.send(ana, b"junk\n")
    assert ana.closed and ana.errors()[-1] == "too many errors"


# -- over loopback TCP and TLS --------------------------------------------------------------

async def served(tmp_path, **kw):
    host = CasinoHost(CasinoConfig(seed=3, deal_pause=0.05, result_pause=0.3, **kw))
    server = Server(host)
    ident = tls.host_identity(tmp_path / "host")
    _, port = await server.start("127.0.0.1", 0, ssl=tls.server_context(ident))
    return host, server, port


def client(tmp_path, port: int, name: str, **kw) -> RemoteCasino:
    return RemoteCasino("127.0.0.1", port, name, tls=True,
                        known=tls.KnownTables(tmp_path / f"known-{name}"), **kw)


async def until(pred, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not pred():
            await asyncio.sleep(0.01)


async def test_two_players_over_tls_each_see_their_own_bankroll_and_the_others_bets(tmp_path):
    host, server, port = await served(tmp_path, table=NAMED["generous"])
    try:
        assert await asyncio.to_thread(plays_casino, "127.0.0.1", port, tls=True)
        ana, bo = client(tmp_path, port, "Ana"), client(tmp_path, port, "Bo")
        await ana.connect()
        await bo.connect()
        assert "pinned" in ana.tls_note and ana.pay_table.name == "generous"
        await until(lambda: len(ana.casino.players) == 2)
        placed = await ana.place(0, "rank", "K", 30)
        assert placed.amount == 30
        await bo.place(1, "colour", "black", 40)
        with pytest.raises(CasinoError, match="not enough chips"):
            await bo.place(1, "card", "As", START_BANKROLL)
        await until(lambda: ana.casino.players[1].bets and bo.casino.players[0].bets)
        assert [b.target for b in ana.casino.players[1].bets] == ["black"]
        await ana.deal(0)
        await bo.deal(1)
        await until(lambda: ana.casino.stage is Stage.SETTLED and
                    bo.casino.stage is Stage.SETTLED)
        for s, seat, staked in ((ana, 0, 30), (bo, 1, 40)):
            p = s.casino.players[seat]
            assert p.bankroll == START_BANKROLL - staked + sum(r.paid for r in p.results)
            assert len(s.casino.dealt) == 5
        # the host's engine and both mirrors agree
        assert [p.bankroll for p in host.casino.players] == \
            [p.bankroll for p in ana.casino.players] == [p.bankroll for p in bo.casino.players]
        await until(lambda: ana.casino.stage is Stage.BETTING)  # the result pause
        await ana.close()
        await bo.close()
    finally:
        await server.close()


async def test_the_host_survives_a_client_dropping_mid_round(tmp_path):
    host, server, port = await served(tmp_path)
    try:
        ana, bo = client(tmp_path, port, "Ana"), client(tmp_path, port, "Bo")
        await ana.connect()
        await bo.connect()
        await ana.place(0, "suit", "H", 10)
        await bo.place(1, "suit", "C", 10)
        await bo.deal(1)
        # Ana's connection dies without a word (no quit)
        ana._writer.transport.abort()
        ana._closing = True
        await until(lambda: not bo.seat_info(0).connected)
        await until(lambda: bo.casino.stage is Stage.SETTLED)
        assert bo.casino.players[0].results  # her bet was settled all the same
        await until(lambda: bo.casino.stage is Stage.BETTING)
        await bo.place(1, "card", "Qd", 5)  # the table goes on
        # a garbage line from a raw socket on the side changes nothing
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=tls.client_context())
        writer.write(b"\x00garbage\n")
        await writer.drain()
        answer = json.loads(await reader.readline())
        assert answer["type"] == "error" and answer["fatal"]
        writer.close()
        assert host.casino.players[1].bets
        await bo.close()
    finally:
        await server.close()


async def test_join_tells_a_card_table_from_a_casino_and_a_wrong_password(tmp_path):
    from net_helpers import Served

    from pokeroulette_tui.engine.rules import RuleSet

    async with Served(RuleSet(suit_order="SHDC")) as srv:
        assert not await asyncio.to_thread(plays_casino, "127.0.0.1", srv.port, tls=False)
    _, server, port = await served(tmp_path, password="sesame")
    try:
        s = client(tmp_path, port, "Eve", password="guess")
        with pytest.raises(ConnectError, match="wrong password"):
            await s.connect()
    finally:
        await server.close()


def test_the_timer_stops_when_nobody_is_ready_any_more():
    h = Harness(bet_timeout=10.0)
    ana, bo = h.join("Ana"), h.join("Bo")
    h.send(ana, bet(1, "half", "high"))
    h.send(ana, {"type": "ready", "id": 2})
    h.run(5.0)
    h.send(ana, bet(3, "half", "high"))  # more chips: not ready, and no timer
    assert ana.state()["closes_in"] is None
    h.run(8.0)
    assert h.host.casino.stage is Stage.BETTING
    h.send(ana, {"type": "ready", "id": 4})  # a fresh timer
    assert ana.state()["closes_in"] == 10.0
    assert bo.state()["players"][0]["ready"]


# -- the command line -----------------------------------------------------------------------

async def test_join_picks_up_a_casino_table_and_host_flags_are_checked(tmp_path, monkeypatch,
                                                                      capsys):
    from pokeroulette_tui.cli import _casino_at, build_parser, main

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))
    _, server, port = await served(tmp_path)
    try:
        args = build_parser().parse_args(["join", f"127.0.0.1:{port}", "--name", "Bo"])
        session, info = await asyncio.to_thread(_casino_at, args)
        assert isinstance(session, RemoteCasino) and session.name == "Bo" and session.tls
        assert info == [f"Joining the casino table at 127.0.0.1:{port} as Bo"]
        await session.connect()
        assert session.seat == 0
        assert "game over" not in (await session.close())
        watch = build_parser().parse_args(["join", f"127.0.0.1:{port}", "--name", "Cy",
                                           "--spectate"])
        with pytest.raises(Exception, match="no spectators' chairs"):
            await asyncio.to_thread(_casino_at, watch)
    finally:
        await server.close()
    for argv, words in ((["--unix"], "--unix is for the card table"),
                        (["--bots", "2"], "--bots is for the card table"),
                        (["--pay-table", "loose"], "no pay table called 'loose'"),
                        (["--delay", "9"], "--delay (the pause between the cards of a deal)"),
                        (["--turn-timeout", "-1"], "--turn-timeout (how long the others")):
        assert main(["host", "--casino", "--headless", *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    assert main(["host", "--pay-table", "tight", "--headless"]) == 2
    assert "--pay-table goes with --casino" in capsys.readouterr().err


async def test_a_tls_join_at_a_plain_casino_table_is_told_to_use_no_tls(tmp_path):
    host = CasinoHost(CasinoConfig(seed=1))
    server = Server(host)
    _, port = await server.start("127.0.0.1", 0)
    try:
        assert await asyncio.to_thread(plays_casino, "127.0.0.1", port, tls=True)
        s = client(tmp_path, port, "Ana")
        with pytest.raises(ConnectError, match="does not speak TLS.*--no-tls"):
            await s.connect()
    finally:
        await server.close()


def test_a_card_table_answers_which_with_its_game_and_closes(caplog):
    """``join`` asks a host what it plays before saying hello: a card table says "table" and
    closes, without counting it as a refused hello (nothing in the log, no back-off)."""
    from net_helpers import Harness as TableHarness
    from net_helpers import make_host

    h = TableHarness(make_host())
    probe = h.connect()
    with caplog.at_level("INFO", logger="pokeroulette.net"):
        h.send(probe, {"type": "which"})
    assert probe.inbox == [{"type": "which", "game": "table", "version": P.VERSION}]
    assert probe.closed
    assert not any("refused" in r.getMessage() for r in caplog.records)
    player = h.join("Ada")  # the table goes on as before
    assert player.of("welcome") and not player.errors()


def test_a_casino_join_checks_its_tls_flags_as_a_card_table_join_does():
    """--fingerprint with --no-tls, or a malformed fingerprint: one clear error before any
    connection (the same check as a card table's join)."""
    import argparse

    from pokeroulette_tui.errors import CliError
    from pokeroulette_tui.net.casino_launch import casino_session

    def args(**kw):
        return argparse.Namespace(**{"spectate": False, "name": "Ada", "password": None,
                                     "fingerprint": None, "no_tls": False, **kw})
    with pytest.raises(CliError, match="cannot go with --no-tls"):
        casino_session(args(fingerprint="ab" * 32, no_tls=True), "127.0.0.1", 1)
    with pytest.raises(CliError):
        casino_session(args(fingerprint="not-a-fingerprint"), "127.0.0.1", 1)


def test_a_casino_join_checks_who_serves_the_port_as_a_card_join_does(tmp_path, monkeypatch):
    """``--owner`` (or this account's own host secret for the port) says whose table it must
    be: the casino client then sends neither password nor token to another account's port."""
    from pokeroulette_tui.cli import CliError, build_parser
    from pokeroulette_tui.net import files, unix
    from pokeroulette_tui.net.casino_launch import casino_session

    monkeypatch.setenv("POKEROULETTE_HOME", str(tmp_path))

    def session(*flags):
        args = build_parser().parse_args(["join", "127.0.0.1:47123", "--name", "Ana", *flags])
        return casino_session(args, "127.0.0.1", 47123)

    assert session().server_uid is None  # the first connection pins it
    assert session("--owner", "nobody").server_uid == unix.account_named("nobody").uid
    files.store_admin(47123, "host-secret")
    assert session().server_uid == os.geteuid()
    with pytest.raises(CliError, match="--owner checks who serves a table on this machine"):
        args = build_parser().parse_args(["join", "10.0.0.5:47123", "--name", "Ana",
                                          "--owner", "nobody"])
        casino_session(args, "10.0.0.5", 47123)


async def test_a_casino_client_sends_nothing_to_another_accounts_port(tmp_path):
    host, server, port = await served(tmp_path, password="pw")
    try:
        got: list[bytes] = []
        orig = host.receive
        host.receive = lambda cid, line, now: got.append(line) or orig(cid, line, now)
        ana = client(tmp_path, port, "Ana", password="pw", server_uid=54321)  # not the server's
        with pytest.raises(ConnectError, match="not uid54321: someone else took the port"):
            await ana.connect()
        await asyncio.sleep(0.1)
        assert got == []  # no hello: no password, no token
    finally:
        await server.close()
